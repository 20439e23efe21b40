"""The compiled move generator: ``lexicon.movegen``'s walk, compiled with numba.

It computes exactly what the pure-Python walker in ``lexicon.movegen`` computes
(same cross-checks, anchors, reach pruning, greedy natural/blank walk,
blank-variant expansion, one-tile moves reported once as across, bingo bonus,
scores; rules I.2), in the same order, on the lexicon's graph exported as flat
arrays (``Lexicon.graph_arrays``). See ``lexicon.movegen`` for the algorithm;
the comments here only explain what differs: the recursion of ``extend``
becomes an explicit stack of frames (one per tile placed), the path is an array
indexed by square, and moves go into numpy arrays instead of tuples.

Importing this module imports numba (about 0.5 s); the first call
loads the compiled code from numba's cache next to this file (``__pycache__``,
or numba's user-wide cache directory when that is not writable), or compiles
it when there is none (a few seconds, once per install).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

import numba
import numpy as np

from data.rules import BINGO_BONUS, RACK_SIZE
from lexicon.alphabet import BLANK_FLAG
from lexicon.board import SIZE, Board
from lexicon.lexicon import Lexicon

INFO_COLUMNS = ("score", "down", "row", "col", "length", "placed")
"""Columns of the ``info`` array ``generate_arrays`` returns."""

_SCORE, _DOWN, _ROW, _COL, _LENGTH, _PLACED = range(len(INFO_COLUMNS))
_LETTER_BITS = BLANK_FLAG - 1
_capacity = 1 << 18
"""Rows of the output arrays of the next call: 262,144 (room for the largest two-blank
results, 135,000 moves on an empty board), or the most moves any call has needed so far
(a power of two)."""

_buffers = threading.local()
"""Each thread's output arrays, kept between calls: allocating (and zeroing) room for
262,144 moves on every call would cost more than a typical walk."""

_jit = numba.njit(cache=True, nogil=True)


def generate_arrays(board: Board, rack: Sequence[int], lexicon: Lexicon) -> tuple[np.ndarray, np.ndarray]:
    """Every legal move of ``rack`` (tile codes, ``alphabet.blank`` for a blank) on ``board``.

    Returns ``(info, words)``: ``info`` int32 of shape ``(moves, 6)``, columns
    ``INFO_COLUMNS`` (``down`` 0 across, 1 down; ``row``, ``col`` 0-based first
    square of the main word; ``length`` its tiles; ``placed`` rack tiles
    played); ``words`` int8 of shape ``(moves, 15)``, the main word's tile
    codes in its first ``length`` columns (``letter | BLANK_FLAG`` for a blank
    from the rack, board tiles as plain letters), zeros after. Raises
    ``IndexError`` for a tile code outside the alphabet.
    """
    alphabet = lexicon.alphabet
    graph = lexicon.graph_arrays()
    counts = np.zeros(alphabet.size + 1, dtype=np.int64)
    for tile in rack:
        counts[tile] += 1
    tiles = np.array([[-1 if tile is None else tile for tile in row] for row in board.tiles], dtype=np.int64)
    layout = board.layout
    arguments = (tiles, _premiums(layout.letter_mult), _premiums(layout.word_mult), counts, _points(alphabet.letters),
                 graph.child, graph.final, graph.reach)
    global _capacity
    while True:
        # The walk writes moves while there is room and counts them all: when they did
        # not fit (a few times per process, as the largest results come up), walk again
        # with room for them. Growing inside the walk would make numba count
        # references to the arrays at every step (it doubled the walk's time).
        info, words = _output_arrays(_capacity)
        capacity = len(info)
        count = _generate(*arguments, info, words)
        if count <= capacity:
            _capacity = max(_capacity, capacity)
            found_info, found_words = info[:count].copy(), words[:count].copy()
            # The kept arrays hold longer words of earlier calls: clear after each word.
            found_words[np.arange(SIZE) >= found_info[:, _LENGTH, None]] = 0
            return found_info, found_words
        _capacity = max(_capacity, 1 << int(count - 1).bit_length())


def _output_arrays(capacity: int) -> tuple[np.ndarray, np.ndarray]:
    """This thread's output arrays with room for ``capacity`` moves (made on first use)."""
    arrays = getattr(_buffers, "arrays", None)
    if arrays is None or len(arrays[0]) < capacity:
        arrays = (np.empty((capacity, len(INFO_COLUMNS)), dtype=np.int32), np.zeros((capacity, SIZE), dtype=np.int8))
        _buffers.arrays = arrays
    return arrays


_premium_cache: dict[int, tuple[object, np.ndarray]] = {}


def _premiums(table: tuple[tuple[int, ...], ...]) -> np.ndarray:
    # A layout's tables are immutable tuples shared by every board: convert each once.
    cached = _premium_cache.get(id(table))
    if cached is None or cached[0] is not table:
        cached = (table, np.array(table, dtype=np.int64))
        _premium_cache[id(table)] = cached
    return cached[1]


_points_cache: dict[int, tuple[object, np.ndarray]] = {}


def _points(letters: Sequence[Any]) -> np.ndarray:
    cached = _points_cache.get(id(letters))
    if cached is None or cached[0] is not letters:
        cached = (letters, np.array([letter.points for letter in letters], dtype=np.int64))
        _points_cache[id(letters)] = cached
    return cached[1]


@_jit
def _generate(tiles, letter_mult, word_mult, counts, points, child, final, reach, info, words):
    """``generate_arrays`` on plain arrays (``tiles`` 15×15, -1 empty; premiums 15×15):
    writes moves to ``info``/``words`` while they have room, returns how many there are."""
    # Counters start as np.int64, not as literal ints: a literal makes numba compile
    # the callees a second time for the literal's type (seconds of compile time).
    n = np.int64(0)
    empty_board = True
    for r in range(SIZE):
        for c in range(SIZE):
            if tiles[r, c] >= 0:
                empty_board = False
    # One padding entry after the line (no anchor, no letter allowed): a lookup "at
    # the next anchor" when there is none reads it instead of failing.
    anchors = np.zeros(SIZE + 1, dtype=np.bool_)
    masks = np.zeros(SIZE + 1, dtype=np.int64)
    cross = np.full(SIZE + 1, -1, dtype=np.int64)
    for down in range(2):
        if down:
            grid = np.ascontiguousarray(tiles.T)
            lm = np.ascontiguousarray(letter_mult.T)
            wm = np.ascontiguousarray(word_mult.T)
        else:
            grid, lm, wm = tiles, letter_mult, word_mult
        for line in range(SIZE):
            if empty_board:
                if line != SIZE // 2:
                    continue
                anchors[:] = False
                anchors[SIZE // 2] = True
                masks[:SIZE] = -1
                cross[:] = -1
            elif not _line_constraints(grid, line, points, child, final, anchors, masks, cross):
                continue
            n = _walk_line(grid[line], anchors, masks, cross, lm[line], wm[line], counts, points,
                           down, line, child, final, reach, info, words, n)
    return n


@_jit
def _line_constraints(grid, line, points, child, final, anchors, masks, cross):
    """Fill ``anchors``, ``masks`` (cross-checks) and ``cross`` (cross-scores, -1 for
    none) for one line of ``grid``; True if the line has an anchor."""
    cells = grid[line]
    any_anchor = False
    masks[:] = -1
    cross[:] = -1
    for i in range(SIZE):
        anchors[i] = False
        if cells[i] >= 0:
            continue
        has_above = line > 0 and grid[line - 1, i] >= 0
        has_below = line < SIZE - 1 and grid[line + 1, i] >= 0
        if (i > 0 and cells[i - 1] >= 0) or (i < SIZE - 1 and cells[i + 1] >= 0) or has_above or has_below:
            anchors[i] = True
            any_anchor = True
        if not (has_above or has_below):
            continue
        top = line
        while top > 0 and grid[top - 1, i] >= 0:
            top -= 1
        bottom = line
        while bottom < SIZE - 1 and grid[bottom + 1, i] >= 0:
            bottom += 1
        score = 0
        node = 0
        for r in range(top, bottom + 1):
            if r != line:
                tile = grid[r, i]
                if not tile & BLANK_FLAG:
                    score += points[tile]
        cross[i] = score
        for r in range(top, line):
            if node >= 0:
                node = child[node, grid[r, i] & _LETTER_BITS]
        mask = 0
        if node >= 0:
            for letter in range(child.shape[1]):
                target = child[node, letter]
                for r in range(line + 1, bottom + 1):
                    if target < 0:
                        break
                    target = child[target, grid[r, i] & _LETTER_BITS]
                if target >= 0 and final[target]:
                    mask |= np.int64(1) << letter
        masks[i] = mask
    return any_anchor


@_jit
def _walk_line(cells, anchors, masks, cross, lm, wm, counts, points, down, line, child, final, reach,
               info, words, n):
    """Write every legal move along one line to ``info``/``words`` from row ``n`` on,
    as far as they have room; return ``n`` plus the number of moves, written or not.
    ``masks``/``cross``/``anchors`` have a padding entry at index ``SIZE``."""
    blank = points.shape[0]
    rack_size = 0
    for tile in range(blank + 1):
        rack_size += counts[tile]
    blanks_in_rack = counts[blank]
    natural = counts[:blank].copy()  # the rack before the walk spends it
    rack_letters = np.int64(-1)
    if not blanks_in_rack:
        rack_letters = 0
        for letter in range(blank):
            if counts[letter]:
                rack_letters |= np.int64(1) << letter
    next_anchor = np.full(SIZE + 1, SIZE, dtype=np.int64)
    need = np.full(SIZE + 1, SIZE + 1, dtype=np.int64)
    for i in range(SIZE - 1, -1, -1):
        if anchors[i]:
            next_anchor[i] = i
            need[i] = 1
        else:
            next_anchor[i] = next_anchor[i + 1]
            need[i] = need[i + 1] + (cells[i] < 0)
    path = np.zeros(SIZE, dtype=np.int64)
    scratch = np.zeros(blank, dtype=np.int64)  # natural tiles used per letter, while recording
    news = np.zeros(SIZE, dtype=np.int64)
    penalties = np.zeros(SIZE, dtype=np.int64)
    # The frames of the walk, one per tile placed (``extend``'s recursion): the square
    # after the tiles followed, node, main-word points, word multiplier, cross-word
    # points, anchor covered, letters left to try, and the rack tile spent for the
    # child being explored.
    depth_count = rack_size + 1
    f_i = np.zeros(depth_count, dtype=np.int64)
    f_node = np.zeros(depth_count, dtype=np.int64)
    f_main = np.zeros(depth_count, dtype=np.int64)
    f_mult = np.zeros(depth_count, dtype=np.int64)
    f_cross = np.zeros(depth_count, dtype=np.int64)
    f_hit = np.zeros(depth_count, dtype=np.bool_)
    f_mask = np.zeros(depth_count, dtype=np.int64)
    f_spent = np.zeros(depth_count, dtype=np.int64)
    f_letter = np.zeros(depth_count, dtype=np.int64)
    for start in range(SIZE):
        if start > 0 and cells[start - 1] >= 0:
            continue
        if need[start] > rack_size:
            continue
        d = np.int64(0)
        i, node, main, word_mult, cross_total, hit = start, np.int64(0), np.int64(0), np.int64(1), np.int64(0), False
        entering = True
        while True:
            # A move to record is described by its length (0: none), tiles placed,
            # score and word multiplier; it is recorded at the end of the loop body,
            # the one place that writes moves (no call, no array passed around: numba
            # would pay reference counting on every move).
            length = np.int64(0)
            placed = np.int64(0)
            score = np.int64(0)
            multiplier = np.int64(1)
            if entering:
                entering = False
                # Follow tiles already on the board.
                alive = True
                while i < SIZE and cells[i] >= 0:
                    tile = cells[i]
                    letter = tile & _LETTER_BITS
                    node = child[node, letter]
                    if node < 0:
                        alive = False
                        break
                    path[i - start] = letter
                    if not tile & BLANK_FLAG:
                        main += points[letter]
                    i += 1
                mask = np.int64(0)
                if alive:
                    if d and hit and final[node] and i - start > 1:
                        length, placed, multiplier = i - start, d, word_mult
                        score = main * word_mult + cross_total
                    if i < SIZE and d < rack_size:
                        mask = masks[i]
                        if not hit:
                            # Reach the next anchor with a letter its cross-check allows, and
                            # go on through a board tile right after it.
                            anchor = next_anchor[i]
                            if need[i] > rack_size - d:
                                mask = 0
                            else:
                                depth = anchor - i
                                after = cells[anchor + 1] if anchor + 1 < SIZE else -1
                                if not reach[node, depth] & masks[anchor] or (
                                        after >= 0 and not (reach[node, depth + 1] >> (after & _LETTER_BITS)) & 1):
                                    mask = 0
                        mask &= reach[node, 0]  # only letters with an edge from the node
                f_i[d], f_node[d], f_main[d], f_mult[d], f_cross[d], f_hit[d] = i, node, main, word_mult, cross_total, hit
                f_mask[d] = mask
                f_letter[d] = 0
            else:
                mask = f_mask[d]
                if mask == 0:
                    if d == 0:
                        break
                    d -= 1
                    counts[f_spent[d]] += 1
                    continue
                letter = f_letter[d]  # letters are tried in increasing order: resume the scan
                while not (mask >> letter) & 1:
                    letter += 1
                f_letter[d] = letter + 1
                f_mask[d] = mask & (mask - 1)
                i, node, main, word_mult, cross_total, hit = f_i[d], f_node[d], f_main[d], f_mult[d], f_cross[d], f_hit[d]
                next_node = child[node, letter]
                cs = cross[i]
                square_wm = wm[i]
                value = points[letter] * lm[i]
                now_hit = hit or anchors[i]
                if i + 1 == SIZE or (d + 1 == rack_size and cells[i + 1] < 0):
                    # The word can only end here: record it without a new frame.
                    if not (now_hit and final[next_node] and i > start and (counts[letter] or counts[blank])):
                        continue
                    path[i - start] = letter
                    length, placed, multiplier = i - start + 1, d + 1, word_mult * square_wm
                    score = (main + value) * multiplier + cross_total
                    if cs >= 0:
                        score += (cs + value) * square_wm
                else:
                    if counts[letter]:
                        spent = letter
                    elif counts[blank]:
                        spent = blank
                    else:
                        continue
                    if not (now_hit and final[next_node]):
                        # Look one square ahead: the word must go on from the child.
                        ahead = cells[i + 1]
                        if ahead < 0:
                            if not reach[next_node, 0] & masks[i + 1] & rack_letters:
                                continue
                            if not now_hit and not reach[next_node, next_anchor[i + 1] - i - 1] & masks[next_anchor[i + 1]]:
                                continue
                        elif child[next_node, ahead & _LETTER_BITS] < 0:
                            continue
                    counts[spent] -= 1
                    f_spent[d] = spent
                    path[i - start] = letter
                    if cs >= 0:
                        cross_total += (cs + value) * square_wm
                    i, node, main, word_mult, hit = i + 1, next_node, main + value, word_mult * square_wm, now_hit
                    d += 1
                    entering = True
                    continue
            if length == 0:
                continue
            # --- record the move (``record`` in lexicon.movegen) ---
            if placed == RACK_SIZE:
                score += BINGO_BONUS
            if down and placed == 1:
                # A one-tile move that forms an across word too is reported as the across move.
                square = start
                while cells[square] >= 0:
                    square += 1
                if cross[square] >= 0:
                    continue
            # The new tiles (``news``: offsets; ``penalties``: what a blank there instead
            # costs), only needed when the rack has blanks.
            k = 0
            if blanks_in_rack:
                for offset in range(length):
                    square = start + offset
                    if cells[square] < 0:
                        value = points[path[offset]] * lm[square]
                        penalty = value * multiplier
                        if cross[square] >= 0:
                            penalty += value * wm[square]
                        news[k] = offset
                        penalties[k] = penalty
                        k += 1
            # Blank sets in the order of the pure-Python walker's depth-first ``assign``
            # (natural before blank at each new tile, first tile first): the increasing
            # order of the bit vectors with the first new tile as the highest bit, keeping
            # those with at most ``blanks_in_rack`` bits and enough natural tiles for the rest.
            vector = 0
            while vector < 1 << k:
                bits = 0
                probe = vector
                while probe:
                    probe &= probe - 1
                    bits += 1
                if bits > blanks_in_rack:
                    vector += vector & -vector  # skips every vector sharing these high bits
                    continue
                valid = True
                total = score
                for j in range(k):
                    letter = path[news[j]]
                    if (vector >> (k - 1 - j)) & 1:
                        total -= penalties[j]
                    else:
                        scratch[letter] += 1
                        if scratch[letter] > natural[letter]:
                            valid = False
                for j in range(k):
                    scratch[path[news[j]]] = 0
                if valid and n < info.shape[0]:
                    row, col = (start, line) if down else (line, start)
                    info[n, _SCORE] = total
                    info[n, _DOWN] = down
                    info[n, _ROW] = row
                    info[n, _COL] = col
                    info[n, _LENGTH] = length
                    info[n, _PLACED] = placed
                    for offset in range(length):
                        words[n, offset] = path[offset]
                    for j in range(k):
                        if (vector >> (k - 1 - j)) & 1:
                            words[n, news[j]] |= BLANK_FLAG
                if valid:
                    n += 1
                vector += 1
    return n
