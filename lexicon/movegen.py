"""The move generator: every legal placement of a rack on a board, with its score.

Algorithm: for each line (row for across moves, column for down moves) the
generator first computes, for every empty square, the *cross-check* (the set of
letters that make a valid perpendicular word there, as a bit mask) and the
*cross-score* (points of the perpendicular tiles), and marks the *anchors*
(empty squares next to a tile; H8 on an empty board). Then for every square
that can start a word (the square before it empty or the edge) from which an
anchor can be reached with the rack's tiles, it walks the lexicon's DAWG left
to right, following tiles already on the board and trying rack tiles (blanks as
every letter) on empty squares, and records each word that ends before an
empty square, places at least one tile, and covers an anchor. Scores are
computed incrementally during the walk (I.2). This is the same result as
Appel & Jacobson (1988) with left parts generated from each start square.

A one-tile move that forms words in both directions is one placement; it is
reported once, as an across move (its canonical form, III.15 rule 5).

The result is a ``MoveList``: moves are kept as light tuples and only turned
into ``Move`` objects when asked for.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from duplicate.board import CENTRE, SIZE, Board, Direction
from duplicate.move import BINGO_BONUS, RACK_SIZE, Move
from lexicon.alphabet import BLANK_FLAG, Alphabet
from lexicon.lexicon import FINAL, Lexicon, Node

RawMove = tuple[int, int, int, int, tuple[int, ...], int]
"""``(score, down, row, col, word, tiles_placed)``; ``down`` is 0 across, 1 down."""


@dataclass(frozen=True)
class ScoredMove:
    """A generated move with its score and how many rack tiles it places."""

    move: Move
    score: int
    tiles_placed: int


class MoveList:
    """All legal moves for one board and rack (see ``generate``).

    ``len(moves)`` is the number of distinct placements; ``best_score`` the top
    score (0 when there is no move); ``top()`` the moves with the top score;
    ``all()`` every move, best first.
    """

    def __init__(self, raw: list[RawMove]) -> None:
        self.raw = raw

    def __len__(self) -> int:
        return len(self.raw)

    @property
    def best_score(self) -> int:
        """The highest score, or 0 when there is no legal move."""
        return max((entry[0] for entry in self.raw), default=0)

    def top(self) -> list[ScoredMove]:
        """Every move with the highest score (empty when there is no move)."""
        best = self.best_score
        return [_scored(entry) for entry in self.raw if entry[0] == best]

    def all(self) -> list[ScoredMove]:
        """Every move, sorted by score (highest first), then by the raw order."""
        return [_scored(entry) for entry in sorted(self.raw, key=lambda entry: -entry[0])]


def _scored(entry: RawMove) -> ScoredMove:
    score, down, row, col, word, placed = entry
    return ScoredMove(Move(row, col, Direction.DOWN if down else Direction.ACROSS, word), score, placed)


def generate(board: Board, rack: Sequence[int], lexicon: Lexicon) -> MoveList:
    """All legal moves of ``rack`` (tile codes; ``alphabet.blank`` for a blank) on ``board``.

    A legal move places 1–7 rack tiles in one line, contiguous with the tiles
    already there, covering H8 on the first move or touching a tile otherwise,
    and every word it forms is in ``lexicon`` (I.2).
    """
    alphabet = lexicon.alphabet
    counts = [0] * (alphabet.size + 1)
    for tile in rack:
        counts[tile] += 1
    out: list[RawMove] = []
    tiles = board.tiles
    columns = [list(column) for column in zip(*tiles)]
    letter_mult = board.layout.letter_mult
    word_mult = board.layout.word_mult
    letter_mult_t = tuple(zip(*letter_mult))
    word_mult_t = tuple(zip(*word_mult))
    empty_board = board.is_empty()
    for down, grid, lm, wm in ((0, tiles, letter_mult, word_mult), (1, columns, letter_mult_t, word_mult_t)):
        for line in range(SIZE):
            cells = grid[line]
            if empty_board:
                if line != CENTRE[0]:
                    continue
                anchors = [i == CENTRE[1] for i in range(SIZE)]
                masks = [-1] * SIZE
                cross = [-1] * SIZE
            else:
                anchors, masks, cross = _line_constraints(grid, line, lexicon.root, alphabet)
                if not any(anchors):
                    continue
            _LineWalker(cells, anchors, masks, cross, lm[line], wm[line], counts, alphabet, down, line, out).run(lexicon.root)
    return MoveList(out)


def _line_constraints(grid: list[list[int | None]], line: int, root: Node, alphabet: Alphabet) -> tuple[list[bool], list[int], list[int]]:
    """Anchors, cross-check masks and cross-scores of one line of ``grid``."""
    cells = grid[line]
    above = grid[line - 1] if line > 0 else None
    below = grid[line + 1] if line < SIZE - 1 else None
    anchors = [False] * SIZE
    masks = [-1] * SIZE
    cross = [-1] * SIZE
    points = alphabet.points
    for i in range(SIZE):
        if cells[i] is not None:
            continue
        has_above = above is not None and above[i] is not None
        has_below = below is not None and below[i] is not None
        if (i > 0 and cells[i - 1] is not None) or (i < SIZE - 1 and cells[i + 1] is not None) or has_above or has_below:
            anchors[i] = True
        if not (has_above or has_below):
            continue
        prefix: list[int] = []
        r = line - 1
        while r >= 0 and grid[r][i] is not None:
            prefix.append(grid[r][i])  # type: ignore[arg-type]
            r -= 1
        prefix.reverse()
        suffix: list[int] = []
        r = line + 1
        while r < SIZE and grid[r][i] is not None:
            suffix.append(grid[r][i])  # type: ignore[arg-type]
            r += 1
        cross[i] = sum(points(tile) for tile in prefix) + sum(points(tile) for tile in suffix)
        node: Node | None = root
        for tile in prefix:
            node = node.get(tile & ~BLANK_FLAG)
            if node is None:
                break
        mask = 0
        if node is not None:
            for letter, child in node.items():
                if letter == FINAL:
                    continue
                target: Node | None = child
                for tile in suffix:
                    target = target.get(tile & ~BLANK_FLAG)
                    if target is None:
                        break
                if target is not None and FINAL in target:
                    mask |= 1 << letter
        masks[i] = mask
    return anchors, masks, cross


class _LineWalker:
    """Walks the DAWG along one line from every possible start square."""

    __slots__ = ("cells", "anchors", "masks", "cross", "lm", "wm", "counts", "points", "blank", "down", "line",
                 "out", "need", "path", "start", "rack_size")

    def __init__(self, cells: list[int | None], anchors: list[bool], masks: list[int], cross: list[int],
                 lm: Sequence[int], wm: Sequence[int], counts: list[int], alphabet: Alphabet, down: int, line: int,
                 out: list[RawMove]) -> None:
        self.cells = cells
        self.anchors = anchors
        self.masks = masks
        self.cross = cross
        self.lm = lm
        self.wm = wm
        self.counts = counts
        self.points = [letter.points for letter in alphabet.letters]
        self.blank = alphabet.blank
        self.down = down
        self.line = line
        self.out = out
        self.rack_size = sum(counts)
        # need[i]: empty squares from i up to and including the first anchor at or after i.
        need = [SIZE + 1] * (SIZE + 1)
        for i in range(SIZE - 1, -1, -1):
            if anchors[i]:
                need[i] = 1
            elif cells[i] is None:
                need[i] = need[i + 1] + 1
            else:
                need[i] = need[i + 1]
        self.need = need
        self.path: list[int] = []
        self.start = 0

    def run(self, root: Node) -> None:
        cells = self.cells
        for start in range(SIZE):
            if start > 0 and cells[start - 1] is not None:
                continue
            if self.need[start] > self.rack_size:
                continue
            self.start = start
            self.extend(start, root, 0, 0, 1, 0, False)

    def extend(self, i: int, node: Node, placed: int, main: int, word_mult: int, cross_total: int, hit: bool) -> None:
        cells = self.cells
        path = self.path
        # Follow tiles already on the board.
        followed = 0
        while i < SIZE and (tile := cells[i]) is not None:
            letter = tile & ~BLANK_FLAG
            next_node = node.get(letter)
            if next_node is None:
                if followed:
                    del path[-followed:]
                return
            node = next_node
            path.append(letter)
            followed += 1
            if not tile & BLANK_FLAG:
                main += self.points[letter]
            i += 1
        if placed and hit and FINAL in node and len(path) > 1:
            self.record(placed, main * word_mult + cross_total + (BINGO_BONUS if placed == RACK_SIZE else 0))
        if i < SIZE and placed < self.rack_size:
            mask = self.masks[i]
            if mask and (hit or self.anchors[i] or self.need[i] <= self.rack_size - placed):
                counts = self.counts
                blank = self.blank
                cs = self.cross[i]
                lm = self.lm[i]
                wm = self.wm[i]
                now_hit = hit or self.anchors[i]
                points = self.points
                for letter, child in node.items():
                    if letter == FINAL or not (mask >> letter) & 1:
                        continue
                    if counts[letter]:
                        counts[letter] -= 1
                        path.append(letter)
                        value = points[letter] * lm
                        self.extend(i + 1, child, placed + 1, main + value, word_mult * wm,
                                    cross_total + ((cs + value) * wm if cs >= 0 else 0), now_hit)
                        path.pop()
                        counts[letter] += 1
                    if counts[blank]:
                        counts[blank] -= 1
                        path.append(letter | BLANK_FLAG)
                        self.extend(i + 1, child, placed + 1, main, word_mult * wm,
                                    cross_total + (cs * wm if cs >= 0 else 0), now_hit)
                        path.pop()
                        counts[blank] += 1
        if followed:
            del path[-followed:]

    def record(self, placed: int, score: int) -> None:
        path = self.path
        start = self.start
        if self.down and placed == 1:
            # A one-tile move forming an across word too is reported as the across move.
            for offset, tile in enumerate(path):
                if self.cells[start + offset] is None:
                    if self.cross[start + offset] >= 0:
                        return
                    break
        if self.down:
            self.out.append((score, 1, start, self.line, tuple(path), placed))
        else:
            self.out.append((score, 0, self.line, start, tuple(path), placed))
