"""The shape of a projector's handler (``duplicate.storage.projector``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy.orm import Session

from duplicate.storage.models import Event

Handler = Callable[[Session, Event, Any], None]
"""Applies one stored event (the ``events`` row, and its typed form: a
``duplicate.record.event_kinds.TournamentEvent`` of the handler's kind) to a session's tables."""
