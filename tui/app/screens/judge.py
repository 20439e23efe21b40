"""The judge's console (issue 4 §2): one game's rounds from the judge's table.

* the board with the last master highlighted (blanks in another colour);
* the rack — drawn by the program (``d``) or typed by the judge (``a``), with the
  «cambio de fichas» of III.19 (``ctrl+r``) — and the tiles left in the bag;
* every move of top score in the III.15 order, each with why it ranks where it does,
  then the next best scores; Enter on a top move places it as master (after a
  confirmation);
* what the announcer reads aloud: the rack (III.17) and the master (III.16) with the
  spelling-table keywords (III.18);
* the round clock (III.13): ``t`` start/pause, ``0`` reset; cues ring the bell;
* the slips entered versus expected per assistant, who is missing; ``c`` closes the
  round (missing slips marked, bonuses awarded, III.24); ``f`` ends the game; ``p``
  creates a game when there is none in play;
* what the judge must resolve (conflicts, double-entry mismatches, II.4.a; ``r``) in a
  block above the panels, in sight without scrolling at any size (80×24 included).

Each key is offered only when the service says this station may do its action
(``service.may``; ``GAME_KEYS``): a venue's judge (issue 27 §2, online venues) follows the
game here and resolves its venue's conflicts, and sees only its venue's slips and
conflicts; the racks, masters, the clock, closing rounds and games are the organiser's
judge's and are not offered to it.

Every action goes through ``TournamentService``, in a worker thread (the move search
runs when a rack is set), and comes back as a message: the interface never waits.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.widgets import Checkbox, Header, Input, Static
from textual.worker import get_current_worker

from data.rules import ROUND_SECONDS
from duplicate.rules.announce import SpellingTable
from duplicate.rules.timer import Cue, RoundTimer
from duplicate.service.access import Action
from duplicate.service.errors import TournamentError
from duplicate.service.facade import TournamentService
from duplicate.service.views import NextScore, RoundStatus
from tui.app.heap import freeze_heap
from tui.app.messages import DataChanged
from tui.app.screens.judge_actions import JudgeActions
from tui.app.screens.judge_presenter import (
    ConsoleState,
    bag_line,
    console_state,
    empty_moves_text,
    moves_subtitle,
    pending_text,
    rack_text,
    reading_text,
    status_text,
    sub_title,
    within,
)
from tui.app.widgets.board import BoardView
from tui.app.widgets.glyphs import HEADER_ICON
from tui.app.widgets.moves import MoveChoices
from tui.app.widgets.steady_footer import SteadyFooter
from tui.app.widgets.timer import RoundClock
from tui.app.widgets.toggles import MarkedCheckbox

__all__ = ["JudgeScreen", "read_console"]

NEXT_SCORES = 20
"""How many scores below the top the move list shows."""

TOPS_SHOWN = 30
"""How many top moves the list shows (a two-blank rack can have thousands of equal tops,
differing in the letters the blanks stand for); the rest are counted."""


def read_console(service: TournamentService, tournament_id: int | None, table: SpellingTable) -> ConsoleState:
    """The current game as a ``ConsoleState`` from the service's views (the service may
    generate a new rack's moves: call it off the UI thread). Raises ``TournamentError``
    from the service."""
    tournament = service.tournament(tournament_id)
    if not tournament.games:
        return ConsoleState(game=None)
    number = service.current_game(tournament_id)
    info = next(game for game in tournament.games if game.number == number)
    view = service.game_view(number, tournament_id, tops=TOPS_SHOWN)
    return console_state(info, view, service.rounds(number, tournament_id), table)


GAME_KEYS: dict[str, Action] = {
    "draw": Action.DRAW_RACK, "type_rack": Action.SET_RACK, "toggle_redraw": Action.SET_RACK,
    "replace_rack": Action.REPLACE_RACK, "choose": Action.CHOOSE_MASTER, "clock": Action.RUN_TIMER,
    "reset_clock": Action.RUN_TIMER, "close_round": Action.CLOSE_ROUND, "resolve_conflict": Action.RESOLVE_CONFLICT,
    "undo_master": Action.UNDO_MASTER, "end_game": Action.END_GAME, "new_game": Action.CREATE_GAME,
}
"""The console's keys and the action each does: a key is offered only to a station that
may do its action (``service.may``)."""


_RACK = Binding.Group("Atril")
"""Draw, type and replace the rack share one footer entry («d a x Atril»), so that the
footer fits 80 columns; the situation line says which key does what."""


# --- the console ----------------------------------------------------------------------------------
class JudgeScreen(JudgeActions):
    """The judge's console for the current game of the open tournament (see the module doc).

    ``clock``: the monotonic clock of the round timer (seconds; injectable for tests);
    ``tick``: seconds between timer refreshes (None: none, call ``refresh_clock``).
    """

    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (104, "-wide")]  # noqa: RUF012 (as Screen declares it)

    DEFAULT_CSS = """
    JudgeScreen #message { height: auto; max-height: 3; padding: 0 1; }
    JudgeScreen #body { height: 1fr; }
    JudgeScreen #columns { height: 100%; }
    JudgeScreen #left { dock: left; width: 54; height: auto; }
    JudgeScreen #right { width: 1fr; height: 100%; }
    JudgeScreen .box { border: round $primary; padding: 0 1; height: auto; }
    JudgeScreen .box:focus-within { border: round $accent; }
    JudgeScreen #moves-panel { height: 1fr; min-height: 8; }
    JudgeScreen MoveChoices, JudgeScreen MoveChoices:focus { border: none; padding: 0; }
    JudgeScreen #rack-line { height: auto; }
    JudgeScreen #rack-entry { height: auto; }
    JudgeScreen #rack-input { width: 1fr; }
    JudgeScreen #redraw { width: auto; }
    JudgeScreen #reading, JudgeScreen #status { height: auto; }
    JudgeScreen.-narrow #columns { layout: vertical; height: auto; }
    JudgeScreen.-narrow #left { dock: none; width: 100%; }
    JudgeScreen.-narrow #right { width: 100%; height: auto; }
    JudgeScreen.-narrow #moves-panel { height: 10; }   /* «Papeletas» in sight at 80×24 (issue 35 §4) */
    JudgeScreen #summary { display: none; height: 1; padding: 0 1; }
    JudgeScreen #pending { display: none; height: auto; max-height: 6; padding: 0 1; background: $error 10%; }
    JudgeScreen #pending.-some { display: block; }
    JudgeScreen.-narrow #summary { display: block; }
    """

    BINDINGS: ClassVar = [
        Binding("d", "draw", "Sacar atril", group=_RACK),
        Binding("a", "type_rack", "Escribir atril", group=_RACK),
        Binding("x", "replace_rack", "Cambiar atril", group=_RACK),
        Binding("ctrl+r", "toggle_redraw", "Cambio de fichas", show=False),
        Binding("enter", "choose", "Elegir maestra", show=False),
        Binding("t", "clock", "Crono"),
        Binding("0", "reset_clock", "Reiniciar crono", show=False),
        Binding("c", "close_round", "Cerrar"),
        Binding("r", "resolve_conflict", "Resolver conflicto", show=False),  # said in the pending list
        Binding("u", "undo_master", "Deshacer maestra", show=False),        # said on the situation line
        Binding("f", "end_game", "Terminar"),
        Binding("p", "new_game", "Partida nueva"),
        Binding("escape", "back", "Volver"),
    ]

    class Loaded(Message):
        """The worker read the game (after ``note``, what the action did; None for a
        refresh after another station's change)."""

        def __init__(self, state: ConsoleState, note: str | None) -> None:
            super().__init__()
            self.state = state
            self.note = note

    class Failed(Message):
        """The service refused an action; ``text`` is its Spanish message."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    class ScoresReady(Message):
        """The next best scores of round ``round_number`` are computed."""

        def __init__(self, round_number: int, scores: tuple[NextScore, ...]) -> None:
            super().__init__()
            self.round_number = round_number
            self.scores = scores

    class StatusReady(Message):
        """The round status was read (None: no round yet)."""

        def __init__(self, status: RoundStatus | None) -> None:
            super().__init__()
            self.status = status

    def __init__(self, *, clock: Callable[[], float] | None = None, tick: float | None = 0.2,
                 spelling: SpellingTable | None = None) -> None:
        super().__init__()
        self._clock = clock or time.monotonic
        self._clock_synced = False
        self._tick = tick
        self.spelling = spelling or SpellingTable.load()
        self.state = ConsoleState(game=None)
        self.status: RoundStatus | None = None
        self.busy = False
        self.loaded = False
        """True once the first read of the game has come back."""
        self.scores_round: int | None = None
        """Round whose next best scores are shown."""
        self._typed_rack = False

    # --- layout -----------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Header(icon=HEADER_ICON)
        yield Static("Cargando la partida…", id="message")
        yield Static("", id="summary")      # narrow terminals: the rack and the clock, always in sight
        yield Static("", id="pending")      # conflicts to resolve: in sight at any size (issue 25 §2)
        # The moves come first so that they lead when the panels stack (narrow
        # terminals); on wide ones the board column is docked on the left.
        with VerticalScroll(id="body"), Horizontal(id="columns"):
            with Vertical(id="right"):
                moves_panel = Vertical(id="moves-panel", classes="box")
                moves_panel.border_title = "Jugadas (III.15)"
                with moves_panel:
                    yield MoveChoices(id="moves")
                reading_panel = Vertical(id="reading-panel", classes="box")
                reading_panel.border_title = "Leer en voz alta (III.16–III.18)"
                with reading_panel:
                    yield Static("", id="reading")
                status_panel = Vertical(id="status-panel", classes="box")
                status_panel.border_title = "Papeletas"
                with status_panel:
                    yield Static("", id="status")
            with Vertical(id="left"):
                board_panel = Vertical(id="board-panel", classes="box")
                board_panel.border_title = "Tablero"
                with board_panel:
                    yield BoardView(id="board")
                rack_panel = Vertical(id="rack-panel", classes="box")
                rack_panel.border_title = "Atril"
                rack_panel.border_subtitle = "«a» escribir, ^r cambio de fichas (III.19)"
                with rack_panel:
                    yield Static("", id="rack-line")
                    yield Static("", id="bag-line")
                    with Horizontal(id="rack-entry"):
                        yield Input(placeholder="p. ej. AE??RST", id="rack-input")
                        yield MarkedCheckbox("cambio de fichas", id="redraw")
                clock_panel = Vertical(id="clock-panel", classes="box")
                clock_panel.border_title = "Cronómetro (III.13)"
                with clock_panel:
                    yield RoundClock(RoundTimer(ROUND_SECONDS, clock=self._clock), tick=self._tick,
                                     hint="«t» inicia o pausa, «0» reinicia" if self.may(Action.RUN_TIMER)
                                     else "lo maneja el juez árbitro del torneo", id="clock")
        yield SteadyFooter()

    def on_mount(self) -> None:
        self.title = "Consola del juez árbitro"
        if not self.may(Action.SET_RACK):         # the rack is typed by who conducts the game only
            self.query_one("#rack-entry").display = False
            self.query_one("#rack-panel").border_subtitle = ""
        self.query_one("#moves", MoveChoices).choosing = self.may(Action.CHOOSE_MASTER)
        clock = self.query_one("#clock", RoundClock)
        self.watch(clock, "text", lambda _text: self._show_summary(), init=False)
        self.watch(clock, "cue", lambda _cue: self._show_summary(), init=False)
        self.query_one("#moves", MoveChoices).focus()
        self.start_action(None)
        self._warm_up()

    @work(thread=True, exclusive=True, group="warm-up", exit_on_error=False)
    def _warm_up(self) -> None:
        """Load the lexicon and its GADDAG before the first rack needs them."""
        try:
            self.service.warm_up(self.tournament_id)
        except TournamentError:
            return
        freeze_heap()

    # --- workers ----------------------------------------------------------------------------
    def start_action(self, action: Callable[[], str] | None) -> None:
        """Run ``action`` (a service call returning a note for the judge) then re-read the
        game, in a worker; the answer comes back as ``Loaded`` or ``Failed``."""
        self.busy = True
        self._work(action, refresh=False)

    @work(thread=True, exclusive=True, group="console", exit_on_error=False)
    def _work(self, action: Callable[[], str] | None, *, refresh: bool) -> None:
        worker = get_current_worker()
        try:
            note = action() if action is not None else ""
            state = read_console(self.service, self.tournament_id, self.spelling)
        except TournamentError as error:         # the service's refusal, said as it is
            if not refresh:
                self.post_message(self.Failed(str(error)))
            return
        except Exception as error:  # noqa: BLE001 — the console's action runner: shown to the judge, never a traceback
            if not refresh:
                self.post_message(self.Failed(f"error inesperado ({type(error).__name__}): {error}"))
            return
        if not worker.is_cancelled:      # a refresh overtaken by an action says nothing
            self.post_message(self.Loaded(state, None if refresh else note))

    @work(thread=True, exclusive=True, group="scores", exit_on_error=False)
    def _search_scores(self, game: int, round_number: int) -> None:
        try:
            scores = self.service.next_scores(game, self.tournament_id, round_number=round_number, limit=NEXT_SCORES)
        except TournamentError:                  # the list of next scores is only an aid
            scores = ()
        self.post_message(self.ScoresReady(round_number, scores))

    @work(thread=True, exclusive=True, group="status", exit_on_error=False)
    def _read_status(self, game: int, round_number: int) -> None:
        try:
            status: RoundStatus | None = self.service.round_status(game, round_number, tournament_id=self.tournament_id)
            venue = self.station.state.venue
            if status is not None and venue is not None:     # a venue's station: its venue's tables only
                status = within(status, [table for table, entry, _ in self.service.seats(game, self.tournament_id)
                                         if entry.venue == venue])
        except TournamentError:
            status = None
        self.post_message(self.StatusReady(status))

    def refresh_status(self) -> None:
        """Read the slips status again (off the UI thread)."""
        if self.state.game is not None and self.state.status_round is not None:
            self._read_status(self.state.game, self.state.status_round)
        else:
            self.show_status(self.StatusReady(None))

    # --- answers from the workers -------------------------------------------------------------
    @on(Loaded)
    def show_state(self, message: Loaded) -> None:
        previous = self.state
        state = self.state = message.state
        if message.note is not None:    # an action's answer, not a background refresh
            self.busy = False
        self.loaded = True
        if message.note:
            self._say(message.note)
        elif (message.note == "" or self._situation(state) != self._situation(previous)
              or (self._error_said and (state.game, state.round_number) != (previous.game, previous.round_number))):
            self._say(self._situation(state))   # a refusal of the previous round is not kept
        self.refresh_bindings()
        if self._typed_rack and message.note is not None:
            self._typed_rack = False
            self.query_one("#rack-input", Input).value = ""
            self.query_one("#redraw", Checkbox).value = False
            self.query_one("#moves", MoveChoices).focus()
        if state.game is None:
            self.sub_title = sub_title(state)
            self.query_one("#board", BoardView).board = None
            self.query_one("#rack-line", Static).update("")
            self.query_one("#bag-line", Static).update("")
            self.query_one("#moves", MoveChoices).show_tops((), empty_text=empty_moves_text(state, conducts=self.conducts))
            self.query_one("#reading", Static).update("")
            self.refresh_status()
            return
        self.sub_title = sub_title(state)
        board = self.query_one("#board", BoardView)
        board.board = state.board
        board.highlight = state.highlight
        self.query_one("#rack-line", Static).update(rack_text(state))
        self.query_one("#bag-line", Static).update(bag_line(state))
        moves = self.query_one("#moves", MoveChoices)
        self.query_one("#moves-panel").border_subtitle = moves_subtitle(state)
        if state.tops != previous.tops or state.rack_round != previous.rack_round or not previous.game:
            moves.show_tops(state.tops, hidden=state.top_total - len(state.tops), searching=bool(state.tops),
                            empty_text=empty_moves_text(state, conducts=self.conducts))
            self.scores_round = None
            if state.tops and state.game is not None and state.rack_round is not None:
                # After the frame that shows the tops: the search (every move generated
                # again, tens of ms) would otherwise hold the interpreter while the
                # console's first frame is drawn (issue 38).
                self.call_after_refresh(self._search_scores, state.game, state.rack_round)
        self.query_one("#reading", Static).update(reading_text(state))
        clock = self.query_one("#clock", RoundClock)
        first = not self._clock_synced
        if first or state.rack_round != previous.rack_round or state.seconds != clock.timer.seconds:
            clock.reset(state.seconds)
            shared = state.shared_timer
            if shared is not None and state.rack_round is not None and shared[0] == state.rack_round:
                # The clock is the service's (III.13): leaving the console or restarting
                # the app does not reset it; the local clock only ticks between reads.
                clock.timer.sync(shared[1], shared[2])
                clock.refresh_clock()
            self._clock_synced = True
        self._show_summary()
        self.refresh_status()

    @on(Failed)
    def show_failure(self, message: Failed) -> None:
        self.busy = False
        self.loaded = True
        self._say(message.text, error=True)
        if self._typed_rack:
            # A refused rack stays typed, with the cursor in it, to be corrected.
            self._typed_rack = False
            self.set_focus(self.query_one("#rack-input", Input))

    @on(ScoresReady)
    def show_scores(self, message: ScoresReady) -> None:
        if message.round_number != self.state.rack_round:
            return
        self.query_one("#moves", MoveChoices).show_others(message.scores)
        self.scores_round = message.round_number

    @on(StatusReady)
    def show_status(self, message: StatusReady) -> None:
        self.status = message.status
        pending = self.query_one("#pending", Static)
        pending.update(pending_text(message.status))
        pending.set_class(bool(message.status is not None and message.status.pending), "-some")
        text = (status_text(message.status, pending=False) if message.status is not None
                else Text("Aún no hay ninguna ronda."))
        if self.state.close_round is not None and self.may(Action.CLOSE_ROUND):
            text.append(f"\nRonda {self.state.close_round} con maestra: «c» la cierra.", style="dim")
        self.query_one("#status", Static).update(text)

    def on_data_changed(self, _message: DataChanged) -> None:
        """Another station (or this one) changed something: re-read the game (unless an
        action is under way: it re-reads it anyway) and the slips status."""
        if not self.busy:
            self._work(None, refresh=True)
        self.refresh_status()

    @on(RoundClock.CueReached)
    def ring(self, message: RoundClock.CueReached) -> None:
        self.app.bell()
        loud = message.cue in (Cue.RAISE, Cue.TIME)
        self.notify(message.cue.value, title="Cronómetro", severity="error" if loud else "warning",
                    timeout=6 if loud else 4)

    # --- actions ----------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Show in the footer only the keys that make sense now."""
        if action in GAME_KEYS and not self.may(GAME_KEYS[action]):
            return False
        state = self.state
        playing = state.game is not None and not state.over
        if action in ("draw", "type_rack", "end_game", "toggle_redraw"):
            return playing
        if action == "new_game":
            return self.loaded and not playing
        if action == "close_round":
            return state.game is not None
        return True
