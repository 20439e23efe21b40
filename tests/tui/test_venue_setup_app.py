"""Online venues on the setup screen (issue 27 §2, docs/venues.md): the organiser's judge
names two venues, sets a venue judge's and a venue assistant's PIN (with its tables) and
puts players in venues from the screen, at 80×24; hostile names are shown as typed; the
service's Spanish refusals are shown in the form and change nothing. Then the venue's
judge, signed in with the PIN set there, is offered its players and its assistants only.
Every check is made on what the service stored."""

from __future__ import annotations

import asyncio

from textual.pilot import Pilot
from textual.widgets import DataTable, OptionList, Select, TabbedContent

from duplicate.service.facade import TournamentService
from tests.tui.keys import footer_actions, footer_beyond, footer_laid_out
from tests.tui.screen_text import screen_text
from tests.tui.test_setup import again, message, run_setup, settle, type_into
from tests.tui.waiting import idle, mounted, until
from tui.app.application import DuplicadaApp
from tui.app.screens.home import HomeScreen
from tui.app.screens.setup import SetupScreen

HOSTILE = "[b]Reus[/]"
"""A venue named with markup: shown as typed, never read as markup."""


def venue_of(service: TournamentService, name: str) -> str | None:
    return next(entry.venue for entry, player in service.entries() if player.name == name)


def test_the_organiser_sets_up_two_venues_and_their_pins_at_80_by_24(service: TournamentService) -> None:
    service.create_tournament("Simultáneo", venue="Barcelona")

    async def scenario(pilot: Pilot, screen: SetupScreen) -> None:  # type: ignore[type-arg]
        app = pilot.app
        await pilot.press("f6")
        await settle(pilot)
        assert screen.query_one("#tabs", TabbedContent).active == "tab-sedes"
        await type_into(pilot, "#v_name", "Lloret", enter=True)
        assert "Lloret" in message(screen) and "dada de alta" in message(screen)
        await type_into(pilot, "#v_name", HOSTILE, enter=True)
        await type_into(pilot, "#v_name", "=cmd", enter=True)
        assert service.online_venues() == ["Lloret", HOSTILE, "=cmd"]
        # The same name again: the service's Spanish refusal in the form, nothing added.
        await type_into(pilot, "#v_name", "lloret", enter=True)
        assert "ya hay una sede «Lloret»" in message(screen)
        assert screen.query_one("#message").has_class("error")
        assert service.online_venues() == ["Lloret", HOSTILE, "=cmd"]
        text = screen_text(app)
        assert HOSTILE in text and "=cmd" in text                      # as typed, in the venues' table
        # Lloret's judge: a PIN too short is refused, then a good one (Enter through the form).
        screen.query_one("#v_venue", Select).value = "Lloret"
        await type_into(pilot, "#v_pin", "123", enter=True)
        await type_into(pilot, "#v_tables", "", enter=True)
        assert "al menos 6" in message(screen)
        assert [station for station in service.venue_stations() if station[2] is not None] == []
        await type_into(pilot, "#v_pin", "lloret-juez-1", enter=True)
        await type_into(pilot, "#v_tables", "", enter=True)
        await again(pilot, "lloret-juez-1")
        assert "PIN del juez de la sede «Lloret» guardado" in message(screen)
        # The hostile venue's assistant, with its tables; bad tables first: refused, nothing stored.
        screen.query_one("#v_venue", Select).value = HOSTILE
        screen.query_one("#v_role", Select).value = "assistant"
        await type_into(pilot, "#v_station", "=cmd aux")
        await type_into(pilot, "#v_pin", "reus-aux-pin")
        await type_into(pilot, "#v_tables", "4-2", enter=True)
        assert "mesas del auxiliar" in message(screen)
        assert ("assistant", "=cmd aux", HOSTILE) not in service.venue_stations()
        await type_into(pilot, "#v_pin", "reus-aux-pin")
        await type_into(pilot, "#v_tables", "3-4", enter=True)
        await again(pilot, "reus-aux-pin")
        assert f"PIN del auxiliar «=cmd aux» de la sede «{HOSTILE}» guardado" in message(screen)
        assert "Mesas 3–4" in message(screen)
        assert screen.query_one("#v_pin").value == ""                   # type: ignore[attr-defined]
        venues = screen.query_one("#venues", DataTable)
        venues.focus()                                                  # scrolls the table back into sight
        await pilot.press("home")
        await settle(pilot)
        text = screen_text(app)
        assert "juez de Lloret" in text and "=cmd aux (3–4)" in text
        await until(pilot, lambda: footer_laid_out(screen))
        assert footer_beyond(screen) == []
        assert f"PIN del auxiliar «=cmd aux» de la sede «{HOSTILE}» guardado. Mesas 3–4." in text  # the whole message
        # Players in venues: the form's «Sede» line, then a move back to the organiser's room.
        await pilot.press("f3")
        await settle(pilot)
        assert screen.query_one("#p_venue_row").display
        screen.query_one("#p_venue", Select).value = "Lloret"
        await type_into(pilot, "#p_name", "Marta Soler", enter=True)
        await pilot.press("enter", "enter", "enter")                   # club, country, federation id: adds
        await settle(pilot)
        screen.query_one("#p_venue", Select).value = HOSTILE
        await type_into(pilot, "#p_name", "Joan Puig", enter=True)
        await pilot.press("enter", "enter", "enter")
        await settle(pilot)
        assert venue_of(service, "Marta Soler") == "Lloret" and venue_of(service, "Joan Puig") == HOSTILE
        assert HOSTILE in screen_text(app)                             # the «Sede» column, as typed
        players = screen.query_one("#players")
        players.focus()
        await pilot.press("home", "enter")                             # Marta's row: her details in the form
        await settle(pilot)
        assert screen.query_one("#p_venue", Select).value == "Lloret"
        screen.query_one("#p_venue", Select).value = ""                 # the organiser's room
        screen.query_one("#p_fed").focus()
        await pilot.press("enter")
        await settle(pilot)
        assert "sala del organizador" in message(screen)
        assert venue_of(service, "Marta Soler") is None and venue_of(service, "Joan Puig") == HOSTILE
        # A venue assistant's PIN changed from «Auxiliares»: it stays in its venue.
        await pilot.press("f5")
        await settle(pilot)
        await type_into(pilot, "#a_name", "=cmd aux")
        await type_into(pilot, "#pin_assistant", "reus-aux-pin-2", enter=True)
        await again(pilot, "reus-aux-pin-2")
        assert f"PIN del auxiliar «=cmd aux» de la sede «{HOSTILE}» guardado" in message(screen)
        assert ("assistant", "=cmd aux", HOSTILE) in service.venue_stations()

    run_setup(service, scenario, size=(80, 24))
    assert ("judge", "juez de Lloret", "Lloret") in service.venue_stations()
    assert [(item.assistant, item.first_table, item.last_table) for item in service.assistant_ranges()] == [
        ("=cmd aux", 3, 4)]
    assert service.with_pin("lloret-juez-1").sign_in().venue == "Lloret"


def test_a_venue_judge_on_the_setup_screen_has_its_players_and_assistants_only(service: TournamentService) -> None:
    service.create_tournament("Simultáneo", venue="Barcelona")
    for venue in ("Lloret", "Reus"):
        service.add_venue(venue)
        service.add_player(f"Jugador de {venue}", venue=venue)
    service.set_pin("judge", "lloret-juez-1", venue="Lloret")
    service.set_pin("assistant", "reus-aux-pin", name="aux Reus", venue="Reus")
    service.set_assistant_range("aux Reus", 2, 2)
    base = service.with_pin(None)

    async def scenario() -> None:
        app = DuplicadaApp(base, poll=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await idle(pilot)
            await pilot.press("enter")                                  # the only tournament
            await pilot.press(*"lloret-juez-1", "enter")
            await mounted(pilot, HomeScreen)
            menu = app.screen.query_one("#menu", OptionList)
            titles = [str(menu.get_option_at_index(index).prompt) for index in range(menu.option_count)]
            menu.highlighted = titles.index("Preparación del torneo")
            await pilot.press("enter")
            await mounted(pilot, SetupScreen)
            screen = app.screen
            assert isinstance(screen, SetupScreen)
            await settle(pilot)
            assert screen.query_one("#tabs", TabbedContent).active == "tab-jugadores"
            offered = footer_actions(screen)
            assert "save_settings" not in offered
            text = screen_text(app)
            assert "Jugador de Lloret" in text and "Jugador de Reus" not in text
            assert "F4 Mesas" not in text and "F6 Sedes" not in text
            assert not screen.query_one("#p_venue_row").display         # its players go to its venue
            await pilot.press("f4", "f6")                               # not offered: nothing changes
            await settle(pilot)
            assert screen.query_one("#tabs", TabbedContent).active == "tab-jugadores"
            await type_into(pilot, "#p_name", "Marta Soler", enter=True)
            await pilot.press("enter", "enter", "enter")
            await settle(pilot)
            assert "Inscrito: Marta Soler" in message(screen)
            # Its assistant: the PIN first, then the tables (II.4.c).
            await pilot.press("f5")
            await settle(pilot)
            assert "aux Reus" not in screen_text(app)
            assert "PIN del juez de sede" in screen_text(app)           # its own PIN, named so
            await type_into(pilot, "#a_name", "aux Lloret")
            await type_into(pilot, "#pin_assistant", "lloret-aux-pin", enter=True)
            await again(pilot, "lloret-aux-pin")
            assert "guardado" in message(screen), message(screen)
            await type_into(pilot, "#a_name", "aux Lloret", enter=True)
            await type_into(pilot, "#a_first", "1", enter=True)
            await type_into(pilot, "#a_last", "1", enter=True)
            assert "Rango de mesas guardado" in message(screen), message(screen)
            text = screen_text(app)
            assert "aux Lloret" in text and "aux Reus" not in text
            await until(pilot, lambda: footer_laid_out(screen))
            assert footer_beyond(screen) == []

    asyncio.run(scenario())
    assert venue_of(service, "Marta Soler") == "Lloret"
    assert ("assistant", "aux Lloret", "Lloret") in service.venue_stations()
    assert {item.assistant: (item.first_table, item.last_table) for item in service.assistant_ranges()} == {
        "aux Reus": (2, 2), "aux Lloret": (1, 1)}
