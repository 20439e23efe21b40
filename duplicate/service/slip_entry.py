"""Slip entry, one slip at a time (II.8, III.20, III.25): judged at once, marks, the master
for many tables, double entry, conflicts, and the stored slips and set-aside slips read
back. Batches and CSV imports are ``slip_batch``'s; what a slip is judged against and
how it is stored, ``slip_context``'s (``BoardWritten`` and ``BOARD_REFUSED`` are
re-exported here).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import fields

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from duplicate.record.event_kinds import EventKind
from duplicate.record.events import read_event
from duplicate.record.events_play import SlipsSetAside
from duplicate.record.events_slips import SlipChecked, SlipConflict, SlipEntered
from duplicate.rules.slips import SlipStatus, SlipVerdict, judge_slip, mark_verdict, read_mark
from duplicate.rules.statuses import ConflictKind
from duplicate.service.access import Action, Actor
from duplicate.service.base import MARK_STATUSES, TaskModule, checked_mark
from duplicate.service.errors import DamagedData, NotFound, RoundClosed, StateConflict
from duplicate.service.settings import TournamentSettings
from duplicate.service.slip_context import (
    SlipContext,
    board_canonical,
    rebased,
    round_version,
    same_slip,
    stored_board,
    stored_rack,
    verdict_payload,
)
from duplicate.service.views import (
    ConflictView,
    EntryResult,
    SetAsideSlipView,
    SlipView,
    view_of,
)
from duplicate.storage.models import Conflict, Entry, Event, GameRow, RoundRow, Seat, Slip, Tournament
from duplicate.storage.projector import next_id
from duplicate.texts import SLIP_MAX

__all__ = ["Decision", "SlipEntry"]

Decision = Callable[[SlipContext], tuple[str, SlipVerdict, str | None]]
"""How an action judges its slip against a round (``SlipContext``): the text to store, its
verdict and the board form as typed (``None``: not written on a board). Called once on
the round as read before the write transaction, and again inside it when the round
changed meanwhile (``SlipEntry.held_context``)."""


class SlipEntry(TaskModule):
    """Slip entry, one slip at a time: judged at once, marks, the master for many tables, double entry,
    conflicts (II.8, III.20, III.25)."""

    def enter_slip(self, game_number: int, table: int, text: str, *, round_number: int | None = None,
                   tournament_id: int | None = None, board: bool = False) -> EntryResult:
        """Judge and store the slip of the player at ``table`` (III.20, III.23, III.25).

        With ``board`` the ``text`` is a slip written on a paper board (II.8,
        III.20.1.c–d), in the board form of ``duplicate.rules.board_notation`` (``H8 → CASA``):
        the service lays it on the round's board, judges the canonical notation it gives
        and stores that as the slip's text, with the board form kept as typed (``board``
        of the slip, its event and the record). ``InvalidSlip`` when the tournament does
        not admit the board notation (II.8) or the form cannot be laid on the board.

        ``round_number`` defaults to the round open for slips: the newest round whose
        master has been placed (III.16: slips are typed once it is announced), as the app's
        entry screen does; ``TournamentError`` when there is none. The raw ``text`` is
        stored exactly as typed. A second, different slip for the same player and round
        is stored as a ``Conflict`` for the judge; the same text again changes nothing.
        A text that names a mark («tarde», «nula», «no entregada», «falta»:
        ``duplicate.rules.slips.read_mark``) is that mark, as ``mark_slip`` stores it.
        """
        text = self._typed(text, "la papeleta", SLIP_MAX)
        context = self.slip_context(game_number, table, round_number, tournament_id)
        mark = None if board else read_mark(text)
        if mark is not None:
            marked = mark_verdict(mark)
            return self._store(context, lambda _: (text, marked, None), Action.MARK_SLIP)

        def decide(context: SlipContext) -> tuple[str, SlipVerdict, str | None]:
            canonical = board_canonical(context, text) if board else text
            verdict = judge_slip(context.board, context.rack, canonical, context.lexicon, oriented=context.oriented)
            return canonical, verdict, text if board else None

        return self._store(context, decide, Action.ENTER_SLIP)

    def mark_slip(self, game_number: int, table: int, status: SlipStatus | str, *, text: str = "",
                  round_number: int | None = None, tournament_id: int | None = None) -> EntryResult:
        """Record a late, null or missing slip (III.13, III.20.4, III.25): 0 points.
        ``status``: a ``SlipStatus`` mark or its word («tarde», «nula», «no-entregada»;
        ``base.checked_mark``); ``InvalidSlip`` otherwise."""
        status = checked_mark(status)
        text = self._typed(text, "la papeleta", SLIP_MAX)
        context = self.slip_context(game_number, table, round_number, tournament_id)
        return self._store(context, lambda _: (text, mark_verdict(status, text), None), Action.MARK_SLIP)

    def enter_master_slips(self, game_number: int, tables: Iterable[int], *, round_number: int | None = None,
                           tournament_id: int | None = None) -> list[EntryResult]:
        """Enter the master's own text for every player in ``tables`` in one step, one
        transaction (issue 3 §3). The round is read again in that transaction: closed
        since, ``RoundClosed`` and nothing stored; its master changed, the new one is entered."""
        tables = list(dict.fromkeys(tables))
        contexts = [self.slip_context(game_number, table, round_number, tournament_id) for table in tables]
        if not contexts:
            return []
        master, verdict = self._master_verdict(contexts[0])
        results = []
        with self._write() as session:
            actor = self._authorise(session, contexts[0].tournament_id, Action.ENTER_SLIP, tables=tables,
                                    game_id=contexts[0].game_id)
            held = self.held_context(session, contexts[0])
            if held is not contexts[0]:
                contexts = [rebased(context, held) for context in contexts]
                master, verdict = self._master_verdict(held)
            for context in contexts:
                results.append(self.store_in(session, context, master, verdict, actor))
        return results

    @staticmethod
    def _master_verdict(context: SlipContext) -> tuple[str, SlipVerdict]:
        """The round's master and its verdict; ``StateConflict`` when it has none yet."""
        if context.master is None:
            raise StateConflict(f"la ronda {context.round_number} aún no tiene jugada maestra",
                                what=f"ronda {context.round_number}", state="no_master")
        return context.master, judge_slip(context.board, context.rack, context.master, context.lexicon,
                                          oriented=context.oriented)

    def double_check(self, game_number: int, table: int, text: str, *, round_number: int | None = None,
                     tournament_id: int | None = None, board: bool = False) -> EntryResult:
        """Double entry: a second assistant re-types a slip. A match is recorded as
        checked; a mismatch becomes a ``Conflict`` the judge resolves. ``board``: ``text``
        is a board form (II.8), compared by the canonical notation it gives (``enter_slip``)."""
        typed = self._typed(text, "la papeleta", SLIP_MAX)

        def decide(context: SlipContext) -> tuple[str, SlipVerdict, str | None]:
            text = board_canonical(context, typed) if board else typed
            mark = read_mark(text)
            return text, (mark_verdict(mark) if mark is not None else
                          judge_slip(context.board, context.rack, text, context.lexicon, oriented=context.oriented)), None

        read = self.slip_context(game_number, table, round_number, tournament_id)
        text, verdict, _ = decide(read)
        with self._write() as session:
            actor = self._authorise(session, read.tournament_id, Action.CHECK_SLIP, tables=[table],
                                    game_id=read.game_id)
            context = self.held_context(session, read)
            if context is not read:
                text, verdict, _ = decide(context)
            slip = self.slip_in(session, context)
            if slip is None:
                raise NotFound(f"mesa {table}, ronda {context.round_number}: no hay papeleta que comprobar",
                               what="papeleta", key=(table, context.round_number))
            same = same_slip(slip, text, verdict, context)
            if same:
                self._log(session, context.tournament_id, SlipChecked(table, context.entry_id, text), game_id=context.game_id,
                          round_number=context.round_number, actor=actor)
                return EntryResult("checked", verdict, table, context.player, context.round_number)
            conflict = self._conflict(session, context, text, actor, ConflictKind.DOUBLE_ENTRY, slip)
            return EntryResult("conflict", verdict, table, context.player, context.round_number, conflict)

    def conflicts(self, game_number: int, *, tournament_id: int | None = None,
                  unresolved: bool = True) -> list[tuple[ConflictView, SlipView | None]]:
        """Conflicts of a game with the slip they disagree with. A venue's credential
        (issue 27 §2) sees only its venue's (the conflicts of its players); the organiser's
        and a handle without a credential see every one."""
        with self._read() as session:
            tournament = self._tournament(session, tournament_id)
            game = self._game(session, tournament, game_number)
            query = select(Conflict).where(Conflict.game_id == game.id)
            venue = self.context.actor(session, tournament.id).venue
            if venue is not None:
                query = query.join(Entry, Entry.id == Conflict.entry_id).where(Entry.venue == venue)
            if unresolved:
                query = query.where(Conflict.resolution.is_(None))
            result = []
            for conflict in session.scalars(query.order_by(Conflict.id)):
                slip = session.scalar(select(Slip).where(Slip.game_id == game.id,
                                                         Slip.round_number == conflict.round_number,
                                                         Slip.entry_id == conflict.entry_id))
                result.append((view_of(ConflictView, conflict), view_of(SlipView, slip) if slip is not None else None))
            return result

    def slips(self, game_number: int, round_number: int | None = None, *,
              tournament_id: int | None = None) -> list[SlipView]:
        """Stored slips of a game (one round when given), by round and table."""
        with self._read() as session:
            tournament = self._tournament(session, tournament_id)
            game = self._game(session, tournament, game_number)
            # The view's columns only, no row objects: a game of 150 players has 3000 slips (issue 37).
            query = select(*(getattr(Slip, item.name) for item in fields(SlipView))).where(Slip.game_id == game.id)
            if round_number is not None:
                query = query.where(Slip.round_number == round_number)
            return [SlipView(*row) for row in session.execute(query.order_by(Slip.round_number, Slip.table_number))]

    def set_aside_slips(self, game_number: int, round_number: int | None = None, *,
                        tournament_id: int | None = None) -> list[SetAsideSlipView]:
        """The slips of a game (one round when given) set aside because their rack was
        withdrawn (III.29), read from the ``slips_set_aside`` events, oldest first, by
        table within each event. They count for nothing; the stations entered (or will
        enter) the round's slips again for the new rack."""
        with self._read() as session:
            tournament = self._tournament(session, tournament_id)
            game = self._game(session, tournament, game_number)
            query = select(Event).where(Event.game_id == game.id, Event.kind == EventKind.SLIPS_SET_ASIDE.value)
            if round_number is not None:
                query = query.where(Event.round_number == round_number)
            views = []
            for event in session.scalars(query.order_by(Event.id)):
                typed = read_event(event.kind, event.payload)
                assert isinstance(typed, SlipsSetAside)
                views += [SetAsideSlipView(typed.round, int(slip["table"]), int(slip["entry"]), str(slip["text"]),
                                           str(slip["status"]), int(slip["score"]), str(slip["entered_by"]),
                                           typed.rack, event.reason, event.id) for slip in typed.slips]
            return views

    def slip_context(self, game_number: int, table: int, round_number: int | None, tournament_id: int | None,
                     *, allow_closed: bool = False) -> SlipContext:
        """What the slip of ``table`` in the round ``round_number`` (default: the round open
        for slips, III.16) is judged against, read in a read transaction: to judge before
        writing. The write transaction checks it again (``held_context``). Raises
        ``LockedGameError`` for a final game, ``RoundClosed`` for a closed round (unless
        ``allow_closed``: a correction), ``NotFound`` for a game, round or table without one."""
        with self._read() as session:
            tournament = self._tournament(session, tournament_id)
            game = self._game(session, tournament, game_number)
            self._check_unlocked(game)
            number = round_number if round_number is not None else self._slip_round_number(session, game)
            row = self._round(session, game, number)
            if row.closed and not allow_closed:
                raise self._closed(game, number)
            return self._context_of(session, tournament, game, row, table)

    def held_context(self, session: Session, context: SlipContext, *, allow_closed: bool = False) -> SlipContext:
        """Inside the write transaction that stores what was judged against ``context``,
        once ``_authorise`` holds the tournament (``ServiceContext.authorise``; SQLite: the
        whole database since ``BEGIN IMMEDIATE``): the game and the round read again as
        they are now, the check that a station acting meanwhile (``round close``, a rack
        replaced, a master annulled) cannot slip past (issue 34 §1).

        Raises ``LockedGameError`` when the game became final (III.26), ``RoundClosed``
        (the Spanish message of ``slip_context``) when the round was closed, unless
        ``allow_closed``. Returns ``context`` itself when the round is as it was judged
        against (``round_version``), else the round's context read here: the caller judges
        again on it (a few milliseconds, inside the transaction)."""
        game = self._writable_game(session, context.game_id)
        row = session.scalar(select(RoundRow).where(RoundRow.game_id == context.game_id,
                                                    RoundRow.number == context.round_number)
                             .execution_options(populate_existing=True))
        if row is None:
            raise NotFound(f"la partida {game.number} no tiene ronda {context.round_number}", what="ronda",
                           key=context.round_number)
        if row.closed and not allow_closed:
            raise self._closed(game, context.round_number)
        if round_version(row) == context.version:
            return context
        tournament = session.get(Tournament, context.tournament_id, populate_existing=True)
        assert tournament is not None
        return self._context_of(session, tournament, game, row, context.table)

    @staticmethod
    def _closed(game: GameRow, number: int) -> RoundClosed:
        return RoundClosed(f"la ronda {number} está cerrada: solo el juez árbitro puede corregirla",
                           game=game.number, round=number)

    def _context_of(self, session: Session, tournament: Tournament, game: GameRow, row: RoundRow,
                    table: int) -> SlipContext:
        """The ``SlipContext`` of ``table`` in the round ``row``, read in ``session``."""
        seat = session.scalar(select(Seat).where(Seat.game_id == game.id,
                                                 Seat.table_number == self._number(table, "la mesa")))
        if seat is None:
            raise NotFound(f"no hay ningún jugador en la mesa {table} en la partida {game.number}",
                           what="mesa", key=table)
        lexicon = self.lexicon_for(tournament)
        settings = TournamentSettings.from_dict(tournament.settings)
        rack = stored_rack(row.rack, lexicon)
        if seat.entry is None or seat.entry.player is None:
            raise DamagedData(f"la mesa {table} está asignada a una inscripción que no existe: la base de datos "
                              "está dañada; restaure una copia")
        return SlipContext(tournament.id, game.id, row.number, seat.entry_id, seat.entry.player.name, table,
                           stored_board(row.board_before, lexicon), rack, lexicon, settings.oriented_notation,
                           row.master, row.annulled, settings.board_notation, round_version(row))

    @staticmethod
    def _slip_round_number(session: Session, game: GameRow) -> int:
        """The round open for slips: the newest with a master (III.16)."""
        number = session.scalar(select(func.max(RoundRow.number)).where(RoundRow.game_id == game.id,
                                                                        RoundRow.master.is_not(None)))
        if number is None:
            raise StateConflict(f"la partida {game.number} aún no tiene ninguna ronda con jugada maestra: "
                                  "las papeletas se anotan cuando se anuncia (III.16); indique la ronda si es otra",
                                  what=f"partida {game.number}", state="no_master")
        return number

    def slip_in(self, session: Session, context: SlipContext) -> Slip | None:
        return session.scalar(select(Slip).where(Slip.game_id == context.game_id,
                                                 Slip.round_number == context.round_number,
                                                 Slip.entry_id == context.entry_id))

    def _store(self, read: SlipContext, decide: Decision, action: Action) -> EntryResult:
        """Judge (``decide``) on the round as ``read``, then store in one write transaction
        that checks the round again (``held_context``): closed since, ``RoundClosed`` and
        nothing stored; changed since, judged again on the round as it is."""
        text, verdict, board = decide(read)
        with self._write() as session:
            actor = self._authorise(session, read.tournament_id, action, tables=[read.table], game_id=read.game_id)
            context = self.held_context(session, read)
            if context is not read:
                text, verdict, board = decide(context)
            return self.store_in(session, context, text, verdict, actor, board)

    def store_in(self, session: Session, context: SlipContext, text: str, verdict: SlipVerdict,
                 actor: Actor, board: str | None = None) -> EntryResult:
        """Log the slip (``SlipEntered``; the projector inserts its row), or record a
        repeat/conflict when the player already has one.

        The unique constraint on (game, round, entry) decides which of two stations
        entering the same player's slip at once comes first: the loser's event and the
        projector's insert of its slip fail inside a savepoint, and its entry becomes a
        repeat or a conflict, in the same transaction (a batch goes on with its other slips)."""
        existing = self.slip_in(session, context)
        if existing is None:
            entered = SlipEntered(context.table, context.entry_id, **verdict_payload(text, verdict, context, board),
                                  hint=verdict.hint)
            try:
                with session.begin_nested():
                    # The projector inserts the slip: the constraint fires there, in the savepoint.
                    self._log(session, context.tournament_id, entered, game_id=context.game_id,
                              round_number=context.round_number, actor=actor)
                return EntryResult("accepted", verdict, context.table, context.player, context.round_number)
            except IntegrityError:
                # Another station's slip for this player was committed after our check.
                existing = self.slip_in(session, context)
                if existing is None:
                    raise
        if same_slip(existing, text, verdict, context):
            return EntryResult("repeated", verdict, context.table, context.player, context.round_number)
        mark = verdict.status.value if verdict.status in MARK_STATUSES else None
        conflict = self._conflict(session, context, text, actor, ConflictKind.DUPLICATE, existing, mark)
        return EntryResult("conflict", verdict, context.table, context.player, context.round_number, conflict)

    def _conflict(self, session: Session, context: SlipContext, text: str, actor: Actor, kind: ConflictKind,
                  existing: Slip, mark: str | None = None) -> int:
        conflict = next_id(session, Conflict)
        self._log(session, context.tournament_id,
                  SlipConflict(conflict, kind.value, context.table, context.entry_id, text, mark, existing.text,
                               existing.entered_by),
                  game_id=context.game_id, round_number=context.round_number, actor=actor)
        return conflict
