"""The slip entry's two dialogs: the tables that played the master (entered in one step)
and the correction of an earlier entry, which asks for a reason (it is logged).

Both only collect what the assistant types; the entry screen passes it to the service.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar, Generic, TypeVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, Static

from duplicate.rules.notation import LOWERCASE_HINT
from duplicate.rules.slips import SlipStatus, read_mark


_RANGE = re.compile(r"^(\d+)(?:-(\d+))?$")


def parse_tables(text: str) -> list[int]:
    """Table numbers from ``"1 4 7-9, 12"`` (spaces or commas, ranges with a hyphen), in
    the order written, without repeats. Raises ``ValueError`` (Spanish) for anything else."""
    tables: list[int] = []
    for part in re.split(r"[\s,;]+", text.strip()):
        if not part:
            continue
        match = _RANGE.match(part)
        if match is None:
            raise ValueError(f"«{part}» no es una mesa ni un rango de mesas (ejemplo: 1 4 7-9)")
        first = int(match.group(1))
        last = int(match.group(2) or first)
        if last < first:
            raise ValueError(f"rango de mesas {first}-{last} al revés")
        tables.extend(table for table in range(first, last + 1) if table not in tables)
    if not tables:
        raise ValueError("escriba al menos una mesa")
    return tables


@dataclass(frozen=True)
class Correction:
    """An edit of the slip of ``table``: the new ``text`` or a mark ``status``, and why."""

    table: int
    text: str | None
    status: SlipStatus | None
    reason: str


ResultT = TypeVar("ResultT")


class _Dialog(ModalScreen[ResultT | None], Generic[ResultT]):
    """A slip form: Escape cancels (None), the form's answer is a ``ResultT``."""

    DEFAULT_CSS = """
    TablesDialog, CorrectionDialog { align: center middle; }
    #dialog {
        width: 76; max-width: 100%; height: auto;
        border: thick $accent; background: $panel; padding: 0 1;
    }
    #dialog Input { width: 100%; }
    #dialog Label { padding: 0 0 0 1; }
    #dialog-error { color: $error; text-style: bold; height: auto; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancelar")]

    def action_cancel(self) -> None:
        self.dismiss(None)

    def _error(self, message: str) -> None:
        self.query_one("#dialog-error", Static).update(Text(message))    # may quote what was typed: never markup


class TablesDialog(_Dialog[list[int]]):
    """Ask for the tables whose slip is the master; returns their numbers or None."""

    def __init__(self, master: str, score: int | None, round_number: int) -> None:
        super().__init__()
        self.master, self.score, self.round_number = master, score, round_number

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(Text(f"Ronda {self.round_number}: jugada maestra {self.master} ({self.score} puntos)"),
                         classes="title")
            yield Label("Mesas que la jugaron (p. ej. 1 4 7-9):")
            yield Input(id="tables", placeholder="1 4 7-9")
            yield Static("", id="dialog-error")
            yield Static("Intro: anotar · Esc: cancelar", classes="hint")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        try:
            tables = parse_tables(event.value)
        except ValueError as error:
            self._error(str(error))
            return
        self.dismiss(tables)


class CorrectionDialog(_Dialog[Correction]):
    """Ask for the table, the new slip (a move, or «tarde», «nula», «falta») and the
    reason; returns a ``Correction`` or None."""

    def __init__(self, table: int | None, round_number: int, current: str = "") -> None:
        super().__init__()
        self.table, self.round_number, self.current = table, round_number, current

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(f"Corregir una papeleta de la ronda {self.round_number} (queda registrado)", classes="title")
            yield Label("Mesa:")
            yield Input(str(self.table or ""), id="fix-table", restrict=r"\d*", max_length=4)
            yield Label("Nueva papeleta (jugada, o «tarde», «nula», «falta»):")
            yield Input(self.current, id="fix-text", placeholder=f"H8-CASA · {LOWERCASE_HINT}")
            yield Label("Motivo de la corrección:")
            yield Input(id="fix-reason", placeholder="p. ej. error al teclear")
            yield Static("", id="dialog-error")
            yield Static("Intro: siguiente campo / guardar · Esc: cancelar", classes="hint")

    def on_mount(self) -> None:
        self.query_one("#fix-text" if self.table else "#fix-table", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        order = ["fix-table", "fix-text", "fix-reason"]
        values = {name: self.query_one(f"#{name}", Input).value.strip() for name in order}
        missing = next((name for name in order if not values[name]), None)
        if missing is not None and event.input.id != "fix-reason":
            # Enter moves on to the next field until the last one.
            self.query_one(f"#{order[order.index(event.input.id or 'fix-table') + 1]}", Input).focus()
            return
        if missing is not None:
            names = {"fix-table": "la mesa", "fix-text": "la nueva papeleta", "fix-reason": "el motivo"}
            self._error(f"Falta {names[missing]}: una corrección se registra con su motivo.")
            self.query_one(f"#{missing}", Input).focus()
            return
        mark = read_mark(values["fix-text"])
        self.dismiss(Correction(int(values["fix-table"]), None if mark else values["fix-text"], mark,
                                values["fix-reason"]))
