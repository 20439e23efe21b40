"""The judge's actions on the console (issue 4 §2): racks (III.17, III.19, III.29), the
master (III.15), the clock (III.13), closing rounds (III.24), conflicts (II.4.a), the end
of a game (III.22) and the next game.

``JudgeActions`` is the base of ``JudgeScreen`` (``tui.app.screens.judge``), which lays
the console out, reads the game and shows it: each action here asks what it must (a
dialog), then hands a service call to ``start_action``, whose note comes back to the
judge. No rule is applied here: the service decides.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual import on, work
from textual.widgets import Checkbox, Input, Static

from duplicate.plurals import agreeing, counted
from duplicate.service.access import Action
from duplicate.service.errors import TournamentError
from duplicate.service.views import RoundStatus, RoundView
from tui.app.screens.game_dialogs import ConfirmScreen, NewGame, NewGameScreen
from tui.app.screens.judge_presenter import ConsoleState, situation, summary_text, tables_text
from tui.app.station import StationScreen
from tui.app.widgets.judge_dialogs import CheckedReasonDialog, ConflictDecision, ConflictDialog, ReasonDialog
from tui.app.widgets.moves import MoveChoices
from tui.app.widgets.timer import RoundClock


def _no_move_note(view: RoundView) -> str:
    """What the judge must know of a rack with no legal move (III.29), else nothing."""
    if view.move_count:
        return ""
    return (" Con este atril no hay ninguna jugada válida: cámbielo («x», III.29) o termine la partida («f»).")


class JudgeActions(StationScreen[None]):
    """The console's actions (see the module doc). ``state`` is the game shown,
    ``status`` the slips of the round shown, ``busy`` true while an action runs."""

    state: ConsoleState
    status: RoundStatus | None
    busy: bool
    _typed_rack: bool

    def start_action(self, action: Callable[[], str] | None) -> None:
        """Run ``action`` (a service call returning a note for the judge), then re-read
        the game (``JudgeScreen`` does it in a worker)."""
        raise NotImplementedError

    def _show_summary(self) -> None:
        """The one line a narrow terminal keeps above the scrolling panels (80×24: the
        board, rack and clock panels are below the moves): rack, bag and clock."""
        clock = self.query_one("#clock", RoundClock)
        self.query_one("#summary", Static).update(summary_text(self.state, clock.timer.text(), clock.timer.running,
                                                               clock.cue_line()))

    @property
    def conducts(self) -> bool:
        """Whether this station conducts the game (draws the racks, places the masters:
        the organiser's judge); a venue's judge does not (issue 27 §2)."""
        return self.may(Action.DRAW_RACK)

    def _situation(self, state: ConsoleState) -> str:
        """The situation line for this station (``judge_presenter.situation``)."""
        return situation(state, conducts=self.conducts)

    def _ready(self) -> bool:
        if self.busy:
            self._say("Espere: la acción anterior aún no ha terminado.", error=True)
            return False
        return True

    def _game_or_say(self) -> int | None:
        if self.state.game is None:
            self._say("El torneo no tiene partidas: pulse «p» para crear una.", error=True)
        return self.state.game

    def action_draw(self) -> None:
        """Draw the rack from the bag (III.17; invalid racks are redrawn, III.19)."""
        game = self._game_or_say()
        if game is None or not self._ready():
            return

        def draw() -> str:
            view = self.service.draw_rack(game, tournament_id=self.tournament_id)
            if view is None:
                return "No se puede formar un atril válido: la partida ha terminado (III.22)."
            redraws = f" ({counted(len(view.redraws), 'cambio')} de fichas, III.19)" if view.redraws else ""
            return f"Atril de la ronda {view.number}: {view.rack_shown}{redraws}." + _no_move_note(view)

        self.start_action(draw)

    def action_type_rack(self) -> None:
        """Put the cursor in the rack field."""
        self.query_one("#rack-input", Input).focus()

    def action_toggle_redraw(self) -> None:
        box = self.query_one("#redraw", Checkbox)
        box.value = not box.value

    @on(Input.Submitted, "#rack-input")
    def set_rack(self, event: Input.Submitted) -> None:
        """Use the rack the judge typed (checked by the service against the bag and III.12);
        with a rack already in play, Enter asks to replace it (III.29, with a reason)."""
        game = self._game_or_say()
        text = event.value.strip()
        if game is None or not text or not self._ready():
            return
        if self.state.rack_round is not None:
            self.action_replace_rack()
            return
        redraw = self.query_one("#redraw", Checkbox).value

        def set_rack() -> str:
            view = self.service.set_rack(game, text, redraw=redraw, tournament_id=self.tournament_id)
            return f"Atril de la ronda {view.number} escrito por el juez: {view.rack_shown}" + (
                " (cambio de fichas, III.19)." if redraw else ".") + _no_move_note(view)

        self._typed_rack = True
        self.start_action(set_rack)

    def action_replace_rack(self) -> None:
        """Replace the rack in play (III.29), with a reason: the rack typed in the rack
        field if any, else another drawn from the bag."""
        game = self._game_or_say()
        if game is None or not self._ready():
            return
        if self.state.rack_round is None:
            self._say("No hay atril en juego que cambiar: saque el de la ronda («d»).", error=True)
            return
        typed = self.query_one("#rack-input", Input).value.strip() or None
        redraw = self.query_one("#redraw", Checkbox).value
        how = f"por {typed}" if typed else "por otro sacado de la bolsa"

        def replaced(reason: str | None) -> None:
            if not reason:
                return

            def replace() -> str:
                before = len(self.service.set_aside_slips(game, tournament_id=self.tournament_id))
                view = self.service.replace_rack(game, typed, reason=reason, redraw=redraw,
                                                 tournament_id=self.tournament_id)
                aside = len(self.service.set_aside_slips(game, tournament_id=self.tournament_id)) - before
                moved = (f" {counted(aside, 'papeleta')} del atril retirado {'apartada' if aside == 1 else 'apartadas'}"
                         ": las mesas anotan de nuevo la ronda." if aside else "")
                if view is None:
                    return "No se puede formar un atril válido: la partida ha terminado (III.22)." + moved
                return (f"Atril de la ronda {view.number} cambiado (III.29): {view.rack_shown}." + moved
                        + _no_move_note(view))

            if typed:
                self._typed_rack = True
            self.start_action(replace)

        title = f"Cambiar el atril de la ronda {self.state.rack_round} {how} (III.29)"
        if typed:
            # The service checks the typed rack (bag, III.12) as the dialog opens: a wrong
            # rack is said before the judge has written the reason.
            def check() -> str:
                return self.service.check_rack(game, typed, redraw=redraw, tournament_id=self.tournament_id)

            self.app.push_screen(CheckedReasonDialog(title, check), replaced)
            return
        self.app.push_screen(ReasonDialog(title), replaced)

    def action_choose(self) -> None:
        """Enter outside the list: choose the highlighted top move."""
        moves = self.query_one("#moves", MoveChoices)
        moves.focus()
        moves.action_select()

    @on(MoveChoices.TopChosen)
    def confirm_master(self, message: MoveChoices.TopChosen) -> None:
        if not self.may(Action.CHOOSE_MASTER):          # a venue's judge: the list is only shown
            return
        game = self._game_or_say()
        if game is None or not self._ready():
            return
        top = self.state.tops[message.index]
        canonical = top.canonical
        note = "la de III.15" if message.index == 0 else f"en lugar de {self.state.tops[0].canonical} (III.15)"
        if self.state.prepared_master:            # a prepared game: its master, no choice (III.15)
            canonical, note = self.state.prepared_master, "la de la partida preparada (III.15)"
        question = f"¿Colocar {canonical} ({top.score} puntos) como jugada maestra, {note}?"

        def answer(yes: bool | None) -> None:
            if yes:
                self._place_master(game, canonical)

        self.app.push_screen(ConfirmScreen(question), answer)

    def _place_master(self, game: int, canonical: str) -> None:
        def choose() -> str:
            view = self.service.choose_master(game, canonical, tournament_id=self.tournament_id)
            return f"Jugada maestra de la ronda {view.number}: {view.master}, {view.master_score} puntos."

        self.start_action(choose)

    @on(MoveChoices.NothingToChoose)
    def nothing_to_choose(self, _message: MoveChoices.NothingToChoose) -> None:
        """Enter with no top move listed: say why there is no master to choose."""
        if self.state.rack_round is None:
            self._say("No hay atril en juego: sáquelo de la bolsa («d») o escríbalo («a»).", error=True)
        elif not self.state.top_total:
            self._say(f"Con el atril de la ronda {self.state.rack_round} no hay ninguna jugada válida: no hay "
                      "maestra que elegir. Cambie el atril («x», III.29) o termine la partida («f»).", error=True)
        else:
            self._say("Las jugadas del atril aún se están leyendo: espere un momento.")

    @on(MoveChoices.NotATop)
    def refuse_lower(self, message: MoveChoices.NotATop) -> None:
        top = self.state.tops[0].score if self.state.tops else 0
        self._say(f"{message.canonical} vale {message.score} puntos: la maestra ha de ser una jugada de "
                  f"máxima puntuación ({top} puntos, III.15).", error=True)

    def action_clock(self) -> None:
        """Start or pause the round clock (the projection screens follow it)."""
        clock = self.query_one("#clock", RoundClock)
        self._clear_error()
        clock.toggle()
        self._share_clock("start" if clock.timer.running else "pause", clock.timer.remaining())
        self._show_summary()

    def action_reset_clock(self) -> None:
        clock = self.query_one("#clock", RoundClock)
        self._clear_error()
        clock.reset(self.state.seconds)
        self._share_clock("reset", clock.timer.remaining())
        self._show_summary()

    @work(thread=True, group="timer", exit_on_error=False)
    def _share_clock(self, action: str, remaining: float) -> None:
        """Record the timer action in the event log for the other stations (III.13)."""
        if self.state.game is not None:
            try:
                self.service.record_timer(self.state.game, action, remaining, tournament_id=self.tournament_id)
            except TournamentError:
                pass  # the timer still runs here; only the projection would not follow

    def refresh_clock(self) -> None:
        """Read the round timer now (tests drive the clock with this)."""
        self.query_one("#clock", RoundClock).refresh_clock()

    def action_close_round(self) -> None:
        """Close the newest round with a master: missing slips marked, bonuses (III.24)."""
        game = self._game_or_say()
        if game is None or not self._ready():
            return
        number = self.state.close_round
        if number is None:
            self._say("No hay ninguna ronda con jugada maestra por cerrar.", error=True)
            return
        current = self.status if self.status and self.status.round_number == number else None
        if current is not None and current.pending:
            self._say(f"La ronda {number} tiene {counted(len(current.pending), 'conflicto pendiente')}: "
                      "resuélvalos antes de cerrarla («r»).", error=True)
            return
        missing = current.missing_tables if current is not None else ()
        detail = (f"{'Falta' if len(missing) == 1 else 'Faltan'} {counted(len(missing), 'papeleta')} "
                  f"({agreeing(len(missing), 'mesa')} {tables_text(missing)}): "
                  f"{'se marcará como no entregada' if len(missing) == 1 else 'se marcarán como no entregadas'}, "
                  "0 puntos.") if missing else "Todas las papeletas están entregadas."
        question = f"¿Cerrar la ronda {number}? {detail}"

        def close() -> str:
            closed = self.service.close_round(game, number, tournament_id=self.tournament_id)
            missing = closed.missing_tables
            marked = (f"{counted(len(missing), 'papeleta marcada como no entregada')} "
                      f"({agreeing(len(missing), 'mesa')} {tables_text(missing)})"
                      if missing else "todas las papeletas entregadas")
            awarded = ", ".join(f"mesa {table} +{points}" for table, points in sorted(closed.bonuses.items()))
            return f"Ronda {number} cerrada: {marked}; bonificaciones: {awarded or 'ninguna'}."

        self.app.push_screen(ConfirmScreen(question), lambda yes: self.start_action(close) if yes else None)

    def action_resolve_conflict(self) -> None:
        """Resolve the first pending conflict of the round shown: keep the stored slip or
        replace it by the new entry, with an optional reason (II.4.a)."""
        if not self._ready():
            return
        pending = self.status.pending if self.status is not None else ()
        if not pending:
            self._say("No hay conflictos pendientes en esta ronda.")
            return
        item = pending[0]
        what = "doble entrada" if item.kind == "double_entry" else "dos papeletas distintas"

        def decided(decision: object) -> None:
            if not isinstance(decision, ConflictDecision):
                return

            def resolve() -> str:
                self.service.resolve_conflict(item.conflict_id, use_new=decision.use_new,
                                              reason=decision.reason)
                kept = "la nueva sustituye a la anotada" if decision.use_new else "se mantiene la anotada"
                return f"Conflicto de la mesa {item.table} resuelto: {kept}."

            self.start_action(resolve)

        self.app.push_screen(ConflictDialog(
            f"Mesa {item.table} ({item.player}), ronda {self.status.round_number if self.status else ''}: {what}",
            f"{item.stored} ({item.stored_score} puntos)", f"{item.new} ({item.new_score} puntos, de {item.entered_by})"),
            decided)

    def action_undo_master(self) -> None:
        """Take back the last master placed (before the next rack), with a reason."""
        game = self._game_or_say()
        if game is None or not self._ready():
            return
        if not self.state.last_master or self.state.rack_round is not None:
            self._say("No hay maestra que deshacer: solo la última, antes de sacar el atril siguiente.", error=True)
            return
        master = self.state.last_master

        def undo(reason: str | None) -> None:
            if not reason:
                return

            def undone() -> str:
                view = self.service.undo_master(game, reason=reason, tournament_id=self.tournament_id)
                return f"Maestra {master} deshecha: la ronda {view.number} espera de nuevo su maestra."

            self.start_action(undone)

        self.app.push_screen(ReasonDialog(f"Deshacer la jugada maestra {master}"), undo)

    def action_end_game(self) -> None:
        """The judge ends the game (III.22) and says why (recorded)."""
        game = self._game_or_say()
        if game is None or not self._ready():
            return

        def ended(reason: str | None) -> None:
            if not reason:
                return

            def end() -> str:
                text = self.service.end_game(game, tournament_id=self.tournament_id,
                                             reason=reason)
                return f"Partida {game} terminada: {text}."

            self.start_action(end)

        self.app.push_screen(ReasonDialog(f"Terminar la partida {game} (III.22): un atril sin maestra se descarta",
                                          "Motivo de la decisión:"), ended)

    def action_new_game(self) -> None:
        """Create the next game (only when none is in play)."""
        if not self._ready():
            return
        if self.state.game is not None and not self.state.over:
            self._say(f"La partida {self.state.game} sigue en juego: termínela antes («f»).", error=True)
            return

        def create(request: NewGame | None, unpublished_reason: str = "") -> None:
            if request is None:
                return
            if request.created:                 # a prepared game, created by the form (III.15)
                self.start_action(lambda: request.created)
                return

            def new_game() -> str:
                number = self.service.create_game(tournament_id=self.tournament_id, rounds=request.rounds,
                                                  seed=request.seed, seconds_per_round=request.seconds, unpublished_reason=unpublished_reason)
                return f"Partida {number} creada: pulse «d» para sacar el primer atril."

            self.start_action(new_game)

        unpublished = self.state.unpublished
        if unpublished is None:
            self.app.push_screen(NewGameScreen(self._prepared_game_maker("")), create)
            return

        def why(reason: str | None) -> None:
            if reason:
                self.app.push_screen(NewGameScreen(self._prepared_game_maker(reason)),
                                     lambda request: create(request, reason))

        # IV.32: the results come first (Clasificaciones publishes them); the judge may
        # start anyway, saying why.
        self.app.push_screen(ReasonDialog(f"La partida {unpublished} no tiene publicados sus resultados ni la "
                                          "clasificación del torneo (IV.32). Publíquelos en «Clasificaciones», "
                                          "o escriba por qué se empieza la siguiente igualmente (Esc: volver)",
                                          "Motivo:"), why)

    def _prepared_game_maker(self, unpublished_reason: str) -> Callable[[NewGame], str]:
        """How the new game form creates a prepared game (III.15; the service call of
        ``duplicada game start --prepared``): read the file, create the game; the form
        shows a refusal (``PreparedFileError``, ``TournamentError``) and nothing is created."""

        def make(request: NewGame) -> str:
            from duplicate.prepared.file import load_prepared

            assert request.prepared is not None
            prepared = load_prepared(request.prepared)[0]
            number = self.service.create_game(tournament_id=self.tournament_id, rounds=request.rounds,
                                              seed=request.seed, seconds_per_round=request.seconds,
                                              unpublished_reason=unpublished_reason, prepared=prepared)
            return (f"Partida {number} creada: partida preparada (III.15), {len(prepared.rounds)} rondas, "
                    f"{prepared.total} puntos; pulse «d» para sacar su primer atril.")

        return make

    def action_back(self) -> None:
        """Escape: leave the rack field, else go back to the menu."""
        if isinstance(self.focused, Input):
            self.query_one("#moves", MoveChoices).focus()
            return
        self.app.pop_screen()

    # --- helpers ----------------------------------------------------------------------------

    _error_said = False
    """Whether the message line shows a refusal (cleared by ``_clear_error``)."""

    def _say(self, text: str, *, error: bool = False) -> None:
        self._error_said = error
        self.query_one("#message", Static).update(Text(text, style="bold red" if error else "bold"))

    def _clear_error(self) -> None:
        """A refusal is not kept once the judge acted with success or a new round began
        (issue 25 §3): the line says the situation again."""
        if self._error_said:
            self._say(self._situation(self.state))
