"""The typed event log (issue 3 §2, issue 12 §2): every action appends one event.

Each kind of event is a frozen dataclass (``TournamentEvent`` subclasses, ``KIND`` its
``EventKind``) whose fields are its data; who acted (the credential's name and role), from
which station, when and why are stored beside it in the ``events`` table. The log is
append-only: corrections are new events. ``payload()`` is the JSON stored (the same keys
as the exported record, docs/tournament-record.md) and ``read_event`` turns a stored
kind and payload back into its typed event, as replay does.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import Any, ClassVar


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


_OMIT_NONE = {"omit_none": True}
"""Field metadata: a ``None`` value is left out of the stored payload (optional keys)."""


@dataclass(frozen=True)
class TournamentEvent:
    """One event's data; subclasses set ``KIND`` and declare the fields."""

    KIND: ClassVar[EventKind]

    def payload(self) -> dict[str, Any]:
        """The JSON object stored in the log (fields by name, optional ``None`` left out)."""
        return {item.name: getattr(self, item.name) for item in fields(self)
                if not (item.metadata.get("omit_none") and getattr(self, item.name) is None)}


@dataclass(frozen=True)
class TournamentCreated(TournamentEvent):
    KIND = EventKind.TOURNAMENT_CREATED
    name: str
    settings: dict[str, Any]
    lexicon_hash: str


@dataclass(frozen=True)
class SettingsChanged(TournamentEvent):
    KIND = EventKind.SETTINGS_CHANGED
    before: dict[str, Any]
    after: dict[str, Any]


@dataclass(frozen=True)
class PinChanged(TournamentEvent):
    """A station's credential set (``set``) or revoked; never the PIN itself."""

    KIND = EventKind.PIN_CHANGED
    role: str
    set: bool
    name: str | None = field(default=None, metadata=_OMIT_NONE)
    venue: str | None = field(default=None, metadata=_OMIT_NONE)
    """The online venue of the credential (issue 27 §2); left out for the organiser's."""


@dataclass(frozen=True)
class PlayerAdded(TournamentEvent):
    KIND = EventKind.PLAYER_ADDED
    entry: int
    player: int
    name: str
    club: str
    country: str
    federation_id: str | None
    venue: str | None = field(default=None, metadata=_OMIT_NONE)
    """The online venue the player plays in (issue 27 §2); left out for the organiser's room."""


@dataclass(frozen=True)
class EntryStatusChanged(TournamentEvent):
    KIND = EventKind.ENTRY_STATUS
    entry: int
    before: str
    after: str


@dataclass(frozen=True)
class AssistantRangeSet(TournamentEvent):
    """II.4.c: the tables ``first``–``last`` of ``assistant``."""

    KIND = EventKind.ASSISTANT_RANGE
    assistant: str
    first: int
    last: int


@dataclass(frozen=True)
class PlayerUpdated(TournamentEvent):
    KIND = EventKind.PLAYER_UPDATED
    entry: int
    player: int
    before: dict[str, Any]
    after: dict[str, Any]


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
    ``replaces``: the rack it replaces (III.29; the event's reason says why), if any."""

    KIND = EventKind.RACK_DRAWN
    round: int
    rack: str
    redraws: list[dict[str, str]]
    replaces: str | None = field(default=None, metadata=_OMIT_NONE)


@dataclass(frozen=True)
class RackSet(TournamentEvent):
    """The judge's rack ``text`` for ``round`` (``redraw``: the leftover went back, III.19);
    ``replaces`` as in ``RackDrawn``."""

    KIND = EventKind.RACK_SET
    round: int
    rack: str
    redraws: list[dict[str, str]]
    text: str
    redraw: bool
    replaces: str | None = field(default=None, metadata=_OMIT_NONE)


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
    of top score; ``equal_tops`` is absent from histories written before it was recorded)."""

    KIND = EventKind.MASTER_CHOSEN
    round: int
    master: str
    score: int
    rank: int
    cumulative: int
    equal_tops: int | None = field(default=None, metadata=_OMIT_NONE)


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
    replaces: int | None = field(default=None, metadata=_OMIT_NONE)


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


@dataclass(frozen=True)
class SlipEntered(TournamentEvent):
    """A slip judged and stored: the ``text`` as written, its ``status``, ``score``, the
    ``move`` read (canonical) and the ``reason`` (III.20, III.23, III.25); ``board``: the
    board form as typed when the slip was written on a paper board (II.8, III.20.1.c–d;
    ``text`` is then the canonical notation derived from it), left out otherwise."""

    KIND = EventKind.SLIP_ENTERED
    table: int
    entry: int
    text: str
    status: str
    score: int
    move: str | None
    reason: str
    board: str | None = field(default=None, metadata=_OMIT_NONE)


@dataclass(frozen=True)
class SlipChecked(TournamentEvent):
    KIND = EventKind.SLIP_CHECKED
    table: int
    entry: int
    text: str


@dataclass(frozen=True)
class SlipConflict(TournamentEvent):
    """A different second slip (``kind``: duplicate or double entry) for the judge."""

    KIND = EventKind.SLIP_CONFLICT
    conflict: int
    kind: str
    table: int
    entry: int
    text: str
    mark: str | None
    stored_text: str
    stored_by: str


@dataclass(frozen=True)
class SlipCorrected(TournamentEvent):
    """III.27: the slip before and after (``before`` None when there was none)."""

    KIND = EventKind.SLIP_CORRECTED
    table: int
    entry: int
    before: dict[str, Any] | None
    after: dict[str, Any]


@dataclass(frozen=True)
class ConflictResolved(TournamentEvent):
    KIND = EventKind.CONFLICT_RESOLVED
    conflict: int
    resolution: str | None


@dataclass(frozen=True)
class MasterAnnulled(TournamentEvent):
    """III.29: the master of ``round`` was wrong; the ``slips`` that played it score 0."""

    KIND = EventKind.MASTER_ANNULLED
    round: int
    master: str | None
    slips: list[dict[str, int]]


@dataclass(frozen=True)
class RoundClosed(TournamentEvent):
    KIND = EventKind.ROUND_CLOSED
    round: int


@dataclass(frozen=True)
class BonusesAwarded(TournamentEvent):
    """III.24: points by entry id (text)."""

    KIND = EventKind.BONUSES_AWARDED
    round: int
    bonuses: dict[str, int]


@dataclass(frozen=True)
class ClaimFiled(TournamentEvent):
    KIND = EventKind.CLAIM_FILED
    claim: int
    table: int
    entry: int
    text: str


@dataclass(frozen=True)
class ClaimResolved(TournamentEvent):
    KIND = EventKind.CLAIM_RESOLVED
    claim: int
    status: str
    resolution: str


@dataclass(frozen=True)
class ResultsPublished(TournamentEvent):
    """III.26, IV.32: ``status`` provisional or final, with the standings published."""

    KIND = EventKind.RESULTS_PUBLISHED
    status: str
    standings: list[dict[str, int]]


@dataclass(frozen=True)
class GameReopened(TournamentEvent):
    KIND = EventKind.GAME_REOPENED
    status: str


# --- classic (head-to-head) events, issue 16 (ranking.classic.service) ----------------------


@dataclass(frozen=True)
class DivisionCreated(TournamentEvent):
    """A classic division: its ``system`` (Swiss system, ``round-robin`` or ``manual``),
    ``rounds`` and ``settings`` (``ranking.classic.service.DivisionSettings``)."""

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
    forfeit: str | None = field(default=None, metadata=_OMIT_NONE)


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


EVENT_TYPES: dict[EventKind, type[TournamentEvent]] = {
    cls.KIND: cls for cls in TournamentEvent.__subclasses__()
}
"""Every kind of event and its class."""


def read_event(kind: str, payload: dict[str, Any]) -> TournamentEvent:
    """The typed event of a stored ``kind`` and ``payload``. Raises ``ValueError`` (Spanish)
    for an unknown kind or a payload without a field the kind needs."""
    try:
        cls = EVENT_TYPES[EventKind(kind)]
    except ValueError:
        raise ValueError(f"tipo de evento desconocido: {kind!r}") from None
    names = {item.name: item for item in fields(cls)}
    missing = [name for name, item in names.items()
               if name not in payload and not item.metadata.get("omit_none")]
    if missing:
        raise ValueError(f"evento {kind!r} sin los datos {', '.join(missing)}")
    return cls(**{name: payload[name] for name in names if name in payload})
