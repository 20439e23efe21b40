"""Scratch databases for the benchmarks: a fresh, empty tournament database of a kind,
removed when the benchmark is done with it."""

from __future__ import annotations

import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import create_engine, make_url

PG_ADMIN = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
"""The PostgreSQL server of this machine and of CI (trust auth), through its «test» database."""


@contextmanager
def scratch_database(kind: str, label: str) -> Iterator[str]:
    """A fresh, empty database URL: ``kind`` ``sqlite`` (a file ``LABEL.db`` in a temporary
    folder), ``postgresql`` (a new database ``duplicada_LABEL_XXXXXXXXXX`` on ``PG_ADMIN``'s
    server) or a PostgreSQL server's admin URL (a new database on that server). Removed
    afterwards (``DROP DATABASE … WITH (FORCE)``)."""
    if kind == "sqlite":
        with tempfile.TemporaryDirectory() as folder:
            yield f"sqlite:///{Path(folder) / f'{label}.db'}"
        return
    admin_url = make_url(PG_ADMIN if kind == "postgresql" else kind)
    admin = create_engine(admin_url, isolation_level="AUTOCOMMIT")
    name = f"duplicada_{label}_{uuid.uuid4().hex[:10]}"
    with admin.connect() as connection:
        connection.exec_driver_sql(f'CREATE DATABASE "{name}"')
    try:
        yield admin_url.set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as connection:
            connection.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.dispose()
