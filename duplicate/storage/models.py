"""Stored tournament data: SQLAlchemy 2 typed models (issue 3 §1–§2).

The **event log** (``Event``) is the history: every draw, redraw, master choice, slip
entry, correction, mark, annulment, bonus award, claim, publication and reopen is
appended there with the station, the arbiter and a timestamp, and never changed.
The other tables hold the current state derived from those events so that a slip is
judged and standings are computed without replaying the log: ``Round`` stores the
board before the round (CGP) and the rack, ``Slip`` the slip that counts now for a
player and a round. A correction (III.27) writes a new event and updates the ``Slip``
row in the same transaction; the old text, score and who entered it stay in the log.

The schema is created and upgraded only by the Alembic migrations in
``duplicate/storage/migrations`` (``duplicate.storage.database.open_database``).
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from sqlalchemy import JSON, Boolean, Date, DateTime, Float, ForeignKey, Integer, String, Text, UniqueConstraint, select
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, relationship

from data.rules import ROUND_SECONDS

# The statuses stored in these tables.
from duplicate.rules.statuses import ClaimStatus, EntryStatus, GameStatus


class Base(DeclarativeBase):
    type_annotation_map = {dict[str, Any]: JSON, list[Any]: JSON}


class Tournament(Base):
    __tablename__ = "tournaments"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    venue: Mapped[str] = mapped_column(String(200), default="")
    start_date: Mapped[date | None] = mapped_column(Date)
    end_date: Mapped[date | None] = mapped_column(Date)
    lexicon_hash: Mapped[str] = mapped_column(String(64))
    lexicon_path: Mapped[str | None] = mapped_column(Text)
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    entries: Mapped[list[Entry]] = relationship(back_populates="tournament", order_by="Entry.id")
    games: Mapped[list[GameRow]] = relationship(back_populates="tournament", order_by="GameRow.number")


class Player(Base):
    __tablename__ = "players"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    club: Mapped[str] = mapped_column(String(200), default="")
    country: Mapped[str] = mapped_column(String(100), default="")
    federation_id: Mapped[str | None] = mapped_column(String(50), unique=True)


class Entry(Base):
    """A player in a tournament."""

    __tablename__ = "entries"
    __table_args__ = (UniqueConstraint("tournament_id", "player_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), index=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    status: Mapped[str] = mapped_column(String(20), default=EntryStatus.ACTIVE.value)
    venue: Mapped[str | None] = mapped_column(String(100), nullable=True)
    """The online venue (sede) the player plays in (issue 27 §2; ``OnlineVenue.name``), None
    for the organiser's own room."""

    tournament: Mapped[Tournament] = relationship(back_populates="entries")
    player: Mapped[Player] = relationship()


class GameRow(Base):
    """One duplicate game of a tournament (``Game`` in the glossary; the engine's
    ``duplicate.rules.game.Game`` is rebuilt from its events)."""

    __tablename__ = "games"
    __table_args__ = (UniqueConstraint("tournament_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    planned_rounds: Mapped[int | None] = mapped_column(Integer)
    seconds_per_round: Mapped[int] = mapped_column(Integer, default=ROUND_SECONDS)
    seed: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(20), default=GameStatus.SETUP.value)
    seating: Mapped[str | None] = mapped_column(String(20))
    end_reason: Mapped[str | None] = mapped_column(Text)

    tournament: Mapped[Tournament] = relationship(back_populates="games")
    rounds: Mapped[list[RoundRow]] = relationship(back_populates="game", order_by="RoundRow.number")
    seats: Mapped[list[Seat]] = relationship(back_populates="game", order_by="Seat.table_number")


class Seat(Base):
    """A table assignment for one game (II.6)."""

    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("game_id", "table_number"), UniqueConstraint("game_id", "entry_id"))

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), index=True)
    entry_id: Mapped[int] = mapped_column(ForeignKey("entries.id"))
    table_number: Mapped[int] = mapped_column(Integer)

    game: Mapped[GameRow] = relationship(back_populates="seats")
    entry: Mapped[Entry] = relationship()


class AssistantRange(Base):
    """The tables an assistant enters slips for (II.4.c)."""

    __tablename__ = "assistant_ranges"
    __table_args__ = (UniqueConstraint("tournament_id", "assistant"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), index=True)
    assistant: Mapped[str] = mapped_column(String(100))
    first_table: Mapped[int] = mapped_column(Integer)
    last_table: Mapped[int] = mapped_column(Integer)


class RoundRow(Base):
    """One round: rack, board before it, equal tops, chosen master (III.13–III.17)."""

    __tablename__ = "rounds"
    __table_args__ = (UniqueConstraint("game_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    rack: Mapped[str] = mapped_column(String(40))
    leftover: Mapped[str] = mapped_column(String(40), default="")
    redraws: Mapped[list[Any]] = mapped_column(JSON, default=list)
    arbiter_rack: Mapped[bool] = mapped_column(default=False)
    board_before: Mapped[str] = mapped_column(Text)
    top_score: Mapped[int] = mapped_column(Integer, default=0)
    top_moves: Mapped[list[Any]] = mapped_column(JSON, default=list)
    move_count: Mapped[int] = mapped_column(Integer, default=0)
    master: Mapped[str | None] = mapped_column(String(40))
    master_score: Mapped[int | None] = mapped_column(Integer)
    master_reason: Mapped[str | None] = mapped_column(Text)
    cumulative: Mapped[int | None] = mapped_column(Integer)
    annulled: Mapped[bool] = mapped_column(default=False)
    closed: Mapped[bool] = mapped_column(default=False)

    game: Mapped[GameRow] = relationship(back_populates="rounds")


class Slip(Base):
    """The slip that counts now for one player in one round (II.8, III.20).

    ``text`` is the raw text exactly as the assistant typed it — for a slip written on a
    paper board (II.8, III.20.1.c–d) the canonical notation the service derived from the
    board form, which ``board`` keeps as typed (None for every other slip); ``move`` its
    canonical form when it could be read; ``status`` a ``duplicate.rules.slips.SlipStatus`` code (or
    ``annulled``); ``score`` the points it earns. Unique per (game, round, entry): a
    second entry is a conflict, never an overwrite.
    """

    __tablename__ = "slips"
    __table_args__ = (UniqueConstraint("game_id", "round_number", "entry_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), index=True)
    round_number: Mapped[int] = mapped_column(Integer)
    entry_id: Mapped[int] = mapped_column(ForeignKey("entries.id"))
    table_number: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(Text, default="")
    move: Mapped[str | None] = mapped_column(String(40))
    status: Mapped[str] = mapped_column(String(20))
    score: Mapped[int] = mapped_column(Integer)
    reason: Mapped[str] = mapped_column(Text, default="")
    hint: Mapped[str | None] = mapped_column(Text)
    board: Mapped[str | None] = mapped_column(Text)
    entered_by: Mapped[str] = mapped_column(String(100))
    entered_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    checked_by: Mapped[str | None] = mapped_column(String(100))
    event_id: Mapped[int | None] = mapped_column(ForeignKey("events.id"))


class Conflict(Base):
    """A second entry that disagrees with the stored slip, for the judge to resolve."""

    __tablename__ = "conflicts"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), index=True)
    round_number: Mapped[int] = mapped_column(Integer)
    entry_id: Mapped[int] = mapped_column(ForeignKey("entries.id"))
    table_number: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(20))
    text: Mapped[str] = mapped_column(Text)
    mark: Mapped[str | None] = mapped_column(String(20))   # late / null / missing instead of a text
    entered_by: Mapped[str] = mapped_column(String(100))
    entered_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    resolution: Mapped[str | None] = mapped_column(String(20))
    resolved_by: Mapped[str | None] = mapped_column(String(100))


class Claim(Base):
    """A player's claim about an entry (III.27)."""

    __tablename__ = "claims"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), index=True)
    round_number: Mapped[int] = mapped_column(Integer)
    entry_id: Mapped[int] = mapped_column(ForeignKey("entries.id"))
    text: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(20), default=ClaimStatus.OPEN.value)
    resolution: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class Event(Base):
    """One append-only entry of the history (issue 3 §2), chained to the one before it by
    ``previous_hash`` (issue 26 §2)."""

    __tablename__ = "events"

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), index=True)
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id"), index=True)
    round_number: Mapped[int | None] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(40))
    payload: Mapped[dict[str, Any]] = mapped_column(JSON)
    station: Mapped[str] = mapped_column(String(100))
    arbiter: Mapped[str] = mapped_column(String(100), default="")
    role: Mapped[str] = mapped_column(String(20), default="")
    reason: Mapped[str] = mapped_column(Text, default="")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    previous_hash: Mapped[str | None] = mapped_column(String(64))
    """The hash of the tournament's event before this one (``duplicate.record.chain``;
    written as the event is stored, ``duplicate.storage.event_chain``)."""


class TournamentAccess(Base):
    """A tournament's sign-in state (issue 12 §1, issue 26 §1): the salt of its credentials'
    digests and the tournament-wide count of wrong PINs (``duplicate.service.lockout``):
    ``guess_level``, wrong tries from every source, leaking away with time, as it stood at
    ``guess_level_at``; ``paced_until``, the next free release slot for the answer of a
    wrong PIN held while the level is above the ceiling (issue 36 §1)."""

    __tablename__ = "tournament_access"

    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    salt: Mapped[str] = mapped_column(String(64))
    guess_level: Mapped[float] = mapped_column(Float, default=0.0)
    guess_level_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    paced_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class SignInSource(Base):
    """Wrong PINs counted against where they come from (issue 26 §1): one row per
    tournament and source (the station's name, or the browser's address under ``serve``).
    ``failures``: wrong tries not yet forgotten (no success clears them); ``locked_until``:
    the lock they caused; ``judge_vouched``: no longer used (issue 36 §1: a right PIN is
    never held, so no source needs vouching; kept, always false for new rows, so that no
    database needs a migration)."""

    __tablename__ = "sign_in_sources"

    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    source: Mapped[str] = mapped_column(String(200), primary_key=True)
    failures: Mapped[int] = mapped_column(Integer, default=0)
    last_failure_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    locked_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    judge_vouched: Mapped[bool] = mapped_column(Boolean, default=False)


class TournamentKey(Base):
    """A tournament's signing key (issue 35 §2, ``duplicate.service.signing``): the Ed25519
    ``public_key`` (32 raw bytes, base64; the one its latest ``signing_key_made`` event
    names) and the private key ``sealed`` with the judge's PIN (scrypt and AES-GCM). A
    secret like the credentials' digests: not projected, never in a record."""

    __tablename__ = "tournament_keys"

    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    public_key: Mapped[str] = mapped_column(String(64))
    sealed: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class Credential(Base):
    """A station credential: the judge's or one assistant's PIN, kept only as its scrypt
    digest (``duplicate.service.access``). Unique per tournament, so the PIN alone says
    who is acting (II.4)."""

    __tablename__ = "credentials"
    __table_args__ = (UniqueConstraint("tournament_id", "role", "name"), UniqueConstraint("tournament_id", "digest"))

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), index=True)
    role: Mapped[str] = mapped_column(String(20))
    name: Mapped[str] = mapped_column(String(100))
    digest: Mapped[str] = mapped_column(String(128))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    venue: Mapped[str | None] = mapped_column(String(100), nullable=True)
    """The online venue whose judge or assistant this is (issue 27 §2): its rights stop at
    that venue; None for the organiser's credentials, which cover all."""


class OnlineVenue(Base):
    """A venue (sede) of an event whose rooms all play on this database (issue 27 §2,
    «sedes en línea»): its players (``Entry.venue``) and its stations (``Credential.venue``)
    are named by it."""

    __tablename__ = "online_venues"
    __table_args__ = (UniqueConstraint("tournament_id", "name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), index=True)
    name: Mapped[str] = mapped_column(String(100))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


def find_tournament(session: Session, tournament_id: int | None) -> Tournament | None:
    """The tournament ``tournament_id`` or, when it is None, the newest one; None when
    there is no such tournament (each caller raises its own error)."""
    if tournament_id is None:
        return session.scalar(select(Tournament).order_by(Tournament.id.desc()).limit(1))
    return session.get(Tournament, tournament_id)
