"""The 15×15 board: premium layout, squares, tiles on it, and the CGP board text.

Rows are letters A–O (top to bottom), columns numbers 1–15 (left to right);
internally both are 0-based ints, ``(row, col)``. The premium layout is data
(``data/board-standard.txt``, rules I.2): letter premiums and word premiums
count only under tiles placed in the move that covers them.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from functools import cache
from pathlib import Path

import data
from lexicon.alphabet import BLANK_FLAG, Alphabet, AlphabetError

SIZE = 15
ROW_NAMES = "ABCDEFGHIJKLMNO"
CENTRE = (7, 7)
"""H8, the centre square: the first move covers it (I.2)."""


class BoardError(ValueError):
    """A board text (CGP) or layout file that cannot be read; the message names it."""


class Direction(Enum):
    """Direction of the main word (III.20.1)."""

    ACROSS = "across"
    DOWN = "down"

    @property
    def step(self) -> tuple[int, int]:
        """(row, col) increment along the direction."""
        return (0, 1) if self is Direction.ACROSS else (1, 0)

    @property
    def other(self) -> Direction:
        """The perpendicular direction."""
        return Direction.DOWN if self is Direction.ACROSS else Direction.ACROSS


@dataclass(frozen=True)
class Square:
    """One square, 0-based ``row`` (A=0) and ``col`` (1 → 0)."""

    row: int
    col: int

    @property
    def name(self) -> str:
        """Coordinate as written across: ``"H8"``."""
        return f"{ROW_NAMES[self.row]}{self.col + 1}"


@dataclass(frozen=True)
class Layout:
    """Premium squares: ``letter_mult[r][c]`` in {1,2,3}, ``word_mult[r][c]`` in {1,2,3}."""

    letter_mult: tuple[tuple[int, ...], ...]
    word_mult: tuple[tuple[int, ...], ...]

    def premium_name(self, row: int, col: int) -> str | None:
        """Spanish name of a premium square, or None for a plain one."""
        wm, lm = self.word_mult[row][col], self.letter_mult[row][col]
        if wm == 3:
            return "triple palabra"
        if wm == 2:
            return "doble palabra"
        if lm == 3:
            return "triple letra"
        if lm == 2:
            return "doble letra"
        return None


_PREMIUM_CHARS = {".": (1, 1), "'": (2, 1), '"': (3, 1), "-": (1, 2), "*": (1, 2), "=": (1, 3)}


def load_layout(path: Path) -> Layout:
    """Read a layout picture: 15 lines of 15 characters (``. ' " - * =``), ``#`` comments.

    Raises ``BoardError`` naming the file and line when it is malformed.
    """
    rows = [line.rstrip("\n") for line in path.read_text(encoding="utf-8").splitlines() if line and not line.startswith("#")]
    if len(rows) != SIZE:
        raise BoardError(f"{path}: se esperaban {SIZE} filas, hay {len(rows)}")
    letter_mult, word_mult = [], []
    for number, row in enumerate(rows, start=1):
        if len(row) != SIZE or any(ch not in _PREMIUM_CHARS for ch in row):
            raise BoardError(f"{path}: fila {number} debe tener {SIZE} casillas de «.'\"-*=»: «{row}»")
        letter_mult.append(tuple(_PREMIUM_CHARS[ch][0] for ch in row))
        word_mult.append(tuple(_PREMIUM_CHARS[ch][1] for ch in row))
    return Layout(tuple(letter_mult), tuple(word_mult))


@cache
def standard_layout() -> Layout:
    """The standard Scrabble premium layout (``data/board-standard.txt``)."""
    return load_layout(data.path("board-standard.txt"))


class Board:
    """Tiles on the 15×15 board. ``tiles[row][col]`` is a tile code or None.

    Tile codes are those of ``lexicon.alphabet`` (a blank on the board is
    ``letter | BLANK_FLAG``). The board is mutable: ``place`` adds tiles.
    """

    __slots__ = ("alphabet", "layout", "tiles")

    def __init__(self, alphabet: Alphabet, layout: Layout | None = None) -> None:
        self.alphabet = alphabet
        self.layout = layout or standard_layout()
        self.tiles: list[list[int | None]] = [[None] * SIZE for _ in range(SIZE)]

    def copy(self) -> Board:
        """An independent copy."""
        other = Board(self.alphabet, self.layout)
        other.tiles = [row[:] for row in self.tiles]
        return other

    def __getitem__(self, square: tuple[int, int]) -> int | None:
        return self.tiles[square[0]][square[1]]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and self.tiles == other.tiles and self.alphabet == other.alphabet

    __hash__ = None  # type: ignore[assignment]

    def is_empty(self) -> bool:
        """True when no tile is on the board."""
        return all(t is None for row in self.tiles for t in row)

    def tile_count(self) -> int:
        """Number of tiles on the board."""
        return sum(t is not None for row in self.tiles for t in row)

    def place(self, placed: list[tuple[int, int, int]] | tuple[tuple[int, int, int], ...]) -> None:
        """Put tiles on empty squares: ``placed`` is ``(row, col, tile)`` triples.

        Raises ``BoardError`` if a square is off the board or occupied; the
        board is unchanged then.
        """
        for row, col, _tile in placed:
            if not (0 <= row < SIZE and 0 <= col < SIZE):
                raise BoardError(f"casilla fuera del tablero: fila {row}, columna {col}")
            if self.tiles[row][col] is not None:
                raise BoardError(f"la casilla {Square(row, col).name} ya está ocupada")
        for row, col, tile in placed:
            self.tiles[row][col] = tile

    # --- CGP text -----------------------------------------------------------------
    def to_cgp(self) -> str:
        """The CGP board string: 15 rows top to bottom joined by ``/``, digits for
        runs of empty squares, uppercase tiles, lowercase blanks, digraphs as ``[CH]``."""
        rows = []
        for row in self.tiles:
            text, run, empty = [], [], 0
            for tile in [*row, None]:
                if tile is not None:
                    if empty:
                        text.append(str(empty))
                        empty = 0
                    run.append(tile)
                    continue
                if run:
                    text.append(self.alphabet.format(run, brackets=True))
                    run = []
                empty += 1
            if empty > 1:
                text.append(str(empty - 1))
            rows.append("".join(text))
        return "/".join(rows)

    @classmethod
    def from_cgp(cls, text: str, alphabet: Alphabet, layout: Layout | None = None) -> Board:
        """Read a CGP board string (see ``to_cgp``).

        Raises ``BoardError`` naming the row when a row is not 15 squares or
        holds something that is not a tile (digits 0–9 only; a run of empty squares
        longer than the row is refused before anything is built).
        """
        board = cls(alphabet, layout)
        if len(text) > 16 * SIZE * 4:
            raise BoardError(f"tablero CGP de {len(text)} caracteres: demasiado largo para un tablero de {SIZE}×{SIZE}")
        rows = text.strip().split("/")
        if len(rows) != SIZE:
            raise BoardError(f"tablero CGP «{text}»: se esperaban {SIZE} filas separadas por «/», hay {len(rows)}")
        for r, row_text in enumerate(rows):
            cells: list[int | None] = []
            i = 0
            while i < len(row_text):
                ch = row_text[i]
                if "0" <= ch <= "9":
                    j = i
                    while j < len(row_text) and "0" <= row_text[j] <= "9":
                        j += 1
                    empty = int(row_text[i:j]) if j - i <= 2 else SIZE + 1
                    if empty > SIZE - len(cells):
                        raise BoardError(f"fila {ROW_NAMES[r]} del tablero CGP («{row_text[:60]}»): "
                                         f"{row_text[i:j][:12]} casillas vacías no caben en la fila de {SIZE}")
                    cells.extend([None] * empty)
                    i = j
                    continue
                if ch == "[":
                    j = row_text.find("]", i)
                    if j < 0:
                        raise BoardError(f"fila {ROW_NAMES[r] if r < SIZE else r}: falta «]» en «{row_text}»")
                    piece = row_text[i : j + 1]
                    i = j + 1
                else:
                    piece = ch
                    i += 1
                try:
                    (tile,) = alphabet.tokenize(piece)
                except (AlphabetError, ValueError) as error:
                    raise BoardError(f"fila {ROW_NAMES[r]} del tablero CGP («{row_text}»): {error}") from None
                cells.append(tile)
            if len(cells) != SIZE:
                raise BoardError(f"fila {ROW_NAMES[r]} del tablero CGP («{row_text}»): {len(cells)} casillas, se esperaban {SIZE}")
            board.tiles[r] = cells
        return board

    def render(self) -> str:
        """A plain-text picture of the board (for the terminal): tiles, premiums as · ' \" - =."""
        marks = {(1, 1): "·", (2, 1): "'", (3, 1): '"', (1, 2): "-", (1, 3): "="}
        lines = ["    " + "".join(f"{c + 1:>3}" for c in range(SIZE))]
        for r in range(SIZE):
            cells = []
            for c in range(SIZE):
                tile = self.tiles[r][c]
                if tile is None:
                    mark = marks[(self.layout.letter_mult[r][c], self.layout.word_mult[r][c])]
                    cells.append(f"{mark:>3}")
                else:
                    cells.append(f"{self.alphabet.symbol(tile):>3}")
            lines.append(f"  {ROW_NAMES[r]} " + "".join(cells))
        return "\n".join(lines)


def letter_of(tile: int) -> int:
    """The letter a tile shows (drops the blank flag)."""
    return tile & ~BLANK_FLAG
