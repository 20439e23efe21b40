"""Offline venues (sedes) of one event played in several rooms at once (issue 27 §2).

Each venue runs its own tournament on its own machine with the organiser's prepared games
(III.15, last paragraph: «duplicada maestra»), exports its record (``duplicada export``)
and the organiser imports it (``Venues.import_venue``, ``duplicada venue import RECORD
--venue NAME``). The import is refused, nothing stored, unless the record verifies
(``duplicate.record.verify.verify_record`` with the tournament's lexicon) and every game of it
plays, round by round, the prepared game of the organiser's game of the same number (same
digest, seed, racks, masters and scores, ``duplicate.prepared.check.played_differences``),
without having left it (III.29).

Storage: no table of its own. An import is one ``venue_imported`` event whose payload holds
the venue's record without its event log (players, games with every slip, standings, the
head of its chain of events) and the SHA-256 of the record as imported. Importing a venue
again logs a new event naming the one it replaces: the log keeps both, the standings read
the latest of each venue.

Signed records (issue 35 §2; docs/venues.md, «Registros firmados»): the organiser registers
each offline venue's public key before the event (``register_venue_key``, a
``venue_key_registered`` event); a venue with a registered key is imported only from a
record signed by that key, and a venue without one only when the judge says so
(``unsigned``: the import's event records ``unsigned``).

Online venues (``duplicate.service.online_venues``): rooms whose stations play on this same
database; the tournament names them (``add_venue``) and each of its entries may belong to one
(``Entry.venue``). They are listed with the imported ones (``venues``, ``online`` set) and
their players ranked exactly like an imported venue's, keyed ``(venue, entry id)``; an event
may mix both kinds.

Standings across venues: every player of every venue and of the organiser's own room (whose
venue is the tournament's ``venue``, or ``OWN_VENUE`` when it has none) ranked together,
each player keyed ``(venue, entry id in that venue's record)``. Each round's master and top
scores are the prepared game's (the same in every room); bonuses (III.24) are computed
over the whole field — a round's bonus goes to the only player of *all* venues with the
best score — and only for rounds closed in every room that played them; with the setting
``venue_bonuses`` each venue's bonuses are awarded among its own players instead. Per venue
standings rank that venue's players among themselves, with those same bonuses.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from duplicate.homonyms import NamedPlayer, distinct_names
from duplicate.record.event_kinds import EventKind
from duplicate.record.signature import SignatureCheck, fingerprint, public_key_text, signature_check
from duplicate.rules.bonuses import round_bonuses
from duplicate.rules.game_standings import GameStanding, RoundResult
from duplicate.rules.statuses import EntryStatus
from duplicate.rules.tournament_standings import TournamentCriterion, TournamentStanding, tournament_standings
from duplicate.service.access import Action
from duplicate.service.base import TaskModule
from duplicate.service.context import ServiceContext
from duplicate.service.errors import DamagedData, InvalidFile, InvalidText, NotFound, StateConflict
from duplicate.service.field_standings import FieldGame, FieldStandings, VenueKey
from duplicate.service.online_venues import VENUE_NAME_LIMIT, venue_names
from duplicate.service.settings import TournamentSettings
from duplicate.service.standings import Standings
from duplicate.storage.models import Credential, Entry, Event, GameRow, Seat, Tournament

__all__ = ["OWN_VENUE", "FieldPlayer", "VenueView", "Venues", "imported_active_players", "latest_imports"]

OWN_VENUE = "sede del organizador"
"""The venue name of the organiser's own room when the tournament names no venue."""


KEY_FILE_MAX_BYTES = 4096
"""Bytes of a venue's public key file read at most (a PEM Ed25519 key is 113)."""

_SHOWN_DIFFERENCES = 3
"""Differences named in a refusal (the rest are counted)."""


@dataclass(frozen=True)
class VenueView:
    """One imported venue: ``name``; ``players`` and ``games`` in its record; ``digest``
    the SHA-256 of the record as imported; ``event_id`` the import's event; ``replaces``
    the earlier import it replaced (None for the first); ``events_head`` the head of the
    venue's chain of events; ``imported_at`` ISO time. ``online``: an online venue (issue
    27 §2, its stations on this database): ``players`` its entries, ``games`` the games
    its players are seated in, ``digest`` empty, ``event_id`` and ``imported_at`` those of
    its ``venue_added`` event."""

    name: str
    players: int
    games: int
    digest: str
    event_id: int
    replaces: int | None
    events_head: str | None
    imported_at: str
    online: bool = False
    signed_by: str | None = None
    """The fingerprint of the venue's registered key that signed the imported record; None
    for an import made unsigned (``--unsigned``) and for an online venue (issue 35 §2)."""


@dataclass(frozen=True)
class FieldPlayer:
    """A player of the whole field: ``venue``, ``player`` (entry id in that venue's record
    or, for the organiser's own room, in this tournament), ``name`` and ``club``."""

    venue: str
    player: int
    name: str
    club: str

    @property
    def key(self) -> VenueKey:
        return (self.venue, self.player)


def record_digest(record: dict[str, Any]) -> str:
    """SHA-256 (hex) of ``record`` as canonical JSON (sorted keys, no spaces, UTF-8)."""
    return hashlib.sha256(json.dumps(record, sort_keys=True, separators=(",", ":"),
                                     ensure_ascii=False).encode("utf-8")).hexdigest()


def own_venue(tournament: Tournament) -> str:
    """The venue name of the organiser's own room: the tournament's venue, else ``OWN_VENUE``."""
    return (tournament.venue or "").strip() or OWN_VENUE


def latest_imports(session: Session, tournament_id: int) -> dict[str, Event]:
    """Each imported venue's latest import event, by venue name, in order of first import."""
    latest: dict[str, Event] = {}
    for event in session.scalars(select(Event).where(Event.tournament_id == tournament_id,
                                                     Event.kind == EventKind.VENUE_IMPORTED.value)
                                 .order_by(Event.id)):
        latest[str(event.payload.get("venue"))] = event
    return latest


def imported_active_players(session: Session, tournament_id: int) -> int:
    """How many active players the imported venues' latest records hold (a record's player
    without a status is active). ``DamagedData`` when a stored import cannot be read."""
    try:
        return sum(1 for event in latest_imports(session, tournament_id).values()
                   for player in event.payload["record"]["players"]
                   if str(player.get("status") or EntryStatus.ACTIVE.value) == EntryStatus.ACTIVE.value)
    except (AttributeError, KeyError, TypeError) as error:
        raise DamagedData(f"el registro importado de una sede guardado no se lee ({type(error).__name__}): "
                          "la base de datos está dañada; restaure una copia") from None


@dataclass(frozen=True)
class _Source:
    """One room's game: its venue, seated players (entry ids) and rounds by number
    (master and top scores, closed, scores by entry id)."""

    venue: str
    players: tuple[int, ...]
    rounds: dict[int, tuple[int, int, bool, dict[int, int]]]


class Venues(TaskModule):
    """Offline venues: import their records, standings of the whole field (module docstring)."""

    def __init__(self, context: ServiceContext, standings: Standings) -> None:
        super().__init__(context)
        self.standings = standings

    # --- import -------------------------------------------------------------------------------------
    def import_venue(self, record: dict[str, Any], venue: str, tournament_id: int | None = None, *,
                     source: str = "el registro", unsigned: bool = False) -> VenueView:
        """Bring in the record of the venue ``venue`` (a parsed ``duplicada-tournament-1``
        record, ``duplicate.record.reading.load_record``; ``source`` names it in errors,
        e.g. its path). Judge (organiser) only: ``NotAuthorised``/``CredentialRefused``.
        Refused with ``InvalidFile`` (Spanish, the first differences named), nothing
        stored, when the record has the wrong shape or lexicon, does not verify, has no
        game, or a game of it does not play the prepared game of this tournament's game of
        the same number (digest, seed, racks, masters, scores) or left it (III.29);
        ``InvalidText`` for a bad venue name or the organiser's own venue's. Signatures
        (issue 35 §2, ``_check_signature``): a venue whose key is registered
        (``register_venue_key``) is imported only from a record signed by that key
        (``InvalidFile`` naming both fingerprints otherwise, ``unsigned`` or not); a venue
        with no registered key only with ``unsigned`` (the import's event says so). Importing a
        venue again replaces its earlier import (a new event naming it; the log keeps both).
        Then the ``venue_imported`` hook (EloDI: a game already rated is rated again with
        this import). Returns the import."""
        from duplicate.record.events_play import VenueImported

        name = self._venue_name(venue, source)
        with self._write() as session:
            tournament = self._tournament(session, tournament_id)
            actor = self._authorise(session, tournament.id, Action.IMPORT_VENUE)
            if name.casefold() == own_venue(tournament).casefold():
                raise InvalidFile(f"«{name}» es la sede del propio torneo: dé otro nombre a la sede importada",
                                  path=source, what="el nombre de la sede", value=name)
            if any(online.casefold() == name.casefold() for online in venue_names(session, tournament.id)):
                raise InvalidFile(f"«{name}» es una sede en línea de este torneo (juega en esta misma base de datos): "
                                  "dé otro nombre a la sede importada", path=source, what="el nombre de la sede",
                                  value=name)
            signature = self._check_record(session, tournament, record, source)
            signed_by = self._check_signature(session, tournament.id, name, record, signature, source, unsigned)
            previous = self._latest(session, tournament.id).get(name)
            kept = {key: value for key, value in record.items() if key != "events"}
            reason = ("sustituye la importación anterior de la sede" if previous is not None
                      else "importación de la sede")
            event = self._log(session, tournament.id,
                              VenueImported(name, record_digest(record), kept,
                                            previous.id if previous is not None else None, signed_by=signed_by,
                                            unsigned=True if signed_by is None else None),
                              actor=actor, reason=reason + ("; sin firma: la sede no tiene clave registrada"
                                                            if signed_by is None else f"; firmado, huella {signed_by}"))
            session.flush()
            view, tournament_id = _view(event), tournament.id
        if self.hooks.venue_imported is not None:       # EloDI: a rated game is rated again (V)
            self.hooks.venue_imported(self.context, tournament_id)
        return view

    def import_venue_file(self, path: Path | str, venue: str, tournament_id: int | None = None, *,
                          unsigned: bool = False) -> VenueView:
        """``import_venue`` of the record file ``path`` (JSON, UTF-8, at most ``record_reading.RECORD_MAX_BYTES``,
        read by ``duplicate.record.reading.load_record``) — ``duplicada venue import`` and the
        setup screen's «Sedes» tab. The name and the credential are checked before the file is
        read; ``InvalidFile`` (Spanish, naming the file) for a file missing, unreadable, too
        big, not JSON or not a record; then as ``import_venue``."""
        from duplicate.record.reading import RecordError, load_record

        self._venue_name(venue, str(path))
        with self._write() as session:
            self._authorise(session, self._tournament(session, tournament_id).id, Action.IMPORT_VENUE)
        try:
            record = load_record(path)
        except RecordError as error:
            raise InvalidFile(str(error), path=path, what="el registro de la sede") from None
        return self.import_venue(record, venue, tournament_id, source=str(path), unsigned=unsigned)

    # --- signed records (issue 35 §2) ---------------------------------------------------------------
    def _check_signature(self, session: Session, tournament_id: int, name: str, record: dict[str, Any],
                         check: SignatureCheck, source: str, unsigned: bool) -> str | None:
        """The fingerprint of the venue's registered key that signed ``record`` (its signature
        already holds: ``verify_record`` checked it), or None for an unsigned import allowed
        by ``unsigned``. ``InvalidFile`` (Spanish, both fingerprints named) otherwise."""
        registered = self._venue_key(session, tournament_id, name)
        if registered is None:
            if unsigned:
                return None
            signed = (f"está firmado con la clave de huella {check.fingerprint}, pero " if check.valid else
                      "no está firmado y ")
            raise InvalidFile(f"{source}: no se importa la sede «{name}»: {signed}la sede no tiene clave registrada; "
                              f"registre su clave pública («duplicada venue key \"{name}\" ARCHIVO», el archivo de "
                              "«duplicada tournament key» de la sede) o impórtela sin firma (--unsigned; en la "
                              "aplicación, «Sin firma»)",
                              path=source, what="la firma del registro")
        expected = str(registered.get("fingerprint"))
        if not check.valid:
            raise InvalidFile(f"{source}: no se importa la sede «{name}»: el registro no está firmado, y la sede tiene "
                              f"registrada la clave de huella {expected}: expórtelo con el PIN de su juez árbitro",
                              path=source, what="la firma del registro", value=expected)
        if record["signature"].get("public_key") != registered.get("public_key"):
            raise InvalidFile(f"{source}: no se importa la sede «{name}»: está firmado con la clave de huella "
                              f"{check.fingerprint}, no con la registrada para la sede (huella {expected}): es un "
                              "registro de otra instalación", path=source, what="la firma del registro",
                              value=check.fingerprint)
        return expected

    @staticmethod
    def _venue_key(session: Session, tournament_id: int, name: str) -> dict[str, Any] | None:
        """The payload of the venue's latest ``venue_key_registered`` event, if any."""
        payloads = session.scalars(select(Event.payload).where(
            Event.tournament_id == tournament_id, Event.kind == EventKind.VENUE_KEY_REGISTERED.value)
            .order_by(Event.id))
        found = None
        for payload in payloads:
            if isinstance(payload, dict) and payload.get("venue") == name:
                found = payload
        return found

    def register_venue_key(self, venue: str, pem: bytes, tournament_id: int | None = None, *,
                           source: str = "la clave") -> str:
        """Register the public key of the offline venue ``venue`` (``pem``: the
        SubjectPublicKeyInfo PEM that ``duplicada tournament key`` writes at the venue;
        ``source`` names it in errors): from then on ``import_venue`` takes only records of
        that venue signed by it. The organiser's judge only (``NotAuthorised``,
        ``CredentialRefused``); logged (``venue_key_registered``, naming the key it
        replaces). ``InvalidFile`` for a text that is not an Ed25519 public key in PEM,
        or a venue name of this tournament's own room or of an online venue. Returns the
        key's fingerprint. Issue 35 §2."""
        from duplicate.record.events_play import VenueKeyRegistered

        name = self._venue_name(venue, source)
        with self._write() as session:
            tournament = self._tournament(session, tournament_id)
            actor = self._authorise(session, tournament.id, Action.REGISTER_VENUE_KEY)
            raw = _public_key(pem, source)
            if name.casefold() == own_venue(tournament).casefold() or any(
                    online.casefold() == name.casefold() for online in venue_names(session, tournament.id)):
                raise InvalidFile(f"«{name}» no es una sede sin conexión de este torneo (es la sala del organizador o "
                                  "una sede en línea, que no importan registros): dé el nombre de la sede importada",
                                  path=source, what="el nombre de la sede", value=name)
            before = self._venue_key(session, tournament.id, name)
            replaces = str(before.get("fingerprint")) if before is not None else None
            shown = fingerprint(raw)
            self._log(session, tournament.id, VenueKeyRegistered(name, public_key_text(raw), shown, replaces),
                      actor=actor, reason=("sustituye la clave registrada antes" if replaces is not None
                                           else "clave de la sede registrada"))
        return shown

    def register_venue_key_file(self, venue: str, path: Path | str, tournament_id: int | None = None) -> str:
        """``register_venue_key`` of the PEM file ``path`` (at most ``KEY_FILE_MAX_BYTES``;
        ``InvalidFile`` naming it when missing, unreadable or too big) — ``duplicada venue key``."""
        from duplicate.input_files import InputFileError, read_bytes

        try:
            pem = read_bytes(Path(path), what="una clave pública en PEM", limit=KEY_FILE_MAX_BYTES)
        except InputFileError as error:
            raise InvalidFile(str(error), path=str(path), what="la clave de la sede") from None
        return self.register_venue_key(venue, pem, tournament_id, source=str(path))

    def venue_keys(self, tournament_id: int | None = None) -> dict[str, str]:
        """Each offline venue's registered key fingerprint, by venue name (issue 35 §2)."""
        with self._read() as session:
            tournament = self._tournament(session, tournament_id)
            keys: dict[str, str] = {}
            for payload in session.scalars(select(Event.payload).where(
                    Event.tournament_id == tournament.id, Event.kind == EventKind.VENUE_KEY_REGISTERED.value)
                    .order_by(Event.id)):
                if isinstance(payload, dict):
                    keys[str(payload.get("venue"))] = str(payload.get("fingerprint"))
            return keys

    def _venue_name(self, venue: str, source: str) -> str:
        name = self._typed(venue, "el nombre de la sede", VENUE_NAME_LIMIT)
        if not name.strip():
            raise InvalidFile("falta el nombre de la sede", path=source, what="el nombre de la sede")
        return name

    def _check_record(self, session: Session, tournament: Tournament, record: dict[str, Any],
                      source: str) -> SignatureCheck:
        """Refuse (``InvalidFile`` naming ``source``) a record that does not verify or does not
        play this tournament's prepared games; the record's signature check otherwise
        (computed once: ``verify_record`` and ``_check_signature`` both read it)."""
        # Loaded by an import alone: ``standings`` and the other readings need none of them (issue 38).
        from duplicate.prepared.check import played_differences
        from duplicate.record.reading import RecordError, check_shape
        from duplicate.record.verify import verify_record
        from duplicate.service.prepared_play import plan_of

        def refuse(problems: Sequence[object]) -> None:
            shown = "; ".join(str(problem) for problem in problems[:_SHOWN_DIFFERENCES])
            more = len(problems) - _SHOWN_DIFFERENCES
            raise InvalidFile(f"{source}: no se importa la sede: {shown}"
                              + (f" (y {more} más)" if more > 0 else ""), path=source)

        if not isinstance(record, dict):
            refuse(["no es un registro de torneo (se esperaba un objeto JSON)"])
        try:
            check_shape(record)
        except RecordError as error:
            refuse([error])
        if record["tournament"].get("lexicon_hash") != tournament.lexicon_hash:
            refuse([f"se jugó con otro léxico ({str(record['tournament'].get('lexicon_hash'))[:12]}…, "
                    f"el torneo usa {str(tournament.lexicon_hash)[:12]}…)"])
        try:
            signature = signature_check(record)
            differences = verify_record(record, self.lexicon_for(tournament), signature)
        except RecordError as error:
            refuse([error])
        if differences:
            refuse([f"el registro no se verifica ({len(differences)} diferencias): {differences[0]}"])
        games = record["games"]
        if not games:
            refuse(["el registro no tiene ninguna partida"])
        problems: list[str] = []
        for game in games:
            number = game.get("number")
            row = next((row for row in tournament.games if row.number == number), None)
            if row is None:
                problems.append(f"la partida {number} no existe en este torneo")
                continue
            plan = plan_of(session, row.id)
            if plan is None:
                problems.append(f"la partida {number} de este torneo no es una partida preparada (III.15): "
                                "las sedes deben jugar la misma partida preparada")
                continue
            problems.extend(played_differences(plan.game, game))
            played = game.get("prepared")
            left_at = played.get("left_at") if isinstance(played, dict) else None
            if left_at is not None:
                problems.append(f"la partida {number} dejó la partida preparada en la ronda {left_at} (III.29): "
                                "no se puede clasificar con las demás sedes")
        if problems:
            refuse(problems)
        return signature

    # --- what was imported --------------------------------------------------------------------------
    @staticmethod
    def _latest(session: Session, tournament_id: int) -> dict[str, Event]:
        return latest_imports(session, tournament_id)

    def venues(self, tournament_id: int | None = None) -> list[VenueView]:
        """The venues of the event: the online ones (``online``, in the order they were
        named), then the imported ones (each one's latest import, in order of first import)."""
        with self._read() as session:
            tournament = self._tournament(session, tournament_id)
            return ([*self._online_views(session, tournament)]
                    + [_view(event) for event in self._latest(session, tournament.id).values()])

    def _online_views(self, session: Session, tournament: Tournament) -> list[VenueView]:
        added = {str(event.payload.get("venue")): event for event in session.scalars(
            select(Event).where(Event.tournament_id == tournament.id, Event.kind == EventKind.VENUE_ADDED.value))}
        views = []
        for name in venue_names(session, tournament.id):
            players = sum(1 for entry in tournament.entries if entry.venue == name)
            games = len(set(session.scalars(select(Seat.game_id).join(Entry, Seat.entry_id == Entry.id)
                                            .where(Entry.tournament_id == tournament.id, Entry.venue == name))))
            event = added.get(name)
            views.append(VenueView(name, players, games, "", event.id if event is not None else 0, None, None,
                                   event.created_at.isoformat() if event is not None else "", online=True))
        return views

    # --- online venues ------------------------------------------------------------------------------
    def add_venue(self, name: str, tournament_id: int | None = None) -> None:
        """Name the online venue ``name`` of the tournament (issue 27 §2): a room whose
        stations play on this same database; then its players (``add_player(venue=…)``)
        and its judge's and assistants' PINs (``set_pin(venue=…)``). The organiser's judge
        only (``NotAuthorised``). ``InvalidText`` for an empty or bad name;
        ``StateConflict`` for a name already taken by a venue, online or imported, or by the
        organiser's own room."""
        from duplicate.record.events_play import VenueAdded

        name = " ".join(self._typed(name, "el nombre de la sede", VENUE_NAME_LIMIT).split())
        if not name:
            raise InvalidText("la sede necesita un nombre", what="el nombre de la sede", value=name)
        with self._write() as session:
            tournament = self._tournament(session, tournament_id)
            actor = self._authorise(session, tournament.id, Action.ADD_VENUE)
            taken = [own_venue(tournament), *venue_names(session, tournament.id), *self._latest(session, tournament.id)]
            clash = next((other for other in taken if other.casefold() == name.casefold()), None)
            if clash is not None:
                raise StateConflict(f"ya hay una sede «{clash}» en el torneo «{tournament.name}» (o es la sala del "
                                    "propio organizador): elija otro nombre", what="la sede", state="taken")
            self._log(session, tournament.id, VenueAdded(name), actor=actor, reason="sede en línea")

    def venue_stations(self, tournament_id: int | None = None) -> list[tuple[str, str, str | None]]:
        """Every station credential as ``(role, name, venue)`` (``venue`` None: the
        organiser's), in the order they were made; never a PIN nor its digest."""
        with self._read() as session:
            tournament = self._tournament(session, tournament_id)
            return [(role, name, venue) for role, name, venue in session.execute(
                select(Credential.role, Credential.name, Credential.venue)
                .where(Credential.tournament_id == tournament.id).order_by(Credential.id))]

    def online_venues(self, tournament_id: int | None = None) -> list[str]:
        """The names of the tournament's online venues, in the order they were named."""
        with self._read() as session:
            return venue_names(session, self._tournament(session, tournament_id).id)

    def venue_field(self, tournament_id: int | None = None) -> list[FieldPlayer]:
        """Every player of the whole field: this tournament's entries first (each in its
        online venue, else in the organiser's room ``own_venue``), then each imported
        venue's players."""
        with self._read() as session:
            tournament = self._tournament(session, tournament_id)
            here = own_venue(tournament)
            entries = session.scalars(select(Entry).where(Entry.tournament_id == tournament.id)
                                      .options(selectinload(Entry.player)).order_by(Entry.id))
            players = [FieldPlayer(entry.venue or here, entry.id, entry.player.name, entry.player.club or "")
                       for entry in entries]
            for name, event in self._latest(session, tournament.id).items():
                players.extend(FieldPlayer(name, int(player["id"]), str(player.get("name") or ""),
                                           str(player.get("club") or ""))
                               for player in event.payload["record"]["players"])
            return players

    def venue_field_names(self, tournament_id: int | None = None) -> dict[VenueKey, str]:
        """Each player's name of the whole field as lists show it, by ``(venue, entry id)``:
        homonyms of one venue told apart by club or entry number
        (``duplicate.homonyms.distinct_names``, issue 35 §4); the lists' venue column tells
        apart those of different venues."""
        field = self.venue_field(tournament_id)
        names: dict[VenueKey, str] = {}
        for venue in dict.fromkeys(player.venue for player in field):
            names.update(distinct_names(NamedPlayer(player.key, player.name, player.club, None, player.player)
                                        for player in field if player.venue == venue))
        return names

    def venue_record_players(self, tournament_id: int | None = None) -> dict[str, list[dict[str, Any]]]:
        """Each imported venue's players as its record gives them (``id``, ``name``, ``club``,
        ``country``, ``federation_id``, ``status``; copies), by venue name, in order of first
        import. ``DamagedData`` when a stored import cannot be read."""
        with self._read() as session:
            tournament = self._tournament(session, tournament_id)
            try:
                return {name: [dict(player) for player in event.payload["record"]["players"]]
                        for name, event in self._latest(session, tournament.id).items()}
            except (KeyError, TypeError, ValueError) as error:
                raise DamagedData(f"el registro importado de una sede guardado no se lee ({type(error).__name__}): "
                                  "la base de datos está dañada; restaure una copia") from None

    # --- standings ----------------------------------------------------------------------------------
    def field_standings(self, tournament_id: int | None = None, *, closed_only: bool = False) -> FieldStandings:
        """The standings of the whole field, read once (``duplicate.service.field_standings``;
        module docstring): every game's rounds and standings and the tournament standings
        of every player of every room. ``closed_only``: only the rounds closed in every room
        that plays them (what is public while a game is played, issue 37 «never early»: no
        slip counts before its round is closed); the same standings functions over fewer
        rounds. ``DamagedData`` when a stored import cannot be read."""
        with self._read() as session:
            return self._field(session, self._tournament(session, tournament_id), closed_only=closed_only)

    # The standings every front end reads (the façade's ``game_standings``…): this tournament's
    # entries' lines of the whole field's, by entry id. In one room, the room's standings.
    def game_standings(self, game_number: int, tournament_id: int | None = None) -> list[GameStanding[int]]:
        """Game standings (III.23, III.24, III.28) of this tournament's players; ``player`` is
        the entry id. In an event played in several venues, their lines of the whole field's
        standings (``field_standings``: positions and bonuses over every venue, III.24,
        unless ``venue_bonuses``), as ``duplicada standings`` and every publication show
        them. ``NotFound`` for an unknown game."""
        with self._read() as session:
            tournament = self._tournament(session, tournament_id)
            game = self._game(session, tournament, game_number)
            return self._field(session, tournament, game).entry_game_standings(game.number)

    def round_results(self, game_number: int, tournament_id: int | None = None) -> list[RoundResult[int]]:
        """Per played round: master and top scores, each of this tournament's seated players'
        score and bonus (III.24, over the whole field as ``game_standings``)."""
        with self._read() as session:
            tournament = self._tournament(session, tournament_id)
            game = self._game(session, tournament, game_number)
            return self._field(session, tournament, game).entry_rounds(game.number)

    def partial_standings(self, game_number: int, through_round: int,
                          tournament_id: int | None = None) -> list[GameStanding[int]]:
        """The game standings counting only rounds 1..``through_round`` (the partial
        standings shown every ``partial_every`` rounds; FISE: every 3). Same ordering,
        tie-breaks and field as ``game_standings``; ``player`` is the entry id."""
        with self._read() as session:
            tournament = self._tournament(session, tournament_id)
            game = self._game(session, tournament, game_number)
            return self._field(session, tournament, game).entry_partial_standings(game.number, through_round)

    def tournament_standings(self, tournament_id: int | None = None) -> list[TournamentStanding[int]]:
        """Tournament standings by the tournament's criterion (IV.31) of this tournament's
        players; ``player`` is the entry id; with venues, their lines of the whole field's
        (``field_standings``)."""
        with self._read() as session:
            return self._field(session, self._tournament(session, tournament_id)).entry_tournament_standings()

    def venue_game_standings(self, game_number: int, venue: str | None = None,
                             tournament_id: int | None = None) -> list[GameStanding[VenueKey]]:
        """Game standings of the whole field (III.23, III.24, III.28; module docstring):
        ``player`` is ``(venue, entry id)``. With ``venue``, only that venue's players,
        ranked among themselves (bonuses still those of the whole field). ``NotFound`` for
        an unknown game or venue."""
        with self._read() as session:
            tournament = self._tournament(session, tournament_id)
            game = self._game(session, tournament, game_number)
            field = self._field(session, tournament)
            _check_venue(field, venue)
            return field.game_standings(game.number, venue)

    def venue_tournament_standings(self, venue: str | None = None,
                                   tournament_id: int | None = None) -> list[TournamentStanding[VenueKey]]:
        """Tournament standings of the whole field by the tournament's criterion (IV.31);
        ``player`` is ``(venue, entry id)``; with ``venue``, only that venue's players,
        ranked among themselves. ``NotFound`` for an unknown venue."""
        with self._read() as session:
            field = self._field(session, self._tournament(session, tournament_id))
            _check_venue(field, venue)
            return field.tournament_standings(venue)

    def _field(self, session: Session, tournament: Tournament, only: GameRow | None = None, *,
               closed_only: bool = False) -> FieldStandings:
        """The whole field's standings; with ``only``, that game's alone (no tournament standings);
        ``closed_only``: the closed rounds only (``field_standings``)."""
        sources = self._sources(session, tournament)
        settings = TournamentSettings.from_dict(tournament.settings)
        here = own_venue(tournament)
        games: dict[int, FieldGame] = {}
        online = venue_names(session, tournament.id)
        venue_of = {entry: venue for entry, venue in session.execute(      # one query, not one per seat
            select(Entry.id, Entry.venue).where(Entry.tournament_id == tournament.id))}
        for game in (tournament.games if only is None else [only]):
            players, results = self._combined(session, tournament, game, sources.get(game.number, []), online,
                                              venue_of, closed_only)
            games[game.number] = FieldGame(game.number, tuple(players), tuple(results), settings.tie_breaks)
        played = [(list(game.players), list(game.rounds)) for game in games.values() if game.players and game.rounds]
        entries = {entry.id: (entry.venue or here, entry.id) for entry in tournament.entries}
        seated = {player for players, _rounds in played for player in players}
        # The tournament's own entries in their order (as ``Standings``), then the imported venues' players.
        classified = list(dict.fromkeys([*(key for key in entries.values() if key in seated),
                                         *(player for players, _rounds in played for player in players)]))
        criterion = TournamentCriterion(settings.criterion)
        try:
            overall = ([] if only is not None
                       else tournament_standings(classified, played, criterion, tie_breaks=settings.tie_breaks))
        except ValueError as error:     # seats of entries that are gone: the stored rows disagree
            raise DamagedData(f"las mesas guardadas no casan con las inscripciones ({error}): la base de datos "
                              "está dañada; restaure una copia") from None
        venues = tuple(dict.fromkeys([here, *online,
                                      *(source.venue for listed in sources.values() for source in listed)]))
        return FieldStandings(here, venues, entries, games, tuple(overall), criterion, settings.tie_breaks)

    def _sources(self, session: Session, tournament: Tournament) -> dict[int, list[_Source]]:
        """Each imported venue's games, by game number, in order of first import."""
        try:
            return self._read_sources(session, tournament)
        except (AttributeError, KeyError, TypeError, ValueError) as error:
            raise DamagedData(f"el registro importado de una sede guardado no se lee ({type(error).__name__}: "
                              f"{error}): la base de datos está dañada; restaure una copia") from None

    def _read_sources(self, session: Session, tournament: Tournament) -> dict[int, list[_Source]]:
        sources: dict[int, list[_Source]] = {}
        for name, event in self._latest(session, tournament.id).items():
            for game in event.payload["record"]["games"]:
                rounds: dict[int, tuple[int, int, bool, dict[int, int]]] = {}
                for item in game["rounds"]:
                    scores = {int(slip["player"]): int(slip["score"] or 0) for slip in item["slips"]}
                    rounds[int(item["number"])] = (int(item["master_score"]), int(item["top_score"]),
                                                   bool(item["closed"]), scores)
                players = tuple(int(player) for player in game["tables"])
                sources.setdefault(int(game["number"]), []).append(_Source(name, players, rounds))
        return sources

    def _combined(self, session: Session, tournament: Tournament, game: GameRow,
                  imported: list[_Source], online: list[str],
                  venue_of: dict[int, str | None],
                  closed_only: bool = False) -> tuple[list[VenueKey], list[RoundResult[VenueKey]]]:
        """The whole field of ``game``: its players and its rounds with bonuses over everybody
        (``online``: the online venues' names; ``venue_of``: each entry's venue; ``closed_only``:
        only the rounds closed in every room that plays them)."""
        own = self.standings.round_results_in(session, tournament, game)
        closed = {number: shut for number, _master, _top, shut in self.standings.round_figures_in(session, game)}
        here = own_venue(tournament)
        sources = []
        rounds = {result.number: (result.master_score, result.top_score, closed.get(result.number, False),
                                  dict(result.scores)) for result in own}
        rooms: dict[str | None, list[int]] = {None: []}           # the organiser's room, then each online venue
        rooms.update((name, []) for name in online)
        for entry in self.standings.seated_in(session, game):
            rooms.setdefault(venue_of.get(entry), []).append(entry)
        for name, seated in rooms.items():
            if seated:
                sources.append(_Source(name or here, tuple(seated), rounds))
        sources.extend(imported)
        players = [(source.venue, player) for source in sources for player in source.players]
        numbers = sorted({number for source in sources for number in source.rounds})
        settings = TournamentSettings.from_dict(tournament.settings)
        policy = settings.bonus_policy
        results = []
        for number in numbers:
            playing = [source for source in sources if number in source.rounds]
            master_score, top_score = playing[0].rounds[number][:2]
            scores = {(source.venue, player): (source.rounds[number][3].get(player, 0) if number in source.rounds
                                               else 0)
                      for source in sources for player in source.players}
            all_closed = all(source.rounds[number][2] for source in playing)
            if closed_only and not all_closed:
                continue
            bonuses: dict[VenueKey, int] = {}
            if all_closed and settings.venue_bonuses:       # each venue's among its own players
                for source in sources:
                    bonuses.update(round_bonuses(top_score, {key: score for key, score in scores.items()
                                                             if key[0] == source.venue}, policy))
            elif all_closed:                                # over the whole field (III.24; the default)
                bonuses = round_bonuses(top_score, scores, policy)
            results.append(RoundResult(number=number, master_score=master_score, top_score=top_score,
                                       scores=scores, bonuses=bonuses))
        return players, results


def _check_venue(field: FieldStandings, venue: str | None) -> None:
    if venue is not None and venue not in field.venues:
        raise NotFound(f"no hay ninguna sede «{venue}» en este torneo (sedes: {', '.join(sorted(field.venues))})",
                       what="la sede", key=venue)


def _public_key(pem: bytes, source: str) -> bytes:
    """The 32 raw bytes of the Ed25519 public key in ``pem`` (SubjectPublicKeyInfo PEM);
    ``InvalidFile`` (Spanish, naming ``source``) for anything else."""
    # Imported here: only a venue's key loads cryptography (issue 38).
    from cryptography.exceptions import UnsupportedAlgorithm
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    try:
        key = serialization.load_pem_public_key(pem)
    except (ValueError, TypeError, UnsupportedAlgorithm):
        key = None
    if not isinstance(key, Ed25519PublicKey):
        raise InvalidFile(f"{source} no es una clave pública Ed25519 en PEM (se esperaba el archivo que escribe "
                          "«duplicada tournament key --out ARCHIVO» en la sede)", path=source,
                          what="la clave de la sede")
    return key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def _view(event: Event) -> VenueView:
    record = event.payload.get("record") or {}
    return VenueView(str(event.payload.get("venue")), len(record.get("players") or []),
                     len(record.get("games") or []), str(event.payload.get("digest")), event.id,
                     event.payload.get("replaces"), record.get("events_head"),
                     event.created_at.isoformat() if event.created_at is not None else "",
                     signed_by=event.payload.get("signed_by"))

