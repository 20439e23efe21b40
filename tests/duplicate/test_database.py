"""Opening the database (issue 3 §1): migrations build exactly the models' schema on
SQLite and PostgreSQL, SQLite runs in WAL mode with foreign keys on, and bad URLs or a
schema from a newer version are clear errors that change nothing."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import text

import duplicate.storage.database as database_module
from duplicate.storage.database import (
    DatabaseDamaged,
    DatabaseError,
    DatabaseUnavailable,
    _alembic_config,
    database_url,
    open_database,
)
from duplicate.storage.models import Base, Credential
from lexicon.lexicon import Lexicon
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
    # Foreign keys are enforced: a row referring to rows that are not there is refused (said
    # as a damaged database, issue 26 §3: only damage makes the service write one). A
    # credential: the service writes it itself (the projected tables only the projector).
    with pytest.raises(DatabaseDamaged), database.write() as session:
        session.add(Credential(tournament_id=999, role="judge", name="juez", digest="0" * 64,
                               created_at=datetime.now(UTC)))


def test_a_sqlite_writer_waiting_for_the_lock_looks_again_every_millisecond(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    # Issue 36 §5: with eight stations the slowest slips waited about a second for the write
    # lock, because SQLite's own busy handler sleeps in growing steps (up to 100 ms) and a
    # station that had waited long lost the lock to the ones that had just come. Now the
    # wait is ours: BEGIN IMMEDIATE tried again every LOCK_RETRY_SECONDS. Another program
    # holds the lock here and lets it go at the third retry (no clock involved); before,
    # SQLite's handler waited out the whole busy timeout and the write failed.
    path = tmp_path / "lock.db"
    monkeypatch.setattr(database_module, "BUSY_TIMEOUT_MS", 3000)
    database = open_database(str(path))
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    waits: list[float] = []

    def retry(seconds: float) -> None:
        waits.append(seconds)
        if len(waits) == 3:
            holder.execute("COMMIT")

    monkeypatch.setattr(database_module, "sleep", retry, raising=False)
    with database.write() as session:
        # The lock is held, and the connection's other statements keep the busy timeout.
        assert session.execute(text("PRAGMA busy_timeout")).scalar() == 3000
    assert waits == [database_module.LOCK_RETRY_SECONDS] * 3 and database_module.LOCK_RETRY_SECONDS <= 0.002
    holder.close()
    database.dispose()


def test_a_sqlite_writer_that_never_gets_the_lock_is_told_in_spanish(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "lock.db"
    database = open_database(str(path))
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    monkeypatch.setattr(database_module, "BUSY_TIMEOUT_MS", 0)           # the first refusal is the last
    with pytest.raises(DatabaseUnavailable, match="ocupada por otro puesto"), database.write() as session:
        session.execute(text("SELECT 1"))
    holder.execute("COMMIT")
    monkeypatch.undo()
    with database.write() as session:                                    # the next write takes the lock
        assert session.execute(text("PRAGMA busy_timeout")).scalar() == database_module.BUSY_TIMEOUT_MS
    holder.close()
    database.dispose()


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

    from duplicate.storage.database import MIGRATIONS, SCHEMA_HEAD

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    assert ScriptDirectory.from_config(config).get_heads() == [SCHEMA_HEAD]


RAW = ("sqlite3", "OperationalError", "Background on this error", "sqlalche.me", "Connection refused", "file is not")


@pytest.mark.parametrize(("target", "expected"), [
    ("garbage", "no es una base de datos de duplicada"),
    ("missing-folder", "la carpeta no existe"),
    ("postgresql+psycopg://postgres:secreto@127.0.0.1:1/x", "no responde"),
])
def test_a_database_that_cannot_be_opened_is_explained_in_spanish(tmp_path: Path, target: str, expected: str) -> None:
    # Issue 13 §4: the cause and the next step, never the driver's text; no password shown.
    if target == "garbage":
        (tmp_path / "basura.db").write_bytes(b"esto no es SQLite" * 100)
        target = str(tmp_path / "basura.db")
    elif target == "missing-folder":
        target = str(tmp_path / "no-existe" / "t.db")
    with pytest.raises(DatabaseError) as raised:
        open_database(target)
    message = str(raised.value)
    assert expected in message
    assert not any(raw in message for raw in RAW) and "secreto" not in message


def test_a_database_that_stops_answering_is_a_spanish_service_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                     spanish_lexicon: Lexicon) -> None:
    from sqlalchemy.exc import OperationalError
    from sqlalchemy.orm import SessionTransaction

    from duplicate.service.errors import StorageUnavailable
    from duplicate.service.facade import TournamentService
    from tests.credentials import JUDGE_PIN

    service = TournamentService(open_database(str(tmp_path / "t.db")), lexicon=spanish_lexicon, pin=JUDGE_PIN)
    service.create_tournament("T")

    def locked(self: SessionTransaction, _parent: bool = False) -> None:
        raise OperationalError("COMMIT", {}, sqlite3.OperationalError("database is locked"))

    monkeypatch.setattr(SessionTransaction, "commit", locked)
    with pytest.raises(StorageUnavailable, match="ocupada por otro puesto") as raised:
        service.add_player("Ana")
    assert not any(raw in str(raised.value) for raw in RAW)
    monkeypatch.undo()
    assert service.entries() == []                              # nothing of the refused action stored


def test_a_password_with_escapes_opens_and_is_never_shown(tmp_path: Path) -> None:
    # Issue 14 §4: «%40» in a password crashed every command (Alembic's configuration read
    # the URL) and the traceback printed it. Now the database opens (trust auth here) and
    # no message, whatever fails, shows the password.
    from click.testing import CliRunner

    from tui.cli.main import main

    for url in _postgres_url():
        with_password = url.replace("postgres@", "postgres:se%40creto@")
        database = open_database(with_password)            # migrated: Alembic never reads the URL
        database.dispose()
        for target in (with_password, with_password.rsplit("/", 1)[0] + "/no_existe_duplicada",
                       "postgresql://postgres:se%40creto@127.0.0.1:puerto/x"):
            result = CliRunner().invoke(main, ["standings", "--db", target])
            assert result.exit_code != 0 and "Traceback" not in result.output and "creto" not in result.output
            assert "***" in result.output or "ningún torneo" in result.output


def test_serve_hands_the_url_to_the_apps_by_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    # Issue 14 §4: never on a command line («ps» shows it to every user of the machine).
    import os

    from click.testing import CliRunner

    import tui.cli.venue_server
    from tui.cli.main import main

    started: list[str] = []

    class Server:
        def __init__(self, command: str, **options: object) -> None:
            started.append(command)

        def serve(self) -> None:
            pass

    monkeypatch.setattr(tui.cli.venue_server, "VenueServer", Server)
    monkeypatch.delenv("DUPLICADA_DB", raising=False)
    url = "postgresql+psycopg://postgres:secreto@127.0.0.1:5432/test"
    result = CliRunner().invoke(main, ["serve", "--db", url])
    assert result.exit_code == 0, result.output
    assert started and "secreto" not in started[0] and "--db" not in started[0]
    assert os.environ["DUPLICADA_DB"] == url
    monkeypatch.delenv("DUPLICADA_DB")


def test_a_password_written_as_a_question_mark_is_asked_for(monkeypatch: pytest.MonkeyPatch) -> None:
    # Issue 14 §4: «postgresql+psycopg://postgres:?@…» asks for it, hidden; it is never echoed.
    from click.testing import CliRunner

    from tui.cli.main import main

    for url in _postgres_url():
        asking = url.replace("postgres@", "postgres:?@")
        result = CliRunner().invoke(main, ["standings", "--db", asking], input="se@creto\n")
        assert "Contraseña de postgres en 127.0.0.1" in result.output
        assert "se@creto" not in result.output and "Traceback" not in result.output
        assert "ningún torneo" in result.output                    # it connected (trust authentication here)


def test_a_damaged_sqlite_file_is_said_and_left_untouched(tmp_path: Path) -> None:
    # Issue 14 §1: 15 of 63 damaged databases gave tracebacks; one that lost its schema
    # revision was even «migrated» (written to). Now: a Spanish message, the file unchanged.
    path = tmp_path / "t.db"
    open_database(str(path)).dispose()
    data = bytearray(path.read_bytes())
    data[4096:8192] = bytes(4096)                              # a page of the schema zeroed
    path.write_bytes(bytes(data))
    before = path.read_bytes()
    with pytest.raises(DatabaseError) as raised:
        open_database(str(path))
    assert "está dañada" in str(raised.value) and "restaure" in str(raised.value)
    assert not any(raw in str(raised.value) for raw in RAW)
    assert path.read_bytes() == before
