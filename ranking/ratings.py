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

The service is made of parts, each a module: ``ranking.rating_field`` (which games count
and the field each is rated in), ``ranking.rating_history`` (the versions of the history
and the readers: rating list, game report, player history) and this module (rating a
game once, recomputing, storing what ``rate_game`` computed); the values they return are
in ``ranking.rating_views``. ``RatingService`` hands each reading
call to its part (``duplicate.service.delegate.Delegate``: same signature and docstring).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import cast

from sqlalchemy import Table, delete, func, insert, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from duplicate.record.events_ranking import RatingsRecomputed, RatingsUpdated
from duplicate.service.access import Action
from duplicate.service.context import OnContext, ServiceContext
from duplicate.service.delegate import Delegate
from duplicate.storage.database import Database
from duplicate.storage.rating_models import RatedGame, Rating, RatingChange, RatingVersion
from ranking.elodi import Contestant, EloDISettings, Outcome, rate_game
from ranking.rating_field import RatingField
from ranking.rating_history import RatingHistory
from ranking.rating_views import GameRef, RatingError, RatingInput, UpdateResult, current_version_in, now

__all__ = ["RatingService"]

_CHANGES = cast(Table, RatingChange.__table__)
_RATINGS = cast(Table, Rating.__table__)

RETRIES = 5
"""How many times a game's rating is retried after losing a race with another station."""


@dataclass(frozen=True)
class RatingParts:
    """The parts of one rating service handle, on the same context and settings."""

    field: RatingField
    history: RatingHistory

    @classmethod
    def on(cls, context: ServiceContext, settings: EloDISettings) -> RatingParts:
        field = RatingField(context, settings)
        return cls(field=field, history=RatingHistory(context, settings, field))


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
        self.modules = RatingParts.on(self.context, self.settings)

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
                version = current_version_in(session) or 1
                self.context.log(session, acting, RatingsUpdated(version, [
                    {"tournament": ref.tournament_id, "game": ref.number} for ref in done]), actor=actor)
        return UpdateResult(tuple(done), (), False, stale)

    def _rate_once(self, ref: GameRef) -> bool:
        """Rate one game unless it is rated already; ``True`` if this call rated it."""
        prepared = self.modules.field.prepare(ref)
        for _ in range(RETRIES):
            try:
                with self.context.write() as session:
                    version = current_version_in(session)
                    if version is None:           # the first history: version 1 (two stations: one wins)
                        version = 1
                        session.add(RatingVersion(number=1, kind="update", created_at=now(),
                                                  station=self.context.station, arbiter="", tournament_id=None))
                        session.flush()
                    if session.scalar(select(RatedGame.id).where(RatedGame.game_id == ref.game_id,
                                                                 RatedGame.version == version)) is not None:
                        return False
                    marker = self.modules.field.marker(session, ref.game_id, ref.tournament_id)
                    if marker != prepared.published_event_id:
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

    def _contestants(self, prepared: RatingInput, ratings: dict[int, Rating]) -> list[Contestant[int]]:
        contestants = []
        for player, position in prepared.positions.items():
            row = ratings.get(player)
            if row is None:
                contestants.append(Contestant(player, position))
            else:
                contestants.append(Contestant(player, position, row.rating, row.volatility, row.games))
        return contestants

    def _store(self, session: Session, prepared: RatingInput, version: int, sequence: int,
               outcomes: Iterable[Outcome[int]], ratings: dict[int, Rating]) -> None:
        rated_game = RatedGame(version=version, game_id=prepared.ref.game_id, sequence=sequence,
                               published_event_id=prepared.published_event_id, rounds=prepared.rounds,
                               settings=self.settings.to_dict(), rated_at=now())
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
            cached = {} if reread else self.modules.field.stored_inputs(session)
        prepared = [cached[ref.game_id] if ref.game_id in cached else self.modules.field.prepare(ref) for ref in games]
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
        settings, moment = self.settings.to_dict(), now()
        with self.context.write() as session:
            actor = self.context.authorise(session, acting, Action.UPDATE_RATINGS)
            previous = current_version_in(session)
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

    # --- which games count (``rating_field``) ----------------------------------------------------
    game_ref = Delegate("field", RatingField.game_ref)
    why_not_rated = Delegate("field", RatingField.why_not_rated)
    valid_games = Delegate("field", RatingField.valid_games)
    rated_games = Delegate("field", RatingField.rated_games)
    stale_games = Delegate("field", RatingField.stale_games)

    # --- reading (``rating_history``) --------------------------------------------------------------
    current_version = Delegate("history", RatingHistory.current_version)
    versions = Delegate("history", RatingHistory.versions)
    rating_list = Delegate("history", RatingHistory.rating_list)
    game_report = Delegate("history", RatingHistory.game_report)
    player_history = Delegate("history", RatingHistory.player_history)
    find_player = Delegate("history", RatingHistory.find_player)

def _change_row(rated_game_id: int, prepared: RatingInput, outcome: Outcome[int]) -> dict[str, object]:
    return {"rated_game_id": rated_game_id, "player_id": outcome.key, "phase": outcome.phase.value,
            "total": prepared.totals[outcome.key], "position": prepared.positions[outcome.key],
            "rating_before": outcome.rating_before, "volatility_before": outcome.volatility_before,
            "games_before": outcome.games_before, "target_position": outcome.target_position,
            "actual_position": outcome.actual_position, "rating_after": outcome.rating_after,
            "volatility_after": outcome.volatility_after, "games_after": outcome.games_after,
            "cap_bound": outcome.cap_bound}
