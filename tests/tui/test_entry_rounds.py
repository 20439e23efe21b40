"""The slip entry station follows the round being typed and keeps refused slips in view
(issue 25 §2): after the judge closes a round and draws the next rack the station moves
on (a half-typed slip first goes to its own round); a refused slip stays listed with its
reason until the assistant has seen it."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, Static

from duplicate.service.facade import TournamentService
from duplicate.storage.database import open_database
from lexicon.lexicon import Lexicon
from tests.credentials import JUDGE_PIN, pin_of
from tests.tui.keys import send_without_pauses
from tests.tui.test_entry_presenter import round_view
from tests.tui.waiting import idle, until
from tui.app.application import DuplicadaApp
from tui.app.screens.entry import EntryScreen
from tui.app.screens.entry_presenter import Refusal, default_round, refusals_text
from tui.app.widgets.slip_feedback import SlipFeedback

RACK = "CASAMO?"


@pytest.fixture
def seeded(tmp_path: Path, spanish_lexicon: Lexicon) -> TournamentService:
    """Twelve players, Marta's tables 1–6, game 1 at round 1 (``CASAMO?``) with its master."""
    service = TournamentService(open_database(str(tmp_path / "rondas.db")), station="mesa-arbitral",
                                lexicon=spanish_lexicon, pin=JUDGE_PIN)
    service.create_tournament("Rondas", judge_name="Lucía")
    for index in range(12):
        service.add_player(f"Jugador {index + 1:02d}")
    service.create_game(rounds=4, seed=7)
    service.set_assistant_range("Marta", 1, 6)
    service.set_pin("assistant", pin_of("assistant", "Marta") or "", name="Marta")
    service.set_rack(1, RACK)
    service.choose_master(1)
    return service


def on_entry(service: TournamentService, scenario: Callable[[DuplicadaApp, Pilot, EntryScreen], Awaitable[None]],  # type: ignore[type-arg]
             *, role: str = "assistant", name: str = "Marta") -> None:
    """Run ``scenario`` on the entry screen of a signed-in station at 80×24 (the event log
    is read when the scenario calls ``app.check_for_changes``)."""

    async def main() -> None:
        app = DuplicadaApp(service, station="puesto-2", poll=False)
        async with app.run_test(size=(80, 24)) as pilot:
            app.state.tournament_id = service.tournament().id
            app.authenticate(pin_of(role, name))
            screen = EntryScreen()
            await app.push_screen(screen)
            await idle(pilot)
            app.check_for_changes()                  # the log as it is now: nothing new after this
            await idle(pilot)
            await scenario(app, pilot, screen)

    asyncio.run(main())


async def drained(pilot: Pilot, screen: EntryScreen, handled: int) -> None:  # type: ignore[type-arg]
    await until(pilot, lambda: screen.handled >= handled and not screen.pending)
    await idle(pilot)


def test_the_round_followed_is_the_open_one_being_typed() -> None:
    rounds = {1: round_view(1, "H8-CASA", closed=True), 2: round_view(2, None)}
    assert default_round(rounds) == 2                        # round 1 closed, round 2's rack in play
    rounds = {1: round_view(1, "H8-CASA"), 2: round_view(2, None)}
    assert default_round(rounds) == 1                        # round 1's slips typed while round 2 is played
    rounds = {1: round_view(1, "H8-CASA", closed=True), 2: round_view(2, "8H-COSA", closed=True)}
    assert default_round(rounds) == 2                        # all closed: the newest


def test_after_the_round_closes_and_the_next_rack_is_drawn_the_station_moves_on(
        seeded: TournamentService) -> None:
    async def scenario(app: DuplicadaApp, pilot: Pilot, screen: EntryScreen) -> None:  # type: ignore[type-arg]
        assert screen.round_number == 1
        seeded.close_round(1)                                # the judge, at the console
        drawn = seeded.draw_rack(1)
        assert drawn is not None and drawn.number == 2
        app.check_for_changes()
        await idle(pilot)
        assert screen.round_number == 2
        assert "Ronda 2" in str(screen.query_one("#context", Static).render())
        send_without_pauses(app, [*"3", "enter", *"8H-XX", "enter"])    # typed at once: round 2's slip
        await drained(pilot, screen, 1)
        assert not screen.refusals

    on_entry(seeded, scenario)
    assert [(slip.round_number, slip.text) for slip in seeded.slips(1) if slip.table_number == 3] == [
        (1, ""), (2, "8H-XX")]                               # round 1: marked missing at its close


def test_a_half_typed_slip_goes_to_its_round_and_the_station_moves_on_right_after(
        seeded: TournamentService) -> None:
    async def scenario(app: DuplicadaApp, pilot: Pilot, screen: EntryScreen) -> None:  # type: ignore[type-arg]
        await pilot.press(*"3", "enter", *"H8-CA")
        seeded.draw_rack(1)                                  # round 2 is played and its master placed
        seeded.choose_master(1)
        app.check_for_changes()
        await idle(pilot)
        assert screen.round_number == 1                      # the slip being typed is round 1's
        assert screen.query_one("#move", Input).value == "H8-CA"
        await pilot.press(*"SAMO", "enter")
        await drained(pilot, screen, 1)
        assert screen.round_number == 2                      # right after it, without another read of the log

    on_entry(seeded, scenario)
    assert [(slip.round_number, slip.text) for slip in seeded.slips(1) if slip.table_number == 3] == [
        (1, "H8-CASAMO")]


def test_refused_slips_stay_listed_with_their_reason_until_seen(seeded: TournamentService) -> None:
    # Marta's tables are 1–6: tables 8 and 9 are refused by the service, table 2 is
    # entered last, so the feedback shows table 2 only.
    async def scenario(app: DuplicadaApp, pilot: Pilot, screen: EntryScreen) -> None:  # type: ignore[type-arg]
        send_without_pauses(app, [*"8", "enter", *"H8-CASAMO", "enter", *"9", "enter", *"H8-CASA", "enter",
                                  *"2", "enter", *"H8-CASAMO", "enter"])
        await drained(pilot, screen, 3)
        assert "Mesa 2" in str(screen.query_one(SlipFeedback).render())
        assert [(item.table, item.typed, item.round_number) for item in screen.refusals] == [
            (8, "H8-CASAMO", 1), (9, "H8-CASA", 1)]
        listing = screen.query_one("#refused", Static)
        shown = str(listing.render())
        assert "2 papeletas NO anotadas" in shown
        assert "mesa 8, ronda 1 «H8-CASAMO»" in shown and "mesa 9, ronda 1 «H8-CASA»" in shown
        assert "Marta" in shown or "mesas" in shown                      # the service's reason
        assert listing.display and 0 < listing.region.height and listing.region.bottom <= 24
        # Issue 35 §4: little room at 80×24 — a line saying how many, then a line each.
        assert listing.region.height == 3, listing.region
        await pilot.press("ctrl+o")                                       # seen
        assert not screen.refusals and not listing.display

    on_entry(seeded, scenario)


def test_the_refused_slips_list_says_how_many_and_each_as_typed() -> None:
    refusal = Refusal(7, "H8-CASA", 1, "la ronda 1 está cerrada")
    assert str(refusals_text([])) == ""
    text = str(refusals_text([refusal] * 6, shown=4))
    assert text.startswith("⚠ 6 papeletas NO anotadas") and "2 más antiguas" in text
    assert text.count("mesa 7, ronda 1 «H8-CASA»: la ronda 1 está cerrada") == 4
    markup = str(refusals_text([Refusal(3, "[bold]X[/]", 2, "motivo")]))
    assert "«[bold]X[/]»" in markup                                       # as typed, never markup
