"""Slips written on a paper board (II.8; III.20.1.c absolute board, III.20.1.d relative
board), turned into the canonical notation (III.20.1.a) by the rules, not by a screen.

II.8 lets the organiser admit, as an addition to the canonical notation, slips written on
a board: the player puts the new tiles on the squares they occupy (absolute board) or next
to the tiles already played (relative board). The assistant reads off the paper where the
first new tile goes, the direction and the new tiles; this module gives the canonical
notation of the main word they make, which is then judged like any slip.

**The board form** (what the assistant types, ``slip enter --board``, the ``tablero``
column of a slip file, F12 in the app): the square of the first *new* tile, an arrow and
the new tiles in order — ``H8 → CASA``, ``8F ↓ CASA``. The square is written row letter
and column number in either order (the arrow gives the direction, as in III.20.1.b);
across is ``→``, ``->`` or ``>``, down is ``↓`` or a lone ``v``; the letters as in the
canonical notation (a lowercase letter is a blank, III.20.3; ``[C]H`` two tiles, ``CH``
the digraph tile; ``(A)``, the circled letter of a paper slip, a blank A). The letters
are laid from the square along the direction, stepping over the squares already
occupied: ``H12 → S`` after ``H8-CASA`` is ``H8-CASAS``.

* ``parse_board_slip(text, alphabet)`` reads the board form → ``BoardSlip``;
* ``placed_word(board, row, col, direction, letters)`` lays the letters on the board;
* ``board_slip_notation(board, text)`` gives the canonical notation of a board form.

Errors are ``BoardNotationError`` (a ``ValueError``) with a Spanish message naming the text.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from duplicate.rules.notation import format_move
from duplicate.texts import SLIP_MAX, shown
from lexicon.alphabet import Alphabet, AlphabetError
from lexicon.board import ROW_NAMES, SIZE, Board, Direction, letter_of
from lexicon.move import Move

__all__ = ["BOARD_EXAMPLE", "BoardNotationError", "BoardSlip", "board_slip_notation", "parse_board_slip",
           "placed_word"]

BOARD_EXAMPLE = ("la casilla de la primera ficha nueva, la flecha (→ o > horizontal, ↓ o v vertical) y las "
                 "fichas nuevas, p. ej. «H8 → CASA» u «8F ↓ CASA»")
"""What a board form looks like, for every message that asks for one."""


class BoardNotationError(ValueError):
    """A board form that cannot be read or laid on the board; the message (Spanish) says why."""


@dataclass(frozen=True)
class BoardSlip:
    """A slip read off a paper board: ``row``/``col`` (0-based) of the first new tile, the
    ``direction`` and the new tiles' ``letters`` (notation text, lowercase = blank)."""

    row: int
    col: int
    direction: Direction
    letters: str

    @property
    def text(self) -> str:
        """The board form of this slip, e.g. ``"H8 → CASA"`` (what is stored as written)."""
        arrow = "→" if self.direction is Direction.ACROSS else "↓"
        return f"{ROW_NAMES[self.row]}{self.col + 1} {arrow} {self.letters}"


_BOARD_RE = re.compile(
    r"""^(?:(?P<row1>[^\W\d_])(?P<col1>[0-9]{1,2})|(?P<col2>[0-9]{1,2})(?P<row2>[^\W\d_]))
        \s*(?:(?P<arrow>→|⟶|->|>|↓)|(?<=\s)(?P<v>[vV])(?=\s))\s*
        (?P<letters>\S+)$""",
    re.VERBOSE,
)


def parse_board_slip(text: str, alphabet: Alphabet) -> BoardSlip:
    """Read a board form (see the module doc): ``"H8 → CASA"`` → ``BoardSlip(7, 7, ACROSS,
    "CASA")``. Raises ``BoardNotationError`` when the text is empty, longer than
    ``duplicate.texts.SLIP_MAX``, not of that shape, names a square off the board or has
    letters not of ``alphabet``."""
    if len(text) > SLIP_MAX:
        raise BoardNotationError(f"papeleta en tablero {shown(text)}: como máximo {SLIP_MAX} caracteres")
    slip = unicodedata.normalize("NFC", text).strip()
    if not slip:
        raise BoardNotationError(f"papeleta en tablero vacía: se espera {BOARD_EXAMPLE}")
    found = _BOARD_RE.match(slip)
    if found is None:
        raise BoardNotationError(f"papeleta en tablero «{slip}»: no se reconoce; se espera {BOARD_EXAMPLE}")
    row_text = found["row1"] or found["row2"]
    col_text = found["col1"] or found["col2"]
    row = ROW_NAMES.find(row_text.upper()) if len(row_text.upper()) == 1 else -1
    if row < 0:
        raise BoardNotationError(f"papeleta en tablero «{slip}»: la fila {row_text.upper()} no existe (filas A–O)")
    col = int(col_text) - 1
    if not 0 <= col < SIZE:
        raise BoardNotationError(f"papeleta en tablero «{slip}»: la columna {int(col_text)} no existe "
                                 "(columnas 1–15)")
    direction = Direction.DOWN if found["v"] or found["arrow"] == "↓" else Direction.ACROSS
    letters = re.sub(r"\(([^()\[\]]+)\)", lambda m: f"[{m.group(1).lower()}]", found["letters"])
    try:
        alphabet.tokenize(letters)
    except AlphabetError as error:
        raise BoardNotationError(f"papeleta en tablero «{slip}»: las letras no se pueden leer: {error}") from None
    return BoardSlip(row, col, direction, letters)


def placed_word(board: Board, row: int, col: int, direction: Direction, letters: str) -> tuple[Move, list[tuple[int, int, int]]]:
    """The main word made by laying ``letters`` (notation text: lowercase = blank) from
    ``(row, col)`` along ``direction``, stepping over occupied squares, and the tiles
    placed as ``(row, col, tile)``. The word runs over the tiles already on the board
    before the first new tile and after the last; tiles already on the board are written
    as plain letters (III.20.1.a). Raises ``BoardNotationError`` (Spanish) when a letter
    is not of the alphabet, there are none, or the word leaves the board."""
    alphabet = board.alphabet
    try:
        tiles = alphabet.tokenize(letters)
    except AlphabetError as error:
        raise BoardNotationError(str(error)) from None
    if not tiles:
        raise BoardNotationError("escriba las letras de la palabra")
    dr, dc = direction.step
    placed: list[tuple[int, int, int]] = []
    r, c = row, col
    for tile in tiles:
        while 0 <= r < SIZE and 0 <= c < SIZE and board.tiles[r][c] is not None:
            r, c = r + dr, c + dc
        if not (0 <= r < SIZE and 0 <= c < SIZE):
            raise BoardNotationError("la palabra se sale del tablero")
        placed.append((r, c, tile))
        r, c = r + dr, c + dc
    new = {(pr, pc): tile for pr, pc, tile in placed}

    def at(r: int, c: int) -> int | None:
        if not (0 <= r < SIZE and 0 <= c < SIZE):
            return None
        return new.get((r, c), board.tiles[r][c])

    r, c = placed[0][0], placed[0][1]
    while at(r - dr, c - dc) is not None:
        r, c = r - dr, c - dc
    start = (r, c)
    word: list[int] = []
    while (square := at(r, c)) is not None:
        word.append(square if (r, c) in new else letter_of(square))
        r, c = r + dr, c + dc
    return Move(start[0], start[1], direction, tuple(word)), placed


def board_slip_notation(board: Board, text: str) -> str:
    """The canonical notation (III.20.1.a) of the board form ``text`` laid on ``board``
    (the round's board before the master): ``"H12 → S"`` after ``H8-CASA`` gives
    ``"H8-CASAS"``. Whether the move is legal (rack, words, connection) is judged
    afterwards like any slip. Raises ``BoardNotationError`` (Spanish, naming ``text``)
    when the form cannot be read or the letters leave the board."""
    slip = parse_board_slip(text, board.alphabet)
    try:
        move, _ = placed_word(board, slip.row, slip.col, slip.direction, slip.letters)
    except BoardNotationError as error:
        raise BoardNotationError(f"papeleta en tablero «{text.strip()}»: {error}") from None
    return format_move(move, board.alphabet)
