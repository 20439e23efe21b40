"""Typed text checked once where it enters the service (issue 14 §1): NFC, no control
characters or surrogates, digits 0–9, lengths that fit every column; refused texts
change nothing; long inputs are refused without reading them through."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from duplicate.rules.notation import NotationSyntaxError, parse_move
from duplicate.rules.rack import beyond_tile_set, parse_rack_text
from duplicate.service.errors import InvalidText
from duplicate.service.facade import TournamentService
from duplicate.storage.database import open_database
from duplicate.texts import SLIP_MAX, TextError, checked_text
from lexicon.alphabet import spanish
from lexicon.board import Board, BoardError
from lexicon.lexicon import Lexicon
from tests.credentials import JUDGE_PIN
from tui.cli.main import main

EMPTY = "/".join(["15"] * 15)


def test_text_is_normalised_and_kept_as_typed() -> None:
    assert checked_text("Jose\u0301 ", "el nombre", limit=10) == "José "        # NFC, spaces kept
    assert checked_text("una\nlínea más", "el motivo", limit=20, lines=True) == "una\nlínea más"


@pytest.mark.parametrize(("text", "expected"), [
    ("H8-\x00CASA", "carácter de control (U+0000)"),
    ("H8-CASA\ud800", "no válido (U+D800)"),
    ("H٨-CASA", "la cifra «٨» no es de las cifras 0–9"),
    ("H８-CASA", "la cifra «８»"),
    ("dos\nlíneas", "carácter de control (U+000A)"),
    ("x" * 81, "81 caracteres; como máximo 80"),
    ("-" * 80_000, "80000 caracteres; como máximo 80"),
])
def test_refused_texts_say_why_in_spanish(text: str, expected: str) -> None:
    with pytest.raises(TextError, match="^la papeleta") as refused:
        checked_text(text, "la papeleta", limit=SLIP_MAX)
    assert expected in str(refused.value) and len(str(refused.value)) < 200


def test_the_move_reader_refuses_long_runs_at_once() -> None:
    # 80,000 separators took 45–59 s to reject (the pattern backtracks): now refused unread.
    for text in ("H8" + "-" * 80_000, "8H" + " " * 50_000 + "v" + " " * 50_000, "H" + "8" * 5000 + "-CASA"):
        with pytest.raises(NotationSyntaxError, match="como máximo 80 caracteres"):
            parse_move(text, spanish())
    with pytest.raises(NotationSyntaxError):
        parse_move("H٨-CASA", spanish())                     # an Arabic-Indic eight is not 8


def test_tile_set_limits_count_the_board_and_the_rack() -> None:
    alphabet = spanish()
    assert beyond_tile_set(parse_rack_text("CASA???", alphabet), alphabet) == "3 comodines: el juego tiene 2"
    assert beyond_tile_set(parse_rack_text("ÑÑAEIOU", alphabet), alphabet) == "2 fichas de Ñ: el juego tiene 1"
    board = Board(alphabet)
    board.tiles[7][7] = alphabet.code("Ñ")
    on_board = [tile for row in board.tiles for tile in row if tile is not None]
    assert beyond_tile_set(on_board + parse_rack_text("ÑAEIOUS", alphabet), alphabet) is not None
    assert beyond_tile_set(parse_rack_text("CASA??S", alphabet), alphabet) is None


def test_a_board_run_of_many_digits_is_refused_before_it_is_built() -> None:
    with pytest.raises(BoardError, match="no caben en la fila"):
        Board.from_cgp("999999999999/" + "/".join(["15"] * 14), spanish())


def test_analyze_reports_each_bad_line_and_goes_on(spanish_lexicon: Lexicon) -> None:
    lines = [f"{EMPTY} CASA???", f"{EMPTY} ÑÑAEIOU", "999999999999/" + "/".join(["15"] * 14) + " CASAMOS",
             f"{EMPTY} " + "A" * 5000, f"{EMPTY} AAAAAAAAAA", f"{EMPTY} CASAMOS"]
    result = CliRunner().invoke(main, ["analyze"], input="\n".join(lines) + "\n")
    assert result.exit_code == 0, result.output
    answers = [json.loads(line) for line in result.output.splitlines()]
    assert [answer.get("line") for answer in answers[:5]] == [1, 2, 3, 4, 5]
    assert "3 comodines" in answers[0]["error"] and "Ñ" in answers[1]["error"]
    assert "no caben" in answers[2]["error"] and "demasiado larga" in answers[3]["error"]
    assert "como máximo 7" in answers[4]["error"] and answers[5]["best_score"] > 0                      # the good line after them


@pytest.fixture
def service(tmp_path: Path, spanish_lexicon: Lexicon) -> TournamentService:
    service = TournamentService(open_database(str(tmp_path / "t.db")), station="mesa", lexicon=spanish_lexicon,
                                pin=JUDGE_PIN)
    service.create_tournament("Textos")
    service.add_player("Ana")
    service.create_game(rounds=2, seed=1)
    service.set_rack(1, "CASAMOS")
    service.choose_master(1)
    return service


def test_the_service_refuses_bad_text_and_stores_nothing(service: TournamentService) -> None:
    events = len(service.history())
    for text in ("H8-\x00CASAMOS", "H8-CASAMOS\ud800", "H8-" + "A" * 200):
        with pytest.raises(InvalidText) as refused:
            service.enter_slip(1, 1, text)
        assert (refused.value.what, refused.value.value) == ("la papeleta", text)
    with pytest.raises(InvalidText) as refused:
        service.add_player("N" * 201)
    assert refused.value.what == "el nombre del jugador"
    with pytest.raises(InvalidText) as refused:
        service.add_player("Ana\x1b[31m")
    assert (refused.value.what, refused.value.value) == ("el nombre del jugador", "Ana\x1b[31m")
    with pytest.raises(InvalidText) as refused:
        service.end_game(1, reason="x" * 5000)
    assert refused.value.what == "el motivo"
    assert service.slips(1, 1) == [] and len(service.entries()) == 1 and len(service.history()) == events
    assert service.enter_slip(1, 1, "H8-CASAMOS").verdict.score > 0   # a good slip after them
