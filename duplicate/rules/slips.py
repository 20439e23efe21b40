"""Judging one player's slip in a round (rules III.13, III.20, III.23, III.25).

* ``judge_slip(board, rack, text, lexicon)`` reads the slip as the assistant typed
  it, checks it against the round's board and rack (``duplicate.rules.notation.check_move``)
  and returns a ``SlipVerdict``: a status (a stable storage code), the points the slip
  earns this round (III.23: the move's score if valid, else 0), the move as read,
  a Spanish reason and, where one can be found, a hint — the move the player
  probably meant.
* ``mark_verdict(status)`` is the verdict of a slip the assistant *marks* rather than
  types: late (III.13, III.25.b), null (III.20.2, III.20.4) or missing. All score 0.

Bad slip text is data, not an error: ``judge_slip`` returns a verdict for any text
and raises only for programming errors (a rack with codes outside the alphabet, ...).

**The hint for a misplaced word** (statuses ``misplaced``, ``not_connected``,
``off_board``). The probable intended move is searched among every legal placement
of the same word (same letters, any blank marks) on the board with the round's rack:

1. the nearest start square to the one written (Manhattan distance in squares), so
   the swapped coordinate (``H8`` for ``8H``, distance 0, other direction) comes
   first when it is legal — the commonest mistake (III.25.c, "orden equivocado");
2. then the direction written;
3. then the higher score;
4. then the smaller row, then column (to be reproducible).

A placement counts if ``check_move`` accepts it with the blank marks as written, or,
failing that, with the blanks marked where they score most. The hint is only
advice for the assistant and the player: the slip still scores 0 (III.25.c).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from duplicate.rules.notation import (
    LOWERCASE_HINT,
    FirstMoveError,
    InvalidWordError,
    MisplacedError,
    NotationSyntaxError,
    NotConnectedError,
    OffBoardError,
    PositionError,
    SlipError,
    TilesNotInRackError,
    UnmarkedBlankError,
    check_move,
    format_move,
    parse_move,
)
from lexicon.alphabet import BLANK_FLAG
from lexicon.board import SIZE, Board, Direction, letter_of
from lexicon.move import Move

if TYPE_CHECKING:   # the compiled lexicon loads numpy: annotations only (issue 38)
    from lexicon.lexicon import Lexicon

__all__ = ["MARK_NAMES", "MARK_WORDS", "SlipStatus", "SlipVerdict", "judge_slip", "mark_verdict", "read_mark"]


class SlipStatus(StrEnum):
    """What the arbitration made of a slip. The values are stable storage codes."""

    VALID = "valid"
    SYNTAX = "syntax"
    """Unreadable notation as typed (III.20.1, III.20.4)."""
    OFF_BOARD = "off_board"
    """A coordinate outside A–O / 1–15, or a word running off the board (III.25.c)."""
    MISPLACED = "misplaced"
    """The word does not match the board at the coordinate written (III.25.c)."""
    NOT_CONNECTED = "not_connected"
    """The word touches no tile, or a first move does not cover H8 (I.2)."""
    NOT_IN_RACK = "not_in_rack"
    """The move needs a tile the rack does not hold."""
    UNMARKED_BLANK = "unmarked_blank"
    """A blank from the rack not marked on the slip (III.20.3, III.25.a)."""
    INVALID_WORD = "invalid_word"
    """A formed word not in the lexicon (I.2, III.23)."""
    LATE = "late"
    """Not raised at «TIEMPO» (III.13, III.25.b); marked by the assistant."""
    NULL = "null"
    """Illegible, several moves noted, or player unidentifiable (III.20.2, III.20.4); marked."""
    MISSING = "missing"
    """No slip handed in; marked."""


MARKED_STATUSES = frozenset({SlipStatus.LATE, SlipStatus.NULL, SlipStatus.MISSING})
"""Statuses set by the assistant, not read from a slip's text (see ``mark_verdict``)."""

MARK_NAMES: Mapping[SlipStatus, str] = {
    SlipStatus.LATE: "tarde",
    SlipStatus.NULL: "nula",
    SlipStatus.MISSING: "no-entregada",
}
"""The word a station types for each mark (``slip mark 12 tarde``), in the order offered."""

MARK_WORDS: Mapping[str, SlipStatus] = {
    "tarde": SlipStatus.LATE, "fuera de tiempo": SlipStatus.LATE,
    "nula": SlipStatus.NULL, "nulo": SlipStatus.NULL,
    "no entregada": SlipStatus.MISSING, "no entregado": SlipStatus.MISSING, "sin papeleta": SlipStatus.MISSING,
    "falta": SlipStatus.MISSING,
    # The storage codes, still accepted (scripts written before the Spanish words).
    "late": SlipStatus.LATE, "null": SlipStatus.NULL, "missing": SlipStatus.MISSING,
}
"""Words taken as a mark wherever a slip or a mark is typed (``read_mark``): lowercase,
without accents, words separated by one space. No move notation looks like them (a move
has a coordinate), so a slip typed «tarde» is the late mark, never an unreadable move."""


def read_mark(text: str) -> SlipStatus | None:
    """The mark ``text`` names (``MARK_WORDS``), or None. Case, accents, hyphens and
    spaces do not matter: «Tarde», « NULA », «No-Entregada» are marks; «H8-CASA» is not."""
    folded = "".join(char for char in unicodedata.normalize("NFD", text.casefold())
                     if not unicodedata.combining(char))
    return MARK_WORDS.get(" ".join(folded.replace("-", " ").replace("_", " ").split()))


@dataclass(frozen=True)
class SlipVerdict:
    """The judgement of one slip.

    ``status``; ``score``: points the slip earns this round (III.23), 0 unless
    ``VALID``; ``move``: the move as read (for ``VALID`` the move played, tiles
    already on the board as plain letters), None if the text is unreadable or the
    slip was marked; ``canonical``: canonical notation of ``move`` (III.20.1.a) or
    None; ``reason``: Spanish explanation, ``''`` when valid; ``hint``: Spanish, the
    probable intended move (``"¿quiso decir 8H-CASA (24)?"``) or None;
    ``hint_score``: that move's score; ``words``: the invalid words (``INVALID_WORD``)
    as canonical text, main word first; ``slip``: the text as given.
    """

    status: SlipStatus
    score: int
    move: Move | None
    canonical: str | None
    reason: str
    hint: str | None
    hint_score: int | None
    words: tuple[str, ...] = ()
    slip: str = ""

    @property
    def valid(self) -> bool:
        """True when the slip scores its move."""
        return self.status is SlipStatus.VALID


_POSITION_STATUS: dict[type[PositionError], SlipStatus] = {
    OffBoardError: SlipStatus.OFF_BOARD,
    MisplacedError: SlipStatus.MISPLACED,
    NotConnectedError: SlipStatus.NOT_CONNECTED,
    FirstMoveError: SlipStatus.NOT_CONNECTED,
}


def judge_slip(board: Board, rack: Sequence[int], text: str, lexicon: Lexicon, *, oriented: bool = True) -> SlipVerdict:
    """Judge the slip ``text`` against the round's ``board`` (before the master move)
    and ``rack`` (tile codes, ``alphabet.blank`` for a blank) — III.20, III.23, III.25.

    ``oriented``: whether the oriented notation (III.20.1.b) is admitted in this
    tournament. Returns a ``SlipVerdict`` for any text (never raises ``SlipError``);
    statuses ``LATE``, ``NULL`` and ``MISSING`` never come from here (see
    ``mark_verdict``). Position errors carry a hint (see the module doc);
    ``UNMARKED_BLANK`` carries the correctly marked move and what it would have scored.
    """
    alphabet = board.alphabet
    slip = text.strip()
    try:
        placement = check_move(board, rack, text, lexicon, oriented=oriented)
    except NotationSyntaxError as error:
        return SlipVerdict(SlipStatus.SYNTAX, 0, None, None, str(error), None, None, slip=slip)
    except PositionError as error:
        status = next(code for kind, code in _POSITION_STATUS.items() if isinstance(error, kind))
        move = error.move
        canonical = format_move(move, alphabet) if move is not None else None
        hint = hint_score = None
        if move is not None:
            nearest = nearest_legal_move(board, rack, move, lexicon)
            if nearest is not None:
                hint, hint_score = _did_you_mean(nearest[0], nearest[1], board), nearest[1]
        return SlipVerdict(status, 0, move, canonical, str(error), hint, hint_score, slip=slip)
    except UnmarkedBlankError as error:
        move = parse_move(text, alphabet, oriented=oriented)
        return SlipVerdict(
            SlipStatus.UNMARKED_BLANK, 0, move, format_move(move, alphabet), str(error),
            _did_you_mean(error.corrected, error.corrected_score, board), error.corrected_score, slip=slip,
        )
    except InvalidWordError as error:
        move = parse_move(text, alphabet, oriented=oriented)
        return SlipVerdict(SlipStatus.INVALID_WORD, 0, move, format_move(move, alphabet), str(error), None, None,
                           words=error.words, slip=slip)
    except TilesNotInRackError as error:
        move = parse_move(text, alphabet, oriented=oriented)
        hint = hint_score = None
        if any(tile & BLANK_FLAG for tile in move.word):
            # Lowercase letters are blanks (III.20.3): a slip typed in lowercase by habit
            # is probably the same move in capitals.
            hint, hint_score = _capitals_hint(board, rack, move, lexicon, oriented)
        return SlipVerdict(SlipStatus.NOT_IN_RACK, 0, move, format_move(move, alphabet), str(error), hint,
                           hint_score, slip=slip)
    return SlipVerdict(SlipStatus.VALID, placement.score, placement.move, placement.notation, "", None, None, slip=slip)


def mark_verdict(status: SlipStatus, text: str = "", *, detail: str = "") -> SlipVerdict:
    """Verdict of a slip the assistant marks: ``LATE`` (III.13, III.25.b), ``NULL``
    (III.20.2, III.20.4) or ``MISSING``; score 0, no move.

    ``text``: what was written on the slip, if anything (kept in ``slip`` and quoted
    in the reason); ``detail``: an optional Spanish note appended to the reason (e.g.
    «caligrafía ininteligible»). Raises ``ValueError`` for any other status.
    """
    status = SlipStatus(status)
    if status not in MARKED_STATUSES:
        raise ValueError(f"el estado {status.value!r} no se marca a mano; use judge_slip para leer la papeleta")
    slip = text.strip()
    reason = {
        SlipStatus.LATE: "jugada entregada fuera de tiempo (III.13, III.25.b): 0 puntos",
        SlipStatus.NULL: "papeleta nula (III.20.2, III.20.4): ininteligible, con varias jugadas anotadas "
                         "o sin jugador identificable: 0 puntos",
        SlipStatus.MISSING: "no entregó papeleta: 0 puntos (III.23)",
    }[status]
    if slip:
        reason = f"«{slip}»: {reason}"
    if detail:
        reason = f"{reason} ({detail})"
    return SlipVerdict(status, 0, None, None, reason, None, None, slip=slip)


def nearest_legal_move(board: Board, rack: Sequence[int], move: Move, lexicon: Lexicon) -> tuple[Move, int] | None:
    """The probable intended placement of ``move``'s word: the legal placement of the
    same letters on ``board`` with ``rack`` nearest to ``move``'s start square, as
    ``(move, score)``; None if the word fits nowhere. Order: distance, same direction,
    higher score, row, column (see the module doc). ``move`` itself counts if legal.
    """
    letters = tuple(letter_of(tile) for tile in move.word)
    length = len(letters)
    if length < 2:
        return None
    # Candidates nearest first (the swapped coordinate is at distance 0): the full check
    # runs only until the nearest legal placements are found, so the common mistake costs
    # two checks, not a scan of the board.
    candidates = []
    for direction in (Direction.ACROSS, Direction.DOWN):
        dr, dc = direction.step
        for row in range(SIZE - dr * (length - 1)):
            for col in range(SIZE - dc * (length - 1)):
                if _fits(board, row, col, dr, dc, letters):
                    distance = abs(row - move.row) + abs(col - move.col)
                    candidates.append((distance, direction is not move.direction, row, col, direction))
    candidates.sort(key=lambda candidate: candidate[:4])
    best: tuple[tuple[int, int, int, int, int], Move, int] | None = None
    for distance, other_direction, row, col, direction in candidates:
        if best is not None and distance > best[0][0]:
            break
        found = _legal_as(board, rack, Move(row, col, direction, move.word), letters, lexicon)
        if found is None:
            continue
        key = (distance, other_direction, -found[1], row, col)
        if best is None or key < best[0]:
            best = (key, found[0], found[1])
    return None if best is None else (best[1], best[2])


def _fits(board: Board, row: int, col: int, dr: int, dc: int, letters: tuple[int, ...]) -> bool:
    """Cheap pre-check: the letters agree with the board's tiles and one square is empty."""
    tiles = board.tiles
    empty = False
    for i, letter in enumerate(letters):
        tile = tiles[row + dr * i][col + dc * i]
        if tile is None:
            empty = True
        elif letter_of(tile) != letter:
            return False
    return empty


def _legal_as(board: Board, rack: Sequence[int], move: Move, letters: tuple[int, ...],
              lexicon: Lexicon) -> tuple[Move, int] | None:
    """``(move played, score)`` if the placement is legal with the blank marks as written
    or, failing that, with blanks where they score most; else None."""
    plain = Move(move.row, move.col, move.direction, letters)
    for candidate in (move, plain) if move.word != letters else (plain,):
        try:
            placement = check_move(board, rack, candidate, lexicon)
        except UnmarkedBlankError as error:
            return error.corrected, error.corrected_score
        except SlipError:
            continue
        return placement.move, placement.score
    return None


def _capitals_hint(board: Board, rack: Sequence[int], move: Move, lexicon: Lexicon,
                   oriented: bool) -> tuple[str | None, int | None]:
    """The hint for a slip whose lowercase letters (blanks) the rack cannot supply: the
    same move in capitals, if that is valid."""
    capitals = Move(move.row, move.col, move.direction, tuple(letter_of(tile) for tile in move.word))
    try:
        placement = check_move(board, rack, capitals, lexicon, oriented=oriented)
    except SlipError:
        return None, None
    return f"{_did_you_mean(placement.move, placement.score, board)} — {LOWERCASE_HINT}", placement.score


def _did_you_mean(move: Move, score: int, board: Board) -> str:
    return f"¿quiso decir {format_move(move, board.alphabet)} ({score})?"
