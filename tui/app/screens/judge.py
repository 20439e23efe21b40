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
  creates a game when there is none in play.

Every action goes through ``TournamentService``, in a worker thread (the move search
runs when a rack is set), and comes back as a message: the interface never waits.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, Footer, Header, Input, Label, Static
from textual.worker import get_current_worker

from data.rules import ROUND_SECONDS
from duplicate.announce import SpellingTable, master_announcement, rack_announcement
from duplicate.notation import format_move, parse_move
from duplicate.plurals import counted
from duplicate.rack import shown_rack
from duplicate.service import GameStatus, RoundStatus, TournamentError, TournamentService
from duplicate.service.views import pending_line
from duplicate.timer import Cue, RoundTimer
from lexicon.alphabet import BLANK_FLAG
from lexicon.board import Board, Direction
from lexicon.lexicon import Lexicon
from lexicon.move import Move, placed_tiles
from lexicon.movegen import generate, walker_name
from tui.app.heap import freeze_heap
from tui.app.messages import DataChanged
from tui.app.station import StationScreen
from tui.app.widgets.board import BLANK_STYLE, TILE_STYLE, BoardView
from tui.app.widgets.judge_dialogs import ConflictDecision, ConflictDialog, ReasonDialog
from tui.app.widgets.moves import MoveChoices, NextScore, TopMove
from tui.app.widgets.timer import RoundClock

NEXT_SCORES = 20
"""How many scores below the top the move list shows."""

TOPS_SHOWN = 30
"""How many top moves the list shows (a two-blank rack can have thousands of equal tops,
differing in the letters the blanks stand for); the rest are counted."""


# --- what the console shows, read in a worker -----------------------------------------------
@dataclass(frozen=True)
class ConsoleState:
    """Everything the console shows of one game, as plain values (built off the UI thread).

    ``game`` is None when the tournament has no game; ``rack_round`` is the round whose
    rack waits for its master (None between rounds); ``close_round`` the newest round
    with a master that is not closed yet.
    """

    game: int | None
    seconds: int = ROUND_SECONDS
    planned_rounds: int | None = None
    round_number: int = 0
    board: Board | None = None
    highlight: frozenset[tuple[int, int]] = frozenset()
    bag: tuple[int, int, int, int] = (0, 0, 0, 0)
    """Tiles in the bag: total, vowels, consonants, blanks."""
    rack_round: int | None = None
    rack_leftover: tuple[str, ...] = ()
    rack_drawn: tuple[str, ...] = ()
    rack_tiles: tuple[int, ...] = ()
    redraws: tuple[str, ...] = ()
    tops: tuple[TopMove, ...] = ()
    """The first ``TOPS_SHOWN`` moves of top score, in the III.15 order."""
    top_total: int = 0
    move_count: int = 0
    rack_reading: str = ""
    master_reading: str = ""
    last_master: str | None = None
    over: bool = False
    end_reason: str = ""
    close_round: int | None = None
    status_round: int | None = None
    shared_timer: tuple[int | None, float, bool] | None = None
    """The round clock as stored by the service (round, seconds left, running), III.13."""
    unpublished: int | None = None
    """The last game when it is over and its results are not published yet (IV.32)."""


def read_console(service: TournamentService, tournament_id: int | None, table: SpellingTable) -> ConsoleState:
    """The current game as a ``ConsoleState`` (replays the game if needed: call it off the
    UI thread). Raises ``TournamentError`` from the service."""
    tournament = service.tournament(tournament_id)
    if not tournament.games:
        return ConsoleState(game=None)
    number = service.current_game(tournament_id)
    info = next(game for game in tournament.games if game.number == number)
    engine = service.engine(number, tournament_id)
    alphabet = engine.alphabet
    board = engine.board.copy()
    rounds = service.rounds(number, tournament_id)
    played = [view for view in rounds if view.master is not None]
    highlight: frozenset[tuple[int, int]] = frozenset()
    master_reading = ""
    if played:
        last = played[-1]
        assert last.master is not None and last.master_score is not None and last.cumulative is not None
        before = Board.from_cgp(last.board_before, alphabet)
        move = parse_move(last.master, alphabet, oriented=False)
        highlight = frozenset((row, col) for row, col, _ in placed_tiles(before, move))
        master_reading = master_announcement(last.master, last.master_score, last.cumulative, table)
    counts = engine.bag.counts()
    state: dict[str, Any] = {}
    pending = engine.pending
    if pending is not None:
        rack = pending.rack
        state = {
            "rack_round": pending.number,
            "rack_leftover": tuple(_symbol(tile, alphabet) for tile in rack.leftover),
            "rack_drawn": tuple(_symbol(tile, alphabet) for tile in rack.drawn),
            "rack_tiles": rack.tiles,
            "redraws": tuple(f"{shown_rack(redraw.rack, alphabet)}: {redraw.reason}" for redraw in pending.redraws),
            "tops": tuple(TopMove(format_move(ranked.move, alphabet), ranked.score, ranked.reason,
                                  alphabet.display(ranked.leave)) for ranked in pending.ranked[:TOPS_SHOWN]),
            "top_total": len(pending.ranked),
            "move_count": pending.move_count,
            "rack_reading": rack_announcement(rack.leftover, rack.drawn, alphabet, table),
        }
    open_rounds = [view.number for view in played if not view.closed]
    return ConsoleState(
        game=number, seconds=info.seconds_per_round, planned_rounds=info.planned_rounds,
        round_number=engine.round_number, board=board, highlight=highlight,
        bag=(len(engine.bag), counts.vowels, counts.consonants, counts.blanks),
        master_reading=master_reading, last_master=played[-1].master if played else None,
        over=engine.over, end_reason=str(engine.end_reason or ""),
        close_round=open_rounds[-1] if open_rounds else None,
        status_round=(open_rounds[-1] if open_rounds else rounds[-1].number) if rounds else None,
        shared_timer=service.timer_state(number, tournament_id),
        unpublished=number if info.status == GameStatus.ENDED.value else None, **state)


def _symbol(tile: int, alphabet: Any) -> str:
    return "?" if tile == alphabet.blank else alphabet.symbol(tile)


def next_scores(board: Board, rack: Sequence[int], lexicon: Lexicon, *, limit: int = NEXT_SCORES) -> tuple[NextScore, ...]:
    """The ``limit`` best scores below the top one, each with one move (fewest blanks,
    then fewest tiles placed, then generation order) and how many moves share it.

    A display aid, not a rule: the master is chosen among the top moves only (III.15).
    Works on the compiled generator's arrays when ``generate`` uses it (building a
    ``Move`` for each of 100,000 moves would take over a second), else on the
    pure-Python walker's moves.
    """
    if walker_name() == "gaddag":
        from lexicon.gaddag_walk import Mode, walk

        groups = _groups_numpy(*walk(board, rack, lexicon, Mode.ALL)[:2], limit)
    else:
        groups = _groups_python(generate(board, rack, lexicon).raw, limit)
    result = []
    for score, count, down, row, col, word in groups:
        move = Move(row, col, Direction.DOWN if down else Direction.ACROSS, word)
        result.append(NextScore(score, format_move(move, lexicon.alphabet), count))
    return tuple(result)


Group = tuple[int, int, int, int, int, tuple[int, ...]]
"""``(score, moves with it, down, row, col, word)`` of the move shown for a score."""


def _groups_python(raw: Sequence[tuple[int, int, int, int, tuple[int, ...], int]], limit: int) -> list[Group]:
    top = max((entry[0] for entry in raw), default=0)
    best: dict[int, tuple[tuple[int, int, int], int]] = {}
    count: dict[int, int] = {}
    for index, (score, _down, _row, _col, word, placed) in enumerate(raw):
        if score == top:
            continue
        count[score] = count.get(score, 0) + 1
        key = (sum(1 for tile in word if tile & BLANK_FLAG), placed, index)
        if score not in best or key < best[score][0]:
            best[score] = (key, index)
    groups = []
    for score in sorted(best, reverse=True)[:limit]:
        _score, down, row, col, word, _placed = raw[best[score][1]]
        groups.append((score, count[score], down, row, col, word))
    return groups


def _groups_numpy(info: Any, words: Any, limit: int) -> list[Group]:
    import numpy as np

    scores = info[:, 0]
    distinct = np.unique(scores)[::-1]
    if len(distinct) < 2:
        return []
    wanted = distinct[1: limit + 1]
    rows = np.flatnonzero((scores >= wanted[-1]) & (scores < distinct[0]))
    blanks = ((words[rows] & BLANK_FLAG) != 0).sum(axis=1)
    rows = rows[np.lexsort((rows, info[rows, 5], blanks, -scores[rows]))]
    ordered = scores[rows]
    firsts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])
    counts = np.diff(np.r_[firsts, len(rows)])
    groups = []
    for first, count in zip(firsts.tolist(), counts.tolist()):
        score, down, row, col, length, _placed = info[rows[first]].tolist()
        groups.append((score, count, down, row, col, tuple(words[rows[first], :length].tolist())))
    return groups


def status_text(status: RoundStatus) -> Text:
    """Slips entered versus expected, per assistant range, and the tables missing."""
    text = Text()
    text.append(f"Ronda {status.round_number}: {status.entered}/{counted(status.expected, 'papeleta')}", style="bold")
    text.append("\n")
    covered: set[int] = set()
    for assistant, (expected, entered, missing) in sorted(status.per_assistant.items()):
        covered.update(missing)
        style = "green" if not missing else "yellow"
        text.append(f"  {assistant}: {entered}/{expected}", style=style)
        if missing:
            text.append(f" — faltan {_tables(missing)}")
        text.append("\n")
    loose = tuple(table for table in status.missing_tables if table not in covered)
    if loose:
        label = "sin auxiliar asignado" if status.per_assistant else "faltan"
        text.append(f"  {label}: {_tables(loose)}", style="yellow")
    elif not status.missing_tables and status.expected:
        text.append("  todas entregadas", style="green")
    if status.pending:
        text.append(f"\nPendiente del juez ({len(status.pending)}; «r» resuelve):", style="bold red")
        for item in status.pending:
            text.append(f"\n  ⚠ {pending_line(item)}", style="yellow")
    return text


def _tables(tables: Sequence[int], shown: int = 12) -> str:
    head = ", ".join(str(table) for table in tables[:shown])
    return head + (f" y {len(tables) - shown} más" if len(tables) > shown else "")


# --- dialogs ------------------------------------------------------------------------------------
_RACK = Binding.Group("Atril")
"""Draw, type and replace the rack share one footer entry («d a x Atril»), so that the
footer fits 80 columns; the situation line says which key does what."""


class ConfirmScreen(ModalScreen[bool]):
    """A yes/no question: ``s`` or Enter says yes, ``n`` or Escape says no."""

    DEFAULT_CSS = """
    ConfirmScreen { align: center middle; }
    ConfirmScreen > Vertical { width: 70; max-width: 95%; height: auto; border: thick $primary; padding: 1 2;
                               background: $panel; }
    ConfirmScreen Horizontal { height: auto; margin-top: 1; }
    """
    BINDINGS: ClassVar = [Binding("s,enter", "answer(True)", "Sí"), Binding("n,escape", "answer(False)", "No")]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.question, id="question")
            with Horizontal():
                yield Button("Sí (s)", id="yes", variant="primary")
                yield Button("No (n)", id="no")

    def action_answer(self, answer: bool) -> None:
        self.dismiss(answer)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")


@dataclass(frozen=True)
class NewGame:
    """What the judge asked for a new game: ``rounds`` (None: full bag, III.21),
    ``seed`` (None: at random), ``seconds`` per round (None: the tournament's)."""

    rounds: int | None
    seed: int | None
    seconds: int | None


class NewGameScreen(ModalScreen[NewGame | None]):
    """Form for a new game: agreed rounds or full bag, seed, seconds per round."""

    DEFAULT_CSS = """
    NewGameScreen { align: center middle; }
    NewGameScreen > Vertical { width: 64; max-width: 95%; height: auto; border: thick $primary; padding: 1 2;
                               background: $panel; }
    NewGameScreen Horizontal { height: auto; }
    NewGameScreen Label { width: 26; padding: 1 1 0 0; }
    NewGameScreen Input { width: 1fr; }
    """
    BINDINGS: ClassVar = [Binding("escape", "cancel", "Cancelar")]

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("Nueva partida", classes="title")
            with Horizontal():
                yield Label("Rondas pactadas")
                yield Input(placeholder="vacío: bolsa completa", type="integer", id="rounds")
            with Horizontal():
                yield Label("Semilla de la bolsa")
                yield Input(placeholder="vacío: al azar", type="integer", id="seed")
            with Horizontal():
                yield Label("Segundos por ronda")
                yield Input(placeholder="vacío: los del torneo", type="integer", id="seconds")
            yield Static("Enter en el último campo crea la partida; Escape cancela.", classes="hint")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if event.input.id != "seconds":
            self.focus_next()
            return
        numbers: list[int | None] = []
        for name, label in (("rounds", "Rondas"), ("seed", "Semilla"), ("seconds", "Segundos por ronda")):
            value = self.query_one(f"#{name}", Input).value.strip()
            try:
                number = int(value) if value else None
            except ValueError:
                self.notify(f"{label}: escriba un número entero", severity="error")
                self.query_one(f"#{name}", Input).focus()
                return
            if number is not None and not 0 <= number < 10**9:
                self.notify(f"{label}: el número {number} está fuera de rango", severity="error")
                self.query_one(f"#{name}", Input).focus()
                return
            numbers.append(number)
        rounds, seed, seconds = numbers
        self.dismiss(NewGame(rounds, seed, seconds))

    def action_cancel(self) -> None:
        self.dismiss(None)


# --- the console ----------------------------------------------------------------------------------
class JudgeScreen(StationScreen[None]):
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
    JudgeScreen.-narrow #moves-panel { height: 14; }
    JudgeScreen #summary { display: none; height: 1; padding: 0 1; }
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
        yield Header()
        yield Static("Cargando la partida…", id="message")
        yield Static("", id="summary")      # narrow terminals: the rack and the clock, always in sight
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
                        yield Checkbox("cambio de fichas", id="redraw")
                clock_panel = Vertical(id="clock-panel", classes="box")
                clock_panel.border_title = "Cronómetro (III.13)"
                with clock_panel:
                    yield RoundClock(RoundTimer(ROUND_SECONDS, clock=self._clock), tick=self._tick,
                                     hint="«t» inicia o pausa, «0» reinicia", id="clock")
        yield Footer()

    def on_mount(self) -> None:
        self.title = "Consola del juez árbitro"
        self.watch(self.query_one("#clock", RoundClock), "text", lambda _text: self._show_summary(), init=False)
        self.query_one("#moves", MoveChoices).focus()
        self.start_action(None)
        self._warm_up()

    @work(thread=True, exclusive=True, group="warm-up", exit_on_error=False)
    def _warm_up(self) -> None:
        """Load the lexicon and its GADDAG before the first rack needs them."""
        lexicon = self.service.lexicon_for(self.service.tournament(self.tournament_id))
        alphabet = lexicon.alphabet
        generate(Board(alphabet), [alphabet.code("A"), alphabet.blank], lexicon)
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
        except (TournamentError, ValueError) as error:
            if not refresh:
                self.post_message(self.Failed(str(error)))
            return
        except Exception as error:  # noqa: BLE001 — shown to the judge instead of a traceback
            if not refresh:
                self.post_message(self.Failed(f"error inesperado ({type(error).__name__}): {error}"))
            return
        if not worker.is_cancelled:      # a refresh overtaken by an action says nothing
            self.post_message(self.Loaded(state, None if refresh else note))

    @work(thread=True, exclusive=True, group="scores", exit_on_error=False)
    def _search_scores(self, round_number: int, board: Board, rack: tuple[int, ...]) -> None:
        lexicon = self.service.lexicon_for(self.service.tournament(self.tournament_id))
        try:
            scores = next_scores(board, rack, lexicon)
        except Exception:  # noqa: BLE001 — the list of next scores is only an aid
            scores = ()
        self.post_message(self.ScoresReady(round_number, scores))

    @work(thread=True, exclusive=True, group="status", exit_on_error=False)
    def _read_status(self, game: int, round_number: int) -> None:
        try:
            status: RoundStatus | None = self.service.round_status(game, round_number, tournament_id=self.tournament_id)
        except (TournamentError, ValueError):
            status = None
        self.post_message(self.StatusReady(status))

    def refresh_status(self) -> None:
        """Read the slips status again (off the UI thread)."""
        if self.state.game is not None and self.state.status_round is not None:
            self._read_status(self.state.game, self.state.status_round)
        else:
            self.status = None
            self.query_one("#status", Static).update("Aún no hay ninguna ronda.")

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
        elif message.note == "" or self._situation(state) != self._situation(previous):
            self._say(self._situation(state))
        self.refresh_bindings()
        if self._typed_rack and message.note is not None:
            self._typed_rack = False
            self.query_one("#rack-input", Input).value = ""
            self.query_one("#redraw", Checkbox).value = False
            self.query_one("#moves", MoveChoices).focus()
        if state.game is None:
            self.sub_title = "sin partida"
            self.query_one("#board", BoardView).board = None
            self.query_one("#rack-line", Static).update("")
            self.query_one("#bag-line", Static).update("")
            self.query_one("#moves", MoveChoices).show_tops((), empty_text="Sin partida: «p» crea una.")
            self.query_one("#reading", Static).update("")
            self.refresh_status()
            return
        rounds = counted(state.planned_rounds, "ronda") if state.planned_rounds else "bolsa completa"
        self.sub_title = (f"Partida {state.game} ({rounds}) — terminada" if state.over
                          else f"Partida {state.game} ({rounds}) — ronda {state.round_number}")
        board = self.query_one("#board", BoardView)
        board.board = state.board
        board.highlight = state.highlight
        self.query_one("#rack-line", Static).update(self._rack_text(state))
        total, vowels, consonants, blanks = state.bag
        self.query_one("#bag-line", Static).update(
            f"Bolsa {total}: {vowels} vocales, {consonants} consonantes, {blanks} "
            f"{'comodín' if blanks == 1 else 'comodines'}")
        moves = self.query_one("#moves", MoveChoices)
        self.query_one("#moves-panel").border_subtitle = (
            f"{state.top_total} de máxima puntuación, {state.move_count} en total" if state.rack_round else "")
        if state.tops != previous.tops or state.rack_round != previous.rack_round or not previous.game:
            empty = ("Ninguna jugada válida con este atril: «x» lo cambia (III.29)." if state.rack_round else "La partida ha terminado." if state.over else
                     "Sin atril: «d» lo saca de la bolsa, «a» lo escribe.")
            moves.show_tops(state.tops, hidden=state.top_total - len(state.tops), searching=bool(state.tops),
                            empty_text=empty)
            self.scores_round = None
            if state.tops and state.board is not None and state.rack_round is not None:
                self._search_scores(state.rack_round, state.board, state.rack_tiles)
        self.query_one("#reading", Static).update(self._reading_text(state))
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

    def _show_summary(self) -> None:
        """The one line a narrow terminal keeps above the scrolling panels (80×24: the
        board, rack and clock panels are below the moves): rack, bag and clock."""
        state = self.state
        clock = self.query_one("#clock", RoundClock)
        text = Text()
        if state.rack_round is not None:
            text.append("Atril ", style="bold")
            text.append(" ".join(state.rack_leftover + state.rack_drawn), style="bold")
            text.append(f" · bolsa {state.bag[0]}")
        elif state.game is not None:
            text.append(f"Ronda {state.round_number}: sin atril", style="dim")
        text.append(f" · crono {clock.timer.text()} {'en marcha' if clock.timer.running else 'parado'}")
        self.query_one("#summary", Static).update(text)

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
        text = status_text(message.status) if message.status is not None else Text("Aún no hay ninguna ronda.")
        if self.state.close_round is not None:
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
        state = self.state
        playing = state.game is not None and not state.over
        if action in ("draw", "type_rack", "end_game", "toggle_redraw"):
            return playing
        if action == "new_game":
            return self.loaded and not playing
        if action == "close_round":
            return state.game is not None
        return True

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
            redraws = f" ({len(view.redraws)} cambios de fichas, III.19)" if view.redraws else ""
            return f"Atril de la ronda {view.number}: {view.rack_shown}{redraws}."

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
                " (cambio de fichas, III.19)." if redraw else ".")

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
                view = self.service.replace_rack(game, typed, reason=reason, redraw=redraw,
                                                 tournament_id=self.tournament_id)
                if view is None:
                    return "No se puede formar un atril válido: la partida ha terminado (III.22)."
                return f"Atril de la ronda {view.number} cambiado (III.29): {view.rack_shown}."

            if typed:
                self._typed_rack = True
            self.start_action(replace)

        self.app.push_screen(ReasonDialog(f"Cambiar el atril de la ronda {self.state.rack_round} {how} (III.29)"),
                             replaced)

    def action_choose(self) -> None:
        """Enter outside the list: choose the highlighted top move."""
        moves = self.query_one("#moves", MoveChoices)
        moves.focus()
        moves.action_select()

    @on(MoveChoices.TopChosen)
    def confirm_master(self, message: MoveChoices.TopChosen) -> None:
        game = self._game_or_say()
        if game is None or not self._ready():
            return
        top = self.state.tops[message.index]
        note = "la de III.15" if message.index == 0 else f"en lugar de {self.state.tops[0].canonical} (III.15)"
        question = f"¿Colocar {top.canonical} ({top.score} puntos) como jugada maestra, {note}?"

        def answer(yes: bool | None) -> None:
            if yes:
                self._place_master(game, top.canonical)

        self.app.push_screen(ConfirmScreen(question), answer)

    def _place_master(self, game: int, canonical: str) -> None:
        def choose() -> str:
            view = self.service.choose_master(game, canonical, tournament_id=self.tournament_id)
            return f"Jugada maestra de la ronda {view.number}: {view.master}, {view.master_score} puntos."

        self.start_action(choose)

    @on(MoveChoices.NotATop)
    def refuse_lower(self, message: MoveChoices.NotATop) -> None:
        top = self.state.tops[0].score if self.state.tops else 0
        self._say(f"{message.canonical} vale {message.score} puntos: la maestra ha de ser una jugada de "
                  f"máxima puntuación ({top} puntos, III.15).", error=True)

    def action_clock(self) -> None:
        """Start or pause the round clock (the projection screens follow it)."""
        clock = self.query_one("#clock", RoundClock)
        clock.toggle()
        self._share_clock("start" if clock.timer.running else "pause", clock.timer.remaining())
        self._show_summary()

    def action_reset_clock(self) -> None:
        clock = self.query_one("#clock", RoundClock)
        clock.reset(self.state.seconds)
        self._share_clock("reset", clock.timer.remaining())

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
            self._say(f"La ronda {number} tiene {len(current.pending)} conflictos pendientes: resuélvalos antes de "
                      "cerrarla («r»).", error=True)
            return
        missing = current.missing_tables if current is not None else ()
        detail = (f"Faltan {len(missing)} papeletas (mesas {_tables(missing)}): se marcarán como no entregadas, "
                  "0 puntos.") if missing else "Todas las papeletas están entregadas."
        question = f"¿Cerrar la ronda {number}? {detail}"

        def close() -> str:
            before = self.service.round_status(game, number, tournament_id=self.tournament_id)
            bonuses = self.service.close_round(game, number, tournament_id=self.tournament_id)
            marked = f"{len(before.missing_tables)} papeletas marcadas como no entregadas"
            awarded = ", ".join(f"mesa {table} +{points}" for table, points in sorted(bonuses.items()))
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

            def new_game() -> str:
                number = self.service.create_game(tournament_id=self.tournament_id, rounds=request.rounds,
                                                  seed=request.seed, seconds_per_round=request.seconds, unpublished_reason=unpublished_reason)
                return f"Partida {number} creada: pulse «d» para sacar el primer atril."

            self.start_action(new_game)

        unpublished = self.state.unpublished
        if unpublished is None:
            self.app.push_screen(NewGameScreen(), create)
            return

        def why(reason: str | None) -> None:
            if reason:
                self.app.push_screen(NewGameScreen(), lambda request: create(request, reason))

        # IV.32: the results come first (Clasificaciones publishes them); the judge may
        # start anyway, saying why.
        self.app.push_screen(ReasonDialog(f"La partida {unpublished} no tiene publicados sus resultados ni la "
                                          "clasificación del torneo (IV.32). Publíquelos en «Clasificaciones», "
                                          "o escriba por qué se empieza la siguiente igualmente (Esc: volver)",
                                          "Motivo:"), why)

    def action_back(self) -> None:
        """Escape: leave the rack field, else go back to the menu."""
        if isinstance(self.focused, Input):
            self.query_one("#moves", MoveChoices).focus()
            return
        self.app.pop_screen()

    # --- helpers ----------------------------------------------------------------------------
    @property
    def _arbiter(self) -> str:
        return self.station.state.arbiter

    def _say(self, text: str, *, error: bool = False) -> None:
        self.query_one("#message", Static).update(Text(text, style="bold red" if error else "bold"))

    @staticmethod
    def _situation(state: ConsoleState) -> str:
        if state.game is None:
            return "El torneo no tiene partidas: pulse «p» para crear una."
        if state.over:
            return f"La partida {state.game} ha terminado: {state.end_reason}. «p» crea la siguiente."
        if state.rack_round is not None and not state.top_total:
            return (f"Ronda {state.rack_round}: el atril no tiene ninguna jugada válida: cámbielo («x», III.29); "
                    "la partida no termina por eso (III.22).")
        if state.rack_round is not None:
            return f"Ronda {state.rack_round}: elija la jugada maestra (Enter) o cambie el atril («x», III.29)."
        undo = " «u» deshace la última maestra." if state.last_master else ""
        return f"Ronda {state.round_number}: saque el atril («d») o escríbalo («a»).{undo}"

    @staticmethod
    def _rack_text(state: ConsoleState) -> Text:
        text = Text()
        if state.rack_round is None:
            text.append(f"Ronda {state.round_number}: sin atril", style="dim")
            return text
        text.append(f"Ronda {state.rack_round}: ", style="bold")
        for symbol in state.rack_leftover:
            text.append(f" {symbol} ", style=BLANK_STYLE if symbol == "?" else TILE_STYLE)
            text.append(" ")
        if state.rack_leftover:
            text.append("│ ", style="bold")
        for symbol in state.rack_drawn:
            text.append(f" {symbol} ", style=BLANK_STYLE if symbol == "?" else TILE_STYLE)
            text.append(" ")
        for redraw in state.redraws:
            text.append(f"\ncambio de fichas: {redraw}", style="yellow")
        return text

    @staticmethod
    def _reading_text(state: ConsoleState) -> Text:
        text = Text()
        if state.master_reading:
            text.append("Maestra: ", style="bold")
            text.append(state.master_reading)
        if state.rack_reading:
            if text:
                text.append("\n")
            text.append(f"Atril ronda {state.rack_round}: ", style="bold")
            text.append(state.rack_reading)
        if not text:
            text.append("(nada que leer todavía)", style="dim")
        return text
