"""Text from users reaches the screens as plain text, never as markup (issue 25 §2).

Players called ``Iñaki [bold]Zubiri``, ``Juan [/] López``, ``[red]x`` and ``=1+1`` (and a
tournament, venue, club and claim text with brackets) are driven through every screen of
the app at 80×24: each shows the text verbatim and nothing raises. Before the fix the
standings' bonus caption dropped ``[bold]`` and, with ``Juan [/] López`` in it, raised and
kept the previous game's bonuses.
"""

from __future__ import annotations

import asyncio

from textual.pilot import Pilot
from textual.widgets import DataTable, OptionList, Static

from duplicate.service.facade import TournamentService
from duplicate.service.settings import TournamentSettings
from tests.credentials import JUDGE_PIN
from tests.tui.screen_text import screen_text
from tests.tui.waiting import idle, mounted, until
from tui.app.application import DuplicadaApp
from tui.app.screens.home import HomeScreen
from tui.app.screens.standings import StandingsScreen

NAMES = ["Iñaki [bold]Zubiri", "Juan [/] López", "[red]x", "=1+1"]
TOURNAMENT = "Open [b]Raro[/b]"
CLAIM = "Anoté [/] y [bold]H8-CASAS"


def seeded(service: TournamentService) -> dict[str, int]:
    """Two games of one round each: game 1's bonus to Iñaki, game 2's to Juan (III.24);
    a claim by «[red]x» in game 2. Returns each name's table."""
    service.create_tournament(TOURNAMENT, venue="[i]Sitio", settings=TournamentSettings(bonus_mode="automatic"),
                              judge_name="Lucía [/]")
    for name in NAMES:
        service.add_player(name, club="[u]Club")
    tables: dict[str, int] = {}
    for game_number, winner in ((1, NAMES[0]), (2, NAMES[1])):
        game = service.create_game(rounds=1, seed=7)
        assert game == game_number
        tables = {player.name: table for table, _, player in service.seats(game)}
        service.set_rack(game, "CASAMOS")
        master = service.choose_master(game).master
        assert master is not None
        service.enter_slip(game, tables[winner], master)                 # alone at the master: +10
        service.close_round(game)
        if game == 1:
            service.publish(game)
    service.file_claim(2, 1, tables["[red]x"], CLAIM)
    return tables


def shown(app: DuplicadaApp) -> str:
    """What the screen shows (its rendered lines), its tables' cells, options and texts
    (a table scrolled sideways still holds its cells)."""
    parts = [screen_text(app)]
    for table in app.screen.query(DataTable):
        parts += [str(getattr(cell, "plain", cell)) for row in range(table.row_count) for cell in table.get_row_at(row)]
    for options in app.screen.query(OptionList):
        parts += [str(getattr(options.get_option_at_index(i).prompt, "plain", "")) for i in range(options.option_count)]
    parts += [str(widget.render()) for widget in app.screen.query(Static)]
    return "\n".join(parts)


def test_hostile_names_show_verbatim_on_every_screen(service: TournamentService) -> None:
    tables = seeded(service)
    errors: list[str] = []

    async def open_from_menu(app: DuplicadaApp, pilot: Pilot, title: str) -> None:  # type: ignore[type-arg]
        await mounted(pilot, HomeScreen)
        menu = app.screen.query_one("#menu", OptionList)
        index = next(i for i in range(menu.option_count) if str(menu.get_option_at_index(i).prompt) == title)
        menu.highlighted = index
        await pilot.press("enter")
        await idle(pilot)

    async def scenario() -> None:
        app = DuplicadaApp(service.with_pin(None), poll=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await idle(pilot)
            assert "Open [b]Raro[/b] — [i]Sitio" in shown(app)           # the start screen's list
            await pilot.press("enter")                                    # open it
            await idle(pilot)
            await pilot.press(*JUDGE_PIN, "enter")
            await idle(pilot)
            await until(pilot, lambda: TOURNAMENT in shown(app))           # the menu's title
            assert "Lucía [/]" in shown(app)

            await open_from_menu(app, pilot, "Preparación del torneo")
            text = shown(app)
            for name in NAMES:
                assert name in text, name
            assert "[u]Club" in text and TOURNAMENT in text
            await pilot.press("escape")

            await open_from_menu(app, pilot, "Entrada de papeletas")
            text = shown(app)
            for name in NAMES:
                assert name in text, name
            await pilot.press("escape")

            await open_from_menu(app, pilot, "Clasificaciones")
            screen = app.screen
            assert isinstance(screen, StandingsScreen)
            await until(pilot, lambda: screen.loaded)
            text = shown(app)
            assert f"R1: {NAMES[1]} +10" in text                          # game 2's bonus, verbatim
            assert NAMES[0] + " +10" not in text                           # not game 1's
            for name in NAMES:
                assert name in text, name
            await pilot.press("f7")                                        # game 1
            await idle(pilot)
            await until(pilot, lambda: screen.game == 1 and f"R1: {NAMES[0]} +10" in shown(app))
            await pilot.press("f8", "f3")                                  # back to game 2, the tournament tab
            await idle(pilot)
            text = shown(app)
            for name in NAMES:
                assert name in text, name
            await pilot.press("f5")                                        # claims
            await idle(pilot)
            assert CLAIM in shown(app) and "[red]x" in shown(app)
            await pilot.press("r")                                         # resolve: the dialog quotes it
            await idle(pilot)
            assert CLAIM in shown(app) and "[red]x" in shown(app)
            await pilot.press("escape", "f2")
            await idle(pilot)
            table = screen.query_one("#game-table", DataTable)
            table.move_cursor(row=table.get_row_index(str(next(entry.id for entry, player in service.entries()
                                                                   if player.name == NAMES[1]))))
            await pilot.press("enter")                                     # the follow-up sheet
            await idle(pilot)
            assert f"{NAMES[1]}, mesa {tables[NAMES[1]]}" in shown(app)
            await pilot.press("escape")

            await open_from_menu(app, pilot, "Pantalla de proyección")
            await until(pilot, lambda: TOURNAMENT in shown(app))
            await pilot.press("c")                                         # the standings
            await idle(pilot)
            text = shown(app)
            for name in NAMES:
                assert name in text, name
            await pilot.press("escape")

            await open_from_menu(app, pilot, "Consola del juez árbitro")
            await until(pilot, lambda: getattr(app.screen, "loaded", False))
            await pilot.press("escape")
            await idle(pilot)
            errors.extend(str(notification.message) for notification in app._notifications
                          if notification.severity == "error")

    asyncio.run(scenario())
    assert errors == []
