"""Stored classic (head-to-head) events: SQLAlchemy 2 models on ``duplicate.storage.models.Base``.

A tournament (``duplicate.storage.models.Tournament``: its players, roles, PINs and event log are
shared with duplicate games) holds one or more *divisions*, each a classic event:

* ``ClassicDivision``: name, pairing system, rounds and settings (bye and forfeit scores,
  tie-breaks);
* ``ClassicSeed``: a player's starting number in the division, rating, title, status and the
  round from which they play (late entries);
* ``ClassicBoard``: one board of one round — the two players (``second`` empty: the
  pairing-allocated bye), both scores once entered, a forfeit, how it was paired;
* ``ClassicAbsence``: a bye asked for (half or zero points) for one round;
* ``ClassicScoreEntry``: every score entry typed at a station, to tell a confirmation from
  a conflict (two stations, two different results) for the judge.

The event log records every change with who made it (``duplicate.record.events``).
Created by the Alembic revisions ``0004`` and ``0005`` (the seed's title) in ``duplicate/storage/migrations/versions``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, DateTime, ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from duplicate.storage.models import Base, Entry

__all__ = ["ClassicAbsence", "ClassicBoard", "ClassicDivision", "ClassicScoreEntry", "ClassicSeed"]


class ClassicDivision(Base):
    __tablename__ = "classic_divisions"
    __table_args__ = (UniqueConstraint("tournament_id", "name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), index=True)
    name: Mapped[str] = mapped_column(String(100), default="")
    system: Mapped[str] = mapped_column(String(20))
    rounds: Mapped[int] = mapped_column(Integer)
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)

    seeds: Mapped[list[ClassicSeed]] = relationship(order_by="ClassicSeed.number")


class ClassicSeed(Base):
    """``status``: ``active`` or ``withdrawn`` (from ``withdrawn_round`` on)."""

    __tablename__ = "classic_seeds"
    __table_args__ = (UniqueConstraint("division_id", "number"), UniqueConstraint("division_id", "entry_id"))

    id: Mapped[int] = mapped_column(primary_key=True)
    division_id: Mapped[int] = mapped_column(ForeignKey("classic_divisions.id"), index=True)
    entry_id: Mapped[int] = mapped_column(ForeignKey("entries.id"))
    number: Mapped[int] = mapped_column(Integer)
    rating: Mapped[int] = mapped_column(Integer, default=0)
    title: Mapped[str] = mapped_column(String(3), default="", server_default="")
    first_round: Mapped[int] = mapped_column(Integer, default=1)
    withdrawn_round: Mapped[int | None] = mapped_column(Integer)

    entry: Mapped[Entry] = relationship()


class ClassicBoard(Base):
    """``table``: None for the pairing-allocated bye; ``forfeit``: ``first``/``second`` (who
    lost by forfeit) or None; ``method``: the system that paired it or ``manual``;
    ``conflict``: a pending conflict for the judge."""

    __tablename__ = "classic_boards"
    __table_args__ = (UniqueConstraint("division_id", "round", "table"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    division_id: Mapped[int] = mapped_column(ForeignKey("classic_divisions.id"), index=True)
    round: Mapped[int] = mapped_column(Integer)
    table: Mapped[int | None] = mapped_column(Integer)
    first_id: Mapped[int] = mapped_column(ForeignKey("classic_seeds.id"))
    second_id: Mapped[int | None] = mapped_column(ForeignKey("classic_seeds.id"))
    first_score: Mapped[int | None] = mapped_column(Integer)
    second_score: Mapped[int | None] = mapped_column(Integer)
    forfeit: Mapped[str | None] = mapped_column(String(10))
    method: Mapped[str] = mapped_column(String(20))
    conflict: Mapped[bool] = mapped_column(default=False)

    first: Mapped[ClassicSeed] = relationship(foreign_keys=[first_id])
    second: Mapped[ClassicSeed | None] = relationship(foreign_keys=[second_id])


class ClassicAbsence(Base):
    """``kind``: ``H`` half-point bye or ``Z`` zero-point bye asked for ``round`` (TRF codes)."""

    __tablename__ = "classic_absences"
    __table_args__ = (UniqueConstraint("seed_id", "round"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    seed_id: Mapped[int] = mapped_column(ForeignKey("classic_seeds.id"), index=True)
    round: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(1))


class ClassicScoreEntry(Base):
    __tablename__ = "classic_score_entries"

    id: Mapped[int] = mapped_column(primary_key=True)
    board_id: Mapped[int] = mapped_column(ForeignKey("classic_boards.id"), index=True)
    first_score: Mapped[int] = mapped_column(Integer)
    second_score: Mapped[int] = mapped_column(Integer)
    station: Mapped[str] = mapped_column(String(100))
    arbiter: Mapped[str] = mapped_column(String(100))
    note: Mapped[str] = mapped_column(Text, default="")
    entered_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
