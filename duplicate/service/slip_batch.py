"""Slips in batches (II.8, III.20, III.25): many slips of one round in one transaction
(``enter_slips``: the simulator, imports) and the import of a CSV file of slips
(``import_slips``: every line checked before anything is stored). Each slip is judged
and stored as ``slip_entry.SlipEntry`` does one; a second slip for a player becomes a
repeat or a conflict there.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from duplicate.bounds import NumberError, whole_number
from duplicate.record.events_slips import SlipEntered
from duplicate.rules.slips import SlipStatus, SlipVerdict, judge_slip, mark_verdict, read_mark
from duplicate.service.access import Action, Actor
from duplicate.service.base import MARK_STATUSES, TaskModule, _read_csv, checked_mark
from duplicate.service.context import ServiceContext
from duplicate.service.errors import InvalidFile, InvalidText, NotFound
from duplicate.service.settings import TournamentSettings
from duplicate.service.slip_context import (
    BOARD_REFUSED,
    BoardWritten,
    SlipContext,
    board_canonical,
    verdict_payload,
)
from duplicate.service.slip_entry import SlipEntry
from duplicate.service.views import EntryResult
from duplicate.storage.models import Entry, Player, Seat, Slip
from duplicate.texts import SLIP_MAX, shown

__all__ = ["SlipBatch"]

Prepared = list[tuple[SlipContext, str, SlipVerdict, str | None]]
"""A round's slips judged: each one's context, text, verdict and board form (``None``: not
written on a board)."""

Batch = tuple[SlipContext, Prepared, Callable[[SlipContext], Prepared]]
"""A round's batch: the round as read, its slips judged on it, and how to judge them again
on the round as the write transaction finds it (``SlipEntry.held_context``)."""


class SlipBatch(TaskModule):
    """Slips in batches: ``enter_slips`` (one round, one transaction) and ``import_slips`` (a CSV file)."""

    def __init__(self, context: ServiceContext, slip_entry: SlipEntry) -> None:
        super().__init__(context)
        self.slip_entry = slip_entry

    def enter_slips(self, game_number: int, slips: Iterable[tuple[Any, ...]], *,
                    round_number: int | None = None, tournament_id: int | None = None) -> list[EntryResult]:
        """Enter many slips of one round in one transaction: ``(table, text)`` pairs,
        ``(table, BoardWritten(text))`` for a slip written on a paper board (II.8, as
        ``enter_slip(board=True)``), or ``(table, SlipStatus.LATE/NULL/MISSING[, text])``
        for a mark. Same rules as
        ``enter_slip``/``mark_slip``; identical texts are judged once. For imports and
        the simulator; the assistants' stations use ``enter_slip`` (one commit each).
        If another station stores one of these players' slips meanwhile, the batch is
        retried once and that slip becomes a repeat or a conflict. The round is read again
        in the write transaction: closed since, ``RoundClosed`` and nothing stored; changed
        since (a rack replaced, a master annulled), the slips are judged again on it."""
        items = list(slips)
        if not items:
            return []
        return self._store_batches([self._batch(game_number, items, round_number, tournament_id)], Action.ENTER_SLIP)

    def _batch(self, game_number: int, items: list[tuple[Any, ...]], round_number: int | None,
               tournament_id: int | None) -> Batch:
        """The slips ``items`` of one round judged on the round as read now (``Batch``)."""
        base = self.slip_entry.slip_context(game_number, items[0][0], round_number, tournament_id)
        with self._read() as session:
            seated = {table: (entry_id, name) for table, entry_id, name in session.execute(
                select(Seat.table_number, Seat.entry_id, Player.name).join(Entry, Seat.entry_id == Entry.id)
                .join(Player, Entry.player_id == Player.id).where(Seat.game_id == base.game_id))}

        def prepare(base: SlipContext) -> Prepared:
            return self._prepared(game_number, items, base, seated)

        return base, prepare(base), prepare

    def _prepared(self, game_number: int, items: list[tuple[Any, ...]], base: SlipContext,
                  seated: dict[int, tuple[int, str]]) -> Prepared:
        """Each slip of ``items`` judged on the round ``base`` (identical texts once)."""
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
                if value not in verdicts:                       # each distinct text read and judged once
                    mark = read_mark(value)                     # «tarde» written as the slip: the mark
                    verdicts[value] = (mark_verdict(mark) if mark is not None else
                                       judge_slip(base.board, base.rack, value, base.lexicon, oriented=base.oriented))
                verdict, raw = verdicts[value], value
            entry_id, name = seated[table]
            context = replace(base, entry_id=entry_id, player=name, table=table)     # the round as ``base`` has it
            prepared.append((context, raw, verdict, board))
        return prepared

    def _store_batches(self, batches: list[Batch], action: Action) -> list[EntryResult]:
        """Store the batches (one per round) in one write transaction; one retry when
        another station stored one of these players' slips at the same moment."""
        try:
            return self._store_batches_once(batches, action)
        except IntegrityError:
            return self._store_batches_once(batches, action)

    def _store_batches_once(self, batches: list[Batch], action: Action) -> list[EntryResult]:
        results: list[EntryResult] = []
        with self._write() as session:
            for base, prepared, prepare in batches:
                actor = self._authorise(session, base.tournament_id, action,
                                        tables=[context.table for context, _, _, _ in prepared], game_id=base.game_id)
                held = self.slip_entry.held_context(session, base)
                if held is not base:
                    prepared = prepare(held)
                results += self._store_batch_in(session, actor, prepared)
        return results

    def _store_batch_in(self, session: Session, actor: Actor, prepared: Prepared) -> list[EntryResult]:
        """Store a round's batch in the write transaction ``session``, the round checked
        (``_store_batches``): the round's existing slips are read once, the first slip of
        each player without one is logged (``SlipEntered``, the projector inserts its row)
        and every second slip becomes a repeat or a conflict (``SlipEntry.store_in``)."""
        first = prepared[0][0]
        existing = set(session.scalars(select(Slip.entry_id).where(
            Slip.game_id == first.game_id, Slip.round_number == first.round_number)))
        fresh: list[SlipEntered] = []
        results: list[EntryResult | None] = []
        for context, raw, verdict, board in prepared:
            if context.entry_id in existing:
                results.append(None)
                continue
            existing.add(context.entry_id)
            fresh.append(SlipEntered(context.table, context.entry_id,
                                     **verdict_payload(raw, verdict, context, board), hint=verdict.hint))
            results.append(EntryResult("accepted", verdict, context.table, context.player, context.round_number))
        self.context.log_all(session, first.tournament_id, fresh, actor=actor, game_id=first.game_id,
                             round_number=first.round_number)
        # Second slips for a player (already stored, or twice in this batch): repeat or conflict.
        for index, (context, raw, verdict, board) in enumerate(prepared):
            if results[index] is None:
                results[index] = self.slip_entry.store_in(session, context, raw, verdict, actor, board)
        return [result for result in results if result is not None]

    def import_slips(self, game_number: int, path: Path, *, tournament_id: int | None = None) -> list[EntryResult]:
        """Enter the slips of a CSV file with a header: ``mesa`` (table), ``jugada``
        (the text, at most ``SLIP_MAX`` printable characters; empty with ``marca``), optional ``ronda`` (round), ``marca``
        (tarde/nula/no-entregada/falta, or late/null/missing; a ``jugada`` that is one of
        these words is that mark too) and ``tablero`` (a slip written on a paper board, II.8,
        in the board form of ``duplicate.rules.board_notation``, e.g. ``H8 → CASA``; ``jugada``
        empty then: a row with both is refused, III.20.2). Every row is checked first (syntax, table seated, round open):
        a bad row raises ``TournamentError`` naming its line and nothing is entered; then
        every round's slips are entered in one transaction, which checks each round again:
        a round closed since refuses the whole file (``RoundClosed``, nothing entered)."""
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
            try:                                  # the text's length and characters, said with its line
                self._typed(board or text, f"la papeleta de la mesa {table}", SLIP_MAX)
            except InvalidText as error:
                raise InvalidFile(f"{path}, línea {number}: {error}; no se ha anotado nada", path=path, line=number,
                                  what=error.what, value=error.value) from error
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
        batches = [self._batch(game_number, items, number, tournament_id) for number, items in sorted(by_round.items())]
        return self._store_batches(batches, Action.IMPORT_SLIPS) if batches else []
