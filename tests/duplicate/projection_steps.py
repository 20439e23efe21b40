"""Applying one event to a database as the projector does, for the tests of the
projector's handlers (``test_projection_*``): the event row as ``ServiceContext.log``
stores it, a fixed moment, the judge acting."""

from __future__ import annotations

import atexit
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, create_engine, select
from sqlalchemy.orm import Session

from duplicate.record.event_kinds import TournamentEvent
from duplicate.storage.database import Database, open_database
from duplicate.storage.models import Base, Event
from duplicate.storage.projector import project
from tests.duplicate.test_stations import PG_ADMIN

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


_TEMPLATES: list[str] = []
"""This process's PostgreSQL database migrated to the newest schema and left empty, the
template of every PostgreSQL database ``database_at`` makes (made on first use, dropped
when the process ends)."""


def _postgres_template(admin: Engine) -> str:
    """The name of this process's migrated template database (see ``_TEMPLATES``). Running
    the migrations on PostgreSQL took 1–5 s per test (the server's DDL); copying their
    result with ``CREATE DATABASE … TEMPLATE`` about a tenth of that. The migrations
    themselves are tested on empty databases (``test_database.py``, ``test_stations.py``)."""
    if not _TEMPLATES:
        name = f"duplicada_template_{uuid.uuid4().hex[:10]}"
        with admin.connect() as connection:
            connection.exec_driver_sql(f'CREATE DATABASE "{name}"')
        open_database(postgres_url(name)).dispose()       # no session left on it: it can be copied

        def drop() -> None:
            with create_engine(PG_ADMIN, isolation_level="AUTOCOMMIT").connect() as connection:
                connection.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

        atexit.register(drop)
        _TEMPLATES.append(name)
    return _TEMPLATES[0]


def postgres_url(name: str) -> str:
    """The URL of database ``name`` on the test server (``PG_ADMIN``'s)."""
    return PG_ADMIN.rsplit("/", 1)[0] + "/" + name


@contextmanager
def database_at(kind: str, folder: Path) -> Iterator[Database]:
    """An empty database at the newest schema: a SQLite file in ``folder``, or a new
    PostgreSQL database copied from this process's migrated template (the test is skipped
    without a server), dropped afterwards."""
    if kind == "sqlite":
        database = open_database(str(folder / "p.db"))
        yield database
        database.dispose()
        return
    try:
        admin = create_engine(PG_ADMIN, isolation_level="AUTOCOMMIT")
        admin.connect().close()
    except Exception as error:  # noqa: BLE001
        pytest.skip(f"no hay servidor PostgreSQL en 127.0.0.1:5432 ({type(error).__name__})")
    name = f"duplicada_test_{uuid.uuid4().hex[:10]}"
    with admin.connect() as connection:            # a migration that fails on PostgreSQL fails the test
        connection.exec_driver_sql(f'CREATE DATABASE "{name}" TEMPLATE "{_postgres_template(admin)}"')
    database = open_database(postgres_url(name))
    try:
        yield database
    finally:
        database.dispose()
        with admin.connect() as connection:
            connection.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.dispose()
