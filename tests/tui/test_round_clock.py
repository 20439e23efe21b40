"""The round clock's calls at 80×24 (III.13, issue 25 §2): «TIEMPO» to start, «queda 1
minuto», «quedan 30 segundos», «ALCEN» at 0:05 and «TIEMPO» at 0:00, on the judge's
console and on the projection screen, in sight without scrolling. The clock is driven by
hand (an injected monotonic clock; the screens' refresh is called), never by sleeping.
"""

from __future__ import annotations

import asyncio

from duplicate.rules.timer import Cue, cue_at
from duplicate.service.facade import TournamentService
from tests.credentials import pin_of
from tests.tui.screen_text import screen_text
from tests.tui.test_judge import FakeClock, open_console, tournament
from tests.tui.waiting import idle, until
from tui.app.application import DuplicadaApp
from tui.app.screens.projection import ProjectionScreen

CALLS = ((121, "0:59", "queda 1 minuto"), (30, "0:29", "quedan 30 segundos"), (25, "0:04", "ALCEN"),
         (10, "0:00", "TIEMPO"))
"""Seconds the clock moves, the time then shown and the call then due."""


def test_cue_at_gives_the_last_call_due() -> None:
    assert [cue_at(left) for left in (180, 61, 60, 31, 30, 6, 5, 0.5, 0)] == [
        None, None, Cue.ONE_MINUTE, Cue.ONE_MINUTE, Cue.THIRTY_SECONDS, Cue.THIRTY_SECONDS, Cue.RAISE, Cue.RAISE,
        Cue.TIME]
    assert cue_at(20, seconds=20) is None and cue_at(5, seconds=20) is Cue.RAISE     # a 20 s round: no 0:30 call


def test_the_judge_sees_every_call_at_80_by_24(service: TournamentService) -> None:
    tournament(service, game_seed=5)
    clock = FakeClock()

    async def scenario() -> None:
        app = DuplicadaApp(service, poll=False)
        app.bell = lambda: None  # type: ignore[method-assign]
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await open_console(app, pilot, clock)
            await pilot.press("d")
            await until(pilot, lambda: not screen.busy and screen.state.rack_round is not None)
            await pilot.press("t")
            await pilot.pause()
            assert "TIEMPO (inicio)" in screen_text(app)            # the start call
            for seconds, shown, call in CALLS:
                clock.now += seconds
                screen.refresh_clock()
                await pilot.pause()
                text = screen_text(app)
                assert f"crono {shown} · {call}" in text, (call, text)
            await pilot.press("0")                                         # reset: no call left
            await pilot.pause()
            assert "TIEMPO" not in screen_text(app) and "crono 3:00 parado" in screen_text(app)

    asyncio.run(scenario())


def test_the_projection_shows_every_call_and_follows_the_judge(service: TournamentService) -> None:
    service.create_tournament("Crono")
    service.add_player("Ana")
    game = service.create_game(rounds=2, seed=3)
    service.draw_rack(game)
    clock = FakeClock()

    async def scenario() -> None:
        app = DuplicadaApp(service, poll=False)
        async with app.run_test(size=(80, 24)) as pilot:
            app.state.tournament_id = service.tournament().id
            app.authenticate(pin_of("judge"))
            screen = ProjectionScreen(clock=clock)
            await app.push_screen(screen)
            await idle(pilot)
            await pilot.press("space")
            for seconds, shown, call in CALLS:
                clock.now += seconds
                screen.tick()
                await pilot.pause()
                assert screen.timer.text() == shown and call in screen_text(app), (call, screen_text(app))
            # The judge resets the clock: the call goes.
            service.record_timer(game, "reset", 180)
            app.check_for_changes()
            await idle(pilot)
            assert "TIEMPO" not in screen_text(app)
            # Joining the judge's clock with 3 s left: «ALCEN» at once.
            service.record_timer(game, "start", 3)
            app.check_for_changes()
            await idle(pilot)
            assert screen.timer.running and "ALCEN" in screen_text(app)

    asyncio.run(scenario())


def test_a_refusal_does_not_stay_on_the_console_line(service: TournamentService) -> None:
    # Issue 25 §3: a refused action's red line went only with the next change of
    # situation; now the next action that works (the clock) or a new round clears it.
    tournament(service, game_seed=5)

    async def scenario() -> None:
        app = DuplicadaApp(service, poll=False)
        app.bell = lambda: None  # type: ignore[method-assign]
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await open_console(app, pilot, FakeClock())
            await pilot.press("x")                                         # no rack to replace: refused
            assert "No hay atril en juego" in screen_text(app)
            await pilot.press("t")                                         # the clock starts: it works
            await pilot.pause()
            assert "No hay atril en juego" not in screen_text(app)
            assert "Ronda 1: saque el atril" in screen_text(app)
            await pilot.press("x")
            assert "No hay atril en juego" in screen_text(app)
            service.draw_rack(service.current_game())                      # the next rack, from another station
            app.check_for_changes()
            await until(pilot, lambda: screen.state.rack_round == 1)
            await idle(pilot)
            assert "No hay atril en juego" not in screen_text(app)

    asyncio.run(scenario())
