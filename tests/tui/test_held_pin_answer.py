"""The sign-in screen while a wrong PIN's answer is held (issue 36 §1): above the
tournament's ceiling of wrong tries the service gives a wrong PIN's refusal only when its
release slot comes; the screen keeps saying «Comprobando el PIN…» until then, shows the
refusal when it comes, and a right PIN then gets in at once."""

from __future__ import annotations

import asyncio
import threading

import pytest
from textual.widgets import Static

from duplicate.service import lockout
from duplicate.service.errors import CredentialRefused
from duplicate.service.facade import TournamentService
from tests.credentials import ASSISTANT_PINS
from tests.tui.waiting import idle, until
from tui.app.application import DuplicadaApp
from tui.app.screens.home import HomeScreen
from tui.app.screens.signin import SignInScreen


def test_a_held_wrong_answer_shows_checking_until_it_comes(service: TournamentService,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    tournament = service.create_tournament("T")
    service.set_pin("assistant", ASSISTANT_PINS["aux1"], name="aux1")
    for index in range(int(lockout.TOURNAMENT_CEILING)):           # up to the ceiling: answered at once
        with pytest.raises(CredentialRefused):
            TournamentService(service.db, station=f"falso-{index}", pin=f"adivina-{index:03d}").sign_in(tournament)
    holding, release = threading.Event(), threading.Event()

    def hold(seconds: float) -> None:          # the held answer, until the test lets it go
        holding.set()
        release.wait(60)

    monkeypatch.setattr(lockout, "hold_answer", hold)

    def message(app: DuplicadaApp) -> str:
        return str(app.screen.query_one("#message", Static).render())

    async def scenario() -> None:
        app = DuplicadaApp(service.with_pin(None), poll=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await idle(pilot)                                 # the tournaments are read in a worker
            await pilot.press("enter")
            await pilot.pause()
            await pilot.press(*"111111", "enter")
            await until(pilot, holding.is_set, "the wrong PIN's answer held")
            await pilot.pause()
            assert isinstance(app.screen, SignInScreen) and app.screen.busy
            assert message(app) == "Comprobando el PIN…"
            release.set()
            await until(pilot, lambda: "incorrecto" in message(app), "the held refusal shown")
            await pilot.press(*ASSISTANT_PINS["aux1"], "enter")
            await idle(pilot)
            assert isinstance(app.screen, HomeScreen) and app.state.arbiter == "aux1"

    asyncio.run(scenario())
