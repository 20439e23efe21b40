"""The typed way a screen reaches the app (issue 24 §3): ``tui.app.station``."""

from __future__ import annotations

import asyncio

import pytest
from textual.app import App

from duplicate.service import TournamentService
from tui.app import DuplicadaApp
from tui.app.station import Station, StationScreen


def test_the_duplicada_app_is_a_station(service: TournamentService) -> None:
    app = DuplicadaApp(service, poll=False)
    assert isinstance(app, Station)
    assert not isinstance(App[None](), Station)


def test_a_screen_outside_the_duplicada_app_says_so() -> None:
    class Bare(StationScreen[None]):
        pass

    class Other(App[None]):
        def on_mount(self) -> None:
            self.push_screen(Bare())

    async def scenario() -> None:
        app = Other()
        async with app.run_test() as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, Bare)
            with pytest.raises(TypeError):
                _ = screen.station
            with pytest.raises(TypeError):
                _ = screen.service

    asyncio.run(scenario())


def test_screens_see_the_station_state_and_service(service: TournamentService) -> None:
    service.create_tournament("Estación")

    class Probe(StationScreen[None]):
        pass

    async def scenario() -> None:
        app = DuplicadaApp(service, poll=False)
        async with app.run_test() as pilot:
            app.state.tournament_id = service.tournament().id
            probe = Probe()
            await app.push_screen(probe)
            await pilot.pause()
            assert probe.station is app and probe.service is app.service
            assert probe.tournament_id == app.state.tournament_id

    asyncio.run(scenario())
