"""The prepared-game commands (issue 27 §1) driven as an organiser and a judge would:
``prepared create`` (with quality filters, or from a record), ``prepared check`` and its
exit codes, ``game start --prepared`` then ``rack draw`` / ``master choose``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from duplicate.prepared.file import content_digest
from tests.command_line import judge_command_line


@pytest.fixture
def run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    return judge_command_line(monkeypatch, tmp_path / "torneo.db")


def test_create_check_and_play_a_prepared_game(run, tmp_path: Path) -> None:
    path = tmp_path / "maestra.json"
    output = run("prepared", "create", "-o", str(path), "--seed", "9", "--rounds", "4").output
    data = json.loads(path.read_text(encoding="utf-8"))
    assert "4 rondas" in output and data["digest"] in output
    assert "correcta" in run("prepared", "check", str(path)).output
    run("tournament", "create", "Simultáneo")
    run("player", "add", "Ana")
    run("player", "add", "Berta")
    assert "Partida preparada" in run("game", "start", "--prepared", str(path)).output
    for round_ in data["rounds"]:
        assert f"atril {round_['rack']}" in run("rack", "draw").output
        refused = run("master", "choose", "H8-CASA", code=1).output          # III.15: no choice
        assert "partida preparada" in refused and round_["master"] in refused
        assert f"{round_['master']} — {round_['score']} puntos; acumulado {round_['cumulative']}" in \
            run("master", "choose").output
    record = tmp_path / "registro.json"
    run("export", str(record))
    assert json.loads(record.read_text(encoding="utf-8"))["games"][0]["prepared"]["digest"] == data["digest"]
    again = tmp_path / "otra.json"
    run("prepared", "create", "-o", str(again), "--from-record", str(record), "--game", "1")
    assert [r["master"] for r in json.loads(again.read_text(encoding="utf-8"))["rounds"]] == \
        [r["master"] for r in data["rounds"]]
    run("prepared", "from-record", str(record), "--game", "1", "-o", str(again))
    assert "correcta" in run("prepared", "check", str(again)).output


def test_check_exits_1_naming_the_first_bad_round(run, tmp_path: Path) -> None:
    path = tmp_path / "maestra.json"
    run("prepared", "create", "-o", str(path), "--seed", "9", "--rounds", "5")
    data = json.loads(path.read_text(encoding="utf-8"))
    data["rounds"][2]["score"] += 3
    data["digest"] = content_digest({key: value for key, value in data.items() if key != "digest"})
    path.write_text(json.dumps(data), encoding="utf-8")
    output = run("prepared", "check", str(path), code=1).output
    assert "primera ronda mala: 3" in output and "ronda 3:" in output
    data["digest"] = "f" * 64
    path.write_text(json.dumps(data), encoding="utf-8")
    assert "digest" in run("prepared", "check", str(path), code=1).output


@pytest.mark.parametrize("content", [None, "no es json", '{"format": "duplicada-tournament-1"}', "\xff"])
def test_check_exits_2_for_a_file_it_cannot_read(run, tmp_path: Path, content: str | None) -> None:
    path = tmp_path / "mala.json"
    if content is not None:
        path.write_bytes(content.encode("latin-1"))
    output = run("prepared", "check", str(path), code=2).output
    assert output.startswith("Error:") and "Traceback" not in output


def test_filters_not_met_are_said_in_spanish(run, tmp_path: Path) -> None:
    path = tmp_path / "maestra.json"
    output = run("prepared", "create", "-o", str(path), "--seed", "1", "--rounds", "2", "--min-total", "900",
                 "--attempts", "2", code=1).output
    assert "ninguna de las 2 partidas" in output and not path.exists()
    output = run("prepared", "create", "-o", str(path), "--min-rounds", "9", "--max-rounds", "3", code=1).output
    assert "mínimo de rondas" in output


def test_filters_met_are_recorded_in_the_file(run, tmp_path: Path) -> None:
    path = tmp_path / "maestra.json"
    run("prepared", "create", "-o", str(path), "--seed", "2", "--min-total", "900", "--min-bingos", "2",
        "--min-rounds", "15", "--max-rounds", "25")
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["total"] >= 900 and data["bingos"] >= 2 and 15 <= len(data["rounds"]) <= 25
    assert data["origin"]["filters"] == {"min_total": 900, "min_rounds": 15, "max_rounds": 25, "min_bingos": 2}


def test_game_start_refuses_a_tampered_file(run, tmp_path: Path) -> None:
    path = tmp_path / "maestra.json"
    run("prepared", "create", "-o", str(path), "--seed", "9", "--rounds", "3")
    data = json.loads(path.read_text(encoding="utf-8"))
    data["rounds"][0]["master"] = data["rounds"][1]["master"]
    path.write_text(json.dumps(data), encoding="utf-8")
    run("tournament", "create", "T")
    run("player", "add", "Ana")
    assert "digest" in run("game", "start", "--prepared", str(path), code=1).output
    missing = run("game", "start", "--prepared", str(tmp_path / "nada.json"), code=1).output
    assert "nada.json" in missing and "Traceback" not in missing


def test_replacing_a_rack_says_the_game_leaves_the_prepared_game(run, tmp_path: Path) -> None:
    path = tmp_path / "maestra.json"
    run("prepared", "create", "-o", str(path), "--seed", "9", "--rounds", "3")
    run("tournament", "create", "T")
    run("player", "add", "Ana")
    run("game", "start", "--prepared", str(path))
    run("rack", "draw")
    output = run("rack", "replace", "--reason", "ficha vista").output
    assert "deja de ser la partida preparada desde la ronda 1" in output
    assert "Ronda 1: se deja la partida preparada" in run("history").output


def test_all_slips_imported_at_the_end_of_a_prepared_game(run, tmp_path: Path) -> None:
    # III.15: the masters fixed in advance, the slips checked at the end, each round's
    # against its own board; then the rounds are closed.
    path = tmp_path / "maestra.json"
    run("prepared", "create", "-o", str(path), "--seed", "9", "--rounds", "4")
    data = json.loads(path.read_text(encoding="utf-8"))
    run("tournament", "create", "T")
    run("player", "add", "Ana")
    run("player", "add", "Berta")
    run("game", "start", "--prepared", str(path))
    for _ in data["rounds"]:
        run("rack", "draw")
        run("master", "choose")
    slips = tmp_path / "papeletas.csv"
    lines = ["mesa,jugada,ronda"] + [f"1,{r['master']},{r['number']}" for r in data["rounds"]] + \
        [f"2,H8-QZQZ,{r['number']}" for r in data["rounds"]]
    slips.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert "8 papeletas leídas" in run("slip", "import", str(slips)).output
    for r in data["rounds"]:
        run("round", "close", "--round", str(r["number"]))
    rows = json.loads(run("standings", "--format", "json").output)
    assert rows[0]["jugador"] == "Ana" and rows[0]["puntos"] == data["total"]
    assert rows[1]["puntos"] == 0
