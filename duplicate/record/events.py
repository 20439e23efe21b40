"""The typed event log (issue 3 §2, issue 12 §2): every action appends one event.

Each kind of event is a frozen dataclass (``TournamentEvent`` subclasses, ``KIND`` its
``EventKind``) whose fields are its data; who acted (the credential's name and role), from
which station, when and why are stored beside it in the ``events`` table. The log is
append-only: corrections are new events. ``payload()`` is the JSON stored (the same keys
as the exported record, docs/tournament-record.md) and ``read_event`` turns a stored
kind and payload back into its typed event, as replay does.

The kinds and the base class are in ``event_kinds``; the events, by family, in
``events_registration``, ``events_play``, ``events_slips`` and ``events_ranking`` (import
each class from its family's module); ``EVENT_TYPES`` is built here once they are all declared.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from duplicate.record import events_play, events_ranking, events_registration, events_slips
from duplicate.record.event_kinds import EventKind, TournamentEvent

FAMILIES = (events_registration, events_play, events_slips, events_ranking)
"""The modules declaring the events, one per family: imported here so that every
``TournamentEvent`` subclass is declared before ``EVENT_TYPES`` is built."""

EVENT_TYPES: dict[EventKind, type[TournamentEvent]] = {
    cls.KIND: cls for cls in TournamentEvent.__subclasses__()
}
"""Every kind of event and its class."""


def read_event(kind: str, payload: dict[str, Any]) -> TournamentEvent:
    """The typed event of a stored ``kind`` and ``payload``. Raises ``ValueError`` (Spanish)
    for an unknown kind or a payload without a field the kind needs."""
    try:
        cls = EVENT_TYPES[EventKind(kind)]
    except ValueError:
        raise ValueError(f"tipo de evento desconocido: {kind!r}") from None
    names = {item.name: item for item in fields(cls)}
    missing = [name for name, item in names.items()
               if name not in payload and not item.metadata.get("omit_none")]
    if missing:
        raise ValueError(f"evento {kind!r} sin los datos {', '.join(missing)}")
    return cls(**{name: payload[name] for name in names if name in payload})
