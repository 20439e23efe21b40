"""Stored EloDI ratings (rules V; ``elodi.md``): SQLAlchemy 2 models on ``duplicate.storage.models.Base``.

* ``Rating``: a player's current EloDI — rating, volatility, rated games, last rated game.
  A player without a row is *nuevo* (1200/535 before the first valid game, rules V).
* ``RatingVersion``: a version of the rating history. ``elodi recompute`` starts a new
  version; the older ones are never deleted and stay readable (issue 24 §2).
* ``RatedGame``: one game that has been rated in a version. ``(version, game_id)`` is
  unique, so a game is rated once per version even when two stations run the update at
  the same time; ``(version, sequence)``
  (1, 2, 3, … in rating order) is unique too, so two games rated concurrently from the
  same ratings cannot both be stored: the second transaction fails and is retried on the
  fresh values (``ranking.ratings``).
* ``RatingChange``: the history — one row per player and rated game with the values before
  and after, the target position (ERank), the actual position and whether the cap bound.

Created by the Alembic revisions ``0002`` and ``0005`` (versions) in
``duplicate/storage/migrations/versions``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, DateTime, Float, ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from duplicate.storage.models import Base

__all__ = ["RatedGame", "Rating", "RatingChange", "RatingVersion"]


class Rating(Base):
    """A player's current EloDI (rules V). ``games``: rated games so far."""

    __tablename__ = "elodi_ratings"

    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    rating: Mapped[int] = mapped_column(Integer)
    volatility: Mapped[int] = mapped_column(Integer)
    games: Mapped[int] = mapped_column(Integer)
    last_game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id"))


class RatingVersion(Base):
    """One version of the rating history (``elodi.md``, "Recomputation"): ``update`` adds
    games to the newest version; ``recompute`` starts a new one and leaves the older ones
    as they were, readable (``kind``: ``update`` for the first version, ``recompute``).
    ``station`` / ``arbiter`` / ``tournament_id``: who made it, from where, signing for
    which tournament; ``event_id``: the event of the log that records it."""

    __tablename__ = "elodi_versions"

    number: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    kind: Mapped[str] = mapped_column(String(20))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    station: Mapped[str] = mapped_column(String(100), default="")
    arbiter: Mapped[str] = mapped_column(String(100), default="")
    tournament_id: Mapped[int | None] = mapped_column(ForeignKey("tournaments.id"))


class RatedGame(Base):
    """A game whose ratings have been applied in a ``version`` of the history (once per
    version: ``(version, game_id)`` is unique; ``sequence`` is its place in the version).

    ``published_event_id``: the final publication (``results_published`` event) whose
    standings were rated — a later publication means the game changed and needs a
    recompute; ``settings``: the ``EloDISettings`` used (``to_dict``).
    """

    __tablename__ = "elodi_rated_games"
    __table_args__ = (UniqueConstraint("version", "game_id"), UniqueConstraint("version", "sequence"))

    id: Mapped[int] = mapped_column(primary_key=True)
    version: Mapped[int] = mapped_column(ForeignKey("elodi_versions.number"), index=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    sequence: Mapped[int] = mapped_column(Integer)
    published_event_id: Mapped[int | None] = mapped_column(ForeignKey("events.id"))
    rounds: Mapped[int] = mapped_column(Integer)
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)
    rated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RatingChange(Base):
    """One player's change in one rated game (``elodi.md``: the per-game report).

    ``phase``: ``rated`` / ``new`` / ``unchanged`` (``ranking.elodi.Phase``);
    ``rating_before`` / ``volatility_before``: ``None`` for a new player;
    ``target_position`` (ERank) and ``actual_position`` (ties averaged) in the field the
    player was rated in; ``total`` / ``position``: the player's points in the game and the
    place given to ``rate_game`` (by total, or the published place with tie-breaks).
    """

    __tablename__ = "elodi_rating_changes"
    __table_args__ = (UniqueConstraint("rated_game_id", "player_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    rated_game_id: Mapped[int] = mapped_column(ForeignKey("elodi_rated_games.id", ondelete="CASCADE"), index=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    phase: Mapped[str] = mapped_column(String(20))
    total: Mapped[int] = mapped_column(Integer)
    position: Mapped[float] = mapped_column(Float)
    rating_before: Mapped[int | None] = mapped_column(Integer)
    volatility_before: Mapped[int | None] = mapped_column(Integer)
    games_before: Mapped[int] = mapped_column(Integer)
    target_position: Mapped[float | None] = mapped_column(Float)
    actual_position: Mapped[float | None] = mapped_column(Float)
    rating_after: Mapped[int] = mapped_column(Integer)
    volatility_after: Mapped[int] = mapped_column(Integer)
    games_after: Mapped[int] = mapped_column(Integer)
    cap_bound: Mapped[bool] = mapped_column(default=False)
