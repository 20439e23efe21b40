"""The projector's handlers for the tournament and its settings, players, entries,
assistants' tables (events_registration).

``PinChanged`` changes no projected table: the credentials are secrets, written by the
service beside the event (``duplicate.storage.projector``, "What is not projected").
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from sqlalchemy import Table, insert, select
from sqlalchemy.orm import Session

from duplicate.record.event_kinds import EventKind
from duplicate.record.events_registration import (
    AssistantRangeSet,
    EntryStatusChanged,
    PlayerAdded,
    PlayerUpdated,
    SettingsChanged,
    TournamentCreated,
)
from duplicate.rules.statuses import EntryStatus
from duplicate.storage.event_chain import AppendedEvent
from duplicate.storage.models import AssistantRange, Base, Entry, Event, Player, Tournament
from duplicate.storage.projection.handler import BatchHandler, Handler

__all__ = ["ACCESS_KEY", "BATCH_HANDLERS", "HANDLERS", "MODELS"]

ACCESS_KEY = "access"
"""Key of a tournament's settings that held the hashed PINs before credentials had their
own table: never in an event, kept as it is when the settings change."""


def _date(text: str | None) -> date | None:
    return date.fromisoformat(text) if text is not None else None


def _tournament_created(session: Session, row: Event, event: TournamentCreated) -> None:
    """A new ``tournaments`` row with the event's tournament id (allocated by the action)."""
    session.add(Tournament(id=row.tournament_id, name=event.name, venue=event.venue or "",
                           start_date=_date(event.start_date), end_date=_date(event.end_date),
                           lexicon_hash=event.lexicon_hash, lexicon_path=event.lexicon_path,
                           settings=dict(event.settings), created_at=row.created_at))


def _settings_changed(session: Session, row: Event, event: SettingsChanged) -> None:
    """The tournament's settings become ``after`` (an ``ACCESS_KEY`` stored before stays)."""
    tournament = session.get(Tournament, row.tournament_id)
    assert tournament is not None
    kept = {key: value for key, value in tournament.settings.items() if key == ACCESS_KEY}
    tournament.settings = {**event.after, **kept}


def _player_added(session: Session, row: Event, event: PlayerAdded) -> None:
    """The player (made unless the event names one already stored: the same federation
    id in another tournament) and its entry, active, both with the event's ids."""
    if session.get(Player, event.player) is None:
        session.add(Player(id=event.player, name=event.name, club=event.club, country=event.country,
                           federation_id=event.federation_id))
        session.flush()
    session.add(Entry(id=event.entry, tournament_id=row.tournament_id, player_id=event.player,
                      status=EntryStatus.ACTIVE.value, venue=event.venue))


def _table(model: type[Base]) -> Table:
    table = model.__table__
    assert isinstance(table, Table)
    return table


PLAYERS_PER_QUERY = 500
"""Player ids looked up per query by ``_players_added``."""


def _players_added(session: Session, items: Sequence[tuple[Event | AppendedEvent, PlayerAdded]]) -> None:
    """``_player_added`` for a run of events (a players' import, issue 36 §4): the stored
    players among theirs found in one query per ``PLAYERS_PER_QUERY``, then the new players
    and the entries inserted in one statement each (no object per row)."""
    wanted = sorted({event.player for _, event in items})
    stored = {player for start in range(0, len(wanted), PLAYERS_PER_QUERY)
              for player in session.scalars(select(Player.id).where(
                  Player.id.in_(wanted[start:start + PLAYERS_PER_QUERY])))}
    players: list[dict[str, object]] = []
    for _, event in items:
        if event.player not in stored:
            stored.add(event.player)
            players.append({"id": event.player, "name": event.name, "club": event.club, "country": event.country,
                            "federation_id": event.federation_id})
    if players:
        session.execute(insert(_table(Player)), players)
    entries = [{"id": event.entry, "tournament_id": row.tournament_id, "player_id": event.player,
                "status": EntryStatus.ACTIVE.value, "venue": event.venue} for row, event in items]
    session.execute(insert(_table(Entry)), entries)


def _entry(session: Session, entry_id: int) -> Entry:
    entry = session.get(Entry, entry_id)
    assert entry is not None, f"inscripción {entry_id} inexistente"
    return entry


def _entry_status_changed(session: Session, row: Event, event: EntryStatusChanged) -> None:
    _entry(session, event.entry).status = event.after


def _assistant_range_set(session: Session, row: Event, event: AssistantRangeSet) -> None:
    """The assistant's tables (one row per tournament and assistant)."""
    current = session.scalar(select(AssistantRange).where(AssistantRange.tournament_id == row.tournament_id,
                                                          AssistantRange.assistant == event.assistant))
    if current is None:
        current = AssistantRange(tournament_id=row.tournament_id, assistant=event.assistant)
        session.add(current)
    current.first_table, current.last_table = event.first, event.last


def _player_updated(session: Session, row: Event, event: PlayerUpdated) -> None:
    """The player's details become ``after``; its entry moves to ``after["venue"]`` when given."""
    entry = _entry(session, event.entry)
    player = session.get(Player, event.player)
    assert player is not None
    for key in ("name", "club", "country", "federation_id"):
        if key in event.after:
            setattr(player, key, event.after[key])
    if "venue" in event.after:
        entry.venue = event.after["venue"]


HANDLERS: dict[EventKind, Handler] = {
    EventKind.TOURNAMENT_CREATED: _tournament_created,
    EventKind.SETTINGS_CHANGED: _settings_changed,
    EventKind.PLAYER_ADDED: _player_added,
    EventKind.ENTRY_STATUS: _entry_status_changed,
    EventKind.ASSISTANT_RANGE: _assistant_range_set,
    EventKind.PLAYER_UPDATED: _player_updated,
}
BATCH_HANDLERS: dict[EventKind, BatchHandler] = {
    EventKind.PLAYER_ADDED: _players_added,
}
"""The kinds whose runs ``project_all`` applies at once (the same tables as ``HANDLERS`` one by one)."""
MODELS: tuple[type[Base], ...] = (Tournament, Player, Entry, AssistantRange)
"""The models these handlers create; ``Player`` rows are made by the ranking family's
handlers too (the people of imported venues, first rated by an EloDI event)."""
