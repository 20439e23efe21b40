"""Opening a tournament database for a front end: the service's one door to storage.

The front ends (the app, the command line, ``serve``) never import the storage layer:
they name a database by its URL (``--db``, ``$DUPLICADA_DB`` — ``DATABASE_ENV`` — or the
default SQLite file) and get a service, or a ``StorageUnavailable`` whose Spanish message
says what is wrong and what to do (``duplicate.storage.database.explain``; never the password).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

from duplicate.service.errors import StorageUnavailable
from duplicate.service.facade import TournamentService
from duplicate.storage.database import (
    DATABASE_ENV,
    Database,
    DatabaseError,
    default_database_url,
    masked_url,
    open_database,
)

__all__ = ["ASK_PASSWORD", "open_database_for", "open_service", "set_default_database", "shown_database",
           "url_with_password"]

ASK_PASSWORD = "?"
"""Written as a URL's password (``postgresql+psycopg://juez:?@servidor/torneo``), it is
asked for instead of being typed where ``ps`` and the shell history keep it (issue 14 §4)."""


def open_database_for(url: str | None, *, create: bool = True) -> Database:
    """The database at ``url`` (None: ``$DUPLICADA_DB`` or the default SQLite file), opened
    and migrated, for the services built on it (``open_service``, ``ranking.service``); a
    SQLite file that does not exist is created only with ``create``.
    Raises ``StorageUnavailable`` (Spanish: the cause and the next step)."""
    try:
        return open_database(url, create=create)
    except DatabaseError as error:
        raise StorageUnavailable(str(error)) from error


def shown_database(url: str | None) -> str:
    """The database at ``url`` (None: ``$DUPLICADA_DB`` or the default SQLite file) as
    messages show it: every secret replaced by ``***`` (``masked_url``, issue 14 §4)."""
    return masked_url(url or default_database_url())


def set_default_database(url: str) -> None:
    """Make ``url`` the database of the processes this one starts (``$DUPLICADA_DB``,
    ``DATABASE_ENV``): through the environment, never their command line, which every
    user sees in ``ps`` (issue 14 §4)."""
    os.environ[DATABASE_ENV] = url


def open_service(url: str | None, **options: Any) -> TournamentService:
    """``TournamentService`` on the database at ``url`` (see ``open_database_for``);
    ``options`` are the service's (``station``, ``lexicon``, ``pin``, ``hooks``)."""
    return TournamentService(open_database_for(url), **options)


def url_with_password(url: str, ask: Callable[[str], str]) -> str:
    """``url`` with its password filled in by ``ask(question)`` when it is written
    ``ASK_PASSWORD``; any other URL (or text that is not one) unchanged."""
    if f":{ASK_PASSWORD}@" not in url:
        return url
    try:
        parsed = make_url(url)
    except (ArgumentError, ValueError):     # not a URL: left to open_database_for, which says what is wrong
        return url
    if parsed.password != ASK_PASSWORD:
        return url
    password = ask(f"Contraseña de {parsed.username or 'la base de datos'} en {parsed.host or 'el servidor'}")
    return str(parsed.set(password=password).render_as_string(hide_password=False))
