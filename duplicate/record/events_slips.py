"""Events of slips and results (issue 3 §2, issue 12 §2): slips entered, checked,
corrected and in conflict (III.20, III.23, III.25), annulled masters (III.29), rounds
closed and bonuses (III.24), claims (III.27), results published and reopened (III.26,
IV.32). Gathered by ``duplicate.record.events``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from duplicate.record.event_kinds import OMIT_NONE, EventKind, TournamentEvent

__all__ = [
    "BonusesAwarded",
    "ClaimFiled",
    "ClaimResolved",
    "ConflictResolved",
    "GameReopened",
    "MasterAnnulled",
    "ResultsPublished",
    "RoundClosed",
    "SlipChecked",
    "SlipConflict",
    "SlipCorrected",
    "SlipEntered",
]


@dataclass(frozen=True)
class SlipEntered(TournamentEvent):
    """A slip judged and stored: the ``text`` as written, its ``status``, ``score``, the
    ``move`` read (canonical) and the ``reason`` (III.20, III.23, III.25); ``board``: the
    board form as typed when the slip was written on a paper board (II.8, III.20.1.c–d;
    ``text`` is then the canonical notation derived from it), left out otherwise; ``hint``:
    the move the player probably meant (``duplicate.rules.slips``, a misplaced word), kept with the
    slip (issue 34 §1: the projector writes the slip from the event alone), left out when
    there is none and in events stored before it."""

    KIND = EventKind.SLIP_ENTERED
    table: int
    entry: int
    text: str
    status: str
    score: int
    move: str | None
    reason: str
    board: str | None = field(default=None, metadata=OMIT_NONE)
    hint: str | None = field(default=None, metadata=OMIT_NONE)


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
    """III.27: the slip before and after (``before`` None when there was none; ``after``:
    text, status, score, move, reason); ``hint``: the corrected slip's hint (as
    ``SlipEntered``), left out when there is none."""

    KIND = EventKind.SLIP_CORRECTED
    table: int
    entry: int
    before: dict[str, Any] | None
    after: dict[str, Any]
    hint: str | None = field(default=None, metadata=OMIT_NONE)


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
