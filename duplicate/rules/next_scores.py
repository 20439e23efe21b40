"""The next best scores below the top, for the judge's console (issue 4 §2).

A display aid, not a rule: the master is chosen among the moves of top score only
(III.15). Below the top, the console lists the ``limit`` best scores, each with one move
(fewest blanks, then fewest tiles placed, then generation order) and how many moves share
that score. Works on the compiled generator's arrays when it made them (building a
``Move`` for each of 100,000 moves would take over a second), else on the pure-Python
walker's tuples; ``groups_of_raw`` is the plain version the array one is checked against.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from lexicon.alphabet import BLANK_FLAG
from lexicon.board import Board, Direction
from lexicon.lexicon import Lexicon
from lexicon.move import Move
from lexicon.movegen import MoveList, RawMove, generate


@dataclass(frozen=True)
class ScoreGroup:
    """One score below the top: ``score`` (points), ``count`` moves with it, and the
    ``move`` shown for it."""

    score: int
    count: int
    move: Move


def next_score_groups(board: Board, rack: Sequence[int], lexicon: Lexicon, limit: int) -> tuple[ScoreGroup, ...]:
    """The ``limit`` best scores below the top of ``rack`` (tile codes) on ``board``,
    best first (empty when every move has the top score). Raises ``IndexError`` for a
    tile code outside the alphabet (as ``generate``)."""
    return groups_of(generate(board, rack, lexicon), limit)


def warm_up_generator(lexicon: Lexicon) -> None:
    """Run the move generator once on an empty board (loads the lexicon's graph and the
    compiled walker, so that the first real rack does not wait for them)."""
    alphabet = lexicon.alphabet
    generate(Board(alphabet), [alphabet.code("A"), alphabet.blank], lexicon)


def groups_of(moves: MoveList, limit: int) -> tuple[ScoreGroup, ...]:
    """``next_score_groups`` of moves already generated."""
    arrays = moves.arrays()
    if arrays is None:
        return groups_of_raw(moves.raw, limit)
    return _groups_of_arrays(*arrays, limit)


def _group(score: int, count: int, down: int, row: int, col: int, word: tuple[int, ...]) -> ScoreGroup:
    return ScoreGroup(score, count, Move(row, col, Direction.DOWN if down else Direction.ACROSS, word))


def groups_of_raw(raw: Sequence[RawMove], limit: int) -> tuple[ScoreGroup, ...]:
    """``groups_of`` on ``(score, down, row, col, word, tiles_placed)`` tuples, one by one."""
    top = max((entry[0] for entry in raw), default=0)
    best: dict[int, tuple[tuple[int, int, int], int]] = {}
    count: dict[int, int] = {}
    for index, (score, _down, _row, _col, word, placed) in enumerate(raw):
        if score == top:
            continue
        count[score] = count.get(score, 0) + 1
        key = (sum(1 for tile in word if tile & BLANK_FLAG), placed, index)
        if score not in best or key < best[score][0]:
            best[score] = (key, index)
    groups = []
    for score in sorted(best, reverse=True)[:limit]:
        _score, down, row, col, word, _placed = raw[best[score][1]]
        groups.append(_group(score, count[score], down, row, col, word))
    return tuple(groups)


def _groups_of_arrays(info: np.ndarray, words: np.ndarray, limit: int) -> tuple[ScoreGroup, ...]:
    scores = info[:, 0]
    distinct = np.unique(scores)[::-1]
    if len(distinct) < 2 or limit < 1:
        return ()
    wanted = distinct[1: limit + 1]
    rows = np.flatnonzero((scores >= wanted[-1]) & (scores < distinct[0]))
    blanks = ((words[rows] & BLANK_FLAG) != 0).sum(axis=1)
    rows = rows[np.lexsort((rows, info[rows, 5], blanks, -scores[rows]))]
    ordered = scores[rows]
    firsts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])
    counts = np.diff(np.r_[firsts, len(rows)])
    groups = []
    for first, count in zip(firsts.tolist(), counts.tolist()):
        score, down, row, col, length, _placed = info[rows[first]].tolist()
        groups.append(_group(score, count, down, row, col, tuple(words[rows[first], :length].tolist())))
    return tuple(groups)
