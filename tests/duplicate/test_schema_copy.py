"""A new SQLite database made as a copy of the schema migrated first (issue 24 §3,
``duplicate/storage/schema_copy.py``): the copy is what the migrations build, and it is
made only for a file that does not exist yet, when the caller migrates."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from duplicate.storage import schema_copy
from duplicate.storage.database import SCHEMA_HEAD, open_database


def dump(path: Path) -> list[str]:
    connection = sqlite3.connect(path)
    try:
        return list(connection.iterdump())
    finally:
        connection.close()


def test_a_copied_database_is_the_migrated_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(schema_copy, "_template", None)
    open_database(str(tmp_path / "migrated.db"))                  # migrated by Alembic, then kept
    assert schema_copy._template is not None
    migrations_run = []
    monkeypatch.setattr("duplicate.storage.database._migrate", lambda *args: migrations_run.append(args))
    database = open_database(str(tmp_path / "copied.db"))
    assert not migrations_run                                     # made from the copy
    assert dump(tmp_path / "copied.db") == dump(tmp_path / "migrated.db")
    with database.engine.connect() as connection:
        assert connection.exec_driver_sql("SELECT version_num FROM alembic_version").scalar() == SCHEMA_HEAD
        assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
    assert sorted(p.name for p in tmp_path.iterdir() if p.suffix == ".new") == []   # no partial file left


def test_no_copy_over_an_existing_file_or_without_migrating(tmp_path: Path) -> None:
    open_database(str(tmp_path / "first.db"))
    assert schema_copy._template is not None
    empty = tmp_path / "empty.db"
    empty.write_bytes(b"")
    assert not schema_copy.copy_schema(empty) and empty.read_bytes() == b""
    assert not schema_copy.copy_schema(tmp_path / "no-such-folder" / "t.db")
    open_database(str(tmp_path / "unmigrated.db"), migrate=False)
    assert dump(tmp_path / "unmigrated.db") == ["BEGIN TRANSACTION;", "COMMIT;"]
