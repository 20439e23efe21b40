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

The result is a ``MoveList``; it builds ``Move`` objects only for the moves
asked for (``top()`` usually), so a 70,000-move result costs little more than
its arrays.

Two walkers compute the same moves (the tests compare them): the compiled one
(``lexicon.gaddag_walk``: a GADDAG walk in C from each anchor, cross-checks cached per
board), used by default, and the pure-Python one below, the reference — the algorithm
above, plainly written — used when the C extension was not built or when the
environment variable ``DUPLICADA_PURE_PYTHON`` is set to ``1``. Their order differs;
nothing depends on it (III.15's ranking is a total order).

``generate`` gives every move; ``generate_top`` only the moves of top score (the master's
candidates, found with the walk's shadow bounds); ``count_moves`` how many there are;
``top_and_count`` both, as a round opens.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np

from data.rules import BINGO_BONUS, RACK_SIZE
from lexicon.alphabet import BLANK_FLAG, Alphabet
from lexicon.board import CENTRE, SIZE, Board, Direction
from lexicon.gaddag import available as compiled_available
from lexicon.lexicon import Lexicon
from lexicon.move import Move
from lexicon.word_graph import FINAL, REACH, Node

RawMove = tuple[int, int, int, int, tuple[int, ...], int]
"""``(score, down, row, col, word, tiles_placed)``; ``down`` is 0 across, 1 down."""

PURE_PYTHON_VARIABLE = "DUPLICADA_PURE_PYTHON"
"""Environment variable: ``1`` makes ``generate`` use the pure-Python walker."""


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
    ``all()`` every move, best first; ``raw`` every move as a ``RawMove``
    tuple, in generation order.

    Built from a list of ``RawMove`` (the pure-Python walker) or, with
    ``from_arrays``, from the compiled walker's arrays; ``raw`` is then built
    on first use only.
    """

    def __init__(self, raw: list[RawMove]) -> None:
        self._raw: list[RawMove] | None = raw
        self._info: np.ndarray | None = None
        self._words: np.ndarray | None = None
        self._top_rows: np.ndarray | None = None

    @classmethod
    def from_arrays(cls, info: np.ndarray, words: np.ndarray) -> MoveList:
        """Moves from ``lexicon.gaddag_walk.walk``'s ``(info, words)`` arrays."""
        moves = cls.__new__(cls)
        moves._raw, moves._info, moves._words, moves._top_rows = None, info, words, None
        return moves

    def _top(self) -> np.ndarray:
        """The rows of the top moves in the arrays (computed once: ``best_score``,
        ``top_arrays`` and ``top`` all read them)."""
        assert self._info is not None
        if self._top_rows is None:
            scores = self._info[:, 0]
            self._top_rows = np.flatnonzero(scores == scores.max()) if len(scores) else np.empty(0, dtype=np.intp)
        return self._top_rows

    @property
    def raw(self) -> list[RawMove]:
        """Every move as ``(score, down, row, col, word, tiles_placed)``, in generation order."""
        if self._raw is None:
            assert self._info is not None and self._words is not None
            self._raw = [(score, down, row, col, tuple(word[:length]), placed)
                         for (score, down, row, col, length, placed), word in zip(self._info.tolist(), self._words.tolist())]
        return self._raw

    def __len__(self) -> int:
        return len(self.raw) if self._info is None else len(self._info)

    @property
    def best_score(self) -> int:
        """The highest score, or 0 when there is no legal move."""
        if self._info is None:
            return max((entry[0] for entry in self.raw), default=0)
        rows = self._top()
        return int(self._info[rows[0], 0]) if len(rows) else 0

    def arrays(self) -> tuple[np.ndarray, np.ndarray] | None:
        """The compiled walker's ``(info, words)`` arrays of every move (see
        ``lexicon.gaddag_walk.walk``), or None for a list built from tuples."""
        if self._info is None or self._words is None:
            return None
        return self._info, self._words

    def top_arrays(self) -> tuple[np.ndarray, np.ndarray] | None:
        """The top moves' rows of the compiled walker's ``(info, words)`` arrays (see
        ``lexicon.gaddag_walk.walk``), or None for a list built from tuples."""
        if self._info is None or self._words is None:
            return None
        if not len(self._info):
            return self._info, self._words
        rows = self._top()
        return self._info[rows], self._words[rows]

    def top_count(self) -> int:
        """How many moves have the top score (0 when there is no move)."""
        if self._info is None:
            best = self.best_score
            return sum(1 for entry in self.raw if entry[0] == best)
        return len(self._top())

    def top(self) -> list[ScoredMove]:
        """Every move with the highest score (empty when there is no move), in generation order."""
        best = self.best_score
        if self._info is None:
            return [_scored(entry) for entry in self.raw if entry[0] == best]
        return self._scored_rows(self._top())

    def all(self) -> list[ScoredMove]:
        """Every move, sorted by score (highest first), then by generation order."""
        if self._info is None:
            return [_scored(entry) for entry in sorted(self.raw, key=lambda entry: -entry[0])]
        return self._scored_rows(np.argsort(-self._info[:, 0], kind="stable"))

    def _scored_rows(self, rows: np.ndarray) -> list[ScoredMove]:
        assert self._info is not None and self._words is not None
        return [
            ScoredMove(Move(row, col, Direction.DOWN if down else Direction.ACROSS, tuple(word[:length])), score, placed)
            for (score, down, row, col, length, placed), word in zip(self._info[rows].tolist(), self._words[rows].tolist())
        ]


def _scored(entry: RawMove) -> ScoredMove:
    score, down, row, col, word, placed = entry
    return ScoredMove(Move(row, col, Direction.DOWN if down else Direction.ACROSS, word), score, placed)


def generate(board: Board, rack: Sequence[int], lexicon: Lexicon) -> MoveList:
    """All legal moves of ``rack`` (tile codes; ``alphabet.blank`` for a blank) on ``board``.

    A legal move places 1–7 rack tiles in one line, contiguous with the tiles
    already there, covering H8 on the first move or touching a tile otherwise,
    and every word it forms is in ``lexicon`` (I.2). Uses the compiled walker
    unless ``DUPLICADA_PURE_PYTHON=1`` or it is not built (see ``walker_name``).
    Raises ``IndexError`` for a tile code outside the alphabet.
    """
    return generate_compiled(board, rack, lexicon) if _compiled() else generate_pure_python(board, rack, lexicon)


def generate_compiled(board: Board, rack: Sequence[int], lexicon: Lexicon) -> MoveList:
    """``generate`` with the compiled walker; ``ImportError`` when it is not built."""
    if not compiled_available():
        raise ImportError("el generador de jugadas compilado (lexicon._gaddag) no está instalado")
    from lexicon.gaddag_walk import Mode, walk

    info, words, _total = walk(board, rack, lexicon, Mode.ALL)
    return MoveList.from_arrays(info, words)


def generate_top(board: Board, rack: Sequence[int], lexicon: Lexicon) -> MoveList:
    """The moves of top score only (``generate(...).top()``'s moves, as a ``MoveList``):
    the candidates for the master (III.15). The compiled walker takes anchors best upper
    bound first and stops when no other can reach the best score found."""
    if _compiled():
        from lexicon.gaddag_walk import Mode, walk

        info, words, _total = walk(board, rack, lexicon, Mode.TOP)
        return MoveList.from_arrays(info, words)
    return _top_of(generate_pure_python(board, rack, lexicon))


def _top_of(moves: MoveList) -> MoveList:
    """The moves of top score of a list built by the pure-Python walker."""
    best = moves.best_score
    return MoveList([entry for entry in moves.raw if entry[0] == best])


def count_moves(board: Board, rack: Sequence[int], lexicon: Lexicon) -> int:
    """How many legal moves (``len(generate(...))``), without building them."""
    if _compiled():
        from lexicon.gaddag_walk import Mode, walk

        return walk(board, rack, lexicon, Mode.COUNT)[2]
    return len(generate_pure_python(board, rack, lexicon))


def top_and_count(board: Board, rack: Sequence[int], lexicon: Lexicon) -> tuple[MoveList, int]:
    """``(generate_top(...), count_moves(...))``: two walks with the compiled walker (the
    top moves' walk stops early, the count writes nothing), one with the pure-Python one."""
    if _compiled():
        return generate_top(board, rack, lexicon), count_moves(board, rack, lexicon)
    everything = generate_pure_python(board, rack, lexicon)
    return _top_of(everything), len(everything)


def walker_name() -> str:
    """``"gaddag"`` (compiled) or ``"pure-python"``: the walker ``generate`` uses now."""
    return "gaddag" if _compiled() else "pure-python"


def _compiled() -> bool:
    return os.environ.get(PURE_PYTHON_VARIABLE, "") in ("", "0") and _extension_present()


@cache
def _extension_present() -> bool:
    if compiled_available():
        return True
    warnings.warn("el generador de jugadas compilado (lexicon._gaddag) no está instalado; se usa el de Python "
                  "puro, más lento (instale con un compilador de C para tenerlo)", RuntimeWarning, stacklevel=4)
    return False


def generate_pure_python(board: Board, rack: Sequence[int], lexicon: Lexicon) -> MoveList:
    """``generate`` with the pure-Python walker: the reference the compiled one must match."""
    alphabet = lexicon.alphabet
    counts = [0] * (alphabet.size + 1)
    for tile in rack:
        if not 0 <= tile <= alphabet.size:
            raise IndexError(f"ficha {tile} fuera del alfabeto")
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
            _walk_line(cells, anchors, masks, cross, lm[line], wm[line], counts, alphabet, down, line, lexicon.root, out)
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
        node = _follow(root, prefix)
        mask = 0
        if node is not None:
            for letter, child in node.items():
                if letter < 0:
                    continue
                target = _follow(child, suffix)
                if target is not None and FINAL in target:
                    mask |= 1 << letter
        masks[i] = mask
    return anchors, masks, cross


def _follow(node: Node, tiles: list[int]) -> Node | None:
    """The node reached from ``node`` by the letters of ``tiles``, or None."""
    for tile in tiles:
        child = node.get(tile & ~BLANK_FLAG)
        if child is None:
            return None
        node = child
    return node


def _walk_line(cells: list[int | None], anchors: list[bool], masks: list[int], cross: list[int],
               lm: Sequence[int], wm: Sequence[int], counts: list[int], alphabet: Alphabet, down: int, line: int,
               root: Node, out: list[RawMove]) -> None:
    """Record every legal move along one line into ``out``.

    The walk spends rack tiles greedily — a natural tile when one is left, else
    a blank — so each sequence of letters is walked once; ``record`` then lists
    every distinct natural/blank assignment of the new tiles (the placements
    differ, III.20.3) with its score: a blank at a new square removes that
    letter's points times the square's letter premium from the main word (times
    the main word's premiums) and from its cross word (times that square's word
    premium).
    """
    points = [letter.points for letter in alphabet.letters]
    blank = alphabet.blank
    rack_size = sum(counts)
    blanks_in_rack = counts[blank]
    natural = counts[:blank]
    rack_letters = -1 if blanks_in_rack else sum(1 << letter for letter in range(blank) if counts[letter])
    # next_anchor[i]: the first anchor at or after i (SIZE if none); need[i]: the empty
    # squares from i up to and including it (more than any rack if there is none).
    next_anchor = [SIZE] * (SIZE + 1)
    need = [SIZE + 1] * (SIZE + 1)
    for i in range(SIZE - 1, -1, -1):
        if anchors[i]:
            next_anchor[i], need[i] = i, 1
        else:
            next_anchor[i] = next_anchor[i + 1]
            need[i] = need[i + 1] + (cells[i] is None)
    path: list[int] = []
    start = 0

    def record(placed: int, score: int, word_mult: int) -> None:
        if down and placed == 1:
            # A one-tile move that forms an across word too is reported as the across move.
            for offset in range(len(path)):
                if cells[start + offset] is None:
                    if cross[start + offset] >= 0:
                        return
                    break
        row, col = (start, line) if down else (line, start)
        if not blanks_in_rack:
            out.append((score, down, row, col, tuple(path), placed))
            return
        # Every assignment of naturals and blanks to the new tiles.
        news = []
        for offset, letter in enumerate(path):
            square = start + offset
            if cells[square] is None:
                value = points[letter] * lm[square]
                penalty = value * word_mult + (value * wm[square] if cross[square] >= 0 else 0)
                news.append((offset, letter, penalty))
        left = natural[:]
        word = path[:]

        def assign(k: int, blanks: int, total: int) -> None:
            if k == len(news):
                out.append((total, down, row, col, tuple(word), placed))
                return
            offset, letter, penalty = news[k]
            if left[letter]:
                left[letter] -= 1
                assign(k + 1, blanks, total)
                left[letter] += 1
            if blanks:
                word[offset] = letter | BLANK_FLAG
                assign(k + 1, blanks - 1, total - penalty)
                word[offset] = letter

        assign(0, blanks_in_rack, score)

    def extend(i: int, node: Node, placed: int, main: int, word_mult: int, cross_total: int, hit: bool) -> None:
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
                main += points[letter]
            i += 1
        if placed and hit and FINAL in node and len(path) > 1:
            score = main * word_mult + cross_total
            record(placed, score + BINGO_BONUS if placed == RACK_SIZE else score, word_mult)
        if i < SIZE and placed < rack_size:
            mask = masks[i]
            if not hit:
                # The word has to reach the next anchor with a letter its cross-check
                # allows, and go on through a board tile right after it.
                anchor = next_anchor[i]
                if need[i] > rack_size - placed:
                    mask = 0
                else:
                    reach = node[REACH]
                    depth = anchor - i
                    if not reach[depth] & masks[anchor] or anchor + 1 < SIZE and (after := cells[anchor + 1]) is not None and not (
                        reach[depth + 1] >> (after & ~BLANK_FLAG) & 1
                    ):
                        mask = 0
            if mask:
                cs = cross[i]
                square_lm = lm[i]
                square_wm = wm[i]
                now_hit = hit or anchors[i]
                # At the last square of the line, or with the last rack tile before an
                # empty square, the word can only end here: no need to recurse.
                last = i + 1 == SIZE or (placed + 1 == rack_size and cells[i + 1] is None)
                for letter, child in node.items():
                    if letter < 0 or not (mask >> letter) & 1:
                        continue
                    if last:
                        if now_hit and FINAL in child and path and (counts[letter] or counts[blank]):
                            path.append(letter)
                            value = points[letter] * square_lm
                            multiplier = word_mult * square_wm
                            score = (main + value) * multiplier + cross_total + (
                                (cs + value) * square_wm if cs >= 0 else 0)
                            record(placed + 1, score + BINGO_BONUS if placed + 1 == RACK_SIZE else score, multiplier)
                            path.pop()
                        continue
                    if counts[letter]:
                        spent = letter
                    elif counts[blank]:
                        spent = blank
                    else:
                        continue
                    if not (now_hit and FINAL in child):
                        # Look one square ahead: the word must go on from the child.
                        ahead = cells[i + 1]
                        if ahead is None:
                            if not child[REACH][0] & masks[i + 1] & rack_letters:
                                continue
                            if not now_hit and not child[REACH][next_anchor[i + 1] - i - 1] & masks[next_anchor[i + 1]]:
                                continue
                        elif (ahead & ~BLANK_FLAG) not in child:
                            continue
                    counts[spent] -= 1
                    path.append(letter)
                    value = points[letter] * square_lm
                    extend(i + 1, child, placed + 1, main + value, word_mult * square_wm,
                           cross_total + ((cs + value) * square_wm if cs >= 0 else 0), now_hit)
                    path.pop()
                    counts[spent] += 1
        if followed:
            del path[-followed:]

    for start in range(SIZE):
        if start > 0 and cells[start - 1] is not None:
            continue
        if need[start] > rack_size:
            continue
        extend(start, root, 0, 0, 1, 0, False)
