"""The master move (III.15): ``choose_master`` places it — the rules' choice among the
equal tops, the judge's choice of one of them, or the prepared game's master («duplicada
maestra», III.15, last paragraph) — and ``undo_master`` takes the last one back before
the next rack while its round is open (with a reason, recorded). A master that ends the
game ends it (III.22); undoing it undoes that end.
"""

from __future__ import annotations

from typing import Any

from duplicate.bounds import NumberError, whole_number
from duplicate.prepared.file import PreparedRound
from duplicate.prepared.rounds import PreparedMismatch, apply_master
from duplicate.record.events_play import GameEnded, MasterChosen, MasterUndone
from duplicate.rules.game import Game
from duplicate.rules.game_record import GameError, PendingRound, RoundRecord
from duplicate.rules.master import ranked_moves
from duplicate.rules.notation import SlipError, parse_move
from duplicate.rules.statuses import GameStatus
from duplicate.service.access import Action
from duplicate.service.base import TaskModule
from duplicate.service.errors import (
    InconsistentHistory,
    InvalidInput,
    InvalidNumber,
    InvalidRack,
    InvalidSlip,
    MissingReason,
    RoundClosed,
    StateConflict,
)
from duplicate.service.prepared_play import plan_of
from duplicate.service.views import RoundView, _round_view
from duplicate.storage.models import GameRow

__all__ = ["Masters"]


class Masters(TaskModule):
    """The master move (III.15): placed, or taken back before the next rack."""

    def choose_master(self, game_number: int, choice: int | str = 0, *, tournament_id: int | None = None,
                      reason: str = "") -> RoundView:
        """Place the master move of the pending round: ``choice`` is an index in the
        III.15 ranking of the equal tops (0 = the rules' choice) or the canonical text
        of one of them (the judge's choice among equal tops)."""
        with self.context.engine_lock, self._write() as session:
            tournament = self._tournament(session, tournament_id)
            actor = self._authorise(session, tournament.id, Action.CHOOSE_MASTER)
            game = self._game(session, tournament, game_number, lock=True)
            self._check_unlocked(game)
            engine = self._engine(session, tournament, game)
            pending = engine.pending
            if pending is None:
                raise StateConflict("no hay atril en juego: saque o introduzca el atril primero",
                                    what=f"partida {game.number}", state="no_rack")
            if not pending.ranked:
                raise InvalidRack(f"con el atril {pending.rack.shown} no hay ninguna jugada válida: "
                                      "cambie el atril (III.29) o termine la partida",
                                      what="el atril", value=pending.rack.text)
            plan = plan_of(session, game.id)
            prepared = plan.round(pending.number) if plan is not None and plan.followed else None
            selected: int | Any = choice
            written = choice.strip() if isinstance(choice, str) else ""
            if isinstance(choice, str) and not (written.isascii() and written.isdigit()):    # «²» is not 2
                try:
                    selected = parse_move(choice, engine.alphabet)
                except SlipError as error:
                    raise InvalidSlip(str(error), what="la jugada maestra", value=choice) from error
            elif isinstance(choice, str):
                try:
                    selected = whole_number(written, "la elección de la maestra", minimum=0)
                except NumberError as error:
                    raise InvalidNumber(str(error), what="la elección de la maestra", value=choice) from None
            if prepared is not None:
                record = self._prepared_master(engine, game, prepared, pending, selected, choice)
                reason = reason or f"jugada maestra de la partida preparada (III.15), ronda {prepared.number}"
            else:
                try:
                    record = engine.play(selected)
                except GameError as error:
                    raise InvalidInput(str(error), what="la jugada maestra", value=choice) from error
            said = reason or record.reason
            event = self._log(session, tournament.id,
                              MasterChosen(record.number, record.master, record.score, record.master_rank,
                                           record.cumulative, record.equal_tops,
                                           record.reason if record.reason != said else None),
                              game_id=game.id, round_number=record.number, actor=actor, reason=said)
            last_event = event.id
            if engine.over:
                last_event = self._log(session, tournament.id, GameEnded(str(engine.end_reason)), game_id=game.id,
                                       actor=actor).id
            self.context.games[game.id] = (last_event, engine)
            return _round_view(self._round(session, game, record.number), engine.alphabet)

    def _prepared_master(self, engine: Game, game: GameRow, prepared: PreparedRound, pending: PendingRound,
                         selected: object, choice: int | str) -> RoundRecord:
        """Place the prepared master of the round (III.15, «duplicada maestra»: no choice).
        ``selected`` (an index of the III.15 ranking or a ``Move``) may only name it: 0, the
        rules' choice, is the prepared master. Raises ``InvalidInput`` for another move,
        ``InconsistentHistory`` when the engine refuses it (not a top of the rack)."""
        if selected != 0:
            wanted = selected
            if isinstance(selected, int):
                ranked = ranked_moves(pending.ranked)
                wanted = ranked[selected][0] if selected < len(ranked) else None
            if wanted != parse_move(prepared.master, engine.alphabet, oriented=False):
                raise InvalidInput(f"partida preparada: la jugada maestra de la ronda {prepared.number} es "
                                   f"{prepared.master} ({prepared.score} puntos) y no se elige otra (III.15)",
                                   what="la jugada maestra", value=choice)
        try:
            return apply_master(engine, prepared)
        except PreparedMismatch as error:
            raise InconsistentHistory(f"la partida {game.number} no sigue la partida preparada: {error}",
                                      event_id=0, game=game.number) from error

    def undo_master(self, game_number: int, *, reason: str, tournament_id: int | None = None) -> RoundView:
        """The judge takes back the last master placed (the wrong top), before the next rack
        is drawn and while its round is open; ``reason`` is required and recorded. The round
        waits again for its master (``choose_master``); its slips stay, judged against the
        same board and rack. An end of game the master brought about (III.22) is undone.
        Raises ``TournamentError`` saying why not; nothing changes then."""
        if not reason.strip():
            raise MissingReason("falta el motivo para deshacer la jugada maestra: queda registrado",
                                action="undo_master")
        with self.context.engine_lock, self._write() as session:
            tournament = self._tournament(session, tournament_id)
            actor = self._authorise(session, tournament.id, Action.UNDO_MASTER)
            game = self._game(session, tournament, game_number, lock=True)
            self._check_unlocked(game)
            if game.status not in (GameStatus.PLAYING.value, GameStatus.ENDED.value):
                raise StateConflict(f"la partida {game.number} tiene resultados publicados: reábrala antes",
                                    what=f"partida {game.number}", state=game.status)
            engine = self._engine(session, tournament, game)
            if not engine.records:
                raise StateConflict(f"la partida {game.number} no tiene ninguna jugada maestra que deshacer",
                                    what=f"partida {game.number}", state="no_master")
            row = self._round(session, game, engine.records[-1].number)
            if row.closed:
                raise RoundClosed(f"la ronda {row.number} está cerrada (con sus bonificaciones): su maestra ya no "
                                      "se deshace; si era incorrecta, anúlela (III.29)",
                                      game=game.number, round=row.number)
            master = engine.records[-1].master
            try:
                engine.undo_master()
            except GameError as error:
                self.context.games.pop(game.id, None)
                raise StateConflict(str(error), what=f"partida {game.number}", state="undo_refused") from error
            event = self._log(session, tournament.id, MasterUndone(row.number, master), game_id=game.id,
                              round_number=row.number, actor=actor, reason=reason.strip())
            self.context.games[game.id] = (event.id, engine)
            return _round_view(row, engine.alphabet)
