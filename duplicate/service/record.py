"""The complete tournament record (``duplicada export``; docs/tournament-record.md)."""

from __future__ import annotations

import json
from collections.abc import Collection, Iterator
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, TextIO

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from duplicate.record.chain import GENESIS, event_hash
from duplicate.record.event_kinds import EventKind
from duplicate.record.json_text import indented
from duplicate.record.signature import RecordDigest, record_message, signature_block
from duplicate.rules.rack import shown_rack
from duplicate.service.base import TaskModule, _iso, _now
from duplicate.service.context import ServiceContext
from duplicate.service.errors import DamagedData
from duplicate.service.online_venues import venue_names
from duplicate.service.prepared_play import plan_of
from duplicate.service.settings import DamagedSettings, TournamentSettings
from duplicate.service.signing import Signing, raw_public
from duplicate.service.standings import Standings
from duplicate.service.views import EventView, LoggedChange, view_of
from duplicate.storage.models import (
    Event,
    GameRow,
    RoundRow,
    Slip,
    Tournament,
)
from duplicate.storage.projection.registration import ACCESS_KEY
from lexicon.alphabet import Alphabet

RECORD_FORMAT = "duplicada-tournament-1"
"""The record's format name (docs/tournament-record.md); ``verify`` reads this format."""

RECORD_VERSION = 14
"""Revision of the format: fields are only ever added (version 2 adds ``format_version``
and each event's ``role``: the role of the credential that acted; version 3 adds
``equal_tops`` to the payload of ``master_chosen`` events, so that replay places recorded
masters without generating moves; issue 12; version 4 adds ``replaces`` — the rack
replaced, III.29 — to ``rack_drawn`` and ``rack_set`` payloads; version 5 adds the event
kind ``master_undone``; issue 13; version 6 adds the EloDI event kinds ``ratings_updated``
and ``ratings_recomputed``; issue 24; version 7 chains the events: each carries
``previous_hash``, the record ``events_head``, ``duplicate.record.chain``; issue 26 §2;
version 8 adds the event kind ``slips_set_aside`` and each round's ``set_aside`` list: the
slips of a withdrawn rack, III.29, which count for nothing; issue 25;
version 9 adds each game's ``prepared`` — the digest of the prepared game it plays and the
round from which it left it, III.15 — and the event kinds ``prepared_game_loaded`` and
``prepared_game_left``; issue 27;
version 10 adds ``board_notation`` to the settings and ``board`` — the board form as typed
of a slip written on a paper board, II.8 — to such slips and to their ``slip_entered``
payloads; issue 25 §4; version 11 adds the event kind ``venue_imported``: an offline venue's
record brought into an organiser's tournament, ``duplicate.service.venues``; issue 27 §2;
version 12 adds online venues: each player's ``venue`` (null: the organiser's own room), the
tournament's ``venues`` (the online venues' names), the event kind ``venue_added`` and the
``venue`` of ``player_added`` and ``pin_changed`` payloads; issue 27 §2; version 13 makes
each event carry what the tables hold of it — the tables are the log's projection,
``duplicate.storage.projector`` — so that ``duplicada restore`` rebuilds them; issue 34;
version 14 signs the record — its ``signature`` block, ``duplicate.record.signature``, by the
tournament's Ed25519 key, ``duplicate.service.signing`` — and adds the event kinds
``signing_key_made`` and ``venue_key_registered`` and the ``signed_by`` and ``unsigned``
of ``venue_imported`` payloads; issue 35 §2). ``verify`` refuses a newer version than it
knows (``duplicate.record.reading.NEWEST_FORMAT_VERSION``, kept equal to this one)."""


def _slip_record(player: int, table: int, text: str | None, status: str, score: int, move: str | None,
                 reason: str, entered_by: str, entered_at: datetime | None, board: str | None) -> dict[str, Any]:
    """A slip (its stored columns) as the record writes it; ``board`` only for a slip written
    on a paper board (II.8)."""
    written: dict[str, Any] = {"player": player, "table": table, "text": text, "status": status, "score": score,
                               "move": move, "reason": reason, "entered_by": entered_by,
                               "entered_at": _iso(entered_at)}
    if board is not None:
        written["board"] = board
    return written


RACK_KEYS = ("rack", "replaces", "leftover")
"""Keys of an event's payload that hold a stored rack text (``rack_drawn``, ``rack_set``,
``rack_withdrawn``; their ``redraws`` too)."""


def _racks_shown(payload: dict[str, Any], alphabet: Alphabet) -> dict[str, Any]:
    """``payload`` with each stored rack (``RACK_KEYS``, and each redraw's ``rack``) as
    people read it: digraph tiles in brackets (``duplicate.rules.rack.shown_rack``)."""
    shown = {key: shown_rack(value, alphabet) if key in RACK_KEYS and isinstance(value, str) else value
             for key, value in payload.items()}
    if isinstance(shown.get("redraws"), list):
        shown["redraws"] = [{**redraw, "rack": shown_rack(redraw["rack"], alphabet)}
                            if isinstance(redraw, dict) and isinstance(redraw.get("rack"), str) else redraw
                            for redraw in shown["redraws"]]
    return shown


@dataclass(frozen=True)
class ExportSummary:
    """What ``write_export`` wrote: the numbers of ``games`` and ``events``, the ``head`` of
    the chain of events (``events_head``) and ``fingerprint``, that of the key that signed
    the record (None: written unsigned)."""

    games: int
    events: int
    head: str
    fingerprint: str | None


class Record(TaskModule):
    """The complete tournament record (``duplicada export``; docs/tournament-record.md)."""

    def __init__(self, context: ServiceContext, standings: Standings, signing: Signing) -> None:
        super().__init__(context)
        self.standings = standings
        self.signing = signing

    def export(self, tournament_id: int | None = None) -> dict[str, Any]:
        """The complete tournament record (format ``duplicada-tournament-1``,
        ``docs/tournament-record.md``): everything needed to recompute every result. The
        same content ``write_export`` streams, held whole in memory; signed (its last key,
        ``signature``) when this handle holds the organiser's judge PIN and the tournament's
        key is here (``Signing.export_key``; issue 35 §2). ``CredentialRefused`` for a wrong PIN."""
        private = self.signing.export_key(tournament_id)
        with self._read() as session:
            record = {key: list(value) if isinstance(value, Iterator) else value
                      for key, value in self._record_parts(session, self._tournament(session, tournament_id))}
        if private is not None:
            record["signature"] = signature_block(raw_public(private), private.sign(record_message(record)))
        return record

    def write_export(self, out: TextIO, tournament_id: int | None = None) -> ExportSummary:
        """Write the record of ``export`` to ``out`` as JSON (UTF-8 text, ``indent=1``,
        non-ASCII kept: the same text as ``json.dumps(export(), ensure_ascii=False,
        indent=1)``), game by game and event by event, so that memory does not grow with
        the record (issue 26 §3); each value is hashed as it is written and the signature
        (when ``export`` signs) written last. Returns what was written (``ExportSummary``)."""
        counts = {"games": 0, "events": 0}
        head = ""
        private = self.signing.export_key(tournament_id)
        digest = RecordDigest()
        with self._read() as session:
            tournament = self._tournament(session, tournament_id)
            out.write("{")
            for index, (key, value) in enumerate(self._record_parts(session, tournament)):
                out.write(f"{',' if index else ''}\n {json.dumps(key)}: ")
                if not isinstance(value, Iterator):
                    out.write(indented(value, 1))
                    digest.add(key, value)
                    head = value if key == "events_head" else head
                    continue
                out.write("[")
                for number, item in enumerate(digest.add_items(key, value)):
                    out.write(f"{',' if number else ''}\n  " + indented(item, 2))
                    counts[key] = number + 1
                out.write("\n ]" if counts.get(key) else "]")
            signed = None
            if private is not None:
                block = signature_block(raw_public(private), private.sign(digest.message()))
                out.write(",\n \"signature\": " + indented(block, 1))
                signed = block["fingerprint"]
            out.write("\n}")
        return ExportSummary(counts["games"], counts["events"], head, signed)

    def _record_parts(self, session: Session, tournament: Tournament) -> Iterator[tuple[str, Any]]:
        """The record's keys in order with their values; ``games`` and ``events`` are
        iterators (one game, one event at a time), to be consumed before the next key."""
        TournamentSettings.from_dict(tournament.settings)     # damaged settings: said (DamagedSettings), first
        yield "format", RECORD_FORMAT
        yield "format_version", RECORD_VERSION
        yield "exported_at", _now().isoformat()
        if not isinstance(tournament.settings, dict):
            raise DamagedSettings(f"los criterios guardados del torneo están dañados (se esperaba un objeto JSON, "
                                  f"no {type(tournament.settings).__name__}): restaure una copia de la base de datos")
        yield "tournament", {"name": tournament.name, "venue": tournament.venue,
                             "start_date": _iso(tournament.start_date), "end_date": _iso(tournament.end_date),
                             "lexicon_hash": tournament.lexicon_hash,
                             "settings": {key: value for key, value in tournament.settings.items()
                                          if key != ACCESS_KEY},
                             "venues": venue_names(session, tournament.id)}
        if any(entry.player is None for entry in tournament.entries):
            raise DamagedData("una inscripción guardada remite a un jugador que no existe: la base de datos está "
                              "dañada; restaure una copia")
        registered = self._registered_details(session, tournament)
        yield "players", [{"id": entry.id, **registered.get(entry.id, {
                               "name": entry.player.name, "club": entry.player.club, "country": entry.player.country,
                               "federation_id": entry.player.federation_id, "venue": entry.venue}),
                           "status": entry.status} for entry in tournament.entries]
        yield "games", (self._game_record(session, tournament, game) for game in tournament.games)
        overall = self.standings.tournament_standings_in(session, tournament)
        yield "standings", [{"player": s.player, "position": s.position, "value": s.value, "total": s.total}
                            for s in overall]
        last: list[dict[str, Any]] = []
        yield "events", self._event_records(session, tournament, last)
        yield "events_head", event_hash(str(last[0]["previous_hash"] or GENESIS), last[0]) if last else GENESIS

    @staticmethod
    def _registered_details(session: Session, tournament: Tournament) -> dict[int, dict[str, Any]]:
        """Each entry's name, club, country and federation id as this tournament registered
        and corrected them (its ``player_added`` and ``player_updated`` events): a player is
        shared by tournaments (one federation id, one person), and a correction made in a
        later tournament does not rewrite an earlier one's record (issue 26 §2)."""
        details: dict[int, dict[str, Any]] = {}
        query = (select(Event.kind, Event.payload).where(
            Event.tournament_id == tournament.id,
            Event.kind.in_((EventKind.PLAYER_ADDED.value, EventKind.PLAYER_UPDATED.value))).order_by(Event.id))
        for kind, payload in session.execute(query):
            entry = payload.get("entry")
            if kind == EventKind.PLAYER_ADDED.value:
                details[entry] = {key: payload.get(key) for key in _PLAYER_DETAILS}
            elif entry in details and isinstance(payload.get("after"), dict):
                details[entry].update({key: payload["after"][key] for key in _PLAYER_DETAILS
                                       if key in payload["after"]})
        return details

    def _game_record(self, session: Session, tournament: Tournament, game: GameRow) -> dict[str, Any]:
        results = {result.number: result for result in self.standings.round_results_in(session, tournament, game)}
        slips: dict[int, list[dict[str, Any]]] = {}
        query = (select(Slip.round_number, Slip.entry_id, Slip.table_number, Slip.text, Slip.status, Slip.score,
                        Slip.move, Slip.reason, Slip.entered_by, Slip.entered_at, Slip.board)
                 .where(Slip.game_id == game.id).order_by(Slip.round_number, Slip.table_number)
                 .execution_options(yield_per=_BATCH))
        for round_number, *columns in session.execute(query):     # columns, not Slip objects (issue 38)
            slips.setdefault(round_number, []).append(_slip_record(*columns))
        set_aside: dict[int, list[dict[str, Any]]] = {}
        for event in session.scalars(select(Event).where(
                Event.game_id == game.id, Event.kind == EventKind.SLIPS_SET_ASIDE.value).order_by(Event.id)):
            set_aside.setdefault(event.round_number or 0, []).extend(
                {**slip, "rack": event.payload.get("rack"), "set_aside_reason": event.reason}
                for slip in event.payload.get("slips", []))
        rounds = []
        for row in game.rounds:
            if row.master is None:
                continue     # a rack still waiting for its master: not a played round yet
            result = results.get(row.number)
            rounds.append({
                "number": row.number, "rack": row.rack, "board_before": row.board_before,
                "top_score": row.top_score, "top_moves": [top[0] for top in row.top_moves],
                "master": row.master, "master_score": row.master_score, "cumulative": row.cumulative,
                "annulled": row.annulled, "closed": row.closed,
                "slips": slips.get(row.number, []),
                "set_aside": set_aside.get(row.number, []),
                "bonuses": {str(entry): points for entry, points in (result.bonuses if result else {}).items()
                            if points},
            })
        standings = self.standings.game_standings_in(session, tournament, game)
        plan = plan_of(session, game.id)
        return {
            "number": game.number, "planned_rounds": game.planned_rounds,
            "seconds_per_round": game.seconds_per_round, "seed": game.seed, "status": game.status,
            "end_reason": game.end_reason,
            "tables": {str(seat.entry_id): seat.table_number for seat in game.seats},
            "prepared": None if plan is None else {"digest": plan.game.digest, "left_at": plan.left_at},
            "rounds": rounds,
            "standings": [{"player": s.player, "position": s.position, "total": s.total,
                           "bonus": s.bonus_total, "percentage": s.percentage} for s in standings],
        }

    @staticmethod
    def _event_records(session: Session, tournament: Tournament,
                       last: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
        """The tournament's events, oldest first, read in batches; the last one is left in
        ``last`` once all are read."""
        game_numbers = {game.id: game.number for game in tournament.games}
        # Columns, not Event objects (issue 38: building 60,000 mapped objects was most of the read).
        query = (select(Event.id, Event.kind, Event.game_id, Event.round_number, Event.station, Event.arbiter,
                        Event.role, Event.reason, Event.created_at, Event.payload, Event.previous_hash)
                 .where(Event.tournament_id == tournament.id).order_by(Event.id)
                 .execution_options(yield_per=_BATCH))
        logged: dict[str, Any] = {}
        for (number, kind, game_id, round_number, station, arbiter, role, reason, created_at, payload,
             previous_hash) in session.execute(query):
            logged = {"id": number, "kind": kind,
                      "game": game_numbers.get(game_id) if game_id is not None else None,
                      "round": round_number, "station": station, "arbiter": arbiter,
                      "role": role, "reason": reason, "created_at": _iso(created_at),
                      "payload": payload, "previous_hash": previous_hash}
            yield logged
        if logged:
            last[:] = [logged]

    def history(self, tournament_id: int | None = None, game_number: int | None = None, *,
                kinds: Collection[str] | None = None) -> list[EventView]:
        """The event log, oldest first (one game's when ``game_number`` is given; only the
        events of ``kinds``, ``EventKind`` values, when given); each view's ``shown`` has
        the racks as people read them (``_racks_shown``)."""
        with self._read() as session:
            tournament = self._tournament(session, tournament_id)
            query = select(Event).where(Event.tournament_id == tournament.id)
            if game_number is not None:
                game = self._game(session, tournament, game_number)
                query = query.where(Event.game_id == game.id)
            if kinds is not None:
                query = query.where(Event.kind.in_(sorted(kinds)))
            views = [view_of(EventView, event) for event in session.scalars(query.order_by(Event.id))]
            # A damaged payload (not a JSON object) is shown as it is, never interpreted.
            alphabet = (self.lexicon_for(tournament).alphabet
                        if any(isinstance(view.payload, dict) and key in view.payload
                               for view in views for key in RACK_KEYS) else None)
        return [replace(view, shown=_racks_shown(view.payload, alphabet)
                        if alphabet is not None and isinstance(view.payload, dict) else view.payload)
                for view in views]

    def last_event_id(self, tournament_id: int | None = None) -> int:
        """Id of the newest event of the tournament (0 if none): a station polls it to see
        other stations' changes (issue 4 §3)."""
        with self._read() as session:
            tournament = self._tournament(session, tournament_id)
            return session.scalar(select(func.max(Event.id)).where(Event.tournament_id == tournament.id)) or 0

    def last_event_ids(self, tournament_id: int | None = None) -> dict[int | None, int]:
        """The id of the newest event of each game of the tournament that has events (game
        number → id) and, under ``None``, of the newest event of no game (registration,
        settings, venues, keys, ratings…); one query. Every change of the record is an
        event (issue 34), so a game's data (its rounds, slips, seats, status, history)
        can only have moved when its id or the ``None`` id did: what a reader that keeps
        a game's values between reads (``duplicada live``, issue 37) keys them on."""
        with self._read() as session:
            tournament = self._tournament(session, tournament_id)
            rows = session.execute(select(GameRow.number, func.max(Event.id))
                                   .select_from(Event).outerjoin(GameRow, GameRow.id == Event.game_id)
                                   .where(Event.tournament_id == tournament.id).group_by(Event.game_id, GameRow.number))
            return {number: int(last) for number, last in rows}

    def changes_after(self, after: int, upto: int | None = None,
                      tournament_id: int | None = None) -> frozenset[LoggedChange]:
        """What the tournament's events with ``after`` < id ≤ ``upto`` (None: no upper
        bound) touched, without their data: each different (kind, game, round) once, with
        whether that round is closed now (``LoggedChange``); one query. ``duplicada live``
        asks it to skip the events that change no public page (issue 37)."""
        with self._read() as session:
            tournament = self._tournament(session, tournament_id)
            query = (select(Event.kind, GameRow.number, Event.round_number, RoundRow.closed)
                     .select_from(Event).outerjoin(GameRow, GameRow.id == Event.game_id)
                     .outerjoin(RoundRow, (RoundRow.game_id == Event.game_id)
                                & (RoundRow.number == Event.round_number))
                     .where(Event.tournament_id == tournament.id, Event.id > after).distinct())
            if upto is not None:
                query = query.where(Event.id <= upto)
            return frozenset(LoggedChange(kind, number, round_number, bool(closed))
                             for kind, number, round_number, closed in session.execute(query))


_PLAYER_DETAILS = ("name", "club", "country", "federation_id", "venue")

_BATCH = 1000
"""Rows read at a time while exporting (``yield_per``)."""
