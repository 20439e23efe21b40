"""Sign in with the station's PIN: the credential alone says who is acting (issue 12 §1).

The judge-arbiter's PIN opens every screen; an assistant's PIN its slip entry (its own
tables, II.4.c), the standings and the projection; «Solo consulta» opens the read-only
screens without a PIN. Wrong PINs are counted by the service, which locks sign-in for a
growing delay after five in a row.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, Footer, Header, Input, Label, Static

from duplicate.service import TournamentError


class SignInScreen(Screen[None]):
    """Type the PIN, Enter; or open the read-only screens."""

    BINDINGS = [("escape", "app.pop_screen", "Volver")]

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical():
            tournament = self.app.base_service.tournament(self.app.state.tournament_id)  # type: ignore[attr-defined]
            yield Static(Text(f"{tournament.name}: identifíquese"), classes="title")
            with Horizontal(classes="form"):
                yield Label("PIN   ")
                yield Input(password=True, id="pin", placeholder="el del juez árbitro o el de su puesto de auxiliar")
            with Horizontal(classes="buttons"):
                yield Button("Entrar", id="enter", variant="primary")
                yield Button("Solo consulta (sin PIN)", id="viewer")
            yield Static("", id="message")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#pin", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.sign_in()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "viewer":
            self.app.sign_in(None)  # type: ignore[attr-defined]
        elif event.button.id == "enter":
            self.sign_in()

    def sign_in(self) -> None:
        pin_input = self.query_one("#pin", Input)
        pin = pin_input.value
        pin_input.value = ""
        try:
            self.app.sign_in(pin)  # type: ignore[attr-defined]
        except TournamentError as error:
            self.query_one("#message", Static).update(Text(str(error), style="bold red"))
            pin_input.focus()
