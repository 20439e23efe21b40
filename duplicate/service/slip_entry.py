"""Slip entry: judged at once, marks, the master for many tables, import, double entry, conflicts (II.8, III.20, III.25)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from duplicate.board_notation import BoardNotationError, board_slip_notation
from duplicate.bounds import NumberError, whole_number
from duplicate.rack import RackError, parse_rack_text
from duplicate.service.access import Action, Actor
from duplicate.service.base import (
    ANNULLED,
    MARK_STATUSES,
    TaskModule,
    _now,
    _read_csv,
    checked_mark,
)
from duplicate.service.errors import DamagedData, InvalidFile, InvalidSlip, NotFound, RoundClosed, StateConflict, TournamentError
from duplicate.service.events import EventKind, SlipChecked, SlipConflict, SlipEntered, SlipsSetAside, read_event
from duplicate.service.settings import TournamentSettings
from duplicate.service.views import (
    ConflictView,
    EntryResult,
    SetAsideSlipView,
    SlipView,
    view_of,
)
from duplicate.slips import SlipStatus, SlipVerdict, judge_slip, mark_verdict, read_mark
from duplicate.storage.models import (
    Conflict,
    ConflictKind,
    Entry,
    Event,
    GameRow,
    Player,
    RoundRow,
    Seat,
    Slip,
)
from duplicate.texts import SLIP_MAX, shown
from lexicon.board import Board, BoardError
from lexicon.lexicon import Lexicon


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
    board_allowed: bool = False


@dataclass(frozen=True)
class BoardWritten:
    """A slip written on a paper board (II.8, III.20.1.c–d), in a batch of
    ``enter_slips``: ``text`` is the board form as typed (``duplicate.board_notation``)."""

    text: str


BOARD_REFUSED = ("la notación de tablero no está admitida en este torneo: II.8 solo admite notaciones "
                 "alternativas a la canónica si el organizador lo decide (ajuste «notación de tablero»); "
                 "anote la papeleta en notación canónica, p. ej. H8-CASA")
"""Why a board form is refused when the tournament does not admit it (II.8)."""


def board_canonical(context: _SlipContext, text: str, where: str = "") -> str:
    """The canonical notation of the board form ``text`` on the round's board (II.8,
    III.20.1.c–d; ``duplicate.board_notation``). Raises ``InvalidSlip`` (Spanish) when
    the tournament does not admit the board notation (II.8) or the form cannot be laid on
    the board; nothing is stored then."""
    prefix = f"{where}: " if where else ""
    if not context.board_allowed:
        raise InvalidSlip(prefix + BOARD_REFUSED, what=where or "la papeleta", value=text)
    try:
        return board_slip_notation(context.board, text)
    except BoardNotationError as error:
        raise InvalidSlip(f"{prefix}{error}", what=where or "la papeleta", value=text) from None


def _board(cgp: str, lexicon: Lexicon) -> Board:
    """A round's stored board; ``DamagedData`` when it does not read (the service stored a valid one)."""
    try:
        return Board.from_cgp(cgp, lexicon.alphabet)
    except (BoardError, TypeError) as error:
        raise DamagedData(f"el tablero guardado de una ronda no se lee ({error}): la base de datos está dañada; "
                          "restaure una copia") from None


def _stored_rack(text: str, lexicon: Lexicon) -> list[int]:
    """A round's stored rack; ``DamagedData`` when it does not read."""
    try:
        return parse_rack_text(text, lexicon.alphabet)
    except (RackError, TypeError) as error:
        raise DamagedData(f"el atril guardado de una ronda no se lee ({error}): la base de datos está dañada; "
                          "restaure una copia") from None


def _same_slip(stored: Slip, text: str, verdict: SlipVerdict, context: _SlipContext) -> bool:
    """Whether ``text`` (judged ``verdict``) is the slip already ``stored``: the same text,
    or the same move read from it — another spelling (accents, a lowercase coordinate, the
    oriented notation's arrow, spaces) — with the same verdict (issue 13 §2). A blank
    marked differently is another move, so another slip."""
    status = _stored(verdict, context)[0]
    if stored.status != status:
        return False
    if verdict.status in MARK_STATUSES:             # «tarde» typed, the late mark stored: the same slip
        return True
    return stored.text.strip() == text.strip() or (verdict.canonical is not None and stored.move == verdict.canonical)


def _stored(verdict: SlipVerdict, context: _SlipContext | None) -> tuple[str, int, str]:
    """``(status, score, reason)`` to store: a valid move equal to an annulled master
    scores 0 (III.29)."""
    if (context is not None and context.annulled and verdict.status is SlipStatus.VALID
            and verdict.canonical == context.master):
        return ANNULLED, 0, "jugada maestra anulada (III.29)"
    return verdict.status.value, verdict.score, verdict.reason


def _verdict_payload(text: str, verdict: SlipVerdict, context: _SlipContext | None,
                     board: str | None = None) -> dict[str, Any]:
    status, score, reason = _stored(verdict, context)
    payload = {"text": text, "status": status, "score": score, "move": verdict.canonical, "reason": reason}
    if board is not None:        # only slips written on a paper board carry it (II.8): the format only grows
        payload["board"] = board
    return payload


def _slip_payload(slip: Slip) -> dict[str, Any]:
    return {"text": slip.text, "status": slip.status, "score": slip.score, "move": slip.move, "reason": slip.reason,
            "entered_by": slip.entered_by}


def _fill_slip(slip: Slip, text: str, verdict: SlipVerdict, context: _SlipContext | None, who: str,
               event_id: int, board: str | None = None) -> None:
    slip.text = text
    slip.board = board
    slip.move = verdict.canonical
    slip.status, slip.score, slip.reason = _stored(verdict, context)
    slip.hint = verdict.hint
    slip.entered_by = who
    slip.entered_at = _now()
    slip.event_id = event_id


class SlipEntry(TaskModule):
    """Slip entry: judged at once, marks, the master for many tables, import, double entry, conflicts (II.8, III.20, III.25)."""

    def enter_slip(self, game_number: int, table: int, text: str, *, round_number: int | None = None,
                   tournament_id: int | None = None, board: bool = False) -> EntryResult:
        """Judge and store the slip of the player at ``table`` (III.20, III.23, III.25).

        With ``board`` the ``text`` is a slip written on a paper board (II.8,
        III.20.1.c–d), in the board form of ``duplicate.board_notation`` (``H8 → CASA``):
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
        ``duplicate.slips.read_mark``) is that mark, as ``mark_slip`` stores it.
        """
        text = self._typed(text, "la papeleta", SLIP_MAX)
        context = self.slip_context(game_number, table, round_number, tournament_id)
        written = None
        if board:
            written, text = text, board_canonical(context, text)
        else:
            mark = read_mark(text)
            if mark is not None:
                return self._store(context, text, mark_verdict(mark), Action.MARK_SLIP)
        verdict = judge_slip(context.board, context.rack, text, context.lexicon, oriented=context.oriented)
        return self._store(context, text, verdict, Action.ENTER_SLIP, written)

    def mark_slip(self, game_number: int, table: int, status: SlipStatus | str, *, text: str = "",
                  round_number: int | None = None, tournament_id: int | None = None) -> EntryResult:
        """Record a late, null or missing slip (III.13, III.20.4, III.25): 0 points.
        ``status``: a ``SlipStatus`` mark or its word («tarde», «nula», «no-entregada»;
        ``base.checked_mark``); ``InvalidSlip`` otherwise."""
        status = checked_mark(status)
        text = self._typed(text, "la papeleta", SLIP_MAX)
        context = self.slip_context(game_number, table, round_number, tournament_id)
        return self._store(context, text, mark_verdict(status, text), Action.MARK_SLIP)

    def enter_master_slips(self, game_number: int, tables: Iterable[int], *, round_number: int | None = None,
                           tournament_id: int | None = None) -> list[EntryResult]:
        """Enter the master's own text for every player in ``tables`` in one step, one
        transaction (issue 3 §3)."""
        tables = list(dict.fromkeys(tables))
        contexts = [self.slip_context(game_number, table, round_number, tournament_id) for table in tables]
        if not contexts:
            return []
        master = contexts[0].master
        if master is None:
            raise StateConflict(f"la ronda {contexts[0].round_number} aún no tiene jugada maestra",
                                what=f"ronda {contexts[0].round_number}", state="no_master")
        verdict = judge_slip(contexts[0].board, contexts[0].rack, master, contexts[0].lexicon,
                             oriented=contexts[0].oriented)
        results = []
        with self._write() as session:
            actor = self._authorise(session, contexts[0].tournament_id, Action.ENTER_SLIP, tables=tables,
                                    game_id=contexts[0].game_id)
            self._writable_game(session, contexts[0].game_id)
            for context in contexts:
                results.append(self._store_in(session, context, master, verdict, actor))
        return results

    def enter_slips(self, game_number: int, slips: Iterable[tuple[Any, ...]], *,
                    round_number: int | None = None, tournament_id: int | None = None) -> list[EntryResult]:
        """Enter many slips of one round in one transaction: ``(table, text)`` pairs,
        ``(table, BoardWritten(text))`` for a slip written on a paper board (II.8, as
        ``enter_slip(board=True)``), or ``(table, SlipStatus.LATE/NULL/MISSING[, text])``
        for a mark. Same rules as
        ``enter_slip``/``mark_slip``; identical texts are judged once. For imports and
        the simulator; the assistants' stations use ``enter_slip`` (one commit each).
        If another station stores one of these players' slips meanwhile, the batch is
        retried once and that slip becomes a repeat or a conflict."""
        return self._enter_slips(game_number, list(slips), round_number, tournament_id, Action.ENTER_SLIP)

    def _enter_slips(self, game_number: int, items: list[tuple[Any, ...]], round_number: int | None,
                     tournament_id: int | None, action: Action) -> list[EntryResult]:
        if not items:
            return []
        base = self.slip_context(game_number, items[0][0], round_number, tournament_id)
        with self._read() as session:
            seated = {table: (entry_id, name) for table, entry_id, name in session.execute(
                select(Seat.table_number, Seat.entry_id, Player.name).join(Entry, Seat.entry_id == Entry.id)
                .join(Player, Entry.player_id == Player.id).where(Seat.game_id == base.game_id))}
        verdicts: dict[str, SlipVerdict] = {}
        prepared = []
        for table, value, *written in items:
            board: str | None = None
            if table not in seated:
                raise NotFound(f"no hay ningún jugador en la mesa {table} en la partida {game_number}",
                               what="mesa", key=table)
            if isinstance(value, SlipStatus):
                value = checked_mark(value)
                raw = self._typed(written[0] if written else "", f"la papeleta de la mesa {table}", SLIP_MAX)
                verdict = mark_verdict(value, raw)
            else:
                where = f"la papeleta de la mesa {table}"
                if isinstance(value, BoardWritten):
                    board = self._typed(value.text, where, SLIP_MAX)
                    value = board_canonical(base, board, where)
                value = self._typed(value, where, SLIP_MAX)
                mark = read_mark(value)
                if mark is not None:                            # «tarde» written as the slip: the mark
                    verdicts.setdefault(value, mark_verdict(mark))
                if value not in verdicts:
                    verdicts[value] = judge_slip(base.board, base.rack, value, base.lexicon, oriented=base.oriented)
                verdict, raw = verdicts[value], value
            entry_id, name = seated[table]
            context = _SlipContext(base.tournament_id, base.game_id, base.round_number, entry_id, name, table,
                                   base.board, base.rack, base.lexicon, base.oriented, base.master, base.annulled,
                                   base.board_allowed)
            prepared.append((context, raw, verdict, board))
        try:
            return self._store_batch(prepared, action)
        except IntegrityError:
            return self._store_batch(prepared, action)

    def _store_batch(self, prepared: list[tuple[_SlipContext, str, SlipVerdict, str | None]],
                     action: Action) -> list[EntryResult]:
        """Store a batch in one transaction: the round's existing slips are read once and
        the new events and slips are written together."""
        with self._write() as session:
            first = prepared[0][0]
            actor = self._authorise(session, first.tournament_id, action,
                                    tables=[context.table for context, _, _, _ in prepared], game_id=first.game_id)
            self._writable_game(session, first.game_id)
            existing = {slip.entry_id: slip for slip in session.scalars(select(Slip).where(
                Slip.game_id == first.game_id, Slip.round_number == first.round_number))}
            results: list[EntryResult | None] = []
            fresh: list[tuple[int, _SlipContext, str, SlipVerdict, Event, str | None]] = []
            for context, raw, verdict, board in prepared:
                if context.entry_id in existing or any(item[1].entry_id == context.entry_id for item in fresh):
                    results.append(None)
                    continue
                entered = SlipEntered(context.table, context.entry_id, **_verdict_payload(raw, verdict, context, board))
                event = Event(tournament_id=context.tournament_id, game_id=context.game_id,
                              round_number=context.round_number, kind=entered.KIND.value, payload=entered.payload(),
                              station=self.station, arbiter=actor.name, role=actor.role.value, reason="",
                              created_at=_now())
                session.add(event)
                fresh.append((len(results), context, raw, verdict, event, board))
                results.append(EntryResult("accepted", verdict, context.table, context.player, context.round_number))
            session.flush()
            for _, context, raw, verdict, event, board in fresh:
                slip = Slip(game_id=context.game_id, round_number=context.round_number, entry_id=context.entry_id,
                            table_number=context.table)
                _fill_slip(slip, raw, verdict, context, actor.name, event.id, board)
                session.add(slip)
            session.flush()
            # Second slips for a player (already stored, or twice in this batch): repeat or conflict.
            for index, (context, raw, verdict, board) in enumerate(prepared):
                if results[index] is None:
                    results[index] = self._store_in(session, context, raw, verdict, actor, board)
            return [result for result in results if result is not None]

    def import_slips(self, game_number: int, path: Path, *, tournament_id: int | None = None) -> list[EntryResult]:
        """Enter the slips of a CSV file with a header: ``mesa`` (table), ``jugada``
        (the text; empty with ``marca``), optional ``ronda`` (round), ``marca``
        (tarde/nula/no-entregada/falta, or late/null/missing; a ``jugada`` that is one of
        these words is that mark too) and ``tablero`` (a slip written on a paper board, II.8,
        in the board form of ``duplicate.board_notation``, e.g. ``H8 → CASA``; ``jugada``
        empty then: a row with both is refused, III.20.2). Every row is checked first (syntax, table seated, round open):
        a bad row raises ``TournamentError`` naming its line and nothing is entered; then
        each round's slips are entered in one transaction."""
        with self._write() as session:
            self._authorise(session, self._tournament(session, tournament_id).id, Action.IMPORT_SLIPS)
        parsed: list[tuple[int, int, int | None, str | BoardWritten, str]] = []
        for number, row in _read_csv(path):
            lowered = {(key or "").strip().lower(): (value or "").strip() for key, value in row.items()}
            round_text = lowered.get("ronda") or lowered.get("round") or ""
            try:
                table = whole_number(lowered.get("mesa") or lowered.get("table") or "", "la columna «mesa»")
                round_number = whole_number(round_text, "la columna «ronda»") if round_text else None
            except NumberError as error:
                raise InvalidFile(f"{path}, línea {number}: {error}",
                                  path=path, line=number, what=error.what) from error
            mark = lowered.get("marca") or lowered.get("mark") or ""
            if mark and read_mark(mark) not in MARK_STATUSES:
                raise InvalidFile(f"{path}, línea {number}: marca {shown(mark)} no válida (tarde, nula, no-entregada)",
                                  path=path, line=number, what="la marca", value=mark)
            text = row.get("jugada") or row.get("move") or ""
            board = (lowered.get("tablero") or lowered.get("board") or "") if not mark else ""
            if board and text.strip():
                raise InvalidFile(f"{path}, línea {number}: la papeleta trae «jugada» y «tablero»; anote solo una de "
                                  "las dos (III.20.2: una única jugada por papeleta)", path=path, line=number,
                                  what="la papeleta", value=text)
            written: str | BoardWritten = BoardWritten(board) if board else text
            parsed.append((number, table, round_number, written, mark))
        # Every table and round is checked before anything is stored.
        with self._read() as session:
            tournament = self._tournament(session, tournament_id)
            game = self._game(session, tournament, game_number)
            tables = {seat.table_number for seat in game.seats}
            open_rounds = {row.number for row in game.rounds if not row.closed}
            allowed = TournamentSettings.from_dict(tournament.settings).board_notation
            latest = max((row.number for row in game.rounds), default=None)
        by_round: dict[int, list[tuple[Any, ...]]] = {}
        for line, table, round_number, written, mark in parsed:
            target = round_number if round_number is not None else latest
            if table not in tables:
                raise InvalidFile(f"{path}, línea {line}: no hay ningún jugador en la mesa {table} "
                                      f"en la partida {game_number}; no se ha anotado nada",
                                      path=path, line=line, what="la mesa", value=table)
            if target is None or target not in open_rounds:
                raise InvalidFile(f"{path}, línea {line}: la ronda {target} no existe o está cerrada; "
                                      "no se ha anotado nada", path=path, line=line, what="la ronda", value=target)
            if isinstance(written, BoardWritten) and not allowed:
                raise InvalidFile(f"{path}, línea {line}: {BOARD_REFUSED}; no se ha anotado nada",
                                  path=path, line=line, what="la columna «tablero»", value=written.text)
            by_round.setdefault(target, []).append((table, checked_mark(mark), written) if mark else (table, written))
        results = []
        for number, items in sorted(by_round.items()):
            results += self._enter_slips(game_number, items, number, tournament_id, Action.IMPORT_SLIPS)
        return results

    def double_check(self, game_number: int, table: int, text: str, *, round_number: int | None = None,
                     tournament_id: int | None = None, board: bool = False) -> EntryResult:
        """Double entry: a second assistant re-types a slip. A match is recorded as
        checked; a mismatch becomes a ``Conflict`` the judge resolves. ``board``: ``text``
        is a board form (II.8), compared by the canonical notation it gives (``enter_slip``)."""
        text = self._typed(text, "la papeleta", SLIP_MAX)
        context = self.slip_context(game_number, table, round_number, tournament_id)
        if board:
            text = board_canonical(context, text)
        mark = read_mark(text)
        verdict = (mark_verdict(mark) if mark is not None
                   else judge_slip(context.board, context.rack, text, context.lexicon, oriented=context.oriented))
        with self._write() as session:
            actor = self._authorise(session, context.tournament_id, Action.CHECK_SLIP, tables=[table],
                                    game_id=context.game_id)
            self._writable_game(session, context.game_id)
            slip = self.slip_in(session, context)
            if slip is None:
                raise NotFound(f"mesa {table}, ronda {context.round_number}: no hay papeleta que comprobar",
                               what="papeleta", key=(table, context.round_number))
            same = _same_slip(slip, text, verdict, context)
            if same:
                slip.checked_by = actor.name
                self._log(session, context.tournament_id, SlipChecked(table, context.entry_id, text), game_id=context.game_id,
                          round_number=context.round_number, actor=actor)
                return EntryResult("checked", verdict, table, context.player, context.round_number)
            conflict = self._conflict(session, context, text, actor, ConflictKind.DOUBLE_ENTRY, slip)
            return EntryResult("conflict", verdict, table, context.player, context.round_number, conflict)

    def conflicts(self, game_number: int, *, tournament_id: int | None = None,
                  unresolved: bool = True) -> list[tuple[ConflictView, SlipView | None]]:
        """Conflicts of a game with the slip they disagree with."""
        with self._read() as session:
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
                result.append((view_of(ConflictView, conflict), view_of(SlipView, slip) if slip is not None else None))
            return result

    def slips(self, game_number: int, round_number: int | None = None, *,
              tournament_id: int | None = None) -> list[SlipView]:
        """Stored slips of a game (one round when given), by round and table."""
        with self._read() as session:
            tournament = self._tournament(session, tournament_id)
            game = self._game(session, tournament, game_number)
            query = select(Slip).where(Slip.game_id == game.id)
            if round_number is not None:
                query = query.where(Slip.round_number == round_number)
            return [view_of(SlipView, slip)
                    for slip in session.scalars(query.order_by(Slip.round_number, Slip.table_number))]

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
                      *, allow_closed: bool = False) -> _SlipContext:
        with self._read() as session:
            tournament = self._tournament(session, tournament_id)
            game = self._game(session, tournament, game_number)
            self._check_unlocked(game)
            number = round_number if round_number is not None else self._slip_round_number(session, game)
            row = self._round(session, game, number)
            if row.closed and not allow_closed:
                raise RoundClosed(f"la ronda {number} está cerrada: solo el juez árbitro puede corregirla",
                                  game=game.number, round=number)
            seat = session.scalar(select(Seat).where(Seat.game_id == game.id,
                                                     Seat.table_number == self._number(table, "la mesa")))
            if seat is None:
                raise NotFound(f"no hay ningún jugador en la mesa {table} en la partida {game.number}",
                               what="mesa", key=table)
            lexicon = self.lexicon_for(tournament)
            settings = TournamentSettings.from_dict(tournament.settings)
            rack = _stored_rack(row.rack, lexicon)
            if seat.entry is None or seat.entry.player is None:
                raise DamagedData(f"la mesa {table} está asignada a una inscripción que no existe: la base de datos "
                                  "está dañada; restaure una copia")
            return _SlipContext(tournament.id, game.id, number, seat.entry_id, seat.entry.player.name, table,
                                _board(row.board_before, lexicon), rack, lexicon, settings.oriented_notation,
                                row.master, row.annulled, settings.board_notation)

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

    def slip_in(self, session: Session, context: _SlipContext) -> Slip | None:
        return session.scalar(select(Slip).where(Slip.game_id == context.game_id,
                                                 Slip.round_number == context.round_number,
                                                 Slip.entry_id == context.entry_id))

    def _store(self, context: _SlipContext, text: str, verdict: SlipVerdict, action: Action,
               board: str | None = None) -> EntryResult:
        with self._write() as session:
            actor = self._authorise(session, context.tournament_id, action, tables=[context.table],
                                    game_id=context.game_id)
            self._writable_game(session, context.game_id)
            return self._store_in(session, context, text, verdict, actor, board)

    def _store_in(self, session: Session, context: _SlipContext, text: str, verdict: SlipVerdict,
                  actor: Actor, board: str | None = None) -> EntryResult:
        """Insert the slip, or record a repeat/conflict when the player already has one.

        The unique constraint on (game, round, entry) decides which of two stations
        entering the same player's slip at once comes first: the loser's insert fails
        inside a savepoint and its entry becomes a repeat or a conflict, in the same
        transaction (a batch goes on with its other slips)."""
        existing = self.slip_in(session, context)
        if existing is None:
            try:
                with session.begin_nested():
                    event = self._log(session, context.tournament_id, SlipEntered(context.table, context.entry_id,
                                                  **_verdict_payload(text, verdict, context, board)),
                                      game_id=context.game_id, round_number=context.round_number, actor=actor)
                    slip = Slip(game_id=context.game_id, round_number=context.round_number,
                                entry_id=context.entry_id, table_number=context.table)
                    _fill_slip(slip, text, verdict, context, actor.name, event.id, board)
                    session.add(slip)
                    session.flush()
                return EntryResult("accepted", verdict, context.table, context.player, context.round_number)
            except IntegrityError:
                # Another station's slip for this player was committed after our check.
                existing = self.slip_in(session, context)
                if existing is None:
                    raise
        if _same_slip(existing, text, verdict, context):
            return EntryResult("repeated", verdict, context.table, context.player, context.round_number)
        mark = verdict.status.value if verdict.status in MARK_STATUSES else None
        conflict = self._conflict(session, context, text, actor, ConflictKind.DUPLICATE, existing, mark)
        return EntryResult("conflict", verdict, context.table, context.player, context.round_number, conflict)

    def _conflict(self, session: Session, context: _SlipContext, text: str, actor: Actor, kind: ConflictKind,
                  existing: Slip, mark: str | None = None) -> int:
        conflict = Conflict(game_id=context.game_id, round_number=context.round_number, entry_id=context.entry_id,
                            table_number=context.table, kind=kind.value, text=text, mark=mark,
                            entered_by=actor.name, entered_at=_now())
        session.add(conflict)
        session.flush()
        self._log(session, context.tournament_id, SlipConflict(conflict.id, kind.value, context.table, context.entry_id, text, mark,
                               existing.text, existing.entered_by),
                  game_id=context.game_id, round_number=context.round_number, actor=actor)
        return conflict.id
