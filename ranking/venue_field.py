"""EloDI of an event played in several venues (issue 27 §2: «EloDI rates the whole field once»).

A game of a tournament holding imported venues (``duplicada venue import``) is one rated
event (V) whose field is every player of every venue together: the organiser's own room
and each imported venue's players, classified by the total of the whole field's standings
(``TournamentService.venue_game_standings``: the same prepared game in every room,
bonuses as the tournament awards them, III.24). Each player is rated once, by the update
of the organiser's game; the venues' own databases rate nothing of it.

**Who is who.** A rating belongs to a person of the database (``Player``). The
organiser's own room's players are its entries' persons (active when the game was
published final, as for any game). An imported venue's player — active in its record —
is the person with the record's federation number when it gives one (so a federated
player's rating continues), else a person made for them once, keyed by the federation
number ``sede:T:H:N`` (``T`` the tournament id, ``H`` the first 12 hex digits of the
SHA-256 of the venue's name, ``N`` the player's id in the venue's record): the same
venue player is the same person at every update and recomputation. A person already in
the field (the same federation number twice) is not rated twice: the second gets the
venue key instead.

**Staleness.** The classification of such a game depends on the imports, so the marker
a rating remembers (``RatedGame.published_event_id``) is the later of the game's final
publication and the tournament's latest venue import (``venue_marker``): importing a
venue again after the game was rated makes it stale, as reopening does, and
``duplicada elodi recompute`` (or the game's next final publication) rates it again.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from duplicate.record.event_kinds import EventKind
from duplicate.rules.statuses import EntryStatus
from duplicate.service.context import ServiceContext
from duplicate.service.facade import TournamentService
from duplicate.storage.models import Event, Player

__all__ = ["field_totals", "venue_key", "venue_marker", "venue_markers"]

FEDERATION_ID_LIMIT = 50
"""Characters of ``Player.federation_id``."""


def venue_marker(session: Session, tournament_id: int) -> int | None:
    """The id of the tournament's latest venue import event, None without venues."""
    return session.scalar(select(func.max(Event.id)).where(Event.tournament_id == tournament_id,
                                                           Event.kind == EventKind.VENUE_IMPORTED.value))


def venue_markers(session: Session) -> dict[int, int]:
    """``venue_marker`` of every tournament that holds venues, by tournament id."""
    return {int(tournament): int(event) for tournament, event in session.execute(
        select(Event.tournament_id, func.max(Event.id)).where(Event.kind == EventKind.VENUE_IMPORTED.value)
        .group_by(Event.tournament_id))}


def venue_key(tournament_id: int, venue: str, player: int) -> str:
    """The federation number of the person made for a venue player (module docstring)."""
    digest = hashlib.sha256(venue.encode("utf-8")).hexdigest()[:12]
    return f"sede:{tournament_id}:{digest}:{player}"[:FEDERATION_ID_LIMIT]


def field_totals(service: TournamentService, context: ServiceContext, tournament_id: int, game_number: int,
                 own_active: Mapping[int, int]) -> dict[int, int]:
    """The whole field of game ``game_number``: total (points plus bonuses) by person id.
    ``own_active``: the organiser's own room's active entries (entry id → person id); the
    imported venues' active players are found or made (module docstring) in one write
    with ``context`` (whose credential the caller checked)."""
    standings = service.venue_game_standings(game_number, None, tournament_id)
    records = {venue: {int(player["id"]): player for player in players}
               for venue, players in service.venue_record_players(tournament_id).items()}
    totals: dict[int, int] = {}
    wanted: list[tuple[tuple[str, int], int, Mapping[str, object]]] = []
    for line in standings:
        venue, player = line.player
        if venue in records:
            details = records[venue].get(player)
            if details is not None and details.get("status", EntryStatus.ACTIVE.value) == EntryStatus.ACTIVE.value:
                wanted.append((line.player, line.total, details))
        elif player in own_active:          # the organiser's own room (no import bears its name)
            totals[own_active[player]] = line.total
    if not wanted:
        return totals
    with context.write() as session:
        for (venue, player), total, given in wanted:
            person = _person(session, tournament_id, venue, player, given, set(totals))
            totals[person] = total
    return totals


def _person(session: Session, tournament_id: int, venue: str, player: int, details: Mapping[str, object],
            taken: set[int]) -> int:
    """The person id of a venue player, found or made (module docstring)."""
    name = str(details.get("name") or "")[:200]
    club, country = str(details.get("club") or "")[:200], str(details.get("country") or "")[:100]
    federation = str(details.get("federation_id") or "").strip()[:FEDERATION_ID_LIMIT]
    for key in ((federation,) if federation else ()) + (venue_key(tournament_id, venue, player),):
        found = session.scalar(select(Player).where(Player.federation_id == key))
        if found is not None and found.id not in taken:
            return found.id
        if found is None:
            made = Player(name=name, club=club, country=country, federation_id=key)
            session.add(made)
            session.flush()
            return made.id
    raise AssertionError("a venue key is never taken twice")  # venue_key is unique per venue player
