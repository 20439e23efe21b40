"""The compiled move generator (``lexicon.gaddag``, ``lexicon.gaddag_walk``, the C walker
of ``lexicon/gaddag_walk.c``) against the pure-Python walker, the reference, on the default
lexicon: the same moves with the same scores (I.2) as multisets (the order differs, and
nothing depends on it: the III.15 ranking is total), the same top-score moves for the
master (III.15), the same count.

Then the parts only the compiled path has: the GADDAG (it spells exactly the GADDAG
strings of the words, is built deterministically, is stored in the compiled lexicon and
refused when corrupt), the cross-check cache updated from one board to the next, the
retry when the output arrays are too small, format-1 lexicons (no ``gaddag.bin``), the
``DUPLICADA_PURE_PYTHON`` switch, and malformed input.

The hypothesis comparisons against the slow reference enumerator run for both walkers
in ``test_movegen.py``; the positions here are real ones (self-played full-bag games,
two-blank and digraph-heavy racks on their boards), too big for that reference.
"""

from __future__ import annotations

import json
import random
import struct
import threading
import zipfile
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lexicon.lexicon as lexicon_module
from duplicate.rules.game import Game
from lexicon import gaddag_walk
from lexicon.alphabet import BLANK_FLAG, spanish
from lexicon.board import SIZE, Board
from lexicon.gaddag import Gaddag, available, build_gaddag, extension
from lexicon.gaddag_walk import INFO_COLUMNS, Mode, board_array, forget_cross_checks, walk
from lexicon.lexicon import Lexicon, LexiconError, build
from lexicon.move import placed_tiles
from lexicon.movegen import (
    PURE_PYTHON_VARIABLE,
    MoveList,
    RawMove,
    count_moves,
    generate,
    generate_compiled,
    generate_pure_python,
    generate_top,
    walker_name,
)

pytestmark = pytest.mark.skipif(not available(), reason="lexicon._gaddag not built")

A = spanish()
SPECIAL = tuple(A.code(symbol) for symbol in ("CH", "LL", "RR", "Ñ"))
"""The digraph tiles CH, LL, RR (one tile each, I.1) and Ñ."""
FINAL_BIT = 1 << 31
ALL_LETTERS = 0xFFFFFFFF
"""The cross-check mask of an empty square with no perpendicular tile: every letter fits."""

Position = tuple[Board, tuple[int, ...]]


@pytest.fixture(autouse=True)
def compiled_walker(monkeypatch: pytest.MonkeyPatch) -> None:
    """``generate``, ``generate_top`` and ``count_moves`` use the compiled walker."""
    monkeypatch.delenv(PURE_PYTHON_VARIABLE, raising=False)


def self_played(lexicon: Lexicon, seed: int) -> list[Position]:
    """Every (board, rack) of a self-played full-bag game, the board before the master."""
    played: list[Position] = []
    game = Game(lexicon, seed=seed)
    while (pending := game.draw()) is not None:
        played.append((game.board.copy(), pending.rack.tiles))
        if pending.master is None:
            break
        game.play()
    return played


@pytest.fixture(scope="module")
def games(spanish_lexicon: Lexicon) -> list[list[Position]]:
    return [self_played(spanish_lexicon, seed) for seed in (11, 12, 13)]


@pytest.fixture(scope="module")
def positions(spanish_lexicon: Lexicon, games: list[list[Position]]) -> list[Position]:
    """Every (board, rack) of three self-played games, plus on some of their boards racks
    with two blanks, with the four tiles CH, LL, RR, Ñ, and with two of them and a blank."""
    alphabet = spanish_lexicon.alphabet
    played = [position for game in games for position in game]
    rng = random.Random(5)
    letters = [tile for tile in alphabet.full_bag() if tile != alphabet.blank]
    boards = [board for board, _ in played]
    two_blanks = [(rng.choice(boards), tuple(rng.sample(letters, 5)) + (alphabet.blank,) * 2) for _ in range(6)]
    special = [(rng.choice(boards), SPECIAL + tuple(rng.sample(letters, 3))) for _ in range(12)]
    special_and_blank = [(rng.choice(boards), (*rng.sample(SPECIAL, 2), alphabet.blank, *rng.sample(letters, 4)))
                         for _ in range(12)]
    return played + two_blanks + special + special_and_blank


def rack_of(text: str) -> list[int]:
    return A.tokenize(text, allow_unknown_blank=True)


def context(board: Board, rack: Sequence[int]) -> str:
    return f"{board.to_cgp()} {A.format(rack)}"


def new_tiles(board: Board, entry: RawMove) -> Iterator[int]:
    """The tiles a move takes from the rack (its word's tiles on empty squares)."""
    _score, down, row, col, word, _placed = entry
    for i, tile in enumerate(word):
        if board.tiles[row + i * down][col + i * (1 - down)] is None:
            yield tile


def top_of(raw: Iterable[RawMove]) -> list[RawMove]:
    """The moves of top score, sorted."""
    moves = list(raw)
    best = max((entry[0] for entry in moves), default=0)
    return sorted(entry for entry in moves if entry[0] == best)


# --- the compiled walker against the pure-Python one ---------------------------------------
@pytest.mark.slow
def test_compiled_walker_gives_the_pure_python_moves(spanish_lexicon: Lexicon, positions: list[Position]) -> None:
    """Same moves and scores (I.2), same top moves (III.15: ``generate_top``, the master's
    candidates, found with the shadow-bound pruning), same count."""
    placed_special = blank_as_special = 0
    for board, rack in positions:
        where = context(board, rack)
        python = generate_pure_python(board, rack, spanish_lexicon)
        compiled = generate_compiled(board, rack, spanish_lexicon)
        expected = sorted(python.raw)
        assert sorted(compiled.raw) == expected, where
        assert len(compiled) == len(python) and compiled.best_score == python.best_score, where
        assert sorted(generate_top(board, rack, spanish_lexicon).raw) == top_of(expected), where
        assert count_moves(board, rack, spanish_lexicon) == len(expected), where
        assert sorted(generate(board, rack, spanish_lexicon).raw) == expected, where
        placed_special += any(tile in SPECIAL for entry in expected for tile in new_tiles(board, entry))
        blank_as_special += any((tile & ~BLANK_FLAG) in SPECIAL and tile & BLANK_FLAG
                                for entry in expected for tile in new_tiles(board, entry))
    # The positions did exercise the digraphs, natural and as blanks.
    assert placed_special > 20 and blank_as_special > 10, (placed_special, blank_as_special)


def test_array_backed_move_list_answers_like_the_tuple_one(spanish_lexicon: Lexicon,
                                                           positions: list[Position]) -> None:
    board, rack = max(positions[-30:-24], key=lambda position: count_moves(position[0], position[1], spanish_lexicon))
    info, words, total = walk(board, rack, spanish_lexicon, Mode.ALL)
    assert total == len(info) == len(words) > 1000
    from_arrays = MoveList.from_arrays(info, words)
    from_tuples = MoveList(list(from_arrays.raw))
    assert len(from_arrays) == len(from_tuples)
    assert from_arrays.best_score == from_tuples.best_score
    assert from_arrays.top() == from_tuples.top()
    assert from_arrays.all() == from_tuples.all()
    lengths = info[:, INFO_COLUMNS.index("length")]
    assert (words[np.arange(SIZE)[None, :] >= lengths[:, None]] == 0).all()   # zeros after the word
    assert (words[np.arange(SIZE)[None, :] < lengths[:, None]] != -1).all()
    empty = MoveList.from_arrays(info[:0], words[:0])
    assert len(empty) == 0 and empty.best_score == 0 and empty.top() == [] and empty.all() == [] and empty.raw == []


# --- the GADDAG ------------------------------------------------------------------------------
State = tuple[int, int]
"""A node of the stored GADDAG: its ``(mask, first)`` pair."""


def root_state(gaddag: Gaddag) -> State:
    return (int(gaddag.root_mask), int(gaddag.root_first))


def children(gaddag: Gaddag, state: State) -> Iterable[tuple[int, State]]:
    """``(symbol, child)`` for each edge of the node (layout in ``lexicon/gaddag.h``): bit L
    of the mask is an edge for symbol L, its arc ``first + (bits of the mask below L)``."""
    mask, first = state
    symbols = mask & ~FINAL_BIT
    for symbol in range(31):
        if symbols >> symbol & 1:
            arc = gaddag.arcs[first + bin(symbols & ((1 << symbol) - 1)).count("1")]
            yield symbol, (int(arc[0]), int(arc[1]))


def spelled(gaddag: Gaddag) -> tuple[list[tuple[int, ...]], set[State]]:
    """Every string the GADDAG accepts (each as often as it is reached), and the nodes seen."""
    found: list[tuple[int, ...]] = []
    seen: set[State] = set()
    stack: list[tuple[State, tuple[int, ...]]] = [(root_state(gaddag), ())]
    while stack:
        state, path = stack.pop()
        assert len(path) <= 16, "a GADDAG string has at most 15 letters and a separator"
        seen.add(state if state[0] & ~FINAL_BIT else (state[0], -1))   # an edgeless node's ``first`` is moot
        if state[0] & FINAL_BIT:
            found.append(path)
        stack.extend((child, path + (symbol,)) for symbol, child in children(gaddag, state))
    return found, seen


def gaddag_strings(words: Iterable[Sequence[int]], separator: int) -> set[tuple[int, ...]]:
    """Gordon's GADDAG strings: for a word ``w`` of ``n`` letters and each ``k = 1..n``,
    ``rev(w[:k])``, then when ``k < n`` the separator and ``w[k:]``."""
    strings = set()
    for word in words:
        word = tuple(word)
        for k in range(1, len(word) + 1):
            strings.add(tuple(reversed(word[:k])) + (((separator,) + word[k:]) if k < len(word) else ()))
    return strings


def minimal_states(strings: set[tuple[int, ...]]) -> int:
    """States of the minimal automaton of ``strings``: one per distinct set of suffixes
    after a prefix (Myhill–Nerode; no dead state)."""
    prefixes = {string[:i] for string in strings for i in range(len(string) + 1)}
    return len({frozenset(s[len(p):] for s in strings if s[: len(p)] == p) for p in prefixes})


WORDS = ["CHE", "CHA", "CHAL", "NOCHE", "OCHO", "LLAVE", "CALLE", "CALLO", "ELLA", "PERRO", "PERRA", "CARRO",
         "CHORRILLOS", "AÑO", "AÑOS", "NIÑO", "CASA", "CASAS", "AL", "LA", "ES", "SE", "CH" * 15, "ACHAQUES"]


def test_gaddag_spells_exactly_the_words(alphabet) -> None:
    words = [alphabet.word_codes(word) for word in WORDS]
    gaddag = build_gaddag(words, alphabet.size)
    assert gaddag.separator == alphabet.size
    found, seen = spelled(gaddag)
    expected = gaddag_strings(words, alphabet.size)
    assert sorted(found) == sorted(expected)          # each string once, nothing else
    assert len(seen) == minimal_states(expected) == gaddag.nodes


@settings(max_examples=150, deadline=None)
@given(st.sets(st.lists(st.integers(0, 4), min_size=2, max_size=7).map(tuple), min_size=1, max_size=40))
def test_gaddag_of_random_words_is_exact_and_minimal(words: set[tuple[int, ...]]) -> None:
    gaddag = build_gaddag(sorted(words), 5)
    found, seen = spelled(gaddag)
    expected = gaddag_strings(words, 5)
    assert sorted(found) == sorted(expected)
    assert len(seen) == minimal_states(expected) == gaddag.nodes


def test_gaddag_build_is_deterministic(alphabet) -> None:
    words = [alphabet.word_codes(word) for word in WORDS]
    blob = build_gaddag(words, alphabet.size).to_bytes()
    assert build_gaddag(words, alphabet.size).to_bytes() == blob
    shuffled = words * 2
    random.Random(3).shuffle(shuffled)
    assert build_gaddag(shuffled, alphabet.size).to_bytes() == blob   # order and repeats do not matter
    assert build_gaddag(words[:-1], alphabet.size).to_bytes() != blob


def test_gaddag_build_refuses_bad_words(alphabet) -> None:
    with pytest.raises(ValueError):
        build_gaddag([(0, 1, alphabet.size)], alphabet.size)           # a code outside the alphabet
    with pytest.raises(ValueError):
        build_gaddag([(0,) * 16], alphabet.size)                        # 16 tiles


def test_gaddag_round_trip(alphabet) -> None:
    gaddag = build_gaddag([alphabet.word_codes(word) for word in WORDS], alphabet.size)
    blob = gaddag.to_bytes()
    again = Gaddag.from_bytes(blob, alphabet.size)
    assert again.to_bytes() == blob
    assert np.array_equal(again.arcs, gaddag.arcs) and again.arguments[1:] == gaddag.arguments[1:]
    assert sorted(spelled(again)[0]) == sorted(spelled(gaddag)[0])


def _header(blob: bytes) -> list[int]:
    return list(struct.unpack_from("<5I", blob))


def _with_header(blob: bytes, **changes: int) -> bytes:
    fields = dict(zip(("arcs", "root_mask", "root_first", "separator", "nodes"), _header(blob)))
    fields.update(changes)
    return struct.pack("<5I", *fields.values()) + blob[20:]


def _with_arc(blob: bytes, index: int, mask: int | None = None, first: int | None = None) -> bytes:
    offset = 20 + 8 * index
    old_mask, old_first = struct.unpack_from("<2I", blob, offset)
    arc = struct.pack("<2I", old_mask if mask is None else mask, old_first if first is None else first)
    return blob[:offset] + arc + blob[offset + 8:]


def _edged_arc(blob: bytes) -> int:
    """An arc leading to a node with edges."""
    count = _header(blob)[0]
    return next(i for i in range(count) if struct.unpack_from("<I", blob, 20 + 8 * i)[0] & ~FINAL_BIT)


def corruptions(blob: bytes) -> dict[str, bytes]:
    count, root_mask, _root_first, separator, _nodes = _header(blob)
    edged = _edged_arc(blob)
    edged_mask = struct.unpack_from("<I", blob, 20 + 8 * edged)[0]
    body = bytearray(blob[20:])
    random.Random(1).shuffle(body)
    return {
        "empty": b"",
        "short header": blob[:16],
        "truncated": blob[:-1],
        "one arc short": blob[:-8],
        "one byte more": blob + b"\0",
        "arc count": _with_header(blob, arcs=count + 1),
        "separator": _with_header(blob, separator=separator - 1),
        "root's edges past the end": _with_header(blob, root_first=count),
        "root's symbol outside the alphabet": _with_header(blob, root_mask=root_mask | 1 << (separator + 1)),
        "arc to a node whose edges are past the end": _with_arc(blob, edged, first=count),
        "arc to a nonexistent node": _with_arc(blob, edged, first=0xFFFFFFFF),
        "arc's symbol outside the alphabet": _with_arc(blob, edged, mask=edged_mask | 1 << 30),
        "shuffled arcs": blob[:20] + bytes(body),
    }


CORRUPTIONS = (list(corruptions(build_gaddag([A.word_codes(w) for w in WORDS], A.size).to_bytes()))
               if available() else [])


@pytest.mark.parametrize("corruption", CORRUPTIONS)
def test_gaddag_from_bytes_refuses_corrupt_blobs(alphabet, corruption: str) -> None:
    blob = build_gaddag([alphabet.word_codes(word) for word in WORDS], alphabet.size).to_bytes()
    with pytest.raises(ValueError):
        Gaddag.from_bytes(corruptions(blob)[corruption], alphabet.size)


def test_gaddag_from_bytes_refuses_another_alphabet(alphabet) -> None:
    blob = build_gaddag([alphabet.word_codes(word) for word in WORDS], alphabet.size).to_bytes()
    with pytest.raises(ValueError):
        Gaddag.from_bytes(blob, alphabet.size - 1)


# --- gaddag.bin in the compiled lexicon ------------------------------------------------------
@pytest.fixture
def verified_in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The record of checked lexicon files in ``tmp_path``, not the user's cache."""
    monkeypatch.setattr(lexicon_module, "_verified_path", lambda: tmp_path / "verificados.json")


def rewrite(source: Path, target: Path, replace: dict[str, bytes | None]) -> Path:
    """Copy the archive ``source`` to ``target`` with members replaced (dropped when None)."""
    with zipfile.ZipFile(source) as old, zipfile.ZipFile(target, "w") as new:
        for info in old.infolist():
            if info.filename not in replace:
                new.writestr(info, old.read(info.filename))
        for name, data in replace.items():
            if data is not None:
                new.writestr(name, data)
    return target


@pytest.fixture
def compiled(tmp_path: Path, verified_in_tmp: None) -> Path:
    path = tmp_path / "good.lex"
    build(WORDS, path, source="prueba.txt")
    return path


def member(path: Path, name: str) -> bytes:
    with zipfile.ZipFile(path) as archive:
        return archive.read(name)


def test_compiled_lexicon_stores_the_gaddag_of_its_words(compiled: Path, tmp_path: Path) -> None:
    assert json.loads(member(compiled, "meta.json"))["format"] == "duplicada-lexicon-2"
    stored = member(compiled, "gaddag.bin")
    assert stored == build_gaddag([A.word_codes(word) for word in WORDS], A.size).to_bytes()
    assert Lexicon.load(compiled).gaddag().to_bytes() == stored
    # The same words written otherwise (case, accents, order, repeats) give the same GADDAG.
    other = tmp_path / "other.lex"
    build([word.lower().replace("a", "á") for word in reversed(WORDS)] + WORDS[:3], other)
    assert member(other, "gaddag.bin") == stored


@pytest.mark.parametrize("corruption", CORRUPTIONS + ["missing", "another word list", "final flag flipped"])
def test_load_refuses_a_corrupt_gaddag(compiled: Path, tmp_path: Path, corruption: str) -> None:
    blob = member(compiled, "gaddag.bin")
    if corruption == "missing":
        data = None
    elif corruption == "another word list":        # a sound GADDAG, of other words
        data = build_gaddag([A.word_codes(word) for word in WORDS[:-1]], A.size).to_bytes()
    elif corruption == "final flag flipped":        # sound arrays, one string more or less
        data = _with_arc(blob, _edged_arc(blob), mask=struct.unpack_from("<I", blob, 20 + 8 * _edged_arc(blob))[0]
                         ^ FINAL_BIT)
    else:
        data = corruptions(blob)[corruption]
    path = rewrite(compiled, tmp_path / "corrupt.lex", {"gaddag.bin": data})
    with pytest.raises(LexiconError, match="corrupt.lex"):
        Lexicon.load(path)


def test_format_1_lexicon_builds_its_gaddag_and_generates_the_same_moves(compiled: Path, tmp_path: Path) -> None:
    """A file written before the GADDAG was stored (format 1: no ``gaddag.bin``) still
    loads, and its GADDAG, built from its words on first use, is the stored one."""
    meta = json.loads(member(compiled, "meta.json"))
    meta["format"] = "duplicada-lexicon-1"
    old = rewrite(compiled, tmp_path / "old.lex", {"gaddag.bin": None, "meta.json": json.dumps(meta).encode()})
    assert "gaddag.bin" not in zipfile.ZipFile(old).namelist()
    format_1, format_2 = Lexicon.load(old), Lexicon.load(compiled)
    assert format_1.content_hash == format_2.content_hash
    board = Board(A)
    positions: list[tuple[Board, str]] = [(board, "[CH]E?ASO"), (board, "[LL]AVE[CH]O?")]
    for text in ("CASA", "[CH]ENO", "S[LL]AE"):
        moves = generate_pure_python(board, A.tokenize(text), format_2)
        assert len(moves) > 0, text
        board = board.copy()
        board.place(placed_tiles(board, moves.top()[0].move))
        positions += [(board, "AÑOS?"), (board, "[RR][LL]ACE?"), (board, "??")]
    for board, text in positions:
        rack = rack_of(text)
        first = sorted(generate_compiled(board, rack, format_1).raw)   # builds format_1's GADDAG
        assert first == sorted(generate_compiled(board, rack, format_2).raw) == sorted(
            generate_pure_python(board, rack, format_1).raw), context(board, rack)
    assert format_1.gaddag().to_bytes() == format_2.gaddag().to_bytes() == member(compiled, "gaddag.bin")


# --- the cross-check cache -------------------------------------------------------------------
def reference_cross_checks(board: Board, lexicon: Lexicon) -> dict[tuple[int, int, int], tuple[int, int]]:
    """For each direction of the main word (0 across, 1 down) and each empty square: the
    letters whose tile there makes a word of the perpendicular tiles through it (every
    letter when there are none) and those tiles' points (blanks 0; -1 when there are none).
    Straight from the definition, with the lexicon's word set."""
    tiles = board.tiles
    result = {}
    for direction, (dr, dc) in enumerate(((1, 0), (0, 1))):
        for row in range(SIZE):
            for col in range(SIZE):
                if tiles[row][col] is not None:
                    continue
                before: list[int] = []
                r, c = row - dr, col - dc
                while r >= 0 and c >= 0 and (tile := tiles[r][c]) is not None:
                    before.insert(0, tile)
                    r, c = r - dr, c - dc
                after: list[int] = []
                r, c = row + dr, col + dc
                while r < SIZE and c < SIZE and (tile := tiles[r][c]) is not None:
                    after.append(tile)
                    r, c = r + dr, c + dc
                if not before and not after:
                    result[(direction, row, col)] = (ALL_LETTERS, -1)
                    continue
                prefix = tuple(tile & ~BLANK_FLAG for tile in before)
                suffix = tuple(tile & ~BLANK_FLAG for tile in after)
                mask = sum(1 << letter for letter in range(lexicon.alphabet.size)
                           if prefix + (letter,) + suffix in lexicon)
                result[(direction, row, col)] = (mask, sum(lexicon.alphabet.points(tile) for tile in before + after))
    return result


def fresh_cross_checks(board: Board, lexicon: Lexicon) -> tuple[np.ndarray, np.ndarray]:
    """The extension's cross-checks of every square of ``board``, into new arrays."""
    module = extension()
    assert module is not None
    masks = np.zeros((2, SIZE, SIZE), dtype=np.uint32)
    cross = np.zeros((2, SIZE, SIZE), dtype=np.int32)
    points = np.array([letter.points for letter in lexicon.alphabet.letters], dtype=np.int32)
    module.cross_checks(lexicon.gaddag().arguments, board_array(board), points, masks, cross, None)
    return masks, cross


def assert_cross_checks(board: Board, lexicon: Lexicon, masks: np.ndarray, cross: np.ndarray, where: str) -> None:
    """``masks``, ``cross`` are the fresh computation's and agree with the definition."""
    fresh_masks, fresh_cross = fresh_cross_checks(board, lexicon)
    assert np.array_equal(masks, fresh_masks) and np.array_equal(cross, fresh_cross), where
    for (direction, row, col), (mask, score) in reference_cross_checks(board, lexicon).items():
        assert (int(masks[direction, row, col]), int(cross[direction, row, col])) == (mask, score), (
            f"{where}: {'across' if direction == 0 else 'down'} at row {row} col {col}")


class Recording:
    """The extension, recording each ``cross_checks`` call: True when computed afresh
    (``squares`` None), False when updated for new tiles."""

    def __init__(self, module: Any) -> None:
        self.module = module
        self.calls: list[bool] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.module, name)

    def cross_checks(self, *args: Any) -> Any:
        self.calls.append(args[-1] is None)
        return self.module.cross_checks(*args)


@pytest.fixture
def recording(monkeypatch: pytest.MonkeyPatch) -> Iterator[Recording]:
    forget_cross_checks()
    spy = Recording(extension())
    monkeypatch.setattr(gaddag_walk, "extension", lambda: spy)
    yield spy
    forget_cross_checks()


def test_cross_checks_updated_through_a_game_equal_fresh_ones(spanish_lexicon: Lexicon, recording: Recording) -> None:
    """A self-played game with the cache: each round's board is the last one plus the
    master, so its cross-checks are updated, not computed; they are the fresh ones."""
    game = Game(spanish_lexicon, seed=21)
    rounds = 0
    while (pending := game.draw()) is not None:
        recording.calls.clear()
        master = pending.master                       # the moves are generated now
        where = f"round {pending.number}: {game.board.to_cgp()}"
        assert recording.calls == ([True] if rounds == 0 else [False]), where
        masks, cross = gaddag_walk.cross_checks(board_array(game.board), spanish_lexicon)
        assert recording.calls == ([True] if rounds == 0 else [False]), f"{where}: not taken from the cache"
        assert_cross_checks(game.board, spanish_lexicon, masks, cross, where)
        rounds += 1
        if master is None:
            break
        game.play()
    assert rounds > 15


def test_cross_checks_updated_over_several_moves(spanish_lexicon: Lexicon, games: list[list[Position]],
                                                 recording: Recording) -> None:
    """From a board several rounds back: the new tiles of several moves at once."""
    boards = [board for board, _ in games[1]]
    for earlier, later in ((0, 1), (0, 6), (2, 9), (5, 6), (1, len(boards) - 1), (10, len(boards) - 1)):
        forget_cross_checks()
        gaddag_walk.cross_checks(board_array(boards[earlier]), spanish_lexicon)
        recording.calls.clear()
        masks, cross = gaddag_walk.cross_checks(board_array(boards[later]), spanish_lexicon)
        where = f"from round {earlier + 1} to {later + 1}"
        assert recording.calls == [False], where
        assert_cross_checks(boards[later], spanish_lexicon, masks, cross, where)


def test_edited_board_gets_fresh_cross_checks(spanish_lexicon: Lexicon, games: list[list[Position]],
                                              recording: Recording) -> None:
    """A board that is no earlier board plus tiles (a tile taken off, a letter changed)
    is not updated from a wrong base."""
    boards = [board for board, _ in games[0]]
    last = boards[-1]
    first_tiles = [(r, c) for r in range(SIZE) for c in range(SIZE) if boards[1].tiles[r][c] is not None]
    removed = last.copy()
    row, col = first_tiles[0]
    removed.tiles[row][col] = None
    changed = last.copy()
    row, col = first_tiles[-1]
    letter = changed.tiles[row][col]
    assert letter is not None
    changed.tiles[row][col] = ((letter & ~BLANK_FLAG) + 1) % A.size   # another letter there
    for edited, name in ((removed, "tile removed"), (changed, "letter changed")):
        forget_cross_checks()
        gaddag_walk.cross_checks(board_array(last), spanish_lexicon)
        recording.calls.clear()
        masks, cross = gaddag_walk.cross_checks(board_array(edited), spanish_lexicon)
        assert recording.calls == [True], name
        assert_cross_checks(edited, spanish_lexicon, masks, cross, name)
        # With the empty board cached too, the edited board is that one plus tiles: updated from it.
        forget_cross_checks()
        gaddag_walk.cross_checks(board_array(Board(A)), spanish_lexicon)
        gaddag_walk.cross_checks(board_array(last), spanish_lexicon)
        recording.calls.clear()
        masks, cross = gaddag_walk.cross_checks(board_array(edited), spanish_lexicon)
        assert recording.calls == [False], f"{name}, cached"
        assert_cross_checks(edited, spanish_lexicon, masks, cross, f"{name}, cached")
        assert sorted(generate_compiled(edited, rack_of("[CH]AS?[LL]O"), spanish_lexicon).raw) == sorted(
            generate_pure_python(edited, rack_of("[CH]AS?[LL]O"), spanish_lexicon).raw), name


def test_cross_checks_are_per_lexicon(spanish_lexicon: Lexicon, make_lexicon, games: list[list[Position]],
                                      recording: Recording) -> None:
    small = make_lexicon(WORDS)
    board = games[0][5][0]
    for lexicon in (spanish_lexicon, small, spanish_lexicon, small):
        masks, cross = gaddag_walk.cross_checks(board_array(board), lexicon)
        assert_cross_checks(board, lexicon, masks, cross, lexicon.name)


# --- the output arrays, the switch, malformed input ----------------------------------------
def test_results_larger_than_the_output_arrays_are_walked_again(spanish_lexicon: Lexicon,
                                                                positions: list[Position],
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    board, rack = max(positions[-30:-24], key=lambda position: count_moves(position[0], position[1], spanish_lexicon))
    expected = sorted(generate_pure_python(board, rack, spanish_lexicon).raw)
    capacity = {Mode.ALL: 8, Mode.TOP: 1, Mode.COUNT: 1}
    monkeypatch.setattr(gaddag_walk, "_capacity", capacity)
    monkeypatch.setattr(gaddag_walk, "_buffers", threading.local())     # no arrays kept from earlier calls
    assert sorted(generate_compiled(board, rack, spanish_lexicon).raw) == expected
    # The next call has room at once (for each direction, when they are walked apart).
    assert capacity[Mode.ALL] >= max(sum(1 for move in expected if move[1] == down) for down in (0, 1)) > 1000
    assert sorted(generate_compiled(board, rack, spanish_lexicon).raw) == expected
    # TOP: on the empty board every top move has its mirror image (across / down).
    empty, seven = Board(A), A.tokenize("CASETAS")
    top = top_of(generate_pure_python(empty, seven, spanish_lexicon).raw)
    assert len(top) >= 2
    assert sorted(generate_top(empty, seven, spanish_lexicon).raw) == top
    assert capacity[Mode.TOP] >= len(top)


def test_environment_variable_selects_the_pure_python_walker(spanish_lexicon: Lexicon,
                                                             positions: list[Position],
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    board, rack = positions[-1]
    assert walker_name() == "gaddag"
    compiled = generate(board, rack, spanish_lexicon)
    assert isinstance(compiled, MoveList)
    monkeypatch.setenv(PURE_PYTHON_VARIABLE, "1")
    assert walker_name() == "pure-python"
    python = generate(board, rack, spanish_lexicon)
    assert sorted(python.raw) == sorted(compiled.raw)
    assert sorted(generate_top(board, rack, spanish_lexicon).raw) == top_of(compiled.raw)
    assert count_moves(board, rack, spanish_lexicon) == len(compiled)
    monkeypatch.setenv(PURE_PYTHON_VARIABLE, "0")
    assert walker_name() == "gaddag"


@pytest.mark.parametrize("tile", [A.size + 1, A.code("E") | BLANK_FLAG, 127, 1000, -1])
def test_rack_tile_outside_the_alphabet_raises_index_error(spanish_lexicon: Lexicon, tile: int) -> None:
    board = Board(A)
    rack = A.tokenize("CASA") + [tile]
    for function in (generate, generate_compiled, generate_top, count_moves):
        with pytest.raises(IndexError):
            function(board, rack, spanish_lexicon)
    if tile > A.size:
        with pytest.raises(IndexError):
            generate_pure_python(board, rack, spanish_lexicon)
    assert count_moves(board, A.tokenize("CASA"), spanish_lexicon) > 0   # still working


def test_board_tile_outside_the_alphabet_raises_value_error(spanish_lexicon: Lexicon) -> None:
    board = Board(A)
    board.place([(7, 7, A.size + 3)])
    with pytest.raises(ValueError):
        generate_compiled(board, A.tokenize("CASA"), spanish_lexicon)
