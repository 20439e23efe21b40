"""Master move choice among equal tops (III.15, "gestión manual" criteria 1–5)."""

from __future__ import annotations

from collections.abc import Callable, Iterable

import pytest

from duplicate.rules.master import choose_master, leave_after, rank_moves, rank_top_moves
from duplicate.rules.rack import parse_rack_text
from duplicate.rules.tie_criteria import Criterion, MasterError, leave_imbalance
from lexicon.alphabet import Alphabet
from lexicon.board import ROW_NAMES, Board, Direction
from lexicon.lexicon import Lexicon
from lexicon.move import Move, placed_tiles, score_move
from lexicon.movegen import ScoredMove, generate


def rack(alphabet: Alphabet, text: str) -> list[int]:
    return parse_rack_text(text, alphabet)


def move(alphabet: Alphabet, coordinate: str, word: str) -> Move:
    """``H8`` across (row first) or ``8H`` down (column first), as in canonical notation."""
    if coordinate[0].isalpha():
        row, col, direction = ROW_NAMES.index(coordinate[0]), int(coordinate[1:]) - 1, Direction.ACROSS
    else:
        row, col, direction = ROW_NAMES.index(coordinate[-1]), int(coordinate[:-1]) - 1, Direction.DOWN
    return Move(row, col, direction, tuple(alphabet.tokenize(word)))


def scored(board: Board, *moves: Move, score: int = 20) -> list[ScoredMove]:
    return [ScoredMove(m, score, len(placed_tiles(board, m))) for m in moves]


def words(ranked: Iterable) -> list[str]:
    return [f"{entry.move.coordinate}-{entry.move.word}" for entry in ranked]


# --- the leave metric ----------------------------------------------------------------
@pytest.mark.parametrize(
    ("leave", "imbalance"),
    [("AERS", 0), ("AER", 1), ("AEIO", 4), ("AEIO?", 3), ("AE?", 1), ("A??", 0), ("AY", 0), ("BCDY", 4), ("", 0)],
)
def test_III_15_leave_imbalance_examples(alphabet: Alphabet, leave: str, imbalance: int) -> None:
    tiles = parse_rack_text(leave, alphabet) if leave else []
    assert leave_imbalance(tiles, alphabet) == imbalance


def test_leave_is_rack_minus_placed_tiles_blank_leaves_as_blank(alphabet: Alphabet) -> None:
    board = Board(alphabet)
    leave = leave_after(board, rack(alphabet, "CAS?OLE"), move(alphabet, "H8", "CASa"))
    assert leave == tuple(sorted(rack(alphabet, "OLE")))


def test_leave_ignores_tiles_already_on_the_board(alphabet: Alphabet) -> None:
    board = Board(alphabet)
    board.place(placed_tiles(board, move(alphabet, "H8", "CASA")))
    leave = leave_after(board, rack(alphabet, "SOLEMNE"), move(alphabet, "H8", "CASAS"))
    assert leave == tuple(sorted(rack(alphabet, "OLEMNE")))


def test_leave_of_a_tile_not_on_the_rack_is_an_error(alphabet: Alphabet) -> None:
    with pytest.raises(MasterError, match="«C», que no está en el atril"):
        leave_after(Board(alphabet), rack(alphabet, "ASAOLES"), move(alphabet, "H8", "CASA"))


# --- each criterion, with constructed moves ------------------------------------------
def test_score_comes_first(alphabet: Alphabet) -> None:
    board = Board(alphabet)
    low = scored(board, move(alphabet, "H8", "ASA"), score=10)
    high = scored(board, move(alphabet, "H8", "CASA"), score=12)
    ranked = rank_moves(board, rack(alphabet, "CASA?OL"), low + high)
    assert ranked[0].score == 12 and ranked[0].criterion is Criterion.SCORE
    assert rank_top_moves(board, rack(alphabet, "CASA?OL"), low + high)[0].score == 12
    assert len(rank_top_moves(board, rack(alphabet, "CASA?OL"), low + high)) == 1


def test_III_15_criterion_1_no_blank(alphabet: Alphabet) -> None:
    board = Board(alphabet)
    with_blank = move(alphabet, "H4", "CASa")  # would win on position and alphabet
    natural = move(alphabet, "H8", "CASA")
    ranked = rank_moves(board, rack(alphabet, "CASA?OL"), scored(board, with_blank, natural))
    assert ranked[0].move == natural
    assert ranked[0].criterion is Criterion.NO_BLANK
    assert "criterio 1" in ranked[0].reason and "no usa comodín" in ranked[0].reason


def test_III_15_criterion_1_fewer_blanks(alphabet: Alphabet) -> None:
    board = Board(alphabet)
    two = move(alphabet, "H8", "CaSa")
    one = move(alphabet, "H8", "CASa")
    ranked = rank_moves(board, rack(alphabet, "CAS??LO"), scored(board, two, one))
    assert ranked[0].move == one and ranked[0].criterion is Criterion.NO_BLANK
    assert "menos comodines (1 frente a 2)" in ranked[0].reason


def test_III_15_criterion_2_most_balanced_leave(alphabet: Alphabet) -> None:
    board = Board(alphabet)
    the_rack = rack(alphabet, "AEIOSTR")
    unbalanced = move(alphabet, "H8", "OSTRA")  # leaves EI: imbalance 2
    balanced = move(alphabet, "H8", "OSEA")  # leaves IRT: imbalance 1 (and places fewer tiles)
    five = move(alphabet, "H4", "ASTRO")  # leaves EI too; would win criteria 4 and 5
    ranked = rank_moves(board, the_rack, scored(board, unbalanced, five, balanced))
    assert ranked[0].move == balanced
    assert ranked[0].criterion is Criterion.BALANCED_LEAVE
    assert ranked[0].imbalance == 1 and ranked[1].imbalance == 2
    assert "criterio 2" in ranked[0].reason and "«IRT» (desequilibrio 1)" in ranked[0].reason


def test_III_15_criterion_3_fewest_tiles(alphabet: Alphabet) -> None:
    board = Board(alphabet)
    the_rack = rack(alphabet, "AEIOSTR")
    short = move(alphabet, "H8", "SE")  # leaves AIORT: imbalance 1, 2 tiles
    longer = move(alphabet, "H4", "ROSA")  # leaves EIT: imbalance 1, 4 tiles; first alphabetically
    ranked = rank_moves(board, the_rack, scored(board, longer, short))
    assert ranked[0].move == short
    assert ranked[0].criterion is Criterion.FEWEST_TILES
    assert "coloca menos fichas (2 frente a 4)" in ranked[0].reason


def test_III_15_criterion_4_alphabetical(alphabet: Alphabet) -> None:
    board = Board(alphabet)
    the_rack = rack(alphabet, "AEIOSTR")
    rosa = move(alphabet, "H4", "ROSA")  # better position
    osar = move(alphabet, "H8", "OSAR")  # same leave, same tiles
    ranked = rank_moves(board, the_rack, scored(board, rosa, osar))
    assert ranked[0].move == osar
    assert ranked[0].criterion is Criterion.ALPHABETICAL
    assert "OSAR antes que ROSA" in ranked[0].reason


def test_III_15_criterion_4_uses_spanish_tile_order_c_before_ch(alphabet: Alphabet) -> None:
    board = Board(alphabet)
    the_rack = rack(alphabet, "CCHALEIO")  # C, CH, A, L, E, I, O
    chal = move(alphabet, "H4", "CHAL")  # "CHAL" < "CLA" as plain text, but CH is a letter after C
    cla = move(alphabet, "H8", "CLA")  # same leave balance (CEIO / CHEIO), same tile count
    ranked = rank_moves(board, the_rack, scored(board, chal, cla))
    assert ranked[0].move == cla and ranked[0].criterion is Criterion.ALPHABETICAL
    assert "CLA antes que CHAL" in ranked[0].reason


def test_III_15_criterion_4_blank_compared_as_its_letter(alphabet: Alphabet) -> None:
    board = Board(alphabet)
    the_rack = rack(alphabet, "CASO?LE")
    cosa = move(alphabet, "H4", "COSa")  # blank A: compared as A
    casa = move(alphabet, "H8", "CASa")
    ranked = rank_moves(board, the_rack, scored(board, cosa, casa))
    assert ranked[0].move == casa and ranked[0].criterion is Criterion.ALPHABETICAL


def test_III_15_criterion_4_compares_the_main_word_with_board_tiles(alphabet: Alphabet) -> None:
    board = Board(alphabet)
    board.place(placed_tiles(board, move(alphabet, "H8", "CAS")))
    the_rack = rack(alphabet, "AOSLTRE")
    casa = move(alphabet, "H8", "CASA")  # one tile placed, leaves OSLTRE (imbalance 2)
    caso = move(alphabet, "H8", "CASO")  # one tile placed, leaves ASLTRE (imbalance 2)
    ranked = rank_moves(board, the_rack, scored(board, caso, casa))
    assert ranked[0].move == casa and ranked[0].criterion is Criterion.ALPHABETICAL


def test_III_15_criterion_4_word_before_its_extension(alphabet: Alphabet) -> None:
    board = Board(alphabet)
    board.place([(7, 11, alphabet.code("S"))])  # an S on H12
    the_rack = rack(alphabet, "CASAXYZ")
    casas = move(alphabet, "H8", "CASAS")  # places C, A, S, A: 4 tiles
    casa = move(alphabet, "K10", "CASA")  # 4 tiles, same leave, worse position
    ranked = rank_moves(board, the_rack, scored(board, casas, casa))
    assert ranked[0].move == casa and ranked[0].criterion is Criterion.ALPHABETICAL


def test_III_15_criterion_5_across_nearest_column_1(alphabet: Alphabet) -> None:
    board = Board(alphabet)
    moves = [move(alphabet, c, "CASA") for c in ("H8", "H5", "H7", "H6")]
    ranked = rank_moves(board, rack(alphabet, "CASAXYZ"), scored(board, *moves))
    assert [entry.move.coordinate for entry in ranked] == ["H5", "H6", "H7", "H8"]
    assert ranked[0].criterion is Criterion.POSITION
    assert "columna 1 (H5 frente a H6)" in ranked[0].reason


def test_III_15_criterion_5_across_then_nearest_row_a(alphabet: Alphabet) -> None:
    board = Board(alphabet)
    moves = [move(alphabet, c, "CASA") for c in ("J5", "C5", "F9")]
    ranked = rank_moves(board, rack(alphabet, "CASAXYZ"), scored(board, *moves))
    assert [entry.move.coordinate for entry in ranked] == ["C5", "J5", "F9"]
    assert "fila A (C5 frente a J5)" in ranked[0].reason


def test_III_15_criterion_5_horizontal_before_vertical(alphabet: Alphabet) -> None:
    board = Board(alphabet)
    down = move(alphabet, "1A", "CASA")  # nearest to A1 but vertical
    across = move(alphabet, "O12", "CASA")
    ranked = rank_moves(board, rack(alphabet, "CASAXYZ"), scored(board, down, across))
    assert ranked[0].move == across
    assert ranked[0].criterion is Criterion.POSITION and "la siguiente es vertical" in ranked[0].reason


def test_III_15_criterion_5_vertical_nearest_row_a_then_column_1(alphabet: Alphabet) -> None:
    board = Board(alphabet)
    moves = [move(alphabet, c, "CASA") for c in ("2H", "9E", "3E")]
    ranked = rank_moves(board, rack(alphabet, "CASAXYZ"), scored(board, *moves))
    assert [entry.move.coordinate for entry in ranked] == ["3E", "9E", "2H"]
    assert "vertical más cerca de la columna 1 (3E frente a 9E)" in ranked[0].reason
    assert "vertical más cerca de la fila A (9E frente a 2H)" in ranked[1].reason


def test_fixed_tie_break_blank_on_a_later_letter(alphabet: Alphabet) -> None:
    board = Board(alphabet)
    first_a = move(alphabet, "H8", "CaSA")
    second_a = move(alphabet, "H8", "CASa")
    ranked = rank_moves(board, rack(alphabet, "CAS?XYZ"), scored(board, first_a, second_a))
    assert ranked[0].move == second_a
    assert ranked[0].criterion is Criterion.BLANK_PLACEMENT and "fuera del reglamento" in ranked[0].reason


def test_last_and_single_moves_have_no_criterion(alphabet: Alphabet) -> None:
    board = Board(alphabet)
    single = rank_moves(board, rack(alphabet, "CASAXYZ"), scored(board, move(alphabet, "H8", "CASA")))
    assert single[0].criterion is None and single[0].reason == "única jugada de máxima puntuación"
    assert rank_moves(board, rack(alphabet, "CASAXYZ"), []) == []


def test_choose_master_with_no_move_is_an_error(alphabet: Alphabet) -> None:
    with pytest.raises(MasterError, match="ninguna jugada"):
        choose_master(Board(alphabet), rack(alphabet, "CASAXYZ"), [])


def test_ranking_is_independent_of_input_order(alphabet: Alphabet) -> None:
    board = Board(alphabet)
    moves = scored(board, *(move(alphabet, c, w) for c, w in [("H8", "SE"), ("H4", "ROSA"), ("H8", "OSAR"),
                                                                 ("8H", "OSEA"), ("H6", "OSEA")]))
    the_rack = rack(alphabet, "AEIOSTR")
    assert words(rank_moves(board, the_rack, moves)) == words(rank_moves(board, the_rack, list(reversed(moves))))


# --- on generated moves ------------------------------------------------------------------
def test_III_15_first_move_master_is_the_leftmost_across(alphabet: Alphabet,
                                                        make_lexicon: Callable[[Iterable[str]], Lexicon]) -> None:
    lexicon = make_lexicon(["CASA", "COSA"])
    board = Board(alphabet)
    the_rack = rack(alphabet, "CASAXYZ")
    moves = generate(board, the_rack, lexicon)
    master = choose_master(board, the_rack, moves)
    assert master.move == move(alphabet, "H5", "CASA")
    assert master.score == score_move(board, master.move)
    assert all(entry.score == moves.best_score for entry in rank_top_moves(board, the_rack, moves))


def test_III_15_generated_tops_prefer_the_more_balanced_leave(alphabet: Alphabet,
                                                              make_lexicon: Callable[[Iterable[str]], Lexicon]) -> None:
    # On an empty board, OSA and SOL score alike (3 points × 2); the leaves decide.
    lexicon = make_lexicon(["OSA", "SOL"])
    board = Board(alphabet)
    the_rack = rack(alphabet, "OSALEIU")  # OSA leaves EILU (3 vowels, 1 consonant: 2); SOL leaves AEIU (4)
    moves = generate(board, the_rack, lexicon)
    ranked = rank_top_moves(board, the_rack, moves)
    assert {entry.score for entry in ranked} == {moves.best_score}
    assert alphabet.format(list(ranked[0].move.word)) == "OSA"
    assert any(entry.criterion is Criterion.BALANCED_LEAVE for entry in ranked)
