"""Choosing the master move among the moves of top score (III.15).

III.15 says the master move is the move of highest score, and for ties
recommends the arbiter's "gestión manual" criteria, applied in order:

1. the move that does not use a blank — here: **fewer blanks played** (no
   blank beats one, one beats two);
2. the move that leaves the most balanced rack — see ``leave_imbalance``;
3. the move that places the fewest tiles;
4. the first move in alphabetical order — the main word compared tile by tile
   in Spanish tile order (code order: A B C CH D … LL … Ñ … RR …), a blank
   compared as the letter it stands for, a word before its own extensions
   (CASA before CASAS);
5. a horizontal move before any vertical one; among horizontal moves the
   nearest column 1, then the nearest row A; among vertical moves the nearest
   row A, then the nearest column 1 (the start square of the main word).

Moves still tied after 5 differ only in which of two equal letters a blank
stands for (CASA with the first or the second A blank); the rules say
nothing, so a fixed tie-break keeps the choice reproducible: the move whose
first differing tile is the natural letter comes first (criterion 6, outside
the rules, reported as such).

The **leave** is the rack minus the tiles the move places (a blank placed on the
board leaves the rack as a blank), in code order.

The **imbalance** of a leave is ``max(0, |vowels − consonants| − blanks)``:
the gap between natural vowels and consonants (Y a consonant, III.12), each
blank kept able to fill one tile of the gap since it may stand for either.
Lower is more balanced. Examples: ``AERS`` → 0, ``AER`` → 1, ``AEIO`` → 4,
``AEIO?`` → 3, ``AE?`` → 1, ``A??`` → 0, ``AY`` → 0, ``BCDY`` → 4, empty → 0.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from functools import partial
from operator import itemgetter
from typing import TYPE_CHECKING, Any

# The values of a ranking and the criteria's measures, shared with duplicate.rules.tie_ranking.
from duplicate.rules.tie_criteria import (
    Criterion,
    MasterError,
    Measured,
    RankedMove,
    leave_imbalance,
    rack_leave,
    tie_reason,
    word_letters,
)
from lexicon.alphabet import BLANK_FLAG
from lexicon.board import Board, Direction
from lexicon.move import Move, placed_tiles

if TYPE_CHECKING:
    # The move generator and the numpy ranking are imported where used (issue 38: a
    # read-only command such as «standings» loads neither).
    from lexicon.movegen import MoveList, ScoredMove


def leave_after(board: Board, rack: Sequence[int], move: Move) -> tuple[int, ...]:
    """The rack tiles left after ``move`` on ``board`` (code order, blanks bare).

    ``rack``: tile codes, ``alphabet.blank`` for a blank. Raises ``MasterError``
    if the move places a tile the rack does not hold, ``PlacementError`` (from
    ``lexicon.move``) if it does not fit the board.
    """
    return rack_leave(Counter(rack), placed_tiles(board, move), move, rack, board.alphabet)


def rank_moves(board: Board, rack: Sequence[int], moves: Iterable[ScoredMove]) -> list[RankedMove]:
    """Rank ``moves`` best first: score, then the III.15 criteria 1–5, then tie-break 6.

    ``board``: the board before the move; ``rack``: the round's rack (codes,
    ``alphabet.blank`` for a blank). Each ``RankedMove`` says which criterion puts it
    ahead of the next. Raises ``MasterError`` if a move needs a tile the rack lacks.
    """
    from lexicon.movegen import ScoredMove

    alphabet = board.alphabet
    keyed: list[tuple[tuple[Any, ...], Measured]] = []
    rack_counts = Counter(rack)
    for scored in moves:
        placed = placed_tiles(board, scored.move)
        leave = rack_leave(rack_counts, placed, scored.move, rack, alphabet)
        blanks = sum(1 for _r, _c, tile in placed if tile & BLANK_FLAG)
        imbalance = leave_imbalance(leave, alphabet)
        keyed.append((_sort_key(scored, blanks, imbalance, len(placed)),
                      (scored, leave, blanks, imbalance, len(placed))))
    # Sorting thousands of equal tops (two blanks on an open board) is the cost here:
    # each move's placement and key are computed once.
    keyed.sort(key=itemgetter(0))
    ranked = []
    for index, (key, (scored, leave, blanks, imbalance, placed_count)) in enumerate(keyed):
        if index + 1 < len(keyed):
            next_key, following = keyed[index + 1]
            criterion = _criterion(key, next_key)
            explain = partial(tie_reason, keyed[index][1], following, criterion, alphabet)
        else:
            criterion = None
            text = "única jugada de máxima puntuación" if len(keyed) == 1 else "última de la clasificación"
            explain = partial(str, text)
        ranked.append(RankedMove(ScoredMove(scored.move, scored.score, placed_count), leave, blanks, imbalance,
                                 criterion, explain))
    return ranked


ARRAY_RANKING_FROM = 32
"""Equal tops above which ``rank_top_moves`` ranks on the generator's arrays: below, the
few numpy calls cost more than ranking the moves one by one (same result, tested)."""


def rank_top_moves(board: Board, rack: Sequence[int], moves: MoveList | Iterable[ScoredMove]) -> Sequence[RankedMove]:
    """The moves of top score among ``moves`` (a ``MoveList`` or scored moves), ranked
    as ``rank_moves`` by the III.15 criteria; moves below the top score are dropped.

    Empty when there is no move. For the compiled generator's ``MoveList`` the ranking is
    computed on its arrays (``duplicate.rules.tie_ranking``: thousands of equal tops in a few
    milliseconds) and each ``RankedMove`` is built when read.
    """
    from duplicate.rules.tie_ranking import rank_arrays
    from lexicon.movegen import MoveList

    if (isinstance(moves, MoveList) and moves.arrays() is not None and moves.top_count() > ARRAY_RANKING_FROM
            and (arrays := moves.top_arrays()) is not None):
        return rank_arrays(board, rack, *arrays)
    candidates = moves.top() if isinstance(moves, MoveList) else list(moves)
    best = max((scored.score for scored in candidates), default=0)
    return rank_moves(board, rack, [scored for scored in candidates if scored.score == best])


def ranked_moves(ranked: Sequence[RankedMove]) -> list[tuple[Move, int]]:
    """``(move, score)`` of each move of a ranking (``rank_top_moves``'s), in order; for a
    ranking computed on the generator's arrays, without building each ``RankedMove``
    (12,984 equal tops: a tenth of the time)."""
    from duplicate.rules.tie_ranking import Ranking

    if isinstance(ranked, Ranking):
        return ranked.moves()
    return [(entry.move, entry.score) for entry in ranked]


def choose_master(board: Board, rack: Sequence[int], moves: MoveList | Iterable[ScoredMove]) -> RankedMove:
    """The master move (III.15): the first of the ranking of the top moves.

    ``moves``: a ``MoveList`` or scored moves; only those of top score compete.
    Raises ``MasterError`` when there is no move.
    """
    ranked = rank_top_moves(board, rack, moves)
    if not ranked:
        raise MasterError("no hay ninguna jugada posible con este atril")
    return ranked[0]


def _position_key(move: Move) -> tuple[int, int, int]:
    if move.direction is Direction.ACROSS:
        return (0, move.col, move.row)
    return (1, move.row, move.col)


def _sort_key(scored: ScoredMove, blanks: int, imbalance: int, placed: int) -> tuple[Any, ...]:
    move = scored.move
    return (-scored.score, blanks, imbalance, placed, word_letters(move), _position_key(move), move.word)


def _criterion(first_key: tuple[Any, ...], second_key: tuple[Any, ...]) -> Criterion | None:
    """Which criterion puts a move ahead of the next, from their sort keys (score, blanks,
    imbalance, tiles, letters, position, word)."""
    for criterion, a, b in zip(_KEY_CRITERIA, first_key, second_key, strict=True):
        if a != b:
            return criterion
    return None


_KEY_CRITERIA = (Criterion.SCORE, Criterion.NO_BLANK, Criterion.BALANCED_LEAVE, Criterion.FEWEST_TILES,
                 Criterion.ALPHABETICAL, Criterion.POSITION, Criterion.BLANK_PLACEMENT)
"""The criterion each element of ``_sort_key`` stands for, in order."""


