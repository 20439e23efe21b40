"""The judge's actions on the setup screen (issue 4 §2): save the settings, add, edit,
withdraw or import players, create a game and seat it (II.6), set an assistant's tables
(II.4.c) and the PINs.

``SetupActions`` is the base of ``SetupScreen`` (``tui.app.screens.setup``), which lays
the forms out and reads the service: each action here reads its fields (a bad number is
named at once) and hands the service call to ``run``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from textual.widgets import Button, DataTable, Input, Select, Switch

from duplicate.labels import ENTRY_STATUS
from duplicate.plurals import counted
from duplicate.rules.statuses import EntryStatus, SeatingMethod
from duplicate.service.errors import InvalidNumber, InvalidText, ResultsUnpublished, TournamentError
from duplicate.service.settings import TournamentSettings
from duplicate.service.views import AssistantRangeView, EntryView, PlayerView
from tui.app.screens.setup_presenter import STATUS_BUTTONS, integer
from tui.app.screens.setup_venues import ORGANISER_ROOM, VenueActions
from tui.app.widgets.judge_dialogs import ReasonDialog
from tui.app.widgets.ordered_input import OrderedInput
from tui.app.widgets.pin_dialog import confirm_pin


class SetupActions(VenueActions):
    """The setup screen's actions (see the module doc; the venues' in ``VenueActions``)."""

    editing: int | None
    _entries: list[tuple[EntryView, PlayerView]]
    _ranges: list[AssistantRangeView]

    def action_save_settings(self) -> None:
        def form() -> Callable[[], Any]:
            settings = TournamentSettings(
                bonus_mode=str(self.query_one("#bonus_mode", Select).value),
                bonus_value=integer(self.query_one("#bonus_value", Input).value, "valor de la bonificación") or 0,
                criterion=str(self.query_one("#criterion", Select).value),
                tie_breaks=self.query_one("#tie_breaks", Switch).value,
                oriented_notation=self.query_one("#oriented", Switch).value,
                board_notation=self.query_one("#board_notation", Switch).value,
                corrections_after_final=self.query_one("#corrections_after_final", Switch).value,
                partial_every=integer(self.query_one("#partial_every", Input).value, "clasificación parcial") or 0,
                seconds_per_round=integer(self.query_one("#seconds", Input).value, "segundos por ronda") or 0)
            service, tournament_id = self.service, self.tournament_id
            # Each venue's own bonuses (issue 27 §2) are not on this form: they keep their value.
            return lambda: service.change_settings(
                tournament_id, replace(settings, venue_bonuses=service.settings(tournament_id).venue_bonuses))

        self.run(form, "Ajustes guardados.")

    def selected_entry(self) -> int | None:
        players = self.query_one("#players", DataTable)
        if not players.row_count:
            return None
        key = players.coordinate_to_cell_key(players.cursor_coordinate).row_key.value
        return int(key) if key is not None else None

    def player_form(self) -> dict[str, str]:
        return {field: self.query_one(f"#p_{name}", Input).value
                for field, name in (("name", "name"), ("club", "club"), ("country", "country"),
                                    ("federation_id", "fed"))}

    def clear_player_form(self) -> None:
        for name in ("name", "club", "country", "fed"):
            self.query_one(f"#p_{name}", Input).value = ""
        self.editing = None

    def _focus_name(self) -> None:
        self.clear_player_form()
        self.set_focus(self.query_one("#p_name", Input))

    def add_player(self) -> None:
        """Register the player of the form. The form is cleared and the cursor put in the
        name at once, so that the next player can be typed straight away (issue 13 §2);
        if the service refuses, what was typed comes back (unless the next is being typed)."""
        typed = self.player_form()
        form = dict(typed)
        name = form.pop("name")
        service, tournament_id, venue = self.service, self.tournament_id, self.form_venue()
        self._focus_name()

        def restore(_error: Exception) -> None:
            if not any(self.player_form().values()):
                for field, key in (("name", "name"), ("club", "club"), ("country", "country"), ("fed", "federation_id")):
                    self.query_one(f"#p_{field}", Input).value = typed[key]

        where = f" (sede «{venue}»)" if venue else ""
        self.run(lambda: lambda: service.add_player(name, **form, tournament_id=tournament_id, venue=venue),
                 f"Inscrito: {' '.join(name.split())}{where}.", failed=restore)

    def update_player(self) -> None:
        if self.editing is None:
            self.say("Elija antes un jugador de la lista (Enter sobre su fila).", error=True)
            return
        entry, form, service = self.editing, self.player_form(), self.service
        venue = self.form_venue()
        before = next((item.venue or ORGANISER_ROOM for item, _ in self._entries if item.id == entry), None)
        moved = venue if venue is not None and venue != before else None      # a move only when changed
        where = f" Ahora juega en {f'la sede «{moved}»' if moved else 'la sala del organizador'}." if moved is not None else ""
        self.run(lambda: lambda: service.update_player(entry, **form, venue=moved),
                 f"Datos del jugador corregidos.{where}", then=self.clear_player_form)

    def set_status(self, status: EntryStatus) -> None:
        entry = self.selected_entry()
        if entry is None:
            self.say("No hay jugadores.", error=True)
            return
        service = self.service
        self.run(lambda: lambda: service.set_entry_status(entry, status),
                 f"Jugador nº {entry}: {ENTRY_STATUS[status.value]}.")

    def import_csv(self) -> None:
        path = self.query_one("#csv_path", Input).value.strip()
        if not path:
            self.say("Escriba la ruta del archivo CSV.", error=True)
            return
        service, tournament_id = self.service, self.tournament_id
        self.run(lambda: lambda: service.import_players(Path(path).expanduser(), tournament_id=tournament_id),
                 lambda imported: f"Importados: {counted(len(imported), 'jugador')} de {path}.")

    def seating_method(self) -> SeatingMethod | None:
        value = str(self.query_one("#seating", Select).value)
        return None if value == "auto" else SeatingMethod(value)

    def create_game(self, unpublished_reason: str = "") -> None:
        """Create the next game and seat the players; when the previous game's results
        are not published (IV.32), ask the judge why it starts anyway and try again."""
        def form() -> Callable[[], tuple[int, int]]:
            rounds = integer(self.query_one("#rounds", Input).value, "rondas pactadas")
            seed = integer(self.query_one("#seed", Input).value, "semilla de la bolsa")
            seating_seed = integer(self.query_one("#seating_seed", Input).value, "semilla del sorteo")
            service, tournament_id, method = self.service, self.tournament_id, self.seating_method()

            def create() -> tuple[int, int]:
                number = service.create_game(tournament_id=tournament_id, rounds=rounds, seed=seed, seating=method,
                                             seating_seed=seating_seed,
                                             unpublished_reason=unpublished_reason)
                return number, len(service.seats(number, tournament_id))

            return create

        def unpublished(error: Exception) -> None:
            if not isinstance(error, ResultsUnpublished):
                return

            def why(reason: str | None) -> None:
                if reason:
                    self.create_game(reason)

            self.app.push_screen(ReasonDialog(f"La partida {error.game} no tiene publicados sus resultados ni la "
                                              "clasificación del torneo (IV.32). Publíquelos en «Clasificaciones», o "
                                              "escriba por qué se empieza la siguiente igualmente (Esc: volver)",
                                              "Motivo:"), why)

        self.run(form, lambda created: f"Partida {created[0]} creada; {counted(created[1], 'jugador sentado')}.",
                 failed=unpublished)

    def reseat(self) -> None:
        def form() -> Callable[[], None]:
            seed = integer(self.query_one("#seating_seed", Input).value, "semilla del sorteo")
            service, tournament_id, method = self.service, self.tournament_id, self.seating_method()

            def seat() -> None:
                game = service.current_game(tournament_id)
                service.assign_tables(game, tournament_id=tournament_id, method=method, seed=seed)

            return seat

        self.run(form, "Mesas asignadas de nuevo.")

    def set_range(self) -> None:
        def form() -> Callable[[], None]:
            name = self.query_one("#a_name", Input).value.strip()
            if not name:
                raise InvalidText("el auxiliar necesita un nombre", what="el nombre del auxiliar", value=name)
            first = integer(self.query_one("#a_first", Input).value, "desde la mesa")
            last = integer(self.query_one("#a_last", Input).value, "hasta la mesa")
            if first is None or last is None:
                raise InvalidNumber("indique la primera y la última mesa", what="las mesas del auxiliar",
                                    value=(first, last))
            service, tournament_id = self.service, self.tournament_id
            return lambda: service.set_assistant_range(name, first, last, tournament_id=tournament_id)

        self.run(form, "Rango de mesas guardado.")

    def set_pin(self, role: str) -> None:
        pin_input = self.query_one(f"#pin_{role}", Input)
        pin = pin_input.value
        name = self.query_one("#a_name", Input).value.strip() if role == "assistant" else None
        # A venue's assistant keeps its venue when its PIN is changed here (issue 27 §2: the
        # service would move it to the venue given, None being the organiser's room).
        venue = self.station_venue(name) if name else None
        who = "juez árbitro" if role == "judge" else f"auxiliar «{name}»" + (f" de la sede «{venue}»" if venue else "")
        service, tournament_id = self.service, self.tournament_id

        def clear() -> None:
            pin_input.value = ""

        def save() -> None:
            self.run(lambda: lambda: service.set_pin(role, pin, name=name, tournament_id=tournament_id, venue=venue),
                     f"PIN del {who} {'guardado' if pin else 'quitado: ya no puede entrar'}.", then=clear)

        def refused(why: str) -> None:
            clear()
            self.say(why, error=True)
            pin_input.focus()

        confirm_pin(self.app, pin, f"del {who}", save, refused)       # typed twice (issue 35 §4)

    # --- events ---------------------------------------------------------------------------------
    def on_button_pressed(self, event: Button.Pressed) -> None:
        button = event.button.id or ""
        if button in STATUS_BUTTONS:
            self.set_status(STATUS_BUTTONS[button])
            return
        actions: dict[str, Callable[[], None]] = {"save": self.action_save_settings, "add": self.add_player, "update": self.update_player,
                   "clear": self.clear_player_form, "import": self.import_csv, "create_game": self.create_game,
                   "reseat": self.reseat, "set_range": self.set_range,
                   "set_pin_judge": lambda: self.set_pin("judge"),
                   "set_pin_assistant": lambda: self.set_pin("assistant"),
                   "add_venue": self.add_venue, "set_venue_pin": self.set_venue_pin,
                   "import_venue": self.import_venue_record}
        if button in actions:
            actions[button]()

    def enter_now(self, field: OrderedInput) -> None:
        """Enter, at once (``OrderedInput``): moves along a form; on its last field it does
        the form's action."""
        following = {"p_name": "p_club", "p_club": "p_country", "p_country": "p_fed",
                     "a_name": "a_first", "a_first": "a_last", "rounds": "seed",
                     "v_station": "v_pin", "v_pin": "v_tables", "vi_path": "vi_name"}
        finish: dict[str, Callable[[], None]] = {"p_fed": lambda: self.update_player() if self.editing is not None else self.add_player(),
                  "csv_path": self.import_csv, "a_last": self.set_range,
                  "pin_judge": lambda: self.set_pin("judge"), "pin_assistant": lambda: self.set_pin("assistant"),
                  "v_name": self.add_venue, "v_tables": self.set_venue_pin, "vi_name": self.import_venue_record}
        name = field.id or ""
        if name in following:
            self.set_focus(self.query_one(f"#{following[name]}", Input))
        elif name in finish:
            finish[name]()
        elif name in ("seconds", "bonus_value", "partial_every"):
            self.action_save_settings()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        if event.data_table.id == "players" and event.row_key.value is not None:
            entry_id = int(event.row_key.value)
            for entry, player in self._entries:
                if entry.id == entry_id:
                    for name, value in (("name", player.name), ("club", player.club), ("country", player.country),
                                        ("fed", player.federation_id or "")):
                        self.query_one(f"#p_{name}", Input).value = value
                    if self.query_one("#p_venue_row").display:
                        self.query_one("#p_venue", Select).value = entry.venue or ORGANISER_ROOM
                    self.editing = entry_id
                    self.say(f"Corrigiendo a {player.name}: cambie los datos y pulse «Guardar cambios».")
                    self.query_one("#p_name", Input).focus()
        elif event.data_table.id == "ranges" and event.row_key.value is not None:
            for item in self._ranges:
                if item.assistant == event.row_key.value:
                    self.query_one("#a_name", Input).value = item.assistant
                    self.query_one("#a_first", Input).value = str(item.first_table)
                    self.query_one("#a_last", Input).value = str(item.last_table)
                    self.query_one("#a_name", Input).focus()
