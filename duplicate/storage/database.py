"""Opening the tournament database: SQLite by default, any SQLAlchemy URL (issue 3 §1, §7).

``open_database(url)`` creates the engine, brings the schema to the newest Alembic
revision (``duplicate/storage/migrations``) and returns a ``Database`` whose ``write()`` and
``read()`` give transactional sessions. On SQLite the file is opened in WAL mode with a
busy timeout and foreign keys on, and every write transaction starts with
``BEGIN IMMEDIATE`` so that concurrent writers queue on the lock instead of failing on
a read-to-write upgrade; a writer waiting for that lock tries again every millisecond
(``take_write_lock``, issue 36 §5). ``write()`` commits before it returns: what a caller
acknowledges is on disk.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from time import monotonic, sleep
from typing import TYPE_CHECKING

import platformdirs
from sqlalchemy import Connection, Engine, create_engine, event, text
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, IntegrityError, InterfaceError, OperationalError
from sqlalchemy.exc import DatabaseError as SQLAlchemyDatabaseError
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

from duplicate.storage.event_chain import install as install_event_chain
from duplicate.storage.event_chain import lock_tournament
from duplicate.storage.schema_copy import copy_schema, remember_schema, sqlite_file

if TYPE_CHECKING:
    from alembic.config import Config

DATABASE_ENV = "DUPLICADA_DB"
"""Environment variable naming the database URL used when ``--db`` is not given."""

BUSY_TIMEOUT_MS = 30_000
"""How long a SQLite writer waits for the lock held by another station, in ms."""

LOCK_RETRY_SECONDS = 0.001
"""How often a SQLite writer waiting for the write lock tries again (``take_write_lock``)."""

MIGRATIONS = Path(__file__).resolve().parent / "migrations"

SCHEMA_HEAD = "0012"
"""The newest migration (``migrations/versions``). A database already at it opens without
loading Alembic (a read-only command starts faster); a test keeps it equal to Alembic's head."""


class DatabaseError(RuntimeError):
    """The database cannot be opened or has a schema this version does not know."""


class DatabaseUnavailable(DatabaseError):
    """The database stopped answering during a read or a write (server down, network
    lost, file locked too long, disk full): the message (Spanish) says what and what to
    do; nothing of the failed transaction was stored."""


RESTORE_HINT = ("guarde una copia del archivo tal como está; luego restaure el torneo desde su último registro "
                "exportado en una base de datos nueva («duplicada restore REGISTRO --db NUEVA.db») o vuelva a la "
                "última copia de seguridad del archivo")
"""What every message about a damaged database says to do next (issue 36 §3)."""


def explain(error: BaseException, url: URL) -> str:
    """A Spanish message for a database ``error`` met with ``url``: what happened and
    the next step, never the driver's own text. The URL is shown without its password."""
    where = masked_url(url)
    detail = str(getattr(error, "orig", None) or error).lower()
    if "password authentication failed" in detail or "authentication failed" in detail:
        return (f"el servidor de la base de datos {where} rechaza el usuario o la contraseña: "
                "compruebe la URL de --db o de DUPLICADA_DB")
    if "does not exist" in detail and "database" in detail:
        return f"la base de datos de {where} no existe en el servidor: créela, o corrija el nombre en la URL"
    if any(text in detail for text in ("connection refused", "could not connect", "connection failed",
                                       "server closed the connection", "timeout expired", "no route to host",
                                       "name or service not known", "could not translate host name")):
        return (f"el servidor de la base de datos {where} no responde: compruebe que está en marcha y que la red "
                "llega a él, y vuelva a intentarlo")
    if "file is not a database" in detail or "file is encrypted" in detail:
        return f"{where} no es una base de datos de duplicada: elija otro archivo con --db"
    if "malformed" in detail or "corrupt" in detail:
        return f"{where} está dañada (el archivo no se lee entero): no se ha escrito nada; {RESTORE_HINT}"
    if "unable to open database file" in detail:
        return (f"no se puede abrir {where}: la carpeta no existe o no se puede escribir en ella; "
                "elija otro archivo con --db")
    if "database is locked" in detail or "database is busy" in detail:
        return (f"la base de datos {where} está ocupada por otro puesto desde hace más de "
                f"{BUSY_TIMEOUT_MS // 1000} s: vuelva a intentarlo")
    if "disk" in detail and ("full" in detail or "i/o" in detail):
        return f"no se puede escribir en {where}: disco lleno o averiado; libere espacio y vuelva a intentarlo"
    if "readonly" in detail or "read-only" in detail:
        return f"{where} es de solo lectura: dé permiso de escritura o elija otro archivo con --db"
    return (f"la base de datos {where} no responde como se esperaba ({type(error).__name__}): vuelva a "
            "intentarlo; si se repite, avise al responsable técnico")


class DatabaseConflict(DatabaseUnavailable):
    """PostgreSQL gave up a transaction that waited on another one at the same moment (a
    deadlock, SQLSTATE 40P01, or a serialisation failure, 40001): nothing of it was stored;
    the action can be looked at again and repeated."""


CONFLICT_STATES = frozenset({"40001", "40P01"})
"""SQLSTATE codes of a transaction rolled back for another's sake (serialisation failure, deadlock)."""


def _conflict(error: OperationalError | InterfaceError) -> bool:
    """True when ``error`` is the server rolling back this transaction for a concurrent one."""
    original = error.orig
    return (getattr(original, "sqlstate", None) or getattr(original, "pgcode", None)) in CONFLICT_STATES


class DatabaseDamaged(DatabaseUnavailable):
    """A stored value cannot be read back (a damaged page, a datetime or JSON column that
    does not parse, a number of the wrong type): the message (Spanish) names the database
    and says to restore a copy; the transaction was rolled back, nothing was written."""


def _from_storage(error: BaseException) -> bool:
    """True when ``error`` was raised while SQLAlchemy or the driver read or wrote a value
    (a frame of the traceback is theirs), not by the code using the session."""
    frame = error.__traceback__
    while frame is not None:
        name = frame.tb_frame.f_globals.get("__name__", "")
        if name.startswith(("sqlalchemy.", "sqlite3", "psycopg")):
            return True
        frame = frame.tb_next
    return False


def damaged(error: BaseException, url: URL) -> DatabaseDamaged:
    """The Spanish ``DatabaseDamaged`` for ``error`` met reading ``url`` (shown without its password)."""
    where = masked_url(url)
    if isinstance(error, OverflowError):
        return DatabaseDamaged(f"un número no cabe en la base de datos {where}: no se ha guardado nada")
    return DatabaseDamaged(f"la base de datos {where} tiene datos dañados que no se pueden leer "
                           f"({type(error).__name__}): no se ha escrito nada; {RESTORE_HINT}")


def damaged_file(url: URL, problems: int | None) -> DatabaseDamaged:
    """The Spanish ``DatabaseDamaged`` for a SQLite file at ``url`` that ``PRAGMA quick_check``
    finds damaged (``problems``: how many it lists; ``None`` when the check itself could not
    read the file): it names the database, says nothing was written, and points to
    ``duplicada restore`` from the last exported record and to a backup copy (issue 36 §3)."""
    where = masked_url(url)
    found = ("la comprobación «PRAGMA quick_check» de SQLite no puede leerla" if problems is None else
             f"la comprobación «PRAGMA quick_check» de SQLite encuentra {problems} "
             f"{'problema' if problems == 1 else 'problemas'}")
    return DatabaseDamaged(f"la base de datos {where} está dañada ({found}): no se ha escrito nada y no se escribirá "
                           f"en ella; {RESTORE_HINT}")


def quick_check(connection: Connection, url: URL) -> None:
    """Run ``PRAGMA quick_check`` on the SQLite ``connection`` (to the file at ``url``) and
    raise ``damaged_file`` unless it answers ``ok``: the b-trees' pages, cells, free list
    and NOT NULL/CHECK constraints are read through (O(size of the file); not the indexes
    against their tables, which ``integrity_check`` adds). Issue 36 §3."""
    try:
        rows = [str(row[0]) for row in connection.exec_driver_sql("PRAGMA quick_check").all()]
    except SQLAlchemyDatabaseError as error:
        detail = str(error.orig).lower()
        if "malformed" in detail or "corrupt" in detail or "not a database" in detail:
            raise damaged_file(url, None) from None
        raise
    if rows != ["ok"]:
        raise damaged_file(url, sum(1 for row in rows for line in row.splitlines()
                                    if line.strip() and not line.startswith("*** in database")))


def default_database_url() -> str:
    """``$DUPLICADA_DB`` or a SQLite file ``duplicada.db`` in the user's data directory."""
    if url := os.environ.get(DATABASE_ENV):
        return url
    folder = Path(platformdirs.user_data_dir("duplicada", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'duplicada.db'}"


SECRET_PARAMETER = re.compile(r"pass|pwd|secret|token", re.IGNORECASE)
"""Query parameters of a URL whose value is a secret (``?password=``, ``sslpassword``…)."""


def masked_url(value: str | URL) -> str:
    """``value`` (a URL, parsed or not, valid or not) with every secret replaced by
    ``***``: the password, what follows a raw ``@`` written inside it, and query
    parameters such as ``?password=``. What every message, log and console shows of a
    database URL (issue 14 §4, issue 26 §3); the one function for it."""
    if isinstance(value, str):
        try:
            url = make_url(value)
        except (ArgumentError, ValueError):     # not a URL: mask by its shape
            return _masked_text(value)
    else:
        url = value
    host = url.host
    if host and "@" in host:                    # «juez:p@ss@servidor»: «ss@» belongs to the password
        url = url.set(host=host.rsplit("@", 1)[1], password=url.password or "***")
    if any(SECRET_PARAMETER.search(key) for key in url.query):
        url = url.set(query={key: "***" if SECRET_PARAMETER.search(key) else item for key, item in url.query.items()})
    return url.render_as_string(hide_password=True).replace("%2A%2A%2A", "***")


def _masked_text(text: str) -> str:
    """``masked_url`` for a text that does not parse as a URL: the user information up to
    the last ``@`` after ``://`` and secret query parameters masked."""
    scheme, separator, rest = text.partition("://")
    if separator and "@" in rest:
        user_info, _, after = rest.rpartition("@")
        user = user_info.split(":", 1)[0]
        text = f"{scheme}://{user}:***@{after}" if ":" in user_info else text
    return re.sub(r"([?&;][^=&;#]*(?:pass|pwd|secret|token)[^=&;#]*=)[^&;#]*", r"\1***", text, flags=re.IGNORECASE)


def database_url(text: str) -> str:
    """Normalise a ``--db`` value: a SQLAlchemy URL, or a plain file path for SQLite.

    Raises ``DatabaseError`` naming the value when it is neither.
    """
    if "://" not in text:
        return f"sqlite:///{Path(text).expanduser().resolve()}"
    try:
        make_url(text)
    except (ArgumentError, ValueError):
        raise DatabaseError(f"--db «{masked_url(text)}»: no es una URL de SQLAlchemy válida "
                            "(dialecto+controlador://usuario@servidor:puerto/base; la contraseña, mejor en "
                            "PGPASSWORD o ~/.pgpass)") from None
    return text


def folder_name(url: URL) -> str:
    """A name for folders that belong to the database at ``url`` (the app's publications:
    tournament 1 of two databases must not share one): the file's name, or the database's,
    and 10 hex digits of the SHA-256 of where it is — the resolved file path, or the URL
    without its password (the user, server, port and database) — e.g.
    ``torneo-3f2a9c01b7``. Letters other than ASCII letters, digits, ``-`` and ``_``
    become ``-``; an in-memory SQLite database is ``memoria``."""
    database = url.database or ""
    if url.get_backend_name() == "sqlite":
        if database in ("", ":memory:") or database.startswith("file::memory:"):
            return "memoria"
        path = Path(database).expanduser().resolve()
        stem, where = path.stem, str(path)
    else:
        stem, where = Path(database).name or url.get_backend_name(), url.set(password=None).render_as_string()
    digest = hashlib.sha256(where.encode("utf-8")).hexdigest()[:10]
    return f"{re.sub(r'[^A-Za-z0-9_-]+', '-', stem).strip('-') or 'base'}-{digest}"


WRITING = "duplicada.writing"
"""Key of ``Session.info`` set in the sessions ``Database.write`` yields."""


class Database:
    """An opened, migrated database. ``write()``/``read()`` yield sessions.

    On SQLite the file is checked (``quick_check``) before the first write of this object:
    a damaged file is never written (issue 36 §3). PostgreSQL checks its own pages (a
    server-side matter): nothing is checked there."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.is_sqlite = engine.dialect.name == "sqlite"
        self.folder_name = folder_name(engine.url)
        """This database's own folder name (``folder_name``)."""
        writer = engine.execution_options(immediate_transaction=True) if self.is_sqlite else engine
        self._write = sessionmaker(writer, expire_on_commit=False)
        install_event_chain(self._write)      # each appended event chained to the one before (issue 26 §2)
        self._guarded = False
        """True once the projector guards the write sessions (``write``)."""
        self._read = sessionmaker(engine, expire_on_commit=False)
        self._file_checked = not self.is_sqlite
        """True once the SQLite file passed ``quick_check`` (``check_file``); always on a server."""
        self._check_lock = threading.Lock()

    def check_file(self) -> None:
        """Before this object's first write on SQLite: ``PRAGMA quick_check`` on the file, once
        (later calls return at once); ``DatabaseDamaged`` (Spanish, ``damaged_file``) when it
        finds damage, and again at every later call: a damaged file is never written. It
        runs in a read transaction of its own, outside the write lock (other stations' writes
        go on meanwhile). PostgreSQL: nothing to do. Issue 36 §3."""
        if self._file_checked:
            return
        with self._check_lock:
            if self._file_checked:
                return
            with self._storage_errors(), self.engine.connect() as connection:
                quick_check(connection, self.engine.url)
            self._file_checked = True

    @contextmanager
    def write(self) -> Iterator[Session]:
        """A session whose work is committed on normal exit, rolled back on an exception.
        Raises ``DatabaseUnavailable`` (Spanish) when the database stops answering, and
        ``DatabaseDamaged`` when a stored value cannot be read (a damaged file, a corrupt
        datetime or JSON column).

        What an action decides on it reads in this transaction, once it holds what it
        checks (issue 34 §1, "decide, then apply"): on SQLite the transaction starts with
        ``BEGIN IMMEDIATE`` and holds the database's write lock from its first statement;
        on a server, ``hold`` takes the tournament's lock before the action reads.

        The first write of this object on SQLite checks the file first (``check_file``):
        ``DatabaseDamaged`` for a damaged file, before anything is written (issue 36 §3)."""
        self.check_file()
        if not self._guarded:
            # The projected tables written by the projector alone (issue 34); installed at the
            # first write, so that a read-only command never loads the projector (issue 38).
            from duplicate.storage.projector import guard as guard_projection

            guard_projection(self._write)     # idempotent (two racing first writes check twice at worst)
            self._guarded = True
        with self._storage_errors(), self._write() as session, session.begin():
            session.info[WRITING] = True
            yield session

    @staticmethod
    def hold(session: Session, tournament_id: int) -> None:
        """Inside ``write``: hold ``tournament_id``'s lock to the end of the transaction
        (``event_chain.lock_tournament``: PostgreSQL's advisory lock, the one every append
        of its events takes), so nothing another station commits for that tournament
        changes what this transaction reads from here on before it commits. SQLite: nothing
        to take (``BEGIN IMMEDIATE`` holds the database). A read session: nothing (it
        decides nothing)."""
        if session.info.get(WRITING):
            lock_tournament(session.connection(), tournament_id)

    @contextmanager
    def read(self) -> Iterator[Session]:
        """A session for reading (rolled back at the end); errors as ``write``."""
        with self._storage_errors(), self._read() as session:
            yield session

    @contextmanager
    def _storage_errors(self) -> Iterator[None]:
        """The database's errors met in the block, said in Spanish (``explain``, ``damaged``);
        an ``IntegrityError`` of a unique constraint and the caller's own errors pass as they are."""
        try:
            yield
        except (OperationalError, InterfaceError) as error:
            if _conflict(error):
                raise DatabaseConflict(f"la base de datos {masked_url(self.engine.url)} ha deshecho la transacción "
                                       "porque otro puesto cambiaba lo mismo a la vez") from None
            raise DatabaseUnavailable(explain(error, self.engine.url)) from None
        except IntegrityError as error:
            # A unique constraint: another station wrote the same thing first — the callers
            # retry or say so. A foreign key a stored row breaks: the database is damaged.
            if "foreign key" not in str(error.orig).lower():
                raise
            raise DatabaseDamaged(f"la base de datos {masked_url(self.engine.url)} remite a registros que no "
                                  f"existen (está dañada): no se ha escrito nada; {RESTORE_HINT}") from None
        except SQLAlchemyDatabaseError as error:      # «database disk image is malformed», bad data
            raise DatabaseDamaged(explain(error, self.engine.url)) from None
        except (ValueError, TypeError, OverflowError) as error:
            if not _from_storage(error):               # the caller's own error (a refusal): as it is
                raise
            raise damaged(error, self.engine.url) from None

    def dispose(self) -> None:
        self.engine.dispose()


def _sqlite_pragmas(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def on_connect(dbapi_connection, _record):  # type: ignore[no-untyped-def]
        # Let SQLAlchemy's "begin" event issue BEGIN itself (pysqlite's own handling
        # would defer it and break BEGIN IMMEDIATE).
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA journal_mode = WAL")
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.execute("PRAGMA synchronous = FULL")
        cursor.close()

    @event.listens_for(engine, "begin")
    def on_begin(connection):  # type: ignore[no-untyped-def]
        if connection.get_execution_options().get("immediate_transaction"):
            take_write_lock(connection.connection.driver_connection)
        else:
            connection.exec_driver_sql("BEGIN")


def take_write_lock(connection: sqlite3.Connection) -> None:
    """``BEGIN IMMEDIATE`` on ``connection`` (a SQLite connection opened by
    ``open_database``): the database's write lock, tried again every
    ``LOCK_RETRY_SECONDS`` while another connection holds it, for at most
    ``BUSY_TIMEOUT_MS`` (issue 36 §5).

    The wait is ours, not SQLite's busy handler (``PRAGMA busy_timeout``), which sleeps in
    growing steps (1, 2, 5, 10… ms, then 100 ms at a time): a station that has waited a
    while looked at the lock ten times a second while one that had just arrived looked
    within a millisecond and took it, so with eight stations entering slips some waited
    for seconds. Here every waiting station looks every millisecond, however long it has
    waited: the lock goes to one of them within about a millisecond of being free (not
    first come, first served, but nobody is left looking ten times a second). The busy
    timeout is off during the attempts and set back afterwards (the other statements of
    the connection keep it).

    Raises SQLAlchemy's ``OperationalError`` («database is locked») when the lock is still
    held after ``BUSY_TIMEOUT_MS``; any other error of ``BEGIN IMMEDIATE`` as SQLAlchemy
    wraps it (``DBAPIError.instance``), so ``Database`` says it in Spanish as before."""
    deadline = monotonic() + BUSY_TIMEOUT_MS / 1000
    try:
        connection.execute("PRAGMA busy_timeout = 0")
        try:
            while True:
                try:
                    connection.execute("BEGIN IMMEDIATE")
                    return
                except sqlite3.OperationalError as error:
                    if error.sqlite_errorcode & 0xFF != sqlite3.SQLITE_BUSY or monotonic() >= deadline:
                        raise
                sleep(LOCK_RETRY_SECONDS)
        finally:
            connection.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    except sqlite3.Error as error:
        raise DBAPIError.instance("BEGIN IMMEDIATE", None, error, sqlite3.Error) from None


def _current_revision(engine: Engine) -> str | None:
    """The schema revision stored in the database (None for a new, empty one). A database
    that holds tables but no revision is not duplicada's (or is damaged): ``DatabaseError``,
    and nothing is written to it."""
    with engine.connect() as connection:
        if not connection.dialect.has_table(connection, "alembic_version"):
            if connection.dialect.get_table_names(connection):
                raise DatabaseError(f"{masked_url(engine.url)}: tiene tablas pero no es una base de datos de duplicada "
                                    "(o está dañada): no se toca; indique otra con --db o restaure una copia")
            return None
        return connection.execute(text("SELECT version_num FROM alembic_version")).scalar()


def _alembic_config(engine: Engine) -> Config:
    """Alembic's configuration for ``engine`` (the migrations of this package)."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


def _migrate(engine: Engine, current: str | None, migrate: bool) -> None:
    """Check ``current`` against the migrations and upgrade to the newest with ``migrate``.

    Alembic (and Mako, which it loads) is imported only here, when the schema is not
    already the newest one: opening an up-to-date database does not need it.
    """
    from alembic import command
    from alembic.script import ScriptDirectory

    config = _alembic_config(engine)
    script = ScriptDirectory.from_config(config)
    heads = set(script.get_heads())
    known = {revision.revision for revision in script.walk_revisions()}
    if current is not None and current not in known:
        raise DatabaseError(
            f"la base de datos {masked_url(engine.url)} tiene la revisión de esquema {current}, "
            "más nueva que esta versión de duplicada: actualice el programa"
        )
    if migrate and current not in heads:
        if current is not None and engine.dialect.name == "sqlite":
            with engine.connect() as connection:        # a damaged file is not migrated either (issue 36 §3)
                quick_check(connection, engine.url)
        with engine.begin() as connection:
            config.attributes["connection"] = connection
            command.upgrade(config, "head")


def _check_sqlite_file(path: Path, url: URL, create: bool) -> None:
    """Refuse, before anything is written, a SQLite file that does not exist (unless
    ``create``) or that holds another program's tables: read only (``mode=ro``), so the
    file stays byte for byte as it was — the connection ``open_database`` makes next
    sets WAL mode, which rewrites the file's header (issue 35 §4). ``DatabaseError``."""
    if not path.exists():
        if not create:
            raise DatabaseError(f"no existe la base de datos {masked_url(url)}: compruebe --db ($DUPLICADA_DB); "
                                "solo «duplicada tournament create» y «duplicada restore» crean una nueva")
        return
    try:
        with contextlib.closing(sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)) as connection:
            names = {str(row[0]) for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    except sqlite3.Error as error:
        raise DatabaseError(explain(error, url)) from None
    except UnicodeDecodeError:                      # a damaged schema page: table names that are not text
        raise DatabaseError(f"{masked_url(url)} está dañada (el archivo no se lee entero): no se toca; restaure la "
                            "última copia (o el registro exportado) y vuelva a intentarlo") from None
    if names and "alembic_version" not in names:
        raise DatabaseError(f"{masked_url(url)}: tiene tablas pero no es una base de datos de duplicada "
                            "(o está dañada): no se toca; indique otra con --db o restaure una copia")


def open_database(url: str | None = None, *, migrate: bool = True, create: bool = True) -> Database:
    """Open the database at ``url`` (default: ``default_database_url()``), creating a
    SQLite file that does not exist only with ``create``.

    With ``migrate`` the schema is upgraded to the newest revision. Raises
    ``DatabaseError`` when the URL is bad, the server cannot be reached, the SQLite file
    does not exist (without ``create``) or holds another program's tables (refused
    before anything is written), or the database was written by a newer version of
    duplicada.
    """
    url = database_url(url) if url else default_database_url()
    try:
        engine = create_engine(url, pool_pre_ping=not url.startswith("sqlite"))
    except (SQLAlchemyError, ImportError, ValueError, TypeError) as error:   # no driver, a URL it refuses
        raise DatabaseError(f"no se puede abrir la base de datos {masked_url(url)}"
                            f": falta su controlador o la URL no es válida ({type(error).__name__})") from None
    new_file = None
    if engine.dialect.name == "sqlite":
        path = sqlite_file(engine.url)
        if path is not None:
            _check_sqlite_file(path, engine.url, create)
        _sqlite_pragmas(engine)
        new_file = sqlite_file(engine.url) if migrate else None
        if new_file is not None and copy_schema(new_file):   # a copy of the schema migrated before
            new_file = None
    try:
        current = _current_revision(engine)
        if current != SCHEMA_HEAD:
            _migrate(engine, current, migrate)
            if current is None and new_file is not None:
                remember_schema(new_file)
    except DatabaseError:
        raise
    except Exception as error:  # noqa: BLE001 — a damaged file or a server problem: said in Spanish
        raise DatabaseError(explain(error, engine.url)) from None
    return Database(engine)
