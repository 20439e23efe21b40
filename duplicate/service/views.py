"""Frozen views the service returns to front ends (never ORM rows)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Any

from duplicate.models import (
    EntryStatus,
    RoundRow,
    Tournament,
)
from duplicate.slips import SlipVerdict


@dataclass(frozen=True)
class GameInfo:
    """A game as listed: number, status (``GameStatus`` value), rounds with a rack,
    planned rounds (None = full bag), seconds per round, why it ended."""

    number: int
    status: str
    rounds: int
    planned_rounds: int | None
    seconds_per_round: int
    end_reason: str | None


@dataclass(frozen=True)
class TournamentInfo:
    """A tournament as plain values (safe to keep after the session is closed)."""

    id: int
    name: str
    venue: str
    start_date: date | None
    end_date: date | None
    lexicon_hash: str
    lexicon_path: str | None
    settings: dict[str, Any]
    players: int
    active_players: int
    games: tuple[GameInfo, ...]


def _tournament_info(tournament: Tournament) -> TournamentInfo:
    return TournamentInfo(
        tournament.id, tournament.name, tournament.venue, tournament.start_date, tournament.end_date,
        tournament.lexicon_hash, tournament.lexicon_path, dict(tournament.settings), len(tournament.entries),
        sum(1 for entry in tournament.entries if entry.status == EntryStatus.ACTIVE.value),
        tuple(GameInfo(game.number, game.status, len(game.rounds), game.planned_rounds, game.seconds_per_round,
                       game.end_reason) for game in tournament.games))


@dataclass(frozen=True)
class EntryResult:
    """What entering a slip did: ``outcome`` is ``accepted``, ``repeated`` (the same
    text was already stored: nothing changed) or ``conflict`` (a different slip is
    stored: a ``Conflict`` for the judge); ``verdict`` the judgement of the typed text;
    ``player`` the player's name."""

    outcome: str
    verdict: SlipVerdict
    table: int
    player: str
    round_number: int
    conflict_id: int | None = None


@dataclass(frozen=True)
class RoundView:
    """A round as stored (see ``RoundRow``), with tops as ``(canonical, score, reason)``."""

    number: int
    rack: str
    board_before: str
    top_score: int
    top_moves: tuple[tuple[str, int, str], ...]
    move_count: int
    master: str | None
    master_score: int | None
    cumulative: int | None
    annulled: bool
    closed: bool
    redraws: tuple[dict[str, str], ...] = ()
    leftover: str = ""
    master_reason: str | None = None


@dataclass(frozen=True)
class RoundStatus:
    """Slips entered versus expected for one round, per assistant (II.4.c)."""

    round_number: int
    expected: int
    entered: int
    missing_tables: tuple[int, ...]
    per_assistant: dict[str, tuple[int, int, tuple[int, ...]]] = field(default_factory=dict)


def _round_view(row: RoundRow) -> RoundView:
    return RoundView(row.number, row.rack, row.board_before, row.top_score,
                     tuple((top[0], top[1], top[2]) for top in row.top_moves), row.move_count, row.master,
                     row.master_score, row.cumulative, row.annulled, row.closed, tuple(row.redraws or ()),
                     row.leftover, row.master_reason)
