"""The move generator (``lexicon.movegen``) against the slow reference enumerator
(``tests/lexicon/reference.py``): same placements, same scores (rules I.2).

Both walkers are checked: the compiled one (``lexicon.gaddag_walk``, the C GADDAG
walker, when ``lexicon.gaddag.available()``) and the pure-Python one. The explicit
cases are parametrized by ``walker``; each hypothesis example runs both walkers,
requires the same moves from them (as multisets: their order differs, and nothing
depends on it since the III.15 ranking is total), and checks that result once
against the reference (the reference and the per-move checks are most of the time:
running them once per walker would double it for nothing). A placement is the set
of ``(row, col, tile)`` a move puts on the board, so a one-tile move forming words
both ways is one placement.

The hypothesis lexicons always hold words with the digraph tiles CH, LL, RR and the
letter Ñ, the racks draw those tiles often, and blanks (in the rack and on scattered
boards) stand for them as for any letter.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from lexicon.alphabet import BLANK_FLAG, spanish
from lexicon.board import CENTRE, SIZE, Board, Direction
from lexicon.gaddag import available as gaddag_available
from lexicon.gaddag_walk import Mode, walk
from lexicon.lexicon import Lexicon
from lexicon.move import Move, formed_words, placed_tiles, score_move
from lexicon.movegen import MoveList, generate, generate_compiled, generate_pure_python
from tests.lexicon.reference import reference_moves

HAVE_GADDAG = gaddag_available()

Walker = Callable[[Board, list[int], Lexicon], MoveList]

WALKERS: tuple[Walker, ...] = (generate_compiled, generate_pure_python) if HAVE_GADDAG else (generate_pure_python,)
"""Every walker this installation can run, the default first."""

each_walker = pytest.mark.parametrize("walker", [
    pytest.param(generate_compiled, id="gaddag",
                 marks=pytest.mark.skipif(not HAVE_GADDAG, reason="lexicon._gaddag not built")),
    pytest.param(generate_pure_python, id="pure-python"),
])

A = spanish()
BLANK = A.blank

SCALE = float(os.environ.get("MOVEGEN_SCALE", "1"))
"""Multiplies the number of hypothesis examples (``MOVEGEN_SCALE=50`` for a long local run)."""

REQUIRED = ["CHE", "CHA", "LLAVE", "PERRO", "CARRO", "CHORRILLOS", "AÑO", "NIÑO", "AL", "LA", "ES", "SE", "NO", "OS"]
"""Always in the hypothesis lexicons: words with CH, LL, RR and Ñ, and a few short connectors."""

SPECIAL = tuple(A.code(symbol) for symbol in ("CH", "LL", "RR", "Ñ"))
"""The tiles a byte-per-character or letter-per-tile confusion would get wrong: the
digraphs CH, LL, RR (one tile each, I.1) and Ñ."""

POOL = """
LO EL SI ON AS DE DA EN UN MI ME TE TU YA YO RE NI VE VA HA HE AH EH OH FE PE SU TA IR
CHAL CHAO OCHO NOCHE LECHE CHICO MUCHO HACHA CHOLO CHE
LLAMA LLENO CALLE CALLO POLLO GALLO SILLA VALLE LLANO ELLA ELLO ELLOS LLORA
CERRO TORRE BARRO CORRO PARRA TIERRA PERRA CARRA
SOL SAL MAR MES MAS OSO OLA ALA ASA ESA ESE ESO LOS LAS LES NOS SUS TAS
CASA COSA ROSA PASO PESO PERA PARA MESA MASA MALO MALA PALO PALA LATA LOTE NOTA
RATA RATO SETA TELA TOMA DOS TRES SEIS CASAS COSAS MESAS
REY LEY HOY PAZ LUZ VEZ QUE AÑO NIÑO SEÑA ARO ORO AMO AMA ERA ORA ESTO ESTA ENTE ANTE
SALTO ASTRO LOMA PALOMA PALOMAS ROSAL
""".split()  # noqa: SIM905

LONG = ["PALOMAS", "CASETAS", "ROSALES", "MALETAS", "PESCADOS", "CORTINAS", "PASTELES", "SENTADOS", "CHORRILLOS"]
"""Words of 7–8 tiles, for full-rack (bingo) positions."""


def placement(board: Board, move: Move) -> frozenset:
    return frozenset(placed_tiles(board, move))


def show(board: Board, key: Iterable[tuple[int, int, int]]) -> str:
    return " ".join(f"{'ABCDEFGHIJKLMNO'[r]}{c + 1}={A.symbol(t)}" for r, c, t in sorted(key))


def check_generated(board: Board, rack: list[int], lexicon: Lexicon,
                    *walkers: Walker) -> tuple[list[MoveList], dict[frozenset, int]]:
    """What can be checked of the ``walkers`` without the reference: they give the same
    moves (as multisets: their order may differ), each move once, legal (tiles from the
    rack, connected, every formed word in the lexicon), canonical, and scored as
    ``score_move`` scores it. When the compiled walker is one of them, its ``TOP`` mode
    (the master's candidates, III.15) gives exactly the moves of top score and its
    ``COUNT`` mode the number of moves. Returns each walker's moves and the placements → score."""
    context = f"board {board.to_cgp()} rack {A.format(rack)}"
    results = []
    for walker in walkers:
        before, rack_before = board.to_cgp(), list(rack)
        results.append(walker(board, rack, lexicon))
        assert board.to_cgp() == before and list(rack) == rack_before, f"{walker.__name__} changed its arguments"
        assert sorted(results[-1].raw) == sorted(results[0].raw), (
            f"{context}: {walker.__name__} disagrees with {walkers[0].__name__}")
    moves = results[0]
    if generate_compiled in walkers:
        best = max((entry[0] for entry in moves.raw), default=0)
        top_info, top_words, total = walk(board, rack, lexicon, Mode.TOP)
        top = sorted(MoveList.from_arrays(top_info, top_words).raw)
        assert top == sorted(entry for entry in moves.raw if entry[0] == best), f"{context}: TOP mode"
        assert total == len(top), f"{context}: TOP mode count"
        assert walk(board, rack, lexicon, Mode.COUNT)[2] == len(moves), f"{context}: COUNT mode"
    got: dict[frozenset, int] = {}
    empty = board.is_empty()
    for scored in moves.all():
        move = scored.move
        key = placement(board, move)
        assert key not in got, f"{context}: placement {show(board, key)} reported twice"
        got[key] = scored.score
        assert scored.tiles_placed == len(key), f"{context}: {move}"
        left = list(rack)
        for _, _, tile in key:
            left.remove(BLANK if tile & BLANK_FLAG else tile)  # ValueError: not in the rack
        if empty:
            assert len(key) >= 2 and any((r, c) == CENTRE for r, c, _ in key), f"{context}: {move} misses H8"
        else:
            assert any(board.tiles[r + dr][c + dc] is not None for r, c, _ in key
                       for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)) if 0 <= r + dr < SIZE and 0 <= c + dc < SIZE), (
                f"{context}: {move} touches no tile")
        assert score_move(board, move) == scored.score, f"{context}: {move} rescored"
        words = formed_words(board, move)
        assert words and all(word.letters in lexicon for word in words), f"{context}: {move} forms a non-word"
        _check_canonical(board, move, key, context)
    for moves in results:
        scores = [m.score for m in moves.all()]
        assert scores == sorted(scores, reverse=True) and moves.best_score == max(scores, default=0)
    return results, got


def check_position(board: Board, rack: list[int], lexicon: Lexicon, *walkers: Walker) -> MoveList:
    """Everything the ``walkers`` say about (board, rack) agrees with the reference;
    returns the first one's moves."""
    results, got = check_generated(board, rack, lexicon, *walkers)
    expected = reference_moves(board, rack, lexicon)
    context = f"board {board.to_cgp()} rack {A.format(rack)}"
    missing = sorted(show(board, key) + f" ({score})" for key, score in expected.items() if key not in got)
    extra = sorted(show(board, key) + f" ({score})" for key, score in got.items() if key not in expected)
    assert not missing and not extra, (
        f"{context}: missing {missing[:5]} ({len(missing)}), extra {extra[:5]} ({len(extra)})")
    wrong = sorted(f"{show(board, key)}: {got[key]} != {score}" for key, score in expected.items() if got[key] != score)
    assert not wrong, f"{context}: wrong scores {wrong[:5]} ({len(wrong)})"
    best = max(expected.values(), default=0)
    for moves in results:
        assert len(moves) == len(expected)
        assert moves.best_score == best
        assert {placement(board, m.move) for m in moves.top()} == {k for k, s in expected.items() if s == best}
        assert len(moves.top()) == sum(1 for s in expected.values() if s == best)
    return results[0]


def _check_canonical(board: Board, move: Move, key: frozenset, context: str) -> None:
    """The move is written as III.20.1.a says: the whole main word, from its first tile;
    board tiles as plain letters, rack blanks flagged; a one-tile move across when it
    forms an across word."""
    squares = move.squares()
    new = {(r, c): t for r, c, t in key}
    dr, dc = move.direction.step
    before = (move.row - dr, move.col - dc)
    after = (squares[-1][0] + dr, squares[-1][1] + dc)
    for r, c in (before, after):
        assert not (0 <= r < SIZE and 0 <= c < SIZE) or board.tiles[r][c] is None, f"{context}: {move} not maximal"
    assert len(move.word) >= 2, f"{context}: {move}"
    for (r, c), tile in zip(squares, move.word):
        if (r, c) in new:
            assert tile == new[(r, c)]
        else:
            assert tile == board.tiles[r][c] & ~BLANK_FLAG, f"{context}: {move} board tile written flagged"
    if len(key) == 1:
        ((r, c, _),) = key
        across = (c > 0 and board.tiles[r][c - 1] is not None) or (c < SIZE - 1 and board.tiles[r][c + 1] is not None)
        assert move.direction is (Direction.ACROSS if across else Direction.DOWN), f"{context}: {move}"


def rack_of(text: str) -> list[int]:
    return A.tokenize(text, allow_unknown_blank=True)


def codes(word: str) -> tuple[int, ...]:
    return A.word_codes(word)


# --- hypothesis strategies ------------------------------------------------------------
def lexicon_words() -> st.SearchStrategy[list[str]]:
    return st.lists(st.sampled_from(POOL), min_size=30, max_size=len(POOL), unique=True).map(
        lambda words: sorted(set(words) | set(REQUIRED)))


def letters_of(words: list[str]) -> list[int]:
    """Every tile of every word, repeats kept: drawing from it favours the common letters."""
    return sorted(code for word in words for code in A.word_codes(word))


@st.composite
def racks(draw: st.DrawFn, letters: list[int]) -> list[int]:
    """1–5 tiles; at most one blank with 4–5 tiles, up to two with 1–3 (the reference
    tries every letter for every blank). Often one of the tiles is CH, LL, RR or Ñ (rare
    when drawn from the words' letters alone)."""
    size = draw(st.integers(1, 5))
    blanks = draw(st.integers(0, min(size, 2 if size <= 3 else 1)))
    tiles = draw(st.lists(st.sampled_from(letters), min_size=size - blanks, max_size=size - blanks))
    special = draw(st.booleans())
    if special and tiles:
        tiles[0] = draw(st.sampled_from(SPECIAL), label="special tile")
    return tiles + [BLANK] * blanks


def special_events(moves: MoveList) -> None:
    """Hypothesis statistics: did the moves place a CH/LL/RR/Ñ tile, or a blank standing for one?"""
    placed = {tile for _score, _down, _row, _col, word, _placed in moves.raw for tile in word}
    event(f"special tile in a move's word: {any(tile in SPECIAL for tile in placed)}")
    event(f"blank as a special tile in a move: {any((tile ^ BLANK_FLAG) in SPECIAL for tile in placed)}")


def play_random_moves(draw: Callable, board: Board, lexicon: Lexicon, letters: list[int], count: int) -> None:
    """Play ``count`` random generated moves (from random 7-tile racks) on ``board``."""
    played = 0
    for _ in range(3 * count):
        if played == count:
            break
        rack = draw(st.lists(st.sampled_from(letters + [BLANK] * (len(letters) // 30)), min_size=7, max_size=7))
        moves = sorted(generate(board, rack, lexicon).raw)
        if not moves:
            continue
        played += 1
        _score, down, row, col, word, _ = moves[draw(st.integers(0, len(moves) - 1))]
        board.place(placed_tiles(board, Move(row, col, Direction.DOWN if down else Direction.ACROSS, word)))


def scatter_words(draw: Callable, board: Board, words: list[str], count: int) -> None:
    """Put ``count`` words anywhere (edges likely), some tiles blanks, without the
    connection or validity rules: any board is a fair test of the generator."""
    coordinate = st.one_of(st.sampled_from([0, 1, SIZE - 2, SIZE - 1]), st.integers(0, SIZE - 1))
    for _ in range(count):
        word = list(A.word_codes(draw(st.sampled_from(words))))
        special_at = [i for i, tile in enumerate(word) if tile in SPECIAL]   # a blank standing for CH, LL, RR, Ñ
        blank_at = draw(st.one_of(st.none(), st.integers(0, len(word) - 1),
                                  *([st.sampled_from(special_at)] if special_at else [])))
        if blank_at is not None:
            word[blank_at] |= BLANK_FLAG
        down = draw(st.booleans())
        along = draw(coordinate)
        across = min(draw(coordinate), SIZE - len(word))
        squares = [(across + i, along) if down else (along, across + i) for i in range(len(word))]
        if any(board.tiles[r][c] is not None and board.tiles[r][c] & ~BLANK_FLAG != t & ~BLANK_FLAG
               for (r, c), t in zip(squares, word)):
            continue
        board.place([(r, c, t) for (r, c), t in zip(squares, word) if board.tiles[r][c] is None])


# --- property tests -------------------------------------------------------------------
SLOW_OK = [HealthCheck.too_slow, HealthCheck.data_too_large]


@pytest.mark.slow
@settings(max_examples=int(200 * SCALE), deadline=None, suppress_health_check=SLOW_OK)
@given(data=st.data())
def test_generator_matches_reference_on_played_boards(data: st.DataObject, make_lexicon) -> None:
    words = data.draw(lexicon_words(), label="words")
    lexicon = make_lexicon(words)
    letters = letters_of(words)
    board = Board(A)
    play_random_moves(data.draw, board, lexicon, letters, data.draw(st.integers(0, 6), label="moves played"))
    rack = data.draw(racks(letters), label="rack")
    moves = check_position(board, rack, lexicon, *WALKERS)
    special_events(moves)
    event(f"tiles on board: {board.tile_count() // 5 * 5}+")
    event(f"moves: {len(moves) // 20 * 20}+")


@pytest.mark.slow
@settings(max_examples=int(100 * SCALE), deadline=None, suppress_health_check=SLOW_OK)
@given(data=st.data())
def test_generator_matches_reference_on_scattered_boards(data: st.DataObject, make_lexicon) -> None:
    words = data.draw(lexicon_words(), label="words")
    lexicon = make_lexicon(words)
    board = Board(A)
    scatter_words(data.draw, board, words, data.draw(st.integers(1, 6), label="words placed"))
    rack = data.draw(racks(letters_of(words)), label="rack")
    moves = check_position(board, rack, lexicon, *WALKERS)
    special_events(moves)
    event(f"moves: {len(moves) // 20 * 20}+")


@pytest.mark.slow
@settings(max_examples=max(1, int(12 * SCALE)), deadline=None, suppress_health_check=SLOW_OK)
@given(data=st.data())
def test_generator_matches_reference_with_full_racks(data: st.DataObject, make_lexicon) -> None:
    """6–7 tiles, no blank (the reference is slow): bingos, on boards with a few moves."""
    words = sorted(set(data.draw(lexicon_words(), label="words")) | set(LONG))
    lexicon = make_lexicon(words)
    letters = letters_of(words)
    board = Board(A)
    play_random_moves(data.draw, board, lexicon, letters, data.draw(st.integers(0, 3), label="moves played"))
    word = list(A.word_codes(data.draw(st.sampled_from(LONG), label="long word")))
    rack = data.draw(st.permutations(word), label="shuffled")[: data.draw(st.integers(6, 7), label="rack size")]
    moves = check_position(board, rack, lexicon, *WALKERS)
    special_events(moves)
    event(f"bingo: {any(m.tiles_placed == 7 for m in moves.all())}")


@pytest.mark.slow
@settings(max_examples=int(150 * SCALE), deadline=None, suppress_health_check=SLOW_OK)
@given(data=st.data())
def test_full_racks_with_blanks_are_legal_and_well_scored(data: st.DataObject, make_lexicon) -> None:
    """7 tiles with blanks, too slow for the reference: the checks that need no reference."""
    words = sorted(set(data.draw(lexicon_words(), label="words")) | set(LONG))
    lexicon = make_lexicon(words)
    letters = letters_of(words)
    board = Board(A)
    play_random_moves(data.draw, board, lexicon, letters, data.draw(st.integers(0, 4), label="moves played"))
    word = list(A.word_codes(data.draw(st.sampled_from(LONG), label="long word")))[:7]
    blanks = data.draw(st.sets(st.integers(0, 6), min_size=1, max_size=2), label="blanks at")
    rack = [BLANK if i in blanks else tile for i, tile in enumerate(word)]
    (moves, *_others), _placements = check_generated(board, rack, lexicon, *WALKERS)
    special_events(moves)


# --- explicit cases -------------------------------------------------------------------
SMALL = ["CHE", "CHA", "ES", "SE", "AL", "LA", "CASA", "CASAS", "SI", "LLAVE", "CALLE", "CARRO", "PERRO",
         "NOCHE", "OCHO", "CHORRILLOS", "LO", "LOS", "AS", "SO", "OS"]


@pytest.fixture
def small(make_lexicon) -> Lexicon:
    return make_lexicon(SMALL)


def board_with(*words: tuple[int, int, Direction, str]) -> Board:
    """A board holding the given words (text, lowercase = blank) at 0-based squares."""
    board = Board(A)
    for row, col, direction, text in words:
        dr, dc = direction.step
        tiles = A.tokenize(text)
        squares = [(row + dr * i, col + dc * i) for i in range(len(tiles))]
        board.place([(r, c, t) for (r, c), t in zip(squares, tiles) if board.tiles[r][c] is None])
    return board


def scores_by_placement(board: Board, moves: MoveList) -> dict[frozenset, int]:
    return {placement(board, m.move): m.score for m in moves.all()}


CH, E, S, LL, RR = (A.code(s) for s in ("CH", "E", "S", "LL", "RR"))


@each_walker
def test_blank_standing_for_ch(small: Lexicon, walker: Walker) -> None:
    board = Board(A)
    moves = check_position(board, rack_of("?E"), small, walker)
    found = scores_by_placement(board, moves)
    # ch on H8 (double word), E on H9: (0 + 1) × 2; and the E on the centre.
    assert found[frozenset({(7, 7, CH | BLANK_FLAG), (7, 8, E)})] == 2
    assert found[frozenset({(7, 6, CH | BLANK_FLAG), (7, 7, E)})] == 2
    assert found[frozenset({(6, 7, CH | BLANK_FLAG), (7, 7, E)})] == 2
    assert any(A.format(m.move.word) == "chE" for m in moves.all())
    # The natural CH tile: (5 + 1) × 2.
    assert check_position(board, rack_of("[CH]E"), small, walker).best_score == 12


@each_walker
def test_blanks_standing_for_ll_rr_and_enye(make_lexicon, walker: Walker) -> None:
    """A blank stands for any letter (I.1), a whole digraph tile too, and scores 0 (I.2).
    First moves on H8 (double word); no other premium within reach of these short words."""
    lexicon = make_lexicon(["LLAVE", "PERRO", "AÑO", "CHE"])
    board = Board(A)
    a, enye, o, p, v = (A.code(symbol) for symbol in ("A", "Ñ", "O", "P", "V"))

    # AÑO with the blank as Ñ: 3 squares covering H8 × 2 directions, (1 + 0 + 1) × 2 each.
    moves = check_position(board, rack_of("A?O"), lexicon, walker)
    assert len(moves) == 6 and {m.score for m in moves.all()} == {4}
    assert {m.move.word for m in moves.all()} == {(a, enye | BLANK_FLAG, o)}
    assert check_position(board, rack_of("AÑO"), lexicon, walker).best_score == (1 + 8 + 1) * 2

    # LLAVE (4 tiles) with the blank as LL: 4 × 2 placements, (0 + 1 + 4 + 1) × 2; and chE: 2 × 2, (0 + 1) × 2.
    moves = check_position(board, rack_of("?AVE"), lexicon, walker)
    by_word: dict[tuple[int, ...], set[int]] = {}
    for scored in moves.all():
        by_word.setdefault(scored.move.word, set()).add(scored.score)
    assert by_word == {(LL | BLANK_FLAG, a, v, E): {12}, (CH | BLANK_FLAG, E): {2}}
    assert len(moves) == 8 + 4
    assert check_position(board, rack_of("[LL]AVE"), lexicon, walker).best_score == (8 + 1 + 4 + 1) * 2

    # PERRO (4 tiles) with the blank as RR: (3 + 1 + 0 + 1) × 2.
    moves = check_position(board, rack_of("PE?O"), lexicon, walker)
    assert {m.score for m in moves.all() if m.move.word == (p, E, RR | BLANK_FLAG, o)} == {10}
    assert sum(m.move.word == (p, E, RR | BLANK_FLAG, o) for m in moves.all()) == 8

    # Two blanks and an E: CHE with the blank as CH and the E natural (2) or a blank (0),
    # each placement once (III.20.3): 2 squares × 2 directions × 2 assignments.
    moves = check_position(board, rack_of("??E"), lexicon, walker)
    assert len(moves) == 8
    assert sorted(m.score for m in moves.all()) == [0] * 4 + [2] * 4
    assert {m.move.word for m in moves.all()} == {(CH | BLANK_FLAG, E), (CH | BLANK_FLAG, E | BLANK_FLAG)}


@each_walker
def test_words_through_digraphs_on_the_board(small: Lexicon, walker: Walker) -> None:
    board = board_with((7, 6, Direction.ACROSS, "CARRO"))  # RR on H9
    found = scores_by_placement(board, check_position(board, rack_of("PEO"), small, walker))
    # PERRO down column 9 through the RR: P F9 3, E G9 double letter 2, RR 8, O I9 double letter 2.
    assert found[frozenset({(5, 8, A.code("P")), (6, 8, E), (8, 8, A.code("O"))})] == 15

    board = board_with((7, 7, Direction.ACROSS, "LLAVE"))  # LL on H8
    found = scores_by_placement(board, check_position(board, rack_of("CAE"), small, walker))
    assert found[frozenset({(5, 7, A.code("C")), (6, 7, A.code("A")), (8, 7, E)})] == 3 + 1 + 8 + 1  # CALLE

    board = board_with((7, 7, Direction.ACROSS, "CHE"))  # CH on H8
    found = scores_by_placement(board, check_position(board, rack_of("NOEO"), small, walker))
    # NOCHE: N 1, O 1, CH 5 (on the board), E 1.
    assert found[frozenset({(5, 7, A.code("N")), (6, 7, A.code("O")), (8, 7, E)})] == 8
    assert found[frozenset({(6, 7, A.code("O")), (8, 7, A.code("O"))})] == 7  # OCHO


@each_walker
def test_two_single_letters_never_make_a_digraph(make_lexicon, walker: Walker) -> None:
    lexicon = make_lexicon(["CARRO", "CHE", "AL"])
    board = board_with((7, 5, Direction.ACROSS, "CAR"))  # C, A, R: no RR tile
    moves = check_position(board, rack_of("RO"), lexicon, walker)
    assert len(moves) == 0
    board = board_with((7, 7, Direction.ACROSS, "C"))
    moves = check_position(board, rack_of("HE"), lexicon, walker)  # C + H + E is not CH + E
    assert len(moves) == 0


@each_walker
def test_blank_on_the_board_scores_zero(small: Lexicon, walker: Walker) -> None:
    board = board_with((7, 7, Direction.ACROSS, "CAsA"))  # blank s on H10
    found = scores_by_placement(board, check_position(board, rack_of("S"), small, walker))
    # CASAS: C 3 + A 1 + s 0 + A 1 + S on H12 double letter 2 (not 8: the blank is 0).
    assert found[frozenset({(7, 11, S)})] == 7
    found = scores_by_placement(board, check_position(board, rack_of("I"), small, walker))
    assert found[frozenset({(8, 9, A.code("I"))})] == 1  # SI down through the blank: 0 + 1


@each_walker
def test_rack_with_two_blanks(small: Lexicon, walker: Walker) -> None:
    board = Board(A)
    moves = check_position(board, rack_of("??"), small, walker)
    two_tile_words = [w for w in SMALL if len(A.word_codes(w)) == 2]
    assert len(moves) == len(two_tile_words) * 2 * 2  # each word: 2 squares on H8, 2 directions
    assert {m.score for m in moves.all()} == {0}
    board = board_with((7, 7, Direction.ACROSS, "CASA"))
    check_position(board, rack_of("??"), small, walker)
    check_position(board, rack_of("?O?"), small, walker)


@each_walker
def test_first_move_covers_h8_in_both_directions(small: Lexicon, walker: Walker) -> None:
    board = Board(A)
    moves = check_position(board, rack_of("CASAL"), small, walker)
    assert len(moves) > 0
    across, down = {}, {}
    for scored in moves.all():
        key = placement(board, scored.move)
        assert len(key) >= 2 and any((r, c) == CENTRE for r, c, _ in key)
        if scored.move.direction is Direction.ACROSS:
            across[frozenset((c, r, t) for r, c, t in key)] = scored.score
        else:
            down[key] = scored.score
    assert across == down  # the layout is symmetric about the diagonal


@each_walker
def test_no_legal_move(small: Lexicon, walker: Walker) -> None:
    for board, rack in ((Board(A), "XZ"), (Board(A), "A"), (board_with((7, 7, Direction.ACROSS, "CASA")), "ZQ")):
        moves = check_position(board, rack_of(rack), small, walker)
        assert len(moves) == 0 and moves.best_score == 0 and moves.top() == [] and moves.all() == []


@each_walker
def test_bingo_bonus(make_lexicon, walker: Walker) -> None:
    lexicon = make_lexicon(["PALOMAS", "PALOMA", "PALO", "LOMA", "LOMAS", "AL", "LA", "MAS", "SAL"])
    board = Board(A)
    moves = check_position(board, rack_of("PALOMAS"), lexicon, walker)
    # P A L O M A S = 11; P on H4 or M on H12 doubled (+3); × 2 (H8); + 50.
    assert moves.best_score == 78
    assert {(m.move.row, m.move.col, m.move.direction) for m in moves.top()} == {
        (7, 3, Direction.ACROSS), (7, 7, Direction.ACROSS), (3, 7, Direction.DOWN), (7, 7, Direction.DOWN)}
    assert all(m.tiles_placed == 7 for m in moves.top())
    # With a blank as the S on H14: (11 - 1 + 3) × 2 + 50.
    found = scores_by_placement(board, walker(board, rack_of("PALOMA?"), lexicon))
    key = frozenset({(7, 7 + i, t) for i, t in enumerate(A.word_codes("PALOMA"))} | {(7, 13, S | BLANK_FLAG)})
    assert found[key] == 76


@each_walker
def test_one_tile_move_reported_once(make_lexicon, walker: Walker) -> None:
    lexicon = make_lexicon(["AL", "LO", "AS", "SO", "LOS"])
    board = board_with((7, 7, Direction.ACROSS, "AL"), (7, 8, Direction.DOWN, "LO"))
    moves = check_position(board, rack_of("S"), lexicon, walker)
    by_key = {placement(board, m.move): m.move for m in moves.all()}
    both = by_key[frozenset({(8, 7, S)})]  # AS down and SO across: reported across
    assert (both.row, both.col, both.direction, A.format(both.word)) == (8, 7, Direction.ACROSS, "SO")
    only_down = by_key[frozenset({(9, 8, S)})]  # LOS down only
    assert (only_down.row, only_down.col, only_down.direction) == (7, 8, Direction.DOWN)
    assert A.format(only_down.word) == "LOS"


@each_walker
def test_moves_at_the_board_edges(small: Lexicon, walker: Walker) -> None:
    board = board_with((0, 0, Direction.ACROSS, "CASA"), (14, 11, Direction.ACROSS, "CASA"),
                       (4, 14, Direction.DOWN, "LO"), (13, 0, Direction.DOWN, "AL"))
    for rack in ("S", "SO", "?S", "LAS", "[CH]E", "O?"):
        check_position(board, rack_of(rack), small, walker)


@each_walker
def test_digraph_tiles_in_the_rack(small: Lexicon, walker: Walker) -> None:
    played = board_with((7, 7, Direction.ACROSS, "CASA"), (5, 10, Direction.DOWN, "LLAVE"))
    for rack in ("[CH][LL][RR]AE", "[LL]AVE", "[RR]OPE", "?[CH]O"):
        check_position(Board(A), rack_of(rack), small, walker)
        check_position(played, rack_of(rack), small, walker)
