"""The standings screen of an event played in several venues (issue 27 §2): the tab
«F6 Sedes» shows the whole field with a «Sede» column, and its selector one venue's
players ranked among themselves — as the service ranks them; without venues the tab
stays hidden and F6 says why.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable, Select, TabbedContent

from duplicate.prepared.file import PreparedGame
from duplicate.service.facade import TournamentService
from lexicon.lexicon import Lexicon
from tests.credentials import pin_of
from tests.tui.venue_event import HOSTILE_VENUE, organiser, texts, venue_game, venue_records
from tests.tui.waiting import until
from tui.app.application import DuplicadaApp
from tui.app.screens.standings import StandingsScreen


@pytest.fixture(scope="module")
def prepared(spanish_lexicon: Lexicon) -> PreparedGame:
    return venue_game(spanish_lexicon)


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory, spanish_lexicon: Lexicon,
            prepared: PreparedGame) -> dict[str, dict[str, Any]]:
    return venue_records(tmp_path_factory.mktemp("sedes-app"), spanish_lexicon, prepared)


def run(service: TournamentService, scenario) -> None:  # type: ignore[no-untyped-def]
    async def main() -> None:
        app = DuplicadaApp(service, station="puesto-1", poll=False)
        async with app.run_test(size=(120, 40)) as pilot:
            app.state.tournament_id = service.tournament().id
            app.authenticate(pin_of("judge"))
            screen = StandingsScreen(1)
            await app.push_screen(screen)
            await until(pilot, lambda: screen.loaded)
            await scenario(app, pilot, screen)

    asyncio.run(main())


def test_the_venue_tab_ranks_the_whole_field_and_each_venue(tmp_path: Path, spanish_lexicon: Lexicon,
                                                            prepared: PreparedGame,
                                                            records: dict[str, dict[str, Any]]) -> None:
    service = organiser(tmp_path / "org.db", spanish_lexicon, prepared, records)
    names = {player.key: player.name for player in service.venue_field()}
    field = service.venue_game_standings(1)
    vendrell = service.venue_game_standings(1, HOSTILE_VENUE)

    async def scenario(app: DuplicadaApp, pilot: Pilot, screen: StandingsScreen) -> None:  # type: ignore[type-arg]
        await pilot.press("f6")
        assert screen.query_one(TabbedContent).active == "venues"
        table = screen.query_one("#venues-table", DataTable)
        await until(pilot, lambda: table.row_count == 7)
        assert texts(table, "player") == [names[line.player] for line in field]
        assert texts(table, "venue") == [line.player[0] for line in field]          # markup shown as typed
        assert texts(table, "total") == [str(line.total) for line in field]
        overall = screen.query_one("#venues-tournament-table", DataTable)
        assert overall.row_count == 7
        # The selector, as a person uses it: focus it, open it, go to the second venue, Enter.
        select = screen.query_one("#venue-select", Select)
        select.focus()
        await pilot.press("enter", "down", "down", "enter")
        await until(pilot, lambda: table.row_count == 3)
        assert screen.venue == HOSTILE_VENUE
        assert texts(table, "venue") == [HOSTILE_VENUE] * 3
        assert texts(table, "pos") == [str(line.position) for line in vendrell] and texts(table, "pos")[0] == "1"
        assert texts(table, "total") == [str(line.total) for line in vendrell]
        assert screen.query_one("#venues-tournament-table", DataTable).row_count == 3
        select.focus()
        await pilot.press("enter", "up", "up", "enter")                              # back to every venue
        await until(pilot, lambda: table.row_count == 7)
        assert screen.venue is None

    run(service, scenario)


def test_without_venues_the_tab_stays_hidden(tmp_path: Path, spanish_lexicon: Lexicon,
                                             prepared: PreparedGame) -> None:
    service = organiser(tmp_path / "org.db", spanish_lexicon, prepared, None)

    async def scenario(app: DuplicadaApp, pilot: Pilot, screen: StandingsScreen) -> None:  # type: ignore[type-arg]
        await pilot.press("f6")
        await pilot.pause()
        assert screen.query_one(TabbedContent).active == "game"
        assert any("no tiene sedes" in notice.message for notice in app._notifications)

    run(service, scenario)
