"""Filling the chain of event hashes as events are stored (issue 26 §2; the hash:
``duplicate.record.chain``).

``install(sessionmaker)`` hooks the write sessions of a ``Database``: before a flush that
adds events, the tournament's appends are serialised (PostgreSQL: a transaction-level
advisory lock per tournament; SQLite: every write transaction already holds the
database's lock, ``BEGIN IMMEDIATE``; other servers: the tournament row locked ``FOR
UPDATE``) and each new event's ``created_at`` is made no earlier than the event before it
(stations' clocks differ); after the flush, when the new events have their ids,
``extend_chain`` writes each one's ``previous_hash`` in the same transaction. So the chain
follows the ids, whatever the number of stations appending at once.

``extend_chain`` is also what migration 0007 runs for the events stored before the chain.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, Table, event, insert, select, text
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.orm.attributes import set_committed_value
from sqlalchemy.orm.base import instance_state

from duplicate.record.chain import GENESIS, event_hash

if TYPE_CHECKING:
    from duplicate.storage.models import Event

__all__ = ["LOCK_CLASS", "AppendedEvent", "append_events", "extend_chain", "install", "lock_tournament"]

LOCK_CLASS = 0x64757063
"""First key of the PostgreSQL advisory lock that serialises a tournament's appends (the
second is the tournament id)."""

_ROWS = text(
    "SELECT events.id, events.kind, games.number, events.round_number, events.station, events.arbiter, "
    "events.role, events.reason, events.created_at, events.payload, events.previous_hash "
    "FROM events LEFT OUTER JOIN games ON games.id = events.game_id "
    "WHERE events.tournament_id = :tournament AND events.id >= :first ORDER BY events.id")
_BEFORE = text("SELECT id FROM events WHERE tournament_id = :tournament AND id < :first "
               "ORDER BY id DESC LIMIT 1")
_UPDATE = text("UPDATE events SET previous_hash = :hash WHERE id = :id")


@dataclass(slots=True)
class AppendedEvent:
    """The columns of an ``events`` row appended in a batch (``append_events``): what the
    projector's batch handlers read of it, without an ORM object per row (issue 38).
    ``id`` is given before the append; ``previous_hash`` is written by it."""

    id: int
    tournament_id: int
    game_id: int | None
    round_number: int | None
    kind: str
    payload: dict[str, Any]
    station: str
    arbiter: str
    role: str
    reason: str
    created_at: datetime
    previous_hash: str | None = None

    def as_event(self) -> Event:
        """The same row as an ``Event`` object (not in any session), for a per-event handler."""
        from duplicate.storage.models import Event

        return Event(id=self.id, tournament_id=self.tournament_id, game_id=self.game_id,
                     round_number=self.round_number, kind=self.kind, payload=self.payload, station=self.station,
                     arbiter=self.arbiter, role=self.role, reason=self.reason, created_at=self.created_at,
                     previous_hash=self.previous_hash)


_COLUMNS = ("id", "tournament_id", "game_id", "round_number", "kind", "payload", "station", "arbiter", "role",
            "reason", "created_at", "previous_hash")
"""The columns of ``events`` (``AppendedEvent``'s fields)."""


def _document(row: Any) -> dict[str, Any]:
    payload = row[9]
    if isinstance(payload, (str, bytes)):
        payload = json.loads(payload)
    return {"id": row[0], "kind": row[1], "game": row[2], "round": row[3], "station": row[4],
            "arbiter": row[5], "role": row[6], "reason": row[7], "created_at": row[8], "payload": payload}


def extend_chain(connection: Connection, tournament_id: int, first_id: int = 0) -> dict[int, str]:
    """Write ``previous_hash`` for the events of ``tournament_id`` from id ``first_id`` on
    (in id order), chained after the event before them; returns id → previous hash written.
    An event before them without its hash (a database not yet migrated) is chained first."""
    before = connection.execute(_BEFORE, {"tournament": tournament_id, "first": first_id}).scalar()
    previous = GENESIS
    rows = None
    if before is not None:
        rows = connection.execute(_ROWS, {"tournament": tournament_id, "first": before}).all()
        if rows[0][10] is None:                       # unchained history: chain it all
            rows = connection.execute(_ROWS, {"tournament": tournament_id, "first": 0}).all()
        else:                                         # the event before, then the ones from first_id
            previous, rows = event_hash(rows[0][10], _document(rows[0])), rows[1:]
    if rows is None:
        rows = connection.execute(_ROWS, {"tournament": tournament_id, "first": first_id}).all()
    written: dict[int, str] = {}
    changed: list[dict[str, Any]] = []
    for row in rows:
        if row[10] != previous:
            changed.append({"hash": previous, "id": row[0]})
        written[row[0]] = previous
        previous = event_hash(previous, _document(row))
    if changed:                                     # one statement for a batch (issue 36 §4)
        connection.execute(_UPDATE, changed)
    return written


def _new_events(session: Session) -> dict[int, list[Any]]:
    from duplicate.storage.models import Event

    found: dict[int, list[Any]] = defaultdict(list)
    for item in session.new:
        if isinstance(item, Event):
            found[item.tournament_id].append(item)
    for items in found.values():
        items.sort(key=lambda item: instance_state(item).insert_order or 0)
    return found


def lock_tournament(connection: Connection, tournament_id: int) -> None:
    """Hold ``tournament_id``'s lock until the end of ``connection``'s transaction: the
    one every append of its events takes (PostgreSQL: the transaction-level advisory lock
    ``(LOCK_CLASS, tournament_id)``, taken again at no cost; other servers: the tournament
    row ``FOR UPDATE``). SQLite: nothing, a write transaction holds the whole database
    from its ``BEGIN IMMEDIATE``."""
    dialect = connection.dialect.name
    if dialect == "postgresql":
        connection.execute(text("SELECT pg_advisory_xact_lock(:class, :key)"),
                           {"class": LOCK_CLASS, "key": tournament_id})
    elif dialect != "sqlite":
        connection.execute(text("SELECT id FROM tournaments WHERE id = :id FOR UPDATE"), {"id": tournament_id})


def _as_utc(moment: Any) -> datetime | None:
    if isinstance(moment, str):
        moment = datetime.fromisoformat(moment)
    if not isinstance(moment, datetime):
        return None
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment


def _no_earlier(connection: Connection, tournament_id: int, items: Sequence[Any]) -> None:
    """Take ``tournament_id``'s lock and make each new event of ``items`` (in order) no
    earlier than the event before it."""
    from duplicate.storage.models import Event

    lock_tournament(connection, tournament_id)
    # Read through the column's type: a stored time that does not parse fails inside
    # SQLAlchemy, which the database's write turns into DatabaseDamaged (a damaged file).
    latest = _as_utc(connection.execute(
        select(Event.created_at).where(Event.tournament_id == tournament_id).order_by(Event.id.desc()).limit(1)
    ).scalar())
    for item in items:
        moment = _as_utc(item.created_at)
        if moment is not None and latest is not None and moment < latest:
            item.created_at = latest
        latest = _as_utc(item.created_at) or latest


def _before_flush(session: Session, _context: Any, _instances: Iterable[Any] | None) -> None:
    pending = _new_events(session)
    if not pending:
        return
    connection = session.connection()
    for tournament_id, items in sorted(pending.items()):
        _no_earlier(connection, tournament_id, items)
    session.info["chain_pending"] = {tournament_id: list(items) for tournament_id, items in pending.items()}


def _after_flush(session: Session, _context: Any) -> None:
    pending: dict[int, list[Any]] = session.info.pop("chain_pending", {})
    connection = session.connection()
    for tournament_id, items in sorted(pending.items()):
        written = extend_chain(connection, tournament_id, min(item.id for item in items))
        for item in items:
            set_committed_value(item, "previous_hash", written.get(item.id))


def _head(connection: Connection, tournament_id: int, first_id: int) -> str | None:
    """The ``previous_hash`` the event ``first_id`` of ``tournament_id`` gets when appended
    now (``GENESIS`` for the first); None when the event before it has no hash yet (a
    database not yet migrated: ``extend_chain`` chains that history first)."""
    before = connection.execute(_BEFORE, {"tournament": tournament_id, "first": first_id}).scalar()
    if before is None:
        return GENESIS
    row = connection.execute(_ROWS, {"tournament": tournament_id, "first": before}).first()
    if row is None or row[10] is None:
        return None
    return event_hash(row[10], _document(row))


def append_events(session: Session, tournament_id: int, items: Sequence[AppendedEvent]) -> None:
    """Store the new events ``items`` of ``tournament_id`` (their ids given, in increasing
    order, after every stored one) in one statement, chained: what a flush of ``Event``
    objects does (``_before_flush``, ``_after_flush``) without an object of the session per
    row and without reading them back — a round's slips or a players' import (issue 38).
    Each one's ``previous_hash`` is computed before the insert from the items (their columns
    as the log stores them, the game's number read once), the hash ``extend_chain``
    computes from the stored rows (the replay test and ``verify`` compare the two); after an
    unchained history, ``extend_chain`` chains it all. Anything pending in the session is
    flushed first (its checks run as before). The items get their ``created_at`` as stored
    and their ``previous_hash``."""
    from duplicate.storage.models import Event, GameRow

    if not items:
        return
    session.flush()
    connection = session.connection()
    _no_earlier(connection, tournament_id, items)
    previous = _head(connection, tournament_id, items[0].id)
    if previous is not None:
        games = {item.game_id for item in items if item.game_id is not None}
        numbers: dict[int | None, int] = dict(connection.execute(
            select(GameRow.id, GameRow.number).where(GameRow.id.in_(games))).all() if games else ())
        for item in items:
            item.previous_hash = previous
            previous = event_hash(previous, {"id": item.id, "kind": item.kind, "game": numbers.get(item.game_id),
                                             "round": item.round_number, "station": item.station,
                                             "arbiter": item.arbiter, "role": item.role, "reason": item.reason,
                                             "created_at": item.created_at, "payload": item.payload})
    table = Event.__table__
    assert isinstance(table, Table)
    connection.execute(insert(table), [{key: getattr(item, key) for key in _COLUMNS} for item in items])
    if previous is None:
        written = extend_chain(connection, tournament_id, items[0].id)
        for item in items:
            item.previous_hash = written.get(item.id)


def install(factory: sessionmaker[Session]) -> None:
    """Fill the chain in every session ``factory`` makes (``Database``'s write sessions)."""
    event.listen(factory, "before_flush", _before_flush)
    event.listen(factory, "after_flush", _after_flush)
