"""Stored EloDI ratings: rating games once, recomputing, the rating list and reports (rules V).

``RatingService`` works on the tournament database (``duplicate.storage.database``) and calls the
pure algorithm ``ranking.elodi.rate_game``. What counts (``elodi.md``, "Which games count"):

* a game **published final** (III.26, IV.32) with at least ``EloDISettings.min_rounds``
  played rounds (12);
* its players whose entry was **active** when the game was published final (entries
  withdrawn, absent or disqualified at that moment are left out; the status is read from
  the event log, so later changes do not alter an earlier game);
* positions by **total score**, tied players sharing a position (``rate_game`` averages
  the places they cover); with ``EloDISettings.use_tie_breaks`` the published positions
  (III.28 tie-breaks) are used instead.

**Decision** (this module): games are rated in *date order* — the tournament's start date
(its creation date when it has none), then the tournament id, then the game number.
``update`` rates the pending games in that order; when one of them comes before a game
already rated (a late game), it recomputes everything instead, so that the stored ratings
are always those of a replay from the start values.

Each game is rated in one write transaction that stores the players' new ``Rating`` rows,
the ``RatingChange`` history and the ``RatedGame`` marker; ``RatedGame.game_id`` and
``RatedGame.sequence`` are unique, so repeating the command, or two stations running it at
once, rates a game exactly once (the losing transaction is rolled back and retried).

Errors for the user are ``RatingError`` (Spanish message).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import cast

from sqlalchemy import Table, delete, func, insert, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from duplicate.service import EventKind, TournamentError, TournamentService
from duplicate.service import Action, EventKind, TournamentError, TournamentService
from duplicate.service.context import OnContext, ServiceContext
from duplicate.service.events import RatingsRecomputed, RatingsUpdated
from duplicate.storage.database import Database
from duplicate.storage.models import (
    Entry,
    EntryStatus,
    Event,
    GameRow,
    GameStatus,
    Player,
    RoundRow,
    Tournament,
    find_tournament,
)
from duplicate.storage.rating_models import RatedGame, Rating, RatingChange, RatingVersion
from duplicate.texts import shown
from ranking.elodi import Contestant, EloDISettings, Outcome, rate_game
from ranking.venue_field import field_totals, venue_marker, venue_markers

__all__ = [
    "GameRef",
    "HistoryLine",
    "RatingError",
    "RatingLine",
    "RatingService",
    "ReportLine",
    "UpdateResult",
    "VersionLine",
]

_CHANGES = cast(Table, RatingChange.__table__)
_RATINGS = cast(Table, Rating.__table__)

RETRIES = 5
"""How many times a game's rating is retried after losing a race with another station."""


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
class _Prepared:
    """A game's rating input, read from the database: contestants keyed by player id."""

    ref: GameRef
    published_event_id: int | None
    rounds: int
    totals: dict[int, int]
    positions: dict[int, float]


def _now() -> datetime:
    return datetime.now(UTC)


def _ref(game: GameRow, tournament: Tournament) -> GameRef:
    day = tournament.start_date or tournament.created_at.date()
    return GameRef(day, tournament.id, game.number, game.id, tournament.name)


class RatingService(OnContext):
    """EloDI on one database. ``settings``: the algorithm's settings and Decisions.

    Built on a ``ServiceContext`` (``ServiceContext`` of the ``TournamentService`` a front
    end holds: the same station and credential) or on a bare database (a read-only handle;
    ``with_pin`` gives one that acts). Reading needs no credential; ``update`` and
    ``recompute`` change the rating list and need the judge-arbiter's
    (``Action.UPDATE_RATINGS``, II.4.a): ``NotAuthorised`` or ``CredentialRefused``
    otherwise, before anything changes. **Decision**: the rating list belongs to the
    database (the federation's list across tournaments); the judge of the *acting
    tournament* signs for a change — the tournament of the game rated, else the one named
    (``tournament_id``, default the newest) — and that tournament's event log records it
    (``RatingsUpdated``, ``RatingsRecomputed``).
    """

    def __init__(self, source: Database | ServiceContext, settings: EloDISettings | None = None) -> None:
        self.context = source if isinstance(source, ServiceContext) else ServiceContext(source, station="elodi")
        self.settings = settings or EloDISettings()
        self._tournaments = TournamentService(self.context.db, station=self.context.station)

    def with_pin(self, pin: str | None) -> RatingService:
        """The same rating service acting with ``pin`` (the judge's, to change ratings)."""
        return RatingService(self.context.with_pin(pin), self.settings)

    def _sign(self, tournament_id: int | None) -> int:
        """Refuse unless this handle's credential may change the ratings for the acting
        tournament (``None``: the newest); its id. ``NotAuthorised`` / ``CredentialRefused``."""
        with self.context.write() as session:
            tournament = self.context.tournament(session, tournament_id)
            self.context.authorise(session, tournament.id, Action.UPDATE_RATINGS)
            return tournament.id

    # --- versions of the history ------------------------------------------------------------
    @staticmethod
    def _current_version(session: Session) -> int | None:
        return session.scalar(select(func.max(RatingVersion.number)))

    def current_version(self) -> int | None:
        """The newest version of the rating history (``None`` before anything is rated)."""
        with self.context.read() as session:
            return self._current_version(session)

    def _version(self, session: Session, version: int | None) -> int | None:
        """``version`` checked (``RatingError`` if there is none such), or the current one."""
        if version is None:
            return self._current_version(session)
        if session.get(RatingVersion, version) is None:
            newest = self._current_version(session)
            raise RatingError(f"no existe la versión {version} del historial EloDI "
                              + (f"(hay de la 1 a la {newest})" if newest else "(aún no hay ninguna)"),
                              what="versión", value=version)
        return version

    def versions(self) -> list[VersionLine]:
        """Every version of the rating history, oldest first (none is ever deleted)."""
        with self.context.read() as session:
            counts = dict(session.execute(select(RatedGame.version, func.count()).group_by(RatedGame.version)).all())
            rows = list(session.scalars(select(RatingVersion).order_by(RatingVersion.number)))
            newest = rows[-1].number if rows else None
            return [VersionLine(row.number, row.kind, row.created_at, row.station, row.arbiter,
                                int(counts.get(row.number, 0)), row.number == newest) for row in rows]

    # --- which games count ----------------------------------------------------------------
    def game_ref(self, game_number: int, tournament_id: int | None = None) -> GameRef:
        """The game ``game_number`` of the tournament (default: the newest tournament)."""
        with self.context.read() as session:
            tournament = self._tournament(session, tournament_id)
            game = session.scalar(select(GameRow).where(GameRow.tournament_id == tournament.id,
                                                        GameRow.number == game_number))
            if game is None:
                raise RatingError(f"el torneo «{tournament.name}» no tiene partida {game_number}",
                                  what="partida", value=game_number)
            return _ref(game, tournament)

    def why_not_rated(self, ref: GameRef) -> str | None:
        """``None`` when the game counts for EloDI, else the reason in Spanish."""
        with self.context.read() as session:
            game = session.get(GameRow, ref.game_id)
            if game is None:
                return "la partida no existe"
            return self._why_not(session, game)

    def _why_not(self, session: Session, game: GameRow) -> str | None:
        if game.status != GameStatus.FINAL.value:
            return "sus resultados no son definitivos"
        rounds = self._rounds_of(session, game)
        if rounds < self.settings.min_rounds:
            return f"solo tiene {rounds} rondas (el mínimo para EloDI es {self.settings.min_rounds})"
        return None

    @staticmethod
    def _rounds(session: Session, game_id: int) -> int:
        return session.scalar(select(func.count()).select_from(RoundRow).where(
            RoundRow.game_id == game_id, RoundRow.master_score.is_not(None))) or 0

    def _rounds_of(self, session: Session, game: GameRow) -> int:
        """The rounds a game played: its own, or with imported venues the most any room
        played of it (an organiser may have no room of its own, ``ranking.venue_field``)."""
        rounds = self._rounds(session, game.id)
        if venue_marker(session, game.tournament_id) is None:
            return rounds
        lines = self._tournaments.venue_game_standings(game.number, None, game.tournament_id)
        return max(rounds, max((len(line.per_round) for line in lines), default=0))

    def valid_games(self) -> list[GameRef]:
        """Every game that counts for EloDI now, in date order."""
        with self.context.read() as session:
            rounds = dict(session.execute(select(RoundRow.game_id, func.count()).where(
                RoundRow.master_score.is_not(None)).group_by(RoundRow.game_id)).all())
            with_venues = venue_markers(session)
            rows = session.execute(select(GameRow, Tournament).join(Tournament)
                                   .where(GameRow.status == GameStatus.FINAL.value)).all()
            return sorted(_ref(game, tournament) for game, tournament in rows
                          if (self._rounds_of(session, game) if tournament.id in with_venues
                              else rounds.get(game.id, 0)) >= self.settings.min_rounds)

    def rated_games(self) -> list[GameRef]:
        """The games rated so far, in date order."""
        with self.context.read() as session:
            rows = session.execute(select(GameRow, Tournament).join(Tournament)
                                   .join(RatedGame, RatedGame.game_id == GameRow.id)
                                   .where(RatedGame.version == self._current_version(session))).all()
            return sorted(_ref(game, tournament) for game, tournament in rows)

    def stale_games(self) -> list[GameRef]:
        """Rated games that changed since: no longer final, or published final again."""
        stale = []
        with self.context.read() as session:
            for rated, game, tournament in session.execute(
                    select(RatedGame, GameRow, Tournament).join(GameRow, RatedGame.game_id == GameRow.id)
                    .join(Tournament).where(RatedGame.version == self._current_version(session))).all():
                if game.status != GameStatus.FINAL.value or \
                        self._marker(session, game.id, tournament.id) != rated.published_event_id:
                    stale.append(_ref(game, tournament))
        return sorted(stale)

    @staticmethod
    def _final_publication(session: Session, game_id: int) -> int | None:
        events = session.execute(select(Event.id, Event.payload).where(
            Event.game_id == game_id, Event.kind == EventKind.RESULTS_PUBLISHED.value).order_by(Event.id.desc()))
        for event_id, payload in events:
            if payload.get("status") == GameStatus.FINAL.value:
                return int(event_id)
        return None

    @classmethod
    def _marker(cls, session: Session, game_id: int, tournament_id: int) -> int | None:
        """The event a game's rating is of: its final publication, or the tournament's
        latest venue import when later (``ranking.venue_field``); None if not published final."""
        published = cls._final_publication(session, game_id)
        imported = venue_marker(session, tournament_id)
        return published if published is None or imported is None else max(published, imported)

    def _prepare(self, ref: GameRef) -> _Prepared:
        """Read a valid game's standings and the players active at its final publication;
        with imported venues, the whole field's (``ranking.venue_field``)."""
        with self.context.read() as session:
            venues = venue_marker(session, ref.tournament_id) is not None
        standings = [] if venues else self._tournaments.game_standings(ref.number, ref.tournament_id)
        with self.context.read() as session:
            published = self._marker(session, ref.game_id, ref.tournament_id)
            game_row = session.get(GameRow, ref.game_id)
            rounds = self._rounds_of(session, game_row) if game_row is not None else 0
            entries = {entry.id: entry for entry in session.scalars(
                select(Entry).where(Entry.tournament_id == ref.tournament_id))}
            status = {entry_id: EntryStatus.ACTIVE.value for entry_id in entries}
            if published is None:            # written without a publication event: current statuses
                status = {entry_id: entry.status for entry_id, entry in entries.items()}
            else:
                for (payload,) in session.execute(select(Event.payload).where(
                        Event.tournament_id == ref.tournament_id, Event.kind == EventKind.ENTRY_STATUS.value,
                        Event.id < published).order_by(Event.id)):
                    status[int(payload["entry"])] = str(payload["after"])
        field = [line for line in standings if status.get(line.player) == EntryStatus.ACTIVE.value]
        totals = {entries[line.player].player_id: line.total for line in field}
        if venues:    # every venue's players ranked together, by total (``use_tie_breaks`` is not applied)
            totals = field_totals(self._tournaments, self.context, ref.tournament_id, ref.number,
                                  {entry_id: entry.player_id for entry_id, entry in entries.items()
                                   if status.get(entry_id) == EntryStatus.ACTIVE.value})
        if self.settings.use_tie_breaks and not venues:
            positions = {entries[line.player].player_id: float(line.position) for line in field}
        else:
            ordered = sorted(totals.values(), reverse=True)
            first_place = {total: float(index) for index, total in reversed(list(enumerate(ordered, start=1)))}
            positions = {player: first_place[total] for player, total in totals.items()}
        return _Prepared(ref, published, rounds, totals, positions)

    def _stored_inputs(self, session: Session) -> dict[int, _Prepared]:
        """The classification each rated game was rated with, by game id, when it can be
        reused: the game's final publication is still the one rated (a final game cannot
        change without being reopened and published again) and the positions were taken
        the same way (``use_tie_breaks``)."""
        published: dict[int, int] = {}
        for event_id, game_id, payload in session.execute(
                select(Event.id, Event.game_id, Event.payload).where(Event.kind == EventKind.RESULTS_PUBLISHED.value)
                .order_by(Event.id)):
            if payload.get("status") == GameStatus.FINAL.value:
                published[game_id] = event_id
        refs = self._refs(session)
        imported = venue_markers(session)
        for game_id, event_id in list(published.items()):
            if game_id in refs and refs[game_id].tournament_id in imported:
                published[game_id] = max(event_id, imported[refs[game_id].tournament_id])
        cached: dict[int, _Prepared] = {}
        current = self._current_version(session)
        games = {rated.id: rated for rated in session.scalars(select(RatedGame).where(RatedGame.version == current))}
        inputs: dict[int, tuple[dict[int, int], dict[int, float]]] = {}
        for rated_game_id, player, total, position in session.execute(
                select(RatingChange.rated_game_id, RatingChange.player_id, RatingChange.total, RatingChange.position)
                .join(RatedGame, RatingChange.rated_game_id == RatedGame.id).where(RatedGame.version == current)):
            totals, positions = inputs.setdefault(rated_game_id, ({}, {}))
            totals[player], positions[player] = total, position
        for rated in games.values():
            if rated.published_event_id is None or published.get(rated.game_id) != rated.published_event_id:
                continue
            if bool(rated.settings.get("use_tie_breaks")) != self.settings.use_tie_breaks:
                continue
            totals, positions = inputs.get(rated.id, ({}, {}))
            cached[rated.game_id] = _Prepared(refs[rated.game_id], rated.published_event_id, rated.rounds,
                                              totals, positions)
        return cached

    # --- rating ---------------------------------------------------------------------------------
    def update(self, game: GameRef | None = None, *, tournament_id: int | None = None) -> UpdateResult:
        """Rate the valid games not rated yet (only ``game`` if given), each once, into the
        current version of the history (the first one when there is none).

        A game that is not final or too short is reported in ``skipped``. When a pending
        game comes before one already rated (date order), everything is recomputed (a new
        version). Needs the judge's credential for ``game``'s tournament, else for
        ``tournament_id`` (default: the newest): ``NotAuthorised`` / ``CredentialRefused``
        before anything changes. The games rated are logged (``RatingsUpdated``).
        """
        acting = self._sign(game.tournament_id if game is not None else tournament_id)
        stale = tuple(self.stale_games())
        if game is not None:
            reason = self.why_not_rated(game)
            if reason is not None:
                return UpdateResult((), ((game, reason),), False, stale)
            candidates = [game]
        else:
            candidates = self.valid_games()
        rated = set(self.rated_games())
        pending = sorted(ref for ref in candidates if ref not in rated)
        if pending and rated and pending[0] < max(rated):
            return UpdateResult(tuple(self._recompute(acting, reread=False)), (), True, stale)
        done = [ref for ref in pending if self._rate_once(ref)]
        if done:
            with self.context.write() as session:
                actor = self.context.authorise(session, acting, Action.UPDATE_RATINGS)
                version = self._current_version(session) or 1
                self.context.log(session, acting, RatingsUpdated(version, [
                    {"tournament": ref.tournament_id, "game": ref.number} for ref in done]), actor=actor)
        return UpdateResult(tuple(done), (), False, stale)

    def _rate_once(self, ref: GameRef) -> bool:
        """Rate one game unless it is rated already; ``True`` if this call rated it."""
        prepared = self._prepare(ref)
        for _ in range(RETRIES):
            try:
                with self.context.write() as session:
                    version = self._current_version(session)
                    if version is None:           # the first history: version 1 (two stations: one wins)
                        version = 1
                        session.add(RatingVersion(number=1, kind="update", created_at=_now(),
                                                  station=self.context.station, arbiter="", tournament_id=None))
                        session.flush()
                    if session.scalar(select(RatedGame.id).where(RatedGame.game_id == ref.game_id,
                                                                 RatedGame.version == version)) is not None:
                        return False
                    if self._marker(session, ref.game_id, ref.tournament_id) != prepared.published_event_id:
                        raise RatingError(f"la partida {ref.label} ha cambiado mientras se calculaba: repita la orden",
                                          what="partida", value=ref.number)
                    sequence = (session.scalar(select(func.max(RatedGame.sequence))
                                               .where(RatedGame.version == version)) or 0) + 1
                    ratings = {row.player_id: row for row in session.scalars(
                        select(Rating).where(Rating.player_id.in_(list(prepared.totals))))}
                    outcomes = rate_game(self._contestants(prepared, ratings), self.settings)
                    self._store(session, prepared, version, sequence, outcomes, ratings)
                return True
            except IntegrityError:
                continue          # another station rated a game at the same time: read again
        raise RatingError(f"no se pudo valorar {ref.label}: otros puestos están escribiendo; repita la orden",
                          what="partida", value=ref.number)

    def _contestants(self, prepared: _Prepared, ratings: dict[int, Rating]) -> list[Contestant[int]]:
        contestants = []
        for player, position in prepared.positions.items():
            row = ratings.get(player)
            if row is None:
                contestants.append(Contestant(player, position))
            else:
                contestants.append(Contestant(player, position, row.rating, row.volatility, row.games))
        return contestants

    def _store(self, session: Session, prepared: _Prepared, version: int, sequence: int,
               outcomes: Iterable[Outcome[int]], ratings: dict[int, Rating]) -> None:
        rated_game = RatedGame(version=version, game_id=prepared.ref.game_id, sequence=sequence,
                               published_event_id=prepared.published_event_id, rounds=prepared.rounds,
                               settings=self.settings.to_dict(), rated_at=_now())
        session.add(rated_game)
        session.flush()
        changes = []
        for outcome in outcomes:
            changes.append(_change_row(rated_game.id, prepared, outcome))
            if outcome.games_after == outcome.games_before:
                continue                      # unchanged (too few rated players): not a rated game for them
            row = ratings.get(outcome.key)
            if row is None:
                session.add(Rating(player_id=outcome.key, rating=outcome.rating_after,
                                   volatility=outcome.volatility_after, games=outcome.games_after,
                                   last_game_id=prepared.ref.game_id))
            else:
                row.rating, row.volatility = outcome.rating_after, outcome.volatility_after
                row.games, row.last_game_id = outcome.games_after, prepared.ref.game_id
        if changes:
            session.execute(insert(_CHANGES), changes)

    def recompute(self, *, reread: bool = False, tournament_id: int | None = None) -> list[GameRef]:
        """Replay every valid game in date order from the start values into a new version
        of the history (``elodi.md``, "Recomputation"); the older versions stay as they
        were, readable (``versions``, ``version=`` of the readers), and the current ratings
        become the new version's. Returns the games rated. The outcome depends only on the
        games' data, never on the order they were entered or rated.

        A game rated before whose final publication is unchanged is replayed with the
        classification stored when it was rated (it cannot have changed: a final game is
        locked until reopened); ``reread`` reads every game's standings again instead.
        Needs the judge's credential for ``tournament_id`` (default: the newest), whose
        log records it (``RatingsRecomputed``): ``NotAuthorised`` / ``CredentialRefused``
        before anything changes.
        """
        return self._recompute(self._sign(tournament_id), reread=reread)

    def _recompute(self, acting: int, *, reread: bool) -> list[GameRef]:
        """``recompute`` once the credential was checked for the ``acting`` tournament."""
        games = self.valid_games()
        with self.context.read() as session:
            cached = {} if reread else self._stored_inputs(session)
        prepared = [cached[ref.game_id] if ref.game_id in cached else self._prepare(ref) for ref in games]
        state: dict[int, tuple[int, int, int, int]] = {}   # player → rating, volatility, games, last game
        results: list[list[Outcome[int]]] = []
        for item in prepared:
            contestants = []
            for player, position in item.positions.items():
                if player in state:
                    rating, volatility, count, _ = state[player]
                    contestants.append(Contestant(player, position, rating, volatility, count))
                else:
                    contestants.append(Contestant(player, position))
            outcomes = rate_game(contestants, self.settings)
            results.append(outcomes)
            for outcome in outcomes:
                if outcome.games_after != outcome.games_before:
                    state[outcome.key] = (outcome.rating_after, outcome.volatility_after, outcome.games_after,
                                          item.ref.game_id)
        settings, moment = self.settings.to_dict(), _now()
        with self.context.write() as session:
            actor = self.context.authorise(session, acting, Action.UPDATE_RATINGS)
            previous = self._current_version(session)
            version = (previous or 0) + 1
            session.add(RatingVersion(number=version, kind="recompute", created_at=moment,
                                      station=self.context.station, arbiter=actor.name, tournament_id=acting))
            session.flush()
            session.execute(delete(Rating))
            rated_games = [RatedGame(version=version, game_id=item.ref.game_id, sequence=sequence,
                                     published_event_id=item.published_event_id, rounds=item.rounds,
                                     settings=settings, rated_at=moment)
                           for sequence, item in enumerate(prepared, start=1)]
            session.add_all(rated_games)
            session.flush()
            changes = [_change_row(rated_game.id, item, outcome)
                       for rated_game, item, outcomes in zip(rated_games, prepared, results, strict=True)
                       for outcome in outcomes]
            if changes:
                session.execute(insert(_CHANGES), changes)
            if state:
                session.execute(insert(_RATINGS), [
                    {"player_id": player, "rating": rating, "volatility": volatility, "games": count,
                     "last_game_id": last}
                    for player, (rating, volatility, count, last) in sorted(state.items())])
            self.context.log(session, acting, RatingsRecomputed(version, previous, len(rated_games)), actor=actor)
        return games

    # --- reading ---------------------------------------------------------------------------------
    def rating_list(self, *, club: str | None = None, country: str | None = None,
                    include_new: bool = True, version: int | None = None) -> list[RatingLine]:
        """The rating list: rated players by rating (highest first, equal ratings share a
        position, then by name), then the new players by name («nuevo»). ``club`` /
        ``country`` filter (case-insensitive, exact); ``include_new=False`` drops new players.
        ``version``: the list as that version of the history left it (default: the current
        ratings); ``RatingError`` for a version that does not exist."""
        with self.context.read() as session:
            refs = self._refs(session)
            rows: list[tuple[Player, Rating | None]]
            if version is None:
                rows = [(player, rating) for player, rating in session.execute(
                    select(Player, Rating).outerjoin(Rating, Rating.player_id == Player.id))]
            else:
                held = self._ratings_in(session, self._version(session, version))
                rows = [(player, held.get(player.id)) for player in session.scalars(select(Player))]
        lines = []
        for player, rating in rows:
            if club is not None and player.club.casefold() != club.casefold():
                continue
            if country is not None and player.country.casefold() != country.casefold():
                continue
            if rating is None and not include_new:
                continue
            lines.append((player, rating))
        lines.sort(key=lambda item: (item[1] is None, -(item[1].rating if item[1] else 0), item[0].name.casefold(),
                                     item[0].id))
        result = []
        position = 0
        previous: int | None = None
        for index, (player, rating) in enumerate(lines, start=1):
            if rating is not None and rating.rating != previous:
                position, previous = index, rating.rating
            result.append(RatingLine(
                position=position if rating is not None else None, player_id=player.id, name=player.name,
                club=player.club, country=player.country, federation_id=player.federation_id,
                rating=rating.rating if rating else None, volatility=rating.volatility if rating else None,
                games=rating.games if rating else 0,
                last_game=refs.get(rating.last_game_id) if rating and rating.last_game_id else None))
        return result

    @staticmethod
    def _ratings_in(session: Session, version: int | None) -> dict[int, Rating]:
        """Each player's values at the end of ``version`` (its last rated game's), as
        unsaved ``Rating`` rows."""
        held: dict[int, Rating] = {}
        for change, game_id in session.execute(
                select(RatingChange, RatedGame.game_id).join(RatedGame, RatingChange.rated_game_id == RatedGame.id)
                .where(RatedGame.version == version).order_by(RatedGame.sequence)):
            if change.games_after != change.games_before:
                held[change.player_id] = Rating(player_id=change.player_id, rating=change.rating_after,
                                                volatility=change.volatility_after, games=change.games_after,
                                                last_game_id=game_id)
        return held

    def game_report(self, ref: GameRef, *, version: int | None = None) -> list[ReportLine]:
        """The per-game report (``elodi.md``): every rated player's line, by actual
        position in the game (total score, highest first), as ``version`` of the history
        rated it (default: the current one). Raises ``RatingError`` when the game has not
        been rated in it, or for a version that does not exist."""
        with self.context.read() as session:
            number = self._version(session, version)
            rated = session.scalar(select(RatedGame).where(RatedGame.game_id == ref.game_id,
                                                           RatedGame.version == number))
            if rated is None:
                reason = self._why_not(session, session.get(GameRow, ref.game_id))  # type: ignore[arg-type]
                raise RatingError(f"la partida {ref.label} no está valorada"
                                  + (f": {reason}" if reason else ": ejecute «duplicada elodi update»"),
                                  what="partida", value=ref.number)
            rows = session.execute(select(RatingChange, Player.name).join(Player, RatingChange.player_id == Player.id)
                                   .where(RatingChange.rated_game_id == rated.id)).all()
        start = self.settings.start_rating
        lines = [ReportLine(change.player_id, name, change.phase, change.total, change.rating_before,
                            change.volatility_before, change.target_position, change.actual_position,
                            change.rating_after - (change.rating_before if change.rating_before is not None else start)
                            if change.games_after != change.games_before else 0,
                            change.rating_after, change.volatility_after, change.games_after, change.cap_bound)
                 for change, name in rows]
        return sorted(lines, key=lambda line: (-line.total, line.name.casefold(), line.player_id))

    def player_history(self, player_id: int, *, version: int | None = None) -> list[HistoryLine]:
        """Every rated game of a player, in date order (``elodi.md``: history, peak), in
        ``version`` of the history (default: the current one; ``RatingError`` if none such)."""
        with self.context.read() as session:
            number = self._version(session, version)
            refs = self._refs(session)
            rows = session.execute(select(RatingChange, RatedGame.game_id)
                                   .join(RatedGame, RatingChange.rated_game_id == RatedGame.id)
                                   .where(RatingChange.player_id == player_id, RatedGame.version == number)).all()
        start = self.settings.start_rating
        lines = [HistoryLine(refs[game_id], change.rating_before, change.target_position, change.actual_position,
                             change.rating_after, change.volatility_after,
                             change.rating_after - (change.rating_before if change.rating_before is not None else start),
                             change.cap_bound)
                 for change, game_id in rows if change.games_after != change.games_before]
        return sorted(lines, key=lambda line: line.game)

    def find_player(self, text: str) -> tuple[int, str]:
        """A player by id, federation id or exact name (case-insensitive): ``(id, name)``."""
        with self.context.read() as session:
            players = list(session.scalars(select(Player)))
        for player in players:
            if str(player.id) == text or player.federation_id == text:     # never int(text): «²», 5,000 digits
                return player.id, player.name
        matches = [player for player in players if player.name.casefold() == text.casefold()]
        if len(matches) == 1:
            return matches[0].id, matches[0].name
        if matches:
            raise RatingError(f"hay {len(matches)} jugadores llamados {shown(text)}: indique el id",
                              what="jugador", value=text)
        raise RatingError(f"no hay ningún jugador {shown(text)} (se acepta el id, el número de federación o el nombre)",
                          what="jugador", value=text)

    def _refs(self, session: Session) -> dict[int, GameRef]:
        return {game.id: _ref(game, tournament)
                for game, tournament in session.execute(select(GameRow, Tournament).join(Tournament)).all()}

    @staticmethod
    def _tournament(session: Session, tournament_id: int | None) -> Tournament:
        tournament = find_tournament(session, tournament_id)
        if tournament is None:
            raise RatingError("no hay ningún torneo en la base de datos" if tournament_id is None
                              else f"no existe el torneo {tournament_id}", what="torneo", value=tournament_id)
        return tournament


def _change_row(rated_game_id: int, prepared: _Prepared, outcome: Outcome[int]) -> dict[str, object]:
    return {"rated_game_id": rated_game_id, "player_id": outcome.key, "phase": outcome.phase.value,
            "total": prepared.totals[outcome.key], "position": prepared.positions[outcome.key],
            "rating_before": outcome.rating_before, "volatility_before": outcome.volatility_before,
            "games_before": outcome.games_before, "target_position": outcome.target_position,
            "actual_position": outcome.actual_position, "rating_after": outcome.rating_after,
            "volatility_after": outcome.volatility_after, "games_after": outcome.games_after,
            "cap_bound": outcome.cap_bound}
