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

The games an update rates are rated in one write transaction that appends one event
(``RatingsUpdated``: the classification each game was rated with and what ``rate_game``
computed); the projector (``duplicate.storage.projection.ranking``) stores from it the
players' new ``Rating`` rows, the ``RatingChange`` history and the ``RatedGame`` markers.
``RatedGame.game_id`` and ``RatedGame.sequence`` are unique in a version, so repeating the
command, or two stations running it at once, rates a game exactly once (the losing
transaction is rolled back and retried).

Errors for the user are ``RatingError`` (Spanish message).

The service is made of parts, each a module: ``ranking.rating_field`` (which games count
and the field each is rated in), ``ranking.rating_history`` (the versions of the history
and the readers: rating list, game report, player history) and this module (rating a
game once, recomputing, putting what ``rate_game`` computed in the events); the values they return are
in ``ranking.rating_views`` and re-exported here. ``RatingService`` hands each reading
call to its part (``duplicate.service.delegate.Delegate``: same signature and docstring).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from duplicate.record.events_ranking import RATED_GAME_KEYS, RatingsRecomputed, RatingsUpdated
from duplicate.service.access import Action
from duplicate.service.context import OnContext, ServiceContext
from duplicate.service.delegate import Delegate
from duplicate.storage.database import Database
from duplicate.storage.rating_models import RatedGame, Rating
from ranking.elodi import Contestant, EloDISettings, rate_game
from ranking.rating_field import RatingField
from ranking.rating_history import RatingHistory
from ranking.rating_views import GameRef, RatingError, RatingInput, UpdateResult, current_version_in
from ranking.venue_field import resolve_persons

__all__ = ["RatingService"]

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
        return UpdateResult(tuple(self._rate(acting, pending)), (), False, stale)

    def _rate(self, acting: int, pending: list[GameRef]) -> list[GameRef]:
        """Rate the ``pending`` games (date order) not rated yet into the current version, in
        one write transaction that appends them (``RatingsUpdated``, signed for the
        ``acting`` tournament; the projector stores the figures); the games this call rated."""
        if not pending:
            return []
        prepared = [self.modules.field.prepare(ref) for ref in pending]
        for _ in range(RETRIES):
            try:
                with self.context.write() as session:
                    actor = self.context.authorise(session, acting, Action.UPDATE_RATINGS)
                    version = current_version_in(session) or 1     # the first history: version 1
                    rated = set(session.scalars(select(RatedGame.game_id).where(RatedGame.version == version)))
                    todo = [item for item in prepared if item.ref.game_id not in rated]
                    for item in todo:
                        if self.modules.field.marker(session, item.ref.game_id,
                                                     item.ref.tournament_id) != item.published_event_id:
                            raise RatingError(f"la partida {item.ref.label} ha cambiado mientras se calculaba: repita "
                                              "la orden", what="partida", value=item.ref.number)
                    if not todo:
                        return []
                    todo, persons = resolve_persons(session, todo)
                    players = [player for item in todo for player in item.totals]
                    state = {row.player_id: (row.rating, row.volatility, row.games)
                             for row in session.scalars(select(Rating).where(Rating.player_id.in_(players)))}
                    games = [self._rated_game(item, state) for item in todo]
                    self.context.log(session, acting, RatingsUpdated(version, games, self.settings.to_dict(),
                                                                     persons or None), actor=actor)
                return [item.ref for item in todo]
            except IntegrityError:
                continue          # another station rated a game at the same time: read again
        raise RatingError(f"no se pudo valorar {pending[0].label}: otros puestos están escribiendo; repita la orden",
                          what="partida", value=pending[0].number)

    def _rated_game(self, item: RatingInput, state: dict[int, tuple[int, int, int]]) -> dict[str, Any]:
        """Rate one game from the players' values in ``state`` (player → rating, volatility,
        rated games; a player without one is new), which it updates; the game as the rating
        events carry it (``RATED_GAME_KEYS``: the classification rated and, for each player
        it changed, the values after, ERank, ARank and the cap bound)."""
        contestants = [Contestant(player, position, *state[player]) if player in state
                       else Contestant(player, position) for player, position in item.positions.items()]
        players: list[list[Any]] = []
        for outcome in rate_game(contestants, self.settings):
            line: list[Any] = [outcome.key, item.totals[outcome.key], item.positions[outcome.key]]
            if outcome.games_after != outcome.games_before:     # rated (else unchanged: too few rated players)
                line += [outcome.rating_after, outcome.volatility_after, outcome.target_position,
                         outcome.actual_position, outcome.cap_bound]
                state[outcome.key] = (outcome.rating_after, outcome.volatility_after, outcome.games_after)
            players.append(line)
        return dict(zip(RATED_GAME_KEYS, (item.ref.tournament_id, item.ref.number, item.published_event_id,
                                          item.rounds, players), strict=True))

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
        with self.context.write() as session:
            actor = self.context.authorise(session, acting, Action.UPDATE_RATINGS)
            prepared, persons = resolve_persons(session, prepared)
            state: dict[int, tuple[int, int, int]] = {}   # player → rating, volatility, rated games
            rated = [self._rated_game(item, state) for item in prepared]
            previous = current_version_in(session)
            self.context.log(session, acting, RatingsRecomputed((previous or 0) + 1, previous, len(rated), rated=rated,
                                                                settings=self.settings.to_dict(),
                                                                persons=persons or None), actor=actor)
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
