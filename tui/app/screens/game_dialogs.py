"""The judge's dialogs (issue 4 §2): a yes/no question and the new game form.

Modal screens; each returns its answer with ``dismiss`` (``ConfirmScreen``: a bool;
``NewGameScreen``: a ``NewGame`` or None).

The new game form may name a prepared game file (III.15, last paragraph: «duplicada
maestra»; issue 27 §1, as ``duplicada game start --prepared FILE``): the form then asks
the console to create the game itself (``attempt``, in a worker) and stays open with the
refusal, in Spanish, when the file cannot be read or the service refuses it — nothing is
created then.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import work
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
    ``seed`` (None: at random), ``seconds`` per round (None: the tournament's),
    ``prepared`` the prepared game file (None: none); ``created`` the console's note when
    the form already created the game (a prepared one), else empty."""

    rounds: int | None
    seed: int | None
    seconds: int | None
    prepared: Path | None = None
    created: str = ""


Attempt = Callable[[NewGame], str]
"""Creates the game asked for and returns the note for the judge; raises ``ValueError``
(``duplicate.prepared.file.PreparedFileError``) or ``TournamentError`` with the refusal."""


class NewGameScreen(ModalScreen[NewGame | None]):
    """Form for a new game: agreed rounds or full bag, seed, seconds per round and,
    reached with Tab, a prepared game file. ``attempt``: how the console creates a
    prepared game (module docstring); without it the form only returns the answer."""

    DEFAULT_CSS = """
    NewGameScreen { align: center middle; }
    NewGameScreen > Vertical { width: 64; max-width: 95%; height: auto; border: thick $primary; padding: 1 2;
                               background: $panel; }
    NewGameScreen Horizontal { height: auto; }
    NewGameScreen Label { width: 26; padding: 1 1 0 0; }
    NewGameScreen Input { width: 1fr; }
    """
    BINDINGS: ClassVar = [Binding("escape", "cancel", "Cancelar")]

    def __init__(self, attempt: Attempt | None = None) -> None:
        super().__init__()
        self.attempt = attempt
        self.trying = False

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
            with Horizontal():
                yield Label("Partida preparada")
                yield Input(placeholder="vacío: ninguna; o el archivo .json", id="prepared")
            yield Static("", id="refusal")
            yield Static("Enter en «Segundos por ronda» o en «Partida preparada» crea la partida; Tab pasa de un "
                         "campo a otro; Escape cancela.", classes="hint")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if event.input.id not in ("seconds", "prepared"):
            self.focus_next()
            return
        if self.trying:
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
        typed = self.query_one("#prepared", Input).value.strip()
        request = NewGame(rounds, seed, seconds, Path(typed).expanduser() if typed else None)
        if request.prepared is None or self.attempt is None:
            self.dismiss(request)
            return
        self.trying = True
        self._refuse("Comprobando la partida preparada…", error=False)
        self._create(request)

    @work(thread=True, exclusive=True, group="new-game", exit_on_error=False)
    def _create(self, request: NewGame) -> None:
        """Create the prepared game (``attempt``); stay open with the refusal if refused."""
        from duplicate.prepared.file import PreparedError
        from duplicate.service.errors import TournamentError

        assert self.attempt is not None
        try:
            note = self.attempt(request)
        except (TournamentError, PreparedError) as error:   # the service's refusal, a file that does not read
            self.app.call_from_thread(self._refused, str(error))
            return
        except Exception as error:  # noqa: BLE001 — the form's runner: it must never stay stuck nor stop the app
            self.app.call_from_thread(self._refused, f"error inesperado ({type(error).__name__}); no se ha creado")
            return
        self.app.call_from_thread(self.dismiss, NewGame(request.rounds, request.seed, request.seconds,
                                                        request.prepared, note))

    def _refused(self, text: str) -> None:
        self.trying = False
        self._refuse(f"No se crea la partida: {text}")
        self.query_one("#prepared", Input).focus()

    def _refuse(self, text: str, *, error: bool = True) -> None:
        self.query_one("#refusal", Static).update(Text(text, style="bold red" if error else "bold"))

    def action_cancel(self) -> None:
        if not self.trying:
            self.dismiss(None)
