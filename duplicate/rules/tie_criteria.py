"""The III.15 tie criteria shared by both rankings of equal tops: what is measured of a
move, what decides between two moves, and the Spanish reason an arbiter reads.

``duplicate.rules.master`` ranks moves one at a time and ``duplicate.rules.tie_ranking`` on the move
generator's arrays; both build ``RankedMove`` values with the leave (``rack_leave``) and
the reason (``tie_reason``) defined here, so the two rankings agree by construction. The
criteria themselves (score, then III.15 criteria 1–5, then the fixed tie-break 6) are
described in ``duplicate.rules.master``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from typing import TYPE_CHECKING

from duplicate.rules.bag import count_tiles, tile_name
from duplicate.rules.notation import format_move
from duplicate.rules.rack import rack_text
from lexicon.alphabet import BLANK_FLAG, Alphabet
from lexicon.board import Direction, letter_of
from lexicon.move import Move

if TYPE_CHECKING:   # annotations only: a read-only command never loads the move generator (issue 38)
    from lexicon.movegen import ScoredMove


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


def rack_leave(rack_counts: Counter[int], placed: Sequence[tuple[int, int, int]], move: Move, rack: Sequence[int],
               alphabet: Alphabet) -> tuple[int, ...]:
    """The tiles ``rack`` keeps after ``move`` places ``placed`` (``(row, col, tile)`` of each new
    tile, as ``lexicon.move.placed_tiles`` gives them): code order, a blank placed leaves
    as a blank. ``rack_counts`` is ``Counter(rack)``. Raises ``MasterError`` (Spanish)
    when the move places a tile the rack does not hold."""
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


Measured = tuple["ScoredMove", tuple[int, ...], int, int, int]
"""``(scored, leave, blanks_used, imbalance, tiles_placed)``."""


def word_letters(move: Move) -> tuple[int, ...]:
    """The letters of ``move``'s main word, a blank as the letter it stands for (criterion 4)."""
    return tuple(letter_of(tile) for tile in move.word)


def tie_reason(first: Measured, second: Measured, criterion: Criterion | None, alphabet: Alphabet) -> str:
    """The Spanish reason why ``first`` is ahead of ``second`` by ``criterion`` (III.15
    criteria 1–5, tie-break 6; ``"idéntica a la siguiente"`` for None)."""
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
        word_a = alphabet.format(list(word_letters(move_a)))
        word_b = alphabet.format(list(word_letters(move_b)))
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
