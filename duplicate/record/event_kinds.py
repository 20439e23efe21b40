"""The kinds of the typed event log (issue 3 §2, issue 12 §2) and the base of its events.

Each kind of event is a frozen dataclass (``TournamentEvent`` subclasses, ``KIND`` its
``EventKind``) whose fields are its data; who acted (the credential's name and role), from
which station, when and why are stored beside it in the ``events`` table. The log is
append-only: corrections are new events. ``payload()`` is the JSON stored (the same keys
as the exported record, docs/tournament-record.md) and ``read_event`` turns a stored
kind and payload back into its typed event, as replay does.

The events themselves are declared by family in ``events_registration``, ``events_play``,
``events_slips`` and ``events_ranking``; ``duplicate.record.events`` gathers them
(``EVENT_TYPES``, ``read_event``).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Any, ClassVar

__all__ = ["OMIT_NONE", "EventKind", "TournamentEvent"]


class EventKind(StrEnum):
    """Kinds of ``Event`` (issue 3 §2)."""

    TOURNAMENT_CREATED = "tournament_created"
    SETTINGS_CHANGED = "settings_changed"
    PLAYER_ADDED = "player_added"
    ENTRY_STATUS = "entry_status"
    ASSISTANT_RANGE = "assistant_range"
    GAME_CREATED = "game_created"
    TABLES_ASSIGNED = "tables_assigned"
    RACK_DRAWN = "rack_drawn"
    RACK_SET = "rack_set"
    MASTER_CHOSEN = "master_chosen"
    GAME_ENDED = "game_ended"
    SLIP_ENTERED = "slip_entered"
    SLIP_CONFLICT = "slip_conflict"
    SLIP_CHECKED = "slip_checked"
    SLIP_CORRECTED = "slip_corrected"
    CONFLICT_RESOLVED = "conflict_resolved"
    MASTER_ANNULLED = "master_annulled"
    ROUND_CLOSED = "round_closed"
    BONUSES_AWARDED = "bonuses_awarded"
    CLAIM_FILED = "claim_filed"
    CLAIM_RESOLVED = "claim_resolved"
    RESULTS_PUBLISHED = "results_published"
    GAME_REOPENED = "game_reopened"
    PIN_CHANGED = "pin_changed"
    RACK_WITHDRAWN = "rack_withdrawn"
    MASTER_UNDONE = "master_undone"
    TIMER = "timer"
    PLAYER_UPDATED = "player_updated"
    DIVISION_CREATED = "division_created"
    ROUND_PAIRED = "round_paired"
    RESULT_ENTERED = "result_entered"
    RESULT_CONFLICT = "result_conflict"
    RESULT_RESOLVED = "result_resolved"
    CLASSIC_ENTRY = "classic_entry"
    RATINGS_UPDATED = "ratings_updated"
    RATINGS_RECOMPUTED = "ratings_recomputed"
    SLIPS_SET_ASIDE = "slips_set_aside"
    PREPARED_LOADED = "prepared_game_loaded"
    PREPARED_LEFT = "prepared_game_left"
    VENUE_IMPORTED = "venue_imported"
    VENUE_ADDED = "venue_added"
    SIGNING_KEY_MADE = "signing_key_made"
    VENUE_KEY_REGISTERED = "venue_key_registered"


OMIT_NONE = {"omit_none": True}
"""Field metadata: a ``None`` value is left out of the stored payload (optional keys)."""


@dataclass(frozen=True)
class TournamentEvent:
    """One event's data; subclasses set ``KIND`` and declare the fields."""

    KIND: ClassVar[EventKind]

    def payload(self) -> dict[str, Any]:
        """The JSON object stored in the log (fields by name, optional ``None`` left out)."""
        return {item.name: getattr(self, item.name) for item in fields(self)
                if not (item.metadata.get("omit_none") and getattr(self, item.name) is None)}
