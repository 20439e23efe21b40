"""Slips written on a paper board (III.20.1.c, III.20.1.d): the word placed on the
on-screen board gives the canonical notation (III.20.1.a)."""

from __future__ import annotations

import pytest

from duplicate.rules.board_notation import placed_word
from duplicate.rules.notation import format_move
from lexicon.alphabet import spanish
from lexicon.board import Board, Direction


@pytest.fixture
def board() -> Board:
    board = Board(spanish())
    _, placed = placed_word(board, 7, 7, Direction.ACROSS, "CAsA")      # H8-CAsA on the empty board
    board.place(placed)
    return board


def notation(board: Board, row: int, col: int, direction: Direction, letters: str) -> str:
    move, _ = placed_word(board, row, col, direction, letters)
    return format_move(move, board.alphabet)


def test_the_first_word_is_written_from_its_first_square() -> None:
    assert notation(Board(spanish()), 7, 7, Direction.ACROSS, "CAsA") == "H8-CAsA"
    assert notation(Board(spanish()), 5, 7, Direction.DOWN, "CASA") == "8F-CASA"


def test_the_word_runs_over_the_tiles_already_on_the_board(board: Board) -> None:
    # An S after CAsA makes CASAS: the word starts at H8 and the board's tiles are plain.
    assert notation(board, 7, 11, Direction.ACROSS, "S") == "H8-CASAS"
    # OSA laid down from I8 (under the C) steps over nothing: the main word is COSA from H8.
    assert notation(board, 8, 7, Direction.DOWN, "OSA") == "8H-COSA"
    # Letters typed from a square already occupied go on after it.
    assert notation(board, 7, 7, Direction.ACROSS, "S") == "H8-CASAS"
    # P above the first A of CASA (G9): the main word is PA, down column 9.
    assert notation(board, 6, 8, Direction.DOWN, "P") == "9G-PA"


def test_digraphs_and_blanks_follow_the_notation(board: Board) -> None:
    # CH is one tile; [C]H two; a lowercase letter is a blank (III.20.3).
    move, placed = placed_word(Board(spanish()), 7, 7, Direction.ACROSS, "CHOcLO")
    assert len(placed) == 5 and format_move(move, spanish()) == "H8-CHOcLO"
    _, split = placed_word(Board(spanish()), 7, 7, Direction.ACROSS, "[C]HE")
    assert len(split) == 3


@pytest.mark.parametrize(("row", "col", "letters", "problem"), [
    (7, 13, "CASA", "se sale del tablero"),
    (7, 7, "", "escriba las letras"),
    (7, 7, "K", "K"),
])
def test_what_cannot_be_placed_is_said(row: int, col: int, letters: str, problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        placed_word(Board(spanish()), row, col, Direction.ACROSS, letters)
