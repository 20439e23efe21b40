"""Online venues on the setup screen (issue 27 §2, docs/venues.md «Online venues»).

The organiser's judge names the venues (``add_venue``) and sets each venue judge's and
each venue assistant's PIN, an assistant with its tables (``set_pin(venue=…)`` then
``set_assistant_range``): the same service calls as ``duplicada venue add NAME`` and
``duplicada tournament pin judge|assistant --venue NAME [--tables A-B]``. An offline venue's
record (a room that played the same prepared game on its own machine) is imported from the
same tab (``import_venue_file``, as ``duplicada venue import RECORD.json --venue NAME``): the
venues' table lists both kinds. A player's venue
is chosen in the players' form (``add_player(venue=…)``, ``update_player(venue=…)``:
``VenueActions.form_venue``). Names are shown as typed, never read as markup; a refusal
of the service is shown in the message line and nothing changes.

``VenueActions`` is a base of ``SetupActions`` (``tui.app.screens.setup_actions``);
``venue_fields`` lays out the «Sedes» tab; ``venue_rows``, ``venue_choices``,
``imported_text`` and ``table_span`` are pure.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from rich.text import Text
from textual.containers import Horizontal, Vertical
from textual.widget import Widget
from textual.widgets import Checkbox, DataTable, Input, Select, Static

from duplicate.bounds import NumberError
from duplicate.bounds import table_span as bounded_table_span
from duplicate.labels import local_time
from duplicate.plurals import counted
from duplicate.service.access import Action
from duplicate.service.errors import InvalidNumber, InvalidText, TournamentError
from duplicate.service.venues import VenueView
from duplicate.service.views import AssistantRangeView, EntryView, PlayerView
from tui.app.station import StationScreen
from tui.app.widgets.form_rows import form_button, form_input, form_row, form_select
from tui.app.widgets.pin_dialog import confirm_pin
from tui.app.widgets.plain_table import PlainTable
from tui.app.widgets.toggles import MarkedCheckbox

ORGANISER_ROOM = ""
"""The value that stands for the organiser's own room in the players' venue list."""

STATION_ROLES = [("Juez de la sede", "judge"), ("Auxiliar de la sede", "assistant")]

Station = tuple[str, str, str | None]
"""A station credential as ``venue_stations`` gives it: ``(role, name, venue)``."""


def venue_choices(venues: Sequence[str]) -> list[tuple[Text, str]]:
    """The players' venue list: the organiser's room (value ``ORGANISER_ROOM``), then the
    online venues in the order they were named; names as typed (``Text``, never markup)."""
    return [(Text("Sala del organizador"), ORGANISER_ROOM), *((Text(venue), venue) for venue in venues)]


def table_span(text: str) -> tuple[int, int] | None:
    """An assistant's tables typed as ``A-B`` (or one table ``A``) as ``(A, B)``, each from 1
    to 2³¹ − 1 (``duplicate.bounds.table_span``); None when empty. ``InvalidNumber`` (Spanish,
    naming the field) for anything else."""
    if not text.strip():
        return None
    try:
        return bounded_table_span(text, "las mesas del auxiliar")
    except NumberError as error:
        raise InvalidNumber(str(error), what="las mesas del auxiliar", value=text.strip()[:40]) from None


VENUE_COLUMNS = ("Sede", "Tipo", "Jugadores", "Juez", "Auxiliares (mesas)", "Fecha")
"""The venues' table: «Fecha» is when an online venue was named, or an offline one imported."""


def venue_rows(views: Sequence[VenueView], entries: Sequence[tuple[EntryView, PlayerView]],
               stations: Sequence[Station], ranges: Sequence[AssistantRangeView]) -> list[tuple[str, ...]]:
    """A row per venue (``VENUE_COLUMNS``), as ``TournamentService.venues`` lists them: an
    online venue with its players (from ``entries``), its judge (or «sin PIN») and its
    assistants with their tables (II.4.c); an imported one («importada») with the players
    of its latest record and when it was imported."""
    tables = {item.assistant: f"{item.first_table}–{item.last_table}" for item in ranges}
    rows: list[tuple[str, ...]] = []
    for view in views:
        if not view.online:
            rows.append((view.name, "importada", str(view.players), "—", "—", local_time(view.imported_at)))
            continue
        players = sum(1 for entry, _ in entries if entry.venue == view.name)
        judges = [name for role, name, where in stations if role == "judge" and where == view.name]
        assistants = [f"{name} ({tables.get(name, 'sin mesas')})" for role, name, where in stations
                      if role == "assistant" and where == view.name]
        rows.append((view.name, "en línea", str(players), ", ".join(judges) or "sin PIN",
                     ", ".join(assistants) or "ninguno", local_time(view.imported_at)))
    return rows


def imported_text(view: VenueView) -> str:
    """What the organiser is told after importing a venue's record (issue 27 §2)."""
    replaced = " (sustituye a su importación anterior, que queda en el historial)" if view.replaces is not None else ""
    signed = (f" Firma comprobada: clave registrada de la sede, huella {view.signed_by}." if view.signed_by else
              " SIN FIRMA: la sede no tiene clave registrada (queda anotado en el historial).")
    return (f"Sede «{view.name}» importada{replaced}: {counted(view.players, 'jugador')}, "
            f"{counted(view.games, 'partida')}.{signed}")


def venue_fields() -> Iterator[Widget]:
    """The widgets of the «Sedes» tab: the venues' table, the online venues' form
    (``#venue_online``) and the offline venues' import (``#venue_import``)."""
    yield PlainTable(id="venues", cursor_type="row", zebra_stripes=True)
    yield Vertical(
        Static("Sedes en línea: sus puestos juegan en esta misma base de datos.", classes="note"),
        form_row("Sede nueva", form_input(id="v_name", classes="wide")),
        Horizontal(form_button("Dar de alta la sede", id="add_venue", variant="primary"), classes="buttons"),
        Static("Cada sede tiene su juez y sus auxiliares; sus derechos acaban en su sede. El juez de una sede "
               "inscribe a sus jugadores y da los PIN de sus auxiliares.", classes="note"),
        form_row("Sede", form_select([], "v_venue", blank=True, prompt="elija la sede")),
        form_row("Puesto", form_select(list(STATION_ROLES), "v_role")),
        form_row("Nombre", form_input(id="v_station"), hint="juez: «juez de SEDE» si se deja vacío"),
        form_row("PIN", form_input(password=True, id="v_pin", placeholder="6 caracteres o más")),
        form_row("Mesas del auxiliar", form_input(id="v_tables", placeholder="A-B, p. ej. 1-12")),
        Horizontal(form_button("Guardar PIN de la sede", id="set_venue_pin", variant="primary"), classes="buttons"),
        id="venue_online", classes="group")
    yield Vertical(
        Static("Sedes sin conexión: cada sala juega la misma partida preparada en su equipo y exporta su registro "
               "(«duplicada export»); impórtelo aquí. Se rechaza, sin guardar nada, si no se verifica o no juega "
               "la partida preparada, o si no lo firma la clave registrada de la sede («duplicada venue key»); "
               "importar otra vez la misma sede sustituye la importación anterior.",
               classes="note"),
        form_row("Registro (JSON)", form_input(id="vi_path", classes="wide", placeholder="ruta del archivo")),
        form_row("Nombre de la sede", form_input(id="vi_name", classes="wide")),
        form_row("Sin firma", MarkedCheckbox("la sede no tiene clave registrada", id="vi_unsigned")),
        Horizontal(form_button("Importar el registro", id="import_venue", variant="primary"), classes="buttons"),
        id="venue_import", classes="group")


class VenueActions(StationScreen[None]):
    """The setup screen's venue actions (see the module doc)."""

    _venues_listed: list[str] | None = None
    """The venues the venue lists were made of (None: not made yet)."""
    _stations: list[Station] = []  # noqa: RUF012 - replaced, never changed in place
    """The station credentials shown (``venue_stations``), as last read."""
    _importing = False
    """A venue's record is being read and imported (a second Enter meanwhile is refused)."""

    def run(self, form: Callable[[], Callable[[], Any]], done: str | Callable[[Any], str],
            then: Callable[[], None] | None = None, failed: Callable[[Exception], None] | None = None) -> None:
        """Do one of the judge's actions (``SetupScreen`` runs it in a worker)."""
        raise NotImplementedError

    def say(self, text: str, *, error: bool = False) -> None:
        """Show ``text`` on the message line (``SetupScreen``)."""
        raise NotImplementedError

    def offer_venue_forms(self) -> None:
        """Show the «Sedes» tab's forms this station may use (``service.may``): naming
        online venues and importing offline ones are the organiser's judge's."""
        self.query_one("#venue_online").display = self.may(Action.ADD_VENUE)
        self.query_one("#venue_import").display = self.may(Action.IMPORT_VENUE)

    def show_venues(self, venues: list[str], entries: Sequence[tuple[EntryView, PlayerView]],
                    stations: Sequence[Station], ranges: Sequence[AssistantRangeView],
                    views: Sequence[VenueView] = ()) -> None:
        """Show the venues' table (``views``: every venue, online and imported) and the
        online venues' names in the venue lists; the players' venue line only when the
        tournament has online venues."""
        table = self.query_one("#venues", DataTable)
        table.clear()
        for row in venue_rows(views, entries, stations, ranges):
            table.add_row(*row, key=row[0])      # no two venues share a name
        if venues != self._venues_listed:      # the lists are rebuilt only when the venues changed
            self._venues_listed = list(venues)
            for select, choices in ((self.query_one("#v_venue", Select), [(Text(venue), venue) for venue in venues]),
                                    (self.query_one("#p_venue", Select), venue_choices(venues))):
                kept = select.value
                select.set_options(choices)
                if kept in [value for _, value in choices]:
                    select.value = kept
        # The players' venue is chosen by who names the venues (the organiser's judge); a
        # venue's judge registers players in its own venue only.
        self.query_one("#p_venue_row").display = bool(venues) and self.may(Action.ADD_VENUE)
        self._stations = list(stations)

    def station_venue(self, assistant: str) -> str | None:
        """The venue of the assistant named ``assistant`` (None: the organiser's, or none yet)."""
        return next((where for role, name, where in self._stations if role == "assistant" and name == assistant), None)

    def form_venue(self) -> str | None:
        """The venue chosen in the players' form (``ORGANISER_ROOM``: the organiser's
        room); None when the form has no venue line (no online venues)."""
        if not self.query_one("#p_venue_row").display:
            return None
        value = self.query_one("#p_venue", Select).value
        return value if isinstance(value, str) else None

    def add_venue(self) -> None:
        """Name an online venue (``add_venue``)."""
        field = self.query_one("#v_name", Input)
        name = field.value
        service, tournament_id = self.service, self.tournament_id

        def clear() -> None:
            field.value = ""

        self.run(lambda: lambda: service.add_venue(name, tournament_id=tournament_id),
                 f"Sede «{' '.join(name.split())}» dada de alta: asigne el PIN de su juez y inscriba a sus jugadores.",
                 then=clear)

    def import_venue_record(self) -> None:
        """Import an offline venue's record (``import_venue_file``): the path, the venue's
        name and «Sin firma» (``unsigned``: a venue with no registered key, issue 35 §2) from
        the form; the service's refusal is shown and nothing is stored.
        One import at a time: Enter again while a record is verified is refused, not queued
        (it would import the venue a second time)."""
        path_field, name_field = self.query_one("#vi_path", Input), self.query_one("#vi_name", Input)
        unsigned_box = self.query_one("#vi_unsigned", Checkbox)

        def form() -> Callable[[], VenueView]:
            if self._importing:
                raise InvalidText("ya se está importando un registro: espere a que termine", what="el registro",
                                  value=path_field.value)
            path = path_field.value.strip()
            if not path:
                raise InvalidText("escriba la ruta del registro (JSON) que exportó la sede", what="el registro",
                                  value="")
            name, service, tournament_id = name_field.value, self.service, self.tournament_id
            unsigned = unsigned_box.value
            self.say("Leyendo y verificando el registro de la sede…")     # a big record takes a while
            self._importing = True
            return lambda: service.import_venue_file(Path(path).expanduser(), name, tournament_id, unsigned=unsigned)

        def clear() -> None:
            self._importing = False
            path_field.value = name_field.value = ""
            unsigned_box.value = False

        def failed(_error: Exception) -> None:
            self._importing = False

        self.run(form, imported_text, then=clear, failed=failed)

    def set_venue_pin(self) -> None:
        """Set the PIN of a venue's judge or assistant (with its tables), as
        ``tournament pin judge|assistant --venue NAME [--tables A-B]``."""
        pin_field = self.query_one("#v_pin", Input)

        def form() -> Callable[[], str]:
            venue = self.query_one("#v_venue", Select).value
            if not isinstance(venue, str):
                raise InvalidText("elija la sede del puesto", what="la sede", value="")
            role = str(self.query_one("#v_role", Select).value)
            name = self.query_one("#v_station", Input).value.strip() or None
            span = table_span(self.query_one("#v_tables", Input).value)
            if span is not None and role != "assistant":
                raise InvalidNumber("las mesas son de un auxiliar: el juez de la sede actúa en todas las de su sede",
                                    what="las mesas del auxiliar", value=span)
            pin, service, tournament_id = pin_field.value, self.service, self.tournament_id
            who = (f"del juez de la sede «{venue}»" if role == "judge"
                   else f"del auxiliar «{name or ''}» de la sede «{venue}»")

            def call() -> str:
                service.set_pin(role, pin, name=name, tournament_id=tournament_id, venue=venue,
                                tables=span)         # the PIN and its tables in one transaction (issue 36 §5)
                said = f"PIN {who} {'guardado' if pin else 'quitado: ya no puede entrar'}."
                if span is not None and name:
                    said += f" Mesas {span[0]}–{span[1]}."
                elif role == "assistant" and name and pin:
                    warning = service.assistant_without_tables(name, tournament_id)
                    said += f" Aviso: {warning}." if warning else ""
                return said

            return call

        def clear() -> None:
            pin_field.value = ""

        def refused(why: str) -> None:
            clear()
            self.say(why, error=True)
            pin_field.focus()

        try:
            call = form()                      # the form checked before the PIN is typed again
        except TournamentError as error:
            self.say(str(error), error=True)
            return
        confirm_pin(self.app, pin_field.value, "de la sede", lambda: self.run(lambda: call, str, then=clear), refused)
