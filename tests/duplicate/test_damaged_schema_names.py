"""A SQLite file whose schema page is damaged so that a table's name is not text.

The fuzz target ``pages`` (``tests/fuzz/targets.py``) met one on the tournament database of
the players' import of issue 36 §4 (its rows laid out otherwise): ``open_database`` let a
``UnicodeDecodeError`` out of its first look at the file (issue 35 §4) instead of saying
that the file is damaged. Now a ``DatabaseError`` in Spanish, the file untouched.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from duplicate.storage.database import DatabaseError, open_database


def test_a_table_name_that_is_not_text_is_said_to_be_damage(tmp_path: Path) -> None:
    path = tmp_path / "dañada.db"
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE jugadores (nombre TEXT)")
        connection.execute("PRAGMA writable_schema = ON")
        connection.execute("UPDATE sqlite_master SET name = CAST(X'FF6A' AS TEXT) WHERE name = 'jugadores'")
    connection.close()
    before = path.read_bytes()
    with pytest.raises(DatabaseError) as refused:
        open_database(f"sqlite:///{path}")
    assert "dañada" in str(refused.value) and "restaure" in str(refused.value)
    assert path.read_bytes() == before
