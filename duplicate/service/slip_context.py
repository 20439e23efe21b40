"""What entering and correcting a slip work with (II.8, III.20, III.25, III.29): the
``SlipContext`` of one player's slip in one round (the round's board and rack, the
lexicon, the master and whether it was annulled, the tournament's notation settings),
the board form of a slip written on a paper board (``BoardWritten``, ``board_canonical``,
II.8, III.20.1.c–d), and the stored form of a verdict (``stored_verdict``: an annulled
master's move scores 0, III.29) and its event payload (the projector writes the ``Slip``
row from the event, ``duplicate.storage.projection.slips``).
Used by slip entry (``slip_entry``, ``slip_batch``), corrections and results.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from duplicate.rules.board_notation import BoardNotationError, board_slip_notation
from duplicate.rules.rack import RackError, parse_rack_text
from duplicate.service.base import ANNULLED, MARK_STATUSES
from duplicate.service.errors import DamagedData, InvalidSlip
from duplicate.rules.slips import SlipStatus, SlipVerdict
from duplicate.storage.models import RoundRow, Slip
from duplicate.storage.projection.slips import ANNULLED_REASON
from lexicon.board import Board, BoardError

if TYPE_CHECKING:   # the compiled lexicon loads numpy: annotations only (issue 38)
    from lexicon.lexicon import Lexicon

__all__ = [
    "BOARD_REFUSED",
    "BoardWritten",
    "SlipContext",
    "board_canonical",
    "rebased",
    "round_version",
    "same_slip",
    "slip_payload",
    "stored_board",
    "stored_rack",
    "stored_verdict",
    "verdict_payload",
]


@dataclass(frozen=True)
class SlipContext:
    """One player's slip in one round: where it goes (tournament, game, round, entry,
    player, table) and what it is judged against (board, rack, lexicon, notation settings,
    the master and whether it was annulled, III.29)."""

    tournament_id: int
    game_id: int
    round_number: int
    entry_id: int
    player: str
    table: int
    board: Board
    rack: list[int]
    lexicon: Lexicon
    oriented: bool
    master: str | None
    annulled: bool
    board_allowed: bool = False
    version: tuple[str, str, str | None, bool] | None = None
    """What the slip was judged against as the round row stored it when read
    (``round_version``): the write transaction reads it again and compares (issue 34 §1)."""


def round_version(row: RoundRow) -> tuple[str, str, str | None, bool]:
    """What a slip of the round ``row`` is judged against, as stored: the rack, the board
    before the round, the master and whether it was annulled (III.29). Two equal versions
    judge every slip alike."""
    return row.rack, row.board_before, row.master, row.annulled


def rebased(context: SlipContext, fresh: SlipContext) -> SlipContext:
    """``context`` (a player's slip) judged against the round as ``fresh`` (another
    context of the same round, read later) has it: its board, rack, lexicon, settings,
    master and version."""
    return replace(context, board=fresh.board, rack=fresh.rack, lexicon=fresh.lexicon, oriented=fresh.oriented,
                   master=fresh.master, annulled=fresh.annulled, board_allowed=fresh.board_allowed,
                   version=fresh.version)


@dataclass(frozen=True)
class BoardWritten:
    """A slip written on a paper board (II.8, III.20.1.c–d), in a batch of
    ``enter_slips``: ``text`` is the board form as typed (``duplicate.rules.board_notation``)."""

    text: str


BOARD_REFUSED = ("la notación de tablero no está admitida en este torneo: II.8 solo admite notaciones "
                 "alternativas a la canónica si el organizador lo decide (ajuste «notación de tablero»); "
                 "anote la papeleta en notación canónica, p. ej. H8-CASA")
"""Why a board form is refused when the tournament does not admit it (II.8)."""


def board_canonical(context: SlipContext, text: str, where: str = "") -> str:
    """The canonical notation of the board form ``text`` on the round's board (II.8,
    III.20.1.c–d; ``duplicate.rules.board_notation``). Raises ``InvalidSlip`` (Spanish) when
    the tournament does not admit the board notation (II.8) or the form cannot be laid on
    the board; nothing is stored then."""
    prefix = f"{where}: " if where else ""
    if not context.board_allowed:
        raise InvalidSlip(prefix + BOARD_REFUSED, what=where or "la papeleta", value=text)
    try:
        return board_slip_notation(context.board, text)
    except BoardNotationError as error:
        raise InvalidSlip(f"{prefix}{error}", what=where or "la papeleta", value=text) from None


def stored_board(cgp: str, lexicon: Lexicon) -> Board:
    """A round's stored board; ``DamagedData`` when it does not read (the service stored a valid one)."""
    try:
        return Board.from_cgp(cgp, lexicon.alphabet)
    except (BoardError, TypeError) as error:
        raise DamagedData(f"el tablero guardado de una ronda no se lee ({error}): la base de datos está dañada; "
                          "restaure una copia") from None


def stored_rack(text: str, lexicon: Lexicon) -> list[int]:
    """A round's stored rack; ``DamagedData`` when it does not read."""
    try:
        return parse_rack_text(text, lexicon.alphabet)
    except (RackError, TypeError) as error:
        raise DamagedData(f"el atril guardado de una ronda no se lee ({error}): la base de datos está dañada; "
                          "restaure una copia") from None


def same_slip(stored: Slip, text: str, verdict: SlipVerdict, context: SlipContext) -> bool:
    """Whether ``text`` (judged ``verdict``) is the slip already ``stored``: the same text,
    or the same move read from it — another spelling (accents, a lowercase coordinate, the
    oriented notation's arrow, spaces) — with the same verdict (issue 13 §2). A blank
    marked differently is another move, so another slip."""
    status = stored_verdict(verdict, context)[0]
    if stored.status != status:
        return False
    if verdict.status in MARK_STATUSES:             # «tarde» typed, the late mark stored: the same slip
        return True
    return stored.text.strip() == text.strip() or (verdict.canonical is not None and stored.move == verdict.canonical)


def stored_verdict(verdict: SlipVerdict, context: SlipContext | None) -> tuple[str, int, str]:
    """``(status, score, reason)`` to store: a valid move equal to an annulled master
    scores 0 (III.29)."""
    if (context is not None and context.annulled and verdict.status is SlipStatus.VALID
            and verdict.canonical == context.master):
        return ANNULLED, 0, ANNULLED_REASON
    return verdict.status.value, verdict.score, verdict.reason


def verdict_payload(text: str, verdict: SlipVerdict, context: SlipContext | None,
                     board: str | None = None) -> dict[str, Any]:
    """The payload of a slip's event: text, stored status, score, move, reason (and the board form)."""
    status, score, reason = stored_verdict(verdict, context)
    payload = {"text": text, "status": status, "score": score, "move": verdict.canonical, "reason": reason}
    if board is not None:        # only slips written on a paper board carry it (II.8): the format only grows
        payload["board"] = board
    return payload


def slip_payload(slip: Slip) -> dict[str, Any]:
    """A stored slip as an event's «before» (``SlipCorrected``)."""
    return {"text": slip.text, "status": slip.status, "score": slip.score, "move": slip.move, "reason": slip.reason,
            "entered_by": slip.entered_by}
