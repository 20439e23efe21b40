"""Sign in with the station's PIN: the credential alone says who is acting (issue 12 §1).

The judge-arbiter's PIN opens every screen; an assistant's PIN its slip entry (its own
tables, II.4.c), the standings and the projection; «Solo consulta» opens the read-only
screens without a PIN. Wrong PINs are counted by the service, which locks sign-in from
this station for a growing delay after five, and, once the tournament has had many wrong
tries from anywhere, gives a wrong PIN's answer only when its turn comes (issue 36 §1):
«Comprobando el PIN…» stays until then; a right PIN is never held.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Header, Input, Label, Static

from duplicate.service.errors import TournamentError
from tui.app.screens.home import HomeScreen
from tui.app.station import StationScreen
from tui.app.widgets.glyphs import HEADER_ICON
from tui.app.widgets.steady_footer import SteadyFooter


class SignInScreen(StationScreen[None]):
    """Type the PIN, Enter; or open the read-only screens."""

    BINDINGS = [Binding("escape", "back", "Volver"), Binding("ctrl+q", "app.quit", "Salir", priority=True)]

    def compose(self) -> ComposeResult:
        yield Header(icon=HEADER_ICON)
        with Vertical():
            yield Static(Text("Identifíquese"), id="title", classes="title")
            with Horizontal(classes="form"):
                yield Label("PIN   ")
                yield Input(password=True, id="pin", placeholder="el del juez o el de su puesto")
            with Horizontal(classes="buttons"):
                yield Button("Entrar", id="enter", variant="primary")
                if not self.station.remote:
                    yield Button("Solo consulta (sin PIN)", id="viewer")
            yield Static("", id="message")
        yield SteadyFooter()

    def on_mount(self) -> None:
        self.query_one("#pin", Input).focus()
        if not self.station.remote:        # under «serve» nothing of the tournament before a PIN
            self.read_title()

    def action_back(self) -> None:
        """Back to the tournament list; a browser under «serve» has none (issue 26 §1)."""
        if not self.station.remote:
            self.app.pop_screen()

    @property
    def busy(self) -> bool:
        """True while the PIN is being checked (the slow hash runs in a worker thread)."""
        return self._checking

    _checking = False

    @work(thread=True, group="sign-in-title", exit_on_error=False)
    def read_title(self) -> None:
        """The tournament's name in the title, read in a worker thread."""
        try:
            name = self.station.base_service.tournament(self.station.state.tournament_id).name
        except TournamentError:
            return
        self.app.call_from_thread(self.query_one("#title", Static).update, Text(f"{name}: identifíquese"))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.sign_in()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "viewer" and not self.station.remote:
            self.station.sign_in(None)
        elif event.button.id == "enter":
            self.sign_in()

    def sign_in(self) -> None:
        """Check the typed PIN in a worker thread; then the home menu, or why not."""
        if self._checking:
            return
        pin_input = self.query_one("#pin", Input)
        pin = pin_input.value
        pin_input.value = ""
        self._checking = True
        self.query_one("#message", Static).update(Text("Comprobando el PIN…", style="dim"))
        self._check(pin)

    @work(thread=True, group="sign-in", exit_on_error=False)
    def _check(self, pin: str) -> None:
        try:
            outcome: Any = self.station.check_pin(pin)
        except TournamentError as error:
            outcome = error
        self.app.call_from_thread(self._checked, outcome)

    def _checked(self, outcome: Any) -> None:
        self._checking = False
        if isinstance(outcome, TournamentError):
            self.query_one("#message", Static).update(Text(str(outcome), style="bold red"))
            self.query_one("#pin", Input).focus()
            return
        self.station.adopt(*outcome)
        self.app.switch_screen(HomeScreen())
