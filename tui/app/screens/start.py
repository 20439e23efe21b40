"""First screen: open a tournament of the database or create one (issue 4 §1)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, Footer, Header, Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from duplicate.service import TournamentError


class StartScreen(Screen[None]):
    """Tournament list (Enter opens one) and a form to create a new one."""

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical():
            yield Static("Torneos de esta base de datos", classes="title")
            yield OptionList(id="tournaments")
            yield Static("Nuevo torneo", classes="title")
            with Horizontal(classes="form"):
                yield Label("Nombre")
                yield Input(placeholder="IV Torneo Duplicado de Villanueva", id="name")
            with Horizontal(classes="form"):
                yield Label("Lugar ")
                yield Input(placeholder="Villanueva", id="venue")
            with Horizontal(classes="form"):
                yield Label("PIN del juez")
                yield Input(password=True, placeholder="al menos 6 caracteres; lo pedirá al identificarse",
                            id="judge_pin")
            yield Button("Crear torneo", id="create", variant="primary")
            yield Static("", id="message")
        yield Footer()

    def on_mount(self) -> None:
        options = self.query_one("#tournaments", OptionList)
        tournaments = self.app.service.tournaments()  # type: ignore[attr-defined]
        for tournament in reversed(tournaments):
            options.add_option(Option(f"{tournament.name} — {tournament.venue or 'sin lugar'} "
                                      f"({len(tournament.games)} partidas, {tournament.players} jugadores)", id=str(tournament.id)))
        if tournaments:
            options.highlighted = 0
            options.focus()
        else:
            self.query_one("#name", Input).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        assert event.option.id is not None
        self.app.open_tournament(int(event.option.id))  # type: ignore[attr-defined]

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "create":
            self.create()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        following = {"name": "venue", "venue": "judge_pin"}
        if event.input.id in following:
            self.query_one(f"#{following[event.input.id]}", Input).focus()
        else:
            self.create()

    def create(self) -> None:
        name = self.query_one("#name", Input).value
        venue = self.query_one("#venue", Input).value
        pin_input = self.query_one("#judge_pin", Input)
        pin = pin_input.value
        pin_input.value = ""                     # a secret is never kept on screen
        try:
            tournament_id = self.app.service.create_tournament(  # type: ignore[attr-defined]
                name, venue=venue, judge_pin=pin)
        except TournamentError as error:
            self.query_one("#message", Static).update(Text(str(error), style="bold red"))
            return
        self.app.open_tournament(tournament_id)  # type: ignore[attr-defined]
