"""Every part of a tournament record checked against its own event log, and the log against
its chain of hashes (issue 26 §2), for ``duplicada verify``.

``duplicate.record.figures_check`` compares the figures of each round (racks, masters, slips,
bonuses) with the log. This module covers the rest of the record and the log itself:

* **the log**: ids are integers, strictly increasing (no event twice, none out of order);
  ``created_at`` is a time; in a chained record (``format_version`` ≥ ``CHAIN_VERSION``)
  the times never go back;
* **the chain** (``duplicate.record.chain``): each event's ``previous_hash`` is the hash of
  the event before it (``GENESIS`` for the first) and ``events_head`` the hash of the
  last, so an event removed, added, reordered or edited — any field: kind, ids, time,
  station, arbiter, role, reason, data — breaks it where it happened; a record of an
  earlier version carries no chain (``chain_state`` says so; it is not a difference);
* **the players** (``players``) against ``player_added``, ``player_updated`` and
  ``entry_status``: the same entries, each with the name, club, country, federation id,
  online venue (format 12) and status the log leads to;
* **the tournament**: name, lexicon hash and settings against ``tournament_created`` and
  ``settings_changed``; its online venues (``venues``, format 12) against ``venue_added``,
  and every player's venue is one of them;
* **the games**: the same games as ``game_created`` (with its rounds planned, seconds and
  seed), the seating of the last ``tables_assigned``, the ``end_reason`` of the last
  ``game_ended``, the status of the last publication or reopening;
* **the rounds**: every round the log gives a master (``master_chosen`` not undone) is in
  the record; ``closed`` and ``annulled`` as ``round_closed`` and ``master_annulled`` say.

A malformed event is reported, never raised.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from typing import Any, TypeGuard

from duplicate.record.chain import GENESIS, canonical_time, event_hash
from duplicate.record.difference import Difference

__all__ = ["CHAIN_VERSION", "chain_state", "log_differences"]

CHAIN_VERSION = 7
"""The first ``format_version`` whose events are chained (``previous_hash``, ``events_head``)."""

_PLAYER_FIELDS = ("name", "club", "country", "federation_id", "venue")
"""A player's details the log sets; ``venue`` (an online venue, issue 27 §2) from format
version 12: a player of an earlier record has no ``venue`` key, which is not checked."""


def chain_state(record: dict[str, Any]) -> str:
    """``"chained"`` when the record carries the chain (checked by ``log_differences``),
    ``"absent"`` for a record of an earlier version without it."""
    version = record.get("format_version")
    if isinstance(version, int) and version >= CHAIN_VERSION or "events_head" in record:
        return "chained"
    return "absent"


def log_differences(record: dict[str, Any], *, parsed: bool = False) -> list[Difference]:
    """Every difference between ``record`` (shape checked by ``check_shape``) and its event
    log, and every break of the log's order and chain; empty when they agree. A record
    without events gives none here (``duplicate.record.figures_check`` reports it).
    ``parsed``: the record is as ``json.loads`` gives it (``load_record``), so each event is
    hashed without a trip through JSON (``event_hash``'s ``parsed``; issue 38)."""
    events = record.get("events")
    if not isinstance(events, list) or not events:
        return []
    check = _LogCheck(record, [event for event in events if isinstance(event, dict)], parsed)
    check.run()
    return check.differences


class _LogCheck:
    def __init__(self, record: dict[str, Any], events: list[dict[str, Any]], parsed: bool) -> None:
        self.record, self.events, self.parsed = record, events, parsed
        self.by_kind: dict[str, list[tuple[int, dict[str, Any], dict[str, Any]]]] | None = None
        self.chained = chain_state(record) == "chained"
        self.differences: list[Difference] = []

    def add(self, where: str, field: str, recorded: object, expected: object, message: str) -> None:
        self.differences.append(Difference(where, field, recorded, expected, message))

    def run(self) -> None:
        self.order()
        if self.chained:
            self.chain()
        self.players()
        self.tournament()
        self.games()

    def of_kind(self, *kinds: str) -> Iterator[tuple[dict[str, Any], dict[str, Any]]]:
        """The events of ``kinds`` with a payload object, in log order (from an index of the
        log by kind, made once: issue 38)."""
        if self.by_kind is None:
            self.by_kind = {}
            for position, event in enumerate(self.events):
                payload, kind = event.get("payload"), event.get("kind")
                if isinstance(payload, dict) and isinstance(kind, str):
                    self.by_kind.setdefault(kind, []).append((position, event, payload))
        found = [entry for kind in dict.fromkeys(kinds) for entry in self.by_kind.get(kind, [])]
        if len(kinds) > 1:
            found.sort(key=lambda entry: entry[0])
        for _position, event, payload in found:
            yield event, payload

    # --- the log itself --------------------------------------------------------------------
    def order(self) -> None:
        last_id: int | None = None
        last_time: datetime | None = None
        for index, event in enumerate(self.events):
            where = f"historial, evento {event.get('id')}"
            number = event.get("id")
            if not isinstance(number, int) or isinstance(number, bool):
                self.add(where, "id", number, None, "el evento no tiene un id entero")
            elif last_id is not None and number <= last_id:
                self.add(where, "id", number, f"> {last_id}",
                         "los ids del historial deben crecer: evento repetido o fuera de orden")
            else:
                last_id = number
            try:
                moment = datetime.fromisoformat(str(canonical_time(event.get("created_at"))))
            except (TypeError, ValueError, OverflowError):
                self.add(where, "created_at", event.get("created_at"), None, "hora ilegible")
                continue
            if self.chained and last_time is not None and moment < last_time:
                self.add(where, "created_at", event.get("created_at"), f">= {last_time.isoformat()}",
                         f"la hora retrocede respecto al evento anterior (posición {index})")
            last_time = moment if last_time is None or moment > last_time else last_time

    def chain(self) -> None:
        previous = GENESIS
        for event in self.events:
            where = f"historial, evento {event.get('id')}"
            if event.get("previous_hash") != previous:
                self.add(where, "previous_hash", event.get("previous_hash"), previous,
                         "la cadena de eventos se rompe aquí: se quitó, añadió, reordenó o cambió un evento "
                         "anterior, o este")
                return
            try:
                previous = event_hash(previous, event, parsed=self.parsed)
            except (TypeError, ValueError, OverflowError, RecursionError) as error:
                self.add(where, "previous_hash", event.get("id"), None,
                         f"evento que no se puede resumir ({type(error).__name__})")
                return
        if self.record.get("events_head") != previous:
            self.add("historial", "events_head", self.record.get("events_head"), previous,
                     "la cabeza de la cadena no es el resumen del último evento: se quitó o cambió el final "
                     "del historial")

    # --- players ---------------------------------------------------------------------------
    def players(self) -> None:
        logged: dict[int, dict[str, Any]] = {}
        for event, payload in self.of_kind("player_added", "player_updated", "entry_status"):
            entry = payload.get("entry")
            if not _is_int(entry):
                self.add(f"historial, evento {event.get('id')}", "entry", entry, None, "evento sin inscripción")
                continue
            if event["kind"] == "player_added":
                logged[entry] = {key: payload.get(key) for key in _PLAYER_FIELDS} | {"status": "active"}
            elif entry in logged and event["kind"] == "player_updated" and isinstance(payload.get("after"), dict):
                logged[entry].update({key: payload["after"].get(key) for key in _PLAYER_FIELDS
                                      if key in payload["after"]})
            elif entry in logged and event["kind"] == "entry_status":
                logged[entry]["status"] = payload.get("after")
        seen: set[int] = set()
        for player in self.record["players"]:
            number = player["id"]
            seen.add(number)
            state = logged.get(number)
            if state is None:
                self.add(f"jugadores, jugador {number}", "id", number, None,
                         "el jugador no se inscribió según el historial (ningún «player_added»)")
                continue
            for key, value in state.items():
                if key in player and player[key] != value:
                    self.add(f"jugadores, jugador {number}", key, player[key], value,
                             "el dato del jugador no es el que dejó el historial (inscripción y correcciones)")
        for number in sorted(set(logged) - seen):
            self.add(f"jugadores, jugador {number}", "players", None, logged[number].get("name"),
                     "el historial inscribe a un jugador que el registro no tiene")

    # --- the tournament --------------------------------------------------------------------
    def tournament(self) -> None:
        created = next(self.of_kind("tournament_created"), None)
        if created is None:
            self.add("torneo", "events", None, "tournament_created", "el historial no empieza por la creación del torneo")
            return
        payload = created[1]
        tournament = self.record["tournament"]
        for key in ("name", "lexicon_hash"):
            if key in tournament and key in payload and tournament[key] != payload[key]:
                self.add("torneo", key, tournament[key], payload[key], "no es el del historial (creación del torneo)")
        settings = dict(payload["settings"]) if isinstance(payload.get("settings"), dict) else {}
        for _, change in self.of_kind("settings_changed"):
            if isinstance(change.get("after"), dict):
                settings.update(change["after"])
        for key, value in tournament["settings"].items():
            if key in settings and settings[key] != value:
                self.add("torneo", f"settings.{key}", value, settings[key],
                         "el ajuste no es el que dejó el historial (creación y cambios de ajustes)")
        self.online_venues()

    def online_venues(self) -> None:
        """Format 12 (issue 27 §2): the tournament's online venues are those ``venue_added``
        names, in order, and every player's venue is one of them."""
        named = [payload.get("venue") for _, payload in self.of_kind("venue_added")]
        venues = self.record["tournament"].get("venues")
        if venues is None:
            if named:
                self.add("torneo", "venues", None, named, "el historial da de alta sedes en línea que el registro "
                         "no tiene")
            return
        if venues != named:
            self.add("torneo", "venues", venues, named, "las sedes en línea no son las dadas de alta en el historial")
        for player in self.record["players"]:
            venue = player.get("venue")
            if venue is not None and venue not in named:
                self.add(f"jugadores, jugador {player['id']}", "venue", venue, None,
                         "el jugador es de una sede en línea que el historial no da de alta")

    # --- games and rounds -----------------------------------------------------------------
    def games(self) -> None:
        created = {payload["number"]: payload for _, payload in self.of_kind("game_created")
                   if _is_int(payload.get("number"))}
        mentioned = {event["game"] for event in self.events if _is_int(event.get("game"))} | set(created)
        stored = {game["number"] for game in self.record["games"]}
        for number in sorted(mentioned - stored):
            self.add(f"partida {number}", "games", None, number, "el historial tiene una partida que el registro no tiene")
        for game in self.record["games"]:
            self.game(game, created.get(game["number"]))

    def game(self, game: dict[str, Any], created: dict[str, Any] | None) -> None:
        number = game["number"]
        where = f"partida {number}"
        if created is None:
            self.add(where, "number", number, None, "la partida no se creó según el historial")
            return
        for key in ("planned_rounds", "seconds_per_round", "seed"):
            if key in game and key in created and game[key] != created[key]:
                self.add(where, key, game[key], created[key], "no es el de la creación de la partida")
        own = [(event, payload) for event, payload in self.of_kind(
            "tables_assigned", "game_ended", "results_published", "game_reopened", "master_chosen", "master_undone",
            "round_closed", "master_annulled") if event.get("game") == number]
        tables = [payload.get("tables") for event, payload in own if event["kind"] == "tables_assigned"]
        if tables and game["tables"] != tables[-1]:
            self.add(where, "tables", game["tables"], tables[-1], "las mesas no son las asignadas según el historial (II.6)")
        ended = [payload.get("reason") for event, payload in own if event["kind"] == "game_ended"]
        if ended and "end_reason" in game and game["end_reason"] != ended[-1]:
            self.add(where, "end_reason", game["end_reason"], ended[-1], "no es el motivo de fin del historial (III.22)")
        status = [payload.get("status") for event, payload in own
                  if event["kind"] in ("results_published", "game_reopened")]
        if status and "status" in game and game["status"] != status[-1]:
            self.add(where, "status", game["status"], status[-1],
                     "no es el estado de la última publicación o reapertura del historial (III.26, IV.32)")
        self.rounds(game, own)

    def rounds(self, game: dict[str, Any], own: list[tuple[dict[str, Any], dict[str, Any]]]) -> None:
        masters: set[int] = set()
        closed: set[int] = set()
        annulled: set[int] = set()
        for event, payload in own:
            number = payload.get("round", event.get("round"))
            if not _is_int(number):
                continue
            if event["kind"] == "master_chosen":
                masters.add(number)
            elif event["kind"] == "master_undone":
                masters.discard(number)
            elif event["kind"] == "round_closed":
                closed.add(number)
            elif event["kind"] == "master_annulled":
                annulled.add(number)
        stored = {round_["number"]: round_ for round_ in game["rounds"]}
        for number in sorted(masters - set(stored)):
            self.add(f"partida {game['number']}, ronda {number}", "rounds", None, number,
                     "el historial juega esta ronda (su maestra) y el registro no la tiene")
        for number, round_ in stored.items():
            where = f"partida {game['number']}, ronda {number}"
            if "closed" in round_ and round_["closed"] != (number in closed):
                self.add(where, "closed", round_["closed"], number in closed, "no es lo que dice el historial")
            if round_["annulled"] != (number in annulled):
                self.add(where, "annulled", round_["annulled"], number in annulled,
                         "no es lo que dice el historial (III.29)")


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)
