"""Events of registration (issue 3 §2, issue 12 §2): the tournament and its settings,
the stations' credentials (never a PIN), players, entries and assistants' tables.
Declared as ``duplicate.record.event_kinds.TournamentEvent`` subclasses; gathered by
``duplicate.record.events``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from duplicate.record.event_kinds import OMIT_NONE, EventKind, TournamentEvent

__all__ = [
    "AssistantRangeSet",
    "EntryStatusChanged",
    "PinChanged",
    "PlayerAdded",
    "PlayerUpdated",
    "SettingsChanged",
    "SigningKeyMade",
    "TournamentCreated",
]


@dataclass(frozen=True)
class TournamentCreated(TournamentEvent):
    """A tournament ``name`` with its rule ``settings``, made with the lexicon
    ``lexicon_hash``; ``venue``, ``start_date`` and ``end_date`` (ISO 8601) as given and
    ``lexicon_path`` the lexicon file it names (absent from histories written before they
    were recorded, and when not given)."""

    KIND = EventKind.TOURNAMENT_CREATED
    name: str
    settings: dict[str, Any]
    lexicon_hash: str
    venue: str | None = field(default=None, metadata=OMIT_NONE)
    start_date: str | None = field(default=None, metadata=OMIT_NONE)
    end_date: str | None = field(default=None, metadata=OMIT_NONE)
    lexicon_path: str | None = field(default=None, metadata=OMIT_NONE)


@dataclass(frozen=True)
class SettingsChanged(TournamentEvent):
    KIND = EventKind.SETTINGS_CHANGED
    before: dict[str, Any]
    after: dict[str, Any]


@dataclass(frozen=True)
class PinChanged(TournamentEvent):
    """A station's credential set (``set``) or revoked; never the PIN itself."""

    KIND = EventKind.PIN_CHANGED
    role: str
    set: bool
    name: str | None = field(default=None, metadata=OMIT_NONE)
    venue: str | None = field(default=None, metadata=OMIT_NONE)
    """The online venue of the credential (issue 27 §2); left out for the organiser's."""


@dataclass(frozen=True)
class PlayerAdded(TournamentEvent):
    KIND = EventKind.PLAYER_ADDED
    entry: int
    player: int
    name: str
    club: str
    country: str
    federation_id: str | None
    venue: str | None = field(default=None, metadata=OMIT_NONE)
    """The online venue the player plays in (issue 27 §2); left out for the organiser's room."""


@dataclass(frozen=True)
class EntryStatusChanged(TournamentEvent):
    KIND = EventKind.ENTRY_STATUS
    entry: int
    before: str
    after: str


@dataclass(frozen=True)
class AssistantRangeSet(TournamentEvent):
    """II.4.c: the tables ``first``–``last`` of ``assistant``."""

    KIND = EventKind.ASSISTANT_RANGE
    assistant: str
    first: int
    last: int


@dataclass(frozen=True)
class PlayerUpdated(TournamentEvent):
    KIND = EventKind.PLAYER_UPDATED
    entry: int
    player: int
    before: dict[str, Any]
    after: dict[str, Any]


@dataclass(frozen=True)
class SigningKeyMade(TournamentEvent):
    """Issue 35 §2: the tournament's Ed25519 key pair, whose private key signs its exported
    records (``duplicate.record.signature``): ``public_key`` (the 32 raw bytes, base64) and
    its ``fingerprint``. Never the private key: it is a secret, kept sealed with the judge's
    PIN beside the log (``duplicate.service.signing``), never in a record. A later event
    replaces the key (a tournament restored on another installation, or made before keys)."""

    KIND = EventKind.SIGNING_KEY_MADE
    public_key: str
    fingerprint: str
