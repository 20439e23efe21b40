"""Keys typed in a burst are applied in the order typed (issue 25 §2), editing keys
included: arrows, Home/End, Backspace after a move, Ctrl+U, Tab and Shift+Tab, Enter that
moves to the next field, a key that opens a dialog.

Every burst is handed to the app at once (``send_without_pauses``), as a fast typist's
terminal or a browser sends it; the tests then wait for the app to finish and check what
the service stored.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from duplicate.service.facade import TournamentService
from duplicate.storage.database import open_database
from lexicon.lexicon import Lexicon
from tests.credentials import JUDGE_PIN, pin_of
from tests.tui.keys import send_without_pauses
from tests.tui.waiting import idle, mounted, until
from tui.app.application import DuplicadaApp
from tui.app.screens.entry import EntryScreen
from tui.app.screens.home import HomeScreen
from tui.app.screens.setup import SetupScreen
from tui.app.screens.signin import SignInScreen
from tui.app.widgets.pin_dialog import PinAgainDialog

RACK = "CASAMO?"


def keys(*parts: str | list[str]) -> list[str]:
    """A burst: strings are typed character by character, lists are key names."""
    burst: list[str] = []
    for part in parts:
        burst += part if isinstance(part, list) else list(part)
    return burst


@pytest.fixture
def seeded(tmp_path: Path, spanish_lexicon: Lexicon) -> TournamentService:
    """Twelve players, game 1 at round 1 with rack ``CASAMO?`` and its master placed."""
    service = TournamentService(open_database(str(tmp_path / "orden.db")), station="puesto-1",
                                lexicon=spanish_lexicon, pin=JUDGE_PIN)
    service.create_tournament("Orden", judge_name="Lucía")
    for index in range(12):
        service.add_player(f"Jugador {index + 1:02d}")
    service.create_game(rounds=3, seed=7)
    service.set_rack(1, RACK)
    service.choose_master(1)
    return service


def on_screen(service: TournamentService, screen: Callable[[], object],
              scenario: Callable[[DuplicadaApp, Pilot], Awaitable[None]]) -> None:  # type: ignore[type-arg]
    """Run ``scenario`` on ``screen()`` pushed for the judge's signed-in station."""

    async def main() -> None:
        app = DuplicadaApp(service, station="puesto-1", poll=False)
        async with app.run_test(size=(80, 24)) as pilot:
            app.state.tournament_id = service.tournament().id
            app.authenticate(JUDGE_PIN)
            await app.push_screen(screen())  # type: ignore[arg-type]
            await idle(pilot)
            await scenario(app, pilot)

    asyncio.run(main())


def test_editing_keys_in_a_burst_of_slips_apply_in_order(seeded: TournamentService) -> None:
    # The example, «8⏎3H-ACALLAES ←← R⏎» stored «3H-ACALLAESR»: the arrows came
    # after the letter typed after them. Here every editing key of an input.
    bursts = {
        1: keys("1", ["enter"], "H8-CASMO", ["left", "left"], "A", ["enter"]),
        2: keys("2", ["enter"], "-CASAMO", ["home"], "H8", ["end"], "S", ["enter"]),
        3: keys("3", ["enter"], "H8-CASAXMO", ["left", "left", "backspace"], ["enter"]),
        4: keys("4", ["enter"], "ZZZZ", ["ctrl+u"], "8H-CASAMO", ["enter"]),
        5: keys("5", ["enter"], "H8CASA", ["left", "left", "left", "left"], "-", ["end"], "MO", ["enter"]),
        6: keys("9", ["backspace"], "6", ["enter"], "H8-CASA", ["home", "delete", "delete"], "H8", ["end"],
                "MO", ["enter"]),
    }
    expected = {1: "H8-CASAMO", 2: "H8-CASAMOS", 3: "H8-CASAMO", 4: "8H-CASAMO", 5: "H8-CASAMO", 6: "H8-CASAMO"}

    async def scenario(app: DuplicadaApp, pilot: Pilot) -> None:  # type: ignore[type-arg]
        screen = app.screen
        assert isinstance(screen, EntryScreen)
        send_without_pauses(app, [key for burst in bursts.values() for key in burst])
        await until(pilot, lambda: screen.handled >= len(bursts) and not screen.pending)
        await idle(pilot)

    on_screen(seeded, EntryScreen, scenario)
    assert {slip.table_number: slip.text for slip in seeded.slips(1, 1)} == expected


def test_the_correction_dialog_takes_a_burst_in_order(seeded: TournamentService) -> None:
    # The F6 burst ended as «5H4-CASAteclado»: the keys after F6 went to the slip
    # form under the dialog, those after an Enter stayed in the field the Enter left.
    seeded.enter_slip(1, 5, "H8-CASAMO")

    async def scenario(app: DuplicadaApp, pilot: Pilot) -> None:  # type: ignore[type-arg]
        screen = app.screen
        assert isinstance(screen, EntryScreen)
        send_without_pauses(app, keys("5", ["f6"], ["ctrl+u"], "H4-CASA", ["enter"],
                                      "teclaod", ["left", "backspace", "right"], "o", ["enter"]))
        await until(pilot, lambda: screen.handled >= 1 and not screen.pending)
        await idle(pilot)

    on_screen(seeded, EntryScreen, scenario)
    [slip] = seeded.slips(1, 1)
    assert (slip.table_number, slip.text) == (5, "H4-CASA")
    corrected = [event for event in seeded.history(game_number=1) if event.kind == "slip_corrected"]
    assert [event.reason for event in corrected] == ["teclado"]


def test_tab_and_shift_tab_in_a_burst_move_through_the_player_form(seeded: TournamentService) -> None:
    async def scenario(app: DuplicadaApp, pilot: Pilot) -> None:  # type: ignore[type-arg]
        screen = app.screen
        assert isinstance(screen, SetupScreen)
        send_without_pauses(app, keys(["f3"], "Eva Mora", ["tab"], "Club Sur", ["tab"], "ES", ["shift+tab"],
                                      ["end"], "X", ["backspace"], ["tab", "tab"], "F77", ["enter"]))
        await until(pilot, lambda: len(seeded.entries()) == 13)
        await idle(pilot)

    on_screen(seeded, SetupScreen, scenario)
    added = [player for _, player in seeded.entries() if player.name == "Eva Mora"]
    assert [(player.club, player.country, player.federation_id) for player in added] == [("Club Sur", "ES", "F77")]


def test_the_new_tournament_form_takes_name_tab_venue_tab_judge_tab_pin(service: TournamentService) -> None:
    # The issue: «Name⇥Venue⇥Judge⇥PIN» put everything in «Nombre».
    async def scenario() -> None:
        app = DuplicadaApp(service.with_pin(None), poll=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await idle(pilot)
            assert app.focused is app.screen.query_one("#name", Input)
            send_without_pauses(app, keys("Open", ["tab"], "Madrix", ["backspace"], "d", ["tab"], "Lucía",
                                          ["tab"], "clave-del-juez", ["shift+tab"], ["home"], "Dña. ",
                                          ["tab"], ["enter"]))
            await mounted(pilot, PinAgainDialog)              # the PIN typed twice (issue 35 §4)
            send_without_pauses(app, keys("clave-del-juez", ["enter"]))
            await mounted(pilot, SignInScreen)
            await idle(pilot)

    asyncio.run(scenario())
    [tournament] = service.tournaments()
    assert (tournament.name, tournament.venue) == ("Open", "Madrid")
    acting = service.with_pin("clave-del-juez")
    assert acting.sign_in(tournament.id).name == "Dña. Lucía"


def test_a_pin_typed_with_editing_keys_signs_in(seeded: TournamentService) -> None:
    pin = pin_of("judge") or JUDGE_PIN

    async def scenario() -> None:
        app = DuplicadaApp(seeded.with_pin(None), poll=False)
        async with app.run_test(size=(80, 24)) as pilot:
            app.state.tournament_id = seeded.tournament().id
            await app.push_screen(SignInScreen())
            await idle(pilot)
            send_without_pauses(app, keys(pin[1:], ["home"], pin[0], ["end"], "xy", ["left", "backspace",
                                                                                   "delete"], ["enter"]))
            await mounted(pilot, HomeScreen)
            await idle(pilot)

    asyncio.run(scenario())
