"""What a 12-player day shows at 80×24 (issue 35 §4): every widget named by the issue lies
whole inside the screen — the classic screen's «Crear división», the players' «Estado»,
the claim dialogs, the game standings' last round column — and a refused slip's notice
takes little room and goes away."""

from __future__ import annotations

import asyncio
from pathlib import Path

from textual.geometry import Region
from textual.widgets import DataTable
from textual.widget import Widget

from duplicate.service.facade import TournamentService
from tests.credentials import JUDGE_PIN, pin_of
from tests.tui.screen_text import screen_lines
from tests.tui.test_classic import classic_screen, new_tournament
from tests.tui.test_setup import run_setup, settle
from tests.tui.waiting import idle, mounted
from tui.app.application import DuplicadaApp
from tui.app.screens.setup import SetupScreen
from tui.app.screens.standings import StandingsScreen
from tui.app.widgets.judge_dialogs import ClaimDialog, ClaimResolutionDialog

SCREEN = Region(0, 0, 80, 24)
PLAYERS = [("María del Carmen Fernández-Villaverde", "Club Scrabble Villanueva de la Cañada", "España", "ESP-10293"),
           ("José Antonio Rodríguez de la Fuente", "Asociación Duplicada de Zaragoza", "España", "ESP-20384"),
           ("Ana Pérez Núñez", "Alfil", "Argentina", "ARG-3321")] + [
    (f"Jugador Número {index} Apellido", "Club", "España", f"ESP-{index}") for index in range(4, 13)]


def whole(widget: Widget) -> bool:
    """Whether ``widget`` lies whole inside the 80×24 screen (and is shown)."""
    region = widget.region
    return bool(region.width and region.height) and SCREEN.contains_region(region)


def test_the_classic_screens_create_division_button_fits(tmp_path: Path) -> None:
    service = new_tournament(tmp_path / "clasico.db", 12)

    async def main() -> None:
        async with classic_screen(service, JUDGE_PIN) as (app, pilot, screen):
            await idle(pilot)
            button = screen.query_one("#setup-create")
            assert whole(button), button.region

    asyncio.run(main())


def test_the_players_status_column_fits(service: TournamentService) -> None:
    service.create_tournament("Open")
    for name, club, country, federation in PLAYERS:
        service.add_player(name, club=club, country=country, federation_id=federation)

    async def scenario(pilot, screen: SetupScreen) -> None:  # type: ignore[no-untyped-def]
        await pilot.press("f3")
        await settle(pilot)
        table = screen.query_one("#players", DataTable)
        right = 0
        for column in table.columns.values():
            right += column.get_render_width(table)
            if str(column.label) == "Estado":
                break
        else:
            raise AssertionError("no «Estado» column")
        assert table.region.x + right <= min(table.scrollable_content_region.right, 80), (right, table.region)
        assert "activo" in str(table.get_row_at(0))

    run_setup(service, scenario, size=(80, 24))


def test_the_claim_dialogs_fit(service: TournamentService) -> None:
    service.create_tournament("Open")

    async def main() -> None:
        app = DuplicadaApp(service, poll=False)
        async with app.run_test(size=(80, 24)) as pilot:
            for dialog in (ClaimDialog(1), ClaimResolutionDialog(
                    7, "Ronda 3, mesa 12, María del Carmen Fernández-Villaverde: «Anoté H8-CASAS, no H8-CASA»\n"
                       "Papeleta anotada: H8-CASA (24 puntos)")):
                await app.push_screen(dialog)
                await mounted(pilot, type(dialog))
                await idle(pilot)
                box = dialog.query_one("#judge-dialog")
                assert whole(box), (type(dialog).__name__, box.region)
                for child in box.query("*"):
                    if child.display and child.region.height:
                        assert SCREEN.contains_region(child.region), (type(dialog).__name__, child, child.region)
                app.pop_screen()
                await idle(pilot)

    asyncio.run(main())


def test_the_game_standings_last_round_column_fits(service: TournamentService) -> None:
    service.create_tournament("Open", judge_name="Lucía")
    for name, club, country, federation in PLAYERS:
        service.add_player(name, club=club, country=country, federation_id=federation)
    game = service.create_game(rounds=6, seed=3)
    for _ in range(6):
        service.draw_rack(game)
        master = service.choose_master(game).master
        assert master is not None
        service.enter_master_slips(game, [1, 2])
        service.close_round(game)

    async def main() -> None:
        app = DuplicadaApp(service, poll=False)
        async with app.run_test(size=(80, 24)) as pilot:
            app.state.tournament_id = service.tournament().id
            app.authenticate(pin_of("judge"))
            await app.push_screen(StandingsScreen(game))
            await idle(pilot)
            lines = screen_lines(app)
            header = next(line for line in lines if "Jugador" in line)
            assert "R6" in header, "\n".join(lines)

    asyncio.run(main())


def test_the_consoles_slips_panel_fits(service: TournamentService) -> None:
    from tests.tui.test_judge import console_app, open_console, settled, tournament

    tournament(service, game_seed=3)

    async def main() -> None:
        app = console_app(service)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await open_console(app, pilot)
            await pilot.press("d")                                     # a rack: moves, reading, slips
            await settled(pilot, screen)
            panel = screen.query_one("#status-panel")
            assert whole(panel), "\n".join(screen_lines(app))
            assert "papeletas" in str(screen.query_one("#status").render())

    asyncio.run(main())
