"""Events logged by the ranking layer's services (issue 3 §2): the classic events' divisions,
pairings, results and entries (issue 16, ``ranking.classic``) and the EloDI rating
updates and recomputations (rules V, issue 24, ``ranking.ratings``). Declared here, below
``ranking``, so the one log reads them back. Gathered by ``duplicate.record.events``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from duplicate.record.event_kinds import OMIT_NONE, EventKind, TournamentEvent

__all__ = [
    "ClassicEntryChanged",
    "DivisionCreated",
    "RatingsRecomputed",
    "RatingsUpdated",
    "ResultConflict",
    "ResultEntered",
    "ResultResolved",
    "RoundPaired",
]


# --- classic (head-to-head) events, issue 16 (ranking.classic.service) ----------------------


@dataclass(frozen=True)
class DivisionCreated(TournamentEvent):
    """A classic division: its ``system`` (Swiss system, ``round-robin`` or ``manual``),
    ``rounds`` and ``settings`` (``ranking.classic.views.DivisionSettings``)."""

    KIND = EventKind.DIVISION_CREATED
    division: str
    system: str
    rounds: int
    settings: dict[str, Any]


@dataclass(frozen=True)
class RoundPaired(TournamentEvent):
    """A classic round's boards: ``[table or 0 for a bye, first number, second number or 0]``
    by starting number; ``method`` the system used or ``manual`` (the reason is the event's)."""

    KIND = EventKind.ROUND_PAIRED
    division: str
    round: int
    method: str
    boards: list[list[int]]


@dataclass(frozen=True)
class ResultEntered(TournamentEvent):
    """Both scores of a classic board; ``forfeit`` names the side that lost by forfeit
    (``both``: a double forfeit)."""

    KIND = EventKind.RESULT_ENTERED
    division: str
    round: int
    table: int
    first_score: int
    second_score: int
    forfeit: str | None = field(default=None, metadata=OMIT_NONE)


@dataclass(frozen=True)
class ResultConflict(TournamentEvent):
    """A second station entered other scores for a board: kept apart for the judge."""

    KIND = EventKind.RESULT_CONFLICT
    division: str
    round: int
    table: int
    first_score: int
    second_score: int
    counted_first: int
    counted_second: int


@dataclass(frozen=True)
class ResultResolved(TournamentEvent):
    KIND = EventKind.RESULT_RESOLVED
    division: str
    round: int
    table: int
    first_score: int
    second_score: int


@dataclass(frozen=True)
class ClassicEntryChanged(TournamentEvent):
    """A player's status in a classic division from ``round`` on: ``joined`` (late entry),
    ``withdrawn``, a bye asked for that round (``half-bye``, ``zero-bye``), ``entered`` (put
    in the division before round 1) or ``rating`` (corrected); the reason names the player
    and rating."""

    KIND = EventKind.CLASSIC_ENTRY
    division: str
    number: int
    change: str
    round: int


# --- EloDI (rules V), issue 24 (ranking.ratings) ------------------------------------------


@dataclass(frozen=True)
class RatingsUpdated(TournamentEvent):
    """Games rated into ``version`` of the EloDI history: each ``{"tournament": id,
    "game": number}`` in date order (the rating list is the database's, signed for by the
    judge of the tournament whose log holds the event)."""

    KIND = EventKind.RATINGS_UPDATED
    version: int
    games: list[dict[str, int]]


@dataclass(frozen=True)
class RatingsRecomputed(TournamentEvent):
    """Every valid game replayed in date order into a new ``version`` of the EloDI history
    (``elodi.md``, "Recomputation"); ``previous`` (kept, readable) is the version it
    follows, ``None`` for the first; ``games``: how many games it rates."""

    KIND = EventKind.RATINGS_RECOMPUTED
    version: int
    previous: int | None
    games: int
