"""The polish the judge and the assistants see (issue 25 §3), at 80×24: claims filed from
the slip entry, a queued slip said as queued, radio buttons and check boxes marked, toasts
kept off dialogs, glyphs every font has, no English from Textual, no label cut."""

from __future__ import annotations

import asyncio

from textual.app import App, ComposeResult

from duplicate.service import TournamentService
from duplicate.storage.models import ClaimStatus
from tests.credentials import ASSISTANT_PINS, pin_of
from tests.tui.screen_text import screen_text
from tests.tui.waiting import idle, until
from tui.app import DuplicadaApp
from tui.app.screens.entry import EntryScreen
from tui.app.widgets.judge_dialogs import ClaimDialog
from tui.app.widgets.toggles import MarkedCheckbox, MarkedRadioButton


def event(service: TournamentService) -> int:
    """Four players, aux1 with tables 1–2, a game whose first round has its master."""
    service.create_tournament("Open")
    for name in ("Ana", "Blas", "Carmen", "David"):
        service.add_player(name)
    service.set_assistant_range("aux1", 1, 2)
    service.set_pin("assistant", ASSISTANT_PINS["aux1"], name="aux1")
    game = service.create_game(rounds=2, seed=7)
    service.set_rack(game, "CASAMOS")
    service.choose_master(game)
    return game


def run_entry(service: TournamentService, scenario, role: str = "assistant") -> None:  # type: ignore[no-untyped-def]
    async def main() -> None:
        app = DuplicadaApp(service, poll=False)
        async with app.run_test(size=(80, 24)) as pilot:
            app.state.tournament_id = service.tournament().id
            app.authenticate(pin_of(role, "aux1"))
            screen = EntryScreen()
            await app.push_screen(screen)
            await idle(pilot)
            await until(pilot, lambda: screen.round_number is not None)
            await scenario(app, pilot, screen)

    asyncio.run(main())


def test_an_assistant_files_a_claim_from_the_slip_entry(service: TournamentService) -> None:
    game = event(service)

    async def scenario(app: DuplicadaApp, pilot, screen: EntryScreen) -> None:  # type: ignore[no-untyped-def]
        assert "F1: reclamación" in screen_text(app)
        await pilot.press("2", "f1")                          # the table typed goes to the dialog
        assert isinstance(app.screen, ClaimDialog)
        await pilot.press(*"Anoté H8-CASAS", "enter")
        await until(pilot, lambda: bool(service.claims(game)))
        await until(pilot, lambda: "registrada" in screen_text(app))
        assert "ronda 1, mesa 2" in screen_text(app)
        await pilot.press("escape", "f1")                     # a table of another assistant: refused
        await pilot.press("ctrl+u", *"3", "enter", *"Otra", "enter")   # ^U empties the table field
        await until(pilot, lambda: "No anotada" in screen_text(app) or "mesa 3" in screen_text(app))

    run_entry(service, scenario)
    [claim] = service.claims(game)
    assert (claim.round_number, claim.text, claim.status) == (1, "Anoté H8-CASAS", ClaimStatus.OPEN.value)


def test_leaving_with_slips_being_saved_says_they_are_queued(service: TournamentService) -> None:
    event(service)

    async def scenario(app: DuplicadaApp, pilot, screen: EntryScreen) -> None:  # type: ignore[no-untyped-def]
        screen._busy = True                                   # a slip on its way to the database
        await pilot.press("escape")
        text = screen_text(app)
        assert "Guardando 1 papeleta en cola" in text and "No anotada" not in text
        assert app.screen is screen
        screen._busy = False

    run_entry(service, scenario)


def test_radio_buttons_and_check_boxes_show_their_state_with_a_mark() -> None:
    # Textual's radio buttons always draw «●» and its check boxes «X»: only the colour
    # says which is chosen. Ours draw a different mark.
    class Toggles(App[None]):
        def compose(self) -> ComposeResult:
            yield MarkedRadioButton("Aceptada", value=True)
            yield MarkedRadioButton("Rechazada")
            yield MarkedCheckbox("cambio de fichas", value=True)
            yield MarkedCheckbox("sin cambio")

    async def main() -> None:
        app = Toggles()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            def line(label: str) -> str:
                return next(row for row in screen_text(app).splitlines() if label in row).split(label)[0]

            assert "●" in line("Aceptada") and "○" in line("Rechazada") and "●" not in line("Rechazada")
            assert "x" in line("cambio de fichas") and "x" not in line("sin cambio")
            await pilot.press("tab", "space")                 # Rechazada chosen by hand
            assert "●" in line("Rechazada")

    asyncio.run(main())
