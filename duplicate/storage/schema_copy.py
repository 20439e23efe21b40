"""A new SQLite tournament database made as a copy of one this process has just migrated.

Creating a database runs every migration (``duplicate/storage/migrations``): Alembic loads
each revision's module and builds every table, about 0.1 s of CPU. A process that creates
several databases (the venue server, an online venue per database, the test suite's
hundreds) pays it once: the first new SQLite file it migrates is kept, as bytes, and the
next new file is written from them — the same schema, revision ``SCHEMA_HEAD`` and
nothing else, since it is taken right after the migrations and before anything is stored.

Only for a SQLite file that does not exist yet, and only when the caller migrates; any
other case (a server database, ``:memory:``, an existing or half-made file, a folder that
cannot be written) goes the usual way. The copy appears whole or not at all (written
beside the target, then linked to its name, which fails if another process made it
first).
"""

from __future__ import annotations

import os
import secrets
import sqlite3
import threading
from pathlib import Path

from sqlalchemy.engine import URL

_template: bytes | None = None
"""The first database this process migrated from nothing, as ``sqlite3`` serialises it."""
_lock = threading.Lock()

FILE_MODE = 0o644
"""What SQLite gives a file it creates (less the umask)."""


def sqlite_file(url: URL) -> Path | None:
    """The file of a SQLite URL (``sqlite:///path``), or None for another database,
    ``:memory:`` or a URL with options (``?mode=…``, ``uri=true``)."""
    if url.get_backend_name() != "sqlite" or not url.database or url.database == ":memory:" or url.query:
        return None
    return Path(url.database)


def copy_schema(path: Path) -> bool:
    """Create ``path`` as a copy of the database remembered by :func:`remember_schema`.
    True when it did; False (nothing done) with no copy remembered yet, an existing
    ``path``, or any ``OSError`` (the caller then creates and migrates it as usual)."""
    template = _template
    if template is None or path.exists():
        return False
    partial = path.with_name(f".{path.name}.{secrets.token_hex(6)}.new")
    try:
        descriptor = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
        try:
            with os.fdopen(descriptor, "wb") as out:
                out.write(template)
            os.link(partial, path)
        finally:
            partial.unlink(missing_ok=True)
    except OSError:
        return False
    return True


def remember_schema(path: Path) -> None:
    """Keep the database at ``path``, just migrated from nothing, as the copy for the next
    new file (the first one only; best effort: an unreadable file is not kept)."""
    global _template
    with _lock:
        if _template is not None:
            return
        try:
            connection = sqlite3.connect(path)
            try:
                _template = connection.serialize()
            finally:
                connection.close()
        except sqlite3.Error:
            pass
