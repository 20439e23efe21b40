"""A new PIN typed twice (issue 35 §4): the app asks for it again, hidden, as the command
line does (``click.prompt(..., confirmation_prompt=True)``), wherever it sets one — the
judge's PIN of a new tournament, the judge's and the assistants' PINs, a venue's stations'.

``confirm_pin`` is what a form calls with the PIN typed: a PIN the service would refuse
anyway (too short, ``check_new_pin``) or an empty one (an assistant's access removed) goes
on at once, the service saying why; any other is typed again in ``PinAgainDialog``, and
only the same PIN goes on. Two different PINs, or Esc, store nothing and say so in Spanish.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, Static

from duplicate.service.access import check_new_pin
from duplicate.service.errors import TournamentError

MISMATCH = "Los dos PIN no coinciden: no se ha guardado nada. Escriba el PIN otra vez."
"""What the form says when the PIN typed again differs."""

CANCELLED = "PIN no guardado: no se ha confirmado."
"""What the form says when the confirmation is cancelled (Esc)."""


class PinAgainDialog(ModalScreen[bool | None]):
    """Ask for ``pin`` again, hidden: True when the same is typed, False when another is,
    None on Esc. ``who``: whose PIN, as the title says it («del juez árbitro»)."""

    DEFAULT_CSS = """
    PinAgainDialog { align: center middle; }
    PinAgainDialog > Vertical { width: 60; max-width: 100%; height: auto; border: thick $accent;
                                background: $panel; padding: 0 1; }
    PinAgainDialog .title { text-style: bold; }
    PinAgainDialog Input { width: 100%; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancelar")]

    def __init__(self, pin: str, who: str) -> None:
        super().__init__()
        self._pin, self.who = pin, who

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(f"Confirme el PIN {self.who}"), classes="title")
            yield Label("Escríbalo otra vez:")
            yield Input(password=True, id="pin_again")
            yield Static("Intro: guardar · Esc: cancelar", classes="hint")

    def on_mount(self) -> None:
        self.query_one("#pin_again", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.dismiss(event.value == self._pin)

    def action_cancel(self) -> None:
        self.dismiss(None)


def confirm_pin(app: App[object], pin: str, who: str, save: Callable[[], None],
                refused: Callable[[str], None]) -> None:
    """Call ``save`` once ``pin`` is confirmed (module docstring); else ``refused`` with
    the Spanish reason (``MISMATCH`` or ``CANCELLED``), nothing saved."""
    try:
        check_new_pin(pin)
    except TournamentError:
        save()                         # empty or too short: the service answers (and refuses a bad one)
        return

    def answered(same: bool | None) -> None:
        if same:
            save()
        else:
            refused(MISMATCH if same is False else CANCELLED)

    app.push_screen(PinAgainDialog(pin, who), answered)
