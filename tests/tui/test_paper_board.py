"""Slips written on a paper board (III.20.1.c, III.20.1.d): the word placed on the
on-screen board gives the canonical notation (III.20.1.a). The screen lays it on the
round's board as the service gives it, cells (issue 34 §4), with ``paper_board_placement``."""

from __future__ import annotations

import pytest

from duplicate.rules.board_notation import BoardNotationError
from duplicate.service.game_views import paper_board_placement
from duplicate.service.views import BoardCells, empty_board


@pytest.fixture
def board() -> BoardCells:
    return paper_board_placement(empty_board(), 7, 7, True, "CAsA").board      # H8-CAsA on the empty board


def notation(board: BoardCells, row: int, col: int, across: bool, letters: str) -> str:
    return paper_board_placement(board, row, col, across, letters).canonical


def test_the_first_word_is_written_from_its_first_square() -> None:
    assert notation(empty_board(), 7, 7, True, "CAsA") == "H8-CAsA"
    assert notation(empty_board(), 5, 7, False, "CASA") == "8F-CASA"


def test_the_placement_gives_the_board_form_the_squares_and_the_board_with_the_word() -> None:
    placement = paper_board_placement(empty_board(), 7, 7, True, "CAsA")
    assert placement.text == "H8 → CAsA"
    assert placement.placed == {(7, 7), (7, 8), (7, 9), (7, 10)}
    assert [placement.board.cell(7, col).shown for col in range(7, 11)] == ["C", "A", "s", "A"]
    assert placement.board.cell(7, 9).blank and not placement.board.cell(7, 8).blank
    assert paper_board_placement(empty_board(), 5, 7, False, "CASA").text == "F8 ↓ CASA"


def test_the_word_runs_over_the_tiles_already_on_the_board(board: BoardCells) -> None:
    # An S after CAsA makes CASAS: the word starts at H8 and the board's tiles are plain.
    assert notation(board, 7, 11, True, "S") == "H8-CASAS"
    # OSA laid down from I8 (under the C) steps over nothing: the main word is COSA from H8.
    assert notation(board, 8, 7, False, "OSA") == "8H-COSA"
    # Letters typed from a square already occupied go on after it.
    assert notation(board, 7, 7, True, "S") == "H8-CASAS"
    assert paper_board_placement(board, 7, 7, True, "S").placed == {(7, 11)}
    # P above the first A of CASA (G9): the main word is PA, down column 9.
    assert notation(board, 6, 8, False, "P") == "9G-PA"


def test_digraphs_and_blanks_follow_the_notation() -> None:
    # CH is one tile; [C]H two; a lowercase letter is a blank (III.20.3).
    placement = paper_board_placement(empty_board(), 7, 7, True, "CHOcLO")
    assert len(placement.placed) == 5 and placement.canonical == "H8-CHOcLO"
    assert placement.board.cell(7, 7).letter == "CH"
    assert len(paper_board_placement(empty_board(), 7, 7, True, "[C]HE").placed) == 3


@pytest.mark.parametrize(("row", "col", "letters", "problem"), [
    (7, 13, "CASA", "se sale del tablero"),
    (7, 7, "", "escriba las letras"),
    (7, 7, "K", "K"),
])
def test_what_cannot_be_placed_is_said(row: int, col: int, letters: str, problem: str) -> None:
    with pytest.raises(BoardNotationError, match=problem):
        paper_board_placement(empty_board(), row, col, True, letters)
