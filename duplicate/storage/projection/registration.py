"""The projector's handlers for the tournament and its settings, players, entries, assistants' tables (events_registration)."""

from __future__ import annotations

from duplicate.record.event_kinds import EventKind
from duplicate.storage.models import Base
from duplicate.storage.projection.handler import Handler

HANDLERS: dict[EventKind, Handler] = {}
MODELS: tuple[type[Base], ...] = ()
