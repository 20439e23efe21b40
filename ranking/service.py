"""The tournament service as every front end builds it: with EloDI wired in (section V).

``duplicate`` sits below ``ranking`` and never imports it; the service takes hooks
(``ServiceHooks``) instead, and this module supplies them:

* final publication rates the game once, whoever publishes (the app, the command line);
* a game reopened after final publication no longer counts (``RatingService.stale_games``
  sees it) and its final re-publication recomputes every rating in date order
  (``elodi.md``, "Recomputation");
* importing a venue's record again after its game was rated (issue 27 §2) recomputes, the
  same way (``ranking.venue_field``);
* seating by rating (II.6) reads the stored EloDI ratings.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from duplicate.service.context import ServiceContext, ServiceHooks
from duplicate.service.facade import TournamentService
from duplicate.service.opening import open_database_for
from duplicate.storage.database import Database

if TYPE_CHECKING:   # EloDI is loaded when a hook runs: a read-only command needs none of it (issue 38)
    from ranking.rating_views import ReportLine, UpdateResult
    from ranking.ratings import RatingService


class EloDIHooks:
    """The EloDI side effects of the service's decisions on one database."""

    def __init__(self, database: Database) -> None:
        self.db = database
        self.last_update: UpdateResult | None = None

    def ratings(self, player_ids: Sequence[int]) -> dict[int, int]:
        """EloDI ratings of those players that have one (``player id → rating``)."""
        from sqlalchemy import select

        from duplicate.storage.rating_models import Rating

        with self.db.read() as session:
            rows = session.execute(select(Rating.player_id, Rating.rating).where(Rating.player_id.in_(player_ids)))
            return {int(player): int(rating) for player, rating in rows}

    def results_final(self, context: ServiceContext, tournament_id: int, game_number: int) -> None:
        """Rate a game whose results just became final; recompute when a rated game was
        reopened and published again (its rating is stale). ``context``: the publishing
        station's, so the update is authorised and logged with the judge's credential."""
        from ranking.rating_views import UpdateResult
        from ranking.ratings import RatingService

        ratings = RatingService(context)
        ref = ratings.game_ref(game_number, tournament_id)
        if ratings.stale_games():
            recomputed = tuple(ratings.recompute(tournament_id=tournament_id))
            self.last_update = UpdateResult(recomputed, (), True, ())
        else:
            self.last_update = ratings.update(ref)

    def venue_imported(self, context: ServiceContext, tournament_id: int) -> None:
        """A venue's record was imported (issue 27 §2): when it changed the field of a game
        already rated (``ranking.venue_field``: the rating is stale), recompute, as a
        reopened game's next final publication does; else nothing. ``context``: the
        importing judge's, so the recomputation is authorised and logged."""
        from ranking.rating_views import UpdateResult
        from ranking.ratings import RatingService

        ratings = RatingService(context)
        if any(ref.tournament_id == tournament_id for ref in ratings.stale_games()):
            recomputed = tuple(ratings.recompute(tournament_id=tournament_id))
            self.last_update = UpdateResult(recomputed, (), True, ())
        else:
            self.last_update = None

    def game_ratings(self, tournament_id: int, game_number: int) -> list[ReportLine]:
        """The EloDI report of a rated game (raises ``RatingError`` otherwise)."""
        from ranking.ratings import RatingService

        ratings = RatingService(self.db)
        return ratings.game_report(ratings.game_ref(game_number, tournament_id))

    def hooks(self) -> ServiceHooks:
        return ServiceHooks(ratings=self.ratings, results_final=self.results_final, game_ratings=self.game_ratings,
                            venue_imported=self.venue_imported)


def tournament_service(database: Database, **options: Any) -> TournamentService:
    """``TournamentService(database, **options)`` with the EloDI hooks (see the module
    docstring); ``options`` are the service's (``station``, ``lexicon``, ``pin``)."""
    return TournamentService(database, hooks=EloDIHooks(database).hooks(), **options)


def open_tournament_service(url: str | None, *, create: bool = True,
                            **options: Any) -> tuple[TournamentService, EloDIHooks]:
    """The tournament service on the database at ``url`` with the EloDI hooks, and the
    hooks (which keep the last rating update to show). ``options`` as for
    ``tournament_service``; a SQLite file that does not exist is created only with
    ``create``. Raises ``StorageUnavailable`` (Spanish) when the database cannot be
    opened."""
    database = open_database_for(url, create=create)
    hooks = EloDIHooks(database)
    return TournamentService(database, hooks=hooks.hooks(), **options), hooks


def open_rating_service(url: str | None, *, station: str = "elodi", pin: str | None = None) -> RatingService:
    """The EloDI rating service on the database at ``url``, as ``station`` acting with
    ``pin`` (``None``: read-only); ``StorageUnavailable`` as above."""
    from ranking.ratings import RatingService

    return RatingService(ServiceContext(open_database_for(url), station=station, pin=pin))
