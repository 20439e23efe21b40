"""Online venues from the app (issue 27 §2): a venue assistant's station signs in, its
home says its venue, the judge's screens are not offered, and a slip typed for a table of
the other venue is refused on the entry screen with the venue named; nothing is stored.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from duplicate.service.access import Action
from duplicate.service.facade import TournamentService
from duplicate.storage.database import open_database
from lexicon.lexicon import Lexicon
from tests.credentials import JUDGE_PIN
from tests.tui.waiting import idle, until
from tui.app.application import DuplicadaApp
from tui.app.screens.entry import EntryScreen
from tui.app.screens.home import HomeScreen


def test_a_venue_assistant_in_the_app_is_refused_the_other_venues_tables(tmp_path: Path,
                                                                        spanish_lexicon: Lexicon) -> None:
    organiser = TournamentService(open_database(str(tmp_path / "t.db")), station="organizador",
                                  lexicon=spanish_lexicon, pin=JUDGE_PIN)
    organiser.create_tournament("Sedes en la aplicación")
    organiser.add_venue("Lloret")
    organiser.add_venue("Reus")
    for venue in ("Lloret", "Reus"):
        for index in range(2):
            organiser.add_player(f"{venue} {index + 1}", venue=venue)
    organiser.set_pin("assistant", "lloret-aux-pin", name="aux Lloret", venue="Lloret")
    organiser.set_assistant_range("aux Lloret", 1, 4)
    organiser.create_game(rounds=2, seed=5)              # Lloret at tables 1–2, Reus at 3–4
    organiser.draw_rack(1)
    organiser.choose_master(1)
    base = TournamentService(open_database(str(tmp_path / "t.db")), station="lloret-1", lexicon=spanish_lexicon)
    before = base.last_event_id()

    async def scenario() -> None:
        app = DuplicadaApp(base, station="lloret-1", poll=False)
        async with app.run_test(size=(120, 40)) as pilot:
            app.state.tournament_id = base.tournament().id
            app.authenticate("lloret-aux-pin")
            assert app.state.venue == "Lloret"
            assert app.may(Action.ENTER_SLIP, 1) and not app.may(Action.ENTER_SLIP, 3)
            home = HomeScreen()
            await app.push_screen(home)
            await pilot.pause()
            assert "sede «Lloret»" in str(home.query_one("#title").render())
            screen = EntryScreen()
            await app.push_screen(screen)
            await idle(pilot)
            await pilot.press(*"3", "enter", *"H8-QZQZ", "enter")          # table 3: a player of Reus
            await until(pilot, lambda: not screen.pending, "the slip judged")
            await pilot.pause()
            assert "sede «Reus»" in str(screen.query_one("#feedback").render())

    asyncio.run(scenario())
    assert base.last_event_id() == before
    assert organiser.slips(1) == []
