"""Slip entry for the assistants (issue 4 §2, II.4.c): keyboard only and fast.

Mesa, Intro (the player's name appears), the move as written on the slip, Intro: the
feedback says the score, or why the slip scores 0 and what the player probably meant
(the service's verdict: reason and hint, III.20, III.23, III.25); the focus goes back to
the table field, cleared. Keys (Spanish in the footer):

* F2 fuera de tiempo (III.13), F3 nula (III.20.4; the move field, if typed, is kept as
  the slip's text), F4 no entregada — for the table typed;
* F5 the master for a list of tables in one step (``1 4 7-9``);
* F6 (or Intro on a row of the list) corrects an earlier entry: a logged
  ``correct_slip`` with a reason; in a closed round only the judge may do it;
* F7 / F8 previous / next round; F9 the signed-in assistant's tables or all tables;
* F10 (judge only) resolves the open conflict of the typed table (else the selected row):
  a dialog shows the stored slip and the conflicting one, keep or replace, with an
  optional reason (``resolve_conflict``);
* Esc clears the fields, or goes back when they are empty.

**Round.** The screen follows the round whose slips are being typed (``default_round``,
issue 25 §2): the newest open round with a master — assistants type a round's slips once
its master is announced (III.16), while the next rack is played — else the open round
being played; never a closed round while another is open. When that round changes (the
judge closes the round shown, or draws the next rack after closing it) the screen moves
on at once, unless a slip is half-typed: that slip belongs to the round shown and the
screen moves on right after it is entered. A slip refused because its round closed makes
the screen read the rounds again. Choosing another round with F7/F8 stops the following
until the round to follow is chosen again. Every action carries the round shown when it
was typed, never the service's default.

**Refused slips.** Every slip (or action) the service refuses is listed under the
feedback with the table, what was typed, its round and the reason, until the assistant
has seen it (Ctrl+O empties the list) or the same table is entered in that round: with
slips typed ahead, the feedback shows only the last one.

**Tables.** By default the range of the signed-in assistant's name
(``assistant_ranges()``, II.4.c), else every table; the list shows each table's stored
slip for the round, which are still missing, and the unresolved conflicts (a second,
different slip for a player, left to the judge). It is refreshed on ``DataChanged``,
so the entries of other stations appear.

**Order and speed.** Every action goes to the service in a worker thread, one at a time
in the order typed (a FIFO queue), so the interface never waits for the database and
the slips are stored in the order entered; the lists are read in worker threads too
(``reading`` is true until what was read is shown). ``bench/tui_entry.py`` measures the time from
Intro to the feedback.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any, ClassVar, TypeVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.message import Message
from textual.timer import Timer
from textual.widgets import DataTable, Header, Input, Label, Static

from duplicate.labels import SLIP_STATUS
from duplicate.rules.slips import SlipStatus
from duplicate.service.errors import StorageUnavailable, TournamentError
from duplicate.service.views import ConflictView, RoundView, SetAsideSlipView, SlipView
from tui.app.heap import freeze_heap
from tui.app.messages import DataChanged
from tui.app.screens.entry_actions import EntryActions, SlipJob
from tui.app.screens.entry_presenter import (
    GameData,
    Refusal,
    assistant_range,
    conflicts_line,
    context_text,
    missing_line,
    problem,
    slip_row,
    tables_shown,
)
from tui.app.widgets.glyphs import HEADER_ICON
from tui.app.widgets.ordered_input import OrderedInput
from tui.app.widgets.plain_table import PlainTable
from tui.app.widgets.slip_feedback import (
    SlipFeedback,
    error_feedback,
)
from tui.app.widgets.steady_footer import SteadyFooter

# Grouped in the footer, so that it fits in 120 columns with the judge's F10.
_MARKS = Binding.Group("Tarde/Nula/Falta", compact=True)
_ROUNDS = Binding.Group("Ronda −/+", compact=True)

MARK_NAMES = {status: SLIP_STATUS[status.value] for status in (SlipStatus.LATE, SlipStatus.NULL, SlipStatus.MISSING)}
"""The marks an assistant may put on a slip (III.13, III.20.4, III.25), named as everywhere."""


REFRESH_PAUSE = 0.3
"""Seconds without a slip being typed before the round's list is read again: while an
assistant types slip after slip, the feedback comes first and the list waits (issue 13
§2, feedback ≤ 50 ms); a read in the middle would compete with the next slip's call."""

SAVE_RETRIES = (0.5, 1.0, 2.0, 4.0)
"""Seconds to wait before each new try when the database does not answer (a slip is
saved, or reported as not saved, never silently dropped): about 8 s in all."""


class SlipRetrying(Message):
    """The database did not answer: ``job`` is tried again (``attempt`` of ``attempts``)."""

    def __init__(self, job: SlipJob, attempt: int, attempts: int, problem: str) -> None:
        super().__init__()
        self.job, self.attempt, self.attempts, self.problem = job, attempt, attempts, problem


_T = TypeVar("_T")


def _outcome(read: Callable[[], _T]) -> _T | Exception:
    """``read()``, or the exception it raised (shown to the assistant, never a traceback)."""
    try:
        return read()
    except Exception as error:  # noqa: BLE001
        return error


class SlipJobDone(Message):
    """A queued action finished: ``outcome`` is what the service returned, or the
    exception it raised."""

    def __init__(self, job: SlipJob, outcome: Any) -> None:
        super().__init__()
        self.job = job
        self.outcome = outcome


class EntryScreen(EntryActions):
    """Enter the slips of the assistant's tables. See the module docstring."""

    DEFAULT_CSS = """
    EntryScreen #context { height: auto; padding: 0 1; }
    EntryScreen #entry-row { height: 3; }
    EntryScreen #entry-row Label { padding: 1 0 0 1; }
    EntryScreen #table { width: 10; }
    EntryScreen #player { width: 26; height: 3; padding: 1 1 0 1; text-style: bold; }
    EntryScreen #move { width: 1fr; min-width: 20; }
    EntryScreen #missing { height: auto; padding: 0 1; }
    EntryScreen #saving { height: 1; padding: 0 1; color: $warning; text-style: bold; }
    EntryScreen #missing.-complete { color: $success; }
    EntryScreen #missing.-pending { color: $warning; }
    EntryScreen #conflicts { height: auto; padding: 0 1; color: $error; text-style: bold; }
    EntryScreen #refused { height: auto; max-height: 4; padding: 0 1; color: $error; background: $error 10%;
                           text-wrap: nowrap; text-overflow: ellipsis; }
    EntryScreen #refused.-none { display: none; }
    EntryScreen #slips { height: 1fr; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f2", "mark('late')", "Fuera de tiempo", group=_MARKS),
        Binding("f3", "mark('null')", "Nula", group=_MARKS),
        Binding("f4", "mark('missing')", "No entregada", group=_MARKS),
        Binding("f5", "master_many", "Maestra"),
        Binding("f6", "correct", "Corregir"),
        Binding("f7", "round(-1)", "Ronda −", group=_ROUNDS, show=False),   # said on the context line
        Binding("f8", "round(1)", "Ronda +", group=_ROUNDS, show=False),
        Binding("f9", "toggle_scope", "Mesas", show=False),
        Binding("f10", "resolve_conflict", "Conflicto"),
        Binding("f11", "toggle_double_entry", "Doble"),
        Binding("f12", "paper_board", "Tablero", show=False),     # said on the context line
        Binding("f1", "file_claim", "Reclamación", show=False),   # said on the context line (III.27)
        Binding("escape", "back", "Volver", show=False),          # Esc: clear, else back (module doc)
        Binding("ctrl+o", "refusals_seen", "Vistas", show=False),  # said on the refused slips' list
    ]

    def __init__(self, *, threaded: bool = True) -> None:
        super().__init__()
        self._shown: dict[str, list[Any]] = {}
        """The cells of each row on display, by table (to update only what changed)."""
        self.game: int | None = None
        self.round_number: int | None = None
        self.follow = True
        """Follow the newest round with a master (until a round is chosen by hand)."""
        self.show_all = False
        self.threaded = threaded
        """Service calls in a worker thread (else in the event loop, still in order)."""
        self.handled = 0
        """Actions reported so far (the benchmark and the tests wait on it)."""
        self._seats: dict[int, tuple[int, str]] = {}
        self._rounds: dict[int, RoundView] = {}
        self._range: tuple[int, int] | None = None
        self._slips: dict[int, SlipView] = {}
        self._queue: deque[SlipJob] = deque()
        self._busy = False
        self._last_table: int | None = None
        self._reading = 0
        self._refresh_timer: Timer | None = None
        self._set_aside_seen: dict[int, int] = {}
        """Per game shown, the newest ``slips_set_aside`` event already told."""
        self.board_notation = False
        """The tournament admits slips written on a paper board (II.8): F12 is offered."""
        self.double_entry = False
        """Double entry: slips typed are checked against the stored ones (a mismatch is a
        conflict for the judge), not entered."""
        self.refusals: list[Refusal] = []
        """The slips the service refused, oldest first, listed until the assistant has
        seen them (Ctrl+O) or the same table is entered in the same round."""

    # --- layout ---------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Header(icon=HEADER_ICON)
        yield Static("", id="context")
        with Horizontal(id="entry-row"):
            yield Label("Mesa")
            yield OrderedInput(handle_now=self._key_now, on_enter=self._enter, id="table", placeholder="nº",
                               restrict=r"\d*", max_length=4)
            yield Static("", id="player")
            yield Label("Jugada")
            yield OrderedInput(handle_now=self._key_now, on_enter=self._enter, id="move",
                               placeholder="H8-CASA · 8H-CASA")    # the hint is in the feedback box (80 columns)
        yield SlipFeedback(id="feedback")
        yield Static("", id="saving")
        yield Static("", id="refused", classes="-none")
        yield Static("", id="missing")
        yield PlainTable(id="slips", cursor_type="row", zebra_stripes=True)
        yield Static("", id="conflicts")
        yield SteadyFooter()

    def on_mount(self) -> None:
        table = self.query_one("#slips", DataTable)
        table.add_column("Mesa", key="table")
        table.add_column("Jugador", key="player")
        table.add_column("Papeleta", key="text")
        table.add_column("Jugada", key="move")
        table.add_column("Puntos", key="score")
        table.add_column("Estado", key="status")
        table.add_column("Anotó", key="by")
        self.refresh_data()
        self.query_one("#table", Input).focus()
        if self.threaded:
            self._warm_up()

    @work(thread=True, exclusive=True, group="warm-up", exit_on_error=False)
    def _warm_up(self) -> None:
        """Load the lexicon and the move generator (the hints search moves) before the
        first slip needs them, then keep the collector's passes short (``freeze_heap``)."""
        try:
            self.service.warm_up(self.tournament_id)
        except TournamentError:
            return
        freeze_heap()

    @property
    def pending(self) -> int:
        """Actions typed and not yet reported."""
        return len(self._queue) + (1 if self._busy else 0)

    # --- data -------------------------------------------------------------------------------
    def on_data_changed(self, message: DataChanged) -> None:
        self.refresh_data()

    def refresh_data(self) -> None:
        """Reload the game, rounds, seats and ranges (read in a worker), then the round shown."""
        service, state = self.station.service, self.station.state

        def read() -> GameData:
            game = service.current_game(state.tournament_id)
            return GameData(game, service.rounds(game, state.tournament_id), service.seats(game, state.tournament_id),
                             service.assistant_ranges(state.tournament_id),
                             service.settings(state.tournament_id).board_notation)

        self._load(read, self._show_data)

    def _show_data(self, outcome: GameData | Exception) -> None:
        state = self.station.state
        if isinstance(outcome, Exception):
            self.game = None
            self._set_context(Text(f"No se pueden anotar papeletas: {problem(outcome)}", style="bold red"))
            return
        self.game = outcome.game
        self._rounds = {view.number: view for view in outcome.rounds}
        self._seats = {table: (entry.id, player.name) for table, entry, player in outcome.seats}
        self._range = assistant_range(outcome.ranges, state.arbiter)
        # A venue's station (issue 27 §2) lists its venue's tables only; a table of another
        # venue typed anyway goes to the service, whose refusal names that venue.
        self._venue_tables = (None if state.venue is None else
                              {table for table, entry, _ in outcome.seats if entry.venue == state.venue})
        self.board_notation = outcome.board_notation
        self._follow_round(read_again=True)

    # --- reads off the event loop ---------------------------------------------------------------
    @property
    def reading(self) -> bool:
        """True while a read of the service has not been shown yet."""
        return self._reading > 0

    def _load(self, read: Callable[[], _T], show: Callable[[_T | Exception], None]) -> None:
        """Run ``read`` (service reads) in a worker thread and ``show`` its outcome — the
        value, or the exception it raised — on the event loop. Unthreaded: both at once."""
        if not self.threaded:
            show(_outcome(read))
            return
        self._reading += 1

        def work() -> None:
            outcome = _outcome(read)
            try:
                self.app.call_from_thread(self._loaded, show, outcome)
            except RuntimeError:                        # the app is closing
                pass

        self.run_worker(work, thread=True, group="entry-read", exit_on_error=False)

    def _loaded(self, show: Callable[[Any], None], outcome: Any) -> None:
        self._reading -= 1
        if self.is_attached:                            # not after the screen was closed
            show(outcome)

    def _tables_shown(self) -> list[int]:
        seats = [table for table in self._seats if self._venue_tables is None or table in self._venue_tables]
        return tables_shown(seats, self._range, self.show_all)

    def refresh_round(self) -> None:
        """Reload the slips, missing tables and conflicts of the round shown (read in a worker)."""
        if self.game is None:
            return
        service, state = self.station.service, self.station.state
        self._show_context()
        if self.round_number is None:
            self._slips = {}
            self._fill([], [])
            self.query_one("#missing", Static).update("La partida aún no tiene ninguna ronda.")
            return
        game, number = self.game, self.round_number

        def read() -> tuple[list[SlipView], list[ConflictView], list[SetAsideSlipView]]:
            slips = service.slips(game, number, tournament_id=state.tournament_id)
            conflicts = [conflict for conflict, _ in service.conflicts(game, tournament_id=state.tournament_id)
                         if conflict.round_number == number]
            return slips, conflicts, service.set_aside_slips(game, tournament_id=state.tournament_id)

        self._load(read, partial(self._show_round, game, number))

    def _show_round(self, game: int, number: int,
                    outcome: tuple[list[SlipView], list[ConflictView], list[SetAsideSlipView]] | Exception) -> None:
        if (game, number) != (self.game, self.round_number):
            return                                      # another round is shown now: its own read follows
        if isinstance(outcome, Exception):
            self.query_one("#feedback", SlipFeedback).feedback = error_feedback(problem(outcome))
            return
        slips, conflicts, aside = outcome
        self._slips = {slip.table_number: slip for slip in slips}
        self._fill(self._tables_shown(), conflicts)
        self._tell_set_aside(game, aside)

    def _fill(self, tables: Sequence[int], conflicts: Sequence[ConflictView]) -> None:
        view = self.query_one("#slips", DataTable)
        in_conflict = {conflict.table_number for conflict in conflicts}
        rows = {str(table): slip_row(table, self._seats[table][1], self._slips.get(table), table in in_conflict)
                for table in tables}
        if list(rows) == [key.value for key in view.rows]:
            # Same tables as shown: change only the rows that differ (a full rebuild after
            # every slip made each frame after Enter slow).
            for key, cells in rows.items():
                if self._shown.get(key) != cells:
                    for column, value in zip(view.columns, cells, strict=False):
                        view.update_cell(key, column, value, update_width=True)
        else:
            view.clear()
            for key, cells in rows.items():
                view.add_row(*cells, key=key)
        self._shown = rows
        if self._last_table is not None and str(self._last_table) in view.rows:
            view.move_cursor(row=view.get_row_index(str(self._last_table)), animate=False)
        line, complete = missing_line(tables, self._slips, self.round_number)
        label = self.query_one("#missing", Static)
        label.set_class(complete, "-complete")
        label.set_class(not complete, "-pending")
        label.update(line)
        self.query_one("#conflicts", Static).update(conflicts_line(conflicts, tables, self._slips))

    def _show_context(self) -> None:
        view = self._rounds.get(self.round_number) if self.round_number is not None else None
        self._set_context(context_text(self.game, view, double_entry=self.double_entry, follow=self.follow,
                                       assistant=self._range, show_all=self.show_all,
                                       arbiter=self.station.state.arbiter, board=self.board_notation))

    def _set_context(self, text: Text) -> None:
        self.query_one("#context", Static).update(text)

    # --- the ordered queue of service calls ------------------------------------------------------
    def _enqueue(self, job: SlipJob) -> None:
        self._cancel_refresh()
        self._queue.append(job)
        self._pump()
        self._show_saving()

    def _show_saving(self, note: str = "") -> None:
        """«Guardando…» while typed slips are not stored yet (and why it takes long)."""
        waiting = self.pending
        text = "" if not waiting else f"Guardando {waiting} {'papeleta' if waiting == 1 else 'papeletas'}…"
        self.query_one("#saving", Static).update(Text(f"{text} {note}".strip()), layout=False)

    def _pump(self) -> None:
        """Start the next queued action unless one is running (one at a time, in order)."""
        while not self._busy and self._queue:
            job = self._queue.popleft()
            if not self.threaded:
                self._report(job, _call(job))
                continue
            self._busy = True
            self.run_worker(partial(self._run, job), thread=True, group="slip-entry", exit_on_error=False)
        if not self._busy and not self._queue:
            self._refresh_after_pause()

    def _run(self, job: SlipJob) -> None:
        """In the worker thread: call the service — again, after a pause, while the
        database does not answer (``SAVE_RETRIES``) — and report back by message."""
        outcome = _call(job)
        for attempt, pause in enumerate(SAVE_RETRIES, start=1):
            if not isinstance(outcome, StorageUnavailable):
                break
            self.post_message(SlipRetrying(job, attempt, len(SAVE_RETRIES), str(outcome)))
            time.sleep(pause)
            outcome = _call(job)
        self.post_message(SlipJobDone(job, outcome))

    def _refresh_after_pause(self) -> None:
        """Read the round's list again once the typing pauses (``REFRESH_PAUSE``); the
        pending read counts in ``reading``."""
        if not self.threaded:
            self.refresh_round()
            return
        self._cancel_refresh()
        self._reading += 1
        self._refresh_timer = self.set_timer(REFRESH_PAUSE, self._refresh_now)

    def _cancel_refresh(self) -> None:
        if self._refresh_timer is not None:
            self._refresh_timer.stop()
            self._refresh_timer = None
            self._reading -= 1

    def _refresh_now(self) -> None:
        self._refresh_timer = None
        self._reading -= 1
        self.refresh_round()

    def on_slip_retrying(self, message: SlipRetrying) -> None:
        table = f"mesa {message.job.table}: " if message.job.table is not None else ""
        self._show_saving(f"{table}la base de datos no responde; reintento {message.attempt} de {message.attempts}")

    def on_slip_job_done(self, message: SlipJobDone) -> None:
        self._busy = False
        self._report(message.job, message.outcome)
        self._pump()
        self._show_saving()


def _call(job: SlipJob) -> Any:
    """Run ``job``'s service call; an exception is returned, to be shown, never raised."""
    return _outcome(job.call)
