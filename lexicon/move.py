"""Moves and the words they form, and their scores (rules I.2, III.20.1).

A ``Move`` is what a player writes on a slip: the start square of the main
word, its direction, and the whole main word *including* the tiles already on
the board (III.20.1.a). In ``word``, a blank played from the rack in this move
is ``letter | BLANK_FLAG``; every other tile, new or already on the board, is a
plain letter code. A move knows nothing about a board: ``placed_tiles`` and
``score_move`` read it against one.

Scoring (I.2): each formed word scores the sum of its tiles' points, letter
premiums applying under newly placed tiles only, times the word premiums under
newly placed tiles; blanks score 0; the main word and every cross word formed
score; playing all 7 rack tiles adds ``BINGO_BONUS``.
"""

from __future__ import annotations

from dataclasses import dataclass

from data.rules import BINGO_BONUS, RACK_SIZE
from lexicon.alphabet import BLANK_FLAG
from lexicon.board import ROW_NAMES, SIZE, Board, Direction, Square, letter_of


class PlacementError(ValueError):
    """A move that does not fit the board: off the board, or a letter that differs
    from a tile already there. The message names the square."""


@dataclass(frozen=True)
class Move:
    """A move in canonical form: ``row``, ``col`` (0-based) of the first tile of the
    main word, ``direction``, and the main word's tile codes (see module doc)."""

    row: int
    col: int
    direction: Direction
    word: tuple[int, ...]

    @property
    def start(self) -> Square:
        """The square of the main word's first tile."""
        return Square(self.row, self.col)

    @property
    def coordinate(self) -> str:
        """Canonical coordinate: ``H8`` across (row first), ``8H`` down (column first)."""
        if self.direction is Direction.ACROSS:
            return f"{ROW_NAMES[self.row]}{self.col + 1}"
        return f"{self.col + 1}{ROW_NAMES[self.row]}"

    def squares(self) -> list[tuple[int, int]]:
        """The ``(row, col)`` of every tile of the main word, in order."""
        dr, dc = self.direction.step
        return [(self.row + dr * i, self.col + dc * i) for i in range(len(self.word))]

    @property
    def uses_blank(self) -> bool:
        """True if a blank from the rack is played."""
        return any(tile & BLANK_FLAG for tile in self.word)


@dataclass(frozen=True)
class FormedWord:
    """One word a move forms: start square, direction, tiles as on the board
    afterwards (blanks flagged), and its score."""

    row: int
    col: int
    direction: Direction
    tiles: tuple[int, ...]
    score: int

    @property
    def letters(self) -> tuple[int, ...]:
        """The word's letter codes (blank flags dropped), for lexicon look-ups."""
        return tuple(letter_of(tile) for tile in self.tiles)


def placed_tiles(board: Board, move: Move) -> tuple[tuple[int, int, int], ...]:
    """The tiles the move puts on the board: ``(row, col, tile)`` for each empty square
    of the main word.

    Raises ``PlacementError`` if the word leaves the board or a letter differs from
    the tile already on its square.
    """
    placed = []
    for (row, col), tile in zip(move.squares(), move.word):
        if not (0 <= row < SIZE and 0 <= col < SIZE):
            raise PlacementError(f"la palabra se sale del tablero en {_square_text(row, col)}")
        existing = board.tiles[row][col]
        if existing is None:
            placed.append((row, col, tile))
        elif letter_of(existing) != letter_of(tile):
            raise PlacementError(
                f"en {Square(row, col).name} ya hay {board.alphabet.symbol(existing).upper()}, "
                f"no {board.alphabet.symbol(letter_of(tile))}"
            )
    return tuple(placed)


def formed_words(board: Board, move: Move) -> list[FormedWord]:
    """Every word the move forms, main word first, then cross words in order, scored.

    The main word is the maximal run through the move's squares (it may extend
    beyond ``move.word`` when tiles touch its ends; ``check_move`` in the notation
    module reports that). Cross words are the runs of 2+ tiles perpendicular to
    the main word through each newly placed tile. Raises ``PlacementError`` as
    ``placed_tiles``.
    """
    placed = placed_tiles(board, move)
    new = {(row, col): tile for row, col, tile in placed}
    layout = board.layout
    alphabet = board.alphabet

    def run(row: int, col: int, direction: Direction) -> FormedWord | None:
        dr, dc = direction.step
        r, c = row, col
        while 0 <= r - dr and 0 <= c - dc and _tile(board, new, r - dr, c - dc) is not None:
            r, c = r - dr, c - dc
        start = (r, c)
        tiles: list[int] = []
        total, word_mult = 0, 1
        while r < SIZE and c < SIZE and (tile := _tile(board, new, r, c)) is not None:
            points = alphabet.points(tile)
            if (r, c) in new:
                total += points * layout.letter_mult[r][c]
                word_mult *= layout.word_mult[r][c]
            else:
                total += points
            tiles.append(tile)
            r, c = r + dr, c + dc
        if len(tiles) < 2:
            return None
        return FormedWord(start[0], start[1], direction, tuple(tiles), total * word_mult)

    words = []
    main = run(move.row, move.col, move.direction)
    if main is not None:
        words.append(main)
    for row, col, _tile_code in placed:
        cross = run(row, col, move.direction.other)
        if cross is not None:
            words.append(cross)
    return words


def score_move(board: Board, move: Move) -> int:
    """Points the move scores on ``board`` (I.2): formed words plus the bingo bonus.

    Does not check the lexicon or connection rules. Raises ``PlacementError``
    as ``placed_tiles``.
    """
    total = sum(word.score for word in formed_words(board, move))
    if len(placed_tiles(board, move)) == RACK_SIZE:
        total += BINGO_BONUS
    return total


def _tile(board: Board, new: dict[tuple[int, int], int], row: int, col: int) -> int | None:
    existing = board.tiles[row][col]
    return existing if existing is not None else new.get((row, col))


def _square_text(row: int, col: int) -> str:
    name = ROW_NAMES[row] if 0 <= row < SIZE else f"fila {row + 1}"
    return f"{name}{col + 1}"
