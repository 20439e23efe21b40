"""The shared base of the service: sessions, the event log, look-ups, the engine cache."""

from __future__ import annotations

import copy
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any, Self

from sqlalchemy import event, func, select
from sqlalchemy.orm import Session

from duplicate.bounds import DB_INT_MAX, NumberError, checked_int
from duplicate.csv_files import CsvFileError, read_csv_rows
from duplicate.game import Game, GameError
from duplicate.notation import SlipError
from duplicate.rack import RackError
from duplicate.service.access import (
    VIEWER,
    Action,
    Actor,
    Role,
    authorise,
)
from duplicate.service.errors import CredentialRefused, LockedGameError, StorageUnavailable, TournamentError
from duplicate.service.events import EventKind, TournamentEvent
from duplicate.service import lockout
from duplicate.service.lockout import SOURCE_MAX, WrongPin, check_pin, count_late_failure, station_source
from duplicate.service.replay import _apply
from duplicate.service.views import (
    EventView,
    TournamentInfo,
    view_of,
)
from duplicate.slips import SlipStatus
from duplicate.storage.database import Database, DatabaseUnavailable
from duplicate.storage.models import (
    AssistantRange,
    Credential,
    Event,
    GameRow,
    GameStatus,
    RoundRow,
    Tournament,
    find_tournament,
)
from duplicate.texts import PERSON_MAX, REASON_MAX, TextError, checked_text
from lexicon.default import default_lexicon_path, earlier_default_path
from lexicon.lexicon import Lexicon, LexiconError

ANNULLED = "annulled"
"""Slip status of a move equal to a master found wrong later (III.29)."""


MARK_STATUSES = (SlipStatus.LATE, SlipStatus.NULL, SlipStatus.MISSING)


ROLES = ("judge", "assistant")
"""Station roles (issue 4 §3): the judge does everything, an assistant enters slips."""


REASONS_KEPT = 100
"""Equal tops of a round whose III.15 reason is stored with the round."""


ACCESS_KEY = "access"
"""Key of the tournament settings holding the hashed PINs (never exported)."""


_CHANGED = "changed"
"""Key of ``Session.info`` set once the session has flushed a change (``_note_flush``)."""


def _note_flush(session: Session, _context: object) -> None:
    session.info[_CHANGED] = True


@dataclass(frozen=True)
class ServiceHooks:
    """What higher layers do after the service's decisions, wired at start-up
    (``ranking.service.tournament_service``), so ``duplicate`` never imports them.

    ``ratings(player_ids)``: the EloDI ratings of those players (II.6 seating by rating);
    ``results_final(tournament_id, game_number)``: called once after a game's results
    become final (EloDI update, V); ``results_reopened(tournament_id, game_number)``:
    called after final results are reopened (EloDI recomputation is due);
    ``game_ratings(tournament_id, game_number)``: the EloDI changes of a rated game, for
    the published sheets (objects with ``name``, ``player_id``, ``rating_before``,
    ``change``, ``rating_after``, ``target_position``, ``actual_position``, ``phase``;
    raises ``ValueError`` for a game not rated).
    """

    ratings: Callable[[Sequence[int]], dict[int, int]] | None = None
    results_final: Callable[[int, int], None] | None = None
    results_reopened: Callable[[int, int], None] | None = None
    game_ratings: Callable[[int, int], Sequence[Any]] | None = None


def _now() -> datetime:
    return datetime.now(UTC)


def _iso(moment: datetime | date | None) -> str | None:
    return moment.isoformat() if moment is not None else None


def _read_csv(path: Path) -> list[tuple[int, dict[str, str]]]:
    """Rows of a players' or slips' CSV file (``duplicate.csv_files.read_csv_rows``);
    ``TournamentError`` naming the file and the line when it cannot be read."""
    try:
        return read_csv_rows(path)
    except CsvFileError as error:
        raise TournamentError(str(error)) from None


class ServiceBase:
    """All actions on the tournaments of one database, as one station with one credential.

    ``station``: the name of this terminal (recorded with every event); ``lexicon``: the
    lexicon to judge with (default: each tournament's own, else the built-in default);
    ``pin``: the station's credential (the judge's or an assistant's PIN), ``None`` for a
    read-only station; ``hooks``: what higher layers do after a decision (EloDI,
    ``ServiceHooks``); ``source``: where this handle's sign-in attempts come from, the key
    wrong PINs are counted against (``lockout``; default: the station's name; under
    ``serve``, the browser's address). Methods take a tournament id where it matters (``None``: the most
    recently created one) and game numbers within it. Every method that changes the record
    checks first what the credential may do (``access.authorise``) and refuses with
    ``NotAuthorised`` or ``CredentialRefused``, changing nothing.
    """

    def __init__(self, database: Database, *, station: str = "principal", lexicon: Lexicon | None = None,
                 pin: str | None = None, hooks: ServiceHooks | None = None, source: str | None = None) -> None:
        self.db = database
        self.station = self._typed(station, "el nombre del puesto", PERSON_MAX)   # stored with every event
        # Where this handle's sign-in attempts come from (lockout): given by the front end
        # (the browser's address under «serve»), else the station's name.
        self.source = (self._typed(source, "el origen del puesto", SOURCE_MAX) if source is not None
                       else station_source(self.station))
        self.hooks = hooks or ServiceHooks()
        self._pin = pin
        self._lexicon = lexicon
        self._lexicons: dict[str, Lexicon] = {}
        self._games: dict[int, tuple[int, Game]] = {}
        # The cached engines are shared by the threads of one process (the app's workers):
        # replaying events into them and playing on them happen under this lock.
        self._engine_lock = threading.RLock()
        # tournament id -> digest of this handle's PIN with that tournament's salt
        self._digests: dict[int, str] = {}

    def with_pin(self, pin: str | None) -> Self:
        """The same service (database, station, caches, hooks) acting with ``pin``."""
        other = copy.copy(self)
        other._pin = pin
        other._digests = {}
        return other

    @property
    def has_credential(self) -> bool:
        """True when this handle carries a PIN (it may still be refused)."""
        return self._pin is not None

    # --- who is acting (issue 12 §1) -------------------------------------------------
    def sign_in(self, tournament_id: int | None = None) -> Actor:
        """Check this handle's PIN against the tournament's credentials and return who it
        is; raises ``CredentialRefused`` (wrong PIN, or locked after too many wrong tries,
        with the seconds to wait). The anonymous handle signs in as ``VIEWER``."""
        with self._write() as session:
            tournament = self._tournament(session, tournament_id)
            return self._actor(session, tournament.id)

    def _actor(self, session: Session, tournament_id: int) -> Actor:
        if self._pin is None:
            return VIEWER
        credential = None
        digest = self._digests.get(tournament_id)
        if digest is not None:          # checked before by this handle: no new attempt
            credential = session.scalar(select(Credential).where(Credential.tournament_id == tournament_id,
                                                                 Credential.digest == digest))
        if credential is None:          # a new attempt, counted where it comes from (lockout)
            self._digests.pop(tournament_id, None)
            clean = not (session.new or session.dirty or session.deleted or session.info.get(_CHANGED))
            credential, digest = check_pin(session, tournament_id, self._pin, self.source, clean=clean)
            self._digests[tournament_id] = digest
        tables = None
        if credential.role == Role.ASSISTANT.value:
            span = session.execute(select(AssistantRange.first_table, AssistantRange.last_table).where(
                AssistantRange.tournament_id == tournament_id, AssistantRange.assistant == credential.name)).first()
            tables = (span[0], span[1]) if span is not None else None
        return Actor(Role(credential.role), credential.name, tournament_id, tables)

    def _authorise(self, session: Session, tournament_id: int, action: Action, *,
                   tables: Iterable[int] = ()) -> Actor:
        """Who is acting, if its role may do ``action`` on ``tables``; raises
        ``NotAuthorised`` or ``CredentialRefused`` otherwise (II.4)."""
        actor = self._actor(session, tournament_id)
        authorise(actor, action, tables=tables)
        return actor

    @contextmanager
    def _write(self) -> Iterator[Session]:
        """``Database.write`` that also counts a wrong PIN and locks its source after too
        many (``lockout``): in the action's own transaction, committed with nothing else,
        when the PIN was checked before anything changed; else after the rollback."""
        refused: CredentialRefused | None = None
        try:
            with self.db.write() as session:
                event.listen(session, "after_flush", _note_flush)
                try:
                    yield session
                except WrongPin as wrong:
                    if not wrong.counted:
                        raise
                    refused = wrong.refusal()          # the count is committed, nothing else
        except DatabaseUnavailable as error:
            raise StorageUnavailable(str(error)) from None
        except WrongPin as wrong:
            with self.db.write() as session:
                wait = count_late_failure(session, wrong.tournament_id, self.source, lockout.now())
            refused = wrong.refusal(wait)
        if refused is not None:
            raise refused

    @contextmanager
    def _read(self) -> Iterator[Session]:
        """``Database.read``, a database that stops answering reported as ``StorageUnavailable``."""
        try:
            with self.db.read() as session:
                yield session
        except DatabaseUnavailable as error:
            raise StorageUnavailable(str(error)) from None

    def lexicon_for(self, tournament: Tournament | TournamentInfo) -> Lexicon:
        """The lexicon of ``tournament``: the one given to the service, the file it was created
        with, or the shipped default — the current one or an earlier one with the recorded hash
        (``lexicon.default.EARLIER_DEFAULTS``). Raises ``TournamentError`` if none has its hash."""
        if tournament.lexicon_hash in self._lexicons:
            return self._lexicons[tournament.lexicon_hash]
        candidates: list[Lexicon] = []
        if self._lexicon is not None:
            candidates.append(self._lexicon)
        try:
            if tournament.lexicon_path and Path(tournament.lexicon_path).exists():
                candidates.append(Lexicon.load(Path(tournament.lexicon_path)))
            earlier = earlier_default_path(tournament.lexicon_hash)   # made with an earlier default (issue 15)
            if earlier is not None:
                candidates.append(Lexicon.load(earlier))
            if not candidates:
                candidates.append(Lexicon.load(default_lexicon_path(None)))
        except LexiconError as error:      # a damaged or altered lexicon file: refused, said why
            raise TournamentError(f"el léxico del torneo «{tournament.name}» no se puede usar: {error}") from None
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

    @staticmethod
    def _typed(text: str, what: str, limit: int, *, lines: bool = False) -> str:
        """``text`` as typed, checked once where it enters (``duplicate.texts``): NFC, no
        control characters, digits 0–9, at most ``limit`` characters; ``TournamentError``
        (Spanish, naming ``what``) otherwise, before anything is judged or stored."""
        try:
            return checked_text(text, what, limit=limit, lines=lines)
        except TextError as error:
            raise TournamentError(str(error)) from None

    def _log(self, session: Session, tournament_id: int, typed: TournamentEvent, *,
             actor: Actor, game_id: int | None = None, round_number: int | None = None,
             reason: str = "") -> Event:
        """Append one typed event to the log, recording who acted (the credential's name
        and role), from which station, when and why."""
        reason = self._typed(reason, "el motivo", REASON_MAX, lines=True)
        event = Event(tournament_id=tournament_id, game_id=game_id, round_number=round_number,
                      kind=typed.KIND.value, payload=typed.payload(), station=self.station, arbiter=actor.name, role=actor.role.value,
                      reason=reason, created_at=_now())
        session.add(event)
        session.flush()
        return event

    def history(self, tournament_id: int | None = None, game_number: int | None = None) -> list[EventView]:
        """The event log, oldest first (one game's when ``game_number`` is given)."""
        with self._read() as session:
            tournament = self._tournament(session, tournament_id)
            query = select(Event).where(Event.tournament_id == tournament.id)
            if game_number is not None:
                game = self._game(session, tournament, game_number)
                query = query.where(Event.game_id == game.id)
            return [view_of(EventView, event) for event in session.scalars(query.order_by(Event.id))]

    def last_event_id(self, tournament_id: int | None = None) -> int:
        """Id of the newest event of the tournament (0 if none): a station polls it to see
        other stations' changes (issue 4 §3)."""
        with self._read() as session:
            tournament = self._tournament(session, tournament_id)
            return session.scalar(select(func.max(Event.id)).where(Event.tournament_id == tournament.id)) or 0

    @staticmethod
    def _number(value: object, what: str, *, minimum: int = 1, maximum: int = DB_INT_MAX) -> int:
        """``value`` when it is a whole number from ``minimum`` to ``maximum`` (default: what
        an ``INTEGER`` column holds, ``duplicate.bounds``); ``TournamentError`` naming
        ``what`` otherwise, before any query (PostgreSQL refuses 2³¹, SQLite 2⁶³)."""
        try:
            return checked_int(value, what, minimum=minimum, maximum=maximum)
        except NumberError as error:
            raise TournamentError(str(error)) from None

    def _tournament(self, session: Session, tournament_id: int | None) -> Tournament:
        if tournament_id is not None:
            self._number(tournament_id, "el torneo")
        tournament = find_tournament(session, tournament_id)
        if tournament is None:
            raise TournamentError("no hay ningún torneo en la base de datos: créelo con «duplicada tournament create»"
                                  if tournament_id is None else f"no existe el torneo {tournament_id}")
        return tournament

    def _game(self, session: Session, tournament: Tournament, number: int, *, lock: bool = False) -> GameRow:
        """The game ``number``; with ``lock`` its row is locked for the transaction
        (``SELECT … FOR UPDATE`` on PostgreSQL; SQLite writers are serialised already), so
        two judge stations acting at once take turns instead of both playing."""
        self._number(number, "el número de partida")
        query = select(GameRow).where(GameRow.tournament_id == tournament.id, GameRow.number == number)
        if lock:
            query = query.with_for_update().execution_options(populate_existing=True)
        game = session.scalar(query)
        if game is None:
            raise TournamentError(f"el torneo «{tournament.name}» no tiene partida {number}")
        return game

    def _round(self, session: Session, game: GameRow, number: int) -> RoundRow:
        self._number(number, "el número de ronda")
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

    def _engine(self, session: Session, tournament: Tournament, game: GameRow) -> Game:
        with self._engine_lock:
            return self._replay(session, tournament, game)

    def _replay(self, session: Session, tournament: Tournament, game: GameRow) -> Game:
        cached = self._games.get(game.id)
        kinds = (EventKind.RACK_DRAWN.value, EventKind.RACK_SET.value, EventKind.RACK_WITHDRAWN.value,
                 EventKind.MASTER_CHOSEN.value, EventKind.MASTER_UNDONE.value, EventKind.GAME_ENDED.value)
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
