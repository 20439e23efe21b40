"""Notation in and out (III.20.1), and checking a slip against board and rack
(III.20.3, III.25.a, I.2)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from duplicate.rules.notation import (
    FirstMoveError,
    InvalidWordError,
    MisplacedError,
    NotationSyntaxError,
    NotConnectedError,
    OffBoardError,
    PositionError,
    SlipError,
    TilesNotInRackError,
    UnmarkedBlankError,
    check_move,
    format_move,
    format_tiles,
    parse_move,
)
from lexicon.alphabet import BLANK_FLAG, Alphabet, spanish
from lexicon.board import SIZE, Board, Direction
from lexicon.move import Move, placed_tiles, score_move
from lexicon.movegen import generate

ACROSS, DOWN = Direction.ACROSS, Direction.DOWN

WORDS = [
    "AS", "AÑO", "AÑOS", "CALLE", "CASA", "CASAS", "CASCO", "CHAL", "CHE", "CHES", "CHORRILLOS", "EL", "ES",
    "ESA", "ESE", "HOLA", "LA", "LAS", "LLAVE", "LLAVES", "LOS", "OLA", "OLAS", "ORO", "OSA", "OSO", "PAZ",
    "PE", "PERRO", "PERROS", "PESCA", "PESO", "RES", "SAL", "SE", "SOL", "ZORRO",
]


@pytest.fixture(scope="module")
def lexicon(make_lexicon):
    return make_lexicon(WORDS)


def word(alphabet: Alphabet, text: str) -> tuple[int, ...]:
    return tuple(alphabet.tokenize(text))


def rack(alphabet: Alphabet, text: str) -> list[int]:
    return alphabet.tokenize(text, allow_unknown_blank=True)


def board_with(alphabet: Alphabet, *slips: str) -> Board:
    board = Board(alphabet)
    for text in slips:
        board.place(placed_tiles(board, parse_move(text, alphabet)))
    return board


# --- format_move (III.20.1.a) --------------------------------------------------------


def test_format_across_writes_row_letter_first_III20_1_a(alphabet):
    assert format_move(Move(7, 7, ACROSS, word(alphabet, "CASA")), alphabet) == "H8-CASA"


def test_format_down_writes_column_number_first_III20_1_a(alphabet):
    assert format_move(Move(7, 7, DOWN, word(alphabet, "CASA")), alphabet) == "8H-CASA"


def test_format_blank_from_rack_is_lowercase_III20_3(alphabet):
    assert format_move(Move(0, 14, DOWN, word(alphabet, "CaSA")), alphabet) == "15A-CaSA"


def test_format_digraph_tiles_plain_III20_1_a(alphabet):
    move = Move(7, 1, ACROSS, word(alphabet, "CHORRILLOS"))
    assert len(move.word) == 7
    assert format_move(move, alphabet) == "H2-CHORRILLOS"
    assert format_move(Move(7, 7, ACROSS, word(alphabet, "chE")), alphabet) == "H8-chE"


@pytest.mark.parametrize(
    ("tiles", "text"),
    [
        (["C", "H"], "[C]H"),  # two tiles that would read as the CH tile
        (["c", "h"], "[c]h"),  # two blanks that would read as a blank CH
        (["C", "h"], "Ch"),  # the change of case keeps them apart
        (["L", "LL"], "[L]LL"),  # LLL would read LL + L
        (["LL", "L"], "LLL"),
        (["R", "R", "R"], "[R][R]R"),
        (["CH", "H"], "CHH"),
        (["ch", "E"], "chE"),
    ],
)
def test_format_brackets_a_tile_that_would_join_the_next_into_a_digraph(alphabet, tiles, text):
    codes = [alphabet.code(t) if t.isupper() else alphabet.code(t.upper()) | BLANK_FLAG for t in tiles]
    assert format_tiles(codes, alphabet) == text
    assert alphabet.tokenize(text) == codes


def test_format_oriented_appends_the_arrow_III20_1_b(alphabet):
    casa = word(alphabet, "CASA")
    assert format_move(Move(7, 7, ACROSS, casa), alphabet, oriented=True) == "H8-CASA →"
    assert format_move(Move(7, 7, DOWN, casa), alphabet, oriented=True) == "8H-CASA ↓"


def test_format_rejects_an_undesignated_blank(alphabet):
    with pytest.raises(ValueError, match="código de ficha"):
        format_move(Move(7, 7, ACROSS, (alphabet.blank, 0)), alphabet)


# --- parse_move (III.20.1) -----------------------------------------------------------


def test_parse_canonical_across_example_of_III20_1_a(alphabet):
    assert parse_move("H8-CASA", alphabet) == Move(7, 7, ACROSS, word(alphabet, "CASA"))


def test_parse_canonical_down_example_of_III20_1_a(alphabet):
    assert parse_move("8H-CASA", alphabet) == Move(7, 7, DOWN, word(alphabet, "CASA"))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("H8 CASA", "H8-CASA"),
        ("  h8 - CASA  ", "H8-CASA"),
        ("H8CASA", "H8-CASA"),
        ("H8–CASA", "H8-CASA"),
        ("8h casa", "8H-casa"),  # the coordinate's case is free, the word's is not (blanks)
        ("H8-CAS(A)", "H8-CASa"),  # a circled letter typed in parentheses is a blank (III.20.3)
        ("H8-(CH)E", "H8-chE"),
        ("H8-[CH]E", "H8-CHE"),
        ("H8-[C]HE", "H8-[C]HE"),
        ("H8-CÁSA", "H8-CASA"),
        ("O1-AÑO", "O1-AÑO"),
        ("15A-CASA", "15A-CASA"),
    ],
)
def test_parse_lenient_variants(alphabet, text, expected):
    assert format_move(parse_move(text, alphabet), alphabet) == expected


@pytest.mark.parametrize(
    ("text", "direction"),
    [
        ("H8-CASA →", ACROSS),
        ("8H-CASA →", ACROSS),  # III.20.1.b: the order row/column no longer matters
        ("H8-CASA ↓", DOWN),
        ("8H-CASA ↓", DOWN),
        ("H8 CASA v", DOWN),
        ("H8 CASA V", DOWN),
        ("8H CASA >", ACROSS),
        ("8H-CASA->", ACROSS),
        ("→ 8H CASA", ACROSS),
        ("v H8 CASA", DOWN),
        ("H8 ↓ CASA", DOWN),
        ("8H v CASA", DOWN),
    ],
)
def test_parse_oriented_notation_III20_1_b(alphabet, text, direction):
    assert parse_move(text, alphabet) == Move(7, 7, direction, word(alphabet, "CASA"))


def test_parse_lowercase_v_glued_to_the_word_is_a_blank_not_an_arrow(alphabet):
    assert parse_move("H8-LLAVEv", alphabet).word[-1] == alphabet.code("V") | BLANK_FLAG


def test_parse_oriented_notation_refused_when_not_allowed_III20_1(alphabet):
    with pytest.raises(NotationSyntaxError, match="orientada"):
        parse_move("H8-CASA →", alphabet, oriented=False)
    assert parse_move("H8-CASA", alphabet, oriented=False).direction is ACROSS


@pytest.mark.parametrize(
    "text",
    ["", "   ", "CASA", "H8", "H8-", "HH-CASA", "88-CASA", "8CASA", "8HCASA", "H8-CA?A", "H8-CA5A",
     "→ H8-CASA ↓", "H8-CASA →→", "CASA H8", "H8-[CH"],
)
def test_parse_syntax_errors_name_the_slip(alphabet, text):
    with pytest.raises(NotationSyntaxError) as caught:
        parse_move(text, alphabet)
    assert text.strip() in str(caught.value)
    assert isinstance(caught.value, SlipError) and isinstance(caught.value, ValueError)


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("P8-CASA", "fila P"),
        ("8P-CASA", "fila P"),
        ("H16-CASA", "columna 16"),
        ("H0-CASA", "columna 0"),
        ("H13-CASAS", "no cabe"),
        ("13L-CASAS", "no cabe"),
        ("O12-CHORRILLOS", "no cabe"),
    ],
)
def test_parse_off_board(alphabet, text, fragment):
    with pytest.raises(OffBoardError, match=fragment) as caught:
        parse_move(text, alphabet)
    assert text in str(caught.value)


def test_parse_a_word_reaching_the_last_square_fits(alphabet):
    assert parse_move("H9-CHORRILLOS", alphabet).squares()[-1] == (7, 14)
    assert parse_move("9I-CHORRILLOS", alphabet).squares()[-1] == (14, 8)


# --- check_move: accepted slips ------------------------------------------------------


def test_check_first_move_returns_the_placement_I2(alphabet, lexicon):
    placement = check_move(Board(alphabet), rack(alphabet, "CASAEOL"), "H8-CASA", lexicon)
    assert placement.notation == "H8-CASA"
    assert placement.score == 12
    assert [(r, c) for r, c, _ in placement.placed] == [(7, 7), (7, 8), (7, 9), (7, 10)]
    assert [format_tiles(w.letters, alphabet) for w in placement.words] == ["CASA"]
    assert not placement.bingo


def test_check_bingo_III20_adds_50_and_flags_it(alphabet, lexicon):
    placement = check_move(Board(alphabet), rack(alphabet, "CHORRILLOS"), "H2-CHORRILLOS", lexicon)
    assert placement.bingo and placement.score == 116


def test_check_coordinate_is_the_first_letter_even_on_the_board_III20_1_a(alphabet, lexicon):
    board = board_with(alphabet, "H8-CASA")
    placement = check_move(board, rack(alphabet, "SEOLAIU"), "9H-AS", lexicon)
    assert placement.move == Move(7, 8, DOWN, word(alphabet, "AS"))
    assert [(r, c) for r, c, _ in placement.placed] == [(8, 8)]


def test_check_lowercase_on_a_board_blank_needs_no_mark_III25_a(alphabet, lexicon):
    board = board_with(alphabet, "H8-CaSA")  # the A on H9 is a blank
    for text in ("9H-aS", "9H-AS"):
        placement = check_move(board, rack(alphabet, "SEOLAIU"), text, lexicon)
        assert placement.notation == "9H-AS"
        assert placement.score == 2  # blank A 0 + S on I9 (double letter) 2


def test_check_accepts_a_move_value(alphabet, lexicon):
    move = Move(7, 7, ACROSS, word(alphabet, "CaSA"))
    assert check_move(Board(alphabet), rack(alphabet, "CAS?EOL"), move, lexicon).score == 10


def test_check_one_tile_move_forming_two_words_reads_either_way_III20_1_a(alphabet, lexicon):
    board = board_with(alphabet, "H8-LA", "8H-LA")  # L on H8, A on H9 and I8
    # S on I9 forms AS across row I and AS down column 9; either can be the main word.
    # Each AS: A 1 + S on I9 (double letter) 2 = 3 → 6
    for text in ("I8-AS", "9H-AS"):
        placement = check_move(board, rack(alphabet, "SEOLAIU"), text, lexicon)
        assert placement.score == 6 and len(placement.words) == 2
    generated = [format_move(m.move, alphabet) for m in generate(board, rack(alphabet, "S"), lexicon).all()]
    assert "I8-AS" in generated and "9H-AS" not in generated  # the generator reports it once, across


def test_check_one_letter_main_word_is_misplaced(alphabet, lexicon):
    board = board_with(alphabet, "H8-CASA")
    with pytest.raises(MisplacedError, match="dos letras"):
        check_move(board, rack(alphabet, "SEOLAIU"), "I9-S", lexicon)


# --- check_move: errors (each with a position that triggers it) ---------------------


def test_misplaced_word_not_the_whole_run_suggests_the_swapped_coordinate_III20_1_a(alphabet, lexicon):
    board = board_with(alphabet, "H8-CASA")
    with pytest.raises(MisplacedError) as caught:
        check_move(board, rack(alphabet, "SEOLAIU"), "H11-AS", lexicon)  # meant 11H-AS (down)
    error = caught.value
    assert error.swapped_matches
    assert error.swapped == Move(7, 10, DOWN, word(alphabet, "AS"))
    assert "11H-AS" in str(error) and "CASAS" in str(error) and "H11-AS" in str(error)
    assert isinstance(error, PositionError)


def test_misplaced_letter_differs_from_the_board_suggests_the_swapped_coordinate(alphabet, lexicon):
    board = board_with(alphabet, "H8-CASA")
    with pytest.raises(MisplacedError, match="en H10 ya hay S, no Ñ") as caught:
        check_move(board, rack(alphabet, "ÑOSEAIU"), "H9-AÑO", lexicon)
    assert caught.value.swapped == Move(7, 8, DOWN, word(alphabet, "AÑO"))
    assert "9H-AÑO" in str(caught.value)


def test_misplaced_without_a_swapped_match(alphabet, lexicon):
    board = board_with(alphabet, "H8-CASA")
    with pytest.raises(MisplacedError, match="en H8 ya hay C, no P") as caught:
        check_move(board, rack(alphabet, "PERROSA"), "H8-PERRO", lexicon)
    assert not caught.value.swapped_matches and caught.value.swapped is None


def test_misplaced_when_no_tile_is_placed(alphabet, lexicon):
    board = board_with(alphabet, "H8-CASA")
    with pytest.raises(MisplacedError, match="ninguna ficha") as caught:
        check_move(board, rack(alphabet, "CASAEOL"), "H8-CASA", lexicon)
    assert caught.value.swapped == Move(7, 7, DOWN, word(alphabet, "CASA"))  # down from the board's C


def test_misplaced_is_reported_before_an_invalid_word(alphabet, lexicon):
    board = board_with(alphabet, "H8-CASA")
    with pytest.raises(MisplacedError):
        check_move(board, rack(alphabet, "XSEOLAI"), "H11-AX", lexicon)


def test_off_board_word_suggests_the_swapped_coordinate(alphabet, lexicon):
    board = board_with(alphabet, "H8-CHORRILLOS")  # H8..H14
    with pytest.raises(OffBoardError, match="no cabe") as caught:
        check_move(board, rack(alphabet, "OSOLAIU"), "H14-SOL", lexicon)  # meant 14H-SOL
    assert caught.value.swapped == Move(7, 13, DOWN, word(alphabet, "SOL"))


def test_tiles_not_in_rack_names_them(alphabet, lexicon):
    with pytest.raises(TilesNotInRackError, match="P, Z") as caught:
        check_move(Board(alphabet), rack(alphabet, "CASA?EO"), "H8-PAZ", lexicon)
    assert caught.value.missing == (alphabet.code("P"), alphabet.code("Z"))


def test_lowercase_letter_without_a_blank_in_the_rack_is_tiles_not_in_rack_III20_3(alphabet, lexicon):
    with pytest.raises(TilesNotInRackError, match="comodín") as caught:
        check_move(Board(alphabet), rack(alphabet, "CASAEOL"), "H8-CaSA", lexicon)
    assert caught.value.missing == (alphabet.blank,)


def test_unmarked_blank_scores_zero_and_shows_the_corrected_move_III25_a(alphabet, lexicon):
    with pytest.raises(UnmarkedBlankError, match="III.25.a") as caught:
        check_move(Board(alphabet), rack(alphabet, "CAS?EOL"), "H8-CASA", lexicon)
    error = caught.value
    # The two A squares (H9, H11) are plain: equal scores, the earliest gets the blank.
    assert error.corrected == parse_move("H8-CaSA", alphabet)
    assert error.corrected_score == 10
    assert "H8-CaSA" in str(error)


def test_unmarked_blank_corrected_where_it_scores_most_III25_a(alphabet, lexicon):
    # H4-CASCO with one C in the rack: blank on H4 (double letter) costs 6, blank on H7 costs 3,
    # so the blank goes on H7: (6 + 1 + 1 + 0 + 1) × 2 = 18.
    with pytest.raises(UnmarkedBlankError) as caught:
        check_move(Board(alphabet), rack(alphabet, "CASO?EL"), "H4-CASCO", lexicon)
    assert format_move(caught.value.corrected, alphabet) == "H4-CAScO"
    assert caught.value.corrected_score == 18


def test_unmarked_blank_for_a_digraph_III25_a(alphabet, lexicon):
    with pytest.raises(UnmarkedBlankError) as caught:
        check_move(Board(alphabet), rack(alphabet, "?ESAOIU"), "H8-CHE", lexicon)
    assert format_move(caught.value.corrected, alphabet) == "H8-chE"


def test_invalid_word_names_the_cross_word_I2(alphabet, lexicon):
    board = board_with(alphabet, "H8-CASA")
    # I8-AS: AS is a word, but it forms CA down column 8 (and AS down column 9).
    with pytest.raises(InvalidWordError, match="CA") as caught:
        check_move(board, rack(alphabet, "ASEOLIU"), "I8-AS", lexicon)
    assert caught.value.words == ("CA",)


def test_invalid_main_word_I2(alphabet, lexicon):
    with pytest.raises(InvalidWordError, match="palabra no válida.*ASAC"):
        check_move(Board(alphabet), rack(alphabet, "CASAEOL"), "H8-ASAC", lexicon)


def test_invalid_word_is_reported_before_an_unmarked_blank(alphabet, lexicon):
    with pytest.raises(InvalidWordError):
        check_move(Board(alphabet), rack(alphabet, "CAS?EOL"), "H8-ASAC", lexicon)


def test_not_connected_I2(alphabet, lexicon):
    board = board_with(alphabet, "H8-CASA")
    with pytest.raises(NotConnectedError, match="no toca") as caught:
        check_move(board, rack(alphabet, "CASAEOL"), "A1-CASA", lexicon)
    assert caught.value.swapped is None


def test_not_connected_suggests_the_swapped_coordinate(alphabet, lexicon):
    board = board_with(alphabet, "H8-CASA")
    with pytest.raises(NotConnectedError) as caught:
        check_move(board, rack(alphabet, "ESOLAIU"), "F9-ESA", lexicon)  # meant 9F-ESA, down onto H9
    assert format_move(caught.value.swapped, alphabet) == "9F-ESA"


@pytest.mark.parametrize("text", ["A1-CASA", "H9-CASA", "8I-CASA"])
def test_first_move_must_cover_H8_I2(alphabet, lexicon, text):
    with pytest.raises(FirstMoveError, match="H8"):
        check_move(Board(alphabet), rack(alphabet, "CASAEOL"), text, lexicon)


def test_first_move_written_across_instead_of_down_suggests_the_swap(alphabet, lexicon):
    with pytest.raises(FirstMoveError) as caught:
        check_move(Board(alphabet), rack(alphabet, "CASAEOL"), "E8-CASA", lexicon)
    assert format_move(caught.value.swapped, alphabet) == "8E-CASA"


def test_first_move_single_tile_I2(alphabet, lexicon):
    with pytest.raises(FirstMoveError, match="dos fichas"):
        check_move(Board(alphabet), rack(alphabet, "CASAEOL"), "H8-A", lexicon)


def test_check_syntax_errors_are_slip_errors(alphabet, lexicon):
    with pytest.raises(NotationSyntaxError):
        check_move(Board(alphabet), rack(alphabet, "CASAEOL"), "CASA", lexicon)
    with pytest.raises(OffBoardError):
        check_move(Board(alphabet), rack(alphabet, "CASAEOL"), "Q8-CASA", lexicon)


# --- agreement with the move generator -----------------------------------------------


POSITIONS = [
    ((), "CHORRILLOS"),
    ((), "??EOSAL"),
    (("H2-CHORRILLOS",), "PE?RAVS"),
    (("H8-CASA", "12H-SE"), "LL?EOAS"),
    (("H8-CaSA", "11H-AÑO"), "??CHELS"),
]


def assert_agrees_with_generator(board: Board, tiles: list[int], lexicon, limit: int | None = None) -> int:
    alphabet = board.alphabet
    moves = generate(board, tiles, lexicon).all()
    for scored in moves[:limit]:
        text = format_move(scored.move, alphabet)
        assert parse_move(text, alphabet) == scored.move, text
        placement = check_move(board, tiles, text, lexicon)
        assert placement.move == scored.move, text
        assert placement.score == scored.score == score_move(board, scored.move), text
        assert len(placement.placed) == scored.tiles_placed
        oriented = format_move(scored.move, alphabet, oriented=True)
        assert parse_move(oriented, alphabet) == scored.move, oriented
    return len(moves)


@pytest.mark.parametrize(("slips", "rack_text"), POSITIONS)
def test_every_generated_move_round_trips_and_checks_with_its_score(alphabet, lexicon, slips, rack_text):
    board = board_with(alphabet, *slips)
    assert assert_agrees_with_generator(board, rack(alphabet, rack_text), lexicon) > 0


def test_generated_moves_with_separate_C_and_H_tiles_use_brackets(alphabet, make_lexicon):
    lexicon = make_lexicon(["[C]HE", "CHE"])  # a word spelt with a C tile and an H tile
    tiles = rack(alphabet, "[C]H[CH]EAOI")  # C, H, CH, E, A, O, I
    assert len(tiles) == 7
    texts = {format_move(m.move, alphabet) for m in generate(Board(alphabet), tiles, lexicon).all()}
    assert {"H6-[C]HE", "H7-[C]HE", "H8-[C]HE", "8H-[C]HE", "H8-CHE", "H7-CHE"} <= texts
    assert_agrees_with_generator(Board(alphabet), tiles, lexicon)


# --- properties ----------------------------------------------------------------------


@st.composite
def moves(draw: st.DrawFn) -> Move:
    alphabet = spanish()
    direction = draw(st.sampled_from([ACROSS, DOWN]))
    row = draw(st.integers(0, SIZE - 1))
    col = draw(st.integers(0, SIZE - 1))
    room = SIZE - (col if direction is ACROSS else row)
    tiles = draw(
        st.lists(
            st.tuples(st.integers(0, alphabet.size - 1), st.booleans()).map(lambda t: t[0] | (BLANK_FLAG if t[1] else 0)),
            min_size=1,
            max_size=room,
        )
    )
    return Move(row, col, direction, tuple(tiles))


@given(moves(), st.booleans())
def test_property_parse_format_round_trip_III20_1(move, oriented):
    alphabet = spanish()
    text = format_move(move, alphabet, oriented=oriented)
    assert parse_move(text, alphabet) == move


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.integers(0, 2**32 - 1))
def test_property_generator_and_checker_agree_over_a_game(lexicon, seed):
    alphabet = spanish()
    rng = random.Random(seed)
    bag = alphabet.full_bag()
    rng.shuffle(bag)
    board = Board(alphabet)
    tiles: list[int] = []
    for _round in range(4):
        tiles += [bag.pop() for _ in range(min(7 - len(tiles), len(bag)))]
        moves_found = generate(board, tiles, lexicon).all()
        assert_agrees_with_generator(board, tiles, lexicon, limit=300)
        if not moves_found:
            bag += tiles
            rng.shuffle(bag)
            tiles = []
            continue
        master = rng.choice(moves_found[:5]).move
        placed = placed_tiles(board, master)
        board.place(placed)
        for _row, _col, tile in placed:
            tiles.remove(alphabet.blank if tile & BLANK_FLAG else tile)


def test_a_rack_and_its_missing_tiles_show_digraph_tiles_in_brackets(alphabet, lexicon):
    # Issue 35 §4: «faltan en el atril AAEIOQRR: R» — the rack held one RR tile, not two R:
    # messages write digraph tiles as racks are shown everywhere, [RR], [LL], [CH].
    with pytest.raises(TilesNotInRackError) as caught:
        check_move(Board(alphabet), rack(alphabet, "AAEIOQRR"), "H8-ARO", lexicon)
    assert "faltan en el atril AAEIOQ[RR]: R" in str(caught.value)
    with pytest.raises(TilesNotInRackError) as caught:
        check_move(Board(alphabet), rack(alphabet, "AEOR[R]NS"), "H8-CHE", lexicon)
    assert "faltan en el atril AENORRS: [CH]" in str(caught.value)
