"""The README's fixed scripting forms of issue 27, each one as written, on one event: a
prepared game played by two venues on their own databases, imported by an organiser with
no room of its own; its standings (with a «sede» column), one venue's, the Eliot export
and import back, EloDI of the whole field and the publication with the venue pages."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from tests.credentials import JUDGE_PIN
from tui.cli.main import main

ROUNDS = 12          # EloDI's minimum (V), so that the event is rated


@pytest.fixture
def run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("DUPLICADA_STATION", "mesa-1")
    monkeypatch.setenv("DUPLICADA_PIN", JUDGE_PIN)
    monkeypatch.delenv("DUPLICADA_DB", raising=False)
    runner = CliRunner()

    def invoke(*args: str, db: str | None = None, code: int = 0) -> Result:
        result = runner.invoke(main, [*args, *(("--db", str(tmp_path / db)) if db else ())])
        assert result.exit_code == code, result.output
        return result

    return invoke


def test_a_venue_event_through_the_fixed_forms(run, tmp_path: Path) -> None:
    maestra = tmp_path / "maestra.json"
    run("prepared", "create", "-o", str(maestra), "--seed", "5", "--rounds", str(ROUNDS), "--min-total", "100",
        "--min-rounds", str(ROUNDS), "--max-rounds", str(ROUNDS))
    assert "correcta" in run("prepared", "check", str(maestra)).output
    rounds = json.loads(maestra.read_text(encoding="utf-8"))["rounds"]
    rooms = {"Lloret": ["Ana", "Blas", "Celia"], "El Vendrell": ["Dora", "Eloy"]}
    for venue, names in rooms.items():
        db = f"{venue}.db"
        run("tournament", "create", "Simultáneo", "--venue", venue, db=db)
        run("tournament", "key", "--out", str(tmp_path / f"{venue}.pem"), db=db)    # sent to the organiser
        for name in names:
            run("player", "add", name, db=db)
        run("game", "start", "--prepared", str(maestra), db=db)
        for _ in rounds:
            run("rack", "draw", db=db)
            run("master", "choose", db=db)
        for round_ in rounds:                     # III.15: the slips at the end of the game
            for table in range(1, len(names) + 1):
                text = round_["master"] if (table + round_["number"]) % 3 else "H8-QZQZ"
                run("slip", "enter", str(table), text, "--round", str(round_["number"]), db=db)
            run("round", "close", "--round", str(round_["number"]), db=db)
        run("export", str(tmp_path / f"{venue}.json"), db=db)

    org = "org.db"
    run("tournament", "create", "Simultáneo nacional", "--venue", "Barcelona", db=org)
    run("game", "start", "--prepared", str(maestra), db=org)
    for venue in rooms:                               # each venue's key registered before the event (issue 35 §2)
        run("venue", "key", venue, str(tmp_path / f"{venue}.pem"), db=org)
    for venue in rooms:
        assert f"Sede «{venue}» importada" in run("venue", "import", str(tmp_path / f"{venue}.json"), "--venue", venue,
                                                   db=org).output
    table = list(csv.DictReader(io.StringIO(run("standings", "--format", "csv", db=org).output)))
    assert sorted((row["sede"], row["jugador"]) for row in table) == sorted(
        (venue, name) for venue, names in rooms.items() for name in names)
    overall = json.loads(run("standings", "--overall", "--format", "json", db=org).output)
    assert len(overall) == 5 and all("sede" in row for row in overall)
    lloret = json.loads(run("standings", "--venue", "Lloret", "--format", "json", db=org).output)
    assert [row["sede"] for row in lloret] == ["Lloret"] * 3 and lloret[0]["puesto"] == 1
    assert "Lloret" in run("standings", "--overall", "--venue", "Lloret", db=org).output

    xml = tmp_path / "partida.xml"
    run("export", "--format", "eliot", "--game", "1", str(xml), db="Lloret.db")
    back = tmp_path / "de-eliot.json"
    run("prepared", "create", "-o", str(back), "--from-eliot", str(xml))
    assert [(r["rack"], r["master"]) for r in json.loads(back.read_text(encoding="utf-8"))["rounds"]] == \
        [(r["rack"], r["master"]) for r in rounds]
    from_record = tmp_path / "de-registro.json"
    run("prepared", "create", "-o", str(from_record), "--from-record", str(tmp_path / "Lloret.json"), "--game", "1")
    assert [(r["rack"], r["master"]) for r in json.loads(from_record.read_text(encoding="utf-8"))["rounds"]] == \
        [(r["rack"], r["master"]) for r in rounds]

    run("game", "end", "--reason", "jugada en las sedes", db=org)
    run("game", "publish", "--final", db=org)             # rates the whole field (V)
    rated = json.loads(run("elodi", "list", "--format", "json", db=org).output)
    assert sorted(row["nombre"] for row in rated) == ["Ana", "Blas", "Celia", "Dora", "Eloy"]
    web = tmp_path / "web"
    run("publish", "--out", str(web), "--formats", "html", db=org)
    assert {path.name for path in web.glob("sede*.html")} == {"sedes.html", "sede-lloret.html",
                                                              "sede-el-vendrell.html"}
    # The same venue imported again after the rating: EloDI recomputed at once (V).
    again = run("venue", "import", str(tmp_path / "Lloret.json"), "--venue", "Lloret", db=org).output
    assert "sustituye la importación anterior" in again and "EloDI recalculado" in again
    assert "ha cambiado" not in run("elodi", "update", db=org).output
