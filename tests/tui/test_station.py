"""The typed way a screen reaches the app (issue 24 §3): ``tui.app.station``."""

from __future__ import annotations

import asyncio

import pytest
from textual.app import App

from duplicate.service.access import Action
from duplicate.service.facade import TournamentService
from tests.credentials import ASSISTANT_PINS, JUDGE_PIN
from tui.app.application import DuplicadaApp
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


def test_the_station_asks_the_service_what_it_may_do(service: TournamentService) -> None:
    # Issue 24 §2: screens ask ``may`` instead of comparing role names; the answer is the
    # service's (II.4.a: the judge everything; II.4.c: an assistant the slips of its tables).
    service.create_tournament("Permisos")
    for name in ("Ana", "Beto", "Carla"):
        service.add_player(name)
    service.set_assistant_range("aux1", 1, 2)
    service.set_pin("assistant", ASSISTANT_PINS["aux1"], name="aux1")
    app = DuplicadaApp(service, poll=False)
    app.state.tournament_id = service.tournament().id
    app.authenticate(JUDGE_PIN)
    assert app.may(Action.CHANGE_SETTINGS) and app.may(Action.RESOLVE_CONFLICT) and app.may(Action.ENTER_SLIP, 3)
    app.authenticate(ASSISTANT_PINS["aux1"])                 # a new credential: nothing kept from the judge's
    assert not app.may(Action.CHANGE_SETTINGS) and not app.may(Action.RESOLVE_CONFLICT)
    assert app.may(Action.ENTER_SLIP, 2) and not app.may(Action.ENTER_SLIP, 3)
    app.authenticate(None)
    assert not app.may(Action.ENTER_SLIP, 1) and not app.may(Action.PUBLISH_RESULTS)
