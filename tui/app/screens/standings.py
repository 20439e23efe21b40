"""Standings (issue 4 §2): the game's and the tournament's, detailed by round with the
bonuses highlighted (III.24, IV.32), a player's follow-up sheet (II.9) and the game's
claims with their resolution (III.27); the game's status, provisional or final (III.26).

Every figure comes from the service (``game_standings``, ``tournament_standings``,
``round_results``, ``rounds``, ``slips``, ``claims``); the screen only lays them out.

Keys: F2 game, F3 tournament, F4 follow-up sheet, F5 claims, F6 venues (the tabs: with
imported venues, the whole field with a «Sede» column and a venue selector,
``tui.app.screens.standings_venues``); Intro on a
player's row opens their follow-up sheet; F7 / F8 previous / next game; F9 writes the
publication files (the folder remembered for the tournament); Esc back. Refreshed on
``DataChanged``.

The judge's keys (an assistant is told they are the judge's): P publishes the game shown
provisional, D final once confirmed (III.26; ``service.publish``), A reopens a final game (with its
reason), N files a player's claim (round, table, text), R resolves the claim selected in
the Reclamaciones tab (III.27). The service calls run in a worker thread; a refusal is a
Spanish notification. After P, D or A the publication follows the new status (issue 35 §4):
the folder published to from the app (F9), else the default one when it holds a
publication, is written again.

In a round cell, a bonus shows as ``score+bonus`` on a yellow background; a score equal
to the master's is green.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, ClassVar

from rich.cells import cell_len
from rich.text import Text
from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import DataTable, Header, Select, Static, TabbedContent, TabPane
from textual.widgets.data_table import Column, ColumnKey

from duplicate.labels import CLAIM_STATUS, CRITERION_HEADINGS, label
from duplicate.plurals import counted
from duplicate.rules.game_standings import GameStanding, RoundResult, running_totals
from duplicate.rules.statuses import ClaimStatus, GameStatus
from duplicate.rules.tournament_standings import TournamentCriterion, TournamentStanding
from duplicate.service.access import Action
from duplicate.service.errors import TournamentError
from duplicate.service.settings import TournamentSettings
from duplicate.service.views import ClaimView, RoundView, SlipView, TournamentInfo
from tui.app.messages import DataChanged
from tui.app.screens.standings_actions import JUDGE_KEYS, StandingsActions
from tui.app.screens.standings_presenter import (
    BONUS_STYLE,
    STANDINGS_HEADING,
    decimal,
    round_cell,
    split_move,
)
from tui.app.screens.standings_venues import ALL, NO_VENUES, VenueData, VenueStandings, read_venues
from tui.app.widgets.glyphs import HEADER_ICON
from tui.app.widgets.judge_dialogs import (
    FolderDialog,
)
from tui.app.widgets.plain_table import PlainTable
from tui.app.widgets.slip_feedback import status_name
from tui.app.widgets.steady_footer import SteadyFooter


def publication_folder(tournament_id: int, database: str) -> Path:
    """Where the app publishes a tournament: ``publicaciones/BASE/torneo-N`` in the user's
    data directory, ``BASE`` the database's own folder name
    (``TournamentService.database_folder``): tournament 1 of two databases are two folders."""
    import platformdirs

    return (Path(platformdirs.user_data_dir("duplicada", appauthor=False)) / "publicaciones" / database
            / f"torneo-{tournament_id}")



NAME_MIN = 14
"""The narrowest «Jugador» column of the standings (characters)."""

_TABS = Binding.Group("Pestañas", compact=True)
_GAMES = Binding.Group("Partida −/+", compact=True)
_RESULTS = Binding.Group("Prov./Def.", compact=True)
_CLAIMS = Binding.Group("Reclamación", compact=True)


def _shown_width(table: DataTable[Any], key: ColumnKey, column: Column) -> int:
    """The cells a column's content takes once drawn, padding apart: its fixed width, or its
    label's and widest cell's. Read from the cells, not from ``Column.content_width``, which
    the table updates only when it next lays out (after rows were just added it still holds
    the old width, so a fit computed from it depended on when the layout ran)."""
    if not column.auto_width:
        return column.width
    return max([column.label.cell_len] + [cell.cell_len if isinstance(cell, Text) else cell_len(str(cell))
                                          for cell in table.get_column(key)])


@dataclass(frozen=True)
class _StandingsData:
    """Everything the standings screen shows, read in one worker."""

    game: int
    info: TournamentInfo
    settings: TournamentSettings
    names: dict[int, str]
    tables: dict[int, int]
    standings: list[GameStanding[int]]
    results: list[RoundResult[int]]
    rounds: list[RoundView]
    overall: list[TournamentStanding[int]]
    claims: list[ClaimView]
    slips: list[SlipView]
    venues: VenueData | None = None

class StandingsScreen(StandingsActions):
    """Game and tournament standings, follow-up sheet, claims. See the module docstring."""

    DEFAULT_CSS = """
    StandingsScreen #heading { height: auto; padding: 0 1; }
    StandingsScreen TabbedContent { height: 1fr; }
    StandingsScreen TabPane { padding: 0; }
    StandingsScreen DataTable { height: 1fr; }
    StandingsScreen .caption { height: auto; padding: 0 1; color: $text-muted; }
    StandingsScreen #sheet-title { height: auto; padding: 0 1; text-style: bold; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f2", "tab('game')", "Partida", group=_TABS, show=False),  # the keys are on the tabs
        Binding("f3", "tab('tournament')", "Torneo", group=_TABS, show=False),
        Binding("f4", "tab('sheet')", "Hoja", group=_TABS, show=False),
        Binding("f5", "tab('claims')", "Reclamaciones", group=_TABS, show=False),
        Binding("f6", "tab('venues')", "Sedes", group=_TABS, show=False),
        Binding("f7", "game(-1)", "Partida −", group=_GAMES),
        Binding("f8", "game(1)", "Partida +", group=_GAMES),
        Binding("f9", "publish", "Publicar"),
        # The judge's keys (grouped so that the footer fits in 120 columns).
        Binding("p", "publish_results(False)", "Resultados provisionales", group=_RESULTS),
        Binding("d", "publish_results(True)", "Resultados definitivos", group=_RESULTS),
        Binding("a", "reopen", "Reabrir"),
        Binding("n", "file_claim", "Nueva reclamación", group=_CLAIMS),
        Binding("r", "resolve_claim", "Resolver reclamación", group=_CLAIMS),
        Binding("escape", "app.pop_screen", "Volver"),
    ]

    def __init__(self, game: int | None = None) -> None:
        super().__init__()
        self.game = game
        self.sheet_player: int | None = None
        """Entry id of the player whose follow-up sheet is shown."""
        self._names: dict[int, str] = {}
        self._tables: dict[int, int] = {}
        self._slips: Sequence[SlipView] = ()
        self._results: Sequence[RoundResult[int]] = ()
        self._rounds: Sequence[RoundView] = ()
        self._status: str | None = None
        """Status (``GameStatus`` value) of the game shown, once read."""
        self.corrections_after_final = False
        """Whether the tournament admits reopening a final game (IV.32, its settings), once read."""
        self.loaded = False
        """True once the first read has been shown."""
        self.venue: str | None = None
        """The venue chosen in the «Sedes» tab (None: every venue together)."""

    def compose(self) -> ComposeResult:
        yield Header(icon=HEADER_ICON)
        yield Static("", id="heading")
        with TabbedContent(initial="game"):
            with TabPane("F2 Partida", id="game"):
                yield PlainTable(id="game-table", cursor_type="row", zebra_stripes=True)
                yield Static("", id="game-caption", classes="caption")
            with TabPane("F3 Torneo", id="tournament"):
                yield PlainTable(id="tournament-table", cursor_type="row", zebra_stripes=True)
                yield Static("", id="tournament-caption", classes="caption")
            with TabPane("F4 Hoja de seguimiento", id="sheet"):
                yield Static("Elija un jugador (Intro) en la clasificación.", id="sheet-title")
                yield PlainTable(id="sheet-table", cursor_type="row", zebra_stripes=True)
            with TabPane("F5 Reclamaciones", id="claims"):
                yield PlainTable(id="claims-table", cursor_type="row", zebra_stripes=True)
            with TabPane("F6 Sedes", id="venues"):
                yield VenueStandings()
        yield SteadyFooter()

    def on_mount(self) -> None:
        self.query_one(TabbedContent).hide_tab("venues")        # shown once venues are read
        self.refresh_data()
        self.query_one("#game-table", DataTable).focus()

    def on_data_changed(self, message: DataChanged) -> None:
        self.refresh_data()

    # --- data ---------------------------------------------------------------------------------
    @work(thread=True, exclusive=True, group="standings", exit_on_error=False)
    def refresh_data(self) -> None:
        """Reload everything shown from the service, in a worker thread (the event loop
        never waits for the database), then show it."""
        service, tournament_id = self.station.service, self.station.state.tournament_id
        try:
            game = self.game if self.game is not None else service.current_game(tournament_id)
            data = _StandingsData(
                game=game, info=service.tournament(tournament_id), settings=service.settings(tournament_id),
                names=service.entry_names(tournament_id),
                tables={entry.id: table for table, entry, _ in service.seats(game, tournament_id)},
                standings=service.game_standings(game, tournament_id),
                results=service.round_results(game, tournament_id),
                rounds=[view for view in service.rounds(game, tournament_id) if view.master is not None],
                overall=service.tournament_standings(tournament_id),
                claims=service.claims(game, tournament_id=tournament_id),
                slips=service.slips(game, tournament_id=tournament_id),
                venues=read_venues(service, tournament_id, game, self.venue))
        except TournamentError as error:
            self.app.call_from_thread(self.query_one("#heading", Static).update,
                                      Text(f"Sin clasificación: {error}", style="bold red"))
            return
        self.app.call_from_thread(self.show_data, data)

    def show_data(self, data: _StandingsData) -> None:
        """Show what ``refresh_data`` read; nothing once the screen has been left (a read that
        ends while the screen is removed would hide its venues tab there, and the tabs' redraw,
        run on the next screen, would stop the app)."""
        if self not in self.app.screen_stack:
            return
        self.game, info, settings = data.game, data.info, data.settings
        self._names, self._tables, self._slips = data.names, data.tables, data.slips
        standings, results, rounds, overall, claims = data.standings, data.results, data.rounds, data.overall, data.claims
        self._results, self._rounds = results, rounds
        game_info = next(game for game in info.games if game.number == self.game)
        heading = Text()
        heading.append(f"{info.name} · Partida {self.game} de {len(info.games)} · ", style="bold")
        final = game_info.status == GameStatus.FINAL.value
        if game_info.status != self._status or settings.corrections_after_final != self.corrections_after_final:
            self._status = game_info.status
            self.corrections_after_final = settings.corrections_after_final
            self.refresh_bindings()
        heading.append(STANDINGS_HEADING.get(game_info.status, game_info.status),
                       style="bold reverse green" if final else "bold reverse yellow")
        heading.append(f" · {counted(len(rounds), 'ronda')} con maestra · {counted(len(standings), 'jugador')}")
        open_claims = sum(1 for claim in claims if claim.status == ClaimStatus.OPEN.value)
        if claims:
            heading.append(f" · reclamaciones: {len(claims)} ({counted(open_claims, 'abierta')})",
                           style="bold red" if open_claims else "")
        self.query_one("#heading", Static).update(heading)
        self._fill_game(standings, results, rounds, settings.bonus_mode != "off")
        self._fill_tournament(overall, settings.criterion, len(info.games))
        self._fill_claims(claims)
        self._fill_sheet(results, rounds)
        self.query_one(VenueStandings).show(data.venues, label(CRITERION_HEADINGS, settings.criterion),
                                            settings.criterion != TournamentCriterion.TOTAL.value)
        tabs = self.query_one(TabbedContent)
        if data.venues is None:
            tabs.hide_tab("venues")
        else:
            tabs.show_tab("venues")
        self.loaded = True

    def _reset(self, table: DataTable[Any], columns: Sequence[tuple[str, str]]) -> int:
        """Clear ``table`` (and set its columns once); returns the cursor row to restore."""
        row = table.cursor_row
        if [column.key.value for column in table.columns.values()] != [key for key, _ in columns]:
            table.clear(columns=True)
            for key, label in columns:
                table.add_column(label, key=key)
        else:
            table.clear()
        return row

    def _restore(self, table: DataTable[Any], row: int) -> None:
        self._fit_names(table)
        if table.row_count:
            table.move_cursor(row=min(row, table.row_count - 1), animate=False)

    def _fit_names(self, table: DataTable[Any]) -> None:
        """Narrow the «Jugador» column so that the last round's (or game's) column is seen
        whole on the screen (80 columns, issue 35 §4): the names take what the other columns
        leave, never less than ``NAME_MIN`` (a longer name is cut there; the follow-up sheet
        gives it whole)."""
        column = table.columns.get(ColumnKey("player"))
        if column is None:
            return
        longest = max([len(column.label.plain)] + [len(cell.plain if isinstance(cell, Text) else str(cell))
                                                   for cell in table.get_column(ColumnKey("player"))])
        others = sum(_shown_width(table, key, other) + 2 * table.cell_padding
                     for key, other in table.columns.items() if key.value != "player")
        room = self.size.width - others - 2 * table.cell_padding - 2          # the scrollbar's columns
        column.width, column.auto_width = max(NAME_MIN, min(longest, room)), False
        table._require_update_dimensions = True
        table.refresh()

    def _fill_game(self, standings: Sequence[GameStanding[int]], results: Sequence[RoundResult[int]],
                   rounds: Sequence[RoundView], bonuses: bool) -> None:
        table = self.query_one("#game-table", DataTable)
        columns = [("pos", "Pos."), ("table", "Mesa"), ("player", "Jugador"), ("total", "Total"),
                   ("bonus", "Bonif."), ("pct", "%")] + [(f"r{r.number}", f"R{r.number}") for r in results]
        row = self._reset(table, columns)
        master_total = sum(result.master_score for result in results)
        table.add_row("", "", Text("Jugada maestra", style="italic"), Text(str(master_total), justify="right"),
                      "", Text(decimal(100.0), justify="right"),
                      *(Text(str(result.master_score), style="italic", justify="right") for result in results),
                      key="master")
        for line in standings:
            cells = [round_cell(score, bonus, result.master_score)
                     for score, bonus, result in zip(line.per_round, line.bonuses_per_round, results)]
            table.add_row(Text(str(line.position), justify="right"),
                          Text(str(self._tables.get(line.player, "")), justify="right"),
                          self._names.get(line.player, str(line.player)),
                          Text(str(line.total), style="bold", justify="right"),
                          Text(f"+{line.bonus_total}" if line.bonus_total else "", style=BONUS_STYLE if
                               line.bonus_total else "", justify="right"),
                          Text(decimal(line.percentage), justify="right"), *cells, key=str(line.player))
        self._restore(table, row or 1)
        awarded = [f"R{result.number}: {self._names.get(entry, entry)} +{points}"
                   for result in results for entry, points in result.bonuses.items() if points]
        caption = ("Bonificaciones (III.24): " + ("; ".join(awarded) if awarded else "ninguna")
                   if bonuses else "Sin bonificaciones en este torneo.")
        unclosed = [view.number for view in rounds if not view.closed]
        if unclosed:
            caption += f" · Rondas sin cerrar (sin bonificaciones aún): {', '.join(map(str, unclosed))}"
        caption += " · Verde: igual a la maestra. Intro: hoja de seguimiento."
        self.query_one("#game-caption", Static).update(Text(caption))      # names as typed, never markup

    def _fill_tournament(self, overall: Sequence[TournamentStanding[int]], criterion: str, games: int) -> None:
        table = self.query_one("#tournament-table", DataTable)
        shows_value = criterion != TournamentCriterion.TOTAL.value      # a sum of points: the «Total» column
        columns = [("pos", "Pos."), ("player", "Jugador"),
                   *([("value", label(CRITERION_HEADINGS, criterion))] if shows_value else []),
                   ("total", "Total"), ("bonus", "Bonif."), ("pct", "%"), ("played", "Partidas")]
        columns += [(f"g{number}", f"P{number}") for number in range(1, games + 1)]
        row = self._reset(table, columns)
        for line in overall:
            value = [Text(decimal(line.value, 2), style="bold", justify="right")] if shows_value else []
            places = [Text("—" if place is None else f"{place}º", justify="right") for place in line.places]
            places += [Text("")] * (games - len(places))
            table.add_row(Text(str(line.position), justify="right"), self._names.get(line.player, str(line.player)),
                          *value, Text(str(line.total), style="" if shows_value else "bold", justify="right"),
                          Text(f"+{line.bonus_total}" if line.bonus_total else "",
                               style=BONUS_STYLE if line.bonus_total else "", justify="right"),
                          Text(decimal(line.percentage), justify="right"), Text(str(line.games_played), justify="right"),
                          *places, key=str(line.player))
        self._restore(table, row)
        self.query_one("#tournament-caption", Static).update(Text(
            f"Clasificación general (IV.31, IV.32) por «{label(CRITERION_HEADINGS, criterion)}»; "
            "P1, P2…: puesto en cada partida."))

    def _fill_claims(self, claims: Sequence[Any]) -> None:
        table = self.query_one("#claims-table", DataTable)
        columns = [("id", "Nº"), ("round", "Ronda"), ("table", "Mesa"), ("player", "Jugador"),
                   ("text", "Reclamación"), ("status", "Estado"), ("resolution", "Resolución")]
        row = self._reset(table, columns)
        for claim in claims:
            style = "bold red" if claim.status == ClaimStatus.OPEN.value else (
                "green" if claim.status == ClaimStatus.UPHELD.value else "")
            table.add_row(Text(str(claim.id), justify="right"), Text(str(claim.round_number), justify="right"),
                          Text(str(self._tables.get(claim.entry_id, "")), justify="right"),
                          self._names.get(claim.entry_id, str(claim.entry_id)), claim.text,
                          Text(label(CLAIM_STATUS, claim.status), style=style), claim.resolution or "",
                          key=str(claim.id))
        if not claims:
            table.add_row("", "", "", "", Text("Sin reclamaciones en esta partida.", style="dim"), "", "")
        self._restore(table, row)

    def _fill_sheet(self, results: Sequence[RoundResult[int]], rounds: Sequence[RoundView]) -> None:
        """The follow-up sheet (II.9) of ``sheet_player``: per round the player's
        coordinate, word, score, cumulative; the master's the same."""
        table = self.query_one("#sheet-table", DataTable)
        columns = [("round", "Ronda"), ("coord", "Coord."), ("word", "Palabra"), ("score", "Puntos"),
                   ("bonus", "Bonif."), ("cumulative", "Acum."), ("note", "Nota"), ("m-coord", "Coord. M."),
                   ("m-word", "Maestra"), ("m-score", "Puntos M."), ("m-cumulative", "Acum. M.")]
        row = self._reset(table, columns)
        player = self.sheet_player
        title = self.query_one("#sheet-title", Static)
        if player is None or player not in self._tables:
            title.update("Hoja de seguimiento (II.9): elija un jugador (Intro) en la clasificación de la partida.")
            return
        slips = {slip.round_number: slip for slip in self._slips if slip.entry_id == player}
        views = {view.number: view for view in rounds}
        totals = running_totals(results, player)
        cumulative = 0
        for result, cumulative in zip(results, totals, strict=True):
            score = result.scores.get(player, 0)
            bonus = result.bonuses.get(player, 0)
            slip = slips.get(result.number)
            coordinate, word = split_move(slip.text) if slip is not None and slip.text else ("", "")
            note = "sin papeleta" if slip is None else "" if slip.status == "valid" else status_name(slip.status)
            view = views.get(result.number)
            master_coordinate, master_word = split_move(view.master or "") if view is not None else ("", "")
            table.add_row(Text(str(result.number), justify="right"), coordinate, word,
                          round_cell(score, 0, result.master_score),
                          Text(f"+{bonus}" if bonus else "", style=BONUS_STYLE if bonus else "", justify="right"),
                          Text(str(cumulative), style="bold", justify="right"), Text(note, style="yellow"),
                          master_coordinate, master_word, Text(str(result.master_score), justify="right"),
                          Text(str(view.cumulative if view is not None else ""), justify="right"),
                          key=str(result.number))
        title.update(Text(f"Hoja de seguimiento (II.9) — {self._names.get(player, player)}, mesa {self._tables[player]}, "
                          f"partida {self.game}: {cumulative} puntos"))
        self._restore(table, row)

    # --- actions -------------------------------------------------------------------------------------
    def on_select_changed(self, event: Select.Changed) -> None:
        """The venue selector of the «Sedes» tab: read that venue's standings."""
        if event.select.id == "venue-select":
            self.venue = None if event.value in (ALL, Select.BLANK) else str(event.value)
            self.refresh_data()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        if event.data_table.id not in ("game-table", "tournament-table"):
            return
        key = event.row_key.value
        if key is None or not key.isdigit():
            return
        self.show_sheet(int(key))

    def show_sheet(self, player: int) -> None:
        """Show the follow-up sheet of entry ``player`` for the game shown."""
        self.sheet_player = player
        self._fill_sheet(self._results, self._rounds)               # from what was read
        self.action_tab("sheet")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The footer shows what this station may do now (issue 13 §3): the judge's keys
        only to the judge; «provisional/definitive» while the game is not final, «reopen»
        only when it is and the tournament admits corrections after final results (IV.32)."""
        if action in JUDGE_KEYS and not self.may(JUDGE_KEYS[action][0]):
            return False
        final = self._status == GameStatus.FINAL.value
        if action == "publish_results" and final:
            return False
        if action == "reopen" and self._status is not None and not (final and self.corrections_after_final):
            return False
        return True

    def on_key(self, event: events.Key) -> None:
        """A judge's key pressed at another station is answered, not ignored; so is «a» on a
        final game of a tournament that admits no corrections after final results (IV.32)."""
        keys = {binding.key: binding.action for binding in self.BINDINGS if isinstance(binding, Binding)}
        action = keys.get(event.key, "").split("(")[0]
        if action in JUDGE_KEYS and not self.may(JUDGE_KEYS[action][0]):
            event.stop()
            self.notify(f"Solo el juez árbitro puede {JUDGE_KEYS[action][1]}.", severity="warning")
        elif action == "reopen" and self._status == GameStatus.FINAL.value and not self.corrections_after_final:
            event.stop()
            self.action_reopen()                 # says why not (IV.32) rather than ignoring the key

    def action_tab(self, tab: str) -> None:
        if tab == "venues" and not self.query_one(VenueStandings).has_venues:
            self.notify(NO_VENUES, severity="warning")
            return
        self.query_one(TabbedContent).active = tab
        self.query_one(f"#{tab}-table", DataTable).focus()

    def action_publish(self) -> None:
        """Write the publication (HTML, PDF, CSV, XLSX; IV.32) in a worker: the screen
        stays usable while it runs. Judge only."""
        if not self.may(Action.PUBLISH_RESULTS):
            self.notify("Solo el juez árbitro publica los resultados.", severity="warning")
            return
        tournament_id = self.station.state.tournament_id
        default = publication_folder(tournament_id if tournament_id is not None else self._newest_tournament_id(),
                                     self.station.service.database_folder)

        def chosen(folder: object) -> None:
            if isinstance(folder, Path):
                self.notify(f"Publicando los resultados en {folder}…", markup=False)
                self._publish(folder)

        self.app.push_screen(FolderDialog(self.station.state.published.get(self._tournament_key(), default)), chosen)

    def _tournament_key(self) -> int:
        tournament_id = self.station.state.tournament_id
        return tournament_id if tournament_id is not None else self._newest_tournament_id()

    def follow_status(self) -> None:
        """A game's status changed (P, D, A; III.26): the publication says it at once. The
        folder published to from this app (F9), else the tournament's default folder when
        it holds a publication, is written again; with none, the judge is told F9 publishes."""
        key = self._tournament_key()
        folder = self.station.state.published.get(key)
        if folder is None:
            default = publication_folder(key, self.station.service.database_folder)
            folder = default if (default / "index.html").is_file() else None
        if folder is None:
            self.notify("Sin publicación en carpeta todavía: F9 la escribe.", timeout=8)
            return
        self.notify(f"Actualizando la publicación en {folder}…", markup=False)
        self._publish(folder)

    def _newest_tournament_id(self) -> int:
        """The tournament shown when the station has none chosen: the newest."""
        return int(self.station.service.tournament().id)

    @work(thread=True, exclusive=True, group="publish", exit_on_error=False)
    def _publish(self, folder: Path) -> None:
        from duplicate.publishing.site import publish_results

        service, tournament_id = self.station.service, self.station.state.tournament_id
        try:
            # One process: the app's threads rule out forking workers.
            publication = publish_results(service, folder, tournament_id=tournament_id, workers=1)
        except (TournamentError, OSError) as error:
            self.app.call_from_thread(partial(self.notify, f"No se pudo publicar: {error}", severity="error",
                                              markup=False))
            return
        key = tournament_id if tournament_id is not None else int(service.tournament().id)
        self.app.call_from_thread(self.station.state.published.__setitem__, key, folder)
        self.app.call_from_thread(partial(
            self.notify, f"Publicado en {publication.out}: {counted(publication.count('.html'), 'página')}, "
            f"{publication.count('.pdf')} PDF ({publication.seconds:.1f} s)", timeout=15, markup=False))

    def action_game(self, delta: int) -> None:
        """Show the previous / next game of the tournament."""
        service, tournament_id = self.station.service, self.station.state.tournament_id
        numbers = [game.number for game in service.tournament(tournament_id).games]
        if not numbers or self.game not in numbers:
            return
        self.game = numbers[max(0, min(len(numbers) - 1, numbers.index(self.game) + delta))]
        self.refresh_data()
