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
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from functools import partial
from operator import itemgetter
from typing import Any

from duplicate.bag import count_tiles, tile_name
from duplicate.notation import format_move
from duplicate.rack import rack_text
from lexicon.alphabet import BLANK_FLAG, Alphabet
from lexicon.board import Board, Direction, letter_of
from lexicon.move import Move, placed_tiles
from lexicon.movegen import MoveList, ScoredMove


class MasterError(ValueError):
    """No move to choose from, or a move that the rack cannot play; the message (Spanish) says why."""


class Criterion(IntEnum):
    """What decides between two ranked moves: score, then the III.15 criteria 1–5,
    then the fixed tie-break 6 (outside the rules)."""

    SCORE = 0
    NO_BLANK = 1
    BALANCED_LEAVE = 2
    FEWEST_TILES = 3
    ALPHABETICAL = 4
    POSITION = 5
    BLANK_PLACEMENT = 6


@dataclass(frozen=True)
class RankedMove:
    """A move in the ranking, with what was measured for it.

    ``leave``: the tiles left on the rack (code order, blanks bare);
    ``blanks_used``: blanks the move plays; ``imbalance``: ``leave_imbalance(leave)``;
    ``criterion``: what puts this move ahead of the next one in the ranking
    (None for the last move, or if the next is the very same move);
    ``reason``: the same in Spanish, for the arbiter (worded when first read: a
    two-blank rack can have thousands of equal tops, and only the first few are shown).
    """

    scored: ScoredMove
    leave: tuple[int, ...]
    blanks_used: int
    imbalance: int
    criterion: Criterion | None
    explain: Callable[[], str] = field(repr=False, compare=False)

    @property
    def reason(self) -> str:
        """Why this move ranks ahead of the next one (Spanish)."""
        return self.explain()

    @property
    def move(self) -> Move:
        """The move."""
        return self.scored.move

    @property
    def score(self) -> int:
        """Its score, in points."""
        return self.scored.score

    @property
    def tiles_placed(self) -> int:
        """Tiles it puts on the board."""
        return self.scored.tiles_placed


def leave_imbalance(leave: Iterable[int], alphabet: Alphabet) -> int:
    """Imbalance of a leave: ``max(0, |vowels − consonants| − blanks)`` (III.15 criterion 2).

    ``leave``: tile codes (a bare or designated blank counts as a blank). 0 is perfectly
    balanced. See the module doc for examples.
    """
    counts = count_tiles(leave, alphabet)
    return max(0, abs(counts.vowels - counts.consonants) - counts.blanks)


def leave_after(board: Board, rack: Sequence[int], move: Move) -> tuple[int, ...]:
    """The rack tiles left after ``move`` on ``board`` (code order, blanks bare).

    ``rack``: tile codes, ``alphabet.blank`` for a blank. Raises ``MasterError``
    if the move places a tile the rack does not hold, ``PlacementError`` (from
    ``lexicon.move``) if it does not fit the board.
    """
    return _leave(Counter(rack), placed_tiles(board, move), move, rack, board.alphabet)


def rank_moves(board: Board, rack: Sequence[int], moves: Iterable[ScoredMove]) -> list[RankedMove]:
    """Rank ``moves`` best first: score, then the III.15 criteria 1–5, then tie-break 6.

    ``board``: the board before the move; ``rack``: the round's rack (codes,
    ``alphabet.blank`` for a blank). Each ``RankedMove`` says which criterion puts it
    ahead of the next. Raises ``MasterError`` if a move needs a tile the rack lacks.
    """
    alphabet = board.alphabet
    keyed: list[tuple[tuple[Any, ...], Measured]] = []
    rack_counts = Counter(rack)
    for scored in moves:
        placed = placed_tiles(board, scored.move)
        leave = _leave(rack_counts, placed, scored.move, rack, alphabet)
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
            explain = partial(_reason, keyed[index][1], following, criterion, alphabet)
        else:
            criterion = None
            text = "única jugada de máxima puntuación" if len(keyed) == 1 else "última de la clasificación"
            explain = partial(str, text)
        ranked.append(RankedMove(ScoredMove(scored.move, scored.score, placed_count), leave, blanks, imbalance,
                                 criterion, explain))
    return ranked


def _leave(rack_counts: Counter[int], placed: Sequence[tuple[int, int, int]], move: Move, rack: Sequence[int],
           alphabet: Alphabet) -> tuple[int, ...]:
    """``leave_after`` from an already computed placement."""
    remaining = rack_counts.copy()
    for _row, _col, tile in placed:
        source = alphabet.blank if tile & BLANK_FLAG else tile
        if remaining[source] <= 0:
            raise MasterError(
                f"la jugada {format_move(move, alphabet)} usa {tile_name(source, alphabet)}, que no está en el atril "
                f"{rack_text(rack, alphabet)}"
            )
        remaining[source] -= 1
    return tuple(sorted(remaining.elements()))


ARRAY_RANKING_FROM = 32
"""Equal tops above which ``rank_top_moves`` ranks on the generator's arrays: below, the
few numpy calls cost more than ranking the moves one by one (same result, tested)."""


def rank_top_moves(board: Board, rack: Sequence[int], moves: MoveList | Iterable[ScoredMove]) -> Sequence[RankedMove]:
    """The moves of top score among ``moves`` (a ``MoveList`` or scored moves), ranked
    as ``rank_moves`` by the III.15 criteria; moves below the top score are dropped.

    Empty when there is no move. For the compiled generator's ``MoveList`` the ranking is
    computed on its arrays (``duplicate.tie_ranking``: thousands of equal tops in a few
    milliseconds) and each ``RankedMove`` is built when read.
    """
    if isinstance(moves, MoveList) and (arrays := moves.top_arrays()) is not None and len(arrays[0]) > ARRAY_RANKING_FROM:
        from duplicate.tie_ranking import rank_arrays

        return rank_arrays(board, rack, *arrays)
    candidates = moves.top() if isinstance(moves, MoveList) else list(moves)
    best = max((scored.score for scored in candidates), default=0)
    return rank_moves(board, rack, [scored for scored in candidates if scored.score == best])


def ranked_moves(ranked: Sequence[RankedMove]) -> list[tuple[Move, int]]:
    """``(move, score)`` of each move of a ranking (``rank_top_moves``'s), in order; for a
    ranking computed on the generator's arrays, without building each ``RankedMove``
    (12,984 equal tops: a tenth of the time)."""
    from duplicate.tie_ranking import Ranking

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


# --- the criteria --------------------------------------------------------------------------------
Measured = tuple[ScoredMove, tuple[int, ...], int, int, int]
"""``(scored, leave, blanks_used, imbalance, tiles_placed)``."""


def _position_key(move: Move) -> tuple[int, int, int]:
    if move.direction is Direction.ACROSS:
        return (0, move.col, move.row)
    return (1, move.row, move.col)


def _letters(move: Move) -> tuple[int, ...]:
    return tuple(letter_of(tile) for tile in move.word)


def _sort_key(scored: ScoredMove, blanks: int, imbalance: int, placed: int) -> tuple[Any, ...]:
    move = scored.move
    return (-scored.score, blanks, imbalance, placed, _letters(move), _position_key(move), move.word)


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


def _reason(first: Measured, second: Measured, criterion: Criterion | None, alphabet: Alphabet) -> str:
    """The Spanish reason why ``first`` is ahead of ``second`` by ``criterion``."""
    a, leave_a, blanks_a, imbalance_a, placed_a = first
    b, leave_b, blanks_b, imbalance_b, placed_b = second
    if criterion is Criterion.SCORE:
        return f"más puntos ({a.score} frente a {b.score})"
    if criterion is Criterion.NO_BLANK:
        if blanks_a == 0:
            text = "no usa comodín" + (" (la siguiente usa uno)" if blanks_b == 1 else f" (la siguiente usa {blanks_b})")
        else:
            text = f"usa menos comodines ({blanks_a} frente a {blanks_b})"
        return f"criterio 1 (III.15): {text}"
    if criterion is Criterion.BALANCED_LEAVE:
        return (f"criterio 2 (III.15): deja un atril más equilibrado, {_leave_text(leave_a, alphabet)} "
                f"(desequilibrio {imbalance_a}) frente a {_leave_text(leave_b, alphabet)} (desequilibrio {imbalance_b})")
    if criterion is Criterion.FEWEST_TILES:
        return f"criterio 3 (III.15): coloca menos fichas ({placed_a} frente a {placed_b})"
    move_a, move_b = a.move, b.move
    if criterion is Criterion.ALPHABETICAL:
        word_a = alphabet.format(list(_letters(move_a)))
        word_b = alphabet.format(list(_letters(move_b)))
        return f"criterio 4 (III.15): va antes en orden alfabético ({word_a} antes que {word_b})"
    if criterion is Criterion.POSITION:
        return f"criterio 5 (III.15): {_position_text(move_a, move_b)}"
    if criterion is Criterion.BLANK_PLACEMENT:
        return (f"desempate fijo, fuera del reglamento: misma jugada con el comodín en otra letra "
                f"({format_move(move_a, alphabet)} antes que {format_move(move_b, alphabet)})")
    return "idéntica a la siguiente"


def _position_text(a: Move, b: Move) -> str:
    pair = f"({a.coordinate} frente a {b.coordinate})"
    if a.direction is not b.direction:
        return f"horizontal, la siguiente es vertical {pair}"
    if a.direction is Direction.ACROSS:
        if a.col != b.col:
            return f"horizontal más cerca de la columna 1 {pair}"
        return f"horizontal más cerca de la fila A {pair}"
    if a.row != b.row:
        return f"vertical más cerca de la fila A {pair}"
    return f"vertical más cerca de la columna 1 {pair}"


def _leave_text(leave: tuple[int, ...], alphabet: Alphabet) -> str:
    return f"«{alphabet.display(leave)}»" if leave else "atril vacío"
