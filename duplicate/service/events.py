"""The event log's kinds (issue 3 §2): every action appends one event."""

from __future__ import annotations

from enum import StrEnum


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
    TIMER = "timer"
    PLAYER_UPDATED = "player_updated"
