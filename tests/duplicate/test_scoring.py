"""Scores computed by hand on the standard board (rules I.2, III.23).

Each expected value is worked out in the comment above it from the tile values
(``data/tiles-es.tsv``: A E I O U S N L R T 1, D G 2, B C M P 3, F H V Y 4,
CH Q 5, J LL Ñ RR X 8, Z 10, blank 0) and the premium layout
(``data/board-standard.txt``), never from the code under test. Every score is
checked three ways: ``score_move``, ``check_move`` (slip text) and, where the
rack is given, the move generator.
"""

from __future__ import annotations

import pytest

from duplicate.rules.notation import check_move, parse_move
from lexicon.alphabet import Alphabet
from lexicon.board import Board
from lexicon.move import Move, placed_tiles, score_move
from lexicon.movegen import generate

WORDS = [
    "AÑO", "CASA", "CASAS", "CHE", "CHORRILLOS", "ESE", "LLAVE", "PAZ", "PE", "PERRO", "PERROS",
    "PESCA", "PESO", "SE",
]


@pytest.fixture(scope="module")
def lexicon(make_lexicon):
    return make_lexicon(WORDS)


def board_with(alphabet: Alphabet, *slips: str) -> Board:
    """A board with the slips' tiles on it (positions need not come from a legal game)."""
    board = Board(alphabet)
    for text in slips:
        board.place(placed_tiles(board, parse_move(text, alphabet)))
    return board


def assert_score(board: Board, rack_text: str, slip: str, lexicon, expected: int) -> None:
    alphabet = board.alphabet
    rack = alphabet.tokenize(rack_text, allow_unknown_blank=True)
    move = parse_move(slip, alphabet)
    assert score_move(board, move) == expected
    assert check_move(board, rack, slip, lexicon).score == expected
    generated = {scored.move: scored.score for scored in generate(board, rack, lexicon).all()}
    assert generated[move] == expected


# --- first move: H8 is a double word square (I.2) ------------------------------------


def test_first_move_across_on_centre_doubles_the_word_I2(alphabet, lexicon):
    # H8-CASA: C(3) A(1) S(1) A(1) on H8* H9 H10 H11 = 6, centre doubles → 12
    assert_score(Board(alphabet), "CASAEOL", "H8-CASA", lexicon, 12)


def test_first_move_down_on_centre_doubles_the_word_I2(alphabet, lexicon):
    # 8H-CASA: same tiles on H8* I8 J8 K8 → 12
    assert_score(Board(alphabet), "CASAEOL", "8H-CASA", lexicon, 12)


def test_first_move_double_letter_under_new_tile_III20(alphabet, lexicon):
    # H4-PERROS: P on H4 (double letter) 3×2=6, E 1, RR 8, O 1, S 1 on H8* → 17, ×2 → 34
    assert_score(Board(alphabet), "PERROSA", "H4-PERROS", lexicon, 34)


def test_digraph_tiles_CH_and_LL_values_I2(alphabet, lexicon):
    # H8-CHE: CH 5 + E 1 = 6, ×2 → 12
    assert_score(Board(alphabet), "CHEAOIU", "H8-CHE", lexicon, 12)
    # H5-LLAVE: LL 8 (H5) + A 1 + V 4 + E 1 (H8*) = 14, ×2 → 28
    assert_score(Board(alphabet), "LLAVEOI", "H5-LLAVE", lexicon, 28)


def test_z_and_enye_values_I2(alphabet, lexicon):
    # H6-PAZ: P 3 + A 1 + Z 10 (H8*) = 14, ×2 → 28
    assert_score(Board(alphabet), "PAZEOIU", "H6-PAZ", lexicon, 28)
    # 8H-AÑO: A 1 (H8*) + Ñ 8 (I8) + O 1 (J8) = 10, ×2 → 20
    assert_score(Board(alphabet), "AÑOEIUS", "8H-AÑO", lexicon, 20)


def test_bingo_adds_50_I2(alphabet, lexicon):
    # H2-CHORRILLOS, 7 tiles: CH 5 (H2), O 1, RR 8×2=16 (H4 double letter), I 1, LL 8, O 1,
    # S 1 (H8*) = 33, ×2 = 66, +50 → 116
    assert_score(Board(alphabet), "CHORRILLOS", "H2-CHORRILLOS", lexicon, 116)


def test_blanks_score_zero_III20_3(alphabet, lexicon):
    # H8-CaSA: C 3 + blank 0 + S 1 + A 1 = 5, ×2 → 10
    assert_score(Board(alphabet), "CAS?EOL", "H8-CaSA", lexicon, 10)
    # H8-chE: blank CH 0 + E 1 = 1, ×2 → 2
    assert_score(Board(alphabet), "?EAOIUS", "H8-chE", lexicon, 2)
    # H4-pERROS: blank P on the double letter 0, E 1, RR 8, O 1, S 1 = 11, ×2 → 22
    assert_score(Board(alphabet), "?ERROSA", "H4-pERROS", lexicon, 22)


def test_bingo_with_a_blank_for_LL_I2(alphabet, lexicon):
    # H2-CHORRIllOS: as the bingo above but LL is a blank: 33 - 8 = 25, ×2 = 50, +50 → 100
    assert_score(Board(alphabet), "CHORRI?OS", "H2-CHORRIllOS", lexicon, 100)


# --- later moves: premiums only under new tiles (I.2) --------------------------------


def test_premium_under_board_tile_does_not_count_again_I2(alphabet, lexicon):
    board = board_with(alphabet, "H2-CHORRILLOS")
    # 4F-PERRO: P 3 (F4) + E 1 (G4) + RR 8 (H4, on the board: its double letter is spent)
    # + O 1 (I4) = 13; F3/F5, G3/G5, I3/I5 empty → no cross words
    assert_score(board, "PEOAIUS", "4F-PERRO", lexicon, 13)


def test_double_word_under_board_tile_does_not_count_again_I2(alphabet, lexicon):
    board = board_with(alphabet, "H8-CASA")
    # 8E-PESCA: P 3 (E8) + E 1 (F8) + S 1 (G8) + C 3 (H8, on the board) + A 1 (I8) = 9, no multiplier
    assert_score(board, "PESAIOU", "8E-PESCA", lexicon, 9)


def test_triple_letter_under_new_tile_I2(alphabet, lexicon):
    board = board_with(alphabet, "H8-CASA")
    # 10F-PESO: P 3×3 = 9 (F10 triple letter) + E 1 (G10) + S 1 (H10, board) + O 1 (I10) → 12
    assert_score(board, "PEOAIUL", "10F-PESO", lexicon, 12)


def test_cross_word_scores_with_the_letter_premium_I2(alphabet, lexicon):
    board = board_with(alphabet, "H8-CASA")
    # 12H-SE: main word S 1×2 = 2 (H12 double letter) + E 1 (I12) = 3;
    # cross word CASAS across row H: C 3 + A 1 + S 1 + A 1 (board) + S 2 (new, H12) = 8 → 11
    assert_score(board, "SEAOIUL", "12H-SE", lexicon, 11)


def test_double_word_under_new_tile_doubles_both_words_I2(alphabet, lexicon):
    board = board_with(alphabet, "E6-SE")
    # 5D-PE: P 3 (D5) + E 1 (E5 double word) = 4, ×2 = 8;
    # cross word ESE across row E: E 1 (new, E5) + S 1 + E 1 = 3, ×2 (E5) = 6 → 14
    assert_score(board, "PEAOIUL", "5D-PE", lexicon, 14)


def test_triple_word_under_new_tile_I2(alphabet, lexicon):
    board = board_with(alphabet, "H11-CASA")
    # H11-CASAS: C 3 + A 1 + S 1 + A 1 (board) + S 1 (new, H15 triple word) = 7, ×3 → 21
    assert_score(board, "SEAOIUL", "H11-CASAS", lexicon, 21)


def test_blank_already_on_board_scores_zero_I2(alphabet, lexicon):
    board = board_with(alphabet, "H8-CaSA")
    # 12H-SE: S 2 (H12 double letter) + E 1 = 3; cross CaSAS: C 3 + blank 0 + S 1 + A 1 + S 2 = 7 → 10
    assert_score(board, "SEAOIUL", "12H-SE", lexicon, 10)


def test_score_move_reads_a_move_value_directly(alphabet):
    # The bare scorer, no lexicon: H8-ZZ is not a word but scores (10 + 10) × 2 = 40.
    z = alphabet.code("Z")
    assert score_move(Board(alphabet), Move(7, 7, parse_move("H8-ZZ", alphabet).direction, (z, z))) == 40
