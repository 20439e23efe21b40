"""The tournament service: every arbitration action, on a database (issue 3).

One ``TournamentService`` per process and database; the command line and the TUI call
the same methods. Each action is one transaction that appends its ``Event`` (who, from
which station, when, why) and updates the derived tables; it is committed before the
method returns, so whatever a caller acknowledges survives a crash (issue 3 §7).

Games are rebuilt by replaying their events through the engine
(``duplicate.game.Game``): the seed and the sequence of draws, typed racks and master
choices give back the same bag, board and racks (III.12, III.17, III.19). Slips are
judged against the board and rack stored with their round, so entering a slip does not
replay anything.

Errors meant for the user are ``TournamentError`` (Spanish message naming the input).
"""

from __future__ import annotations

import csv
import hashlib
import random
import secrets
import threading
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, date, datetime
from enum import StrEnum
from pathlib import Path
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, selectinload

from data.rules import PARTIAL_STANDINGS_EVERY, ROUND_SECONDS
from duplicate.database import Database
from duplicate.game import Game, GameError, PendingRound
from duplicate.models import (
    AssistantRange,
    Claim,
    ClaimStatus,
    Conflict,
    ConflictKind,
    Entry,
    EntryStatus,
    Event,
    GameRow,
    GameStatus,
    Player,
    RoundRow,
    Seat,
    SeatingMethod,
    Slip,
    Tournament,
)
from duplicate.notation import SlipError, format_move, parse_move
from duplicate.rack import RackError, parse_rack_text
from duplicate.service.errors import LockedGameError, TournamentError
from duplicate.slips import SlipStatus, SlipVerdict, judge_slip, mark_verdict
from duplicate.standings import (
    BonusMode,
    BonusPolicy,
    GameStanding,
    RoundResult,
    TournamentCriterion,
    TournamentStanding,
    bonus_warnings,
    game_standings,
    round_bonuses,
    tournament_standings,
)
from duplicate.timer import shared_remaining
from lexicon.board import Board
from lexicon.default import default_lexicon_path
from lexicon.lexicon import Lexicon

ANNULLED = "annulled"
"""Slip status of a move equal to a master found wrong later (III.29)."""

MARK_STATUSES = (SlipStatus.LATE, SlipStatus.NULL, SlipStatus.MISSING)

ROLES = ("judge", "assistant")
"""Station roles (issue 4 §3): the judge does everything, an assistant enters slips."""

REASONS_KEPT = 100
"""Equal tops of a round whose III.15 reason is stored with the round."""

ACCESS_KEY = "access"
"""Key of the tournament settings holding the hashed PINs (never exported)."""


class EventKind(StrEnum):
    """Kinds of ``Event`` (issue 3 §2)."""

    TOURNAMENT_CREATED = "tournament_created"
    SETTINGS_CHANGED = "settings_changed"
    PLAYER_ADDED = "player_added"
    ENTRY_STATUS = "entry_status"
    ASSISTANT_RANGE = "assistant_range"
    GAME_CREATED = "game_created"
    TABLES_ASSIGNED = "tables_assigned"
    RACK_DRAWN = "rack_drawn"
    RACK_SET = "rack_set"
    MASTER_CHOSEN = "master_chosen"
    GAME_ENDED = "game_ended"
    SLIP_ENTERED = "slip_entered"
    SLIP_CONFLICT = "slip_conflict"
    SLIP_CHECKED = "slip_checked"
    SLIP_CORRECTED = "slip_corrected"
    CONFLICT_RESOLVED = "conflict_resolved"
    MASTER_ANNULLED = "master_annulled"
    ROUND_CLOSED = "round_closed"
    BONUSES_AWARDED = "bonuses_awarded"
    CLAIM_FILED = "claim_filed"
    CLAIM_RESOLVED = "claim_resolved"
    RESULTS_PUBLISHED = "results_published"
    GAME_REOPENED = "game_reopened"
    PIN_CHANGED = "pin_changed"
    RACK_WITHDRAWN = "rack_withdrawn"
    TIMER = "timer"
    PLAYER_UPDATED = "player_updated"


@dataclass(frozen=True)
class TournamentSettings:
    """Rule settings fixed before the event (III.24, III.28, IV.31, III.20.1.b).

    ``bonus_mode``/``bonus_value``: III.24 (value used in manual mode; 5 or 10 advised,
    ``bonus_warnings`` says so otherwise);
    ``criterion``: IV.31 ranking of the tournament; ``tie_breaks``: III.28 in game
    standings; ``oriented_notation``: slips in oriented notation accepted;
    ``partial_every``: rounds between partial standings (FISE: 3);
    ``seconds_per_round``: default round time (III.13: 180).
    """

    bonus_mode: str = BonusMode.OFF.value
    bonus_value: int = 10
    criterion: str = TournamentCriterion.TOTAL.value
    tie_breaks: bool = False
    oriented_notation: bool = True
    partial_every: int = PARTIAL_STANDINGS_EVERY
    seconds_per_round: int = ROUND_SECONDS

    def __post_init__(self) -> None:
        try:
            BonusMode(self.bonus_mode)
        except ValueError:
            raise TournamentError(f"bonificación {self.bonus_mode!r} desconocida: se espera "
                                  f"{', '.join(mode.value for mode in BonusMode)}") from None
        if self.bonus_value < 1:
            raise TournamentError(f"el valor de la bonificación debe ser positivo, no {self.bonus_value}")
        try:
            TournamentCriterion(self.criterion)
        except ValueError:
            raise TournamentError(f"criterio de clasificación {self.criterion!r} desconocido: se espera "
                                  f"{', '.join(c.value for c in TournamentCriterion)}") from None
        if self.partial_every < 1 or self.seconds_per_round < 1:
            raise TournamentError("partial_every y seconds_per_round deben ser positivos")

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TournamentSettings:
        known = {name: data[name] for name in cls.__dataclass_fields__ if name in data}
        return cls(**known)

    @property
    def bonus_policy(self) -> BonusPolicy:
        return BonusPolicy(BonusMode(self.bonus_mode), self.bonus_value)


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


def _pin_hash(pin: str, salt: str) -> str:
    return hashlib.pbkdf2_hmac("sha256", pin.encode(), bytes.fromhex(salt), 100_000).hex()


def _now() -> datetime:
    return datetime.now(UTC)


def _iso(moment: datetime | date | None) -> str | None:
    return moment.isoformat() if moment is not None else None


class TournamentService:
    """All actions on the tournaments of one database.

    ``station``: the name of this terminal (recorded with every event);
    ``lexicon``: the lexicon to judge with (default: each tournament's own, else the
    built-in default). Methods take a tournament id where it matters (``None``: the
    most recently created one) and game numbers within it.
    """

    def __init__(self, database: Database, *, station: str = "principal", lexicon: Lexicon | None = None) -> None:
        self.db = database
        self.station = station
        self._lexicon = lexicon
        self._lexicons: dict[str, Lexicon] = {}
        self._games: dict[int, tuple[int, Game]] = {}
        # The cached engines are shared by the threads of one process (the app's workers):
        # replaying events into them and playing on them happen under this lock.
        self._engine_lock = threading.RLock()

    # --- lexicon ----------------------------------------------------------------------
    def lexicon_for(self, tournament: Tournament | TournamentInfo) -> Lexicon:
        """The lexicon of ``tournament``; raises ``TournamentError`` if its hash differs."""
        if tournament.lexicon_hash in self._lexicons:
            return self._lexicons[tournament.lexicon_hash]
        candidates: list[Lexicon] = []
        if self._lexicon is not None:
            candidates.append(self._lexicon)
        if tournament.lexicon_path and Path(tournament.lexicon_path).exists():
            candidates.append(Lexicon.load(Path(tournament.lexicon_path)))
        if not candidates:
            candidates.append(Lexicon.load(default_lexicon_path(None)))
        for lexicon in candidates:
            if lexicon.content_hash == tournament.lexicon_hash:
                self._lexicons[lexicon.content_hash] = lexicon
                return lexicon
        raise TournamentError(
            f"el torneo «{tournament.name}» se creó con el léxico {tournament.lexicon_hash[:12]}…, "
            f"que no es el disponible ({candidates[0].content_hash[:12]}…): indique el léxico del torneo con --lexicon"
        )

    def _default_lexicon(self) -> Lexicon:
        return self._lexicon if self._lexicon is not None else Lexicon.load(default_lexicon_path(None))

    # --- events -----------------------------------------------------------------------
    def _log(self, session: Session, tournament_id: int, kind: EventKind, payload: dict[str, Any], *,
             game_id: int | None = None, round_number: int | None = None, arbiter: str = "",
             reason: str = "") -> Event:
        event = Event(tournament_id=tournament_id, game_id=game_id, round_number=round_number, kind=kind.value,
                      payload=payload, station=self.station, arbiter=arbiter, reason=reason, created_at=_now())
        session.add(event)
        session.flush()
        return event

    def history(self, tournament_id: int | None = None, game_number: int | None = None) -> list[Event]:
        """The event log, oldest first (one game's when ``game_number`` is given)."""
        with self.db.read() as session:
            tournament = self._tournament(session, tournament_id)
            query = select(Event).where(Event.tournament_id == tournament.id)
            if game_number is not None:
                game = self._game(session, tournament, game_number)
                query = query.where(Event.game_id == game.id)
            return list(session.scalars(query.order_by(Event.id)))

    def last_event_id(self, tournament_id: int | None = None) -> int:
        """Id of the newest event of the tournament (0 if none): a station polls it to see
        other stations' changes (issue 4 §3)."""
        with self.db.read() as session:
            tournament = self._tournament(session, tournament_id)
            return session.scalar(select(func.max(Event.id)).where(Event.tournament_id == tournament.id)) or 0

    # --- tournaments and players ---------------------------------------------------------
    def create_tournament(self, name: str, *, venue: str = "", start_date: date | None = None,
                          end_date: date | None = None, settings: TournamentSettings | None = None,
                          lexicon: Lexicon | None = None, lexicon_path: Path | None = None,
                          arbiter: str = "") -> int:
        """Create a tournament; returns its id. The lexicon's hash is fixed now."""
        if not name.strip():
            raise TournamentError("el torneo necesita un nombre")
        settings = settings or TournamentSettings()
        if lexicon is None:
            if lexicon_path is not None:
                lexicon = Lexicon.load(lexicon_path)
            else:
                lexicon = self._default_lexicon()
        self._lexicons[lexicon.content_hash] = lexicon
        with self.db.write() as session:
            tournament = Tournament(name=name.strip(), venue=venue, start_date=start_date, end_date=end_date,
                                    lexicon_hash=lexicon.content_hash,
                                    lexicon_path=str(lexicon_path.resolve()) if lexicon_path else None,
                                    settings=asdict(settings), created_at=_now())
            session.add(tournament)
            session.flush()
            self._log(session, tournament.id, EventKind.TOURNAMENT_CREATED,
                      {"name": tournament.name, "settings": asdict(settings), "lexicon_hash": lexicon.content_hash},
                      arbiter=arbiter)
            return tournament.id

    def tournaments(self) -> list[TournamentInfo]:
        """Every tournament of the database, oldest first."""
        with self.db.read() as session:
            return [_tournament_info(item) for item in session.scalars(select(Tournament).order_by(Tournament.id))]

    def tournament(self, tournament_id: int | None = None) -> TournamentInfo:
        """One tournament (``None``: the newest) with its games."""
        with self.db.read() as session:
            return _tournament_info(self._tournament(session, tournament_id))

    def settings(self, tournament_id: int | None = None) -> TournamentSettings:
        return TournamentSettings.from_dict(self.tournament(tournament_id).settings)

    def change_settings(self, tournament_id: int | None, settings: TournamentSettings, *, arbiter: str = "",
                        reason: str = "") -> None:
        """Change the rule settings; refused once a game has started (III.24, III.28: fixed before play)."""
        with self.db.write() as session:
            tournament = self._tournament(session, tournament_id)
            started = session.scalar(select(func.count()).select_from(RoundRow).join(GameRow)
                                     .where(GameRow.tournament_id == tournament.id))
            if started:
                raise TournamentError("los criterios de bonificación y desempate se fijan antes de empezar: "
                                      "ya hay rondas jugadas")
            before = {key: value for key, value in tournament.settings.items() if key != ACCESS_KEY}
            tournament.settings = {**asdict(settings), **{key: value for key, value in tournament.settings.items()
                                                          if key == ACCESS_KEY}}
            self._log(session, tournament.id, EventKind.SETTINGS_CHANGED, {"before": before, "after": asdict(settings)},
                      arbiter=arbiter, reason=reason)

    # --- station sign-in (issue 4 §3) ----------------------------------------------------
    def set_pin(self, role: str, pin: str, *, tournament_id: int | None = None, arbiter: str = "") -> None:
        """Set the PIN of a station role (``judge`` or ``assistant``); stored salted and
        hashed (PBKDF2-SHA256). An empty PIN removes it (the role is then open)."""
        if role not in ROLES:
            raise TournamentError(f"papel {role!r} desconocido: se espera {', '.join(ROLES)}")
        if pin and (not pin.isdigit() or len(pin) < 4):
            raise TournamentError("el PIN debe tener al menos 4 cifras")
        with self.db.write() as session:
            tournament = self._tournament(session, tournament_id)
            settings = dict(tournament.settings)
            access = dict(settings.get(ACCESS_KEY, {}))
            if pin:
                salt = secrets.token_hex(16)
                access[role] = {"salt": salt, "hash": _pin_hash(pin, salt)}
            else:
                access.pop(role, None)
            settings[ACCESS_KEY] = access
            tournament.settings = settings
            self._log(session, tournament.id, EventKind.PIN_CHANGED, {"role": role, "set": bool(pin)}, arbiter=arbiter)

    def check_pin(self, role: str, pin: str, tournament_id: int | None = None) -> bool:
        """True when ``pin`` opens ``role`` (always, when the role has no PIN)."""
        entry = self.tournament(tournament_id).settings.get(ACCESS_KEY, {}).get(role)
        if entry is None:
            return role in ROLES
        return secrets.compare_digest(entry["hash"], _pin_hash(pin, entry["salt"]))

    def bonus_warnings(self, tournament_id: int | None = None) -> list[str]:
        """III.24's advice for this tournament's setting and field (Spanish)."""
        with self.db.read() as session:
            tournament = self._tournament(session, tournament_id)
            players = sum(1 for entry in tournament.entries if entry.status == EntryStatus.ACTIVE.value)
            settings = TournamentSettings.from_dict(tournament.settings)
        return bonus_warnings(players, settings.bonus_policy)

    def add_player(self, name: str, *, club: str = "", country: str = "", federation_id: str | None = None,
                   tournament_id: int | None = None, arbiter: str = "") -> int:
        """Register a player in the tournament (reusing the player with the same
        federation id if there is one); returns the entry id."""
        with self.db.write() as session:
            tournament = self._tournament(session, tournament_id)
            return self._add_player(session, tournament, name, club, country, federation_id, arbiter)

    def _add_player(self, session: Session, tournament: Tournament, name: str, club: str, country: str,
                    federation_id: str | None, arbiter: str) -> int:
        name = " ".join(name.split())
        if not name:
            raise TournamentError("el jugador necesita un nombre")
        federation_id = (federation_id or "").strip() or None
        player = None
        if federation_id:
            player = session.scalar(select(Player).where(Player.federation_id == federation_id))
        if player is None:
            player = Player(name=name, club=club.strip(), country=country.strip(), federation_id=federation_id)
            session.add(player)
            session.flush()
        existing = session.scalar(select(Entry).where(Entry.tournament_id == tournament.id,
                                                      Entry.player_id == player.id))
        if existing is not None:
            raise TournamentError(f"{player.name} ya está inscrito en el torneo")
        entry = Entry(tournament_id=tournament.id, player_id=player.id, status=EntryStatus.ACTIVE.value)
        session.add(entry)
        session.flush()
        self._log(session, tournament.id, EventKind.PLAYER_ADDED,
                  {"entry": entry.id, "player": player.id, "name": player.name, "club": player.club,
                   "country": player.country, "federation_id": federation_id}, arbiter=arbiter)
        return entry.id

    def import_players(self, path: Path, *, tournament_id: int | None = None, arbiter: str = "") -> list[int]:
        """Add the players of a CSV file with a header row: ``nombre`` (or ``name``), and
        optionally ``club``, ``pais``/``country``, ``federacion``/``federation_id``.

        All or nothing: a bad row raises ``TournamentError`` naming the line and no
        player is added.
        """
        aliases = {"nombre": "name", "name": "name", "club": "club", "pais": "country", "país": "country",
                   "country": "country", "federacion": "federation_id", "federación": "federation_id",
                   "federation_id": "federation_id"}
        rows = _read_csv(path)
        if rows and not any((key or "").strip().lower() in ("nombre", "name") for key in rows[0][1]):
            raise TournamentError(f"{path}: falta la columna «nombre» en la cabecera")
        with self.db.write() as session:
            tournament = self._tournament(session, tournament_id)
            entries = []
            for number, row in rows:
                record = {aliases[key.strip().lower()]: (value or "").strip() for key, value in row.items()
                          if key and key.strip().lower() in aliases}
                try:
                    entries.append(self._add_player(session, tournament, record.get("name", ""),
                                                    record.get("club", ""), record.get("country", ""),
                                                    record.get("federation_id"), arbiter))
                except TournamentError as error:
                    raise TournamentError(f"{path}, línea {number}: {error}; no se ha inscrito a nadie") from None
            return entries

    def entries(self, tournament_id: int | None = None) -> list[tuple[Entry, Player]]:
        """Every entry of the tournament with its player, in entry order."""
        with self.db.read() as session:
            tournament = self._tournament(session, tournament_id)
            return [(entry, entry.player) for entry in tournament.entries]

    def set_entry_status(self, entry_id: int, status: EntryStatus, *, arbiter: str = "", reason: str = "") -> None:
        with self.db.write() as session:
            entry = session.get(Entry, entry_id)
            if entry is None:
                raise TournamentError(f"no existe la inscripción {entry_id}")
            before = entry.status
            entry.status = EntryStatus(status).value
            self._log(session, entry.tournament_id, EventKind.ENTRY_STATUS,
                      {"entry": entry.id, "before": before, "after": entry.status}, arbiter=arbiter, reason=reason)

    def set_assistant_range(self, assistant: str, first_table: int, last_table: int, *,
                            tournament_id: int | None = None, arbiter: str = "") -> None:
        """The tables ``assistant`` enters slips for (II.4.c), inclusive."""
        if first_table < 1 or last_table < first_table:
            raise TournamentError(f"rango de mesas {first_table}–{last_table} no válido")
        with self.db.write() as session:
            tournament = self._tournament(session, tournament_id)
            current = session.scalar(select(AssistantRange).where(AssistantRange.tournament_id == tournament.id,
                                                                  AssistantRange.assistant == assistant))
            if current is None:
                current = AssistantRange(tournament_id=tournament.id, assistant=assistant)
                session.add(current)
            current.first_table, current.last_table = first_table, last_table
            self._log(session, tournament.id, EventKind.ASSISTANT_RANGE,
                      {"assistant": assistant, "first": first_table, "last": last_table}, arbiter=arbiter)

    def assistant_ranges(self, tournament_id: int | None = None) -> list[AssistantRange]:
        with self.db.read() as session:
            tournament = self._tournament(session, tournament_id)
            return list(session.scalars(select(AssistantRange).where(AssistantRange.tournament_id == tournament.id)
                                        .order_by(AssistantRange.first_table)))

    # --- games and tables ----------------------------------------------------------------
    def create_game(self, *, tournament_id: int | None = None, rounds: int | None = None,
                    seconds_per_round: int | None = None, seed: int | None = None,
                    seating: SeatingMethod | None = None, seating_seed: int | None = None,
                    arbiter: str = "") -> int:
        """Create the next game (number = previous + 1) and seat the active players
        (``assign_tables``); returns the game number. ``rounds`` None = full bag (III.21)."""
        if rounds is not None and rounds < 1:
            raise TournamentError("las rondas pactadas deben ser al menos 1")
        with self.db.write() as session:
            tournament = self._tournament(session, tournament_id)
            settings = TournamentSettings.from_dict(tournament.settings)
            for previous in tournament.games:
                # One game at a time, and its last round closed first: otherwise its slips
                # could no longer be entered from the stations, which follow the newest game.
                if previous.status in (GameStatus.SETUP.value, GameStatus.PLAYING.value):
                    raise TournamentError(f"la partida {previous.number} sigue en juego: termínela antes de crear "
                                          "la siguiente")
                open_rounds = [row.number for row in previous.rounds if row.master is not None and not row.closed]
                if open_rounds:
                    raise TournamentError(f"cierre antes la ronda {open_rounds[0]} de la partida {previous.number} "
                                          "(faltan papeletas por anotar o las bonificaciones)")
            number = (session.scalar(select(func.max(GameRow.number)).where(GameRow.tournament_id == tournament.id))
                      or 0) + 1
            if seed is None:
                seed = random.SystemRandom().randrange(10**9)
            game = GameRow(tournament_id=tournament.id, number=number, planned_rounds=rounds,
                           seconds_per_round=seconds_per_round or settings.seconds_per_round, seed=seed,
                           status=GameStatus.SETUP.value)
            session.add(game)
            session.flush()
            self._log(session, tournament.id, EventKind.GAME_CREATED,
                      {"number": number, "planned_rounds": rounds, "seconds_per_round": game.seconds_per_round,
                       "seed": seed}, game_id=game.id, arbiter=arbiter)
            tournament_id = tournament.id
        self.assign_tables(number, tournament_id=tournament_id, method=seating, seed=seating_seed, arbiter=arbiter)
        return number

    def assign_tables(self, game_number: int, *, tournament_id: int | None = None,
                      method: SeatingMethod | None = None, seed: int | None = None, arbiter: str = "") -> list[Seat]:
        """Seat the active players at tables 1..N (II.6): by partial tournament
        standings when a game has results, else by rating (when ratings exist), else
        alphabetically; ``random`` on request. Never free choice. Only before the
        first rack is drawn."""
        with self.db.write() as session:
            tournament = self._tournament(session, tournament_id)
            game = self._game(session, tournament, game_number)
            if game.rounds:
                raise TournamentError(f"la partida {game.number} ya ha empezado: las mesas no se cambian")
            active = [entry for entry in tournament.entries if entry.status == EntryStatus.ACTIVE.value]
            previous = [other for other in tournament.games if other.number < game.number and other.rounds]
            if method is None:
                if previous:
                    method = SeatingMethod.STANDINGS
                elif _ratings(session, active):
                    method = SeatingMethod.RATING
                else:
                    method = SeatingMethod.ALPHABETICAL
            ordered = self._seating_order(session, tournament, active, method, seed, game.number)
            for seat in list(game.seats):
                session.delete(seat)
            session.flush()
            seats = [Seat(game_id=game.id, entry_id=entry.id, table_number=index)
                     for index, entry in enumerate(ordered, start=1)]
            session.add_all(seats)
            game.seating = method.value
            self._log(session, tournament.id, EventKind.TABLES_ASSIGNED,
                      {"method": method.value, "seed": seed, "tables": {str(s.entry_id): s.table_number for s in seats}},
                      game_id=game.id, arbiter=arbiter)
            return seats

    def _seating_order(self, session: Session, tournament: Tournament, active: list[Entry], method: SeatingMethod,
                       seed: int | None, game_number: int) -> list[Entry]:
        def by_name(entry: Entry) -> tuple[str, int]:
            return (_collation_key(entry.player.name), entry.id)

        if method is SeatingMethod.RANDOM:
            ordered = sorted(active, key=lambda entry: entry.id)
            random.Random(seed).shuffle(ordered)
            return ordered
        if method is SeatingMethod.STANDINGS:
            standings = self._tournament_standings(session, tournament, before_game=game_number)
            place = {standing.player: standing.position for standing in standings}
            last = len(place) + 1
            return sorted(active, key=lambda entry: (place.get(entry.id, last), *by_name(entry)))
        if method is SeatingMethod.RATING:
            # II.6: the rating in play (EloDI, section V), highest first; players without
            # a rating yet after them, alphabetically.
            ratings = _ratings(session, active)
            return sorted(active, key=lambda entry: (entry.player_id not in ratings,
                                                     -ratings.get(entry.player_id, 0), *by_name(entry)))
        return sorted(active, key=by_name)

    def seats(self, game_number: int, tournament_id: int | None = None) -> list[tuple[int, Entry, Player]]:
        """``(table, entry, player)`` for a game, by table."""
        with self.db.read() as session:
            tournament = self._tournament(session, tournament_id)
            game = self._game(session, tournament, game_number)
            seats = session.scalars(select(Seat).where(Seat.game_id == game.id).order_by(Seat.table_number)
                                    .options(selectinload(Seat.entry).selectinload(Entry.player)))
            return [(seat.table_number, seat.entry, seat.entry.player) for seat in seats]

    def current_game(self, tournament_id: int | None = None) -> int:
        """The number of the game in play (the newest not ended), else the newest game."""
        with self.db.read() as session:
            tournament = self._tournament(session, tournament_id)
            if not tournament.games:
                raise TournamentError(f"el torneo «{tournament.name}» no tiene partidas: créela con «game start»")
            open_games = [game for game in tournament.games
                          if game.status in (GameStatus.SETUP.value, GameStatus.PLAYING.value)]
            return (open_games or tournament.games)[-1].number

    # --- the engine, rebuilt from events --------------------------------------------------
    def engine(self, game_number: int, tournament_id: int | None = None) -> Game:
        """The engine's ``Game`` for this game, rebuilt by replaying its events
        (cached: only events newer than the cached state are applied)."""
        with self.db.read() as session:
            tournament = self._tournament(session, tournament_id)
            game = self._game(session, tournament, game_number)
            return self._engine(session, tournament, game)

    def _engine(self, session: Session, tournament: Tournament, game: GameRow) -> Game:
        with self._engine_lock:
            return self._replay(session, tournament, game)

    def _replay(self, session: Session, tournament: Tournament, game: GameRow) -> Game:
        cached = self._games.get(game.id)
        kinds = (EventKind.RACK_DRAWN.value, EventKind.RACK_SET.value, EventKind.RACK_WITHDRAWN.value,
                 EventKind.MASTER_CHOSEN.value, EventKind.GAME_ENDED.value)
        if cached is None:
            engine = Game(self.lexicon_for(tournament), seed=game.seed, rounds=game.planned_rounds)
            last = 0
        else:
            last, engine = cached
        events = session.scalars(select(Event).where(Event.game_id == game.id, Event.id > last,
                                                     Event.kind.in_(kinds)).order_by(Event.id))
        for event in events:
            try:
                _apply(engine, event)
            except (GameError, RackError, SlipError) as error:
                self._games.pop(game.id, None)
                raise TournamentError(f"historial incoherente de la partida {game.number} en el evento {event.id} "
                                      f"({event.kind}): {error}") from None
            last = event.id
        self._games[game.id] = (last, engine)
        return engine

    # --- racks and masters ----------------------------------------------------------------
    def draw_rack(self, game_number: int, *, tournament_id: int | None = None, arbiter: str = "",
                  replace: bool = False) -> RoundView | None:
        """Draw the next rack from the bag (III.17, III.19); None when the game ends
        instead (no valid rack can be formed, III.22). ``replace``: the pending rack goes
        back to the bag first and another is drawn (III.29: nobody can play it)."""
        return self._set_rack(game_number, None, False, tournament_id, arbiter, replace)

    def set_rack(self, game_number: int, text: str, *, redraw: bool = False, tournament_id: int | None = None,
                 arbiter: str = "", replace: bool = False) -> RoundView:
        """Use a rack typed by the judge (checked against the bag and III.12); ``replace``
        as in ``draw_rack``."""
        view = self._set_rack(game_number, text, redraw, tournament_id, arbiter, replace)
        assert view is not None
        return view

    def _set_rack(self, game_number: int, text: str | None, redraw: bool, tournament_id: int | None,
                  arbiter: str, replace: bool = False) -> RoundView | None:
        try:
            return self._set_rack_in(game_number, text, redraw, tournament_id, arbiter, replace)
        except IntegrityError:
            # Another judge station set this round's rack at the same moment.
            raise TournamentError("otro puesto acaba de poner el atril de esta ronda: vuelva a mirar la partida") from None

    def _withdraw_rack(self, session: Session, tournament: Tournament, game: GameRow, engine: Game,
                       arbiter: str) -> None:
        """III.29: the pending rack goes back to the bag so that the judge proposes another.
        Refused once slips of that round are entered (they were judged against it)."""
        pending = engine.pending
        assert pending is not None
        entered = session.scalar(select(func.count()).select_from(Slip).where(
            Slip.game_id == game.id, Slip.round_number == pending.number))
        if entered:
            raise TournamentError(f"ya hay {entered} papeletas de la ronda {pending.number}: el atril no se cambia")
        session.delete(self._round(session, game, pending.number))
        session.flush()
        engine.withdraw_rack()
        self._log(session, tournament.id, EventKind.RACK_WITHDRAWN, {"round": pending.number, "rack": pending.rack.text},
                  game_id=game.id, round_number=pending.number, arbiter=arbiter,
                  reason="el juez árbitro propone un nuevo atril (III.29)")

    def _set_rack_in(self, game_number: int, text: str | None, redraw: bool, tournament_id: int | None,
                     arbiter: str, replace: bool) -> RoundView | None:
        with self._engine_lock, self.db.write() as session:
            tournament = self._tournament(session, tournament_id)
            game = self._game(session, tournament, game_number, lock=True)
            self._check_unlocked(game)
            engine = self._engine(session, tournament, game)
            if engine.over:
                raise TournamentError(f"la partida {game.number} ha terminado: {engine.end_reason}")
            if engine.pending is not None:
                if not replace:
                    raise TournamentError(f"la ronda {engine.pending.number} ya tiene atril ({engine.pending.rack.text}): "
                                          "elija la jugada maestra antes de sacar otro, o cámbielo (III.29)")
                self._withdraw_rack(session, tournament, game, engine, arbiter)
            board_before = engine.board.to_cgp()
            try:
                pending = engine.draw() if text is None else engine.set_rack(text, redraw=redraw)
            except (RackError, GameError) as error:
                self._games.pop(game.id, None)
                raise TournamentError(str(error)) from None
            if pending is None:
                reason = str(engine.end_reason)
                game.status = GameStatus.ENDED.value
                game.end_reason = reason
                event = self._log(session, tournament.id, EventKind.GAME_ENDED, {"reason": reason}, game_id=game.id,
                                  arbiter=arbiter)
                self._games[game.id] = (event.id, engine)
                return None
            if game.status == GameStatus.SETUP.value:
                game.status = GameStatus.PLAYING.value
            row = _round_row(game, pending, board_before, engine)
            session.add(row)
            payload = {"round": pending.number, "rack": pending.rack.text,
                       "redraws": [{"rack": redraw_.rack, "reason": redraw_.reason} for redraw_ in pending.redraws]}
            if text is None:
                event = self._log(session, tournament.id, EventKind.RACK_DRAWN, payload, game_id=game.id,
                                  round_number=pending.number, arbiter=arbiter)
            else:
                payload |= {"text": text, "redraw": redraw}
                event = self._log(session, tournament.id, EventKind.RACK_SET, payload, game_id=game.id,
                                  round_number=pending.number, arbiter=arbiter)
            self._games[game.id] = (event.id, engine)
            session.flush()
            return _round_view(row)

    def pending_round(self, game_number: int, tournament_id: int | None = None) -> PendingRound | None:
        """The engine's pending round (rack set, master not chosen), with its ranking."""
        return self.engine(game_number, tournament_id).pending

    def choose_master(self, game_number: int, choice: int | str = 0, *, tournament_id: int | None = None,
                      arbiter: str = "", reason: str = "") -> RoundView:
        """Place the master move of the pending round: ``choice`` is an index in the
        III.15 ranking of the equal tops (0 = the rules' choice) or the canonical text
        of one of them (the judge's choice among equal tops)."""
        with self._engine_lock, self.db.write() as session:
            tournament = self._tournament(session, tournament_id)
            game = self._game(session, tournament, game_number, lock=True)
            self._check_unlocked(game)
            engine = self._engine(session, tournament, game)
            pending = engine.pending
            if pending is None:
                raise TournamentError("no hay atril en juego: saque o introduzca el atril primero")
            if not pending.ranked:
                raise TournamentError(f"con el atril {pending.rack.text} no hay ninguna jugada válida: "
                                      "cambie el atril (III.29) o termine la partida")
            selected: int | Any = choice
            if isinstance(choice, str) and not choice.strip().isdigit():
                try:
                    selected = parse_move(choice, engine.alphabet)
                except SlipError as error:
                    raise TournamentError(str(error)) from None
            elif isinstance(choice, str):
                selected = int(choice)
            try:
                record = engine.play(selected)
            except GameError as error:
                raise TournamentError(str(error)) from None
            row = self._round(session, game, record.number)
            row.master = record.master
            row.master_score = record.score
            row.master_reason = record.reason
            row.cumulative = record.cumulative
            event = self._log(session, tournament.id, EventKind.MASTER_CHOSEN,
                              {"round": record.number, "master": record.master, "score": record.score,
                               "rank": record.master_rank, "cumulative": record.cumulative},
                              game_id=game.id, round_number=record.number, arbiter=arbiter, reason=reason or record.reason)
            last_event = event.id
            if engine.over:
                game.status = GameStatus.ENDED.value
                game.end_reason = str(engine.end_reason)
                last_event = self._log(session, tournament.id, EventKind.GAME_ENDED, {"reason": game.end_reason},
                                       game_id=game.id, arbiter=arbiter).id
            self._games[game.id] = (last_event, engine)
            return _round_view(row)

    def end_game(self, game_number: int, *, tournament_id: int | None = None, arbiter: str = "",
                 reason: str = "") -> str:
        """The judge ends the game (III.22); returns the reason recorded."""
        with self._engine_lock, self.db.write() as session:
            tournament = self._tournament(session, tournament_id)
            game = self._game(session, tournament, game_number, lock=True)
            self._check_unlocked(game)
            if game.status == GameStatus.ENDED.value:
                return game.end_reason or ""            # already over: nothing changes
            if game.status not in (GameStatus.SETUP.value, GameStatus.PLAYING.value):
                raise TournamentError(f"la partida {game.number} tiene resultados publicados ({game.status}): "
                                      "no se puede volver a terminar")
            engine = self._engine(session, tournament, game)
            if engine.pending is not None:
                # The drawn rack is not played: its round row goes with it, unless slips
                # were already entered against it.
                entered = session.scalar(select(func.count()).select_from(Slip).where(
                    Slip.game_id == game.id, Slip.round_number == engine.pending.number))
                if entered:
                    raise TournamentError(f"la ronda {engine.pending.number} tiene {entered} papeletas: elija su "
                                          "jugada maestra antes de terminar la partida")
                session.delete(self._round(session, game, engine.pending.number))
            end = engine.end(reason or None)
            game.status = GameStatus.ENDED.value
            game.end_reason = str(end)
            event = self._log(session, tournament.id, EventKind.GAME_ENDED, {"reason": game.end_reason},
                              game_id=game.id, arbiter=arbiter, reason=reason)
            self._games[game.id] = (event.id, engine)
            return game.end_reason

    def record_timer(self, game_number: int, action: str, remaining: float, *, tournament_id: int | None = None,
                     arbiter: str = "") -> None:
        """The announcer's round timer (III.13) was started, paused or reset with
        ``remaining`` seconds left: logged so that other stations (the projection screen)
        follow it."""
        if action not in ("start", "pause", "reset"):
            raise TournamentError(f"acción de cronómetro {action!r} desconocida: start, pause o reset")
        with self.db.write() as session:
            tournament = self._tournament(session, tournament_id)
            game = self._game(session, tournament, game_number)
            number = session.scalar(select(func.max(RoundRow.number)).where(RoundRow.game_id == game.id))
            self._log(session, tournament.id, EventKind.TIMER,
                      {"action": action, "remaining": round(remaining, 3), "at": _now().isoformat()},
                      game_id=game.id, round_number=number, arbiter=arbiter)

    def timer_state(self, game_number: int, tournament_id: int | None = None) -> tuple[int | None, float, bool] | None:
        """The shared timer now: ``(round, seconds left, running)`` from the last
        ``record_timer`` of the game, or None if it was never used."""
        with self.db.read() as session:
            tournament = self._tournament(session, tournament_id)
            game = self._game(session, tournament, game_number)
            event = session.scalar(select(Event).where(Event.game_id == game.id, Event.kind == EventKind.TIMER.value)
                                   .order_by(Event.id.desc()).limit(1))
            if event is None:
                return None
            at = datetime.fromisoformat(event.payload["at"])
            left, running = shared_remaining(event.payload["action"], event.payload["remaining"],
                                             (_now() - at).total_seconds())
            return event.round_number, left, running

    def rounds(self, game_number: int, tournament_id: int | None = None) -> list[RoundView]:
        with self.db.read() as session:
            tournament = self._tournament(session, tournament_id)
            game = self._game(session, tournament, game_number)
            return [_round_view(row) for row in game.rounds]

    # --- slips ------------------------------------------------------------------------------
    def enter_slip(self, game_number: int, table: int, text: str, *, round_number: int | None = None,
                   tournament_id: int | None = None, assistant: str = "") -> EntryResult:
        """Judge and store the slip of the player at ``table`` (III.20, III.23, III.25).

        ``round_number`` defaults to the newest round with a rack. The raw ``text`` is
        stored exactly as typed. A second, different slip for the same player and round
        is stored as a ``Conflict`` for the judge; the same text again changes nothing.
        """
        context = self._slip_context(game_number, table, round_number, tournament_id)
        verdict = judge_slip(context.board, context.rack, text, context.lexicon, oriented=context.oriented)
        return self._store(context, text, verdict, assistant)

    def mark_slip(self, game_number: int, table: int, status: SlipStatus | str, *, text: str = "",
                  round_number: int | None = None, tournament_id: int | None = None,
                  assistant: str = "") -> EntryResult:
        """Record a late, null or missing slip (III.13, III.20.4, III.25): 0 points."""
        status = SlipStatus(status)
        if status not in MARK_STATUSES:
            raise TournamentError(f"marca {status.value!r} no válida: se espera late, null o missing")
        context = self._slip_context(game_number, table, round_number, tournament_id)
        return self._store(context, text, mark_verdict(status, text), assistant)

    def enter_master_slips(self, game_number: int, tables: Iterable[int], *, round_number: int | None = None,
                           tournament_id: int | None = None, assistant: str = "") -> list[EntryResult]:
        """Enter the master's own text for every player in ``tables`` in one step, one
        transaction (issue 3 §3)."""
        tables = list(dict.fromkeys(tables))
        contexts = [self._slip_context(game_number, table, round_number, tournament_id) for table in tables]
        if not contexts:
            return []
        master = contexts[0].master
        if master is None:
            raise TournamentError(f"la ronda {contexts[0].round_number} aún no tiene jugada maestra")
        verdict = judge_slip(contexts[0].board, contexts[0].rack, master, contexts[0].lexicon,
                             oriented=contexts[0].oriented)
        results = []
        with self.db.write() as session:
            self._writable_game(session, contexts[0].game_id)
            for context in contexts:
                results.append(self._store_in(session, context, master, verdict, assistant))
        return results

    def enter_slips(self, game_number: int, slips: Iterable[tuple[Any, ...]], *,
                    round_number: int | None = None, tournament_id: int | None = None,
                    assistant: str = "") -> list[EntryResult]:
        """Enter many slips of one round in one transaction: ``(table, text)`` pairs, or
        ``(table, SlipStatus.LATE/NULL/MISSING[, text])`` for a mark. Same rules as
        ``enter_slip``/``mark_slip``; identical texts are judged once. For imports and
        the simulator; the assistants' stations use ``enter_slip`` (one commit each).
        If another station stores one of these players' slips meanwhile, the batch is
        retried once and that slip becomes a repeat or a conflict."""
        items = list(slips)
        if not items:
            return []
        base = self._slip_context(game_number, items[0][0], round_number, tournament_id)
        with self.db.read() as session:
            seated = {table: (entry_id, name) for table, entry_id, name in session.execute(
                select(Seat.table_number, Seat.entry_id, Player.name).join(Entry, Seat.entry_id == Entry.id)
                .join(Player, Entry.player_id == Player.id).where(Seat.game_id == base.game_id))}
        verdicts: dict[str, SlipVerdict] = {}
        prepared = []
        for table, value, *written in items:
            if table not in seated:
                raise TournamentError(f"no hay ningún jugador en la mesa {table} en la partida {game_number}")
            if isinstance(value, SlipStatus):
                if value not in MARK_STATUSES:
                    raise TournamentError(f"marca {value.value!r} no válida: se espera late, null o missing")
                raw = written[0] if written else ""
                verdict = mark_verdict(value, raw)
            else:
                if value not in verdicts:
                    verdicts[value] = judge_slip(base.board, base.rack, value, base.lexicon, oriented=base.oriented)
                verdict, raw = verdicts[value], value
            entry_id, name = seated[table]
            context = _SlipContext(base.tournament_id, base.game_id, base.round_number, entry_id, name, table,
                                   base.board, base.rack, base.lexicon, base.oriented, base.master, base.annulled)
            prepared.append((context, raw, verdict))
        try:
            return self._store_batch(prepared, assistant)
        except IntegrityError:
            return self._store_batch(prepared, assistant)

    def _store_batch(self, prepared: list[tuple[_SlipContext, str, SlipVerdict]], assistant: str) -> list[EntryResult]:
        """Store a batch in one transaction: the round's existing slips are read once and
        the new events and slips are written together."""
        with self.db.write() as session:
            first = prepared[0][0]
            self._writable_game(session, first.game_id)
            existing = {slip.entry_id: slip for slip in session.scalars(select(Slip).where(
                Slip.game_id == first.game_id, Slip.round_number == first.round_number))}
            results: list[EntryResult | None] = []
            fresh: list[tuple[int, _SlipContext, str, SlipVerdict, Event]] = []
            for context, raw, verdict in prepared:
                if context.entry_id in existing or any(item[1].entry_id == context.entry_id for item in fresh):
                    results.append(None)
                    continue
                event = Event(tournament_id=context.tournament_id, game_id=context.game_id,
                              round_number=context.round_number, kind=EventKind.SLIP_ENTERED.value,
                              payload={"table": context.table, "entry": context.entry_id,
                                       **_verdict_payload(raw, verdict, context)},
                              station=self.station, arbiter=assistant, reason="", created_at=_now())
                session.add(event)
                fresh.append((len(results), context, raw, verdict, event))
                results.append(EntryResult("accepted", verdict, context.table, context.player, context.round_number))
            session.flush()
            for _, context, raw, verdict, event in fresh:
                slip = Slip(game_id=context.game_id, round_number=context.round_number, entry_id=context.entry_id,
                            table_number=context.table)
                _fill_slip(slip, raw, verdict, context, assistant or self.station, event.id)
                session.add(slip)
            session.flush()
            # Second slips for a player (already stored, or twice in this batch): repeat or conflict.
            for index, (context, raw, verdict) in enumerate(prepared):
                if results[index] is None:
                    results[index] = self._store_in(session, context, raw, verdict, assistant)
            return [result for result in results if result is not None]

    def import_slips(self, game_number: int, path: Path, *, tournament_id: int | None = None,
                     assistant: str = "") -> list[EntryResult]:
        """Enter the slips of a CSV file with a header: ``mesa`` (table), ``jugada``
        (the text; empty with ``marca``), optional ``ronda`` (round) and ``marca``
        (late/null/missing). Every row is checked first (syntax, table seated, round open):
        a bad row raises ``TournamentError`` naming its line and nothing is entered; then
        each round's slips are entered in one transaction."""
        parsed = []
        for number, row in _read_csv(path):
            lowered = {(key or "").strip().lower(): (value or "").strip() for key, value in row.items()}
            table_text = lowered.get("mesa") or lowered.get("table") or ""
            if not table_text.isdigit():
                raise TournamentError(f"{path}, línea {number}: la columna «mesa» debe ser un número, no {table_text!r}")
            round_text = lowered.get("ronda") or lowered.get("round") or ""
            if round_text and not round_text.isdigit():
                raise TournamentError(f"{path}, línea {number}: la columna «ronda» debe ser un número, no {round_text!r}")
            mark = lowered.get("marca") or lowered.get("mark") or ""
            if mark and mark not in {status.value for status in MARK_STATUSES}:
                raise TournamentError(f"{path}, línea {number}: marca {mark!r} no válida (late, null, missing)")
            text = row.get("jugada") or row.get("move") or ""
            parsed.append((number, int(table_text), int(round_text) if round_text else None, text, mark))
        # Every table and round is checked before anything is stored.
        with self.db.read() as session:
            tournament = self._tournament(session, tournament_id)
            game = self._game(session, tournament, game_number)
            tables = {seat.table_number for seat in game.seats}
            open_rounds = {row.number for row in game.rounds if not row.closed}
            latest = max((row.number for row in game.rounds), default=None)
        by_round: dict[int, list[tuple[Any, ...]]] = {}
        for line, table, round_number, text, mark in parsed:
            target = round_number if round_number is not None else latest
            if table not in tables:
                raise TournamentError(f"{path}, línea {line}: no hay ningún jugador en la mesa {table} "
                                      f"en la partida {game_number}; no se ha anotado nada")
            if target is None or target not in open_rounds:
                raise TournamentError(f"{path}, línea {line}: la ronda {target} no existe o está cerrada; "
                                      "no se ha anotado nada")
            by_round.setdefault(target, []).append((table, SlipStatus(mark), text) if mark else (table, text))
        results = []
        for number, items in sorted(by_round.items()):
            results += self.enter_slips(game_number, items, round_number=number, tournament_id=tournament_id,
                                        assistant=assistant)
        return results

    def double_check(self, game_number: int, table: int, text: str, *, round_number: int | None = None,
                     tournament_id: int | None = None, assistant: str = "") -> EntryResult:
        """Double entry: a second assistant re-types a slip. A match is recorded as
        checked; a mismatch becomes a ``Conflict`` the judge resolves."""
        context = self._slip_context(game_number, table, round_number, tournament_id)
        verdict = judge_slip(context.board, context.rack, text, context.lexicon, oriented=context.oriented)
        with self.db.write() as session:
            self._writable_game(session, context.game_id)
            slip = self._slip(session, context)
            if slip is None:
                raise TournamentError(f"mesa {table}, ronda {context.round_number}: no hay papeleta que comprobar")
            same = slip.text.strip() == text.strip() or (
                verdict.move is not None and slip.move == verdict.canonical and slip.status == verdict.status.value)
            if same:
                slip.checked_by = assistant or self.station
                self._log(session, context.tournament_id, EventKind.SLIP_CHECKED,
                          {"table": table, "entry": context.entry_id, "text": text}, game_id=context.game_id,
                          round_number=context.round_number, arbiter=assistant)
                return EntryResult("checked", verdict, table, context.player, context.round_number)
            conflict = self._conflict(session, context, text, assistant, ConflictKind.DOUBLE_ENTRY, slip)
            return EntryResult("conflict", verdict, table, context.player, context.round_number, conflict)

    def conflicts(self, game_number: int, *, tournament_id: int | None = None,
                  unresolved: bool = True) -> list[tuple[Conflict, Slip | None]]:
        """Conflicts of a game with the slip they disagree with."""
        with self.db.read() as session:
            tournament = self._tournament(session, tournament_id)
            game = self._game(session, tournament, game_number)
            query = select(Conflict).where(Conflict.game_id == game.id)
            if unresolved:
                query = query.where(Conflict.resolution.is_(None))
            result = []
            for conflict in session.scalars(query.order_by(Conflict.id)):
                slip = session.scalar(select(Slip).where(Slip.game_id == game.id,
                                                         Slip.round_number == conflict.round_number,
                                                         Slip.entry_id == conflict.entry_id))
                result.append((conflict, slip))
            return result

    def resolve_conflict(self, conflict_id: int, *, use_new: bool, arbiter: str = "", reason: str = "") -> None:
        """The judge keeps the stored slip or replaces it with the conflicting text (or
        mark), in one transaction: a second judge resolving the same conflict is refused."""
        with self.db.read() as session:
            conflict = session.get(Conflict, conflict_id)
            if conflict is None:
                raise TournamentError(f"no existe el conflicto {conflict_id}")
            game = session.get(GameRow, conflict.game_id)
            assert game is not None
            game_number, tournament_id = game.number, game.tournament_id
            table, round_number, text, mark = (conflict.table_number, conflict.round_number, conflict.text,
                                               conflict.mark)
        context = self._slip_context(game_number, table, round_number, tournament_id, allow_closed=True)
        verdict = self._correction_verdict(context, text, mark) if use_new else None
        with self.db.write() as session:
            conflict = session.scalar(select(Conflict).where(Conflict.id == conflict_id).with_for_update()
                                      .execution_options(populate_existing=True))
            assert conflict is not None
            if conflict.resolution is not None:
                raise TournamentError(f"el conflicto {conflict_id} ya está resuelto ({conflict.resolution}, "
                                      f"{conflict.resolved_by})")
            if verdict is not None:
                self._correct_in(session, context, text, verdict, arbiter,
                                 reason or f"conflicto {conflict_id} resuelto a favor de la nueva papeleta")
            else:
                self._writable_game(session, conflict.game_id)
            conflict.resolution = "replaced" if use_new else "kept"
            conflict.resolved_by = arbiter or self.station
            self._log(session, tournament_id, EventKind.CONFLICT_RESOLVED,
                      {"conflict": conflict_id, "resolution": conflict.resolution}, game_id=conflict.game_id,
                      round_number=conflict.round_number, arbiter=arbiter, reason=reason)

    def correct_slip(self, game_number: int, table: int, text: str | None = None, *,
                     status: SlipStatus | str | None = None, round_number: int | None = None,
                     tournament_id: int | None = None, arbiter: str = "", reason: str = "",
                     judge: bool = True) -> EntryResult:
        """A correction (a claim upheld, III.27): the player's slip becomes ``text``
        (judged again), or the mark ``status`` (``text`` then keeps what the slip said); a
        new event keeps the old values. ``judge`` False (an assistant fixing a typing
        mistake): refused once the round is closed."""
        context = self._slip_context(game_number, table, round_number, tournament_id, allow_closed=judge)
        verdict = self._correction_verdict(context, text, status)
        with self.db.write() as session:
            return self._correct_in(session, context, text or "", verdict, arbiter, reason)

    def _correction_verdict(self, context: _SlipContext, text: str | None,
                            status: SlipStatus | str | None) -> SlipVerdict:
        if status is not None:
            status = SlipStatus(status)
            if status not in MARK_STATUSES:
                raise TournamentError(f"marca {status.value!r} no válida: se espera late, null o missing")
            return mark_verdict(status, text or "")
        if text is None:
            raise TournamentError("indique el nuevo texto de la papeleta o una marca (late, null, missing)")
        return judge_slip(context.board, context.rack, text, context.lexicon, oriented=context.oriented)

    def _correct_in(self, session: Session, context: _SlipContext, text: str, verdict: SlipVerdict, arbiter: str,
                    reason: str) -> EntryResult:
        self._writable_game(session, context.game_id)
        slip = self._slip(session, context)
        before = _slip_payload(slip) if slip is not None else None
        event = self._log(session, context.tournament_id, EventKind.SLIP_CORRECTED,
                          {"table": context.table, "entry": context.entry_id, "before": before,
                           "after": _verdict_payload(text, verdict, context)},
                          game_id=context.game_id, round_number=context.round_number, arbiter=arbiter, reason=reason)
        if slip is None:
            slip = Slip(game_id=context.game_id, round_number=context.round_number, entry_id=context.entry_id,
                        table_number=context.table)
            session.add(slip)
        _fill_slip(slip, text, verdict, context, arbiter or self.station, event.id)
        session.flush()
        self._refresh_bonuses(session, context.tournament_id, context.game_id, context.round_number)
        return EntryResult("corrected", verdict, context.table, context.player, context.round_number)

    def slips(self, game_number: int, round_number: int | None = None, *,
              tournament_id: int | None = None) -> list[Slip]:
        """Stored slips of a game (one round when given), by round and table."""
        with self.db.read() as session:
            tournament = self._tournament(session, tournament_id)
            game = self._game(session, tournament, game_number)
            query = select(Slip).where(Slip.game_id == game.id)
            if round_number is not None:
                query = query.where(Slip.round_number == round_number)
            return list(session.scalars(query.order_by(Slip.round_number, Slip.table_number)))

    def annul_master(self, game_number: int, round_number: int, *, tournament_id: int | None = None,
                     arbiter: str = "", reason: str = "") -> int:
        """III.29: the master of ``round_number`` was wrong (found later). It stays on the
        board; every player who played it gets 0. Returns how many slips were annulled."""
        with self.db.write() as session:
            tournament = self._tournament(session, tournament_id)
            game = self._game(session, tournament, game_number, lock=True)
            self._check_unlocked(game)
            row = self._round(session, game, round_number)
            if row.master is None:
                raise TournamentError(f"la ronda {round_number} no tiene jugada maestra")
            row.annulled = True
            annulled = []
            for slip in session.scalars(select(Slip).where(Slip.game_id == game.id, Slip.round_number == round_number,
                                                           Slip.move == row.master,
                                                           Slip.status == SlipStatus.VALID.value)):
                annulled.append({"table": slip.table_number, "entry": slip.entry_id, "score": slip.score})
                slip.status = ANNULLED
                slip.score = 0
                slip.reason = f"jugada maestra anulada (III.29): {reason}" if reason else "jugada maestra anulada (III.29)"
            self._log(session, tournament.id, EventKind.MASTER_ANNULLED,
                      {"round": round_number, "master": row.master, "slips": annulled},
                      game_id=game.id, round_number=round_number, arbiter=arbiter, reason=reason)
            self._refresh_bonuses(session, tournament.id, game.id, round_number, "recalculadas tras anular la maestra")
            return len(annulled)

    def close_round(self, game_number: int, round_number: int | None = None, *, tournament_id: int | None = None,
                    arbiter: str = "") -> dict[int, int]:
        """Close a round: every seated player without a slip gets ``missing`` (0 points),
        bonuses are awarded (III.24). Returns the bonuses ``{table: points}``."""
        with self.db.write() as session:
            tournament = self._tournament(session, tournament_id)
            game = self._game(session, tournament, game_number, lock=True)
            self._check_unlocked(game)
            number = round_number if round_number is not None else self._latest_round_number(session, game)
            row = self._round(session, game, number)
            if row.master is None:
                raise TournamentError(f"la ronda {number} aún no tiene jugada maestra: no se puede cerrar")
            if row.closed:
                raise TournamentError(f"la ronda {number} ya está cerrada")
            present = set(session.scalars(select(Slip.entry_id).where(Slip.game_id == game.id,
                                                                      Slip.round_number == number)))
            missing_verdict = mark_verdict(SlipStatus.MISSING)
            for seat in game.seats:
                if seat.entry_id not in present:
                    event = self._log(session, tournament.id, EventKind.SLIP_ENTERED,
                                      {"table": seat.table_number, "entry": seat.entry_id,
                                       **_verdict_payload("", missing_verdict, None)},
                                      game_id=game.id, round_number=number, arbiter=arbiter)
                    slip = Slip(game_id=game.id, round_number=number, entry_id=seat.entry_id,
                                table_number=seat.table_number)
                    _fill_slip(slip, "", missing_verdict, None, arbiter or self.station, event.id)
                    session.add(slip)
            session.flush()
            row.closed = True
            self._log(session, tournament.id, EventKind.ROUND_CLOSED, {"round": number}, game_id=game.id,
                      round_number=number, arbiter=arbiter)
            bonuses = self._bonuses(session, tournament, game, row)
            self._log(session, tournament.id, EventKind.BONUSES_AWARDED,
                      {"round": number, "bonuses": {str(entry): points for entry, points in bonuses.items()}},
                      game_id=game.id, round_number=number, arbiter=arbiter)
            tables = {seat.entry_id: seat.table_number for seat in game.seats}
            return {tables[entry]: points for entry, points in bonuses.items()}

    def round_status(self, game_number: int, round_number: int | None = None, *,
                     tournament_id: int | None = None) -> RoundStatus:
        """Slips entered versus expected, overall and per assistant range."""
        with self.db.read() as session:
            tournament = self._tournament(session, tournament_id)
            game = self._game(session, tournament, game_number)
            number = round_number if round_number is not None else self._latest_round_number(session, game)
            entered = set(session.scalars(select(Slip.table_number).where(Slip.game_id == game.id,
                                                                          Slip.round_number == number)))
            tables = [seat.table_number for seat in game.seats]
            missing = tuple(table for table in tables if table not in entered)
            ranges = session.scalars(select(AssistantRange).where(AssistantRange.tournament_id == tournament.id))
            per = {}
            for assistant in ranges:
                mine = [table for table in tables if assistant.first_table <= table <= assistant.last_table]
                per[assistant.assistant] = (len(mine), sum(1 for table in mine if table in entered),
                                            tuple(table for table in mine if table not in entered))
            return RoundStatus(number, len(tables), len(tables) - len(missing), missing, per)

    # --- claims, publication ----------------------------------------------------------------
    def file_claim(self, game_number: int, round_number: int, table: int, text: str, *,
                   tournament_id: int | None = None, arbiter: str = "") -> int:
        """Record a player's claim (III.27); returns its id."""
        context = self._slip_context(game_number, table, round_number, tournament_id, allow_closed=True)
        with self.db.write() as session:
            self._writable_game(session, context.game_id)
            claim = Claim(game_id=context.game_id, round_number=context.round_number, entry_id=context.entry_id,
                          text=text, status=ClaimStatus.OPEN.value, created_at=_now())
            session.add(claim)
            session.flush()
            self._log(session, context.tournament_id, EventKind.CLAIM_FILED,
                      {"claim": claim.id, "table": table, "entry": context.entry_id, "text": text},
                      game_id=context.game_id, round_number=context.round_number, arbiter=arbiter)
            return claim.id

    def resolve_claim(self, claim_id: int, *, upheld: bool, resolution: str, corrected_text: str | None = None,
                      corrected_status: str | None = None, arbiter: str = "") -> None:
        """Resolve a claim (III.27) in one transaction; an upheld claim may carry the
        corrected slip. A claim already resolved (by another judge station) is refused."""
        with self.db.read() as session:
            claim = session.get(Claim, claim_id)
            if claim is None:
                raise TournamentError(f"no existe la reclamación {claim_id}")
            game = session.get(GameRow, claim.game_id)
            assert game is not None
            seat = session.scalar(select(Seat).where(Seat.game_id == game.id, Seat.entry_id == claim.entry_id))
            assert seat is not None
            tournament_id, game_number, table, round_number = (game.tournament_id, game.number, seat.table_number,
                                                               claim.round_number)
        correcting = upheld and (corrected_text is not None or corrected_status is not None)
        context = self._slip_context(game_number, table, round_number, tournament_id, allow_closed=True)
        verdict = self._correction_verdict(context, corrected_text, corrected_status) if correcting else None
        with self.db.write() as session:
            claim = session.scalar(select(Claim).where(Claim.id == claim_id).with_for_update()
                                   .execution_options(populate_existing=True))
            assert claim is not None
            if claim.status != ClaimStatus.OPEN.value:
                raise TournamentError(f"la reclamación {claim_id} ya está resuelta ({claim.status})")
            if verdict is not None:
                self._correct_in(session, context, corrected_text or "", verdict, arbiter,
                                 f"reclamación {claim_id} aceptada: {resolution}")
            else:
                self._writable_game(session, claim.game_id)
            claim.status = (ClaimStatus.UPHELD if upheld else ClaimStatus.REJECTED).value
            claim.resolution = resolution
            self._log(session, tournament_id, EventKind.CLAIM_RESOLVED,
                      {"claim": claim_id, "status": claim.status, "resolution": resolution},
                      game_id=claim.game_id, round_number=claim.round_number, arbiter=arbiter, reason=resolution)

    def claims(self, game_number: int, *, tournament_id: int | None = None) -> list[Claim]:
        with self.db.read() as session:
            tournament = self._tournament(session, tournament_id)
            game = self._game(session, tournament, game_number)
            return list(session.scalars(select(Claim).where(Claim.game_id == game.id).order_by(Claim.id)))

    def publish(self, game_number: int, *, final: bool = False, tournament_id: int | None = None,
                arbiter: str = "") -> list[GameStanding]:
        """Publish the game's results: provisional (claims may follow) or final, which
        locks the game (III.26, IV.32). Final needs every round closed and no open
        claim or conflict. Returns the standings published."""
        with self.db.write() as session:
            tournament = self._tournament(session, tournament_id)
            game = self._game(session, tournament, game_number, lock=True)
            self._check_unlocked(game)
            if game.status in (GameStatus.SETUP.value, GameStatus.PLAYING.value):
                raise TournamentError(f"la partida {game.number} no ha terminado: termínela antes de publicar")
            open_rounds = [row.number for row in game.rounds if not row.closed]
            if open_rounds:
                raise TournamentError(f"rondas sin cerrar: {', '.join(map(str, open_rounds))}")
            if final:
                open_claims = session.scalar(select(func.count()).select_from(Claim).where(
                    Claim.game_id == game.id, Claim.status == ClaimStatus.OPEN.value))
                open_conflicts = session.scalar(select(func.count()).select_from(Conflict).where(
                    Conflict.game_id == game.id, Conflict.resolution.is_(None)))
                if open_claims or open_conflicts:
                    raise TournamentError(f"quedan {open_claims} reclamaciones y {open_conflicts} conflictos "
                                          "por resolver antes de publicar los resultados definitivos")
            standings = self._game_standings(session, tournament, game)
            game.status = (GameStatus.FINAL if final else GameStatus.PROVISIONAL).value
            self._log(session, tournament.id, EventKind.RESULTS_PUBLISHED,
                      {"status": game.status,
                       "standings": [{"entry": s.player, "position": s.position, "total": s.total} for s in standings]},
                      game_id=game.id, arbiter=arbiter)
            return standings

    def reopen(self, game_number: int, *, reason: str, tournament_id: int | None = None, arbiter: str = "") -> None:
        """The judge reopens a final game (explicit and logged); it becomes provisional."""
        if not reason.strip():
            raise TournamentError("reabrir una partida con resultados definitivos exige indicar el motivo")
        with self.db.write() as session:
            tournament = self._tournament(session, tournament_id)
            game = self._game(session, tournament, game_number, lock=True)
            if game.status != GameStatus.FINAL.value:
                raise TournamentError(f"la partida {game.number} no tiene resultados definitivos")
            game.status = GameStatus.PROVISIONAL.value
            self._log(session, tournament.id, EventKind.GAME_REOPENED, {"status": game.status}, game_id=game.id,
                      arbiter=arbiter, reason=reason)

    # --- standings ----------------------------------------------------------------------------
    def game_standings(self, game_number: int, tournament_id: int | None = None) -> list[GameStanding]:
        """Game standings (III.23, III.24, III.28); ``player`` is the entry id."""
        with self.db.read() as session:
            tournament = self._tournament(session, tournament_id)
            return self._game_standings(session, tournament, self._game(session, tournament, game_number))

    def tournament_standings(self, tournament_id: int | None = None) -> list[TournamentStanding]:
        """Tournament standings by the tournament's criterion (IV.31); ``player`` is the entry id."""
        with self.db.read() as session:
            return self._tournament_standings(session, self._tournament(session, tournament_id))

    def round_results(self, game_number: int, tournament_id: int | None = None) -> list[RoundResult]:
        """Per played round: master and top scores, each seated player's score and bonus."""
        with self.db.read() as session:
            tournament = self._tournament(session, tournament_id)
            return self._round_results(session, tournament, self._game(session, tournament, game_number))

    def _round_results(self, session: Session, tournament: Tournament, game: GameRow) -> list[RoundResult]:
        policy = TournamentSettings.from_dict(tournament.settings).bonus_policy
        seated = [seat.entry_id for seat in game.seats]
        scores: dict[int, dict[int, int]] = {}
        for number, entry, score in session.execute(select(Slip.round_number, Slip.entry_id, Slip.score)
                                                    .where(Slip.game_id == game.id)):
            scores.setdefault(number, {})[entry] = score
        results = []
        for row in game.rounds:
            if row.master_score is None:
                continue
            round_scores = {entry: scores.get(row.number, {}).get(entry, 0) for entry in seated}
            bonuses = round_bonuses(row.top_score, round_scores, policy) if row.closed else {}
            results.append(RoundResult(number=row.number, master_score=row.master_score, top_score=row.top_score,
                                       scores=round_scores, bonuses=bonuses))
        return results

    def _game_standings(self, session: Session, tournament: Tournament, game: GameRow) -> list[GameStanding]:
        settings = TournamentSettings.from_dict(tournament.settings)
        players = [seat.entry_id for seat in game.seats]
        return game_standings(players, self._round_results(session, tournament, game), tie_breaks=settings.tie_breaks)

    def _tournament_standings(self, session: Session, tournament: Tournament,
                              before_game: int | None = None) -> list[TournamentStanding]:
        settings = TournamentSettings.from_dict(tournament.settings)
        games = []
        for game in tournament.games:
            if before_game is not None and game.number >= before_game:
                continue
            results = self._round_results(session, tournament, game)
            seated = [seat.entry_id for seat in game.seats]
            if results and seated:     # a game nobody was seated in classifies nobody
                games.append((seated, results))
        # Classified: the players seated in at least one game played (IV.31); a late
        # registration or an absent player with no game yet is not in the standings.
        seated_anywhere = {player for members, _ in games for player in members}
        players = [entry.id for entry in tournament.entries if entry.id in seated_anywhere]
        return tournament_standings(players, games, TournamentCriterion(settings.criterion), tie_breaks=True,
                                    game_tie_breaks=settings.tie_breaks)

    def _bonuses(self, session: Session, tournament: Tournament, game: GameRow, row: RoundRow) -> dict[int, int]:
        policy = TournamentSettings.from_dict(tournament.settings).bonus_policy
        scores = {seat.entry_id: 0 for seat in game.seats}
        for entry, score in session.execute(select(Slip.entry_id, Slip.score).where(
                Slip.game_id == game.id, Slip.round_number == row.number)):
            scores[entry] = score
        return round_bonuses(row.top_score, scores, policy)

    def _refresh_bonuses(self, session: Session, tournament_id: int, game_id: int, round_number: int,
                         why: str = "recalculadas tras una corrección") -> None:
        """After a change in a closed round: log the bonuses if they changed (III.24)."""
        game = session.get(GameRow, game_id)
        assert game is not None
        row = self._round(session, game, round_number)
        if not row.closed:
            return
        tournament = session.get(Tournament, tournament_id)
        assert tournament is not None
        session.flush()
        bonuses = {str(entry): points for entry, points in self._bonuses(session, tournament, game, row).items()}
        last = session.scalar(select(Event).where(Event.game_id == game.id, Event.round_number == row.number,
                                                  Event.kind == EventKind.BONUSES_AWARDED.value)
                              .order_by(Event.id.desc()).limit(1))
        if last is None or last.payload.get("bonuses") != bonuses:
            self._log(session, tournament.id, EventKind.BONUSES_AWARDED, {"round": row.number, "bonuses": bonuses},
                      game_id=game.id, round_number=row.number, reason=why)

    # --- internals ------------------------------------------------------------------------------
    def _tournament(self, session: Session, tournament_id: int | None) -> Tournament:
        if tournament_id is None:
            tournament = session.scalar(select(Tournament).order_by(Tournament.id.desc()).limit(1))
            if tournament is None:
                raise TournamentError("no hay ningún torneo en la base de datos: créelo con «duplicada tournament create»")
            return tournament
        tournament = session.get(Tournament, tournament_id)
        if tournament is None:
            raise TournamentError(f"no existe el torneo {tournament_id}")
        return tournament

    def _game(self, session: Session, tournament: Tournament, number: int, *, lock: bool = False) -> GameRow:
        """The game ``number``; with ``lock`` its row is locked for the transaction
        (``SELECT … FOR UPDATE`` on PostgreSQL; SQLite writers are serialised already), so
        two judge stations acting at once take turns instead of both playing."""
        query = select(GameRow).where(GameRow.tournament_id == tournament.id, GameRow.number == number)
        if lock:
            query = query.with_for_update().execution_options(populate_existing=True)
        game = session.scalar(query)
        if game is None:
            raise TournamentError(f"el torneo «{tournament.name}» no tiene partida {number}")
        return game

    def _round(self, session: Session, game: GameRow, number: int) -> RoundRow:
        row = session.scalar(select(RoundRow).where(RoundRow.game_id == game.id, RoundRow.number == number))
        if row is None:
            raise TournamentError(f"la partida {game.number} no tiene ronda {number}")
        return row

    def _latest_round_number(self, session: Session, game: GameRow) -> int:
        number = session.scalar(select(func.max(RoundRow.number)).where(RoundRow.game_id == game.id))
        if number is None:
            raise TournamentError(f"la partida {game.number} aún no tiene ninguna ronda")
        return number

    def _writable_game(self, session: Session, game_id: int) -> GameRow:
        """Inside a write: the game row, share-locked (a publication waits for this entry
        and vice versa), refused when final (III.26) — checked again in the write itself."""
        game = session.scalar(select(GameRow).where(GameRow.id == game_id).with_for_update(read=True)
                              .execution_options(populate_existing=True))
        assert game is not None
        self._check_unlocked(game)
        return game

    @staticmethod
    def _check_unlocked(game: GameRow) -> None:
        if game.status == GameStatus.FINAL.value:
            raise LockedGameError(f"la partida {game.number} tiene resultados definitivos: "
                                  "el juez árbitro debe reabrirla (con motivo) para cambiar algo")

    def _slip_context(self, game_number: int, table: int, round_number: int | None, tournament_id: int | None,
                      *, allow_closed: bool = False) -> _SlipContext:
        with self.db.read() as session:
            tournament = self._tournament(session, tournament_id)
            game = self._game(session, tournament, game_number)
            self._check_unlocked(game)
            number = round_number if round_number is not None else self._latest_round_number(session, game)
            row = self._round(session, game, number)
            if row.closed and not allow_closed:
                raise TournamentError(f"la ronda {number} está cerrada: solo el juez árbitro puede corregirla")
            seat = session.scalar(select(Seat).where(Seat.game_id == game.id, Seat.table_number == table))
            if seat is None:
                raise TournamentError(f"no hay ningún jugador en la mesa {table} en la partida {game.number}")
            lexicon = self.lexicon_for(tournament)
            settings = TournamentSettings.from_dict(tournament.settings)
            rack = parse_rack_text(row.rack, lexicon.alphabet)
            return _SlipContext(tournament.id, game.id, number, seat.entry_id, seat.entry.player.name, table,
                                _board(row.board_before, lexicon), rack, lexicon, settings.oriented_notation,
                                row.master, row.annulled)

    def _slip(self, session: Session, context: _SlipContext) -> Slip | None:
        return session.scalar(select(Slip).where(Slip.game_id == context.game_id,
                                                 Slip.round_number == context.round_number,
                                                 Slip.entry_id == context.entry_id))


    def _store(self, context: _SlipContext, text: str, verdict: SlipVerdict, assistant: str) -> EntryResult:
        with self.db.write() as session:
            self._writable_game(session, context.game_id)
            return self._store_in(session, context, text, verdict, assistant)

    def _store_in(self, session: Session, context: _SlipContext, text: str, verdict: SlipVerdict,
                  assistant: str) -> EntryResult:
        """Insert the slip, or record a repeat/conflict when the player already has one.

        The unique constraint on (game, round, entry) decides which of two stations
        entering the same player's slip at once comes first: the loser's insert fails
        inside a savepoint and its entry becomes a repeat or a conflict, in the same
        transaction (a batch goes on with its other slips)."""
        existing = self._slip(session, context)
        if existing is None:
            try:
                with session.begin_nested():
                    event = self._log(session, context.tournament_id, EventKind.SLIP_ENTERED,
                                      {"table": context.table, "entry": context.entry_id,
                                       **_verdict_payload(text, verdict, context)},
                                      game_id=context.game_id, round_number=context.round_number, arbiter=assistant)
                    slip = Slip(game_id=context.game_id, round_number=context.round_number,
                                entry_id=context.entry_id, table_number=context.table)
                    _fill_slip(slip, text, verdict, context, assistant or self.station, event.id)
                    session.add(slip)
                    session.flush()
                return EntryResult("accepted", verdict, context.table, context.player, context.round_number)
            except IntegrityError:
                # Another station's slip for this player was committed after our check.
                existing = self._slip(session, context)
                if existing is None:
                    raise
        if existing.text == text and existing.status == _stored(verdict, context)[0]:
            return EntryResult("repeated", verdict, context.table, context.player, context.round_number)
        mark = verdict.status.value if verdict.status in MARK_STATUSES else None
        conflict = self._conflict(session, context, text, assistant, ConflictKind.DUPLICATE, existing, mark)
        return EntryResult("conflict", verdict, context.table, context.player, context.round_number, conflict)

    def _conflict(self, session: Session, context: _SlipContext, text: str, assistant: str, kind: ConflictKind,
                  existing: Slip, mark: str | None = None) -> int:
        conflict = Conflict(game_id=context.game_id, round_number=context.round_number, entry_id=context.entry_id,
                            table_number=context.table, kind=kind.value, text=text, mark=mark,
                            entered_by=assistant or self.station, entered_at=_now())
        session.add(conflict)
        session.flush()
        self._log(session, context.tournament_id, EventKind.SLIP_CONFLICT,
                  {"conflict": conflict.id, "kind": kind.value, "table": context.table, "entry": context.entry_id,
                   "text": text, "mark": mark, "stored_text": existing.text, "stored_by": existing.entered_by},
                  game_id=context.game_id, round_number=context.round_number, arbiter=assistant)
        return conflict.id

    # --- export --------------------------------------------------------------------------------
    def export(self, tournament_id: int | None = None) -> dict[str, Any]:
        """The complete tournament record (format ``duplicada-tournament-1``,
        ``docs/tournament-record.md``): everything needed to recompute every result."""
        with self.db.read() as session:
            tournament = self._tournament(session, tournament_id)
            games = []
            for game in tournament.games:
                results = {result.number: result for result in self._round_results(session, tournament, game)}
                slips: dict[int, list[Slip]] = {}
                for slip in session.scalars(select(Slip).where(Slip.game_id == game.id)
                                            .order_by(Slip.round_number, Slip.table_number)):
                    slips.setdefault(slip.round_number, []).append(slip)
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
                        "slips": [{"player": slip.entry_id, "table": slip.table_number, "text": slip.text,
                                   "status": slip.status, "score": slip.score, "move": slip.move,
                                   "reason": slip.reason, "entered_by": slip.entered_by,
                                   "entered_at": _iso(slip.entered_at)} for slip in slips.get(row.number, [])],
                        "bonuses": {str(entry): points for entry, points in (result.bonuses if result else {}).items()
                                    if points},
                    })
                standings = self._game_standings(session, tournament, game)
                games.append({
                    "number": game.number, "planned_rounds": game.planned_rounds,
                    "seconds_per_round": game.seconds_per_round, "seed": game.seed, "status": game.status,
                    "end_reason": game.end_reason,
                    "tables": {str(seat.entry_id): seat.table_number for seat in game.seats},
                    "rounds": rounds,
                    "standings": [{"player": s.player, "position": s.position, "total": s.total,
                                   "bonus": s.bonus_total, "percentage": s.percentage} for s in standings],
                })
            overall = self._tournament_standings(session, tournament)
            events = session.scalars(select(Event).where(Event.tournament_id == tournament.id).order_by(Event.id))
            game_numbers = {game.id: game.number for game in tournament.games}
            return {
                "format": "duplicada-tournament-1",
                "exported_at": _now().isoformat(),
                "tournament": {"name": tournament.name, "venue": tournament.venue,
                               "start_date": _iso(tournament.start_date), "end_date": _iso(tournament.end_date),
                               "lexicon_hash": tournament.lexicon_hash,
                               "settings": {key: value for key, value in tournament.settings.items()
                                            if key != ACCESS_KEY}},
                "players": [{"id": entry.id, "name": entry.player.name, "club": entry.player.club,
                             "country": entry.player.country, "federation_id": entry.player.federation_id,
                             "status": entry.status} for entry in tournament.entries],
                "games": games,
                "standings": [{"player": s.player, "position": s.position, "value": s.value, "total": s.total}
                              for s in overall],
                "events": [{"id": event.id, "kind": event.kind, "game": game_numbers.get(event.game_id) if event.game_id is not None else None,
                            "round": event.round_number, "station": event.station, "arbiter": event.arbiter,
                            "reason": event.reason, "created_at": _iso(event.created_at), "payload": event.payload}
                           for event in events],
            }

    # --- additions for the setup and projection screens (issue 4) -----------------------------
    def update_player(self, entry_id: int, *, name: str | None = None, club: str | None = None,
                      country: str | None = None, federation_id: str | None = None, arbiter: str = "",
                      reason: str = "") -> None:
        """Correct the details of the player of entry ``entry_id`` (the arguments left at
        None are kept; an empty ``federation_id`` removes it). Logs ``player_updated``
        with the values before and after. Raises ``TournamentError`` for an unknown entry,
        an empty name or a federation id that belongs to another player."""
        with self.db.write() as session:
            entry = session.get(Entry, entry_id)
            if entry is None:
                raise TournamentError(f"no existe la inscripción {entry_id}")
            player = entry.player
            before = {"name": player.name, "club": player.club, "country": player.country,
                      "federation_id": player.federation_id}
            if name is not None:
                name = " ".join(name.split())
                if not name:
                    raise TournamentError("el jugador necesita un nombre")
                player.name = name
            if club is not None:
                player.club = club.strip()
            if country is not None:
                player.country = country.strip()
            if federation_id is not None:
                new_id = federation_id.strip() or None
                if new_id is not None and new_id != player.federation_id:
                    owner = session.scalar(select(Player).where(Player.federation_id == new_id))
                    if owner is not None:
                        raise TournamentError(f"el número de federación {new_id} ya es de {owner.name}")
                player.federation_id = new_id
            after = {"name": player.name, "club": player.club, "country": player.country,
                     "federation_id": player.federation_id}
            self._log(session, entry.tournament_id, EventKind.PLAYER_UPDATED,
                      {"entry": entry.id, "player": player.id, "before": before, "after": after},
                      arbiter=arbiter, reason=reason)

    def partial_standings(self, game_number: int, through_round: int,
                          tournament_id: int | None = None) -> list[GameStanding]:
        """The game standings counting only rounds 1..``through_round`` (the partial
        standings shown every ``partial_every`` rounds; FISE: every 3). Same ordering and
        tie-breaks as ``game_standings``; ``player`` is the entry id."""
        with self.db.read() as session:
            tournament = self._tournament(session, tournament_id)
            game = self._game(session, tournament, game_number)
            settings = TournamentSettings.from_dict(tournament.settings)
            results = [result for result in self._round_results(session, tournament, game)
                       if result.number <= through_round]
            return game_standings([seat.entry_id for seat in game.seats], results, tie_breaks=settings.tie_breaks)


@dataclass(frozen=True)
class _SlipContext:
    tournament_id: int
    game_id: int
    round_number: int
    entry_id: int
    player: str
    table: int
    board: Board
    rack: list[int]
    lexicon: Lexicon
    oriented: bool
    master: str | None
    annulled: bool


def _board(cgp: str, lexicon: Lexicon) -> Board:
    return Board.from_cgp(cgp, lexicon.alphabet)


def _stored(verdict: SlipVerdict, context: _SlipContext | None) -> tuple[str, int, str]:
    """``(status, score, reason)`` to store: a valid move equal to an annulled master
    scores 0 (III.29)."""
    if (context is not None and context.annulled and verdict.status is SlipStatus.VALID
            and verdict.canonical == context.master):
        return ANNULLED, 0, "jugada maestra anulada (III.29)"
    return verdict.status.value, verdict.score, verdict.reason


def _verdict_payload(text: str, verdict: SlipVerdict, context: _SlipContext | None) -> dict[str, Any]:
    status, score, reason = _stored(verdict, context)
    return {"text": text, "status": status, "score": score, "move": verdict.canonical, "reason": reason}


def _slip_payload(slip: Slip) -> dict[str, Any]:
    return {"text": slip.text, "status": slip.status, "score": slip.score, "move": slip.move, "reason": slip.reason,
            "entered_by": slip.entered_by}


def _fill_slip(slip: Slip, text: str, verdict: SlipVerdict, context: _SlipContext | None, who: str,
               event_id: int) -> None:
    slip.text = text
    slip.move = verdict.canonical
    slip.status, slip.score, slip.reason = _stored(verdict, context)
    slip.hint = verdict.hint
    slip.entered_by = who
    slip.entered_at = _now()
    slip.event_id = event_id


def _round_row(game: GameRow, pending: PendingRound, board_before: str, engine: Game) -> RoundRow:
    # Every equal top is stored (the record and its checker need them all); the III.15
    # reasons only for the first ones, which are what a judge reads.
    tops = [[format_move(ranked.move, engine.alphabet), ranked.score, ranked.reason if index < REASONS_KEPT else ""]
            for index, ranked in enumerate(pending.ranked)]
    return RoundRow(game_id=game.id, number=pending.number, rack=pending.rack.text,
                    leftover=engine.alphabet.format(pending.rack.leftover),
                    redraws=[{"rack": redraw.rack, "reason": redraw.reason} for redraw in pending.redraws],
                    arbiter_rack=pending.arbiter_rack, board_before=board_before,
                    top_score=pending.ranked[0].score if pending.ranked else 0, top_moves=tops,
                    move_count=pending.move_count, annulled=False, closed=False)


def _round_view(row: RoundRow) -> RoundView:
    return RoundView(row.number, row.rack, row.board_before, row.top_score,
                     tuple((top[0], top[1], top[2]) for top in row.top_moves), row.move_count, row.master,
                     row.master_score, row.cumulative, row.annulled, row.closed, tuple(row.redraws or ()),
                     row.leftover, row.master_reason)


def _apply(engine: Game, event: Event) -> None:
    """Replay one game event through the engine; a mismatch means a corrupt history."""
    payload = event.payload
    if event.kind == EventKind.RACK_DRAWN.value:
        pending = engine.draw()
        if pending is None or pending.rack.text != payload["rack"]:
            raise TournamentError(f"historial incoherente: el evento {event.id} sacó {payload['rack']}, "
                                  f"la repetición da {pending.rack.text if pending else 'fin de partida'}")
    elif event.kind == EventKind.RACK_SET.value:
        engine.set_rack(payload["text"], redraw=payload.get("redraw", False))
    elif event.kind == EventKind.RACK_WITHDRAWN.value:
        engine.withdraw_rack()
    elif event.kind == EventKind.MASTER_CHOSEN.value:
        engine.play(parse_move(payload["master"], engine.alphabet))
    elif event.kind == EventKind.GAME_ENDED.value and not engine.over:
        engine.end(payload.get("reason"))


def _ratings(session: Session, entries: Sequence[Entry]) -> dict[int, int]:
    """EloDI ratings of the entries' players (``player id → rating``), those that have one."""
    from ranking.models import Rating

    players = [entry.player_id for entry in entries]
    if not players:
        return {}
    return dict(session.execute(select(Rating.player_id, Rating.rating).where(Rating.player_id.in_(players))).all())


def _collation_key(name: str) -> str:
    """Spanish alphabetical order, ignoring accents and case (Ñ after N)."""
    folded = []
    for char in name.casefold():
        if char == "ñ":
            folded.append("n\uffff")
            continue
        folded.append("".join(c for c in unicodedata.normalize("NFD", char) if not unicodedata.combining(c)))
    return "".join(folded)


def _read_csv(path: Path) -> list[tuple[int, dict[str, str]]]:
    """Rows of a CSV file with a header (UTF-8, with or without BOM; comma or semicolon)."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as error:
        raise TournamentError(f"no se puede leer {path}: {error}") from None
    try:
        dialect = csv.Sniffer().sniff(text.splitlines()[0] if text else "", delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    reader = csv.DictReader(text.splitlines(), dialect=dialect)
    if not reader.fieldnames:
        raise TournamentError(f"{path}: el archivo está vacío (se espera una fila de cabecera)")
    return [(index, row) for index, row in enumerate(reader, start=2)]

