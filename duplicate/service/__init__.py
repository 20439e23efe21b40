"""The tournament service: the only authority over a tournament's record.

Every action that changes the record goes through ``TournamentService`` with the acting
station's credential; the front ends (the Textual app, the command line, the browser
stations) ask and display. See ``docs/architecture.md`` for the modules.
"""

from duplicate.service.access import VIEWER, Action, Actor, Role
from duplicate.service.base import ACCESS_KEY, ANNULLED, MARK_STATUSES, REASONS_KEPT, ROLES, ServiceHooks
from duplicate.service.errors import (
    CredentialRefused,
    LockedGameError,
    NotAuthorised,
    ResultsUnpublished,
    RoundHasConflicts,
    SignInLocked,
    StorageUnavailable,
    TournamentError,
)
from duplicate.service.events import EventKind
from duplicate.service.facade import TournamentService
from duplicate.service.settings import TournamentSettings
from duplicate.service.views import (
    AssistantRangeView,
    ClaimView,
    ConflictView,
    EntryResult,
    EntryView,
    EventView,
    GameInfo,
    PendingSlip,
    PlayerView,
    RoundStatus,
    RoundView,
    SeatView,
    SlipView,
    TournamentInfo,
)
from duplicate.statuses import ClaimStatus, ConflictKind, EntryStatus, GameStatus, SeatingMethod

__all__ = [
    "ACCESS_KEY",
    "ANNULLED",
    "Action",
    "Actor",
    "AssistantRangeView",
    "ClaimStatus",
    "ClaimView",
    "ConflictKind",
    "ConflictView",
    "CredentialRefused",
    "EntryResult",
    "EntryStatus",
    "EntryView",
    "EventKind",
    "EventView",
    "GameInfo",
    "GameStatus",
    "LockedGameError",
    "MARK_STATUSES",
    "NotAuthorised",
    "PendingSlip",
    "PlayerView",
    "REASONS_KEPT",
    "ROLES",
    "Role",
    "ResultsUnpublished",
    "RoundHasConflicts",
    "RoundStatus",
    "RoundView",
    "SeatView",
    "SeatingMethod",
    "ServiceHooks",
    "SignInLocked",
    "SlipView",
    "StorageUnavailable",
    "TournamentError",
    "TournamentInfo",
    "TournamentService",
    "TournamentSettings",
    "VIEWER",
]
