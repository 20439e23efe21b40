"""The projector's handlers for games, seating, racks, masters, the clock, prepared games, venues (events_play)."""

from __future__ import annotations

from duplicate.record.event_kinds import EventKind
from duplicate.storage.models import Base
from duplicate.storage.projection.handler import Handler

HANDLERS: dict[EventKind, Handler] = {}
MODELS: tuple[type[Base], ...] = ()
