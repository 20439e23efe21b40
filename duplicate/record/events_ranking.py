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
    "RATED_GAME_KEYS",
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
    ``rounds`` and ``settings`` (``ranking.classic.views.DivisionSettings``); ``id``: the
    division's row (left out by records before issue 34)."""

    KIND = EventKind.DIVISION_CREATED
    division: str
    system: str
    rounds: int
    settings: dict[str, Any]
    id: int | None = field(default=None, metadata=OMIT_NONE)


@dataclass(frozen=True)
class RoundPaired(TournamentEvent):
    """A classic round's boards: ``[table or 0 for a bye, first number, second number or 0]``
    by starting number; ``method`` the system used or ``manual`` (the reason is the event's).

    Since issue 34 (each left out when empty, and by older records): ``ids`` the boards'
    rows, in the order of ``boards``; ``gibson`` the table of the Gibson board;
    ``forfeits`` the side that did not play (``first``/``second``) of each unplayed board
    (table 0 and two players: a withdrawn player's round-robin game), in order;
    ``club_waived`` ``True`` when the same-club pairs could not be kept apart this round.

    Since issue 35 §5: ``system_pairs`` the pairs (``[first, second or 0]``) the division's
    Swiss system gave for a round the judge paired by hand differently (C.04.2 A.4/A.5:
    the event's reason says why); ``[]`` when the system could not pair it."""

    KIND = EventKind.ROUND_PAIRED
    division: str
    round: int
    method: str
    boards: list[list[int]]
    ids: list[int] | None = field(default=None, metadata=OMIT_NONE)
    gibson: int | None = field(default=None, metadata=OMIT_NONE)
    forfeits: list[str] | None = field(default=None, metadata=OMIT_NONE)
    club_waived: bool | None = field(default=None, metadata=OMIT_NONE)
    system_pairs: list[list[int]] | None = field(default=None, metadata=OMIT_NONE)


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
    and rating.

    Since issue 34 (left out by older records and where they do not apply): ``seed`` the
    player's row in the division (``entered``, ``joined``, ``rating``), ``entry`` the
    tournament entry put in (``entered``, ``joined``), ``rating`` and ``title`` as stored
    (``title`` left out of a ``rating`` change that keeps it); ``order``: the division's
    rows in the new starting order (number 1 first) when the change renumbered the list
    (C.04.2 B.3). An ``entered`` player gets the number after the last one until then."""

    KIND = EventKind.CLASSIC_ENTRY
    division: str
    number: int
    change: str
    round: int
    seed: int | None = field(default=None, metadata=OMIT_NONE)
    entry: int | None = field(default=None, metadata=OMIT_NONE)
    rating: int | None = field(default=None, metadata=OMIT_NONE)
    title: str | None = field(default=None, metadata=OMIT_NONE)
    order: list[int] | None = field(default=None, metadata=OMIT_NONE)


# --- EloDI (rules V), issue 24 (ranking.ratings) ------------------------------------------

RATED_GAME_KEYS = ("tournament", "game", "published", "rounds", "players")
"""The keys of one rated game in ``RatingsUpdated.games`` / ``RatingsRecomputed.rated``
(the last three since issue 34)."""


@dataclass(frozen=True)
class RatingsUpdated(TournamentEvent):
    """Games rated into ``version`` of the EloDI history: each ``{"tournament": id,
    "game": number}`` in date order (the rating list is the database's, signed for by the
    judge of the tournament whose log holds the event).

    Since issue 34 each game also gives what it was rated with and what the rating
    computed (``RATED_GAME_KEYS``): ``published`` (the final publication's event id or
    null), ``rounds``, ``players`` — one list per player, ``[player, total, position]``
    when the game left them unchanged, ``[player, total, position, rating, volatility,
    target, actual, cap]`` (after the game; ERank, ARank, cap bound) when rated — and
    ``settings``, the ``EloDISettings`` used (``to_dict``); ``persons``: the persons of the
    database made for imported venues' players rated for the first time (issue 27 §2,
    ``ranking.venue_field``), each ``[id, name, club, country, federation number]``."""

    KIND = EventKind.RATINGS_UPDATED
    version: int
    games: list[dict[str, Any]]
    settings: dict[str, Any] | None = field(default=None, metadata=OMIT_NONE)
    persons: list[list[Any]] | None = field(default=None, metadata=OMIT_NONE)


@dataclass(frozen=True)
class RatingsRecomputed(TournamentEvent):
    """Every valid game replayed in date order into a new ``version`` of the EloDI history
    (``elodi.md``, "Recomputation"); ``previous`` (kept, readable) is the version it
    follows, ``None`` for the first; ``games``: how many games it rates.

    Since issue 34: ``rated``, each game in the order rated, as the games of
    ``RatingsUpdated`` (``{"tournament", "game", "published", "rounds", "players"}``), and
    ``settings``, the ``EloDISettings`` used, and ``persons`` as ``RatingsUpdated``'s."""

    KIND = EventKind.RATINGS_RECOMPUTED
    version: int
    previous: int | None
    games: int
    rated: list[dict[str, Any]] | None = field(default=None, metadata=OMIT_NONE)
    settings: dict[str, Any] | None = field(default=None, metadata=OMIT_NONE)
    persons: list[list[Any]] | None = field(default=None, metadata=OMIT_NONE)
