"""Move notation in and out, and the check of a player's slip (rules III.20, III.25.a, I.2).

* ``format_move(move, alphabet)`` writes the canonical notation (III.20.1.a):
  ``H8-CASA`` across (row letter first), ``8H-CASA`` down (column number
  first); the coordinate is the square of the main word's first tile, even if
  that tile was already on the board; the word includes the board's tiles;
  blanks played from the rack are lowercase (III.20.3).
* ``parse_move(text, alphabet)`` reads it back: ``parse_move(format_move(m)) == m``
  for every move. It also reads the oriented notation (III.20.1.b) and a few
  variants an assistant may type (see ``parse_move``).
* ``check_move(board, rack, slip, lexicon)`` checks a slip against the round's
  board and rack and returns the ``Placement`` with its score, or raises a
  ``SlipError`` subclass whose message (in Spanish) says what is wrong.

**Digraphs and brackets.** CH, LL and RR are single tiles and are written as
plain letters; the reader takes them greedily, so ``CHORRILLOS`` is
CH-O-RR-I-LL-O-S. When two tiles would read as one — a one-letter tile followed
by a tile whose text starts with a letter *of the same case* that joins it into
a digraph (C+H, L+L, R+R, L+LL, R+RR, c+h, ...) — the one-letter tile is
written in brackets: a C tile then an H tile is ``[C]H``, a blank c then a blank
h is ``[c]h``, an L then the LL tile is ``[L]LL``. A change of case already
separates them (``Ch`` is C then a blank H). Digraph tiles are never bracketed.
``[CH]`` and ``[ch]`` are accepted on input too.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from data.rules import BINGO_BONUS, RACK_SIZE
from duplicate.texts import SLIP_MAX, shown
from lexicon.alphabet import BLANK_FLAG, Alphabet, AlphabetError
from lexicon.board import CENTRE, ROW_NAMES, SIZE, Board, Direction, Square, letter_of
from lexicon.move import FormedWord, Move, formed_words, placed_tiles, score_move

if TYPE_CHECKING:   # annotations only: the compiled lexicon loads numpy (issue 38)
    from lexicon.lexicon import Lexicon

__all__ = [
    "FirstMoveError",
    "InvalidWordError",
    "LOWERCASE_HINT",
    "MisplacedError",
    "NotConnectedError",
    "NotationSyntaxError",
    "OffBoardError",
    "Placement",
    "PositionError",
    "SlipError",
    "TilesNotInRackError",
    "UnmarkedBlankError",
    "check_move",
    "format_move",
    "format_tiles",
    "parse_move",
]

LOWERCASE_HINT = "minúscula = comodín (Bloq Mayús)"
"""The one reminder, on every screen and message that reads a move, that a lowercase
letter is a blank (III.20.3) and that the other letters are typed with Caps Lock on."""

ACROSS_ARROW = "→"
DOWN_ARROW = "↓"


# --- errors -------------------------------------------------------------------------


class SlipError(ValueError):
    """A slip that cannot be scored as written. ``slip`` is the text as written
    (or the canonical text of the move given); the message, in Spanish, names it."""

    def __init__(self, message: str, *, slip: str = "") -> None:
        super().__init__(message)
        self.slip = slip


class NotationSyntaxError(SlipError):
    """Text that is not a move in canonical or oriented notation (III.20.1, III.20.4)."""


class PositionError(SlipError):
    """The word does not fit the board where written. ``swapped`` is the move with the
    same start square in the other direction (H8 ↔ 8H) when *that* one fits the board
    — the probable intended move — else None."""

    def __init__(self, message: str, *, slip: str = "", move: Move | None = None, swapped: Move | None = None) -> None:
        super().__init__(message, slip=slip)
        self.move = move
        self.swapped = swapped

    @property
    def swapped_matches(self) -> bool:
        """True if the swapped coordinate (same square, other direction) would have fitted."""
        return self.swapped is not None


class OffBoardError(PositionError):
    """A coordinate outside A–O / 1–15, or a word that runs off the board."""


class MisplacedError(PositionError):
    """The word does not match the board: a letter differs from a tile already there,
    the word as written is not the whole run of tiles (tiles touch its ends), it
    places no tile, or it has a single letter (III.20.1.a)."""


class NotConnectedError(PositionError):
    """A move (after the first) that touches no tile of the board (I.2)."""


class FirstMoveError(PositionError):
    """A first move that does not cover the centre square H8 or places a single tile (I.2)."""


class TilesNotInRackError(SlipError):
    """The move needs tiles the rack does not hold. ``missing`` lists them as tile codes
    (``alphabet.blank`` for a missing blank)."""

    def __init__(self, message: str, *, slip: str = "", missing: tuple[int, ...] = ()) -> None:
        super().__init__(message, slip=slip)
        self.missing = missing


class UnmarkedBlankError(SlipError):
    """A letter the rack can only supply with a blank, written without the blank mark
    (III.20.3); the move scores 0 (III.25.a). ``corrected`` is the move with the blank
    marked and ``corrected_score`` what it would have scored."""

    def __init__(self, message: str, *, slip: str = "", corrected: Move, corrected_score: int) -> None:
        super().__init__(message, slip=slip)
        self.corrected = corrected
        self.corrected_score = corrected_score


class InvalidWordError(SlipError):
    """Formed words not in the lexicon (I.2). ``words`` holds them as canonical text,
    main word first."""

    def __init__(self, message: str, *, slip: str = "", words: tuple[str, ...] = ()) -> None:
        super().__init__(message, slip=slip)
        self.words = words


# --- formatting ---------------------------------------------------------------------


def format_tiles(tiles: Sequence[int], alphabet: Alphabet) -> str:
    """Text of a tile sequence that reads back to the same tiles with ``alphabet.tokenize``.

    Letters uppercase, blanks (``letter | BLANK_FLAG``) lowercase, digraph tiles
    plain; a one-letter tile that would join the next tile into a digraph is
    bracketed (see the module doc). Raises ``ValueError`` for a code that is not
    a letter or a designated blank (e.g. ``alphabet.blank``).
    """
    for tile in tiles:
        if not 0 <= tile < 2 * BLANK_FLAG or letter_of(tile) >= alphabet.size:
            raise ValueError(f"código de ficha no válido en una jugada: {tile}")
    return alphabet.format(tiles)


def format_move(move: Move, alphabet: Alphabet, *, oriented: bool = False) -> str:
    """Canonical notation of ``move`` (III.20.1.a): ``"H8-CASA"`` across, ``"8H-CASA"`` down.

    The word includes tiles already on the board (as ``move.word`` does); blanks
    from the rack are lowercase. ``oriented=True`` appends the arrow of the
    oriented notation (III.20.1.b): ``"H8-CASA →"``, ``"8H-CASA ↓"``. Raises
    ``ValueError`` for a tile code that is not a letter or a designated blank.
    """
    text = f"{move.coordinate}-{format_tiles(move.word, alphabet)}"
    if oriented:
        text += " " + (ACROSS_ARROW if move.direction is Direction.ACROSS else DOWN_ARROW)
    return text


# --- parsing ------------------------------------------------------------------------

_DASHES = "\\-\u2010\u2011\u2012\u2013\u2014"
_SEP = rf"[\s{_DASHES}]"
_ARROW = r"→|⟶|->|>|↓"
_MOVE_RE = re.compile(
    rf"""
    ^\s*
    (?:(?P<pre>{_ARROW})\s*|(?P<pre_v>[vV])\s+)?
    (?:(?P<row1>[^\W\d_])(?P<col1>[0-9]+)|(?P<col2>[0-9]+)(?P<row2>[^\W\d_]))
    (?P<sep1>{_SEP}*)
    (?:(?P<mid>{_ARROW})|(?<={_SEP})(?P<mid_v>[vV])(?={_SEP}))?
    (?P<sep2>{_SEP}*)
    (?P<word>[^\s{_DASHES}→⟶↓>]+)
    (?:\s*(?P<post>{_ARROW})|\s+(?P<post_v>[vV]))?
    \s*$
    """,
    re.VERBOSE,
)
_EXAMPLE = "se espera la coordenada y la palabra, p. ej. H8-CASA (horizontal) u 8H-CASA (vertical)"


def parse_move(text: str, alphabet: Alphabet, *, oriented: bool = True) -> Move:
    """Read a move written in canonical notation (III.20.1.a) — syntax only, no board.

    ``"H8-CASA"`` is across (row letter first), ``"8H-CASA"`` down (column first).
    The coordinate's case is free; the word's is not: lowercase letters are
    blanks (III.20.3), and ``(A)`` — the circled letter of a paper slip — is
    read as a blank A too. Digraphs as in ``alphabet.tokenize`` (``[C]H`` is C
    then H). The coordinate and the word may be separated by hyphens, dashes or
    spaces, or not at all after a row-first coordinate (``H8CASA``); a
    column-first coordinate needs a separator (``8H CASA``), so that ``8CASA``
    (row forgotten) is not read as ``8C-ASA``.

    With ``oriented=True`` (default) the oriented notation (III.20.1.b) is read
    too: one arrow before, after or between the coordinate and the word —
    ``→``, ``⟶``, ``->`` or ``>`` across, ``↓`` or a lone ``v``/``V`` (set off by
    spaces) down — gives the direction whatever the coordinate order:
    ``"8H-CASA →"`` is across. With ``oriented=False`` an arrow is an error.

    Returns a ``Move`` whose word holds plain letters and ``letter | BLANK_FLAG``
    for lowercase ones. Raises ``NotationSyntaxError`` when the text is not a
    move (or is longer than ``duplicate.texts.SLIP_MAX``: refused in bounded time; the
    coordinate's digits are 0–9 only), ``OffBoardError`` when the coordinate is outside A–O / 1–15 or the word
    runs off the board.
    """
    move = _read(text, alphabet, oriented)
    squares = move.squares()
    last_row, last_col = squares[-1]
    if last_row >= SIZE or last_col >= SIZE:
        slip = text.strip()
        raise OffBoardError(f"«{slip}»: {_off_board_reason(move, alphabet)}", slip=slip, move=move)
    return move


def _read(text: str, alphabet: Alphabet, oriented: bool) -> Move:
    """Parse ``text`` checking the coordinate but not whether the word fits the board."""
    if len(text) > SLIP_MAX:        # bounded time: no slip is longer (the pattern backtracks on runs)
        raise NotationSyntaxError(f"papeleta {shown(text)}: como máximo {SLIP_MAX} caracteres; {_EXAMPLE}",
                                  slip=text[:SLIP_MAX])
    slip = unicodedata.normalize("NFC", text).strip()
    if not slip:
        raise NotationSyntaxError("papeleta vacía: " + _EXAMPLE, slip=slip)
    found = _MOVE_RE.match(slip)
    if found is None:
        raise NotationSyntaxError(f"«{slip}»: no se reconoce la notación; {_EXAMPLE} (III.20.1.a)", slip=slip)
    groups = found.groupdict()
    arrows = [groups[name] for name in ("pre", "pre_v", "mid", "mid_v", "post", "post_v") if groups[name]]
    if arrows and not oriented:
        raise NotationSyntaxError(
            f"«{slip}»: la notación orientada (con flecha, III.20.1.b) no está admitida: el organizador no la ha "
            "admitido en este torneo (II.8); anote la jugada en la forma canónica, como H8-CASA", slip=slip
        )
    if len(arrows) > 1:
        raise NotationSyntaxError(f"«{slip}»: hay más de una flecha; anote una sola orientación", slip=slip)
    row_first = groups["row1"] is not None
    row_text = groups["row1"] if row_first else groups["row2"]
    col_text = groups["col1"] if row_first else groups["col2"]
    if not row_first and not any(groups[name] for name in ("sep1", "mid", "mid_v", "sep2")):
        raise NotationSyntaxError(
            f"«{slip}»: falta la fila de la coordenada o el guion que la separa de la palabra (p. ej. 8H-CASA)",
            slip=slip,
        )
    row = ROW_NAMES.find(row_text.upper()) if len(row_text.upper()) == 1 else -1
    if row < 0:
        raise OffBoardError(f"«{slip}»: la fila {row_text.upper()} no existe (filas A–O)", slip=slip)
    col = int(col_text) - 1
    if not 0 <= col < SIZE:
        raise OffBoardError(f"«{slip}»: la columna {int(col_text)} no existe (columnas 1–15)", slip=slip)
    if arrows:
        direction = Direction.DOWN if arrows[0] in ("↓", "v", "V") else Direction.ACROSS
    else:
        direction = Direction.ACROSS if row_first else Direction.DOWN
    word_text = re.sub(r"\(([^()\[\]]+)\)", lambda m: f"[{m.group(1).lower()}]", groups["word"])
    try:
        word = alphabet.tokenize(word_text)
    except AlphabetError as error:
        raise NotationSyntaxError(f"«{slip}»: la palabra no se puede leer: {error}", slip=slip) from None
    return Move(row, col, direction, tuple(word))


def _off_board_reason(move: Move, alphabet: Alphabet) -> str:
    limit = "la fila O" if move.direction is Direction.DOWN else "la columna 15"
    return (
        f"la palabra {format_tiles(move.word, alphabet)} no cabe: desde {Square(move.row, move.col).name} "
        f"ocupa {len(move.word)} casillas y el tablero acaba en {limit}"
    )


# --- checking a slip ----------------------------------------------------------------


@dataclass(frozen=True)
class Placement:
    """A slip checked against a board and rack (I.2): the move (tiles already on the
    board as plain letters), its canonical ``notation``, the ``placed`` tiles as
    ``(row, col, tile)``, every formed word (main word first), the ``score``
    including the bingo bonus, and whether it is a ``bingo`` (7 tiles placed)."""

    move: Move
    notation: str
    placed: tuple[tuple[int, int, int], ...]
    words: tuple[FormedWord, ...]
    score: int
    bingo: bool


def check_move(board: Board, rack: Sequence[int], slip: str | Move, lexicon: Lexicon, *, oriented: bool = True) -> Placement:
    """Check a slip — text as written, or a ``Move`` — against ``board`` and ``rack``
    (tile codes, ``alphabet.blank`` for a blank) and score it.

    Checks, in this order (the first problem found is raised):

    1. notation — ``NotationSyntaxError``, ``OffBoardError`` (III.20.1);
    2. position — ``MisplacedError``, ``FirstMoveError``, ``NotConnectedError``
       (III.20.1.a, I.2); these and ``OffBoardError`` carry ``swapped``, the same
       square in the other direction when that would have fitted;
    3. rack — ``TilesNotInRackError`` naming the missing tiles; a lowercase letter
       on a tile already on the board is fine (III.25.a);
    4. lexicon — ``InvalidWordError`` naming the formed words not in it (I.2);
    5. blank marks — ``UnmarkedBlankError`` (III.20.3, III.25.a) when an uppercase
       letter could only come from a blank; ``corrected`` marks it (where it
       scores most; earliest on ties).

    All are ``SlipError`` (a ``ValueError``). Returns a ``Placement``.
    """
    alphabet = board.alphabet
    if isinstance(slip, Move):
        move = slip
        try:
            text = format_move(move, alphabet)
        except ValueError as error:
            raise NotationSyntaxError(f"jugada no válida {move!r}: {error}") from None
        if not (0 <= move.row < SIZE and 0 <= move.col < SIZE) or not move.word:
            raise OffBoardError(f"«{text}»: la casilla de salida no está en el tablero", slip=text, move=move)
    else:
        text = slip.strip()
        move = _read(slip, alphabet, oriented)
    problem = _position_problem(board, move, alphabet)
    if problem is not None:
        error_class, reason = problem
        swapped = _normalise(board, Move(move.row, move.col, move.direction.other, move.word))
        if _position_problem(board, swapped, alphabet) is not None:
            raise error_class(f"«{text}»: {reason}", slip=text, move=move)
        hint = f"; con la coordenada cambiada, {format_move(swapped, alphabet)}, la palabra sí encaja"
        raise error_class(f"«{text}»: {reason}{hint}", slip=text, move=move, swapped=swapped)
    move = _normalise(board, move)
    placed = placed_tiles(board, move)
    short = _rack_shortfall(placed, rack, alphabet, text)
    words = tuple(formed_words(board, move))
    invalid = tuple(format_tiles(word.letters, alphabet) for word in words if word.letters not in lexicon)
    if invalid:
        label = "palabra no válida" if len(invalid) == 1 else "palabras no válidas"
        raise InvalidWordError(f"«{text}»: {label} (I.2): {', '.join(invalid)}", slip=text, words=invalid)
    if short:
        corrected, corrected_score = _mark_blanks(board, move, short)
        letters = ", ".join(alphabet.display((letter,)) for letter in sorted(short.elements()))
        raise UnmarkedBlankError(
            f"«{text}»: comodín sin marcar (III.25.a): el atril no tiene {letters} y la ficha sale de un comodín; "
            f"anotada bien sería {format_move(corrected, alphabet)} ({corrected_score} puntos). La jugada vale 0 puntos",
            slip=text,
            corrected=corrected,
            corrected_score=corrected_score,
        )
    bingo = len(placed) == RACK_SIZE
    return Placement(
        move=move,
        notation=format_move(move, alphabet),
        placed=placed,
        words=words,
        score=sum(word.score for word in words) + (BINGO_BONUS if bingo else 0),   # score_move's sum, words formed once
        bingo=bingo,
    )


def _normalise(board: Board, move: Move) -> Move:
    """The move with tiles on squares already occupied written as plain letters (III.25.a)."""
    word = []
    for (row, col), tile in zip(move.squares(), move.word):
        inside = 0 <= row < SIZE and 0 <= col < SIZE
        word.append(letter_of(tile) if inside and board.tiles[row][col] is not None else tile)
    return Move(move.row, move.col, move.direction, tuple(word))


def _position_problem(board: Board, move: Move, alphabet: Alphabet) -> tuple[type[PositionError], str] | None:
    """Why the move does not fit the board (error class and Spanish reason), or None."""
    squares = move.squares()
    last_row, last_col = squares[-1]
    if last_row >= SIZE or last_col >= SIZE:
        return OffBoardError, _off_board_reason(move, alphabet)
    empty = board.is_empty()
    if len(move.word) < 2:
        if empty:
            return FirstMoveError, "la primera jugada debe colocar al menos dos fichas (I.2)"
        return MisplacedError, "la palabra principal debe tener al menos dos letras; anote la palabra que se forma"
    for (row, col), tile in zip(squares, move.word):
        existing = board.tiles[row][col]
        if existing is not None and letter_of(existing) != letter_of(tile):
            there, typed = alphabet.display((letter_of(existing),)), alphabet.display((letter_of(tile),))
            return MisplacedError, f"en {Square(row, col).name} ya hay {there}, no {typed}"
    if all(board.tiles[row][col] is not None for row, col in squares):
        return MisplacedError, "todas sus casillas ya están ocupadas: no coloca ninguna ficha"
    run = _full_run(board, move)
    if len(run) > len(move.word):
        return MisplacedError, (
            f"la palabra principal no está completa: hay fichas pegadas a sus extremos "
            f"(la palabra formada es {format_tiles(run, alphabet)})"
        )
    if empty:
        if CENTRE not in squares:
            return FirstMoveError, f"la primera jugada debe pasar por la casilla central {Square(*CENTRE).name} (I.2)"
    elif not _connected(board, squares):
        return NotConnectedError, "la palabra no toca ninguna ficha del tablero (I.2)"
    return None


def _full_run(board: Board, move: Move) -> list[int]:
    """Letters of the whole run of tiles along the move's line through its word."""
    dr, dc = move.direction.step
    row, col = move.row, move.col
    before: list[int] = []
    while 0 <= row - dr and 0 <= col - dc and (tile := board.tiles[row - dr][col - dc]) is not None:
        before.append(letter_of(tile))
        row, col = row - dr, col - dc
    row, col = move.squares()[-1]
    after: list[int] = []
    while row + dr < SIZE and col + dc < SIZE and (tile := board.tiles[row + dr][col + dc]) is not None:
        after.append(letter_of(tile))
        row, col = row + dr, col + dc
    return before[::-1] + [letter_of(tile) for tile in move.word] + after


def _connected(board: Board, squares: list[tuple[int, int]]) -> bool:
    for row, col in squares:
        if board.tiles[row][col] is not None:
            return True
        for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
            if 0 <= r < SIZE and 0 <= c < SIZE and board.tiles[r][c] is not None:
                return True
    return False


def _rack_shortfall(placed: tuple[tuple[int, int, int], ...], rack: Sequence[int], alphabet: Alphabet,
                    text: str) -> Counter[int]:
    """Letters written uppercase that only the rack's spare blanks can supply (empty if
    none). Raises ``TilesNotInRackError`` when even the blanks are not enough."""
    available = Counter(rack)
    blanks = available.pop(alphabet.blank, 0)
    letters = Counter(tile for _row, _col, tile in placed if not tile & BLANK_FLAG)
    blanks_needed = sum(1 for _row, _col, tile in placed if tile & BLANK_FLAG)
    short = Counter({letter: count - available[letter] for letter, count in letters.items() if count > available[letter]})
    if blanks_needed + short.total() <= blanks:
        return short
    missing = tuple(sorted(short.elements())) + (alphabet.blank,) * max(0, blanks_needed - blanks)
    names = ", ".join("comodín" if tile == alphabet.blank else alphabet.display((tile,)) for tile in missing)
    spare = max(0, blanks - blanks_needed)
    note = f" (y solo {spare} comodín libre)" if spare and short else ""
    raise TilesNotInRackError(
        f"«{text}»: faltan en el atril {_rack_text(rack, alphabet)}: {names}{note}",
        slip=text,
        missing=missing,
    )


def _rack_text(rack: Sequence[int], alphabet: Alphabet) -> str:
    """The rack as messages show it: letters in code order, digraph tiles in brackets
    (``AAEIOQ[RR]``, as racks are shown everywhere), blanks last."""
    letters = sorted(tile for tile in rack if tile != alphabet.blank)
    return alphabet.display(letters) + "?" * (len(rack) - len(letters))


def _mark_blanks(board: Board, move: Move, short: Counter[int]) -> tuple[Move, int]:
    """The move with blanks marked for the ``short`` letters, placed where it scores most."""
    new_positions = [
        index for index, ((row, col), tile) in enumerate(zip(move.squares(), move.word))
        if board.tiles[row][col] is None and not tile & BLANK_FLAG
    ]
    per_letter = [
        itertools.combinations([i for i in new_positions if move.word[i] == letter], count)
        for letter, count in sorted(short.items())
    ]
    best: tuple[Move, int] | None = None
    for choice in itertools.product(*per_letter):
        word = list(move.word)
        for index in itertools.chain.from_iterable(choice):
            word[index] |= BLANK_FLAG
        candidate = Move(move.row, move.col, move.direction, tuple(word))
        points = score_move(board, candidate)
        if best is None or points > best[1]:
            best = (candidate, points)
    assert best is not None
    return best
