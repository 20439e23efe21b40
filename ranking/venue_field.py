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
venue key instead. A person is made by the rating that first needs them: the rating's
event names it (``RatingsUpdated.persons``, ``RatingsRecomputed.persons``) and the
projector writes it, so reading the field (``field_totals``) writes nothing.

**Staleness.** The classification of such a game depends on the imports, so the marker
a rating remembers (``RatedGame.published_event_id``) is the later of the game's final
publication and the tournament's latest venue import (``venue_marker``): importing a
venue again after the game was rated makes it stale, as reopening does, and
``duplicada elodi recompute`` (or the game's next final publication) rates it again.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from duplicate.record.event_kinds import EventKind
from duplicate.rules.statuses import EntryStatus
from duplicate.service.context import ServiceContext
from duplicate.service.facade import TournamentService
from duplicate.storage.models import Event, Player
from duplicate.storage.projector import next_ids
from ranking.rating_views import RatingError, RatingInput, VenuePerson

__all__ = ["field_totals", "resolve_persons", "venue_key", "venue_marker", "venue_markers"]

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
                 own_active: Mapping[int, int]) -> tuple[dict[int, int], tuple[VenuePerson, ...]]:
    """The whole field of game ``game_number``: total (points plus bonuses) by person id,
    and the venue players who are not persons of the database yet (keyed in the totals by
    their ``VenuePerson.key``, made when the game is rated: ``resolve_persons``).
    ``own_active``: the organiser's own room's active entries (entry id → person id)."""
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
    made: dict[str, VenuePerson] = {}
    if not wanted:
        return totals, ()
    with context.read() as session:
        for (venue, player), total, given in wanted:
            person = _person(session, tournament_id, venue, player, given, set(totals), made)
            totals[person] = total
    return totals, tuple(made.values())


def _person(session: Session, tournament_id: int, venue: str, player: int, details: Mapping[str, object],
            taken: set[int], made: dict[str, VenuePerson]) -> int:
    """The person id of a venue player (module docstring), or the key of the person to
    make for them, added to ``made`` (by federation number)."""
    name = str(details.get("name") or "")[:200]
    club, country = str(details.get("club") or "")[:200], str(details.get("country") or "")[:100]
    federation = str(details.get("federation_id") or "").strip()[:FEDERATION_ID_LIMIT]
    for key in ((federation,) if federation else ()) + (venue_key(tournament_id, venue, player),):
        found = made[key].key if key in made else session.scalar(select(Player.id).where(Player.federation_id == key))
        if found is not None and found not in taken:
            return found
        if found is None:
            made[key] = VenuePerson(-1 - len(made), name, club, country, key)
            return made[key].key
    raise AssertionError("a venue key is never taken twice")  # venue_key is unique per venue player


def resolve_persons(session: Session, inputs: Sequence[RatingInput]) -> tuple[list[RatingInput], list[list[Any]]]:
    """``inputs`` keyed by person ids only, in the write transaction that rates them: each
    venue player to make (``RatingInput.persons``) is the person made meanwhile with the
    same federation number, else gets a new id; and the persons to make, each ``[id, name,
    club, country, federation number]`` (``RatingsUpdated.persons``). ``RatingError`` when
    a person made meanwhile is already in the game's field (repeat the command)."""
    wanted = {person.federation_id: person for item in inputs for person in item.persons}
    if not wanted:
        return list(inputs), []
    ids: dict[str, int] = {str(key): int(person) for person, key in session.execute(
        select(Player.id, Player.federation_id).where(Player.federation_id.in_(list(wanted))))}
    missing = [key for key in wanted if key not in ids]
    made = dict(zip(missing, next_ids(session, Player, len(missing)), strict=True))
    ids.update(made)
    resolved = []
    for item in inputs:
        keys = {person.key: ids[person.federation_id] for person in item.persons}
        if set(keys.values()) & set(item.totals):
            raise RatingError(f"la partida {item.ref.label} ha cambiado mientras se calculaba: repita la orden",
                              what="partida", value=item.ref.number)
        resolved.append(replace(item, totals={keys.get(player, player): total for player, total in item.totals.items()},
                                positions={keys.get(player, player): position
                                           for player, position in item.positions.items()}, persons=()))
    persons = [[made[key], wanted[key].name, wanted[key].club, wanted[key].country, key] for key in missing]
    return resolved, persons
