"""Tournament setup for the judge (issue 4 §2): the rule settings, the players, the
games and their tables (II.6), the assistants with their tables (II.4.c) and the PINs,
and the online venues with their judges' and assistants' PINs (issue 27 §2).

Five tabs — Torneo, Jugadores, Mesas, Auxiliares, Sedes. Every action goes through the
``TournamentService``; its ``TournamentError`` is shown in the message line. The lexicon
is shown (its hash); it is fixed when the tournament is created and is not changed here.

A tab is offered when the service says this station may do one of its actions
(``service.may``, ``TAB_ACTIONS``): a venue's judge registers its venue's players and sets
its own and its assistants' PINs and tables, and sees only its venue's players and
assistants; the settings, the games and the venues are the organiser's judge's.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import (
    DataTable,
    Header,
    Input,
    Label,
    Select,
    Static,
    Switch,
    TabbedContent,
    TabPane,
)

from data.rules import ROUND_SECONDS
from duplicate.service.access import Action
from duplicate.service.errors import TournamentError
from duplicate.service.settings import TournamentSettings
from duplicate.service.views import AssistantRangeView, EntryView, PlayerView
from tui.app.messages import DataChanged
from tui.app.screens.setup_actions import SetupActions
from tui.app.screens.setup_presenter import (
    BONUS_MODES,
    CRITERIA,
    PLAYER_COLUMNS,
    SEATING,
    TABS,
    SetupData,
    bonus_advice,
    games_text,
    info_text,
    lock_text,
    player_row,
    problem,
)
from tui.app.screens.setup_venues import VENUE_COLUMNS, venue_choices, venue_fields
from tui.app.widgets.form_rows import form_button, form_input, form_row, form_select, show_or_hide
from tui.app.widgets.glyphs import HEADER_ICON
from tui.app.widgets.ordered_input import OrderedInput
from tui.app.widgets.plain_table import PlainTable
from tui.app.widgets.steady_footer import SteadyFooter

_TABS = Binding.Group("Pestañas", compact=True)
"""F2–F6 shown as one footer item: the tab names are on the tabs themselves."""

TAB_ACTIONS: dict[str, tuple[Action, ...]] = {
    "tab-torneo": (Action.CHANGE_SETTINGS,),
    "tab-jugadores": (Action.ADD_PLAYER, Action.UPDATE_PLAYER, Action.SET_ENTRY_STATUS),
    "tab-mesas": (Action.CREATE_GAME, Action.ASSIGN_TABLES),
    "tab-auxiliares": (Action.SET_CREDENTIAL, Action.SET_ASSISTANT_RANGE),
    "tab-sedes": (Action.ADD_VENUE, Action.IMPORT_VENUE),
}
"""Each tab and the actions it is for: offered to a station that may do one of them."""

_input, _button, _row, _show = form_input, form_button, form_row, show_or_hide


def _select(options: list[tuple[str, str]], name: str) -> Select[str]:
    return form_select(list(options), name)


class SetupScreen(SetupActions):
    """The judge's tournament setup. See the module docstring."""

    DEFAULT_CSS = """
    SetupScreen #tabs { height: 1fr; }
    SetupScreen TabPane { padding: 0; height: 1fr; }
    SetupScreen VerticalScroll { height: 1fr; padding: 0 1; }
    SetupScreen .row { height: auto; margin-top: 1; }
    SetupScreen .row .field { width: 28; padding-right: 1; text-align: right; text-style: bold; }
    SetupScreen .row .aside { width: 1fr; padding-left: 2; color: $text-muted; }
    SetupScreen .row Input { width: 24; background: $boost; }
    SetupScreen .row Select { background: $boost; }
    SetupScreen .-empty { display: none; }
    SetupScreen .group { height: auto; }
    SetupScreen .row Input.wide { width: 1fr; max-width: 60; }
    SetupScreen .row Select { width: 1fr; max-width: 64; }
    SetupScreen .row Switch { width: auto; height: 1; border: none; padding: 0; }
    SetupScreen .buttons { height: auto; margin-top: 1; padding-left: 29; }
    SetupScreen .buttons Button { margin: 0 2 0 0; }
    SetupScreen DataTable { height: auto; max-height: 14; margin-top: 1; }
    SetupScreen #warnings { color: $warning; padding-left: 29; height: auto; }
    SetupScreen #lock, SetupScreen #games, SetupScreen .note { height: auto; margin-top: 1; }
    SetupScreen #lock { color: $warning; text-style: bold; }
    SetupScreen #message { height: auto; min-height: 1; padding: 0 1; }
    SetupScreen.-narrow .buttons, SetupScreen.-narrow #warnings { padding-left: 1; }
    SetupScreen.-narrow .buttons Button { margin: 0 1 0 0; }
    SetupScreen.-narrow .row .field { width: 22; }
    """

    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (100, "-wide")]  # noqa: RUF012 (as Screen declares it)

    BINDINGS = [
        Binding("escape", "app.pop_screen", "Volver"),
        Binding("ctrl+s", "save_settings", "Guardar ajustes"),
        Binding("f2", "show_tab('torneo')", "Torneo", group=_TABS),
        Binding("f3", "show_tab('jugadores')", "Jugadores", group=_TABS),
        Binding("f4", "show_tab('mesas')", "Mesas", group=_TABS),
        Binding("f5", "show_tab('auxiliares')", "Auxiliares", group=_TABS),
        Binding("f6", "show_tab('sedes')", "Sedes", group=_TABS),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.editing: int | None = None
        """The entry whose details the player form holds, None when adding."""
        self._entries: list[tuple[EntryView, PlayerView]] = []
        self._ranges: list[AssistantRangeView] = []
        self._active_players: int | None = None
        self._working = 0
        self._write_lock = threading.Lock()      # the judge's actions reach the service one at a time
        self.tabs_offered: set[str] = set(TAB_ACTIONS)
        """The tabs this station may use (``offer_what_may_be_done``)."""

    @property
    def busy(self) -> bool:
        """True while an action or a read runs in a worker and its result is not shown yet."""
        return self._working > 0

    # --- layout ---------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Header(icon=HEADER_ICON)
        with TabbedContent(initial="tab-torneo", id="tabs"):
            with TabPane("F2 Torneo", id="tab-torneo"), VerticalScroll():
                yield Static(id="info")
                yield Static(id="lock")
                yield _row("Segundos por ronda", _input(type="integer", id="seconds"),
                           hint=f"III.13: {ROUND_SECONDS}; para las próximas partidas")
                yield _row("Bonificaciones", _select(BONUS_MODES, "bonus_mode"))
                yield _row("Valor (manuales)", _input(type="integer", id="bonus_value"))
                yield Static(id="warnings")
                yield _row("Clasificación del torneo", _select(CRITERIA, "criterion"))
                yield _row("Desempates (III.28)", Switch(id="tie_breaks"),
                           hint="premios no compartibles; también en la general (IV.31)")
                yield _row("Notación orientada", Switch(id="oriented"),
                           hint="con flecha, si el organizador la admite (II.8)")
                yield _row("Notación de tablero", Switch(id="board_notation"),
                           hint="papeletas en tablero, F12 (II.8, III.20.1.c–d)")
                yield _row("Corregir definitivos", Switch(id="corrections_after_final"),
                           hint="reabrir partidas con motivo (IV.32)")
                yield _row("Clasificación parcial cada", _input(type="integer", id="partial_every"),
                           hint="rondas (FISE: 3)")
                yield Horizontal(_button("Guardar ajustes", id="save", variant="primary"), classes="buttons")
                yield Static(id="games")
            with TabPane("F3 Jugadores", id="tab-jugadores"), VerticalScroll():
                yield PlainTable(id="players", cursor_type="row", zebra_stripes=True)
                yield Horizontal(*(_button(label, id=key) for key, label in (
                    ("withdraw", "Retirar"), ("absent", "Ausente"), ("disqualify", "Descalificar"),
                    ("reactivate", "Reactivar"))), classes="buttons")
                yield Static("Enter sobre un jugador carga sus datos para corregirlos.", classes="note")
                yield _row("Nombre", _input(id="p_name", classes="wide"))
                yield _row("Club", _input(id="p_club", classes="wide"))
                yield _row("País", _input(id="p_country"))
                yield _row("Nº de federación", _input(id="p_fed"))
                venue_row = _row("Sede", form_select(venue_choices([]), "p_venue"))
                venue_row.id = "p_venue_row"
                yield venue_row
                yield Horizontal(_button("Añadir jugador", id="add", variant="primary"),
                                 _button("Guardar cambios", id="update"), _button("Formulario vacío", id="clear"),
                                 classes="buttons")
                yield _row("Importar CSV", _input(placeholder="jugadores.csv (nombre,club,pais,federacion)",
                                                 id="csv_path", classes="wide"))
                yield Horizontal(_button("Importar", id="import"), classes="buttons")
            with TabPane("F4 Mesas", id="tab-mesas"), VerticalScroll():
                yield _row("Rondas pactadas", _input(type="integer", placeholder="vacío: bolsa completa", id="rounds"))
                yield _row("Semilla de la bolsa", _input(type="integer", placeholder="vacío: al azar", id="seed"))
                yield _row("Asignación de mesas", _select(SEATING, "seating"))
                yield _row("Semilla del sorteo",
                           _input(type="integer", placeholder="solo «al azar»", id="seating_seed"))
                yield Static("II.6: nunca libre elección de mesa.", classes="note")
                yield Horizontal(_button("Crear partida y sentar jugadores", id="create_game", variant="primary"),
                                 _button("Volver a sentar (partida sin empezar)", id="reseat"), classes="buttons")
                yield Static(id="tables_title", classes="note")
                yield PlainTable(id="tables", cursor_type="row", zebra_stripes=True)
            with TabPane("F5 Auxiliares", id="tab-auxiliares"), VerticalScroll():
                yield PlainTable(id="ranges", cursor_type="row", zebra_stripes=True)
                yield Static("II.4.c: un árbitro auxiliar por cada 20–30 jugadores. Enter sobre una fila la carga.",
                             classes="note")
                yield _row("Auxiliar", _input(id="a_name"))
                yield _row("Desde la mesa", _input(type="integer", id="a_first"))
                yield _row("Hasta la mesa", _input(type="integer", id="a_last"))
                yield Horizontal(_button("Guardar rango", id="set_range", variant="primary"), classes="buttons")
                yield _row("PIN del auxiliar", _input(password=True, id="pin_assistant",
                                                      placeholder="6 caracteres o más"))
                yield _row("PIN del juez árbitro", _input(password=True, placeholder="6 caracteres o más",
                                                         id="pin_judge"))
                yield Static("Cada puesto entra con su PIN, distinto de los demás; vacío en el de un auxiliar: "
                             "le quita el acceso.", classes="note")
                yield Horizontal(_button("Guardar PIN del juez", id="set_pin_judge"),
                                 _button("Guardar PIN del auxiliar", id="set_pin_assistant"), classes="buttons")
            with TabPane("F6 Sedes", id="tab-sedes"), VerticalScroll():
                yield from venue_fields()
        yield Static(id="message")
        yield SteadyFooter()

    def on_mount(self) -> None:
        self.query_one("#players", DataTable).add_columns(*PLAYER_COLUMNS)
        self.query_one("#venues", DataTable).add_columns(*VENUE_COLUMNS)
        self.query_one("#tables", DataTable).add_columns("Mesa", "Jugador", "Club")
        self.query_one("#ranges", DataTable).add_columns("Auxiliar", "Desde", "Hasta")
        for field in self.query(OrderedInput):
            field.on_enter = self.enter_now
        self.refresh_lists(settings=True)
        self.offer_what_may_be_done()

    def offer_what_may_be_done(self) -> None:
        """Hide the tabs of actions this station may not do (``TAB_ACTIONS``); the
        settings are shown, not editable, to a station that may not change them."""
        tabs = self.query_one("#tabs", TabbedContent)
        self.tabs_offered = {pane for pane, actions in TAB_ACTIONS.items() if any(self.may(a) for a in actions)}
        if not self.tabs_offered:
            tabs.disabled = True
            self.say("La preparación del torneo es cosa del juez árbitro.", error=True)
            return
        for pane in TAB_ACTIONS:
            if pane not in self.tabs_offered and pane != "tab-torneo":
                tabs.hide_tab(pane)
        if "tab-torneo" not in self.tabs_offered:
            for field in self.query_one("#tab-torneo").query("Input, Select, Switch, Button"):
                field.disabled = True
            tabs.active = next(pane for pane in TAB_ACTIONS if pane in self.tabs_offered)
            self.say("Los ajustes, las partidas, las mesas y las sedes los lleva el juez árbitro del torneo; aquí: "
                     "los jugadores y los PIN de los auxiliares de su sede.")
        self.offer_venue_forms()
        if self.station.state.venue is not None:       # its own PIN: a venue judge's
            judge_pin = self.query_one("#pin_judge").parent
            if judge_pin is not None:
                judge_pin.query_one(Label).update("PIN del juez de sede")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Offer only the tabs (F2–F6) and the saving of settings this station may use."""
        if action == "save_settings":
            return "tab-torneo" in self.tabs_offered
        if action == "show_tab" and parameters and isinstance(parameters[0], str):
            return parameters[0] == "torneo" or TABS[parameters[0]] in self.tabs_offered
        return True

    def on_data_changed(self, message: DataChanged) -> None:
        self.refresh_lists()

    def action_show_tab(self, tab: str) -> None:
        """Show the tab and put the cursor in its first field."""
        self.query_one("#tabs", TabbedContent).active = TABS[tab]
        first = self.query_one(f"#{TABS[tab]}").query(Input).first()
        self.set_focus(first)

    def say(self, text: str, *, error: bool = False) -> None:
        """Show ``text`` in the message line (red for an error)."""
        message = self.query_one("#message", Static)
        message.update(Text(text))                      # plain text: names may hold [/] (never markup)
        message.set_classes("error" if error else "ok")

    # --- reading the service (in worker threads) ---------------------------------------------
    def refresh_lists(self, *, settings: bool = False) -> None:
        """Read everything shown that other stations may change — info, games, players,
        tables, assistants; the stored settings too when ``settings`` — in a worker thread,
        then show it."""
        service, tournament_id, venue = self.service, self.tournament_id, self.station.state.venue
        every_venue = self.may(Action.ADD_VENUE) or self.may(Action.IMPORT_VENUE)    # the «Sedes» tab's table
        self._working += 1

        def read() -> None:
            try:
                info = service.tournament(tournament_id)
                data: SetupData | Exception = SetupData(
                    info, service.settings(tournament_id) if settings else None, service.entries(tournament_id),
                    service.seats(info.games[-1].number, tournament_id) if info.games else [],
                    service.assistant_ranges(tournament_id), service.online_venues(tournament_id),
                    service.venue_stations(tournament_id),
                    service.venues(tournament_id) if every_venue else []).within(venue)
            except Exception as error:  # noqa: BLE001 - shown to the judge, never a traceback
                data = error
            self._from_worker(self.show_lists, data)

        self.run_worker(read, thread=True, group="setup-read", exit_on_error=False)

    def _from_worker(self, show: Callable[[Any], None], outcome: Any) -> None:
        """Hand ``outcome`` to ``show`` on the event loop (unless the app is closing)."""
        def shown() -> None:
            self._working -= 1
            if self.is_attached:
                show(outcome)

        try:
            self.app.call_from_thread(shown)
        except RuntimeError:
            pass

    def show_lists(self, data: SetupData | Exception) -> None:
        """Show what ``refresh_lists`` read."""
        if isinstance(data, Exception):
            self.say(problem(data), error=True)
            return
        if data.settings is not None:
            self.show_settings(data.settings)
        info = data.info
        self._entries, self._ranges, self._active_players = data.entries, data.ranges, info.field_active_players
        self.query_one("#info", Static).update(info_text(info))
        _show(self.query_one("#lock", Static), lock_text(info))
        self.query_one("#games", Static).update(games_text(info))
        self.update_warnings()

        players = self.query_one("#players", DataTable)
        row = players.cursor_row
        columns = PLAYER_COLUMNS + (("Sede",) if data.venues else ())
        players.clear(columns=len(players.columns) != len(columns))
        if not players.columns:
            players.add_columns(*columns)
        for entry, player in data.entries:
            players.add_row(*player_row(entry, player, venues=bool(data.venues)), key=str(entry.id))
        if players.row_count:
            players.move_cursor(row=min(row, players.row_count - 1))

        tables = self.query_one("#tables", DataTable)
        tables.clear()
        if info.games:
            self.query_one("#tables_title", Static).update(f"Mesas de la partida {info.games[-1].number}:")
            for table, _, player in data.seats:
                tables.add_row(str(table), player.name, player.club)
        else:
            self.query_one("#tables_title", Static).update("Aún no hay partidas ni mesas.")

        ranges = self.query_one("#ranges", DataTable)
        ranges.clear()
        for item in data.ranges:
            ranges.add_row(item.assistant, str(item.first_table), str(item.last_table), key=item.assistant)
        self.show_venues(data.venues, data.entries, data.stations, data.ranges, data.views)

    def show_settings(self, settings: TournamentSettings) -> None:
        """Fill the settings form with the stored settings."""
        self.query_one("#seconds", Input).value = str(settings.seconds_per_round)
        self.query_one("#bonus_mode", Select).value = settings.bonus_mode
        self.query_one("#bonus_value", Input).value = str(settings.bonus_value)
        self.query_one("#criterion", Select).value = settings.criterion
        self.query_one("#tie_breaks", Switch).value = settings.tie_breaks
        self.query_one("#oriented", Switch).value = settings.oriented_notation
        self.query_one("#board_notation", Switch).value = settings.board_notation
        self.query_one("#corrections_after_final", Switch).value = settings.corrections_after_final
        self.query_one("#partial_every", Input).value = str(settings.partial_every)

    def update_warnings(self) -> None:
        """III.24's advice for the bonus chosen in the form (not yet saved)."""
        advice = bonus_advice(self._active_players, str(self.query_one("#bonus_mode", Select).value),
                              self.query_one("#bonus_value", Input).value)
        if advice is not None:                              # None: not read yet, shown once it is
            _show(self.query_one("#warnings", Static), advice)

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id == "bonus_value":
            self.update_warnings()

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "bonus_mode":
            self.update_warnings()

    # --- actions (in a worker thread, one at a time) -------------------------------------------
    def run(self, form: Callable[[], Callable[[], Any]], done: str | Callable[[Any], str],
            then: Callable[[], None] | None = None, failed: Callable[[Exception], None] | None = None) -> None:
        """Do one of the judge's actions: ``form()`` reads the fields here (a
        ``TournamentError`` naming a bad field is shown at once) and returns the service
        call, which runs in a worker thread; then ``done`` (text, or made from what the call
        returned) or the service's error is shown, ``then()`` runs after success, and the
        lists are read again."""
        try:
            call = form()
        except TournamentError as error:
            self.say(str(error), error=True)
            return
        self._working += 1

        def act() -> None:
            with self._write_lock:
                try:
                    outcome: Any = ("hecho", call())
                except Exception as error:  # noqa: BLE001 - shown to the judge, never a traceback
                    outcome = error
            self._from_worker(lambda result: self._acted(result, done, then, failed), outcome)

        self.run_worker(act, thread=True, group="setup-write", exit_on_error=False)

    def _acted(self, outcome: Any, done: str | Callable[[Any], str], then: Callable[[], None] | None,
               failed: Callable[[Exception], None] | None = None) -> None:
        if isinstance(outcome, Exception):
            self.say(problem(outcome), error=True)
            if failed is not None:
                failed(outcome)
            return
        self.say(done if isinstance(done, str) else done(outcome[1]))
        if then is not None:
            then()
        self.refresh_lists()
