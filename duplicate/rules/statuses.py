"""The statuses a tournament's records go through, as values every layer may use: the
service stores them, the front ends show and choose them (via ``duplicate.service``), the
published sheets name them. No storage here: the ORM models (``duplicate.storage.models``)
import them.
"""

from __future__ import annotations

from enum import StrEnum


class EntryStatus(StrEnum):
    """A player's standing in a tournament."""

    ACTIVE = "active"
    WITHDRAWN = "withdrawn"
    ABSENT = "absent"
    DISQUALIFIED = "disqualified"


class GameStatus(StrEnum):
    """Life of a game: played, then provisional results, claims, final (III.26, IV.32)."""

    SETUP = "setup"
    PLAYING = "playing"
    ENDED = "ended"
    PROVISIONAL = "provisional"
    FINAL = "final"


SLIP_ANNULLED = "annulled"
"""Status of a slip whose move was a master found wrong later: it scores 0 (III.29)."""


class SeatingMethod(StrEnum):
    """How tables are assigned (II.6); never free choice."""

    STANDINGS = "standings"
    RATING = "rating"
    ALPHABETICAL = "alphabetical"
    RANDOM = "random"


class ConflictKind(StrEnum):
    DUPLICATE = "duplicate"          # a second, different slip for the same player and round
    DOUBLE_ENTRY = "double_entry"    # the re-typed slip of double entry does not match


class ClaimStatus(StrEnum):
    OPEN = "open"
    UPHELD = "upheld"
    REJECTED = "rejected"
