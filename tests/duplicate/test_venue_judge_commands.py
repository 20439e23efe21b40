"""What a venue judge reads at the command line (issue 35 §1, «small ones»): ``player add``
says the venue it used (and ``--help`` says which one is the default), ``player venue``
refused names the player's own venue, ``slip conflicts`` lists only its venue's conflicts
and ``tables show`` has a venue column. One event with two online venues on a SQLite file.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from tests.credentials import JUDGE_PIN
from tui.cli.main import main

PINS = {"organizador": JUDGE_PIN, "juez Lloret": "lloret-juez-pin", "juez Reus": "reus-juez-pin"}

Run = Callable[..., Result]


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Run:
    folder = tmp_path_factory.mktemp("jueces-de-sede")
    files = {}
    for who, pin in PINS.items():
        files[who] = folder / f"{who.replace(' ', '-')}.pin"
        files[who].write_text(pin + "\n", encoding="utf-8")
    runner = CliRunner()
    environment = {"DUPLICADA_DB": str(folder / "sedes.db"), "DUPLICADA_STATION": "organizador",
                   "DUPLICADA_PIN": None}

    def invoke(*args: str, who: str | None = "organizador", code: int = 0) -> Result:
        credential = ["--pin-file", str(files[who])] if who is not None else []
        result = runner.invoke(main, [*args, *credential], env=environment)
        assert result.exit_code == code, result.output
        return result

    invoke("tournament", "create", "Simultáneo", "--venue", "Tarragona", "--bonus", "automatic")
    for venue in ("Lloret", "Reus"):
        invoke("venue", "add", venue)
        invoke("tournament", "pin", "judge", "--venue", venue, "--new-pin-file", str(files[f"juez {venue}"]))
    return invoke


@pytest.fixture(scope="module")
def seated(run: Run) -> dict[str, int]:
    """Two players in each room; the game started, its first rack drawn; a conflict in
    each venue (table → entry of each player by name)."""
    for index in (1, 2):
        run("player", "add", f"Tarragona {index}")
        run("player", "add", f"Lloret {index}", who="juez Lloret")
        run("player", "add", f"Reus {index}", who="juez Reus")
    run("game", "start", "--seed", "3")
    run("rack", "draw")
    run("master", "choose")
    tables = {row["jugador"]: row["mesa"] for row in json.loads(run("tables", "show", "--format", "json").output)}
    for venue in ("Lloret", "Reus"):
        table = str(tables[f"{venue} 1"])
        run("slip", "enter", table, "H8-CASA", who=f"juez {venue}")
        run("slip", "enter", table, "H8-COSA", who=f"juez {venue}")          # a second, different slip
    return tables


def test_a_venue_judges_player_add_says_the_venue_it_used(run: Run) -> None:
    said = run("player", "add", "Lloret 9", who="juez Lloret").output
    assert "sede «Lloret»" in said, said
    assert "sala del organizador" in run("player", "add", "Tarragona 9").output
    shown = " ".join(run("player", "add", "--help", who=None).output.split())
    assert "sin ella, la del organizador" not in shown
    assert "el juez de una sede inscribe en su sede" in shown, shown


def test_player_venue_refused_names_the_players_own_venue(run: Run, seated: dict[str, int]) -> None:
    entries = {line.split()[1] + " " + line.split()[2]: line.split()[0]
               for line in run("player", "list", who=None).output.splitlines() if line.strip()}
    refused = run("player", "venue", entries["Lloret 1"], "Reus", who="juez Lloret", code=3).output
    assert "jugador de su sede «Lloret»" in refused and "a la sede «Reus»" in refused, refused
    assert "es de la sede «Reus»" not in refused                   # the player is not of Reus
    back = run("player", "venue", entries["Lloret 1"], who="juez Lloret", code=3).output
    assert "jugador de su sede «Lloret»" in back and "no es de ninguna sede" not in back, back


def test_slip_conflicts_of_a_venue_judge_are_its_venues_only(run: Run, seated: dict[str, int]) -> None:
    every = run("slip", "conflicts", who=None).output
    assert f"mesa {seated['Lloret 1']}:" in every and f"mesa {seated['Reus 1']}:" in every
    lloret = run("slip", "conflicts", who="juez Lloret").output
    assert f"mesa {seated['Lloret 1']}:" in lloret and f"mesa {seated['Reus 1']}:" not in lloret, lloret
    organiser = run("slip", "conflicts").output
    assert f"mesa {seated['Lloret 1']}:" in organiser and f"mesa {seated['Reus 1']}:" in organiser


def test_tables_show_has_a_venue_column(run: Run, seated: dict[str, int]) -> None:
    rows = json.loads(run("tables", "show", "--format", "json", who=None).output)
    assert {row["jugador"]: row["sede"] for row in rows if row["jugador"][-1] in "12"} == {
        "Tarragona 1": "Tarragona", "Tarragona 2": "Tarragona", "Lloret 1": "Lloret", "Lloret 2": "Lloret",
        "Reus 1": "Reus", "Reus 2": "Reus"}
    assert " sede " in run("tables", "show", who=None).output.splitlines()[0]
