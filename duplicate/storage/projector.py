"""The projector: the one writer of the tables (issue 34 §1, "the event log is the record").

A service action decides on the state it reads and appends its typed events
(``ServiceContext.log``) in one write transaction; each appended event is handed to
``project``, which applies it to the tables through the handler registered for its kind.
Nothing else writes the projected tables: ``guard`` (installed on every session of a
``Database``) refuses a flush that adds, changes or deletes a row of a projected model
outside ``project``.

Replaying a log into an empty database (``duplicada restore``, the property test) is
``project`` called on each stored event in order: the handlers read only the event (its
kind, payload and the columns stored beside it: who, when, the game and round) and the
tables as the earlier events left them.

Handlers are declared by family in ``duplicate.storage.projection`` modules, each
exporting ``HANDLERS: dict[EventKind, Handler]`` and ``MODELS`` (the models whose rows it
alone writes); ``HANDLERS`` here joins them. A family may also give a ``BatchHandler`` for a
kind whose events come in runs (``BATCH_HANDLERS``: ``PlayerAdded``, a players' import;
``SlipEntered``, a round's slips entered at once), used by ``project_all`` and leaving the
same tables as the per-event handler.

An event whose handler creates the row the event itself refers to (``TournamentCreated``
its tournament, ``GameCreated`` its game: ``Event.tournament_id`` and ``Event.game_id`` are
foreign keys) is applied before its own row is inserted; every other event after, so that
its handler may refer to ``row.id``.

Classic divisions and EloDI (``projection.ranking``, whose docstring says more): the
classic tables follow the divisions' events, the rows others refer to (division, seeds,
boards) with the ids the events name, a starting list renumbered in the initial order
carried as the rows' new order (the order is a rule of ``ranking``). The EloDI figures
are computed by ``ranking`` (storage never imports it) but their history is a record:
``RatingsUpdated`` / ``RatingsRecomputed`` carry per game the classification rated and,
per rated player, the values ``rate_game`` computed (after-values, ERank, ARank, cap);
the values before, phases, counts, sequences and times are the tables' and the event
row's, and the current ratings are the last values of the history. The persons made for
imported venues' players, first rated by one of these events, are named by it.

What is not projected: the stations' credentials (``Credential``: PIN digests), the
tournament's sign-in state (``TournamentAccess``: the digests' salt and the count of wrong
PINs), the sources of wrong PINs (``SignInSource``) and the tournament's sealed signing key
(``TournamentKey``: its public half is in the log, ``SigningKeyMade``; issue 35 §2) —
secrets and counters, never in a record (``PinChanged`` says only that a station's
credential was set or revoked): the
service writes them (``duplicate.service.registration``, ``duplicate.service.lockout``),
and a restored tournament gets its PINs again. Nor the event log itself.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from itertools import groupby

from sqlalchemy import Table, event as sa_event, func, select, text
from sqlalchemy.orm import Session, sessionmaker

from duplicate.record.event_kinds import EventKind, TournamentEvent
from duplicate.record.events import read_event
from duplicate.storage.event_chain import AppendedEvent
from duplicate.storage.models import Base, Event
from duplicate.storage.projection import play, ranking, registration, slips
from duplicate.storage.projection.handler import BatchHandler, Handler

__all__ = [
    "BATCH_HANDLERS",
    "HANDLERS",
    "PROJECTED_MODELS",
    "ProjectionBypassed",
    "guard",
    "next_id",
    "next_ids",
    "project",
    "project_all",
    "replay_log",
]

_FAMILIES = (registration, play, slips, ranking)

HANDLERS: dict[EventKind, Handler] = {kind: handler for family in _FAMILIES for kind, handler in family.HANDLERS.items()}
"""The handler of each kind of event that changes a table (kinds without one change none)."""

BATCH_HANDLERS: dict[EventKind, BatchHandler] = {**registration.BATCH_HANDLERS, **slips.BATCH_HANDLERS}
"""Kinds whose consecutive events ``project_all`` applies at once (issue 36 §4: a players'
import of 2,000 rows in a few statements instead of three per event); the tables end as
the kind's ``HANDLERS`` entry applied to each in order would leave them."""

PROJECTED_MODELS: frozenset[type[Base]] = frozenset(model for family in _FAMILIES for model in family.MODELS)
"""The models whose rows only ``project`` writes (``guard`` checks it)."""

_BEFORE_ITS_ROW = frozenset({EventKind.TOURNAMENT_CREATED, EventKind.GAME_CREATED})
"""Kinds whose handler creates the row their event refers to (module docstring)."""

_PROJECTING = "projecting"
"""Key of ``Session.info``: how many ``project`` calls are running on the session."""


class ProjectionBypassed(RuntimeError):
    """A projected table was written outside ``project``: a programming error, never a
    user's (the flush is refused, the transaction rolled back)."""


@contextmanager
def _projecting(session: Session) -> Iterator[None]:
    session.info[_PROJECTING] = session.info.get(_PROJECTING, 0) + 1
    try:
        yield
    finally:
        session.info[_PROJECTING] -= 1


def project(session: Session, row: Event, typed: TournamentEvent | None = None) -> None:
    """Store the event ``row`` (added to ``session`` unless it is there already) and apply
    it to the tables of ``session``; everything is flushed before it returns. ``typed``:
    its typed form when the caller has it (else read from the row's kind and payload,
    ``duplicate.record.events.read_event``). Raises ``ValueError`` for an unknown kind or a
    payload that does not fit it, ``ProjectionBypassed`` when the session holds a write
    of a projected model made outside ``project``."""
    if typed is None:
        typed = read_event(row.kind, row.payload)
    handler = HANDLERS.get(typed.KIND)
    first = handler is not None and typed.KIND in _BEFORE_ITS_ROW
    if first and row in session.new:
        session.expunge(row)
    if not first:
        session.add(row)
    session.flush()                     # outside the projector: the guard checks what was pending
    if handler is None:
        return
    with _projecting(session):
        handler(session, row, typed)
        if first:
            session.flush()             # the row the event refers to, then the event
            session.add(row)
        session.flush()


def project_all(session: Session, items: Iterable[tuple[Event | AppendedEvent, TournamentEvent]]) -> None:
    """``project`` each stored event of ``items`` (with its typed form) in order, flushing
    once at the end: a handler that queries the tables sees the rows of the ones before it
    (the session flushes before a query). A run of consecutive events of a kind of
    ``BATCH_HANDLERS`` is applied by it at once. For a batch appended at once
    (``ServiceContext.log_all``)."""
    with _projecting(session):
        for kind, run in groupby(items, key=lambda item: item[1].KIND):
            batch = BATCH_HANDLERS.get(kind)
            if batch is not None:
                batch(session, list(run))
                continue
            handler = HANDLERS.get(kind)
            if handler is not None:
                for row, typed in run:
                    handler(session, row if isinstance(row, Event) else row.as_event(), typed)
        session.flush()


def replay_log(session: Session, rows: Iterable[Event]) -> None:
    """Store a copy of each event of ``rows`` (stored events, in the order of their ids)
    in ``session`` and apply it (``project``): the copies keep their ids, tournament, game,
    round, who, when, why and payload; their ``previous_hash`` is computed again as they
    are stored (``duplicate.storage.event_chain``). Raises what ``project`` raises."""
    for stored in rows:
        project(session, Event(id=stored.id, tournament_id=stored.tournament_id, game_id=stored.game_id,
                               round_number=stored.round_number, kind=stored.kind, payload=stored.payload,
                               station=stored.station, arbiter=stored.arbiter, role=stored.role,
                               reason=stored.reason, created_at=stored.created_at))


def _check_flush(session: Session, _context: object, _instances: object) -> None:
    if session.info.get(_PROJECTING):
        return
    for instance in (*session.new, *session.dirty, *session.deleted):
        if type(instance) in PROJECTED_MODELS and (instance not in session.dirty
                                                   or session.is_modified(instance)):
            raise ProjectionBypassed(f"{type(instance).__name__} escrito fuera del proyector de eventos")


def guard(factory: sessionmaker[Session]) -> None:
    """Refuse, on every session of ``factory``, a flush that writes a projected model
    outside ``project`` (``ProjectionBypassed``)."""
    if not sa_event.contains(factory, "before_flush", _check_flush):
        sa_event.listen(factory, "before_flush", _check_flush)


def next_id(session: Session, model: type[Base]) -> int:
    """The id the next row of ``model`` gets, allocated by the action that appends the event
    creating it (the event carries it, so a replay into an empty database gives every row
    the id the log names). PostgreSQL: the next value of the table's sequence (never given
    twice); SQLite: one more than the largest id (the write transaction holds the
    database's lock, ``BEGIN IMMEDIATE``)."""
    table = model.__table__
    assert isinstance(table, Table)
    bind = session.get_bind()
    if bind.dialect.name == "postgresql":
        value = session.execute(text("SELECT nextval(pg_get_serial_sequence(:table, 'id'))"),
                                {"table": table.name}).scalar_one()
        return int(value)
    largest = session.execute(select(func.max(table.c.id))).scalar()
    return int(largest or 0) + 1


def next_ids(session: Session, model: type[Base], count: int) -> list[int]:
    """``count`` distinct ids for rows of ``model`` that one action's events create, in
    increasing order, in one statement (PostgreSQL: ``count`` values of the table's
    sequence; SQLite, where ``next_id`` reads the largest stored id, the ``count`` ids
    that follow it). ``[]`` for ``count`` 0."""
    if count <= 0:
        return []
    table = model.__table__
    assert isinstance(table, Table)
    if session.get_bind().dialect.name == "postgresql":       # the sequence's next values, in one statement
        values = session.execute(text("SELECT nextval(pg_get_serial_sequence(:table, 'id')) "
                                      "FROM generate_series(1, :count)"), {"table": table.name, "count": count})
        return sorted(int(value) for value in values.scalars())
    first = next_id(session, model)
    return list(range(first, first + count))
