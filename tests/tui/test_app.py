"""The app's start: open or create a tournament, sign in with role and PIN (issue 4 §1, §3)."""

from __future__ import annotations

import asyncio

from textual.widgets import OptionList

from duplicate.service import TournamentService
from tui.app import DuplicadaApp
from tui.app.screens.home import HomeScreen
from tui.app.screens.signin import SignInScreen


def test_create_a_tournament_then_sign_in_as_judge(service: TournamentService) -> None:
    async def scenario() -> None:
        app = DuplicadaApp(service, poll=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.click("#name")
            await pilot.press(*"Open de Pruebas", "enter", *"Madrid", "enter")
            await pilot.pause()
            assert isinstance(app.screen, SignInScreen)
            await pilot.press(*"Lucía", "enter", "enter")
            await pilot.pause()
            assert isinstance(app.screen, HomeScreen)
            menu = app.screen.query_one("#menu", OptionList)
            assert menu.option_count == 5
            assert (app.state.role, app.state.arbiter) == ("judge", "Lucía")

    asyncio.run(scenario())
    [tournament] = service.tournaments()
    assert (tournament.name, tournament.venue) == ("Open de Pruebas", "Madrid")


def test_a_wrong_pin_keeps_the_station_out_and_an_assistant_sees_fewer_screens(service: TournamentService) -> None:
    service.create_tournament("T")
    service.set_pin("assistant", "2468")

    async def scenario() -> None:
        app = DuplicadaApp(service, poll=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("enter")                       # open the only tournament
            await pilot.pause()
            await pilot.click("#assistant")
            await pilot.click("#pin")
            await pilot.press(*"1111", "enter")
            await pilot.pause()
            assert isinstance(app.screen, SignInScreen)
            assert "incorrecto" in str(app.screen.query_one("#message").render())
            await pilot.press(*"2468", "enter")
            await pilot.pause()
            assert isinstance(app.screen, HomeScreen) and app.state.role == "assistant"
            assert app.screen.query_one("#menu", OptionList).option_count == 3

    asyncio.run(scenario())


def test_a_database_hiccup_does_not_close_the_station(service: TournamentService, monkeypatch) -> None:
    service.create_tournament("T")

    async def scenario() -> None:
        app = DuplicadaApp(service, poll=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("enter")
            await pilot.pause()

            def broken(tournament_id=None):
                raise OSError("sin red")

            monkeypatch.setattr(service, "last_event_id", broken)
            app.check_for_changes()
            await pilot.pause()
            assert app.is_running
            assert any("Sin conexión" in str(notice.message) for notice in app._notifications)
            monkeypatch.undo()
            app.check_for_changes()
            await pilot.pause()
            assert any("recuperada" in str(notice.message) for notice in app._notifications)

    asyncio.run(scenario())
