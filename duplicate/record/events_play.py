"""Events of play (issue 3 §2, issue 12 §2): games and table assignment (II.6), racks
drawn, set, withdrawn or replaced (III.12, III.17, III.19, III.29), masters chosen and
undone (III.15), the end of a game (III.22), prepared games loaded and left (III.15, last
paragraph), venues (issue 27) and the round clock (III.13). Gathered by
``duplicate.record.events``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from duplicate.record.event_kinds import OMIT_NONE, EventKind, TournamentEvent

__all__ = [
    "GameCreated",
    "GameEnded",
    "MasterChosen",
    "MasterUndone",
    "PreparedLeft",
    "PreparedLoaded",
    "RackDrawn",
    "RackSet",
    "RackWithdrawn",
    "SlipsSetAside",
    "TablesAssigned",
    "TimerChanged",
    "VenueAdded",
    "VenueImported",
    "VenueKeyRegistered",
]


@dataclass(frozen=True)
class GameCreated(TournamentEvent):
    KIND = EventKind.GAME_CREATED
    number: int
    planned_rounds: int | None
    seconds_per_round: int
    seed: int


@dataclass(frozen=True)
class TablesAssigned(TournamentEvent):
    """II.6: ``tables`` maps entry id (text) to table number."""

    KIND = EventKind.TABLES_ASSIGNED
    method: str
    seed: int | None
    tables: dict[str, int]


@dataclass(frozen=True)
class RackDrawn(TournamentEvent):
    """III.12, III.17, III.19: the rack drawn for ``round``, after the ``redraws``;
    ``replaces``: the rack it replaces (III.29; the event's reason says why), if any.

    What the move generator found for it, stored with the round (absent from histories
    written before they were recorded): ``leftover``, the tiles kept from the round
    before (as read); ``top_score``, the points of its top moves; ``tops``, each move of
    top score in the III.15 order as ``[move, score, reason]`` (the reason for the first
    ``duplicate.service.base.REASONS_KEPT`` only, else ""); ``moves``, how many valid
    moves it has."""

    KIND = EventKind.RACK_DRAWN
    round: int
    rack: str
    redraws: list[dict[str, str]]
    replaces: str | None = field(default=None, metadata=OMIT_NONE)
    leftover: str | None = field(default=None, metadata=OMIT_NONE)
    top_score: int | None = field(default=None, metadata=OMIT_NONE)
    tops: list[list[Any]] | None = field(default=None, metadata=OMIT_NONE)
    moves: int | None = field(default=None, metadata=OMIT_NONE)


@dataclass(frozen=True)
class RackSet(TournamentEvent):
    """The judge's rack ``text`` for ``round`` (``redraw``: the leftover went back, III.19);
    ``replaces``, ``leftover``, ``top_score``, ``tops`` and ``moves`` as in ``RackDrawn``."""

    KIND = EventKind.RACK_SET
    round: int
    rack: str
    redraws: list[dict[str, str]]
    text: str
    redraw: bool
    replaces: str | None = field(default=None, metadata=OMIT_NONE)
    leftover: str | None = field(default=None, metadata=OMIT_NONE)
    top_score: int | None = field(default=None, metadata=OMIT_NONE)
    tops: list[list[Any]] | None = field(default=None, metadata=OMIT_NONE)
    moves: int | None = field(default=None, metadata=OMIT_NONE)


@dataclass(frozen=True)
class RackWithdrawn(TournamentEvent):
    """III.29: the pending rack of ``round`` went back to the bag."""

    KIND = EventKind.RACK_WITHDRAWN
    round: int
    rack: str


@dataclass(frozen=True)
class SlipsSetAside(TournamentEvent):
    """III.29: the rack ``rack`` of ``round`` was withdrawn (replaced, or the game ended
    without playing it) after slips had been entered against it. Those ``slips`` no longer
    count: each is kept here as it was stored (``table``, ``entry``, ``text``, ``status``,
    ``score``, ``move``, ``reason``, ``entered_by``, ``entered_at`` ISO 8601, ``checked_by``),
    beside its own ``slip_entered`` event; the round's unresolved ``conflicts`` (ids) go
    with them. The stations enter the round's slips again for the new rack. The judge's
    reason is the event's."""

    KIND = EventKind.SLIPS_SET_ASIDE
    round: int
    rack: str
    slips: list[dict[str, Any]]
    conflicts: list[int]


@dataclass(frozen=True)
class MasterChosen(TournamentEvent):
    """III.15: the master move placed for ``round`` (``rank`` among the ``equal_tops`` moves
    of top score; ``equal_tops`` is absent from histories written before it was recorded).
    ``master_reason``: why the rules place it (III.15), stored with the round, when it is
    not the event's reason (the judge gave its own); absent otherwise."""

    KIND = EventKind.MASTER_CHOSEN
    round: int
    master: str
    score: int
    rank: int
    cumulative: int
    equal_tops: int | None = field(default=None, metadata=OMIT_NONE)
    master_reason: str | None = field(default=None, metadata=OMIT_NONE)


@dataclass(frozen=True)
class MasterUndone(TournamentEvent):
    """The judge took back the ``master`` of ``round`` before the next rack (the wrong top
    was placed); the round waits again for its master."""

    KIND = EventKind.MASTER_UNDONE
    round: int
    master: str


@dataclass(frozen=True)
class GameEnded(TournamentEvent):
    """III.22: why the game ended."""

    KIND = EventKind.GAME_ENDED
    reason: str | None


@dataclass(frozen=True)
class PreparedLoaded(TournamentEvent):
    """III.15 (duplicada maestra): the game plays the prepared game ``prepared`` (the whole
    file, ``docs/prepared-games.md``) sealed by ``digest``: its racks are drawn and its
    masters placed in turn."""

    KIND = EventKind.PREPARED_LOADED
    digest: str
    prepared: dict[str, Any]


@dataclass(frozen=True)
class PreparedLeft(TournamentEvent):
    """III.29: the judge replaced the rack of ``round``, so the game leaves the prepared
    game ``digest`` from that round on (the event's reason says why)."""

    KIND = EventKind.PREPARED_LEFT
    round: int
    digest: str


@dataclass(frozen=True)
class VenueImported(TournamentEvent):
    """Issue 27 §2 (offline venues): the record of the venue ``venue``, which played the
    tournament's prepared games in its own room, brought in: ``record`` is the venue's
    tournament record without its event log (players, games with every round's slips,
    standings, ``events_head``), ``digest`` the SHA-256 of the whole record as imported
    (canonical JSON); ``replaces`` the id of the earlier import of the same venue that this
    one replaces (None for the first)."""

    KIND = EventKind.VENUE_IMPORTED
    venue: str
    digest: str
    record: dict[str, Any]
    replaces: int | None = field(default=None, metadata=OMIT_NONE)
    signed_by: str | None = field(default=None, metadata=OMIT_NONE)
    """Issue 35 §2: the fingerprint of the venue's registered key that signed the record."""
    unsigned: bool | None = field(default=None, metadata=OMIT_NONE)
    """Issue 35 §2: True when the judge imported the record unsigned (``--unsigned``: the
    venue has no registered key); absent otherwise."""


@dataclass(frozen=True)
class VenueKeyRegistered(TournamentEvent):
    """Issue 35 §2: the organiser registers the public key of the offline venue ``venue``
    (its ``duplicada tournament key`` file, before the event): ``public_key`` (32 raw
    bytes, base64) and its ``fingerprint``; from then on ``venue import`` takes only records
    of that venue signed by that key. ``replaces``: the fingerprint of the key registered
    before for the venue, if any."""

    KIND = EventKind.VENUE_KEY_REGISTERED
    venue: str
    public_key: str
    fingerprint: str
    replaces: str | None = field(default=None, metadata=OMIT_NONE)


@dataclass(frozen=True)
class VenueAdded(TournamentEvent):
    """Issue 27 §2 (online venues): the tournament names the venue ``venue``, a room whose
    stations play on this same database; its players and stations are named by it."""

    KIND = EventKind.VENUE_ADDED
    venue: str


@dataclass(frozen=True)
class TimerChanged(TournamentEvent):
    """III.13: the round clock ``action`` (start, pause, reset) with ``remaining`` seconds."""

    KIND = EventKind.TIMER
    action: str
    remaining: float
    at: str
