"""The chain of a tournament's events (issue 26 §2): each event keeps the hash of the one
before it, so that removing, reordering or editing any event of a record breaks the chain.

An event's hash is SHA-256 (hex) over the hash of the event before it (``GENESIS`` for the
first event of a tournament), a newline and the **canonical JSON** of the event as the
record writes it (``docs/tournament-record.md``): the object ``{id, kind, game, round,
station, arbiter, role, reason, created_at, payload}`` — ``game`` the game's number,
``created_at`` the instant in UTC written ``YYYY-MM-DDTHH:MM:SS.ffffff+00:00``
(``canonical_time``) — with keys sorted, no spaces and non-ASCII characters escaped
(``json.dumps(..., sort_keys=True, separators=(",", ":"), ensure_ascii=True)``). The
service stores each event's ``previous_hash`` as it appends it; the record carries it with
every event and the hash of the last one as ``events_head``. The checker
(``duplicate.record_chain``) recomputes the chain from the record alone.

Only the standard library: the storage (which fills the chain), the service (which exports
it) and the checker (which recomputes it) share this one definition.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from datetime import UTC, date, datetime
from typing import Any

__all__ = ["CHAIN_FIELDS", "GENESIS", "canonical_time", "event_hash"]

GENESIS = "0" * 64
"""The ``previous_hash`` of a tournament's first event."""

CHAIN_FIELDS = ("id", "kind", "game", "round", "station", "arbiter", "role", "reason", "created_at", "payload")
"""The keys of an exported event that its hash covers (``previous_hash`` is chained apart)."""


def canonical_time(moment: datetime | date | str | None) -> str | None:
    """``moment`` (a datetime, or its ISO 8601 text as a record writes it) as hashed: the
    instant in UTC with microseconds and ``+00:00``. A time without a zone is UTC (SQLite
    gives them back so). Raises ``ValueError`` for a text that is not an ISO 8601 time or
    a value of another type."""
    if moment is None:
        return None
    if isinstance(moment, str):
        moment = datetime.fromisoformat(moment)
    if isinstance(moment, date) and not isinstance(moment, datetime):
        return moment.isoformat()
    if not isinstance(moment, datetime):
        raise ValueError(f"se esperaba una hora ISO 8601, no {type(moment).__name__}")
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def event_hash(previous: str, event: Mapping[str, Any], *, parsed: bool = False) -> str:
    """The hash of ``event`` (a record's event object: the ``CHAIN_FIELDS``, a missing one
    counting as null) chained after ``previous`` (64 hex digits). ``parsed``: the event's
    values are as ``json.loads`` gives them (objects with text keys, lists, texts, numbers,
    true, false, null: a record read by the checker), so the trip through JSON that makes
    other values so (tuples, number keys) would change nothing and is skipped (issue 38).
    Raises ``ValueError`` for a ``created_at`` that is not a time or an integer too long to
    write, ``TypeError`` for a value JSON cannot write and ``RecursionError`` for data
    nested too deep."""
    document = {key: event.get(key) for key in CHAIN_FIELDS}
    document["created_at"] = canonical_time(document["created_at"])
    if not parsed and not _text_keys(document):
        # Through JSON once, as stored: keys become text (sortable), tuples lists. With every
        # key text already, writing it once gives the same text (issue 38: half the time).
        document = json.loads(json.dumps(document))
    text = _HASHED.encode(document)
    return hashlib.sha256(f"{previous}\n{text}".encode("ascii")).hexdigest()


_HASHED = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=True)
"""``json.dumps(…, sort_keys=True, separators=(",", ":"), ensure_ascii=True)``, made once."""


def _text_keys(value: Any) -> bool:
    """Whether every key of every object in ``value`` is text (as JSON writes it back);
    nested objects and arrays looked at without a call per value. False as well when a
    container is met twice (shared or circular: a forged record can hold itself), so that
    the trip through JSON decides — ``ValueError`` for a circular value — and this never
    loops."""
    pending = [value]
    seen: set[int] = set()
    while pending:
        item = pending.pop()
        if id(item) in seen:
            return False
        seen.add(id(item))
        if isinstance(item, dict):
            for key, inner in item.items():
                if not isinstance(key, str):
                    return False
                if isinstance(inner, (dict, list, tuple)):
                    pending.append(inner)
        elif isinstance(item, (list, tuple)):
            pending.extend(inner for inner in item if isinstance(inner, (dict, list, tuple)))
    return True
