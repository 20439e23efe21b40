"""What the assistant (or the judge) does on the slip entry screen (issue 4 §2, II.4.c):
the keys of the slip form, marks (III.13, III.20.4, III.25), the master for many tables,
corrections, conflicts (II.4.a), rounds, the paper board (III.20.1.c–d), double entry;
and what follows the service's answers (issue 25 §2): the round followed, the refused
slips listed until seen, the notice of slips set aside by a withdrawn rack (III.29) —
decided by the pure functions of ``entry_presenter``.

``EntryActions`` is the base of ``EntryScreen`` (``tui.app.screens.entry``), which lays
the screen out, reads the round and runs the queued service calls (``SlipJob``) in order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, ClassVar

from rich.text import Text
from textual import events, on
from textual.widgets import DataTable, Input, Static

from duplicate.plurals import counted
from duplicate.rules.slips import SlipStatus
from duplicate.service.access import Action
from duplicate.service.errors import RoundClosed, TournamentError
from duplicate.service.slip_context import BOARD_REFUSED
from duplicate.service.views import EntryResult, PaperPlacement, RoundView, SetAsideSlipView, SlipView
from tui.app.screens.entry_presenter import (
    Refusal,
    conflict_sides,
    default_round,
    refusal_reason,
    refusals_text,
    round_to_show,
    set_aside_notice,
    without_entered,
)
from tui.app.station import StationScreen
from tui.app.widgets.judge_dialogs import ClaimDialog, ConflictDecision, ConflictDialog, NewClaim
from tui.app.widgets.ordered_input import OrderedInput
from tui.app.widgets.paper_board import PaperBoardDialog
from tui.app.widgets.slip_dialogs import Correction, CorrectionDialog, TablesDialog
from tui.app.widgets.slip_feedback import (
    Feedback,
    SlipFeedback,
    entry_feedback,
    error_feedback,
    master_feedback,
    status_name,
)


@dataclass(frozen=True)
class SlipJob:
    """One action for the service: ``call`` runs in a worker thread, ``report`` turns
    what it returned into the feedback; ``table`` is the table it was about."""

    call: Callable[[], Any]
    report: Callable[[Any], Feedback]
    table: int | None
    text: str = ""
    """What was typed (shown again if it cannot be saved)."""
    round_number: int | None = None
    """The round it was typed for (a refusal says it)."""


class EntryActions(StationScreen[None]):
    """The entry screen's keys and actions (see the module doc): each checks what was
    typed, asks what it must (a dialog), then queues a ``SlipJob`` (``_enqueue``)."""

    game: int | None
    round_number: int | None
    follow: bool
    show_all: bool
    double_entry: bool
    board_notation: bool
    _seats: dict[int, tuple[int, str]]
    _rounds: dict[int, RoundView]
    _slips: dict[int, SlipView]
    _venue_tables: set[int] | None = None
    """The tables of this station's venue (issue 27 §2; None: every table, the
    organiser's stations): only they are listed, and another venue's player is not named."""
    _set_aside_seen: dict[int, int]
    _last_table: int | None
    refusals: list[Refusal]
    handled: int

    def _enqueue(self, job: SlipJob) -> None:
        """Queue ``job`` for the service (``EntryScreen`` runs the queue in order)."""
        raise NotImplementedError

    def refresh_round(self) -> None:
        """Read the round shown again (``EntryScreen``)."""
        raise NotImplementedError

    def refresh_data(self) -> None:
        """Read the game, its rounds and seats again (``EntryScreen``)."""
        raise NotImplementedError

    def _show_context(self) -> None:
        """Show the context line again (``EntryScreen``)."""
        raise NotImplementedError

    @property
    def pending(self) -> int:
        """Actions typed and not yet reported (``EntryScreen``)."""
        raise NotImplementedError

    # --- typing -------------------------------------------------------------------------------
    @on(Input.Changed, "#table")
    def _table_changed(self, event: Input.Changed) -> None:
        player = self.query_one("#player", Static)
        seat = self._seats.get(int(event.value)) if event.value else None
        elsewhere = seat is not None and self._venue_tables is not None and int(event.value) not in self._venue_tables
        # Fixed size: no layout pass on every digit typed.
        player.update("" if not event.value else
                      Text(f"la mesa {event.value} es de otra sede", style="red") if elsewhere else
                      Text(seat[1]) if seat else       # a name as typed, never markup
                      Text(f"sin jugador en la mesa {event.value}", style="red"), layout=False)

    _NOW: ClassVar[dict[str, str]] = {"f2": "late", "f3": "null", "f4": "missing"}

    def _key_now(self, field: OrderedInput, event: events.Key) -> bool:
        """F2–F4 and Esc of the slip form, taken in the order typed (``OrderedInput``)."""
        if event.key in self._NOW:
            self.action_mark(self._NOW[event.key])
        elif event.key == "f10" and not self.may(Action.RESOLVE_CONFLICT):
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
        self._enqueue(SlipJob(partial(call, game, table, text, round_number=self.round_number,
                                   tournament_id=state.tournament_id),
                           entry_feedback, table, text, self.round_number))
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
        self._follow_round()                        # a round that moved on while this slip was typed

    # --- the round followed (issue 25 §2) -----------------------------------------------------
    def _typing(self) -> bool:
        """Whether a slip is half-typed (the table or the move field holds something)."""
        return any(self.query_one(name, Input).value for name in ("#table", "#move"))

    def _follow_round(self, *, read_again: bool = False) -> None:
        """Show the round to follow (``round_to_show``: the one being typed, unless a
        round was chosen by hand with F7/F8 or a slip is half-typed — ``_ready`` calls this
        again right after it is entered). The round's list is read when the round changed,
        or always with ``read_again`` (the rounds were just read)."""
        choice = round_to_show(self._rounds, self.round_number, follow=self.follow, typing=self._typing())
        if choice.number == self.round_number and not read_again:
            return
        if choice.notice is not None:
            self.notify(choice.notice, title="Ronda")
        self.round_number, self.follow = choice.number, choice.follow
        self.refresh_round()

    def _tell_set_aside(self, game: int, aside: Sequence[SetAsideSlipView]) -> None:
        """III.29: the judge withdrew a rack that slips of the game had been entered
        against (whatever round is shown); once per withdrawal seen while the screen is
        open, the feedback says so and asks for the round's slips again (``set_aside_notice``)."""
        self._set_aside_seen[game], feedback = set_aside_notice(aside, self._set_aside_seen.get(game))
        if feedback is not None:
            self._feedback(feedback)

    # --- what the service answered, refused slips listed until seen (issue 25 §2) ------------------
    def _report(self, job: SlipJob, outcome: Any) -> None:
        """Show what the service answered to ``job`` (the value, or the exception raised):
        the feedback, a refusal listed, the list cleared of the table's refusals once its
        slip is stored; a round that closed under the slip makes the rounds read again."""
        reason = refusal_reason(outcome, job.table, job.text)
        self._feedback(job.report(outcome) if reason is None else error_feedback(reason))
        if reason is not None:
            self._refused(Refusal(job.table, job.text, job.round_number, reason))
            if isinstance(outcome, RoundClosed):
                self.refresh_data()                     # the round shown closed: move on (issue 25 §2)
        elif job.table is not None and isinstance(outcome, EntryResult):
            self._entered(job.table, outcome.round_number)
        self.handled += 1
        if job.table is not None:
            self._last_table = job.table

    def _refused(self, refusal: Refusal) -> None:
        self.refusals.append(refusal)
        self._show_refusals()

    def _entered(self, table: int, round_number: int) -> None:
        """A slip of ``table`` was stored in ``round_number``: its refusals there are done."""
        kept = without_entered(self.refusals, table, round_number)
        if len(kept) != len(self.refusals):
            self.refusals = kept
            self._show_refusals()

    def action_refusals_seen(self) -> None:
        """Ctrl+O: the refused slips listed have been seen; the list empties."""
        if self.refusals:
            self.refusals = []
            self._show_refusals()

    def _show_refusals(self) -> None:
        listing = self.query_one("#refused", Static)
        listing.update(refusals_text(self.refusals))
        listing.set_class(not self.refusals, "-none")

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
        self._enqueue(SlipJob(partial(service.mark_slip, game, table, mark, text=text,
                                   round_number=self.round_number, tournament_id=state.tournament_id), entry_feedback, table,
                           f"{status_name(mark.value)} {text}".strip(), self.round_number))
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
                self._enqueue(SlipJob(partial(service.enter_master_slips, game, tables, round_number=round_number,
                                           tournament_id=state.tournament_id),
                                   partial(master_feedback, master), None,
                                   f"maestra {master}, mesas {' '.join(map(str, tables))}", round_number))
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
            # A closed round is the judge's to correct (II.4.c): the service refuses anyone else.
            self._enqueue(SlipJob(partial(service.correct_slip, game, correction.table, correction.text,
                                       status=correction.status, round_number=round_number,
                                       tournament_id=state.tournament_id,
                                       reason=correction.reason),
                               entry_feedback, correction.table,
                               "corrección: " + (correction.text or status_name(
                                   correction.status.value if correction.status else "")), round_number))

        self.app.push_screen(CorrectionDialog(table, round_number, slip.text if slip else ""), corrected)

    def action_resolve_conflict(self) -> None:
        """The judge resolves the open conflict of the typed (else selected) table."""
        state = self.station.state
        if not self.may(Action.RESOLVE_CONFLICT):
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
        stored, new = conflict_sides(conflict, slip)
        conflict_id = conflict.id

        def resolved(decision: object) -> None:
            self._ready()
            if not isinstance(decision, ConflictDecision):
                return
            verdict = "sustituida por la nueva" if decision.use_new else "se mantiene la anotada"
            self._enqueue(SlipJob(partial(service.resolve_conflict, conflict_id, use_new=decision.use_new, reason=decision.reason),
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
        self.follow = self.round_number == default_round(self._rounds)
        self.refresh_round()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The footer shows only what the signed-in role may do: conflicts are the judge's."""
        if action == "file_claim":
            return self.may(Action.FILE_CLAIM)
        return not (action == "resolve_conflict" and not self.may(Action.RESOLVE_CONFLICT))

    def action_file_claim(self) -> None:
        """File a player's claim (III.27) for the round shown and the table typed (the
        service decides whether this station may, ``Action.FILE_CLAIM``: an assistant for
        its own tables); the judge resolves it from the standings."""
        if self.game is None:
            self._feedback(error_feedback("no hay ninguna partida en la que reclamar"))
            return
        game, typed = self.game, self.query_one("#table", Input).value.strip()

        def filed(claim: NewClaim | None) -> None:
            if claim is not None:
                self.run_worker(partial(self._file_claim, game, claim), thread=True, group="claim",
                                exit_on_error=False)

        self.app.push_screen(ClaimDialog(game, self.round_number, int(typed) if typed.isdigit() else None), filed)

    def _file_claim(self, game: int, claim: NewClaim) -> None:
        """In a worker thread: the service call, then the answer in the feedback box."""
        try:
            number = self.service.file_claim(game, claim.round_number, claim.table, claim.text,
                                             tournament_id=self.tournament_id)
        except TournamentError as error:
            feedback = Feedback("error", f"Reclamación no registrada: {error}")
        else:
            feedback = Feedback("info", f"Reclamación nº {number} registrada: ronda {claim.round_number}, mesa "
                                        f"{claim.table}. La resuelve el juez árbitro (III.27).")
        self.app.call_from_thread(self._feedback, feedback)

    def action_paper_board(self) -> None:
        """A slip written on a paper board (II.8, III.20.1.c, III.20.1.d), when the
        tournament admits them: place the word on the round's board; the board form goes
        to the service, which converts it to the canonical notation, judges and stores it
        (recording that the board notation was used)."""
        if not self.board_notation:
            self._feedback(error_feedback(BOARD_REFUSED))
            return
        typed = self._typed_table()
        view = self._rounds.get(self.round_number) if self.round_number is not None else None
        if typed is None or view is None:
            return
        game, table = typed
        number = view.number

        def placed(slip: PaperPlacement | None) -> None:
            if slip is None:
                self.set_focus(self.query_one("#move", Input))
                return
            service, state = self.station.service, self.station.state
            call = service.double_check if self.double_entry else service.enter_slip
            self._enqueue(SlipJob(partial(call, game, table, slip.text, round_number=number,
                                          tournament_id=state.tournament_id, board=True),
                                  entry_feedback, table, slip.text))
            self._ready()

        self.app.push_screen(PaperBoardDialog(view.board, f"Mesa {table}, ronda {number}: papeleta en "
                                                     "tablero (II.8, III.20.1.c–d)"), placed)

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
            waiting = self.pending        # queued, not refused (issue 25 §3): said as such
            self._feedback(Feedback("info", f"Guardando {counted(waiting, 'papeleta')} en cola: ninguna se pierde. "
                                            "Pulse Esc otra vez cuando terminen."))
            return
        self.app.pop_screen()
