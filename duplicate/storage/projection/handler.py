"""The shape of a projector's handler (``duplicate.storage.projector``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from sqlalchemy.orm import Session

from duplicate.storage.event_chain import AppendedEvent
from duplicate.storage.models import Event

Handler = Callable[[Session, Event, Any], None]
"""Applies one stored event (the ``events`` row, and its typed form: a
``duplicate.record.event_kinds.TournamentEvent`` of the handler's kind) to a session's tables."""

BatchHandler = Callable[[Session, Sequence[tuple[Event | AppendedEvent, Any]]], None]
"""Applies a run of stored events of one kind at once (each with its typed form; the row an
``Event`` or, appended in a batch, an ``AppendedEvent``), leaving
the tables as that kind's ``Handler`` applied to each in order would: for a batch appended
at once (``duplicate.storage.projector.project_all``; issue 36 §4)."""
