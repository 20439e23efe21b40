"""Slips written on a paper board (issue 25 §4; II.8, III.20.1.c–d): the tournament
admits them or not; the service — not a screen — lays the board form on the round's
board, judges the canonical notation it gives and records that the board notation was
used (slip, event, exported record), which ``verify`` re-checks; the command line and a
slip file enter them too."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from duplicate.record.verify import verify_record
from duplicate.rules.board_notation import BoardNotationError, board_slip_notation, parse_board_slip
from duplicate.service.errors import InvalidFile, InvalidSlip
from duplicate.service.facade import TournamentService
from duplicate.service.settings import TournamentSettings
from duplicate.service.slip_context import BoardWritten
from duplicate.storage.database import open_database
from lexicon.alphabet import spanish
from lexicon.board import Board, Direction
from lexicon.lexicon import Lexicon
from tests.credentials import JUDGE_PIN
from tui.cli.main import main

RACK = "CASAMO?"
NAMES = ("Ana", "Beto", "Carla", "Dora")


def tournament(path: Path, lexicon: Lexicon, *, board: bool) -> TournamentService:
    """Four players, game 1 at round 1 (typed rack CASAMO? on the empty board), master placed."""
    service = TournamentService(open_database(str(path)), station="mesa", lexicon=lexicon, pin=JUDGE_PIN)
    service.create_tournament("Tablero", settings=TournamentSettings(board_notation=board))
    for index, name in enumerate(NAMES):
        service.add_player(name, federation_id=f"T{index}")
    game = service.create_game(rounds=2, seed=3)
    service.set_rack(game, RACK)
    service.choose_master(game)
    return service


def test_a_board_form_gives_the_canonical_notation_of_its_main_word_III_20_1_c() -> None:
    board = Board(spanish())
    assert board_slip_notation(board, "H8 → CAsA") == "H8-CAsA"
    assert board_slip_notation(board, "8f v CASA") == "8F-CASA"        # square either way, a lone v is down
    assert board_slip_notation(board, "F8 ↓ CASA") == "8F-CASA"
    assert parse_board_slip("H8 -> CA(S)A", board.alphabet).letters == "CA[s]A"   # a circled letter: a blank
    board.place([(7, 7 + index, tile) for index, tile in enumerate(board.alphabet.tokenize("CASA"))])
    # New tiles are laid stepping over the board's: the word runs over them (III.20.1.d).
    assert board_slip_notation(board, "H12 > S") == "H8-CASAS"
    assert board_slip_notation(board, "H8 > S") == "H8-CASAS"
    assert board_slip_notation(board, "I8 v OSA") == "8H-COSA"
    for text, reason in (("", "vacía"), ("H8-CASA", "no se reconoce"), ("P8 > CASA", "fila P"),
                         ("H16 > CASA", "columna 16"), ("H14 > SOLA", "se sale"), ("H8 > CA5A", "letras")):
        with pytest.raises(BoardNotationError, match=reason):
            board_slip_notation(board, text)
    assert parse_board_slip("H8 > CASA", board.alphabet).direction is Direction.ACROSS


def test_the_service_converts_judges_and_records_a_board_slip_II_8(tmp_path: Path, spanish_lexicon: Lexicon) -> None:
    service = tournament(tmp_path / "t.db", spanish_lexicon, board=True)
    result = service.enter_slip(1, 1, "H8 > CASA", board=True)
    assert result.outcome == "accepted" and result.verdict.canonical == "H8-CASA" and result.verdict.score > 0
    service.enter_slip(1, 2, "H8-CASA")                                  # canonical, as always (III.20.1)
    # Double entry of the board form compares the move it gives.
    assert service.double_check(1, 1, "8H v CASA", board=True).outcome == "conflict"
    slips = {slip.table_number: slip for slip in service.slips(1, 1)}
    assert (slips[1].text, slips[1].board, slips[1].status) == ("H8-CASA", "H8 > CASA", "valid")
    assert slips[2].board is None
    payloads = [event.payload for event in service.history() if event.kind == "slip_entered"]
    assert payloads[0]["board"] == "H8 > CASA" and "board" not in payloads[1]
    record = json.loads(json.dumps(service.export()))
    assert record["tournament"]["settings"]["board_notation"] is True
    written = {slip["table"]: slip for slip in record["games"][0]["rounds"][0]["slips"]}
    assert written[1]["board"] == "H8 > CASA" and "board" not in written[2]
    assert verify_record(record, spanish_lexicon) == []
    # verify re-lays the board form: a record whose text is not what the board gives is caught.
    tampered = copy.deepcopy(record)
    tampered["games"][0]["rounds"][0]["slips"][0]["board"] = "8H v CASA"
    found = {(d.field, d.expected) for d in verify_record(tampered, spanish_lexicon)}
    # the rules (the board form gives another text), the log (it recorded another form) and
    # the export's signature (issue 35 §2: the record was changed after it was signed)
    assert found == {("text", "8H-CASA"), ("board", "H8 > CASA"), ("signature", None)}
    # ... and so is a board slip in a tournament that does not admit them (II.8).
    forbidden = copy.deepcopy(record)
    forbidden["tournament"]["settings"]["board_notation"] = False
    assert "board" in [d.field for d in verify_record(forbidden, spanish_lexicon)]


def test_the_board_notation_is_refused_when_the_tournament_does_not_admit_it_II_8(
        tmp_path: Path, spanish_lexicon: Lexicon) -> None:
    service = tournament(tmp_path / "t.db", spanish_lexicon, board=False)
    assert service.settings().board_notation is False                  # off unless the organiser admits it
    with pytest.raises(InvalidSlip, match=r"notación de tablero no está admitida.*II\.8"):
        service.enter_slip(1, 1, "H8 > CASA", board=True)
    with pytest.raises(InvalidSlip, match=r"II\.8"):
        service.enter_slips(1, [(1, BoardWritten("H8 > CASA"))])
    with pytest.raises(InvalidSlip, match=r"II\.8"):
        service.double_check(1, 1, "H8 > CASA", board=True)
    assert service.slips(1, 1) == []


def test_a_board_form_that_does_not_fit_is_refused_naming_it(tmp_path: Path, spanish_lexicon: Lexicon) -> None:
    service = tournament(tmp_path / "t.db", spanish_lexicon, board=True)
    with pytest.raises(InvalidSlip, match="«H14 > CASA».*se sale del tablero"):
        service.enter_slip(1, 1, "H14 > CASA", board=True)
    assert service.slips(1, 1) == []


def test_a_slip_file_takes_board_slips_in_the_tablero_column_II_8(tmp_path: Path, spanish_lexicon: Lexicon) -> None:
    service = tournament(tmp_path / "t.db", spanish_lexicon, board=True)
    both = tmp_path / "both.csv"
    both.write_text("mesa,jugada,tablero\n1,H8-CASA,H8 > CASA\n", encoding="utf-8")
    with pytest.raises(InvalidFile, match=r"línea 2: .*«jugada» y «tablero».*III\.20\.2"):
        service.import_slips(1, both)
    good = tmp_path / "slips.csv"
    good.write_text("mesa,jugada,tablero\n1,,8F v CASA\n2,H8-CASA,\n", encoding="utf-8")
    assert [result.outcome for result in service.import_slips(1, good)] == ["accepted", "accepted"]
    slips = {slip.table_number: slip for slip in service.slips(1, 1)}
    assert (slips[1].text, slips[1].board) == ("8F-CASA", "8F v CASA") and slips[2].board is None

    closed = tournament(tmp_path / "closed.db", spanish_lexicon, board=False)
    with pytest.raises(InvalidFile, match=r"línea 2: .*II\.8"):
        closed.import_slips(1, good)
    assert closed.slips(1, 1) == []


def test_the_command_line_creates_and_enters_board_slips_II_8(tmp_path: Path) -> None:
    runner = CliRunner()

    def station(name: str, *create: str) -> object:
        env = {"DUPLICADA_DB": str(tmp_path / name), "DUPLICADA_STATION": "mesa", "DUPLICADA_PIN": JUDGE_PIN}

        def run(*args: str, code: int = 0) -> str:
            result = runner.invoke(main, list(args), env=env)
            assert result.exit_code == code, (args, result.output)
            return result.output

        run("tournament", "create", "Línea", *create)
        for player in NAMES:
            run("player", "add", player)
        run("game", "start", "--rounds", "2", "--seed", "3")
        run("rack", "set", RACK)
        run("master", "choose")
        return run

    run = station("board.db", "--board")
    assert "notación de tablero (II.8): sí" in run("tournament", "show")    # type: ignore[operator]
    assert "H8-CASA" in run("slip", "enter", "1", "H8 > CASA", "--board")     # type: ignore[operator]
    [listed] = json.loads(run("slip", "list", "--format", "json"))            # type: ignore[operator]
    assert (listed["texto"], listed["tablero"]) == ("H8-CASA", "H8 > CASA")
    refused = station("canonical.db")
    assert "notación de tablero (II.8): no" in refused("tournament", "show")  # type: ignore[operator]
    assert "II.8" in refused("slip", "enter", "1", "H8 > CASA", "--board", code=1)  # type: ignore[operator]
