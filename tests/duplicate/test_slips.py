"""Judging a slip (III.13, III.20, III.23, III.25): one verdict per status, the hints
for a misplaced word and an unmarked blank, and marked slips (late, null, missing).

Scores worked by hand (Spanish values: A C=3 E L O R S T U = 1 except C; standard
layout: H8 double word, H4/H12 double letter, I9 double letter, J10 triple letter).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from duplicate.rules.notation import format_move, parse_move
from duplicate.rules.slips import MARKED_STATUSES, SlipStatus, SlipVerdict, judge_slip, mark_verdict, nearest_legal_move
from lexicon.alphabet import Alphabet
from lexicon.board import Board, Direction
from lexicon.move import Move, placed_tiles
from lexicon.movegen import generate

WORDS = ["AS", "ASA", "CASA", "CASAS", "COSA", "ES", "LA", "LAS", "OLA", "OSA", "SAL", "SE", "SOL"]


@pytest.fixture(scope="module")
def lexicon(make_lexicon):
    return make_lexicon(WORDS)


def rack(alphabet: Alphabet, text: str) -> list[int]:
    return alphabet.tokenize(text, allow_unknown_blank=True)


def board_with(alphabet: Alphabet, *slips: str) -> Board:
    board = Board(alphabet)
    for text in slips:
        board.place(placed_tiles(board, parse_move(text, alphabet)))
    return board


@pytest.fixture
def casa(alphabet) -> Board:
    """CASA across H8–H11, the first master move."""
    return board_with(alphabet, "H8-CASA")


# --- valid (III.23) --------------------------------------------------------------------


def test_valid_slip_scores_its_move_III23(alphabet, lexicon, casa):
    # S on H12 (double letter): C3 + A1 + S1 + A1 + S2 = 8.
    verdict = judge_slip(casa, rack(alphabet, "LOSAE?R"), "H8-CASAS", lexicon)
    assert verdict == SlipVerdict(
        status=SlipStatus.VALID, score=8, move=parse_move("H8-CASAS", alphabet), canonical="H8-CASAS",
        reason="", hint=None, hint_score=None, words=(), slip="H8-CASAS",
    )
    assert verdict.valid


def test_valid_slip_canonical_text_normalises_the_typing_III20_1(alphabet, lexicon, casa):
    verdict = judge_slip(casa, rack(alphabet, "LOSAE?R"), "  9h ASA ", lexicon)
    assert (verdict.status, verdict.canonical, verdict.score) == (SlipStatus.VALID, "9H-ASA", 4)  # A + S×2 (I9) + A
    assert verdict.slip == "9h ASA"


def test_valid_oriented_slip_when_admitted_III20_1_b(alphabet, lexicon, casa):
    verdict = judge_slip(casa, rack(alphabet, "LOSAE?R"), "8H CASAS →", lexicon)
    assert (verdict.status, verdict.canonical, verdict.score) == (SlipStatus.VALID, "H8-CASAS", 8)


def test_valid_with_a_marked_blank_scores_it_0_III20_3(alphabet, lexicon, casa):
    # The blank s on H12 scores 0: 3 + 1 + 1 + 1 + 0.
    verdict = judge_slip(casa, rack(alphabet, "LOAER?T"), "H8-CASAs", lexicon)
    assert (verdict.status, verdict.score, verdict.canonical) == (SlipStatus.VALID, 6, "H8-CASAs")


# --- unreadable (III.20.1, III.20.4) ---------------------------------------------------


@pytest.mark.parametrize("text", ["", "CASA", "8CASA", "H8-CA5A", "H8-CASA →→"])
def test_syntax_errors_are_verdicts_not_exceptions_III20_4(alphabet, lexicon, casa, text):
    verdict = judge_slip(casa, rack(alphabet, "LOSAE?R"), text, lexicon)
    assert verdict.status is SlipStatus.SYNTAX
    assert (verdict.score, verdict.move, verdict.canonical, verdict.hint) == (0, None, None, None)
    assert verdict.reason


def test_oriented_notation_refused_when_not_admitted_is_syntax_III20_1(alphabet, lexicon, casa):
    verdict = judge_slip(casa, rack(alphabet, "LOSAE?R"), "H8-CASAS →", lexicon, oriented=False)
    assert verdict.status is SlipStatus.SYNTAX
    assert "orientada" in verdict.reason


# --- position (III.25.c) ---------------------------------------------------------------


def test_swapped_coordinate_is_misplaced_with_the_swapped_hint_III25_c(alphabet, lexicon, casa):
    """III.25.c "orden equivocado": H9-ASA runs over C-A-S-A; 9H-ASA (down column 9) fits."""
    verdict = judge_slip(casa, rack(alphabet, "LOSAE?R"), "H9-ASA", lexicon)
    assert verdict.status is SlipStatus.MISPLACED
    assert verdict.score == 0
    assert verdict.canonical == "H9-ASA"
    assert verdict.hint == "¿quiso decir 9H-ASA (4)?"
    assert verdict.hint_score == 4
    assert "9H-ASA" in verdict.reason


def test_swapped_coordinate_with_a_letter_that_differs_III25_c(alphabet, lexicon, casa):
    # H8-COSA: H9 holds A, not O. 8H-COSA: C (board) + O + S + A = 6.
    verdict = judge_slip(casa, rack(alphabet, "LOSAE?R"), "H8-COSA", lexicon)
    assert verdict.status is SlipStatus.MISPLACED
    assert "H9" in verdict.reason
    assert (verdict.hint, verdict.hint_score) == ("¿quiso decir 8H-COSA (6)?", 6)


def test_misplaced_without_swap_hints_the_nearest_legal_placement_best_scoring_first(alphabet, lexicon, casa):
    """11F-LAS puts S on H11 (an A). Its swap F11-LAS touches nothing. At distance 1
    two placements are legal, both down: 11G-LAS (L + A + S = 3) and 12F-LAS (LAS 4 +
    CASAS 8 with S on H12 double letter = 12); the higher score wins."""
    verdict = judge_slip(casa, rack(alphabet, "LOSAE?R"), "11F-LAS", lexicon)
    assert verdict.status is SlipStatus.MISPLACED
    assert (verdict.hint, verdict.hint_score) == ("¿quiso decir 12F-LAS (12)?", 12)


def test_nearest_legal_move_prefers_distance_over_score(alphabet, lexicon, casa):
    # A legal move is its own nearest placement.
    move = parse_move("11G-LAS", alphabet)
    assert nearest_legal_move(casa, rack(alphabet, "LOSAE?R"), move, lexicon) == (move, 3)
    # Written 11I-LAS (start I11, touching nothing): 11G-LAS is 2 squares away (3 points);
    # 9G-LAS (G9 and I9 double letter: 5) and 10F-LAS are 3 away, 12F-LAS (12) 4 away.
    found = nearest_legal_move(casa, rack(alphabet, "LOSAE?R"), parse_move("11I-LAS", alphabet), lexicon)
    assert found == (move, 3)


def test_nearest_legal_move_none_when_the_word_fits_nowhere(alphabet, lexicon, casa):
    # No C in the rack and no blank: COSA can only use the board's C (8H-COSA) — needs O, S, A.
    assert nearest_legal_move(casa, rack(alphabet, "LLEERTU"), parse_move("A1-COSA", alphabet), lexicon) is None


def test_misplaced_word_with_no_legal_placement_has_no_hint(alphabet, lexicon, casa):
    verdict = judge_slip(casa, rack(alphabet, "LLEERTU"), "H8-COSA", lexicon)
    assert verdict.status is SlipStatus.MISPLACED
    assert (verdict.hint, verdict.hint_score) == (None, None)


def test_not_connected_I2(alphabet, lexicon, casa):
    # The nearest legal SOL: 10H-SOL (S on the board, O, L on J10 triple letter = 1 + 1 + 3).
    verdict = judge_slip(casa, rack(alphabet, "LOSAE?R"), "A1-SOL", lexicon)
    assert verdict.status is SlipStatus.NOT_CONNECTED
    assert "no toca" in verdict.reason
    assert (verdict.hint, verdict.hint_score) == ("¿quiso decir 10H-SOL (5)?", 5)


def test_first_move_off_the_centre_is_not_connected_with_the_swapped_hint_I2(alphabet, lexicon):
    # 5H-CASA runs down column 5 and misses H8; H5-CASA covers H5–H8: (3+1+1+1) × 2 = 12.
    verdict = judge_slip(Board(alphabet), rack(alphabet, "CASAEOL"), "5H-CASA", lexicon)
    assert verdict.status is SlipStatus.NOT_CONNECTED
    assert "H8" in verdict.reason
    assert (verdict.hint, verdict.hint_score) == ("¿quiso decir H5-CASA (12)?", 12)


def test_word_running_off_the_board_III25_c(alphabet, lexicon, casa):
    verdict = judge_slip(casa, rack(alphabet, "LOSAE?R"), "H14-CASAS", lexicon)
    assert verdict.status is SlipStatus.OFF_BOARD
    assert verdict.canonical == "H14-CASAS"
    assert (verdict.hint, verdict.hint_score) == ("¿quiso decir H8-CASAS (8)?", 8)


def test_coordinate_outside_the_board_has_no_move_III25_c(alphabet, lexicon, casa):
    verdict = judge_slip(casa, rack(alphabet, "LOSAE?R"), "P8-CASAS", lexicon)
    assert verdict.status is SlipStatus.OFF_BOARD
    assert (verdict.move, verdict.canonical, verdict.hint) == (None, None, None)
    assert "fila P" in verdict.reason


# --- rack, lexicon, blanks (III.20.3, III.25.a, I.2) -----------------------------------


def test_tile_not_in_rack(alphabet, lexicon, casa):
    verdict = judge_slip(casa, rack(alphabet, "LOAERTU"), "H8-CASAS", lexicon)
    assert verdict.status is SlipStatus.NOT_IN_RACK
    assert verdict.score == 0
    assert verdict.canonical == "H8-CASAS"
    assert "faltan" in verdict.reason and verdict.hint is None


def test_unmarked_blank_scores_0_with_the_marked_move_as_hint_III25_a(alphabet, lexicon, casa):
    verdict = judge_slip(casa, rack(alphabet, "LOAER?T"), "H8-CASAS", lexicon)
    assert verdict.status is SlipStatus.UNMARKED_BLANK
    assert verdict.score == 0
    assert verdict.canonical == "H8-CASAS"
    assert (verdict.hint, verdict.hint_score) == ("¿quiso decir H8-CASAs (6)?", 6)
    assert "III.25.a" in verdict.reason


def test_unmarked_blank_hint_marks_it_where_it_scores_most_III25_a(alphabet, lexicon):
    # First move, the rack has one A: one A of CASA is the blank. H9–H11 are plain
    # squares and H8 doubles the word, so either A gives (3 + 0 + 1 + 1) × 2 = 10;
    # on equal scores the earliest is marked (check_move).
    verdict = judge_slip(Board(alphabet), rack(alphabet, "CASE?LO"), "H8-CASA", lexicon)
    assert verdict.status is SlipStatus.UNMARKED_BLANK
    assert (verdict.hint, verdict.hint_score) == ("¿quiso decir H8-CaSA (10)?", 10)


def test_invalid_word_names_the_words_I2(alphabet, lexicon, casa):
    verdict = judge_slip(casa, rack(alphabet, "LOSAE?R"), "H8-CASAL", lexicon)
    assert verdict.status is SlipStatus.INVALID_WORD
    assert verdict.words == ("CASAL",)
    assert (verdict.score, verdict.canonical) == (0, "H8-CASAL")


# --- marked slips (III.13, III.20.4, III.25.b) ------------------------------------------


@pytest.mark.parametrize(
    ("status", "fragment"),
    [(SlipStatus.LATE, "fuera de tiempo"), (SlipStatus.NULL, "nula"), (SlipStatus.MISSING, "no entregó")],
)
def test_marked_slips_score_0_III13_III20_4_III25_b(status, fragment):
    verdict = mark_verdict(status)
    assert (verdict.status, verdict.score, verdict.move, verdict.canonical, verdict.hint) == (status, 0, None, None, None)
    assert fragment in verdict.reason


def test_late_slip_keeps_the_text_written_III13():
    verdict = mark_verdict(SlipStatus.LATE, " H8-CASA ", detail="no la alzó al oír «TIEMPO»")
    assert verdict.slip == "H8-CASA"
    assert verdict.reason.startswith("«H8-CASA»: jugada entregada fuera de tiempo")
    assert verdict.reason.endswith("(no la alzó al oír «TIEMPO»)")


def test_mark_verdict_accepts_the_storage_code():
    assert mark_verdict("null").status is SlipStatus.NULL  # type: ignore[arg-type]


@pytest.mark.parametrize("status", sorted(set(SlipStatus) - MARKED_STATUSES))
def test_mark_verdict_refuses_statuses_read_from_the_text(status):
    with pytest.raises(ValueError, match="judge_slip"):
        mark_verdict(status)


def test_status_codes_are_stable_ascii_snake_case():
    assert [status.value for status in SlipStatus] == [
        "valid", "syntax", "off_board", "misplaced", "not_connected", "not_in_rack", "unmarked_blank",
        "invalid_word", "late", "null", "missing",
    ]


# --- properties ------------------------------------------------------------------------


@settings(max_examples=300, suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None)
@given(text=st.text(alphabet=st.sampled_from("ACHLSOÑR?()[]-→↓v 0123456789acsoñ8HhOPZ"), max_size=14))
def test_judge_slip_never_raises_for_any_text(alphabet, lexicon, casa, text):
    verdict = judge_slip(casa, rack(alphabet, "LOSAE?R"), text, lexicon)
    assert verdict.status not in MARKED_STATUSES
    assert (verdict.score > 0) == (verdict.status is SlipStatus.VALID)
    assert (verdict.reason == "") == (verdict.status is SlipStatus.VALID)


def _random_positions(alphabet: Alphabet, lexicon, count: int, seed: int) -> list[tuple[Board, list[int]]]:
    """Boards reached by playing random legal moves, and a random rack for each."""
    rng = random.Random(seed)
    bag = [code for code in alphabet.full_bag() if code == alphabet.blank or alphabet.symbol(code) in "ACSOLE"]
    positions = []
    board = Board(alphabet)
    while len(positions) < count:
        tiles = rng.sample(bag, 7)
        moves = generate(board, tiles, lexicon).all()
        positions.append((board.copy(), tiles))
        if not moves:
            board = Board(alphabet)
            continue
        board.place(placed_tiles(board, rng.choice(moves).move))
    return positions


def sample_moves(board: Board, tiles: list[int], lexicon, count: int = 60) -> list:
    moves = generate(board, tiles, lexicon).all()
    return random.Random(len(moves)).sample(moves, min(count, len(moves)))


def test_every_generated_move_is_judged_valid_with_its_score(alphabet, lexicon):
    for board, tiles in _random_positions(alphabet, lexicon, 12, seed=3):
        for scored in sample_moves(board, tiles, lexicon):
            text = format_move(scored.move, alphabet)
            verdict = judge_slip(board, tiles, text, lexicon)
            assert (verdict.status, verdict.score, verdict.canonical) == (SlipStatus.VALID, scored.score, text)


def test_a_swapped_legal_move_always_gets_a_hint_that_is_itself_valid_III25_c(alphabet, lexicon):
    """For every legal move written with the other coordinate order: if that is wrong,
    the hint exists, is no farther than the move meant (same square), and is valid."""
    checked = 0
    for board, tiles in _random_positions(alphabet, lexicon, 12, seed=5):
        for scored in sample_moves(board, tiles, lexicon):
            move = scored.move
            swapped = Move(move.row, move.col, move.direction.other, move.word)
            verdict = judge_slip(board, tiles, format_move(swapped, alphabet), lexicon)
            if verdict.status is SlipStatus.VALID:
                continue
            checked += 1
            assert verdict.status in {SlipStatus.MISPLACED, SlipStatus.NOT_CONNECTED, SlipStatus.OFF_BOARD,
                                      SlipStatus.INVALID_WORD, SlipStatus.NOT_IN_RACK}
            if verdict.status in {SlipStatus.INVALID_WORD, SlipStatus.NOT_IN_RACK}:
                continue  # the swap fits the board but forms other words: not a position error
            assert verdict.hint is not None and verdict.hint_score is not None
            hinted = verdict.hint.removeprefix("¿quiso decir ").split(" (")[0]
            again = judge_slip(board, tiles, hinted, lexicon)
            assert (again.status, again.score) == (SlipStatus.VALID, verdict.hint_score)
            # the move meant starts on the written square: the hint is at distance 0
            assert (again.move.row, again.move.col) == (move.row, move.col)
    assert checked > 20


def test_hint_direction_follows_the_written_one_at_equal_distance(alphabet, lexicon):
    # Empty board, rack CASA: from H8 both directions are legal; written across → across.
    found = nearest_legal_move(Board(alphabet), rack(alphabet, "CASAEOL"),
                               Move(7, 7, Direction.ACROSS, tuple(alphabet.tokenize("CASA"))), lexicon)
    assert found is not None and found[0].direction is Direction.ACROSS


def test_a_slip_typed_in_lowercase_without_blanks_hints_the_capitals_III20_3(alphabet, lexicon, casa):
    # Lowercase letters are blanks; with no blank on the rack the capitals are meant.
    # H8-CASAS with S on H12 (double letter): 3 + 1 + 1 + 1 + 2 = 8.
    verdict = judge_slip(casa, rack(alphabet, "LOSAEIR"), "h8-casas", lexicon)
    assert verdict.status is SlipStatus.NOT_IN_RACK and verdict.score == 0
    assert verdict.hint is not None and "H8-CASAS (8)" in verdict.hint and verdict.hint_score == 8
    assert verdict.hint.endswith("minúscula = comodín (Bloq Mayús)")   # the one hint, as in the app's fields


def test_no_capitals_hint_when_the_capitals_are_not_valid_either(alphabet, lexicon, casa):
    verdict = judge_slip(casa, rack(alphabet, "LOTAEIR"), "h8-casas", lexicon)   # no S on the rack
    assert verdict.status is SlipStatus.NOT_IN_RACK and verdict.hint is None
