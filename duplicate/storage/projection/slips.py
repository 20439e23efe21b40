"""The projector's handlers for slips, conflicts, corrections, claims, closing rounds,
annulled masters and publication (``duplicate.record.events_slips``; issue 34 §1).

Each handler applies one stored event to the tables from the event alone (its typed
fields and its row: game, round, who acted — ``arbiter`` —, when — ``created_at`` —
and its id) and the rows earlier events left:

* ``slip_entered`` inserts the player's ``Slip`` (II.8, III.20, III.25); the unique
  constraint on (game, round, entry) fires here when another station's slip for the
  player was stored first (``slip_entry.store_in`` catches it in its savepoint);
* ``slip_checked`` marks the slip double-checked by the acting credential;
* ``slip_conflict`` inserts the ``Conflict`` with the id the event names;
* ``slip_corrected`` (III.27) writes the slip ``after`` (inserting it when there was none);
* ``conflict_resolved`` and ``claim_resolved`` close the conflict or claim;
  ``claim_filed`` inserts the ``Claim`` with the id the event names;
* ``master_annulled`` (III.29) marks the round annulled and its listed slips 0 points;
* ``round_closed`` (III.24) closes the round (its missing slips are ``slip_entered``
  events of their own, logged before it);
* ``results_published`` and ``game_reopened`` (III.26, IV.32) set the game's status.

``bonuses_awarded`` changes no table: bonuses are computed from the slips when read.

``MODELS`` lists ``Claim``, which only these handlers write. ``Slip`` and ``Conflict``
are written here and by the play family's ``slips_set_aside`` (III.29, a withdrawn
rack); ``RoundRow`` and ``GameRow`` here (closed, annulled, published status) and by the
play family (racks, masters, a game's end): each is listed once every writer of it goes
through the projector.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import Table, insert, select
from sqlalchemy.orm import Session

from duplicate.record.event_kinds import EventKind
from duplicate.record.events_slips import (
    ClaimFiled,
    ClaimResolved,
    ConflictResolved,
    GameReopened,
    MasterAnnulled,
    ResultsPublished,
    RoundClosed,
    SlipChecked,
    SlipConflict,
    SlipCorrected,
    SlipEntered,
)
from duplicate.rules.statuses import SLIP_ANNULLED, ClaimStatus
from duplicate.storage.event_chain import AppendedEvent
from duplicate.storage.models import Base, Claim, Conflict, Event, GameRow, RoundRow, Slip
from duplicate.storage.projection.handler import BatchHandler, Handler

__all__ = ["ANNULLED_REASON", "BATCH_HANDLERS", "HANDLERS", "MODELS", "ProjectionMismatch"]

ANNULLED_REASON = "jugada maestra anulada (III.29)"
"""The reason stored with a slip that played a master annulled later (III.29); the
judge's reason follows it after a colon when one was given."""


class ProjectionMismatch(LookupError):
    """An event names a row its earlier events never made (a log out of order or a
    damaged table): the projection refuses to guess."""


def _slip(session: Session, row: Event, entry: int) -> Slip | None:
    return session.scalar(select(Slip).where(Slip.game_id == row.game_id, Slip.round_number == row.round_number,
                                             Slip.entry_id == entry))


def _round(session: Session, game_id: int | None, number: int) -> RoundRow:
    found = session.scalar(select(RoundRow).where(RoundRow.game_id == game_id, RoundRow.number == number))
    if found is None:
        raise ProjectionMismatch(f"el evento habla de la ronda {number} de una partida que no la tiene")
    return found


def _game(session: Session, row: Event) -> GameRow:
    game = session.get(GameRow, row.game_id) if row.game_id is not None else None
    if game is None:
        raise ProjectionMismatch(f"el evento {row.id} habla de una partida que no existe")
    return game


def _slip_values(row: Event | AppendedEvent, event: SlipEntered) -> dict[str, object]:
    """The columns of the ``Slip`` that ``slip_entered`` inserts."""
    assert row.game_id is not None and row.round_number is not None
    return {"game_id": row.game_id, "round_number": row.round_number, "entry_id": event.entry,
            "table_number": event.table, "text": event.text, "board": event.board, "move": event.move,
            "status": event.status, "score": event.score, "reason": event.reason, "hint": event.hint,
            "entered_by": row.arbiter, "entered_at": row.created_at, "event_id": row.id}


def _slip_entered(session: Session, row: Event, event: SlipEntered) -> None:
    session.add(Slip(**_slip_values(row, event)))


def _slips_entered(session: Session, items: Sequence[tuple[Event | AppendedEvent, SlipEntered]]) -> None:
    """``_slip_entered`` for a run of events (a round's slips entered at once,
    ``slip_batch``, or the missing ones a round's close marks): the slips inserted in one
    statement, in the events' order (no object per row; issue 38). A player's slip
    stored already fails the unique constraint here, as one by one."""
    table = Slip.__table__
    assert isinstance(table, Table)
    session.execute(insert(table), [_slip_values(row, event) for row, event in items])


def _slip_checked(session: Session, row: Event, event: SlipChecked) -> None:
    slip = _slip(session, row, event.entry)
    if slip is None:
        raise ProjectionMismatch(f"mesa {event.table}, ronda {row.round_number}: no hay papeleta comprobada")
    slip.checked_by = row.arbiter


def _slip_conflict(session: Session, row: Event, event: SlipConflict) -> None:
    assert row.game_id is not None and row.round_number is not None
    session.add(Conflict(id=event.conflict, game_id=row.game_id, round_number=row.round_number,
                         entry_id=event.entry, table_number=event.table, kind=event.kind, text=event.text,
                         mark=event.mark, entered_by=row.arbiter, entered_at=row.created_at))


def _slip_corrected(session: Session, row: Event, event: SlipCorrected) -> None:
    assert row.game_id is not None and row.round_number is not None
    slip = _slip(session, row, event.entry)
    if slip is None:
        slip = Slip(game_id=row.game_id, round_number=row.round_number, entry_id=event.entry,
                    table_number=event.table)
        session.add(slip)
    after = event.after
    slip.text = str(after["text"])
    slip.board = after.get("board")
    slip.move = after.get("move")
    slip.status = str(after["status"])
    slip.score = int(after["score"])
    slip.reason = str(after.get("reason", ""))
    slip.hint = event.hint
    slip.entered_by = row.arbiter
    slip.entered_at = row.created_at
    slip.event_id = row.id


def _conflict_resolved(session: Session, row: Event, event: ConflictResolved) -> None:
    conflict = session.get(Conflict, event.conflict)
    if conflict is None:
        raise ProjectionMismatch(f"no existe el conflicto {event.conflict}")
    conflict.resolution = event.resolution
    conflict.resolved_by = row.arbiter


def _master_annulled(session: Session, row: Event, event: MasterAnnulled) -> None:
    _round(session, row.game_id, event.round).annulled = True
    reason = f"{ANNULLED_REASON}: {row.reason}" if row.reason else ANNULLED_REASON
    for item in event.slips:
        slip = session.scalar(select(Slip).where(Slip.game_id == row.game_id, Slip.round_number == event.round,
                                                 Slip.entry_id == int(item["entry"])))
        if slip is None:
            raise ProjectionMismatch(f"mesa {item.get('table')}, ronda {event.round}: no hay papeleta que anular")
        slip.status, slip.score, slip.reason = SLIP_ANNULLED, 0, reason


def _round_closed(session: Session, row: Event, event: RoundClosed) -> None:
    _round(session, row.game_id, event.round).closed = True


def _claim_filed(session: Session, row: Event, event: ClaimFiled) -> None:
    assert row.game_id is not None and row.round_number is not None
    session.add(Claim(id=event.claim, game_id=row.game_id, round_number=row.round_number, entry_id=event.entry,
                      text=event.text, status=ClaimStatus.OPEN.value, created_at=row.created_at))


def _claim_resolved(session: Session, row: Event, event: ClaimResolved) -> None:
    claim = session.get(Claim, event.claim)
    if claim is None:
        raise ProjectionMismatch(f"no existe la reclamación {event.claim}")
    claim.status = event.status
    claim.resolution = event.resolution


def _results_published(session: Session, row: Event, event: ResultsPublished) -> None:
    _game(session, row).status = event.status


def _game_reopened(session: Session, row: Event, event: GameReopened) -> None:
    _game(session, row).status = event.status


HANDLERS: dict[EventKind, Handler] = {
    EventKind.SLIP_ENTERED: _slip_entered,
    EventKind.SLIP_CHECKED: _slip_checked,
    EventKind.SLIP_CONFLICT: _slip_conflict,
    EventKind.SLIP_CORRECTED: _slip_corrected,
    EventKind.CONFLICT_RESOLVED: _conflict_resolved,
    EventKind.MASTER_ANNULLED: _master_annulled,
    EventKind.ROUND_CLOSED: _round_closed,
    EventKind.CLAIM_FILED: _claim_filed,
    EventKind.CLAIM_RESOLVED: _claim_resolved,
    EventKind.RESULTS_PUBLISHED: _results_published,
    EventKind.GAME_REOPENED: _game_reopened,
}
"""The handler of each kind of ``events_slips`` event that changes a table."""

BATCH_HANDLERS: dict[EventKind, BatchHandler] = {
    EventKind.SLIP_ENTERED: _slips_entered,
}
"""The kinds whose runs ``project_all`` applies at once (the same tables as ``HANDLERS`` one by one)."""
MODELS: tuple[type[Base], ...] = (Slip, Conflict, Claim)
"""The models these handlers create; the play family's ``slips_set_aside`` handler removes
a withdrawn rack's slips and sets its conflicts aside."""
