"""The commands of online venues (issue 27 §2) driven as an organiser and two venue judges
would, on a SQLite file: ``venue add``, ``player add --venue``, ``tournament pin judge|
assistant --venue [--tables A-B]`` (PINs from a file, never on the command line),
``player list`` and ``venue list`` with the venue, ``standings --venue``; every wrong
input refused with a Spanish message naming it, every refused action with status 3.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from duplicate.prepared.file import PreparedGame
from duplicate.prepared.generation import generate
from lexicon.lexicon import Lexicon
from tests.credentials import JUDGE_PIN
from tui.cli.main import main

PINS = {"organizador": JUDGE_PIN, "juez Lloret": "lloret-juez-pin", "juez Reus": "reus-juez-pin",
        "aux Lloret": "lloret-aux-pin"}


@pytest.fixture(scope="module")
def prepared(spanish_lexicon: Lexicon) -> PreparedGame:
    return generate(spanish_lexicon, 12, 2)


@pytest.fixture
def run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("DUPLICADA_DB", str(tmp_path / "sedes.db"))
    monkeypatch.setenv("DUPLICADA_STATION", "organizador")
    monkeypatch.delenv("DUPLICADA_PIN", raising=False)
    files = {}
    for who, pin in PINS.items():
        files[who] = tmp_path / f"{who.replace(' ', '-')}.pin"
        files[who].write_text(pin + "\n", encoding="utf-8")
    runner = CliRunner()

    def invoke(*args: str, who: str = "organizador", code: int = 0) -> Result:
        """Run as the station of ``who`` (its PIN file), expecting exit status ``code``."""
        result = runner.invoke(main, [*args, "--pin-file", str(files[who])])
        assert result.exit_code == code, result.output
        return result

    invoke.files = files  # type: ignore[attr-defined]
    return invoke


def test_setting_up_and_playing_with_online_venues(run, tmp_path: Path, prepared: PreparedGame) -> None:
    files = run.files
    run("tournament", "create", "Simultáneo", "--venue", "Tarragona", "--bonus", "automatic")
    assert "Lloret" in run("venue", "add", "Lloret").output
    run("venue", "add", "Reus")
    assert "ya hay una sede «Lloret»" in run("venue", "add", "lloret", code=1).output
    assert "ya hay una sede «Tarragona»" in run("venue", "add", "Tarragona", code=1).output
    # Unknown venues are named, with the ones there are.
    refused = run("player", "add", "Ana", "--venue", "Girona", code=1).output
    assert "ninguna sede en línea «Girona»" in refused and "«Lloret», «Reus»" in refused
    assert "Girona" in run("tournament", "pin", "judge", "--venue", "Girona", "--new-pin-file",
                           str(files["juez Lloret"]), code=1).output
    # Venue judges' PINs, from a file; the PIN is never printed.
    for venue in ("Lloret", "Reus"):
        said = run("tournament", "pin", "judge", "--venue", venue, "--new-pin-file", str(files[f"juez {venue}"])).output
        assert f"PIN del juez árbitro de la sede «{venue}» guardado" in said and PINS[f"juez {venue}"] not in said
    # Each venue's judge registers its room's players and its assistant with its tables.
    for index in range(3):
        assert "sede «Lloret»" in run("player", "add", f"Lloret {index + 1}", "--venue", "Lloret",
                                      who="juez Lloret").output
        run("player", "add", f"Reus {index + 1}", who="juez Reus")          # its venue by default
    denied = run("player", "add", "Intruso", "--venue", "Reus", who="juez Lloret", code=3).output
    assert "Denegado" in denied and "sede «Lloret»" in denied and "Reus" in denied
    early = run("assistant", "set", "aux Lloret", "1", "3", who="juez Lloret", code=3).output
    assert "aún no tiene PIN de la sede «Lloret»" in early
    bad = run("tournament", "pin", "assistant", "--name", "aux Lloret", "--tables", "siete",
              "--new-pin-file", str(files["aux Lloret"]), who="juez Lloret", code=2).output
    assert "tramo de mesas" in bad
    said = run("tournament", "pin", "assistant", "--name", "aux Lloret", "--tables", "1-3",
               "--new-pin-file", str(files["aux Lloret"]), who="juez Lloret").output
    assert "aux Lloret: mesas 1–3" in said and "Aviso" not in said
    assert "Denegado" in run("tournament", "pin", "assistant", "--name", "aux Lloret", "--new-pin-file",
                             str(files["juez Reus"]), who="juez Reus", code=3).output
    # The organiser gives the venue's assistant a new PIN: it stays in its venue (the venue
    # list below still shows it in Lloret; it would otherwise get every table of the event).
    run("tournament", "pin", "assistant", "--name", "aux Lloret", "--new-pin-file", str(files["aux Lloret"]))
    both = run("tournament", "pin", "assistant", "--name", "aux Lloret", "--venue", "Reus", "--organiser-room",
               "--new-pin-file", str(files["aux Lloret"]), code=2).output
    assert "--organiser-room" in both
    listed = run("player", "list").output
    assert "sede: Lloret" in listed and "sede: Reus" in listed
    table = run("venue", "list").output                       # a time the arbiter reads, not ISO
    assert re.search(r"Lloret .* \d\d/\d\d/\d{4} \d\d:\d\d", table) and "T0" not in table and "T1" not in table
    venues = json.loads(run("venue", "list", "--format", "json").output)
    assert [(row["sede"], row["tipo"], row["jugadores"], row["juez"], row["auxiliares"]) for row in venues] == [
        ("Lloret", "en línea", 3, "juez de Lloret", "aux Lloret"), ("Reus", "en línea", 3, "juez de Reus", "")]
    # The whole game is the organiser's.
    game_file = tmp_path / "maestra.json"
    game_file.write_text(prepared.to_json(), encoding="utf-8")
    assert "Denegado" in run("game", "start", "--prepared", str(game_file), who="juez Reus", code=3).output
    assert "Denegado" in run("venue", "add", "Girona", who="juez Reus", code=3).output
    run("game", "start", "--prepared", str(game_file))
    for round_ in prepared.rounds:
        run("rack", "draw")
        assert "Denegado" in run("master", "choose", who="juez Lloret", code=3).output
        run("master", "choose")
        run("slip", "master", "1", "2", "3", who="aux Lloret")            # Lloret: tables 1–3
        refused = run("slip", "enter", "4", round_.master, who="aux Lloret", code=3).output
        assert "Reus" in refused
        for table in (4, 5, 6):
            run("slip", "enter", str(table), "H8-QZQZ", who="juez Reus")
        run("round", "close")
    rows = json.loads(run("standings", "--format", "json").output)
    assert {row["sede"] for row in rows} == {"Lloret", "Reus"} and len(rows) == 6
    assert all(row["total"] == prepared.total for row in rows if row["sede"] == "Lloret")
    assert all(row["total"] == 0 for row in rows if row["sede"] == "Reus")
    for venue in ("Lloret", "Reus"):
        own = json.loads(run("standings", "--venue", venue, "--format", "json").output)
        assert len(own) == 3 and {row["sede"] for row in own} == {venue} and own[0]["puesto"] == 1
    assert "Girona" in run("standings", "--venue", "Girona", code=1).output
    out = tmp_path / "registro.json"
    run("export", str(out))
    record = json.loads(out.read_text(encoding="utf-8"))
    assert record["format_version"] == 14 and {player["venue"] for player in record["players"]} == {"Lloret", "Reus"}
    verified = CliRunner().invoke(main, ["verify", str(out)])
    assert verified.exit_code == 0, verified.output
    pin_events = [event for event in record["events"] if event["kind"] == "pin_changed"]
    assert {event["payload"].get("venue") for event in pin_events} == {"Lloret", "Reus"}
    assert all(pin not in out.read_text(encoding="utf-8") for pin in PINS.values())


def test_a_player_moved_to_another_venue(run, tmp_path: Path) -> None:
    run("tournament", "create", "Cambios")
    run("venue", "add", "Lloret")
    run("venue", "add", "Reus")
    run("tournament", "pin", "judge", "--venue", "Lloret", "--new-pin-file", str(run.files["juez Lloret"]))
    run("player", "add", "Ana", "--venue", "Lloret")
    assert "Girona" in run("player", "venue", "1", "Girona", code=1).output
    assert "Denegado" in run("player", "venue", "1", "Reus", who="juez Lloret", code=3).output
    assert "sede «Reus»" in run("player", "venue", "1", "Reus", "--reason", "se inscribió en otra sala").output
    assert "sede: Reus" in run("player", "list").output
    assert "sala del organizador" in run("player", "venue", "1").output
    out = tmp_path / "registro.json"
    run("export", str(out))
    record = json.loads(out.read_text(encoding="utf-8"))
    assert record["players"][0]["venue"] is None
    verified = CliRunner().invoke(main, ["verify", str(out)])
    assert verified.exit_code == 0, verified.output
    moved = json.loads(out.read_text(encoding="utf-8"))
    moved["players"][0]["venue"] = "Reus"                    # the last move undone in the record alone
    out.write_text(json.dumps(moved, ensure_ascii=False), encoding="utf-8")
    assert CliRunner().invoke(main, ["verify", str(out)]).exit_code != 0
