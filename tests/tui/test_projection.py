"""The projection screen (issue 4 §2) follows the judge's station: the judge acts
through the service and the screen shows the board, the rack, the last master with the
master total, and the partial standings every ``partial_every`` rounds."""

from __future__ import annotations

import asyncio

from textual.pilot import Pilot
from textual.widgets import Digits, Static

from duplicate.rules.statuses import SeatingMethod
from duplicate.service.facade import TournamentService
from duplicate.service.settings import TournamentSettings
from duplicate.service.views import board_cells
from tests.credentials import pin_of
from tests.tui.keys import footer_beyond, footer_laid_out
from tests.tui.waiting import idle, until
from tui.app.application import DuplicadaApp
from tui.app.screens.projection import ProjectionScreen
from tui.app.widgets.big_board import BigBoard, cell_for
from tui.app.widgets.block_letters import BigText

NAMES = ["Ana Pérez", "Berta Núñez", "Carlos Ruiz"]



async def settled(pilot) -> None:  # type: ignore[no-untyped-def]
    """Wait until the screen's reads (worker threads) are done and shown."""
    await idle(pilot)


def seeded_game(service: TournamentService) -> int:
    service.create_tournament("Open de Valencia", settings=TournamentSettings(partial_every=3))
    for name in NAMES:
        service.add_player(name)
    return service.create_game(rounds=10, seed=11, seating=SeatingMethod.ALPHABETICAL)


def play_round(service: TournamentService, game: int, *, close: bool = True) -> None:
    """The judge draws, chooses the III.15 master; table 1 plays it; the round is closed."""
    service.draw_rack(game)
    service.choose_master(game)
    service.enter_master_slips(game, [1])
    if close:
        service.close_round(game)


def test_the_screen_follows_the_judge_and_shows_partial_standings_after_round_three(
        service: TournamentService) -> None:
    game = seeded_game(service)

    async def scenario() -> None:
        app = DuplicadaApp(service, poll=False)
        async with app.run_test(size=(160, 48)) as pilot:
            app.state.tournament_id = service.tournament().id
            screen = ProjectionScreen()
            await app.push_screen(screen)
            await settled(pilot)
            board = screen.query_one(BigBoard)
            assert board.cell == (7, 3) and board.board is not None and board.board.empty
            assert screen.query_one("#master", BigText).tokens == ()

            service.draw_rack(game)
            app.check_for_changes()
            await settled(pilot)
            pending = service.pending_round(game)
            assert pending is not None
            shown = screen.query_one("#rack", BigText).text.replace(" ", "")
            assert sorted(shown) == sorted(pending.rack.text)

            view = service.choose_master(game)
            app.check_for_changes()
            await settled(pilot)
            assert screen.query_one("#master", BigText).text.replace(" ", "") == view.master.upper()
            assert screen.query_one("#score", Digits).value == str(view.master_score)
            assert screen.query_one("#total", Digits).value == str(view.cumulative)
            assert board.board == board_cells(service.engine(game).board) and len(board.highlight) > 0

            service.enter_master_slips(game, [1])
            service.close_round(game)
            play_round(service, game)
            app.check_for_changes()
            await settled(pilot)
            assert str(screen.query_one("#side-standings", Static).render()) == ""
            play_round(service, game)
            app.check_for_changes()
            await settled(pilot)
            total = service.rounds(game)[-1].cumulative
            assert screen.query_one("#total", Digits).value == str(total)
            assert screen.data is not None and screen.data.standings_title == "Clasificación tras la ronda 3"
            assert [(line.position, line.name, line.total) for line in screen.data.standings][0] == (1, "Ana Pérez",
                                                                                                   total)
            await pilot.press("c")                                        # the full standings instead of the board
            assert screen.query_one("#main").current == "full-standings"  # type: ignore[attr-defined]

            play_round(service, game, close=False)                       # round 4 keeps the round-3 standings
            app.check_for_changes()
            await settled(pilot)
            assert screen.data.standings_title == "Clasificación tras la ronda 3"

    asyncio.run(scenario())


def test_the_local_timer_starts_pauses_and_resets_with_keys(service: TournamentService) -> None:
    game = seeded_game(service)
    service.draw_rack(game)

    async def scenario() -> None:
        app = DuplicadaApp(service, poll=False)
        async with app.run_test(size=(80, 24)) as pilot:
            app.state.tournament_id = service.tournament().id
            screen = ProjectionScreen()
            await app.push_screen(screen)
            await settled(pilot)
            clock = [100.0]
            screen.timer.clock = lambda: clock[0]
            assert screen.query_one("#timer", Digits).value == "3:00"
            assert screen.query_one(BigBoard).cell == (3, 1)
            await until(pilot, lambda: footer_laid_out(screen))
            assert footer_beyond(screen) == []
            await pilot.press("space")
            clock[0] += 176
            screen.tick()
            assert screen.query_one("#timer", Digits).value == "0:04"
            assert "ALCEN" in str(screen.query_one("#cue", Static).render())
            await pilot.press("space", "r")
            assert screen.query_one("#timer", Digits).value == "3:00" and not screen.timer.running

    asyncio.run(scenario())


def test_board_size_follows_the_terminal() -> None:
    assert cell_for(160, 47, 40) == (7, 3)
    assert cell_for(120, 39, 40) == (5, 2)
    assert cell_for(80, 23, 30) == (3, 1)


def test_projection_snapshot(service: TournamentService, snap_compare) -> None:  # type: ignore[no-untyped-def]
    game = seeded_game(service)
    for _ in range(3):
        play_round(service, game)
    service.draw_rack(game)

    async def open_projection(pilot: Pilot) -> None:
        pilot.app.state.tournament_id = service.tournament().id  # type: ignore[attr-defined]
        await pilot.app.push_screen(ProjectionScreen())
        await pilot.pause()

    assert snap_compare(DuplicadaApp(service, poll=False), terminal_size=(120, 40), run_before=open_projection)


def test_projection_follows_the_judges_timer(service) -> None:
    """III.13: the judge starts the round timer on the console; the projection follows."""
    import asyncio

    from tui.app.application import DuplicadaApp
    from tui.app.screens.projection import ProjectionScreen

    service.create_tournament("Crono")
    service.add_player("Ana")
    game = service.create_game(rounds=2, seed=3)
    service.draw_rack(game)

    async def scenario() -> None:
        app = DuplicadaApp(service, poll=False)
        async with app.run_test(size=(120, 40)) as pilot:
            app.state.tournament_id = service.tournament().id
            app.authenticate(pin_of("judge"))
            screen = ProjectionScreen()
            await app.push_screen(screen)
            await settled(pilot)
            assert not screen.timer.running
            service.record_timer(game, "start", 120)
            app.check_for_changes()
            await settled(pilot)
            assert screen.timer.running and 110 < screen.timer.remaining() <= 120
            service.record_timer(game, "pause", 42)
            app.check_for_changes()
            await settled(pilot)
            assert not screen.timer.running and screen.timer.remaining() == 42

    asyncio.run(scenario())
