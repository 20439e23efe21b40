"""What the task modules of the service share: the context and the look-ups over it."""

from __future__ import annotations

from collections.abc import Iterable
from contextlib import AbstractContextManager
from datetime import UTC, date, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import event, func, select
from sqlalchemy.orm import Session

from duplicate.bounds import DB_INT_MAX, NumberError, checked_int
from duplicate.csv_files import CsvFileError, read_csv_rows
from duplicate.record.event_kinds import EventKind, TournamentEvent
from duplicate.rules.slips import MARK_NAMES, SlipStatus, read_mark
from duplicate.rules.statuses import SLIP_ANNULLED, GameStatus
from duplicate.service.access import Action, Actor
from duplicate.service.context import (
    ENGINES_HANDED_OUT,
    LexiconOwner,
    OnContext,
    ServiceContext,
    engine_state,
    now,
    typed_text,
)
from duplicate.service.errors import (
    InconsistentHistory,
    InvalidFile,
    InvalidSlip,
    InvalidNumber,
    LockedGameError,
    NotFound,
)
from duplicate.service.settings import TournamentSettings
from duplicate.storage.models import Event, GameRow, RoundRow, Tournament

if TYPE_CHECKING:   # the compiled lexicon loads numpy: annotations only (issue 38)
    from duplicate.rules.game import Game
    from lexicon.lexicon import Lexicon

__all__ = ["ANNULLED", "MARK_STATUSES", "REASONS_KEPT", "ROLES", "TaskModule", "checked_mark"]

ANNULLED = SLIP_ANNULLED
"""Slip status of a move equal to a master found wrong later (III.29)."""


MARK_STATUSES = (SlipStatus.LATE, SlipStatus.NULL, SlipStatus.MISSING)


def checked_mark(status: SlipStatus | str) -> SlipStatus:
    """The mark ``status`` names: a ``SlipStatus`` among ``MARK_STATUSES`` or a word of
    ``duplicate.rules.slips.MARK_WORDS`` («tarde», «nula», «no-entregada», «falta»; the codes
    ``late``/``null``/``missing`` too). ``InvalidSlip`` (Spanish) for anything else."""
    mark = status if isinstance(status, SlipStatus) else read_mark(str(status))
    if mark not in MARK_STATUSES:
        expected = ", ".join(MARK_NAMES.values())
        raise InvalidSlip(f"marca «{status}» no válida: se espera {expected}", what="la marca", value=str(status))
    return mark


ROLES = ("judge", "assistant")
"""Station roles (issue 4 §3): the judge does everything, an assistant enters slips."""


REASONS_KEPT = 100
"""Equal tops of a round whose III.15 reason is stored with the round."""


_now = now


def _iso(moment: datetime | date | None) -> str | None:
    """``moment`` as the record writes it: a date as ``YYYY-MM-DD``; a moment as ISO 8601 in
    UTC with its offset (SQLite returns the stored times without a zone, PostgreSQL with
    one: both are UTC, and the record reads the same from either); None stays None."""
    if isinstance(moment, datetime):
        return (moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)).isoformat()
    return moment.isoformat() if moment is not None else None


def _read_csv(path: Path) -> list[tuple[int, dict[str, str]]]:
    """Rows of a players' or slips' CSV file (``duplicate.csv_files.read_csv_rows``);
    ``TournamentError`` naming the file and the line when it cannot be read."""
    try:
        return read_csv_rows(path)
    except CsvFileError as error:
        raise InvalidFile(str(error), path=path, line=error.line or None) from error


class TaskModule(OnContext):
    """What every task module of the service (registration, seating, rounds, slip entry,
    corrections, results, record, standings) is built on: the shared ``ServiceContext``
    (sessions, credential, event log, lexicons, engine cache) and the look-ups they all use
    over it. Modules never inherit from one another: one that needs another's work is given
    that module (composition), and the façade ``TournamentService`` hands each call to its
    module. Every method that changes the record checks first what the credential may do
    (``access.authorise``) and refuses with ``NotAuthorised`` or ``CredentialRefused``,
    changing nothing.
    """

    def __init__(self, context: ServiceContext) -> None:
        self.context = context

    def _authorise(self, session: Session, tournament_id: int, action: Action, *,
                   tables: Iterable[int] = (), game_id: int | None = None, entries: Iterable[int] = (),
                   venues: Iterable[str | None] = ()) -> Actor:
        return self.context.authorise(session, tournament_id, action, tables=tables, game_id=game_id,
                                      entries=entries, venues=venues)

    def _write(self) -> AbstractContextManager[Session]:
        return self.context.write()

    def _read(self) -> AbstractContextManager[Session]:
        return self.context.read()

    def lexicon_for(self, tournament: LexiconOwner) -> Lexicon:
        """The lexicon of ``tournament`` (``ServiceContext.lexicon_for``); ``TournamentError``
        if none available has its hash."""
        return self.context.lexicon_for(tournament)

    def _default_lexicon(self) -> Lexicon:
        return self.context.default_lexicon()

    @staticmethod
    def _typed(text: str, what: str, limit: int, *, lines: bool = False) -> str:
        return typed_text(text, what, limit, lines=lines)

    def _log(self, session: Session, tournament_id: int, typed: TournamentEvent, *,
             actor: Actor, game_id: int | None = None, round_number: int | None = None,
             reason: str = "") -> Event:
        return self.context.log(session, tournament_id, typed, actor=actor, game_id=game_id,
                                round_number=round_number, reason=reason)

    @staticmethod
    def _number(value: object, what: str, *, minimum: int = 1, maximum: int = DB_INT_MAX) -> int:
        """``value`` when it is a whole number from ``minimum`` to ``maximum`` (default: what
        an ``INTEGER`` column holds, ``duplicate.bounds``); ``TournamentError`` naming
        ``what`` otherwise, before any query (PostgreSQL refuses 2³¹, SQLite 2⁶³)."""
        try:
            return checked_int(value, what, minimum=minimum, maximum=maximum)
        except NumberError as error:
            raise InvalidNumber(str(error), what=what, value=value) from error

    def _tournament(self, session: Session, tournament_id: int | None) -> Tournament:
        return self.context.tournament(session, tournament_id)

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
            raise NotFound(f"el torneo «{tournament.name}» no tiene partida {number}", what="partida", key=number)
        return game

    def _round(self, session: Session, game: GameRow, number: int) -> RoundRow:
        self._number(number, "el número de ronda")
        row = session.scalar(select(RoundRow).where(RoundRow.game_id == game.id, RoundRow.number == number))
        if row is None:
            raise NotFound(f"la partida {game.number} no tiene ronda {number}", what="ronda", key=number)
        return row

    def _latest_round_number(self, session: Session, game: GameRow) -> int:
        number = session.scalar(select(func.max(RoundRow.number)).where(RoundRow.game_id == game.id))
        if number is None:
            raise NotFound(f"la partida {game.number} aún no tiene ninguna ronda", what="ronda", key=None)
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
        """``LockedGameError`` when ``game``'s results are final (III.26, IV.32); its message
        says whether the tournament admits reopening it (``corrections_after_final``)."""
        if game.status == GameStatus.FINAL.value:
            if TournamentSettings.from_dict(game.tournament.settings).corrections_after_final:
                then = "el juez árbitro debe reabrirla (con motivo) para cambiar algo"
            else:
                then = ("no pueden modificarse (IV.32) y el torneo no admite correcciones tras los resultados "
                        "definitivos")
            raise LockedGameError(f"la partida {game.number} tiene resultados definitivos: {then}", game=game.number)

    def _engine(self, session: Session, tournament: Tournament, game: GameRow) -> Game:
        """The game's engine, replayed from the log (cached by the last event applied).
        In a write, the action may play on it and then append the events that say so:
        unless the write commits, the cache forgets it if it changed (``ServiceContext.write``)."""
        with self.context.engine_lock:
            engine = self._replay(session, tournament, game)
            handed_out = session.info.get(ENGINES_HANDED_OUT)
            if handed_out is not None and game.id not in handed_out:
                handed_out[game.id] = engine_state(engine)
            return engine

    def _replay(self, session: Session, tournament: Tournament, game: GameRow) -> Game:
        # The engine and its replay are loaded by a command that plays, not by a reading one (issue 38).
        from duplicate.rules.game import Game
        from duplicate.rules.game_record import GameError
        from duplicate.rules.notation import SlipError
        from duplicate.rules.rack import RackError
        from duplicate.service.replay import _apply

        cached = self.context.games.get(game.id)
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
                self.context.games.pop(game.id, None)
                raise InconsistentHistory(f"historial incoherente de la partida {game.number} en el evento {event.id} "
                                      f"({event.kind}): {error}", event_id=event.id, game=game.number) from error
            last = event.id
        self.context.games[game.id] = (last, engine)
        return engine
