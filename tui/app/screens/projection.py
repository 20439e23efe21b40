"""The projection screen (issue 4 §2): what the room sees on a big screen — the board,
the rack in block letters, the round timer, the last master with its score and the
master total (III.16), and the partial standings every ``partial_every`` rounds (FISE:
every 3).

It follows the judge's station: on ``DataChanged`` it reads everything again through
the service. Nothing is typed here.

The timer follows the judge's console when the judge uses its timer (the console records
start/pause/reset in the event log); it can also be driven here (keys: space starts/pauses, ``r`` resets; it resets
itself to the game's seconds per round when a new rack appears). The database has no
shared timer state yet, so the announcer — or whoever runs the projector — starts it
when calling «TIEMPO» (III.13, III.17).

Partial standings are those through round ``k × partial_every`` once that round is
closed (its slips are all in); after the game's last round they cover the whole game.
They are shown beside the board when there is room, and ``c`` switches the main area
between the board and the full standings at any size.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from rich.table import Table
from rich.text import Text
from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import ContentSwitcher, Digits, Static

from data.rules import ROUND_SECONDS
from duplicate.labels import spanish_number
from duplicate.rules.statuses import GameStatus
from duplicate.rules.timer import RoundTimer
from duplicate.service.errors import TournamentError
from duplicate.service.facade import TournamentService
from duplicate.service.settings import TournamentSettings
from duplicate.service.views import BoardCells, RoundView, Tile
from tui.app.messages import DataChanged
from tui.app.station import StationScreen
from tui.app.widgets.big_board import BigBoard, board_size, cell_for
from tui.app.widgets.block_letters import BigText, Token
from tui.app.widgets.steady_footer import SteadyFooter

SIDE_MIN = 40
"""Columns kept for the side panel (rack, timer, master) when choosing the board size."""

LEFTOVER_STYLE = "#c8b48a"
NEW_STYLE = "#ffe9a8"
BLANK_TILE_STYLE = "#ff8a80"
MASTER_STYLE = "#ffd84d"

TICK_SECONDS = 0.2


@dataclass(frozen=True)
class StandingLine:
    """One line of the projected standings."""

    position: int
    name: str
    total: int
    percentage: float


@dataclass(frozen=True)
class ProjectionData:
    """Everything the projection shows, read from the service (see ``read_projection``)."""

    title: str
    message: str = ""
    board: BoardCells | None = None
    highlight: frozenset[tuple[int, int]] = frozenset()
    round_number: int | None = None
    rack: tuple[Token, ...] = ()
    rack_label: str = "Atril"
    master_label: str = "Jugada maestra"
    master: tuple[Token, ...] = ()
    master_score: int | None = None
    cumulative: int | None = None
    standings_title: str = ""
    standings: tuple[StandingLine, ...] = field(default_factory=tuple)
    seconds_per_round: int = ROUND_SECONDS
    shared_timer: tuple[int | None, float, bool] | None = None
    """The judge's timer (``TournamentService.timer_state``): round, seconds left, running."""


def read_projection(service: TournamentService, tournament_id: int | None) -> ProjectionData:
    """Read the current game of the tournament for the projection."""
    info = service.tournament(tournament_id)
    try:
        number = service.current_game(tournament_id)
    except TournamentError:
        return ProjectionData(title=info.name, message="El torneo aún no tiene partidas.")
    game_info = next(game for game in info.games if game.number == number)
    view = service.game_view(number, tournament_id, tops=None)    # the moves are the judge's
    rounds = service.rounds(number, tournament_id)
    title = f"{info.name} · Partida {number}"

    def tokens(tiles: Sequence[Tile], style: str) -> list[Token]:
        return [(tile.text, BLANK_TILE_STYLE if tile.blank else style) for tile in tiles]

    in_play = view.rack
    if in_play is not None:
        rack = tokens(in_play.leftover, LEFTOVER_STYLE) + tokens(in_play.drawn, NEW_STYLE)      # III.17 order
        round_number: int | None = in_play.number
        rack_label = f"Atril de la ronda {in_play.number}"
    else:
        rack = tokens(view.leftover, LEFTOVER_STYLE)
        round_number = None
        ended = game_info.status not in (GameStatus.SETUP.value, GameStatus.PLAYING.value)
        rack_label = ("Partida terminada" if ended
                      else f"Ronda {view.played + 1}: esperando el atril"
                      + (" (quedan en el atril)" if rack else ""))

    clock = view.clock
    data = ProjectionData(title=title, board=view.board, round_number=round_number,
                          rack=tuple(rack), rack_label=rack_label, seconds_per_round=game_info.seconds_per_round,
                          shared_timer=None if clock is None else (clock.round_number, clock.remaining, clock.running))
    last = view.last
    if last is not None:
        master = tuple((char.upper(), MASTER_STYLE if not char.islower() else BLANK_TILE_STYLE)
                       for char in last.master)
        data = replace(data, highlight=last.squares, master=master, master_score=last.score,
                       cumulative=last.cumulative, master_label=f"Jugada maestra de la ronda {last.number}")
    through = _partial_round(rounds, TournamentSettings.from_dict(info.settings).partial_every,
                             ended=game_info.status not in (GameStatus.SETUP.value, GameStatus.PLAYING.value))
    if through:
        names = service.entry_names(tournament_id)
        lines = tuple(StandingLine(s.position, names.get(s.player, str(s.player)), s.total, s.percentage)
                      for s in service.partial_standings(number, through, tournament_id))
        data = replace(data, standings=lines, standings_title=f"Clasificación tras la ronda {through}")
    return data


def _partial_round(rounds: Sequence[RoundView], every: int, *, ended: bool) -> int | None:
    """The round the projected standings go up to: the newest closed round that is a
    multiple of ``every`` (or the last round, closed, of an ended game); None if none."""
    closed = [view.number for view in rounds if view.closed and view.master is not None]
    if ended and closed and closed[-1] == max(view.number for view in rounds):
        return closed[-1]
    multiples = [number for number in closed if number % every == 0]
    return multiples[-1] if multiples else None


def standings_table(data: ProjectionData, limit: int | None = None) -> Table:
    """The standings as a rich table (the first ``limit`` lines)."""
    table = Table(title=Text(data.standings_title), title_style="bold", expand=True, box=None, pad_edge=False)
    table.add_column("Pos.", justify="right", style="bold")
    table.add_column("Jugador", ratio=1, no_wrap=True, overflow="ellipsis")
    table.add_column("Puntos", justify="right", style="bold #ffd84d")
    table.add_column("%", justify="right")
    for line in data.standings[:limit]:
        table.add_row(str(line.position), Text(line.name), str(line.total), spanish_number(line.percentage))
    return table


class ProjectionScreen(StationScreen[None]):
    """The room's view of the current game. See the module docstring."""

    DEFAULT_CSS = """
    ProjectionScreen { background: black; }
    ProjectionScreen #main { width: auto; height: 1fr; }
    ProjectionScreen #full-standings { width: 100; max-width: 100%; height: 1fr; padding: 0 2; }
    ProjectionScreen #board-view { width: auto; height: auto; }
    ProjectionScreen #side { width: 1fr; height: 1fr; padding: 0 0 0 2; overflow: hidden hidden; }
    ProjectionScreen .label { color: $text-muted; text-style: bold; margin-top: 1; }
    ProjectionScreen #title { color: $accent; text-style: bold; }
    ProjectionScreen #message { color: $warning; text-style: bold; }
    ProjectionScreen #message.-empty { display: none; }
    ProjectionScreen #timer-row { height: auto; }
    ProjectionScreen #timer { width: auto; color: $success; }
    ProjectionScreen #timer.short { color: $warning; }
    ProjectionScreen #timer.over { color: $error; }
    ProjectionScreen #cue { width: 1fr; height: auto; color: $error; text-style: bold; }
    ProjectionScreen #scores { height: auto; }
    ProjectionScreen #scores Vertical { width: auto; min-width: 12; height: auto; margin-right: 4; }
    ProjectionScreen #score, ProjectionScreen #total { width: auto; color: #ffd84d; }
    ProjectionScreen #side-standings { height: 1fr; margin-top: 1; }
    """

    BINDINGS = [
        Binding("escape", "app.pop_screen", "Volver"),
        Binding("space", "toggle_timer", "Crono", key_display="espacio"),
        Binding("r", "reset_timer", "Reiniciar crono"),
        Binding("c", "toggle_standings", "Tablero/clasificación"),
    ]

    def __init__(self, *, clock: Callable[[], float] | None = None) -> None:
        """``clock``: the monotonic clock of the round timer (seconds; injectable for tests)."""
        super().__init__()
        self.data: ProjectionData | None = None
        self.timer = RoundTimer(clock=clock or time.monotonic)
        self._timer_round: int | None = None

    def compose(self) -> ComposeResult:
        with Horizontal():
            with ContentSwitcher(initial="board-view", id="main"):
                yield BigBoard(id="board-view")
                yield Static(id="full-standings")
            with Vertical(id="side"):
                yield Static(id="title")
                yield Static(id="message")
                yield Static("Atril", id="rack-label", classes="label")
                yield BigText(id="rack")
                with Horizontal(id="timer-row"):
                    yield Digits("3:00", id="timer")
                yield Static("", id="cue")        # under the digits: a call fits the narrowest side
                yield Static("Jugada maestra", id="master-label", classes="label")
                yield BigText(gap=1, id="master")
                with Horizontal(id="scores"):
                    with Vertical():
                        yield Static("Puntos", classes="label")
                        yield Digits("", id="score")
                    with Vertical():
                        yield Static("Acumulado", classes="label")
                        yield Digits("", id="total")
                yield Static(id="side-standings")
        yield SteadyFooter()

    def on_mount(self) -> None:
        self.refresh_data()
        self.set_interval(TICK_SECONDS, self.tick)

    def on_resize(self, event: events.Resize) -> None:
        self.fit_board()

    def on_data_changed(self, message: DataChanged) -> None:
        self.refresh_data()

    # --- data ---------------------------------------------------------------------------
    @work(thread=True, exclusive=True, group="projection", exit_on_error=False)
    def refresh_data(self) -> None:
        """Read the game again in a worker thread (the replay and the standings never
        block the event loop) and show it."""
        try:
            data = read_projection(self.station.service, self.station.state.tournament_id)
        except TournamentError as error:
            self.app.call_from_thread(self.query_one("#message", Static).update, Text(str(error)))
            return
        self.app.call_from_thread(self.show_data, data)

    def show_data(self, data: ProjectionData) -> None:
        """Show what ``refresh_data`` read."""
        self.data = data
        self.query_one("#title", Static).update(Text(data.title))          # names as typed, never markup
        message = self.query_one("#message", Static)
        message.update(Text(data.message))
        message.set_class(not data.message, "-empty")
        board = self.query_one(BigBoard)
        board.board = data.board
        board.highlight = data.highlight
        self.query_one("#rack-label", Static).update(Text(data.rack_label))
        rack = self.query_one("#rack", BigText)
        rack.tokens = data.rack
        rack.placeholder = "—"
        self.query_one("#master-label", Static).update(Text(data.master_label))
        master = self.query_one("#master", BigText)
        master.tokens = data.master
        master.placeholder = "—"
        self.query_one("#score", Digits).update("" if data.master_score is None else str(data.master_score))
        self.query_one("#total", Digits).update("" if data.cumulative is None else str(data.cumulative))
        self.show_standings()
        if data.round_number != self._timer_round:
            self._timer_round = data.round_number
            self.timer.reset(data.seconds_per_round)
            self.show_timer()
        shared = data.shared_timer
        if shared is not None and data.round_number is not None and shared[0] == data.round_number:
            # The judge's console started, paused or reset the round timer: follow it.
            self.timer.sync(shared[1], shared[2])
            self.show_timer()
        self.fit_board()

    def show_standings(self) -> None:
        side = self.query_one("#side-standings", Static)
        full = self.query_one("#full-standings", Static)
        if self.data is None or not self.data.standings:
            side.update("")
            full.update(Text("Aún no hay clasificación parcial.", style="dim"))
            return
        side.update(standings_table(self.data, limit=10))
        full.update(standings_table(self.data))

    def fit_board(self) -> None:
        """The biggest board that fits beside the side panel."""
        board = self.query_one(BigBoard)
        board.cell = cell_for(self.size.width, self.size.height - 1, SIDE_MIN)
        width = board_size(board.cell)[0]
        self.query_one("#full-standings").styles.width = max(width, 60)

    # --- timer (III.13) ---------------------------------------------------------------------
    def action_toggle_timer(self) -> None:
        if self.timer.running:
            self.timer.pause()
        else:
            self.timer.start()
        self.show_timer()

    def action_reset_timer(self) -> None:
        self.timer.reset()
        self.show_timer()

    def action_toggle_standings(self) -> None:
        switcher = self.query_one("#main", ContentSwitcher)
        switcher.current = "full-standings" if switcher.current == "board-view" else "board-view"

    def tick(self) -> None:
        if self.timer.running:
            self.timer.due_cues()          # stops the countdown at 0:00
            self.show_timer()

    def show_timer(self) -> None:
        digits = self.query_one("#timer", Digits)
        digits.update(self.timer.text())
        left = self.timer.remaining()
        digits.set_class(0 < left <= 30, "short")
        digits.set_class(left <= 5, "over")
        # The call due now (III.13), also when the screen joined the judge's clock late
        # or the judge reset it.
        cue = self.timer.current_cue()
        self.query_one("#cue", Static).update(Text(cue.value if cue is not None else ""))
