"""Sign in with a role (judge / assistant) and the PIN the judge set (issue 4 §3)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Header, Input, Label, RadioButton, RadioSet, Static

ROLE_NAMES = {"judge": "Juez árbitro", "assistant": "Árbitro auxiliar"}


class SignInScreen(Screen[None]):
    """Choose the role, type the name and the PIN, Enter."""

    BINDINGS = [("escape", "app.pop_screen", "Volver")]

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical():
            tournament = self.app.service.tournament(self.app.state.tournament_id)  # type: ignore[attr-defined]
            yield Static(f"{tournament.name}: identifíquese", classes="title")
            with RadioSet(id="role"):
                yield RadioButton(ROLE_NAMES["judge"], id="judge", value=True)
                yield RadioButton(ROLE_NAMES["assistant"], id="assistant")
            with Horizontal(classes="form"):
                yield Label("Nombre")
                yield Input(placeholder="quien usa este puesto", id="arbiter")
            with Horizontal(classes="form"):
                yield Label("PIN   ")
                yield Input(password=True, id="pin", placeholder="vacío si no hay PIN")
            yield Static("", id="message")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#arbiter", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "arbiter":
            self.query_one("#pin", Input).focus()
            return
        self.sign_in()

    def sign_in(self) -> None:
        role_set = self.query_one("#role", RadioSet)
        role = role_set.pressed_button.id if role_set.pressed_button else "assistant"
        assert role is not None
        pin = self.query_one("#pin", Input).value
        if not self.app.service.check_pin(role, pin, self.app.state.tournament_id):  # type: ignore[attr-defined]
            self.query_one("#message", Static).update("[b red]PIN incorrecto[/]")
            self.query_one("#pin", Input).value = ""
            return
        arbiter = self.query_one("#arbiter", Input).value.strip()
        self.app.signed_in(role, arbiter)  # type: ignore[attr-defined]
