"""The venue view of the standings screen (issue 27 §2: one event played in several venues).

When the tournament holds imported venues (``duplicada venue import``), the tab «F6 Sedes»
of ``StandingsScreen`` shows the whole field's standings with a «Sede» column — the game
shown and the tournament (``TournamentService.venue_game_standings`` /
``venue_tournament_standings``) — and a selector: «Todas las sedes» (every player ranked
together) or one venue (its players, ranked among themselves, the same points and
bonuses). Without venues the tab says so. Rows come from ``standings_presenter``; the
data is read by the screen's worker (``read_venues``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import DataTable, Select, Static

from duplicate.rules.game_standings import GameStanding
from duplicate.rules.tournament_standings import TournamentStanding
from duplicate.service.facade import TournamentService
from tui.app.screens.standings_presenter import VenueKey, venue_game_rows, venue_tournament_rows
from tui.app.widgets.plain_table import PlainTable

NO_VENUES = ("Este torneo no tiene sedes: se dan de alta o se importan en «Preparación del torneo», F6 Sedes "
             "(o con «duplicada venue import»).")
"""What the venue tab (and F6) says without venues."""

ALL = "__todas__"
"""The selector's value for every venue together."""


@dataclass(frozen=True)
class VenueData:
    """What the venue tab shows: the venues (in the field's order), the venue chosen
    (None: all), players' names by key, the game's and the tournament's standings."""

    venues: tuple[str, ...]
    venue: str | None
    names: dict[VenueKey, str]
    game: int
    game_lines: list[GameStanding[VenueKey]]
    overall: list[TournamentStanding[VenueKey]]


def read_venues(service: TournamentService, tournament_id: int | None, game: int,
                venue: str | None) -> VenueData | None:
    """The venue tab's data, or None when the tournament is played in one room (no
    imported venue and every player of one venue). A venue no
    longer in the field falls back to all of them. Raises ``TournamentError``."""
    imported = service.venues(tournament_id)
    field = service.venue_field(tournament_id)
    venues = tuple(dict.fromkeys(player.venue for player in field))
    if not imported and len(venues) < 2:        # one room: no venue view
        return None
    chosen = venue if venue in venues else None
    return VenueData(venues, chosen, service.venue_field_names(tournament_id), game,
                     service.venue_game_standings(game, chosen, tournament_id),
                     service.venue_tournament_standings(chosen, tournament_id))


class VenueStandings(Vertical):
    """The venue tab's content (module docstring). The screen hands it ``VenueData``
    (``show``) and hears ``Select.Changed`` from ``#venue-select``."""

    DEFAULT_CSS = """
    VenueStandings { height: 1fr; }
    VenueStandings Select { width: 60; }
    VenueStandings DataTable { height: 1fr; }
    VenueStandings .caption { height: auto; padding: 0 1; color: $text-muted; }
    """

    def compose(self) -> ComposeResult:
        yield Select([("Todas las sedes", ALL)], value=ALL, allow_blank=False, id="venue-select")
        yield Static(NO_VENUES, id="venues-caption", classes="caption")
        yield PlainTable(id="venues-table", cursor_type="row", zebra_stripes=True)
        yield PlainTable(id="venues-tournament-table", cursor_type="row", zebra_stripes=True)

    has_venues = False
    """Whether the last data shown had venues."""

    def show(self, data: VenueData | None, criterion_heading: str, decimals: bool) -> None:
        """Fill the selector and both tables from ``data`` (None: no venues)."""
        self.has_venues = data is not None
        select: Select[str] = self.query_one("#venue-select", Select)
        # Names as typed, never markup («[b]…», «[/x]»): Text prompts.
        options: list[tuple[Text, str]] = [(Text("Todas las sedes"), ALL)] + [
            (Text(f"Sede {name}"), name) for name in (data.venues if data else ())]
        if [value for _label, value in options] != [value for _label, value in getattr(self, "_options", [])]:
            self._options = options
            with self.prevent(Select.Changed):
                select.set_options(options)
        with self.prevent(Select.Changed):
            select.value = data.venue if data is not None and data.venue is not None else ALL
        game_table = self.query_one("#venues-table", DataTable)
        overall_table = self.query_one("#venues-tournament-table", DataTable)
        rows = game_table.cursor_row, overall_table.cursor_row
        game_table.clear(columns=True)
        overall_table.clear(columns=True)
        if data is None:
            return
        _fill(game_table, [("pos", "Pos."), ("player", "Jugador"), ("venue", "Sede"), ("total", "Total"),
                           ("points", "Puntos"), ("bonus", "Bonif."), ("pct", "%")],
              venue_game_rows(data.game_lines, data.names))
        _fill(overall_table, [("pos", "Pos."), ("player", "Jugador"), ("venue", "Sede"),
                              *([("value", criterion_heading)] if decimals else []),      # a sum: the «Total» column
                              ("total", "Total"), ("bonus", "Bonif."), ("played", "Partidas"), ("places", "Puestos")],
              venue_tournament_rows(data.overall, data.names, decimals))
        for table, row in zip((game_table, overall_table), rows, strict=True):
            if table.row_count:
                table.move_cursor(row=min(row, table.row_count - 1), animate=False)
        which = "todas las sedes juntas" if data.venue is None else f"la sede {data.venue}, entre sus jugadores"
        self.query_one("#venues-caption", Static).update(Text(
            f"Partida {data.game} (arriba) y torneo (abajo): {which}. Bonificaciones (III.24) como las concede "
            "el torneo. Elija la sede en el selector."))


def _fill(table: DataTable[Any], columns: Sequence[tuple[str, str]], rows: Sequence[tuple[str, list[Any]]]) -> None:
    for key, label in columns:
        table.add_column(label, key=key)
    for key, cells in rows:
        table.add_row(*cells, key=key)
