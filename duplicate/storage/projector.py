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
alone writes); ``HANDLERS`` here joins them.

What is not projected: the credentials' digests and the sign-in lock (secrets and
counters, never in a record: ``duplicate.service.lockout``, ``registration``) and the
event log itself.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import event as sa_event
from sqlalchemy.orm import Session, sessionmaker

from duplicate.record.event_kinds import EventKind, TournamentEvent
from duplicate.record.events import read_event
from duplicate.storage.models import Base, Event
from duplicate.storage.projection import play, ranking, registration, slips
from duplicate.storage.projection.handler import Handler

__all__ = ["HANDLERS", "PROJECTED_MODELS", "ProjectionBypassed", "guard", "project"]

_FAMILIES = (registration, play, slips, ranking)

HANDLERS: dict[EventKind, Handler] = {kind: handler for family in _FAMILIES for kind, handler in family.HANDLERS.items()}
"""The handler of each kind of event that changes a table (kinds without one change none)."""

PROJECTED_MODELS: frozenset[type[Base]] = frozenset(model for family in _FAMILIES for model in family.MODELS)
"""The models whose rows only ``project`` writes (``guard`` checks it)."""

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
    """Apply the stored event ``row`` to the tables of ``session`` (flushed before it
    returns). ``typed``: its typed form when the caller has it (else read from the row's
    kind and payload, ``duplicate.record.events.read_event``). Raises ``ValueError`` for
    an unknown kind or a payload that does not fit it."""
    if typed is None:
        typed = read_event(row.kind, row.payload)
    handler = HANDLERS.get(typed.KIND)
    if handler is None:
        return
    with _projecting(session):
        handler(session, row, typed)
        session.flush()


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
