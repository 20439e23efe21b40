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

**Round.** The screen follows the newest round that has a master: assistants type a
round's slips once its master is announced (III.16), while the next rack is played.
Before the first master it shows the newest round with a rack. Choosing another round
with F7/F8 stops the following until the newest round with a master is chosen again.
Every action carries the round shown when it was typed, never the service's default.

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
from dataclasses import dataclass
from functools import partial
from typing import Any, ClassVar, TypeVar

from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.message import Message
from textual.timer import Timer
from textual.widgets import DataTable, Header, Input, Label, Static

from duplicate.labels import SLIP_STATUS
from duplicate.notation import LOWERCASE_HINT
from duplicate.service import (
    AssistantRangeView,
    ConflictView,
    EntryView,
    PlayerView,
    RoundView,
    SlipView,
    StorageUnavailable,
    TournamentError,
)
from duplicate.slips import SlipStatus
from lexicon.alphabet import spanish
from lexicon.board import Board
from lexicon.movegen import generate
from tui.app.heap import freeze_heap
from tui.app.messages import DataChanged
from tui.app.station import StationScreen
from tui.app.widgets.judge_dialogs import ConflictDecision, ConflictDialog
from tui.app.widgets.ordered_input import OrderedInput
from tui.app.widgets.paper_board import PaperBoardDialog
from tui.app.widgets.plain_table import PlainTable
from tui.app.widgets.slip_dialogs import Correction, CorrectionDialog, TablesDialog
from tui.app.widgets.slip_feedback import (
    Feedback,
    SlipFeedback,
    entry_feedback,
    error_feedback,
    master_feedback,
    status_name,
)
from tui.app.widgets.steady_footer import SteadyFooter

# Grouped in the footer, so that it fits in 120 columns with the judge's F10.
_MARKS = Binding.Group("Tarde/Nula/Falta", compact=True)
_ROUNDS = Binding.Group("Ronda −/+", compact=True)

MARK_NAMES = {status: SLIP_STATUS[status.value] for status in (SlipStatus.LATE, SlipStatus.NULL, SlipStatus.MISSING)}
"""The marks an assistant may put on a slip (III.13, III.20.4, III.25), named as everywhere."""


@dataclass(frozen=True)
class _Job:
    """One action for the service: ``call`` runs in a worker thread, ``report`` turns
    what it returned into the feedback; ``table`` is the table it was about."""

    call: Callable[[], Any]
    report: Callable[[Any], Feedback]
    table: int | None
    text: str = ""
    """What was typed (shown again if it cannot be saved)."""


REFRESH_PAUSE = 0.3
"""Seconds without a slip being typed before the round's list is read again: while an
assistant types slip after slip, the feedback comes first and the list waits (issue 13
§2, feedback ≤ 50 ms); a read in the middle would compete with the next slip's call."""

SAVE_RETRIES = (0.5, 1.0, 2.0, 4.0)
"""Seconds to wait before each new try when the database does not answer (a slip is
saved, or reported as not saved, never silently dropped): about 8 s in all."""


class SlipRetrying(Message):
    """The database did not answer: ``job`` is tried again (``attempt`` of ``attempts``)."""

    def __init__(self, job: _Job, attempt: int, attempts: int, problem: str) -> None:
        super().__init__()
        self.job, self.attempt, self.attempts, self.problem = job, attempt, attempts, problem


_T = TypeVar("_T")


@dataclass(frozen=True)
class _GameData:
    """What ``refresh_data`` reads: the current game, its rounds and seats, the ranges."""

    game: int
    rounds: Sequence[RoundView]
    seats: Sequence[tuple[int, EntryView, PlayerView]]
    ranges: Sequence[AssistantRangeView]


def _outcome(read: Callable[[], _T]) -> _T | Exception:
    """``read()``, or the exception it raised (shown to the assistant, never a traceback)."""
    try:
        return read()
    except Exception as error:  # noqa: BLE001
        return error


def _problem(error: Exception) -> str:
    """The Spanish text of a failed read."""
    return str(error) if isinstance(error, TournamentError) else f"error inesperado ({type(error).__name__}): {error}"


class SlipJobDone(Message):
    """A queued action finished: ``outcome`` is what the service returned, or the
    exception it raised."""

    def __init__(self, job: _Job, outcome: Any) -> None:
        super().__init__()
        self.job = job
        self.outcome = outcome


class EntryScreen(StationScreen[None]):
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
        Binding("escape", "back", "Volver", show=False),          # Esc: clear, else back (module doc)
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
        self._queue: deque[_Job] = deque()
        self._busy = False
        self._last_table: int | None = None
        self._reading = 0
        self._refresh_timer: Timer | None = None
        self.double_entry = False
        """Double entry: slips typed are checked against the stored ones (a mismatch is a
        conflict for the judge), not entered."""

    # --- layout ---------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("", id="context")
        with Horizontal(id="entry-row"):
            yield Label("Mesa")
            yield OrderedInput(handle_now=self._key_now, on_enter=self._enter, id="table", placeholder="nº",
                               restrict=r"\d*", max_length=4)
            yield Static("", id="player")
            yield Label("Jugada")
            yield OrderedInput(handle_now=self._key_now, on_enter=self._enter, id="move",
                               placeholder=f"H8-CASA · 8H-CASA · {LOWERCASE_HINT}")
        yield SlipFeedback(id="feedback")
        yield Static("", id="saving")
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
        service = self.station.service
        try:
            lexicon = service.lexicon_for(service.tournament(self.station.state.tournament_id))
        except TournamentError:
            return
        generate(Board(lexicon.alphabet), [lexicon.alphabet.code("A"), lexicon.alphabet.blank], lexicon)
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

        def read() -> _GameData:
            game = service.current_game(state.tournament_id)
            return _GameData(game, service.rounds(game, state.tournament_id), service.seats(game, state.tournament_id),
                             service.assistant_ranges(state.tournament_id))

        self._load(read, self._show_data)

    def _show_data(self, outcome: _GameData | Exception) -> None:
        state = self.station.state
        if isinstance(outcome, Exception):
            self.game = None
            self._set_context(Text(f"No se pueden anotar papeletas: {_problem(outcome)}", style="bold red"))
            return
        self.game = outcome.game
        self._rounds = {view.number: view for view in outcome.rounds}
        self._seats = {table: (entry.id, player.name) for table, entry, player in outcome.seats}
        name = state.arbiter.strip().casefold()
        mine = [item for item in outcome.ranges if name and item.assistant.strip().casefold() == name]
        self._range = (mine[0].first_table, mine[0].last_table) if mine else None
        default = self._default_round()
        typing = any(self.query_one(name, Input).value for name in ("#table", "#move"))
        if typing and self.round_number in self._rounds:
            # A slip being typed belongs to the round shown: switch after it is entered.
            self.refresh_round()
            return
        if self.follow or self.round_number not in self._rounds:
            if self.round_number is not None and default != self.round_number and self.follow:
                self.notify(f"Ahora se anota la ronda {default}", title="Ronda")
            self.round_number = default
            self.follow = True
        self.refresh_round()

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

    def _default_round(self) -> int | None:
        with_master = [number for number, view in self._rounds.items() if view.master is not None]
        if with_master:
            return max(with_master)
        return max(self._rounds) if self._rounds else None

    def _tables_shown(self) -> list[int]:
        tables = sorted(self._seats)
        if self._range is not None and not self.show_all:
            first, last = self._range
            tables = [table for table in tables if first <= table <= last]
        return tables

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

        def read() -> tuple[list[SlipView], list[ConflictView]]:
            slips = service.slips(game, number, tournament_id=state.tournament_id)
            conflicts = [conflict for conflict, _ in service.conflicts(game, tournament_id=state.tournament_id)
                         if conflict.round_number == number]
            return slips, conflicts

        self._load(read, partial(self._show_round, game, number))

    def _show_round(self, game: int, number: int,
                    outcome: tuple[list[SlipView], list[ConflictView]] | Exception) -> None:
        if (game, number) != (self.game, self.round_number):
            return                                      # another round is shown now: its own read follows
        if isinstance(outcome, Exception):
            self.query_one("#feedback", SlipFeedback).feedback = error_feedback(_problem(outcome))
            return
        slips, conflicts = outcome
        self._slips = {slip.table_number: slip for slip in slips}
        self._fill(self._tables_shown(), conflicts)

    def _fill(self, tables: Sequence[int], conflicts: Sequence[ConflictView]) -> None:
        view = self.query_one("#slips", DataTable)
        in_conflict = {conflict.table_number for conflict in conflicts}
        rows = {}
        for table in tables:
            slip = self._slips.get(table)
            name = self._seats[table][1]
            if slip is None:
                cells: list[Any] = [Text("—", style="dim")] * 5
            else:
                style = "green" if slip.status == SlipStatus.VALID.value else "yellow"
                cells = [slip.text or "", slip.move or "", Text(str(slip.score), style=f"bold {style}", justify="right"),
                         Text(status_name(slip.status), style=style), slip.entered_by]
            if table in in_conflict:
                cells[3] = Text("⚠ conflicto", style="bold white on dark_red")
            rows[str(table)] = [Text(str(table), justify="right"), name, *cells]
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
        missing = [table for table in tables if table not in self._slips]
        label = self.query_one("#missing", Static)
        label.set_class(not missing, "-complete")
        label.set_class(bool(missing), "-pending")
        round_text = f"ronda {self.round_number}"
        if missing:
            label.update(f"Faltan {len(missing)} de {len(tables)} papeletas de la {round_text}: "
                         + ", ".join(map(str, missing)))
        else:
            label.update(f"Todas las papeletas de la {round_text} están anotadas ({len(tables)} de {len(tables)}).")
        ours = [conflict for conflict in conflicts if conflict.table_number in set(tables)]
        self.query_one("#conflicts", Static).update(Text(                  # slips as typed, never markup
            "" if not ours else "⚠ Conflictos pendientes del juez árbitro: " + "; ".join(
                f"mesa {conflict.table_number}: «{conflict.text or conflict.mark}» frente a "
                f"«{self._slips[conflict.table_number].text if conflict.table_number in self._slips else ''}»"
                for conflict in ours)))

    def _show_context(self) -> None:
        text = Text()
        if self.double_entry:
            text.append(" DOBLE ENTRADA (F11) ", style="bold white on dark_blue")
            text.append(" ")
        text.append(f"Partida {self.game}", style="bold")
        view = self._rounds.get(self.round_number) if self.round_number is not None else None
        if view is not None:
            text.append(" · ")
            text.append(f" Ronda {view.number} ", style="bold reverse")
            text.append(" (F7/F8; F12: papeleta en tablero)", style="dim")
            text.append(f" · atril {view.rack_shown}")
            if view.master is not None:
                text.append(f" · maestra {view.master} ({view.master_score} puntos)")
            else:
                text.append(" · aún sin jugada maestra", style="bold yellow")
            if view.closed:
                text.append(" · cerrada", style="bold red")
            if not self.follow:
                text.append(" · elegida a mano (F7/F8)", style="dim")
        state = self.station.state
        if self._range is not None and not self.show_all:
            text.append(f"\nMesas {self._range[0]}–{self._range[1]} de {state.arbiter} (F9: todas)")
        elif self._range is not None:
            text.append(f"\nTodas las mesas (F9: las de {state.arbiter})")
        else:
            text.append("\nTodas las mesas")
        self._set_context(text)

    def _set_context(self, text: Text) -> None:
        self.query_one("#context", Static).update(text)

    # --- typing -------------------------------------------------------------------------------
    @on(Input.Changed, "#table")
    def _table_changed(self, event: Input.Changed) -> None:
        player = self.query_one("#player", Static)
        seat = self._seats.get(int(event.value)) if event.value else None
        # Fixed size: no layout pass on every digit typed.
        player.update("" if not event.value else Text(seat[1]) if seat else       # a name as typed, never markup
                      Text(f"sin jugador en la mesa {event.value}", style="red"), layout=False)

    _NOW: ClassVar[dict[str, str]] = {"f2": "late", "f3": "null", "f4": "missing"}

    def _key_now(self, field: OrderedInput, event: events.Key) -> bool:
        """F2–F4 and Esc of the slip form, taken in the order typed (``OrderedInput``)."""
        if event.key in self._NOW:
            self.action_mark(self._NOW[event.key])
        elif event.key == "f10" and self.station.state.role != "judge":
            self.action_resolve_conflict()                 # not in an assistant's footer: it says why
        elif event.key == "escape":
            self.action_back()
        else:
            return False
        return True

    def _enter(self, field: OrderedInput) -> None:
        """Enter in the table field goes to the move; in the move field it enters the slip."""
        if field.id == "table":
            self._submit_table()
        else:
            self._submit_move(field.value)

    def _submit_table(self) -> None:
        if self._typed_table() is not None:
            self.set_focus(self.query_one("#move", Input))

    def _submit_move(self, value: str) -> None:
        typed = self._typed_table()
        if typed is None:
            self.set_focus(self.query_one("#table", Input))
            return
        game, table = typed
        text = value.strip()
        if not text:
            self._feedback(error_feedback("escriba la jugada de la papeleta, o márquela con F2 (fuera de tiempo), "
                                          "F3 (nula) o F4 (no entregada)"))
            return
        service, state = self.station.service, self.station.state
        call = service.double_check if self.double_entry else service.enter_slip
        self._enqueue(_Job(partial(call, game, table, text, round_number=self.round_number,
                                   tournament_id=state.tournament_id),
                           entry_feedback, table, text))
        self._ready()

    def _typed_table(self) -> tuple[int, int] | None:
        """The game and the table typed, if a player sits there (else the feedback says why)."""
        value = self.query_one("#table", Input).value
        if self.game is None or self.round_number is None:
            self._feedback(error_feedback("no hay ninguna ronda en la que anotar"))
            return None
        if not value:
            self._feedback(error_feedback("escriba primero el número de mesa"))
            return None
        table = int(value)
        if table not in self._seats:
            self._feedback(error_feedback(f"no hay ningún jugador en la mesa {table} en la partida {self.game}"))
            return None
        return self.game, table

    def _ready(self) -> None:
        """Clear both fields and put the focus on the table, for the next slip."""
        self.query_one("#move", Input).value = ""
        table = self.query_one("#table", Input)
        table.value = ""
        self.set_focus(table)                       # at once: the next key typed is the next table's

    def _feedback(self, feedback: Feedback) -> None:
        self.query_one("#feedback", SlipFeedback).feedback = feedback

    # --- actions ---------------------------------------------------------------------------------
    def action_mark(self, status: str) -> None:
        """Mark the typed table's slip late, null or missing (0 points)."""
        typed = self._typed_table()
        if typed is None:
            self.set_focus(self.query_one("#table", Input))
            return
        game, table = typed
        mark = SlipStatus(status)
        text = self.query_one("#move", Input).value.strip() if mark in (SlipStatus.NULL, SlipStatus.LATE) else ""
        service, state = self.station.service, self.station.state
        self._enqueue(_Job(partial(service.mark_slip, game, table, mark, text=text,
                                   round_number=self.round_number, tournament_id=state.tournament_id), entry_feedback, table))
        self._ready()

    def action_master_many(self) -> None:
        """Ask for the tables that played the master and enter it for all of them."""
        view = self._rounds.get(self.round_number) if self.round_number is not None else None
        if self.game is None or view is None or view.master is None:
            self._feedback(error_feedback("no hay ninguna ronda" if self.round_number is None
                                          else f"la ronda {self.round_number} aún no tiene jugada maestra"))
            return
        game, round_number, master = self.game, view.number, view.master
        service, state = self.station.service, self.station.state

        def entered(tables: object) -> None:
            if isinstance(tables, list):
                self._enqueue(_Job(partial(service.enter_master_slips, game, tables, round_number=round_number,
                                           tournament_id=state.tournament_id),
                                   partial(master_feedback, master), None))
            self._ready()

        self.app.push_screen(TablesDialog(master, view.master_score, round_number), entered)

    def action_correct(self, table: int | None = None) -> None:
        """Correct an earlier entry of the round shown (logged, with a reason)."""
        if self.game is None or self.round_number is None:
            return
        if table is None:
            value = self.query_one("#table", Input).value
            table = int(value) if value else self._cursor_table()
        slip = self._slips.get(table) if table is not None else None
        game, round_number = self.game, self.round_number
        service, state = self.station.service, self.station.state

        def corrected(correction: object) -> None:
            self._ready()
            if not isinstance(correction, Correction):
                return
            view = self._rounds.get(round_number)
            if view is not None and view.closed and state.role != "judge":
                self._feedback(error_feedback(f"la ronda {round_number} está cerrada: solo el juez árbitro "
                                              "puede corregirla"))
                return
            self._enqueue(_Job(partial(service.correct_slip, game, correction.table, correction.text,
                                       status=correction.status, round_number=round_number,
                                       tournament_id=state.tournament_id,
                                       reason=correction.reason, judge=state.role == "judge"),
                               entry_feedback, correction.table))

        self.app.push_screen(CorrectionDialog(table, round_number, slip.text if slip else ""), corrected)

    def action_resolve_conflict(self) -> None:
        """The judge resolves the open conflict of the typed (else selected) table."""
        state = self.station.state
        if state.role != "judge":
            self.notify("Solo el juez árbitro resuelve los conflictos entre papeletas.", severity="warning")
            return
        if self.game is None or self.round_number is None:
            return
        value = self.query_one("#table", Input).value
        table = int(value) if value else self._cursor_table()
        service = self.station.service
        game, round_number = self.game, self.round_number
        try:
            found = [(conflict, slip) for conflict, slip in service.conflicts(game, tournament_id=state.tournament_id)
                     if conflict.round_number == round_number and conflict.table_number == table]
        except TournamentError as error:
            self._feedback(error_feedback(str(error)))
            return
        if not found:
            self._feedback(Feedback("info", f"La mesa {table} no tiene conflictos pendientes en la ronda "
                                            f"{round_number}." if table is not None else
                                    "Escriba la mesa (o elija su fila) del conflicto que quiere resolver."))
            return
        conflict, slip = found[0]
        if slip is None:
            stored = "ninguna"
        else:
            stored = (f"«{slip.text}» · " if slip.text else "") + (
                f"{status_name(slip.status)}, {slip.score} puntos, anotó {slip.entered_by}")
        new = " · ".join(part for part in (f"«{conflict.text}»" if conflict.text else "",
                                            status_name(conflict.mark) if conflict.mark else "") if part)
        new += f" (anotó {conflict.entered_by})"
        conflict_id = conflict.id

        def resolved(decision: object) -> None:
            self._ready()
            if not isinstance(decision, ConflictDecision):
                return
            verdict = "sustituida por la nueva" if decision.use_new else "se mantiene la anotada"
            self._enqueue(_Job(partial(service.resolve_conflict, conflict_id, use_new=decision.use_new, reason=decision.reason),
                               lambda _: Feedback("info", f"Conflicto de la mesa {table} (ronda {round_number}) "
                                                          f"resuelto: {verdict}"), table))

        self.app.push_screen(ConflictDialog(f"Conflicto en la mesa {table}, ronda {round_number} "
                                            f"({self._seats[table][1] if table in self._seats else ''})",
                                            stored, new), resolved)

    def _cursor_table(self) -> int | None:
        view = self.query_one("#slips", DataTable)
        if view.row_count == 0:
            return None
        key = view.coordinate_to_cell_key(view.cursor_coordinate).row_key.value
        return int(key) if key is not None else None

    @on(DataTable.RowSelected, "#slips")
    def _row_selected(self, event: DataTable.RowSelected) -> None:
        if event.row_key.value is not None:
            self.action_correct(int(event.row_key.value))

    def action_round(self, delta: int) -> None:
        """Show the previous / next round."""
        numbers = sorted(self._rounds)
        if not numbers or self.round_number is None:
            return
        index = max(0, min(len(numbers) - 1, numbers.index(self.round_number) + delta))
        self.round_number = numbers[index]
        self.follow = self.round_number == self._default_round()
        self.refresh_round()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The footer shows only what the signed-in role may do: conflicts are the judge's."""
        if action == "resolve_conflict" and self.station.state.role != "judge":
            return False
        return True

    def action_paper_board(self) -> None:
        """A slip written on a paper board (III.20.1.c, III.20.1.d): place the word on the
        round's board; its canonical notation goes to the move field."""
        view = self._rounds.get(self.round_number) if self.round_number is not None else None
        if view is None:
            self._feedback(error_feedback("no hay ninguna ronda en la que anotar"))
            return
        board = Board.from_cgp(view.board_before, spanish())
        table = self.query_one("#table", Input).value

        def placed(text: str | None) -> None:
            if text:
                self.query_one("#move", Input).value = text
            self.set_focus(self.query_one("#move" if table else "#table", Input))

        self.app.push_screen(PaperBoardDialog(board, f"Mesa {table or '?'}, ronda {view.number}: papeleta en "
                                                     "tablero (III.20.1.c, III.20.1.d)"), placed)

    def action_toggle_double_entry(self) -> None:
        """Double entry on or off: a second assistant re-types the slips, which are checked
        against the stored ones instead of entered."""
        self.double_entry = not self.double_entry
        self._show_context()
        self.notify("Doble entrada: las papeletas se comprueban contra las anotadas" if self.double_entry
                    else "Entrada normal de papeletas", title="Doble entrada")

    def action_toggle_scope(self) -> None:
        """The assistant's own tables or every table."""
        self.show_all = not self.show_all
        self.refresh_round()

    def action_back(self) -> None:
        """Clear the fields; when they are already empty, go back to the menu."""
        fields = [self.query_one("#table", Input), self.query_one("#move", Input)]
        if any(field.value for field in fields) or not fields[0].has_focus:
            self._ready()
            return
        if self.pending:
            self._feedback(error_feedback(f"espere: faltan {self.pending} papeletas por guardar"))
            return
        self.app.pop_screen()

    # --- the ordered queue of service calls ------------------------------------------------------
    def _enqueue(self, job: _Job) -> None:
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

    def _run(self, job: _Job) -> None:
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

    def _report(self, job: _Job, outcome: Any) -> None:
        if isinstance(outcome, StorageUnavailable):
            typed = f" «{job.text}»" if job.text else ""
            where = f"mesa {job.table}" if job.table is not None else "la acción"
            feedback = error_feedback(f"NO GUARDADA: {where}{typed}: {outcome}; vuelva a anotarla")
        elif isinstance(outcome, TournamentError):
            feedback = error_feedback(str(outcome))
        elif isinstance(outcome, Exception):
            feedback = error_feedback(f"error inesperado ({type(outcome).__name__}): {outcome}")
        else:
            feedback = job.report(outcome)
        self._feedback(feedback)
        self.handled += 1
        if job.table is not None:
            self._last_table = job.table


def _call(job: _Job) -> Any:
    """Run ``job``'s service call; an exception is returned, to be shown, never raised."""
    try:
        return job.call()
    except Exception as error:  # noqa: BLE001 — reported to the assistant, never a traceback
        return error
