"""First screen: open a tournament of the database or create one (issue 4 §1)."""

from __future__ import annotations

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Header, Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from duplicate.plurals import counted
from duplicate.service.errors import TournamentError
from duplicate.service.views import TournamentInfo
from tui.app.station import StationScreen
from tui.app.widgets.glyphs import HEADER_ICON
from tui.app.widgets.pin_dialog import confirm_pin
from tui.app.widgets.steady_footer import SteadyFooter


class StartScreen(StationScreen[None]):
    """Tournament list (Enter opens one) and a form to create a new one."""

    BINDINGS = [Binding("ctrl+q", "app.quit", "Salir", priority=True)]

    def compose(self) -> ComposeResult:
        yield Header(icon=HEADER_ICON)
        with Vertical():
            yield Static("Torneos de esta base de datos", classes="title")
            yield OptionList(id="tournaments")
            if self.station.remote:
                # A browser opens a tournament and signs in; it never creates one (issue 14 §3).
                yield Static("", id="message")
                return
            yield Static("Nuevo torneo", classes="title")
            with Horizontal(classes="form"):
                yield Label("Nombre")
                yield Input(placeholder="IV Torneo Duplicado de Villanueva", id="name")
            with Horizontal(classes="form"):
                yield Label("Lugar ")
                yield Input(placeholder="Villanueva", id="venue")
            with Horizontal(classes="form"):
                yield Label("Juez árbitro")
                yield Input(placeholder="su nombre (queda en el historial)", id="judge_name")
            with Horizontal(classes="form"):
                yield Label("PIN del juez")
                yield Input(password=True, placeholder="6 caracteres o más",
                            id="judge_pin")
            yield Button("Crear torneo", id="create", variant="primary")
            yield Static("", id="message")
        yield SteadyFooter()

    def on_mount(self) -> None:
        self.read_tournaments()

    @work(thread=True, group="start", exit_on_error=False)
    def read_tournaments(self) -> None:
        """The tournaments in the database, read in a worker thread, then listed."""
        try:
            tournaments: list[TournamentInfo] | TournamentError = self.station.service.tournaments()
        except TournamentError as error:
            tournaments = error
        self.app.call_from_thread(self.show_tournaments, tournaments)

    def show_tournaments(self, tournaments: list[TournamentInfo] | TournamentError) -> None:
        """List ``tournaments`` (newest first), or say why they could not be read."""
        if isinstance(tournaments, TournamentError):
            self.query_one("#message", Static).update(Text(str(tournaments), style="bold red"))
            return
        options = self.query_one("#tournaments", OptionList)
        for tournament in reversed(tournaments):
            games, players = counted(len(tournament.games), "partida"), counted(tournament.players, "jugador")
            options.add_option(Option(Text(f"{tournament.name} — {tournament.venue or 'sin lugar'} "   # plain text
                                           f"({games}, {players})"), id=str(tournament.id)))
        if tournaments:
            options.highlighted = 0
            options.focus()
        elif self.station.remote:
            self.query_one("#message", Static).update(
                Text("No hay ningún torneo: el juez árbitro lo crea en su equipo con «duplicada».", style="bold"))
        else:
            self.query_one("#name", Input).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        assert event.option.id is not None
        self.station.open_tournament(int(event.option.id))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "create":
            self.create()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        following = {"name": "venue", "venue": "judge_name", "judge_name": "judge_pin"}
        if event.input.id in following:
            self.query_one(f"#{following[event.input.id]}", Input).focus()
        else:
            self.create()

    def create(self) -> None:
        if self.station.remote:
            return
        name = self.query_one("#name", Input).value
        venue = self.query_one("#venue", Input).value
        judge = self.query_one("#judge_name", Input).value.strip()
        pin_input = self.query_one("#judge_pin", Input)
        pin = pin_input.value
        pin_input.value = ""                     # a secret is never kept on screen
        if not judge:
            self.query_one("#message", Static).update(
                Text("Falta el nombre del juez árbitro: queda en el historial de cada decisión "
                     "(escriba después el PIN otra vez).", style="bold red"))
            self.query_one("#judge_name", Input).focus()
            return

        def refused(why: str) -> None:
            self.query_one("#message", Static).update(Text(why, style="bold red"))
            pin_input.focus()

        def create() -> None:
            self._create(name, venue, judge, pin)

        confirm_pin(self.app, pin, "del juez árbitro", create, refused)

    @work(thread=True, exclusive=True, group="create", exit_on_error=False)
    def _create(self, name: str, venue: str, judge: str, pin: str) -> None:
        """Create the tournament in a worker thread (the PIN's slow hash), then open it."""
        try:
            created: int | TournamentError = self.station.service.create_tournament(
                name, venue=venue, judge_pin=pin, judge_name=judge)
        except TournamentError as error:
            created = error
        self.app.call_from_thread(self._created, created)

    def _created(self, created: int | TournamentError) -> None:
        if isinstance(created, TournamentError):
            self.query_one("#message", Static).update(Text(str(created), style="bold red"))
            return
        self.station.open_tournament(created)
