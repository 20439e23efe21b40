"""The tournament commands (issue 3 §8) driven as an arbiter would, on a SQLite file."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import click
import pytest

from tests.command_line import judge_command_line
from tests.credentials import ASSISTANT_PINS, JUDGE_PIN
from tui.cli.main import main


@pytest.fixture
def run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    return judge_command_line(monkeypatch, tmp_path / "torneo.db")


def test_a_game_from_setup_to_final_results(run, tmp_path: Path) -> None:
    run("tournament", "create", "Open de Valencia", "--venue", "Valencia", "--start", "2026-11-21",
        "--bonus", "automatic", "--criterion", "average_place", "--tie-breaks",
        "--corrections-after-final")
    players = tmp_path / "jugadores.csv"
    players.write_text("nombre;club;pais;federacion\nAna Pérez;Club A;ES;1\nÍñigo Núñez;Club B;ES;2\n"
                       "Zoe Ruiz;;MX;3\n", encoding="utf-8")
    assert "3 jugadores" in run("player", "import", str(players)).output
    output = run("game", "start", "--rounds", "2", "--seed", "4").output
    assert "Aviso" in output and "10 jugadores o menos" in output            # III.24 advice
    seats = json.loads(run("tables", "show", "--format", "json").output)
    assert [seat["jugador"] for seat in seats] == ["Ana Pérez", "Íñigo Núñez", "Zoe Ruiz"]
    run("assistant", "set", "aux1", "1", "2")
    for round_number in (1, 2):
        assert f"Ronda {round_number}: atril" in run("rack", "draw").output
        output = run("master", "choose").output
        master = output.split(": ")[1].split(" —")[0]
        score = int(output.split("— ")[1].split(" puntos")[0])
        assert f"{score} puntos" in run("slip", "enter", "1", master).output
        assert "0 puntos" in run("slip", "enter", "2", "H8-QZQZ").output
        status = run("round", "status").output
        assert "aux1: 2/2" in status and "Faltan: 3" in status
        run("round", "close")
    rows = list(csv.DictReader(io.StringIO(run("standings", "--format", "csv", "--rounds").output)))
    assert rows[0]["jugador"] == "Ana Pérez" and rows[0]["puesto"] == "1"
    assert int(rows[0]["bonificaciones"]) == 20                              # sole master both rounds: +10 +10
    run("game", "publish")                                   # the agreed 2 rounds are played: the game is over
    result = run("claim", "file", "2", "3", "entregué la papeleta")
    claim_id = result.output.split()[1]
    run("game", "publish", "--final", code=1)                                 # an open claim
    run("claim", "resolve", claim_id, "--rejected", "--resolution", "no consta")
    run("game", "publish", "--final")
    assert "definitivos" in run("slip", "correct", "2", "--status", "late", "--reason", "x", "--round", "1",
                                code=1).output
    run("game", "reopen", "--reason", "papeleta traspapelada")
    run("slip", "correct", "3", master, "--round", "2", "--reason", "papeleta traspapelada")
    history = run("history").output
    assert "papeleta corregida" in history and "papeleta traspapelada" in history and "Partida reabierta" in history
    overall = json.loads(run("standings", "--overall", "--format", "json").output)
    assert [line["jugador"] for line in overall][0] == "Ana Pérez"
    record = tmp_path / "registro.json"
    run("export", str(record))
    assert "sin diferencias" in run("verify", str(record)).output


def test_refused_actions_exit_non_zero_with_a_spanish_reason(run) -> None:
    assert "no existe la base de datos" in run("player", "list", code=1).output
    run("tournament", "create", "T")
    run("player", "add", "Ana")
    assert "no tiene partidas" in run("rack", "draw", code=1).output
    run("game", "start", "--rounds", "1", "--seed", "1")
    assert "III.12" in run("rack", "set", "AEIOUAE", code=1).output
    assert "ninguna ronda" in run("slip", "enter", "1", "H8-CASA", code=1).output
    assert run("slip", "enter", "x", "H8-CASA", code=2).exit_code == 2        # not a table number


def test_the_credential_says_who_acts_and_a_refusal_exits_3(run, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    # Issue 12 §1: the PIN comes from --pin-file or DUPLICADA_PIN, never the command line;
    # an assistant's credential enters the slips of its own tables and nothing else.
    run("tournament", "create", "T")
    for name in ("Ana", "Beto", "Carla"):
        run("player", "add", name)
    run("game", "start", "--rounds", "1", "--seed", "1")
    run("assistant", "set", "aux1", "1", "2")
    new_pin = tmp_path / "nuevo.txt"
    new_pin.write_text(ASSISTANT_PINS["aux1"] + "\n", encoding="utf-8")
    run("tournament", "pin", "assistant", "--name", "aux1", "--new-pin-file", str(new_pin))
    run("rack", "draw")
    run("master", "choose")
    monkeypatch.setenv("DUPLICADA_PIN", ASSISTANT_PINS["aux1"])
    assert "0 puntos" in run("slip", "enter", "1", "H8-QZQZ").output          # its own table
    refused = run("slip", "enter", "3", "H8-QZQZ", code=3)
    assert "mesa 3" in refused.output and "aux1" in refused.output          # outside its range (II.4.c)
    assert "no puede cerrar la ronda" in run("round", "close", code=3).output
    assert "no puede reabrir" in run("game", "reopen", "--reason", "x", code=3).output
    monkeypatch.setenv("DUPLICADA_PIN", "no-es-un-pin")
    assert "PIN incorrecto" in run("rack", "draw", code=3).output
    monkeypatch.delenv("DUPLICADA_PIN")
    judge_file = tmp_path / "juez.txt"
    judge_file.write_text(JUDGE_PIN + "\n", encoding="utf-8")
    run("round", "close", "--pin-file", str(judge_file))                      # the judge may
    assert "credencial" in run("round", "close", code=1).output               # no PIN at all: asked for one
    history = run("history").output
    assert "aux1" in history
    assert "--pin" not in " ".join(click_params_of("slip", "enter"))          # never a PIN argument


def click_params_of(*path: str) -> list[str]:
    """Every option name of a command, to check that no option takes the PIN itself."""
    command: click.Command = main
    for name in path:
        found = command.get_command(click.Context(command), name)  # type: ignore[attr-defined]
        assert found is not None
        command = found
    return [option for param in command.params for option in param.opts if option != "--pin-file"]


def test_issue25_an_unplayable_rack_with_a_slip_is_no_dead_end_from_the_command_line(run, tmp_path: Path) -> None:
    # III.29, III.22: with QXZVGUU (no legal move) and a slip entered, the master is refused
    # saying why, the rack is replaced (its slip set aside, listed as such), the game ends
    # with a rack and a slip in play, and the next game starts; the export verifies.
    run("tournament", "create", "Callejones")
    for name in ("Ana", "Bea", "Carmen"):
        run("player", "add", name)
    run("game", "start", "--rounds", "2", "--seed", "4")
    run("rack", "set", "QXZVGUU")
    run("slip", "enter", "1", "H8-GUZ", "--round", "1")
    assert "no hay ninguna jugada válida" in run("master", "choose", code=1).output
    output = run("rack", "replace", "--reason", "nadie puede jugar").output
    assert "1 papeleta de la ronda 1 apartada" in output and "Ronda 1: atril" in output
    listed = json.loads(run("slip", "list", "--format", "json").output)
    assert [(row["mesa"], row["estado"]) for row in listed] == [(1, "apartada")]
    run("rack", "replace", "QXZVGUU", "--reason", "vuelve el atril dictado")
    run("slip", "enter", "2", "H8-VUG", "--round", "1")
    assert "se acaba el tiempo" in run("game", "end", "--reason", "se acaba el tiempo").output
    run("game", "publish")
    assert "Partida 2 creada" in run("game", "start", "--rounds", "1").output
    record = tmp_path / "registro.json"
    run("export", str(record))
    assert "sin diferencias" in run("verify", str(record)).output
