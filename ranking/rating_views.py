"""What the EloDI service (``ranking.ratings``) returns and raises: games in date order,
the rating list's, a game report's and a player history's lines, the versions of the
rating history, the input a game is rated with; and the two look-ups every part of it
reads (the current version of the history, every game by id)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from duplicate.service.errors import TournamentError
from duplicate.storage.models import GameRow, Tournament
from duplicate.storage.rating_models import RatingVersion

__all__ = ["GameRef", "HistoryLine", "RatingError", "RatingInput", "RatingLine", "ReportLine", "UpdateResult",
           "VenuePerson", "VersionLine", "current_version_in", "dated_ref", "game_refs", "now"]


class RatingError(TournamentError):
    """An EloDI action that cannot be done as asked; the message (Spanish) says why.
    ``what`` (``"partida"``, ``"jugador"``, ``"versión"``, ``"torneo"``) and ``value``:
    the input it names."""

    def __init__(self, message: str, *, what: str = "", value: object = None) -> None:
        super().__init__(message)
        self.what = what
        self.value = value


@dataclass(frozen=True, order=True)
class GameRef:
    """A game in date order (the module's **Decision**): sorts by ``(day, tournament_id, number)``.

    ``game_id``: ``GameRow.id``; ``day``: the tournament's start date, or its creation date.
    """

    day: date
    tournament_id: int
    number: int
    game_id: int
    tournament: str

    @property
    def label(self) -> str:
        """``«Open de Valencia», partida 2 (2026-03-14)``."""
        return f"«{self.tournament}», partida {self.number} ({self.day.isoformat()})"


@dataclass(frozen=True)
class UpdateResult:
    """What ``update`` did: ``rated`` games (in date order), ``skipped`` games with the
    reason, ``recomputed`` when a late game made it replay everything, ``stale`` rated
    games that changed since (reopened or published again: run ``recompute``)."""

    rated: tuple[GameRef, ...]
    skipped: tuple[tuple[GameRef, str], ...]
    recomputed: bool
    stale: tuple[GameRef, ...]


@dataclass(frozen=True)
class RatingLine:
    """One line of the rating list. ``position`` is ``None`` and ``rating`` /
    ``volatility`` are ``None`` for a new player (shown «nuevo»); equal ratings share a
    position; ``last_game``: the last rated game, or ``None``."""

    position: int | None
    player_id: int
    name: str
    club: str
    country: str
    federation_id: str | None
    rating: int | None
    volatility: int | None
    games: int
    last_game: GameRef | None


@dataclass(frozen=True)
class ReportLine:
    """One player's line of a game's report: pre-game values (``None`` for a new player),
    target and actual position (in the field the player was rated in), change, new
    values, whether the cap bound, and the player's points in the game."""

    player_id: int
    name: str
    phase: str
    total: int
    rating_before: int | None
    volatility_before: int | None
    target_position: float | None
    actual_position: float | None
    change: int
    rating_after: int
    volatility_after: int
    games_after: int
    cap_bound: bool


@dataclass(frozen=True)
class HistoryLine:
    """One rated game of a player's history, oldest first."""

    game: GameRef
    rating_before: int | None
    target_position: float | None
    actual_position: float | None
    rating_after: int
    volatility_after: int
    change: int
    cap_bound: bool


@dataclass(frozen=True)
class VersionLine:
    """One version of the rating history: its ``number``, ``kind`` (``update``: the first
    history, grown game by game; ``recompute``), when it was started, by which station and
    credential (``arbiter``), the ``games`` it rates and whether it is the ``current`` one."""

    number: int
    kind: str
    created_at: datetime
    station: str
    arbiter: str
    games: int
    current: bool


@dataclass(frozen=True)
class VenuePerson:
    """A person of the database to be made for an imported venue's player
    (``ranking.venue_field``) when the game is rated: ``key`` the negative number standing
    for them in a ``RatingInput`` until then, ``federation_id`` the key they are made with."""

    key: int
    name: str
    club: str
    country: str
    federation_id: str


@dataclass(frozen=True)
class RatingInput:
    """A game's rating input, read from the database (``rating_field``): its final
    publication (the event its rating is of), rounds played, and each player's total and
    position, keyed by player id; ``persons``: the venue players not yet persons of the
    database, keyed by their ``VenuePerson.key`` in ``totals`` and ``positions``."""

    ref: GameRef
    published_event_id: int | None
    rounds: int
    totals: dict[int, int]
    positions: dict[int, float]
    persons: tuple[VenuePerson, ...] = ()


def now() -> datetime:
    """The current moment (UTC), as the rating history records it."""
    return datetime.now(UTC)


def dated_ref(game: GameRow, tournament: Tournament) -> GameRef:
    """The game in date order (``GameRef``)."""
    day = tournament.start_date or tournament.created_at.date()
    return GameRef(day, tournament.id, game.number, game.id, tournament.name)


def current_version_in(session: Session) -> int | None:
    """The newest version of the rating history (``None`` before anything is rated)."""
    return session.scalar(select(func.max(RatingVersion.number)))


def game_refs(session: Session) -> dict[int, GameRef]:
    """Every game of the database in date order's terms, by game id."""
    return {game.id: dated_ref(game, tournament)
            for game, tournament in session.execute(select(GameRow, Tournament).join(Tournament)).all()}
