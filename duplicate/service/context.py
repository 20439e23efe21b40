"""The context every task module of the service shares: one database, one station, one
credential, one event log (architecture.md, "No side doors").

``ServiceContext`` is the public interface through which the duplicate service's modules,
the classic-event service (``ranking.classic.service``) and the EloDI service
(``ranking.ratings``) open transactions, find out who is acting, check what the credential
may do (``access.authorise``) and append typed events. No module reads another's private
fields: a service built on another's context acts with the same credential, and the
digests it has checked are shared (scrypt is slow on purpose).
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from sqlalchemy import event, select
from sqlalchemy.orm import Session

from duplicate.bounds import DB_INT_MAX, NumberError, checked_int
from duplicate.record.event_kinds import TournamentEvent
from duplicate.service import lockout
from duplicate.service.access import (
    VIEWER,
    Action,
    Actor,
    Role,
    authorise,
    permits,
    pin_digest,
)
from duplicate.service.errors import (
    ConcurrentChange,
    CredentialRefused,
    DamagedData,
    InvalidNumber,
    InvalidText,
    LexiconUnavailable,
    NotFound,
    StorageUnavailable,
)
from duplicate.service.lockout import SOURCE_MAX, WrongPin, check_pin, count_late_failure, station_source
from duplicate.storage.database import Database, DatabaseConflict, DatabaseDamaged, DatabaseUnavailable
from duplicate.storage.event_chain import AppendedEvent, append_events
from duplicate.storage.models import (
    AssistantRange,
    Credential,
    Entry,
    Event,
    GameRow,
    Seat,
    Tournament,
    find_tournament,
)
from duplicate.texts import PERSON_MAX, REASON_MAX, TextError, checked_text
from lexicon.default import default_lexicon_path, earlier_default_path

if TYPE_CHECKING:   # the compiled lexicon loads numpy: imported where a lexicon is loaded (issue 38)
    from duplicate.rules.game import Game
    from lexicon.lexicon import Lexicon


def now() -> datetime:
    """The current moment (UTC), as events and rows record it."""
    return datetime.now(UTC)


ENGINES_HANDED_OUT = "engines"
"""Key of ``Session.info`` (write sessions): the games whose cached engine was handed out
in the transaction, game id → ``engine_state`` then (``ServiceContext.write``)."""


def engine_state(engine: Game) -> tuple[object, ...]:
    """What a judge's action changes in a game engine (masters placed, the rack in play,
    the bag, the end), to tell whether a write played on it."""
    pending = engine.pending
    return (len(engine.records), None if pending is None else (pending.number, pending.rack.text, pending.redraws),
            len(engine.bag), tuple(engine.leftover), engine.over)


CONCURRENT_CHANGE = ("otro puesto cambiaba lo mismo en ese momento y la base de datos ha deshecho esta acción: "
                     "no se ha guardado nada; vuelva a mirar la partida y repítala")
"""What ``ConcurrentChange`` says when the server rolled a write back for another station's."""

_CHANGED = "changed"
"""Key of ``Session.info`` set once the session has flushed a change (``_note_flush``)."""


def _note_flush(session: Session, _context: object) -> None:
    session.info[_CHANGED] = True


@dataclass(frozen=True)
class ServiceHooks:
    """What higher layers do after the service's decisions, wired at start-up
    (``ranking.service.tournament_service``), so ``duplicate`` never imports them.

    ``ratings(player_ids)``: the EloDI ratings of those players (II.6 seating by rating);
    ``results_final(context, tournament_id, game_number)``: called once after a game's
    results become final, with the acting context (the judge's credential that published),
    so the EloDI update is authorised and logged like any action (V);
    ``venue_imported(context, tournament_id)``: called once after a venue's record was
    imported (issue 27 §2), with the importing judge's context: a game already rated is
    rated again with the new import (EloDI's recomputation);
    ``game_ratings(tournament_id, game_number)``: the EloDI changes of a rated game, for
    the published sheets (objects with ``name``, ``player_id``, ``rating_before``,
    ``change``, ``rating_after``, ``target_position``, ``actual_position``, ``phase``;
    raises ``ValueError`` for a game not rated).

    A reopened game needs no hook: the EloDI service sees it as stale (its final
    publication changed) and its next final publication recomputes.
    """

    ratings: Callable[[Sequence[int]], dict[int, int]] | None = None
    results_final: Callable[[ServiceContext, int, int], None] | None = None
    venue_imported: Callable[[ServiceContext, int], None] | None = None
    game_ratings: Callable[[int, int], Sequence[Any]] | None = None


class LexiconOwner(Protocol):
    """What ``ServiceContext.lexicon_for`` reads of a tournament (a stored one, its view, or
    a record's)."""

    @property
    def name(self) -> str: ...

    @property
    def lexicon_hash(self) -> str: ...

    @property
    def lexicon_path(self) -> str | None: ...


class ServiceContext:
    """One station's handle on one database: what every task module receives.

    ``database``: the storage; ``station``: the name of this terminal (recorded with every
    event); ``lexicon``: the lexicon to judge with (default: each tournament's own, else
    the built-in default); ``pin``: the station's credential (``None``: read-only);
    ``hooks``: what higher layers do after a decision; ``source``: where this handle's
    sign-in attempts come from, the key wrong PINs are counted against (``lockout``;
    default: the station's name; under ``serve``, the browser's address). The caches (lexicons, the replayed
    game engines and their lock) are shared by every context made with ``with_pin``.
    """

    def __init__(self, database: Database, *, station: str = "principal", lexicon: Lexicon | None = None,
                 pin: str | None = None, hooks: ServiceHooks | None = None, source: str | None = None) -> None:
        self.db = database
        self.station = typed_text(station, "el nombre del puesto", PERSON_MAX)   # stored with every event
        # Where this handle's sign-in attempts come from (lockout): given by the front end
        # (the browser's address under «serve»), else the station's name.
        self.source = (typed_text(source, "el origen del puesto", SOURCE_MAX) if source is not None
                       else station_source(self.station))
        self.hooks = hooks or ServiceHooks()
        self.lexicon = lexicon
        self.lexicons: dict[str, Lexicon] = {}
        # One load of a lexicon at a time (the app's warm-up and a slip may both ask for
        # it): the second caller waits for the first's instead of loading it again.
        self._lexicon_lock = threading.Lock()
        self.games: dict[int, tuple[int, Game]] = {}
        """Replayed engines by game id: ``(last event id applied, engine)``."""
        # The cached engines are shared by the threads of one process (the app's workers):
        # replaying events into them and playing on them happen under this lock.
        self.engine_lock = threading.RLock()
        self._pin = pin
        # tournament id -> digest of this handle's PIN with that tournament's salt
        self._digests: dict[int, str] = {}
        # salt -> digest of this handle's PIN with it, derived before the write lock (issue 36 §1)
        self._salted: dict[str, str] = {}

    def with_pin(self, pin: str | None) -> ServiceContext:
        """The same context (database, station, caches, hooks) acting with ``pin``."""
        other = copy.copy(self)
        other._pin = pin
        other._digests = {}
        other._salted = {}
        return other

    @property
    def has_credential(self) -> bool:
        """True when this handle carries a PIN (it may still be refused)."""
        return self._pin is not None

    def pin_for_new_tournament(self) -> str | None:
        """This handle's PIN, to derive the judge's digest of a tournament it creates (its
        creator is its judge); never shown nor logged."""
        return self._pin

    def holds(self, pin: str | None) -> bool:
        """True when ``pin`` is this handle's own credential (compared, never shown)."""
        return pin is not None and self._pin is not None and pin == self._pin

    def remember(self, tournament_id: int, digest: str) -> None:
        """Keep ``digest`` as this handle's checked credential for ``tournament_id`` (the
        caller derived it from this handle's PIN, see ``holds``)."""
        self._digests[tournament_id] = digest

    def forget(self, tournament_id: int) -> None:
        """Drop the checked digest of ``tournament_id`` (the credential changed)."""
        self._digests.pop(tournament_id, None)

    def derive_ahead(self, tournament_id: int | None = None) -> None:
        """Derive this handle's PIN digest for ``tournament_id`` (``None``: the newest)
        before any write lock is taken (issue 36 §1): the scrypt key derivation (~50 ms at
        the production cost) then never runs while SQLite's write lock or PostgreSQL's
        sign-in row lock is held, where every other station would wait for it. Reads the
        tournament's salt in a short read transaction; does nothing without a PIN, for a
        tournament already signed in to, or when this handle's source is locked (its
        attempt will be refused before comparison, at no scrypt). Whatever it cannot read
        is left to the attempt itself, which derives the digest under the lock as before;
        so it raises nothing."""
        if self._pin is None or (tournament_id is not None and tournament_id in self._digests):
            return
        try:
            with self.db.read() as session:
                salt = lockout.salt_to_derive(session, tournament_id, self.source, lockout.now())
        except Exception:  # noqa: BLE001 - the attempt itself reports whatever this could not read
            return
        if salt is not None and salt not in self._salted:
            self._salted[salt] = pin_digest(self._pin, salt)

    def _digest_for(self, salt: str) -> str:
        """This handle's PIN digest with ``salt``: derived ahead (``derive_ahead``), else now."""
        if self._pin is None:
            raise ValueError("un puesto sin PIN no tiene resumen que comparar")
        digest = self._salted.get(salt)
        if digest is None:
            digest = self._salted[salt] = pin_digest(self._pin, salt)
        return digest

    # --- transactions -----------------------------------------------------------------------
    @contextmanager
    def write(self) -> Iterator[Session]:
        """``Database.write`` that also counts a wrong PIN and locks its source after too
        many (``lockout``): in the action's own transaction, committed with nothing else,
        when the PIN was checked before anything changed; else after the rollback. Raises
        ``StorageUnavailable`` when the database stops answering (``DamagedData`` when a
        stored value does not read back), ``ConcurrentChange`` when the server rolled the
        transaction back for another station's at the same moment, ``CredentialRefused``
        (``SignInLocked``) for a wrong PIN — above the tournament's ceiling only when its
        release slot comes, waited for here once every transaction has ended (issue 36 §1).

        The engine cache follows what is committed: an engine handed out in a write
        (``TaskModule._engine``) may have been played on before the transaction failed, so
        unless the write commits, the cache forgets the engines that changed (the next use
        replays the log)."""
        counted: lockout.Counted | None = None
        engines: dict[int, tuple[object, ...]] = {}
        if self._pin is not None and not self._digests and not self._salted:
            self.derive_ahead(None)        # a first action: the newest tournament's, outside the lock
        try:
            with self._engines_kept_if_committed(engines):
                with self.db.write() as session:
                    session.info[ENGINES_HANDED_OUT] = engines
                    event.listen(session, "after_flush", _note_flush)
                    try:
                        yield session
                    except WrongPin as wrong:
                        if wrong.outcome is None:
                            raise
                        counted = wrong.outcome            # the count is committed, nothing else
                if counted is None:
                    engines.clear()            # committed: the engines played on follow the log
        except DatabaseConflict as error:
            raise ConcurrentChange(CONCURRENT_CHANGE, state="rolled_back") from error
        except DatabaseDamaged as error:
            raise DamagedData(str(error)) from error
        except DatabaseUnavailable as error:
            raise StorageUnavailable(str(error)) from error
        except WrongPin as wrong:
            with self.db.write() as session:
                counted = count_late_failure(session, wrong.tournament_id, self.source, lockout.now())
        if counted is not None:
            if counted.release_at is not None:          # held: no transaction nor lock open here
                lockout.hold_answer(lockout.seconds_until(counted.release_at))
            raise WrongPin.refusal(counted)

    @contextmanager
    def _engines_kept_if_committed(self, engines: dict[int, tuple[object, ...]]) -> Iterator[None]:
        """When the block ends, forget the cached engines of the games left in ``engines``
        (those of a write that did not commit: ``write`` empties it on commit) whose state
        is no longer the one recorded there."""
        try:
            yield
        finally:
            if engines:
                with self.engine_lock:
                    for game_id, state in engines.items():
                        cached = self.games.get(game_id)
                        if cached is not None and engine_state(cached[1]) != state:
                            del self.games[game_id]

    @contextmanager
    def read(self) -> Iterator[Session]:
        """``Database.read``, a database that stops answering reported as ``StorageUnavailable``,
        a stored value that does not read back as ``DamagedData``."""
        try:
            with self.db.read() as session:
                yield session
        except DatabaseDamaged as error:
            raise DamagedData(str(error)) from error
        except DatabaseUnavailable as error:
            raise StorageUnavailable(str(error)) from error

    # --- who is acting (issue 12 §1) ------------------------------------------------------
    def actor(self, session: Session, tournament_id: int) -> Actor:
        """Who this handle's credential is in ``tournament_id`` (``VIEWER`` without one).
        Inside ``write``: a wrong PIN is counted and refused with ``CredentialRefused``."""
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
            credential, digest = check_pin(session, tournament_id, self._digest_for, self.source, clean=clean)
            self._digests[tournament_id] = digest
        tables = None
        if credential.role == Role.ASSISTANT.value:
            span = session.execute(select(AssistantRange.first_table, AssistantRange.last_table).where(
                AssistantRange.tournament_id == tournament_id, AssistantRange.assistant == credential.name)).first()
            tables = (span[0], span[1]) if span is not None else None
        return Actor(Role(credential.role), credential.name, tournament_id, tables, credential.venue)

    def authorise(self, session: Session, tournament_id: int, action: Action, *,
                  tables: Iterable[int] = (), game_id: int | None = None, entries: Iterable[int] = (),
                  venues: Iterable[str | None] = ()) -> Actor:
        """Who is acting, if its role may do ``action`` on ``tables`` (of the game
        ``game_id``), on the players of ``entries`` (entry ids) and in ``venues``; raises
        ``NotAuthorised`` or ``CredentialRefused`` otherwise (II.4). A venue's credential
        (issue 27 §2) may act only where every table's player and every entry is of its
        venue: tables without ``game_id`` cannot be placed, and are refused to it.

        Inside ``write`` the tournament's lock is then held to the end of the transaction
        (``Database.hold``; taken after the PIN's check, whose scrypt is slow on purpose):
        what the action reads from here on is what it commits on (issue 34 §1)."""
        actor = self.actor(session, tournament_id)
        self.db.hold(session, tournament_id)
        tables = list(tables)
        acted_on: list[str | None] = list(venues)
        if actor.venue is not None:
            acted_on.extend(self.venues_of(session, game_id, tables, entries))
        authorise(actor, action, tables=tables, venues=acted_on)
        return actor

    @staticmethod
    def venues_of(session: Session, game_id: int | None, tables: Iterable[int],
                  entries: Iterable[int] = ()) -> list[str | None]:
        """The online venue (``None``: the organiser's room, or nobody seated there, or no
        game to place the table in) of the player at each of ``tables`` in the game
        ``game_id``, then of each entry of ``entries`` (issue 27 §2)."""
        tables, entries = list(tables), list(entries)
        found: list[str | None] = []
        if tables:
            seated: dict[int, str | None] = {}
            if game_id is not None:
                seated = {table: venue for table, venue in session.execute(
                    select(Seat.table_number, Entry.venue).join(Entry, Seat.entry_id == Entry.id)
                    .where(Seat.game_id == game_id, Seat.table_number.in_(tables)))}
            found.extend(seated.get(table) for table in tables)
        if entries:
            known = {entry: venue for entry, venue in session.execute(
                select(Entry.id, Entry.venue).where(Entry.id.in_(entries)))}
            found.extend(known.get(entry) for entry in entries)
        return found

    def sign_in(self, tournament_id: int | None = None) -> Actor:
        """Check this handle's PIN against the tournament's credentials and return who it
        is; raises ``CredentialRefused`` (wrong PIN, or locked after too many wrong tries,
        with the seconds to wait). The anonymous handle signs in as ``VIEWER``."""
        self.derive_ahead(tournament_id)
        with self.write() as session:
            tournament = self.tournament(session, tournament_id)
            return self.actor(session, tournament.id)

    def may(self, action: Action | str, table: int | None = None, *, tournament_id: int | None = None,
            game_number: int | None = None) -> bool:
        """Whether this handle may do ``action`` (an ``Action`` or its code name) in the
        tournament (``None``: the newest), for ``table`` when the action is a table's
        (II.4.a, II.4.c): the same table ``access.authorise`` applies. For a venue's
        credential (issue 27 §2) the table is placed in the game ``game_number`` (default:
        the newest game of the tournament) and must be one of its venue's. A credential
        that opens nothing may do nothing (``False``; the failed sign-in is counted as any)."""
        action = Action(action)
        try:
            with self.write() as session:
                tournament = self.tournament(session, tournament_id)
                actor = self.actor(session, tournament.id)
                venue: str | None = None
                if actor.venue is not None and table is not None:
                    query = select(GameRow.id).where(GameRow.tournament_id == tournament.id)
                    query = (query.where(GameRow.number == game_number) if game_number is not None
                             else query.order_by(GameRow.number.desc()).limit(1))
                    venue = self.venues_of(session, session.scalar(query), [table])[0]
        except CredentialRefused:
            return False
        return permits(actor, action, table, venue)

    # --- the event log ----------------------------------------------------------------------
    def log(self, session: Session, tournament_id: int, typed: TournamentEvent, *,
            actor: Actor, game_id: int | None = None, round_number: int | None = None,
            reason: str = "") -> Event:
        """Append one typed event to the log, recording who acted (the credential's name
        and role), from which station, when and why (``reason``, checked as typed text)."""
        from duplicate.storage.projector import project     # loaded by a write alone (issue 38)

        reason = typed_text(reason, "el motivo", REASON_MAX, lines=True)
        event = self._event_row(tournament_id, typed, actor, game_id, round_number, reason, now())
        project(session, event, typed)        # stored, and the tables follow it (issue 34 §1)
        return event

    def log_all(self, session: Session, tournament_id: int, typed: Sequence[TournamentEvent], *,
                actor: Actor, game_id: int | None = None, round_number: int | None = None,
                reason: str = "") -> list[AppendedEvent]:
        """Append ``typed`` events in order, as ``log`` does one, all of the same game and
        round, stored at once (the hash chain extended once) before the projector applies
        each: a batch of slips (``slip_batch``), a round's missing slips and its close, or
        players (a players' import) stays one quick write. The events' ids are taken at
        once, under the tournament's lock (``Database.hold``), so the log's rows go in one
        statement rather than one each (issue 36 §4), without an object of the session per
        row (``event_chain.append_events``, issue 38): the rows are returned as
        ``AppendedEvent`` objects."""
        if not typed:
            return []
        from duplicate.storage.projector import next_ids, project_all     # loaded by a write alone (issue 38)

        reason = typed_text(reason, "el motivo", REASON_MAX, lines=True)
        moment = now()
        self.db.hold(session, tournament_id)
        events = [AppendedEvent(event_id, tournament_id, game_id, round_number, item.KIND.value, item.payload(),
                                self.station, actor.name, actor.role.value, reason, moment)
                  for event_id, item in zip(next_ids(session, Event, len(typed)), typed, strict=True)]
        append_events(session, tournament_id, events)
        project_all(session, zip(events, typed))
        return events

    def _event_row(self, tournament_id: int, typed: TournamentEvent, actor: Actor, game_id: int | None,
                   round_number: int | None, reason: str, moment: datetime) -> Event:
        """The ``events`` row of ``typed``: who acted, from this station, when and why."""
        return Event(tournament_id=tournament_id, game_id=game_id, round_number=round_number,
                     kind=typed.KIND.value, payload=typed.payload(), station=self.station, arbiter=actor.name,
                     role=actor.role.value, reason=reason, created_at=moment)

    # --- look-ups -------------------------------------------------------------------------
    @staticmethod
    def tournament(session: Session, tournament_id: int | None) -> Tournament:
        """The tournament ``tournament_id`` (``None``: the newest); ``TournamentError`` if none
        (or for an id no ``INTEGER`` column holds, ``duplicate.bounds``)."""
        if tournament_id is not None:
            try:
                checked_int(tournament_id, "el torneo", minimum=1, maximum=DB_INT_MAX)
            except NumberError as error:
                raise InvalidNumber(str(error), what="el torneo", value=tournament_id) from error
        tournament = find_tournament(session, tournament_id)
        if tournament is None:
            raise NotFound("no hay ningún torneo en la base de datos: créelo con «duplicada tournament create»"
                                  if tournament_id is None else f"no existe el torneo {tournament_id}",
                                  what="torneo", key=tournament_id)
        return tournament

    def lexicon_for(self, tournament: LexiconOwner) -> Lexicon:
        """The lexicon of ``tournament``: the one given to the service, the file it was created
        with, or the shipped default — the current one or an earlier one with the recorded hash
        (``lexicon.default.EARLIER_DEFAULTS``). Raises ``TournamentError`` if none has its hash."""
        if tournament.lexicon_hash in self.lexicons:
            return self.lexicons[tournament.lexicon_hash]
        with self._lexicon_lock:
            if tournament.lexicon_hash in self.lexicons:      # loaded meanwhile by another thread
                return self.lexicons[tournament.lexicon_hash]
            return self._load_lexicon(tournament)

    def _load_lexicon(self, tournament: LexiconOwner) -> Lexicon:
        """``lexicon_for`` once no loaded lexicon has the hash (under the lexicon lock)."""
        from lexicon.lexicon import Lexicon, LexiconError   # here: it loads numpy (issue 38)

        candidates: list[Lexicon] = []
        if self.lexicon is not None:
            candidates.append(self.lexicon)
        try:
            if tournament.lexicon_path and Path(tournament.lexicon_path).exists():
                candidates.append(Lexicon.load(Path(tournament.lexicon_path)))
            earlier = earlier_default_path(tournament.lexicon_hash)   # made with an earlier default (issue 15)
            if earlier is not None:
                candidates.append(Lexicon.load(earlier))
            if not candidates:
                candidates.append(Lexicon.load(default_lexicon_path(None)))
        except LexiconError as error:      # a damaged or altered lexicon file: refused, said why
            raise LexiconUnavailable(f"el léxico del torneo «{tournament.name}» no se puede usar: {error}",
                                     tournament=tournament.name, lexicon_hash=tournament.lexicon_hash) from error
        for lexicon in candidates:
            if lexicon.content_hash == tournament.lexicon_hash:
                self.lexicons[lexicon.content_hash] = lexicon
                return lexicon
        raise LexiconUnavailable(
            f"el torneo «{tournament.name}» se creó con el léxico {tournament.lexicon_hash[:12]}…, "
            f"que no es el disponible ({candidates[0].content_hash[:12]}…): indique el léxico del torneo con --lexicon",
            tournament=tournament.name, lexicon_hash=tournament.lexicon_hash)

    def default_lexicon(self) -> Lexicon:
        """The lexicon given to the service, else the shipped default."""
        if self.lexicon is not None:
            return self.lexicon
        from lexicon.lexicon import Lexicon   # here: it loads numpy (issue 38)

        return Lexicon.load(default_lexicon_path(None))


def typed_text(text: str, what: str, limit: int, *, lines: bool = False) -> str:
    """``text`` as typed, checked once where it enters (``duplicate.texts``): NFC, no
    control characters, digits 0–9, at most ``limit`` characters; ``TournamentError``
    (Spanish, naming ``what``) otherwise, before anything is judged or stored."""
    try:
        return checked_text(text, what, limit=limit, lines=lines)
    except TextError as error:
        raise InvalidText(str(error), what=what, value=text) from error


class OnContext:
    """What every service built on a ``ServiceContext`` shows of it: the database, the
    station's name and the hooks (the façade, the task modules, the classic and rating
    services alike). Subclasses set ``context``."""

    context: ServiceContext

    @property
    def db(self) -> Database:
        return self.context.db

    @property
    def station(self) -> str:
        return self.context.station

    @property
    def hooks(self) -> ServiceHooks:
        return self.context.hooks


class HasContext(Protocol):
    """Anything built on a ``ServiceContext`` (``TournamentService``, ``ClassicService``,
    ``RatingService``): another service can act with the same credential."""

    @property
    def context(self) -> ServiceContext: ...
