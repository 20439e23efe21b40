"""The judge's dialogs (issue 4 §2): a yes/no question and the new game form.

Modal screens; each returns its answer with ``dismiss`` (``ConfirmScreen``: a bool;
``NewGameScreen``: a ``NewGame`` or None).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static


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
            yield Static(Text(self.question), id="question")
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
