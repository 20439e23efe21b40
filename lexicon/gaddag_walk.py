"""The compiled move generator's Python side: board arrays, cached cross-checks, the walk.

The walk itself is C (``lexicon/gaddag_walk.c``, on the lexicon's GADDAG, ``lexicon.gaddag``):
it reads the board as arrays, with the cross-checks of every empty square (the letters
that make a word of the perpendicular tiles through it, and those tiles' points). The
cross-checks are computed once per board and then **updated**, not recomputed: each
lexicon keeps the cross-checks of the last boards it saw (``CACHED_BOARDS``), and a board
that is one of those plus new tiles (the next round's board: the master placed) gets a
copy updated for the squares the new tiles touch. Whatever changed, the cache is checked
against the board's tiles themselves, so a board edited any other way is computed afresh.
(The anchors, empty squares next to a tile, are read off the tiles as the walk loads each
line: four comparisons a square, nothing worth keeping.)

Modes (``walk``): ``ALL`` every legal move (analysis, the benchmark; with a blank on the rack, the
across and down moves are walked on two threads); ``TOP`` the moves of
top score only, anchors taken best "shadow" first (an upper bound of the score of any
move from the anchor) and the walk stopped when no anchor left can reach the best score
found (the master, III.15); ``COUNT`` how many legal moves, none written.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from itertools import chain
from concurrent.futures import ThreadPoolExecutor
from enum import IntEnum
from functools import cache
from typing import Any

import numpy as np

from data.rules import BINGO_BONUS, RACK_SIZE
from lexicon.board import SIZE, Board
from lexicon.gaddag import extension
from lexicon.lexicon import Lexicon

INFO_COLUMNS = ("score", "down", "row", "col", "length", "placed")
"""Columns of the ``info`` array ``walk`` returns."""

CACHED_BOARDS = 8
"""Boards whose cross-checks each lexicon keeps (a game's next board is one of them plus
the master; a tournament's several games each have theirs)."""


class Mode(IntEnum):
    """What ``walk`` writes (the numbers are those of ``lexicon/gaddag.h``)."""

    ALL = 0
    TOP = 1
    COUNT = 2


_buffers = threading.local()
_capacity = {Mode.ALL: 1 << 18, Mode.TOP: 1 << 10, Mode.COUNT: 1}
"""Rows of each mode's output arrays: room for the largest results seen (two blanks on an
open board: up to about 170,000 moves) so that they are not walked twice; pages never
written cost no memory. Grows to the largest result of the process."""
_cache_lock = threading.Lock()
_cross_cache: dict[int, tuple[Lexicon, list[tuple[bytes, np.ndarray, np.ndarray, np.ndarray]]]] = {}
"""Per lexicon (by id, the lexicon kept to check it): the last boards' ``(tiles as bytes,
tiles, masks, cross)``, most recent first."""


def walk(board: Board, rack: Sequence[int], lexicon: Lexicon, mode: Mode) -> tuple[np.ndarray, np.ndarray, int]:
    """The legal moves of ``rack`` (tile codes, ``alphabet.blank`` for a blank) on ``board``.

    Returns ``(info, words, total)``: ``info`` int32 of shape ``(moves, 6)``, columns
    ``INFO_COLUMNS`` (``down`` 0 across, 1 down; ``row``, ``col`` 0-based first square of
    the main word; ``length`` its tiles; ``placed`` rack tiles played); ``words`` int8 of
    shape ``(moves, 15)``, the main word's tile codes (``letter | BLANK_FLAG`` for a blank
    from the rack, board tiles as plain letters), zeros after; ``total`` the number of
    legal moves (``ALL``, ``COUNT``; in ``TOP``, the top moves). ``COUNT`` returns empty
    arrays. Raises ``IndexError`` for a tile code outside the alphabet.
    """
    assert extension() is not None, "lexicon._gaddag no está compilado"
    alphabet = lexicon.alphabet
    counts = np.zeros(alphabet.size + 1, dtype=np.int32)
    for tile in rack:
        if not 0 <= tile <= alphabet.size:
            raise IndexError(f"ficha {tile} fuera del alfabeto")
        counts[tile] += 1
    tiles = board_array(board)
    masks, cross = cross_checks(tiles, lexicon)
    gaddag = lexicon.gaddag().arguments
    letter_mult, word_mult = _premiums(board.layout.letter_mult), _premiums(board.layout.word_mult)
    points = _points(alphabet)
    arguments = (gaddag, tiles, letter_mult, word_mult, points, counts, masks, cross, int(mode))
    if mode is not Mode.TOP and counts[alphabet.size] and _PARALLEL and (tiles >= 0).any():
        # A rack with a blank on a played board: tens of thousands of moves. The across
        # and the down moves are walked at once, on two cores (the walk lets go of the GIL).
        # The worker's result is copied there (its arrays serve the next walk it takes);
        # this thread's are read before this thread walks again.
        down = _pool().submit(_walk_directions, arguments, mode, 2, True)
        info, words, found = _walk_directions(arguments, mode, 1, False)
        down_info, down_words, down_found = down.result()
        return np.concatenate((info, down_info)), np.concatenate((words, down_words)), found + down_found
    return _walk_directions(arguments, mode, 3, True)


def _walk_directions(arguments: tuple[Any, ...], mode: Mode, directions: int,
                     copy: bool) -> tuple[np.ndarray, np.ndarray, int]:
    """``walk`` for the across moves (``directions`` 1), the down moves (2) or both (3);
    ``copy`` False returns views of this thread's output arrays."""
    module = extension()
    assert module is not None
    while True:
        info, words = _output_arrays(mode)
        found, _best = module.generate(*arguments, info, words, RACK_SIZE, BINGO_BONUS, directions)
        if mode is Mode.COUNT:
            return info[:0].copy(), words[:0].copy(), found
        if found <= len(info):
            return (info[:found].copy(), words[:found].copy(), found) if copy else (info[:found], words[:found], found)
        # More moves than room: walk again with room for them (a few times per process).
        _capacity[mode] = max(_capacity[mode], 1 << int(found - 1).bit_length())


_PARALLEL = (os.cpu_count() or 1) > 1


@cache
def _pool() -> ThreadPoolExecutor:
    """The one worker thread that walks the down moves of the big walks."""
    return ThreadPoolExecutor(max_workers=1, thread_name_prefix="duplicada-walk")


if hasattr(os, "register_at_fork"):
    # A forked process has no worker thread: it makes its own when it needs one.
    os.register_at_fork(after_in_child=_pool.cache_clear)


def board_array(board: Board) -> np.ndarray:
    """The board's tiles as int8, shape ``(15, 15)``, -1 for an empty square."""
    # One bytes object of the 225 codes (255 for -1), viewed as int8: a third of the time of
    # np.array on nested lists. The array is read-only.
    return np.frombuffer(bytes([255 if tile is None else tile for tile in chain.from_iterable(board.tiles)]),
                         dtype=np.int8).reshape(SIZE, SIZE)


def cross_checks(tiles: np.ndarray, lexicon: Lexicon) -> tuple[np.ndarray, np.ndarray]:
    """The cross-check masks (uint32) and cross-scores (int32, -1 where there is no
    perpendicular tile), each of shape ``(2, 15, 15)`` (across, down), of the board
    ``tiles`` (``board_array``): from the cache when this board was seen, updated from a
    board it extends, or computed. The arrays returned are not to be modified."""
    module = extension()
    assert module is not None
    key = tiles.tobytes()
    with _cache_lock:
        known = _cross_cache.get(id(lexicon))
        if known is None or known[0] is not lexicon:
            known = (lexicon, [])
            _cross_cache[id(lexicon)] = known
        entries = known[1]
        for index, (snapshot_key, _snapshot, masks, cross) in enumerate(entries):
            if snapshot_key == key:               # this very board
                if index:
                    entries.insert(0, entries.pop(index))
                return masks, cross
        base: tuple[bytes, np.ndarray, np.ndarray, np.ndarray] | None = None
        # Of the kept boards, those that this board only adds tiles to, and of those the
        # one it adds fewest to (in C: a loop in numpy cost 40 µs, computing afresh 8).
        nearest = module.nearest(key, b"".join(entry[0] for entry in entries)) if entries else None
        if nearest is not None:
            base = entries[nearest[0]]
            squares = nearest[1]
    points = _points(lexicon.alphabet)
    gaddag = lexicon.gaddag().arguments
    if base is None:
        masks = np.zeros((2, SIZE, SIZE), dtype=np.uint32)
        cross = np.zeros((2, SIZE, SIZE), dtype=np.int32)
        module.cross_checks(gaddag, tiles, points, masks, cross, None)
    else:
        masks, cross = base[2].copy(), base[3].copy()
        module.cross_checks(gaddag, tiles, points, masks, cross, squares)
    with _cache_lock:
        entries.insert(0, (key, tiles.copy(), masks, cross))
        del entries[CACHED_BOARDS:]
    return masks, cross


def forget_cross_checks() -> None:
    """Empty the cross-check cache (tests compare cached and computed cross-checks)."""
    with _cache_lock:
        _cross_cache.clear()


def _output_arrays(mode: Mode) -> tuple[np.ndarray, np.ndarray]:
    """This thread's output arrays for ``mode``, with room for ``_capacity[mode]`` moves."""
    kept: dict[Mode, tuple[np.ndarray, np.ndarray]] | None = getattr(_buffers, "arrays", None)
    if kept is None:
        kept = _buffers.arrays = {}
    arrays = kept.get(mode)
    if arrays is None or len(arrays[0]) < _capacity[mode]:
        room = _capacity[mode]
        arrays = (np.empty((room, len(INFO_COLUMNS)), dtype=np.int32), np.empty((room, SIZE), dtype=np.int8))
        kept[mode] = arrays
    return arrays


_table_cache: dict[int, tuple[Any, np.ndarray]] = {}


def _premiums(table: tuple[tuple[int, ...], ...]) -> np.ndarray:
    # A layout's tables are immutable tuples shared by every board: convert each once.
    cached = _table_cache.get(id(table))
    if cached is None or cached[0] is not table:
        cached = (table, np.array(table, dtype=np.int8))
        _table_cache[id(table)] = cached
    return cached[1]


def _points(alphabet: Any) -> np.ndarray:
    cached = _table_cache.get(id(alphabet))
    if cached is None or cached[0] is not alphabet:
        cached = (alphabet, np.array([letter.points for letter in alphabet.letters], dtype=np.int32))
        _table_cache[id(alphabet)] = cached
    return cached[1]
