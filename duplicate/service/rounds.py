"""Racks (III.12, III.19, III.29), the round clock (III.13), end of game (III.22), and the game
now as frozen views; the master move (III.15) is ``masters``'s."""

from __future__ import annotations

import dataclasses
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from duplicate.prepared.rounds import PreparedMismatch, apply_rack
from duplicate.record.event_kinds import EventKind
from duplicate.record.events_play import (
    GameEnded,
    PreparedLeft,
    RackDrawn,
    RackSet,
    RackWithdrawn,
    SlipsSetAside,
    TimerChanged,
)
from duplicate.rules.game import Game
from duplicate.rules.game_record import GameError, PendingRound
from duplicate.rules.master import ranked_moves
from duplicate.rules.notation import format_move
from duplicate.rules.rack import RackError, parse_rack_text, shown_rack
from duplicate.rules.statuses import GameStatus
from duplicate.rules.timer import shared_remaining
from duplicate.service.access import Action, Actor
from duplicate.service.base import (
    REASONS_KEPT,
    TaskModule,
    _iso,
    _now,
)
from duplicate.service.errors import (
    ConcurrentChange,
    InconsistentHistory,
    InvalidInput,
    InvalidRack,
    MissingReason,
    StateConflict,
)
from duplicate.service.game_views import game_view_of
from duplicate.service.prepared_play import PreparedPlan, plan_of
from duplicate.service.views import (
    ClockView,
    GameView,
    NextScore,
    RoundView,
    _round_view,
)
from duplicate.storage.models import Conflict, Event, GameRow, RoundRow, Slip, Tournament
from lexicon.alphabet import spanish

def _rack_event(pending: PendingRound, engine: Game, text: str | None, redraw: bool,
                replaced: str | None) -> RackDrawn | RackSet:
    """The event of the rack ``pending`` (``RackSet`` when ``text``, the judge's rack, is
    given), with what the generator found, which the projector stores with the round.
    Every equal top is kept (the record and its checker need them all); the III.15
    reasons only for the first ones, which are what a judge reads."""
    tops = [[format_move(move, engine.alphabet), score, pending.ranked[index].reason if index < REASONS_KEPT else ""]
            for index, (move, score) in enumerate(ranked_moves(pending.ranked))]
    redraws = [{"rack": redraw_.rack, "reason": redraw_.reason} for redraw_ in pending.redraws]
    leftover = engine.alphabet.format(pending.rack.leftover)
    top_score = pending.ranked[0].score if pending.ranked else 0
    if text is None:
        return RackDrawn(pending.number, pending.rack.text, redraws, replaced, leftover, top_score, tops,
                         pending.move_count)
    return RackSet(pending.number, pending.rack.text, redraws, text, redraw, replaced, leftover, top_score, tops,
                   pending.move_count)


class Rounds(TaskModule):
    """Racks (III.12, III.19, III.29), the round clock (III.13), end of game (III.22), the game's views."""

    def engine(self, game_number: int, tournament_id: int | None = None) -> Game:
        """The engine's ``Game`` for this game, rebuilt by replaying its events
        (cached: only events newer than the cached state are applied)."""
        with self._read() as session:
            tournament = self._tournament(session, tournament_id)
            game = self._game(session, tournament, game_number)
            return self._engine(session, tournament, game)

    def draw_rack(self, game_number: int,
                  *, tournament_id: int | None = None, replace: bool = False) -> RoundView | None:
        """Draw the next rack from the bag (III.17, III.19); None when the game ends
        instead (no valid rack can be formed, III.22). ``replace``: the pending rack goes
        back to the bag first and another is drawn (III.29: nobody can play it)."""
        return self._set_rack(game_number, None, False, tournament_id, replace)

    def set_rack(self, game_number: int, text: str, *, redraw: bool = False, tournament_id: int | None = None,
                 replace: bool = False) -> RoundView:
        """Use a rack typed by the judge (checked against the bag and III.12); ``replace``
        as in ``draw_rack``."""
        view = self._set_rack(game_number, text, redraw, tournament_id, replace)
        assert view is not None
        return view

    def replace_rack(self, game_number: int, text: str | None = None, *, reason: str, redraw: bool = False,
                     tournament_id: int | None = None) -> RoundView | None:
        """The judge replaces the rack in play (III.29: mistyped, wrongly drawn, or nobody
        can play it): its drawn tiles go back to the bag and ``text`` (the judge's rack,
        checked as in ``set_rack``) is used, or, without ``text``, another rack is drawn
        under III.12 and III.19. Allowed until the master is placed, whatever slips exist
        (a mistyped rack is usually found through the slips): the slips entered against
        the old rack are set aside (event ``slips_set_aside`` with the reason; they count
        for nothing and are entered again; ``set_aside_slips`` lists them) and the stations
        see the event. ``reason`` is required. The new rack's event records the old
        rack (``replaces``), the new one and the reason. Returns the new round as
        ``draw_rack`` does (None if no valid rack can be formed: the game ends, III.22).
        Raises ``TournamentError`` saying why not; nothing changes then."""
        if not reason.strip():
            raise MissingReason("falta el motivo del cambio de atril: queda registrado en el historial (III.29)",
                                action="replace_rack")
        return self._set_rack(game_number, text, redraw, tournament_id, True, reason=reason.strip(),
                              must_replace=True)

    def check_rack(self, game_number: int, text: str, *, redraw: bool = False,
                   tournament_id: int | None = None) -> str:
        """Whether the judge's rack ``text`` may be used now — as the round's rack, or in
        place of the rack in play (III.29) — checked as ``set_rack`` does (the leftover,
        the bag, III.12; ``redraw`` as there) without changing anything: a front end asks
        it before the judge types the reason of a replacement. Returns the rack as people
        read it. Raises ``InvalidRack`` saying what is wrong, ``StateConflict`` when the
        game is over, ``NotAuthorised`` for a station that may not set racks (the bag is
        hidden from it)."""
        with self.context.engine_lock, self._write() as session:
            tournament = self._tournament(session, tournament_id)
            self._authorise(session, tournament.id, Action.SET_RACK)
            game = self._game(session, tournament, game_number)
            engine = self._engine(session, tournament, game)
            if engine.over:
                raise StateConflict(f"la partida {game.number} ha terminado: {engine.end_reason}",
                                    what=f"partida {game.number}", state="over")
            try:
                rack = engine.check_rack(text, redraw=redraw)
            except (RackError, GameError) as error:
                raise InvalidRack(str(error), what="el atril", value=text) from error
            return shown_rack(rack.text, engine.alphabet)

    def _set_rack(self, game_number: int, text: str | None, redraw: bool, tournament_id: int | None,
                  replace: bool = False, *, reason: str = "", must_replace: bool = False,
                  ) -> RoundView | None:
        try:
            return self._set_rack_in(game_number, text, redraw, tournament_id, replace, reason, must_replace)
        except IntegrityError as error:
            # Another judge station set this round's rack at the same moment.
            raise ConcurrentChange("otro puesto acaba de poner el atril de esta ronda: vuelva a mirar la partida",
                                   what=f"partida {game_number}", state="rack_set") from error

    def _withdraw_rack(self, session: Session, tournament: Tournament, game: GameRow, engine: Game,
                       actor: Actor, reason: str = "") -> int:
        """III.29: the pending rack goes back to the bag so that the judge proposes another.
        Slips already entered against it are set aside (``_set_aside_slips``); returns how
        many."""
        pending = engine.pending
        assert pending is not None
        reason = reason or "el juez árbitro propone un nuevo atril (III.29)"
        count = self._set_aside_slips(session, tournament, game, pending.number, pending.rack.text, actor, reason)
        engine.withdraw_rack()
        self._log(session, tournament.id, RackWithdrawn(pending.number, pending.rack.text),
                  game_id=game.id, round_number=pending.number, actor=actor, reason=reason)
        return count

    def _set_aside_slips(self, session: Session, tournament: Tournament, game: GameRow, number: int, rack: str,
                         actor: Actor, reason: str) -> int:
        """III.29: the slips of round ``number`` were judged against the rack ``rack`` that
        is withdrawn: they stop counting. Each is copied whole into a ``SlipsSetAside``
        event (with the judge's ``reason``; its ``slip_entered`` event stays too) before
        its row leaves the table of slips that count (the projector's work), so the round's
        slips are entered again for the new rack; the round's unresolved conflicts are
        resolved ``set_aside``. Returns how many slips were set aside (0: nothing logged)."""
        slips = list(session.scalars(select(Slip).where(Slip.game_id == game.id, Slip.round_number == number)
                                     .order_by(Slip.table_number)))
        conflicts = list(session.scalars(select(Conflict).where(
            Conflict.game_id == game.id, Conflict.round_number == number, Conflict.resolution.is_(None))
            .order_by(Conflict.id)))
        if not slips and not conflicts:
            return 0
        kept = [{"table": slip.table_number, "entry": slip.entry_id, "text": slip.text, "status": slip.status,
                 "score": slip.score, "move": slip.move, "reason": slip.reason, "entered_by": slip.entered_by,
                 "entered_at": _iso(slip.entered_at), "checked_by": slip.checked_by} for slip in slips]
        self._log(session, tournament.id, SlipsSetAside(number, rack, kept, [conflict.id for conflict in conflicts]),
                  game_id=game.id, round_number=number, actor=actor, reason=reason)
        return len(slips)

    def _set_rack_in(self, game_number: int, text: str | None, redraw: bool, tournament_id: int | None,
                     replace: bool, reason: str = "", must_replace: bool = False) -> RoundView | None:
        with self.context.engine_lock, self._write() as session:
            tournament = self._tournament(session, tournament_id)
            action = Action.REPLACE_RACK if replace else Action.DRAW_RACK if text is None else Action.SET_RACK
            actor = self._authorise(session, tournament.id, action)
            game = self._game(session, tournament, game_number, lock=True)
            self._check_unlocked(game)
            engine = self._engine(session, tournament, game)
            if engine.over:
                raise StateConflict(f"la partida {game.number} ha terminado: {engine.end_reason}",
                                    what=f"partida {game.number}", state="over")
            plan = plan_of(session, game.id)
            if plan is not None and not plan.followed:
                plan = None
            replaced: str | None = None
            if engine.pending is not None:
                if plan is not None and replace:
                    # III.29: a replaced rack leaves the prepared game from this round on.
                    self._log(session, tournament.id, PreparedLeft(engine.pending.number, plan.game.digest),
                              game_id=game.id, round_number=engine.pending.number, actor=actor,
                              reason=reason or "el juez árbitro cambia el atril (III.29)")
                    plan = None
                if not replace:
                    raise StateConflict(f"la ronda {engine.pending.number} ya tiene atril ({shown_rack(engine.pending.rack.text, engine.alphabet)}): "
                                          "elija la jugada maestra antes de sacar otro, o cámbielo (III.29)",
                                          what=f"ronda {engine.pending.number}", state="rack_pending")
                replaced = engine.pending.rack.text
                self._withdraw_rack(session, tournament, game, engine, actor, reason)
            elif must_replace:
                raise StateConflict(f"no hay atril en juego en la partida {game.number} que cambiar: la jugada "
                                      "maestra ya está colocada; saque el atril de la ronda siguiente",
                                      what=f"partida {game.number}", state="no_rack")
            if plan is not None:
                pending, text, redraw = self._prepared_rack(engine, game, plan, text)
            else:
                try:
                    pending = engine.draw() if text is None else engine.set_rack(text, redraw=redraw)
                except (RackError, GameError) as error:
                    self.context.games.pop(game.id, None)
                    raise InvalidRack(str(error), what="el atril", value=text) from error
            if pending is None:
                reason = str(engine.end_reason)
                event = self._log(session, tournament.id, GameEnded(reason), game_id=game.id,
                                  actor=actor)
                self.context.games[game.id] = (event.id, engine)
                return None
            event = self._log(session, tournament.id, _rack_event(pending, engine, text, redraw, replaced),
                              game_id=game.id, round_number=pending.number,
                              actor=actor, reason=reason if replaced is not None else "")
            self.context.games[game.id] = (event.id, engine)
            return _round_view(self._round(session, game, pending.number), engine.alphabet)

    def _prepared_rack(self, engine: Game, game: GameRow, plan: PreparedPlan,
                       text: str | None) -> tuple[PendingRound | None, str | None, bool]:
        """The next rack of the prepared game (III.15, «duplicada maestra»), put on the
        engine: ``(pending, text, redraw)`` — ``text`` the rack to record as typed when it
        is set as the judge's rack it was (None: drawn from the bag), ``pending`` None when
        the prepared game has no further round (the engine ends the game, III.22). A rack
        typed by the judge must be the prepared one (to use another, replace it: III.29).
        Raises ``InvalidRack`` or ``InconsistentHistory``; the engine is then as before."""
        prepared = plan.round(engine.round_number)
        if prepared is None:
            engine.end(plan.end_text())
            return None, None, False
        if text is not None:
            try:
                same = parse_rack_text(text, engine.alphabet) == parse_rack_text(prepared.rack, engine.alphabet)
            except RackError as error:
                raise InvalidRack(str(error), what="el atril", value=text) from error
            if not same:
                raise InvalidRack(f"partida preparada: el atril de la ronda {prepared.number} es "
                                  f"{shown_rack(prepared.rack, engine.alphabet)}; saque el atril («rack draw»); "
                                  "para usar otro, cámbielo después (III.29) y la partida deja de ser la preparada",
                                  what="el atril", value=text)
        try:
            step = apply_rack(engine, prepared)
        except PreparedMismatch as error:
            self.context.games.pop(game.id, None)
            raise InconsistentHistory(f"la partida {game.number} no sigue la partida preparada: {error}",
                                      event_id=0, game=game.number) from error
        return step.pending, (prepared.rack if step.typed else None), step.redraw

    def game_view(self, game_number: int, tournament_id: int | None = None, *, tops: int | None = 30) -> GameView:
        """The game now as frozen values (board, bag, rack in play with its first ``tops``
        moves of top score in the III.15 order and their reasons, last master, clock),
        read under the engine's lock: what the front ends show instead of the engine.
        Generates the moves of a new rack (up to a second with two blanks): call it off
        the UI thread; ``tops=None`` does not (the rack comes without its moves: no tops,
        counts 0). Raises ``TournamentError`` for an unknown game."""
        clock = self.clock_view(game_number, tournament_id)
        with self.context.engine_lock, self._read() as session:
            tournament = self._tournament(session, tournament_id)
            game = self._game(session, tournament, game_number)
            engine = self._engine(session, tournament, game)
            last = engine.records[-1].number if engine.records else None
            before = self._round(session, game, last).board_before if last is not None else None
            view = game_view_of(game.number, engine, before, clock, tops)
            plan = plan_of(session, game.id)
            if plan is None:
                return view
            return dataclasses.replace(view, prepared=plan.view(engine.pending.number if engine.pending else None))

    def next_scores(self, game_number: int, tournament_id: int | None = None, *, round_number: int | None = None,
                    limit: int = 20) -> tuple[NextScore, ...]:
        """The ``limit`` best scores below the top for the rack in play (empty without
        one, or when it is not the rack of ``round_number`` if given), each with one move
        and how many share it (``duplicate.rules.next_scores``; a display aid, III.15 chooses
        among the tops only). Generates every move outside the engine's lock: call it off
        the UI thread."""
        with self.context.engine_lock, self._read() as session:
            tournament = self._tournament(session, tournament_id)
            game = self._game(session, tournament, game_number)
            engine = self._engine(session, tournament, game)
            if engine.pending is None or round_number not in (None, engine.pending.number):
                return ()
            board, rack, lexicon = engine.board.copy(), engine.pending.rack.tiles, self.lexicon_for(tournament)
        # Imported here: numpy and the move generator, which a read-only command never loads (issue 38).
        from duplicate.rules.next_scores import next_score_groups

        return tuple(NextScore(group.score, format_move(group.move, lexicon.alphabet), group.count)
                     for group in next_score_groups(board, rack, lexicon, limit))

    def warm_up(self, tournament_id: int | None = None) -> None:
        """Load the tournament's lexicon and the move generator before the first rack
        or slip needs them (a front end calls it off the UI thread at start).
        Raises ``TournamentError`` if the lexicon cannot be found."""
        with self._read() as session:
            lexicon = self.lexicon_for(self._tournament(session, tournament_id))
        from duplicate.rules.next_scores import warm_up_generator   # here: numpy, the generator (issue 38)

        warm_up_generator(lexicon)

    def pending_round(self, game_number: int, tournament_id: int | None = None) -> PendingRound | None:
        """The engine's pending round (rack set, master not chosen), with its ranking."""
        return self.engine(game_number, tournament_id).pending
    def end_game(self, game_number: int, *, tournament_id: int | None = None, reason: str = "") -> str:
        """The judge ends the game (III.22) in any state it is played in: before any rack,
        between rounds, or with a rack in play — even one nobody can play with slips
        entered against it (they are set aside, III.29, kept in the log). Returns the
        reason recorded (``reason`` or the rules' default). Raises ``StateConflict`` only
        once its results are published (reopen it first)."""
        with self.context.engine_lock, self._write() as session:
            tournament = self._tournament(session, tournament_id)
            actor = self._authorise(session, tournament.id, Action.END_GAME)
            game = self._game(session, tournament, game_number, lock=True)
            self._check_unlocked(game)
            if game.status == GameStatus.ENDED.value:
                return game.end_reason or ""            # already over: nothing changes
            if game.status not in (GameStatus.SETUP.value, GameStatus.PLAYING.value):
                raise StateConflict(f"la partida {game.number} tiene resultados publicados ({game.status}): "
                                      "no se puede volver a terminar", what=f"partida {game.number}", state=game.status)
            engine = self._engine(session, tournament, game)
            if engine.pending is not None:
                # The drawn rack is not played: its round row goes with it, and the slips
                # entered against it are set aside (III.29), kept in the log.
                self._set_aside_slips(session, tournament, game, engine.pending.number, engine.pending.rack.text,
                                      actor, reason or "la partida termina sin jugar este atril (III.22)")
            end = str(engine.end(reason or None))
            event = self._log(session, tournament.id, GameEnded(end), game_id=game.id, actor=actor,
                              reason=reason)
            self.context.games[game.id] = (event.id, engine)
            return end

    def record_timer(self, game_number: int, action: str, remaining: float,
                     *, tournament_id: int | None = None) -> None:
        """The announcer's round timer (III.13) was started, paused or reset with
        ``remaining`` seconds left: logged so that other stations (the projection screen)
        follow it."""
        if action not in ("start", "pause", "reset"):
            raise InvalidInput(f"acción de cronómetro {action!r} desconocida: start, pause o reset",
                               what="la acción del cronómetro", value=action)
        with self._write() as session:
            tournament = self._tournament(session, tournament_id)
            actor = self._authorise(session, tournament.id, Action.RUN_TIMER)
            game = self._game(session, tournament, game_number)
            number = session.scalar(select(func.max(RoundRow.number)).where(RoundRow.game_id == game.id))
            self._log(session, tournament.id, TimerChanged(action, round(remaining, 3), _now().isoformat()),
                      game_id=game.id, round_number=number, actor=actor)

    def timer_state(self, game_number: int, tournament_id: int | None = None) -> tuple[int | None, float, bool] | None:
        """The shared timer now: ``(round, seconds left, running)`` from the last
        ``record_timer`` of the game, or None if it was never used."""
        clock = self.clock_view(game_number, tournament_id)
        return None if clock is None else (clock.round_number, clock.remaining, clock.running)

    def clock_view(self, game_number: int, tournament_id: int | None = None) -> ClockView | None:
        """The shared timer (III.13) as a plain value: what ``timer_state`` says, with the
        moment of the last ``record_timer`` and the seconds left then (a page shows those:
        they do not move between reads); None if it was never used."""
        with self._read() as session:
            tournament = self._tournament(session, tournament_id)
            game = self._game(session, tournament, game_number)
            event = session.scalar(select(Event).where(Event.game_id == game.id, Event.kind == EventKind.TIMER.value)
                                   .order_by(Event.id.desc()).limit(1))
            if event is None:
                return None
            at = datetime.fromisoformat(event.payload["at"])
            action, recorded = str(event.payload["action"]), float(event.payload["remaining"])
            left, running = shared_remaining(action, recorded, (_now() - at).total_seconds())
            return ClockView(event.round_number, left, running, at, recorded, action)

    def rounds(self, game_number: int, tournament_id: int | None = None) -> list[RoundView]:
        with self._read() as session:
            tournament = self._tournament(session, tournament_id)
            game = self._game(session, tournament, game_number)
            # Every compiled lexicon uses the FISE tile set (``Lexicon.load``): the racks are
            # shown without loading the tournament's lexicon for a listing.
            return [_round_view(row, spanish()) for row in game.rounds]
