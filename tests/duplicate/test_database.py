"""Opening the database (issue 3 §1): migrations build exactly the models' schema on
SQLite and PostgreSQL, SQLite runs in WAL mode with foreign keys on, and bad URLs or a
schema from a newer version are clear errors that change nothing."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError

from duplicate.database import DatabaseError, _alembic_config, database_url, open_database
from duplicate.models import Base, Entry
from tests.duplicate.test_stations import _postgres_url


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'schema.db'}"
    else:
        yield from _postgres_url()


def test_migrations_build_exactly_the_models_schema(url: str) -> None:
    database = open_database(url)
    with database.engine.connect() as connection:
        differences = compare_metadata(MigrationContext.configure(connection), Base.metadata)
    assert differences == []
    database.dispose()


def test_opening_twice_does_not_migrate_again(url: str) -> None:
    open_database(url).dispose()
    database = open_database(url)
    with database.engine.connect() as connection:
        heads = ScriptDirectory.from_config(_alembic_config(database.engine)).get_heads()
        assert connection.execute(text("SELECT version_num FROM alembic_version")).scalars().all() == heads
    database.dispose()


def test_sqlite_is_in_wal_mode_with_foreign_keys(tmp_path: Path) -> None:
    database = open_database(str(tmp_path / "pragmas.db"))
    with database.engine.connect() as connection:
        assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert connection.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
        assert connection.exec_driver_sql("PRAGMA busy_timeout").scalar() >= 1000
    with pytest.raises(IntegrityError), database.write() as session:
        session.add(Entry(tournament_id=999, player_id=999, status="active"))


def test_a_schema_from_a_newer_version_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "newer.db"
    database = open_database(str(path))
    with database.engine.begin() as connection:
        connection.execute(text("UPDATE alembic_version SET version_num = '9999'"))
    database.dispose()
    with pytest.raises(DatabaseError, match="más nueva"):
        open_database(str(path))
    with sqlite3.connect(path) as connection:
        assert connection.execute("SELECT version_num FROM alembic_version").fetchall() == [("9999",)]


def test_a_bad_url_is_a_clear_error() -> None:
    with pytest.raises(DatabaseError, match="nosuchdriver"):
        open_database("nosuchdriver://x/y")
    assert database_url("torneo.db").startswith("sqlite:///")
    assert database_url("postgresql+psycopg://u@h/db") == "postgresql+psycopg://u@h/db"


def test_the_schema_head_constant_is_alembics_head() -> None:
    # An up-to-date database opens without Alembic only if SCHEMA_HEAD is the newest migration.
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    from duplicate.database import MIGRATIONS, SCHEMA_HEAD

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    assert ScriptDirectory.from_config(config).get_heads() == [SCHEMA_HEAD]
