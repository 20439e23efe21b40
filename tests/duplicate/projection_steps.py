"""Applying one event to a database as the projector does, for the tests of the
projector's handlers (``test_projection_*``): the event row as ``ServiceContext.log``
stores it, a fixed moment, the judge acting."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from duplicate.record.event_kinds import TournamentEvent
from duplicate.storage.database import Database, open_database
from duplicate.storage.models import Base, Event
from duplicate.storage.projector import project

MOMENT = datetime(2026, 3, 14, 10, 30, tzinfo=UTC)


def apply(database: Database, tournament_id: int, typed: TournamentEvent, *, game_id: int | None = None,
          round_number: int | None = None, reason: str = "", arbiter: str = "juez") -> int:
    """Append ``typed`` to the log of ``database`` and project it; returns the event's id."""
    with database.write() as session:
        row = Event(tournament_id=tournament_id, game_id=game_id, round_number=round_number, kind=typed.KIND.value,
                    payload=typed.payload(), station="mesa", arbiter=arbiter, role="judge", reason=reason,
                    created_at=MOMENT)
        project(session, row, typed)
        return row.id


def _plain(value: Any) -> Any:
    """A moment as SQLite gives it back (naive UTC), whatever the database."""
    if isinstance(value, datetime) and value.tzinfo is not None:
        return value.astimezone(UTC).replace(tzinfo=None)
    return value


def rows(session: Session, model: type[Base], *columns: str) -> list[tuple[Any, ...]]:
    """The rows of ``model`` as tuples of ``columns``, by id (moments as naive UTC)."""
    return [tuple(_plain(getattr(item, column)) for column in columns)
            for item in session.scalars(select(model).order_by(model.id))]   # type: ignore[attr-defined]


@contextmanager
def database_at(kind: str, folder: Path) -> Iterator[Database]:
    """An empty database: a SQLite file in ``folder``, or a new PostgreSQL database
    (the test is skipped without a server), dropped afterwards."""
    if kind == "sqlite":
        database = open_database(str(folder / "p.db"))
        yield database
        database.dispose()
        return
    from tests.duplicate.test_stations import _postgres_url

    for url in _postgres_url():
        database = open_database(url)
        try:
            yield database
        finally:
            database.dispose()
