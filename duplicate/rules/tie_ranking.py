"""The III.15 ranking of equal tops, computed on the move generator's arrays.

``duplicate.rules.master.rank_moves`` ranks moves one Python object at a time; with two blanks
on an open board there are thousands of equal tops (AE??RST on the empty board: 12,984),
which took it 200–400 ms. This module computes the same ranking — the same order, the
same criterion between each move and the next (III.15 criteria 1–5, then tie-break 6) —
on the compiled generator's arrays with numpy (``np.lexsort`` on the sort key's columns),
and builds a ``RankedMove`` only for the moves read (``Ranking``): the judge reads the
first few, the service the notation of each.

The moves must come from the generator for this board and rack (they are legal; a move
needing a tile the rack lacks is not looked for here, as ``rank_moves`` does). The tests
compare both rankings, move by move and reason by reason.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from functools import partial
from typing import overload

import numpy as np

from duplicate.rules.tie_criteria import Criterion, Measured, RankedMove, rack_leave, tie_reason
from lexicon.alphabet import BLANK_FLAG
from lexicon.board import SIZE, Board, Direction
from lexicon.move import Move
from lexicon.movegen import ScoredMove

_LETTER = BLANK_FLAG - 1


class Ranking(Sequence[RankedMove]):
    """The ranked moves (a sequence, best first), each built when first read.

    ``ranking[i]`` is the ``RankedMove`` ``rank_moves`` would put at ``i``; ``len`` is the
    number of moves.
    """

    def __init__(self, board: Board, rack: Sequence[int], info: np.ndarray, words: np.ndarray) -> None:
        alphabet = board.alphabet
        self._board, self._rack, self._alphabet = board, tuple(rack), alphabet
        count = len(info)
        score, down, row, col, length, placed = (info[:, column].astype(np.int64) for column in range(6))
        offsets = np.arange(SIZE)
        inside = offsets[None, :] < length[:, None]
        rows = np.minimum(row[:, None] + offsets[None, :] * down[:, None], SIZE - 1)
        cols = np.minimum(col[:, None] + offsets[None, :] * (1 - down[:, None]), SIZE - 1)
        tiles = np.array([[-1 if tile is None else tile for tile in line] for line in board.tiles], dtype=np.int16)
        fresh = inside & (tiles[rows, cols] < 0)
        codes = words.astype(np.int16)
        letters = np.where(inside, codes & _LETTER, -1)
        blank_played = fresh & ((codes & BLANK_FLAG) != 0)
        vowel_of = np.array([letter.vowel for letter in alphabet.letters] + [False], dtype=bool)
        natural = fresh & ~blank_played
        is_vowel = vowel_of[np.where(natural, letters, len(vowel_of) - 1)]
        blanks = blank_played.sum(axis=1)
        placed_vowels = (natural & is_vowel).sum(axis=1)
        placed_consonants = (natural & ~is_vowel).sum(axis=1)
        rack_vowels = sum(1 for tile in rack if alphabet.is_vowel(tile))
        rack_blanks = sum(1 for tile in rack if tile == alphabet.blank)
        rack_consonants = len(rack) - rack_vowels - rack_blanks
        imbalance = np.maximum(0, np.abs((rack_vowels - placed_vowels) - (rack_consonants - placed_consonants))
                               - (rack_blanks - blanks))
        # III.15 rule 5: across before down; across by column then row, down by row then column.
        first_place = np.where(down == 0, col, row)
        second_place = np.where(down == 0, row, col)
        # Words compared tile by tile: 15 small numbers packed into two int64 columns (the
        # first tiles in the high bits), fewer columns for lexsort.
        alphabetical = _packed(letters + 1, 5)
        with_blanks = _packed(codes.astype(np.int64), 7)
        columns = [-score, blanks, imbalance, placed, *alphabetical, down, first_place, second_place, *with_blanks]
        criteria = [Criterion.SCORE, Criterion.NO_BLANK, Criterion.BALANCED_LEAVE, Criterion.FEWEST_TILES,
                    Criterion.ALPHABETICAL, Criterion.ALPHABETICAL, *[Criterion.POSITION] * 3,
                    Criterion.BLANK_PLACEMENT, Criterion.BLANK_PLACEMENT]
        order = np.lexsort(columns[::-1]) if count else np.zeros(0, dtype=np.int64)
        keys = np.stack(columns, axis=1)[order] if count else np.zeros((0, len(columns)), dtype=np.int64)
        # The criterion between each move and the next: the first column where they differ.
        differs = keys[1:] != keys[:-1]
        first_difference = np.where(differs.any(axis=1), differs.argmax(axis=1), -1)
        self._criteria: list[Criterion | None] = [None if column < 0 else criteria[column]
                                                  for column in first_difference.tolist()]
        self._info, self._words, self._order = info, words, order
        self._blanks, self._imbalance = blanks, imbalance
        self._built: dict[int, RankedMove] = {}
        self._measured: dict[int, Measured] = {}

    def __len__(self) -> int:
        return len(self._order)

    @overload
    def __getitem__(self, index: int) -> RankedMove: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[RankedMove]: ...

    def __getitem__(self, index: int | slice) -> RankedMove | Sequence[RankedMove]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError("fuera de la clasificación")
        built = self._built.get(index)
        if built is None:
            scored, leave, blanks, imbalance, _placed = self._measure(index)
            if index + 1 < len(self):
                criterion = self._criteria[index]
                explain = partial(tie_reason, self._measure(index), self._measure(index + 1), criterion, self._alphabet)
            else:
                criterion = None
                text = "única jugada de máxima puntuación" if len(self) == 1 else "última de la clasificación"
                explain = partial(str, text)
            built = self._built[index] = RankedMove(scored, leave, blanks, imbalance, criterion, explain)
        return built

    def __iter__(self) -> Iterator[RankedMove]:
        return (self[index] for index in range(len(self)))

    def moves(self) -> list[tuple[Move, int]]:
        """``(move, score)`` of every ranked move, in order, without building the
        ``RankedMove`` objects (their leaves and reasons): what storing thousands of equal
        tops needs."""
        rows = self._info[self._order].tolist()
        words = self._words[self._order].tolist()
        return [(Move(row, col, Direction.DOWN if down else Direction.ACROSS, tuple(word[:length])), score)
                for (score, down, row, col, length, _placed), word in zip(rows, words)]

    def _measure(self, index: int) -> Measured:
        known = self._measured.get(index)
        if known is None:
            at = int(self._order[index])
            score, down, row, col, length, placed = self._info[at].tolist()
            word = tuple(self._words[at, :length].tolist())
            move = Move(row, col, Direction.DOWN if down else Direction.ACROSS, word)
            scored = ScoredMove(move, score, placed)
            squares = [(row + offset * down, col + offset * (1 - down)) for offset in range(length)]
            new_tiles = [(r, c, tile) for (r, c), tile in zip(squares, word) if self._board.tiles[r][c] is None]
            leave = rack_leave(Counter(self._rack), new_tiles, move, self._rack, self._alphabet)
            known = self._measured[index] = (scored, leave, int(self._blanks[at]), int(self._imbalance[at]), placed)
        return known


def _packed(values: np.ndarray, bits: int) -> tuple[np.ndarray, np.ndarray]:
    """Rows of 15 numbers below ``2 ** bits`` as two int64 keys that sort like the rows:
    the first 8 numbers in the first key, the other 7 in the second."""
    weights = np.array([1 << (bits * (7 - i)) for i in range(8)], dtype=np.int64)
    values = values.astype(np.int64)
    return values[:, :8] @ weights, values[:, 8:] @ weights[1:]


def rank_arrays(board: Board, rack: Sequence[int], info: np.ndarray, words: np.ndarray) -> Ranking:
    """The III.15 ranking of the moves in ``info``/``words`` (``lexicon.gaddag_walk.walk``'s
    arrays, or a selection of their rows), as ``rank_moves`` ranks them."""
    return Ranking(board, rack, info, words)
