"""The judge's tournament setup screen (issue 4 §2): settings, players, tables (II.6),
assistants (II.4.c) and PINs, driven by keyboard and mouse through Pilot; every check
is made on what the service stored."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import replace
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Button, DataTable, Input, Select, Static

from duplicate.rules.statuses import EntryStatus, SeatingMethod
from duplicate.service.access import Role
from duplicate.service.errors import CredentialRefused
from duplicate.service.facade import TournamentService
from tests.credentials import JUDGE_PIN, pin_of
from tests.tui.keys import footer_beyond, footer_laid_out, send_without_pauses
from tests.tui.waiting import idle, mounted, until
from tui.app.application import DuplicadaApp
from tui.app.screens.setup import SetupScreen
from tui.app.widgets.pin_dialog import PinAgainDialog

NAMES = ["Zoe Ruiz", "Ángel Núñez", "Beatriz Ñúñez", "Ana Pérez"]


def run_setup(service: TournamentService, scenario: Callable[[Pilot, SetupScreen], Awaitable[None]],
              size: tuple[int, int] = (120, 50)) -> None:
    """Open the setup screen as the judge on the newest tournament and run ``scenario``."""

    async def main() -> None:
        app = DuplicadaApp(service, poll=False)
        async with app.run_test(size=size) as pilot:
            app.state.tournament_id = service.tournament().id
            app.authenticate(pin_of("judge"))
            screen = SetupScreen()
            await app.push_screen(screen)
            await settle(pilot)
            await scenario(pilot, screen)

    asyncio.run(main())


async def type_into(pilot: Pilot, selector: str, text: str, *, enter: bool = False, paste: bool = False) -> None:
    """Focus the input, type ``text`` key by key (or paste it at once: long paths), Enter."""
    widget = pilot.app.screen.query_one(selector)
    widget.value = text if paste else ""  # type: ignore[attr-defined]
    widget.focus()
    await pilot.press(*("" if paste else text), *(["enter"] if enter else []))
    await settle(pilot)


async def settle(pilot: Pilot) -> None:
    """Wait for the screen's workers (the judge's action, then the lists read again) and
    for what they show."""
    await idle(pilot)


def message(screen: SetupScreen) -> str:
    return str(screen.query_one("#message", Static).render())


def test_settings_are_stored_and_refused_once_play_started(service: TournamentService) -> None:
    service.create_tournament("Open")
    # A setting the form does not show (each venue's own bonuses, issue 27 §2) is kept.
    service.change_settings(service.tournament().id, replace(service.settings(), venue_bonuses=True))
    for name in NAMES:
        service.add_player(name)

    async def scenario(pilot: Pilot, screen: SetupScreen) -> None:
        screen.query_one("#bonus_mode", Select).value = "manual"
        await type_into(pilot, "#bonus_value", "30")
        assert "25" in str(screen.query_one("#warnings", Static).render())      # III.24, shown live
        screen.query_one("#criterion", Select).value = "average_place"
        await pilot.click("#tie_breaks")
        await type_into(pilot, "#partial_every", "4")
        await type_into(pilot, "#seconds", "150")
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert "guardados" in message(screen)
        settings = service.settings()
        assert (settings.bonus_mode, settings.bonus_value, settings.criterion, settings.tie_breaks,
                settings.partial_every, settings.seconds_per_round) == ("manual", 30, "average_place", True, 4, 150)
        assert settings.venue_bonuses

        game = service.create_game(rounds=3, seed=1)
        service.draw_rack(game)
        screen.refresh_lists()
        await settle(pilot)
        await type_into(pilot, "#partial_every", "2")
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert "antes de empezar" in message(screen)
        assert "fijados" in str(screen.query_one("#lock", Static).render())
        assert service.settings().partial_every == 4
        # Issue 35 §4 (III.13): the seconds per round, for the next games, are still saved.
        await type_into(pilot, "#partial_every", "4")
        await type_into(pilot, "#seconds", "200")
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert "guardados" in message(screen)
        assert (service.settings().seconds_per_round, service.settings().partial_every) == (200, 4)
        assert "segundos por ronda" in str(screen.query_one("#lock", Static).render())

    run_setup(service, scenario)


async def again(pilot: Pilot, pin: str) -> None:
    """Type ``pin`` again in the confirmation dialog (issue 35 §4), then wait for the save."""
    assert isinstance(pilot.app.screen, PinAgainDialog), "the PIN is asked again"
    await mounted(pilot, PinAgainDialog)
    await pilot.press(*pin, "enter")
    await settle(pilot)


def test_a_new_pin_is_typed_twice_and_two_different_ones_store_nothing(service: TournamentService) -> None:
    """Issue 35 §4: as the CLI, the app asks for a new PIN again, hidden; a different one
    or Esc stores nothing and says so in Spanish; the same one is stored."""
    service.create_tournament("Open")
    service.set_assistant_range("aux1", 1, 10)

    async def scenario(pilot: Pilot, screen: SetupScreen) -> None:
        await pilot.press("f5")
        await type_into(pilot, "#pin_judge", "juez-nuevo-1", enter=True)
        assert isinstance(pilot.app.screen, PinAgainDialog), "the PIN is asked again"
        dialog = await mounted(pilot, PinAgainDialog)
        assert dialog.query_one("#pin_again", Input).password
        await pilot.press(*"juez-nuevo-2", "enter")
        await settle(pilot)
        assert "no coinciden" in message(screen) and "no se ha guardado nada" in message(screen)
        assert screen.query_one("#pin_judge", Input).value == ""
        await type_into(pilot, "#a_name", "aux1", paste=True)
        await type_into(pilot, "#pin_assistant", "aux1-mesas", enter=True)
        assert isinstance(pilot.app.screen, PinAgainDialog), "the PIN is asked again"
        await mounted(pilot, PinAgainDialog)
        await pilot.press("escape")
        await settle(pilot)
        assert "PIN no guardado" in message(screen)
        await type_into(pilot, "#pin_judge", "juez-nuevo-1", enter=True)
        await again(pilot, "juez-nuevo-1")
        assert "PIN del juez árbitro guardado" in message(screen)

    run_setup(service, scenario)
    for refused in ("juez-nuevo-2", "aux1-mesas"):
        with pytest.raises(CredentialRefused):
            service.with_pin(refused).sign_in()
    assert service.with_pin("juez-nuevo-1").sign_in().role is Role.JUDGE


def test_add_edit_import_and_withdraw_players(service: TournamentService, tmp_path: Path) -> None:
    service.create_tournament("Open")
    bad = tmp_path / "malo.csv"
    bad.write_text("nombre,club\nEva Gil,Club A\n,Club B\n", encoding="utf-8")
    good = tmp_path / "bueno.csv"
    good.write_text("nombre,club,pais,federacion\nEva Gil,Club A,ES,F10\nÍñigo Baños,Club B,ES,F11\n",
                    encoding="utf-8")

    async def scenario(pilot: Pilot, screen: SetupScreen) -> None:
        await pilot.press("f3")
        await type_into(pilot, "#p_name", "Ana Pérez", enter=True)
        for selector, text in (("#p_club", "Club Madrid"), ("#p_country", "ES")):
            await type_into(pilot, selector, text, enter=True, paste=True)
        await type_into(pilot, "#p_fed", "F1", enter=True)
        [(entry, player)] = service.entries()
        assert (player.name, player.club, player.country, player.federation_id) == ("Ana Pérez", "Club Madrid",
                                                                                   "ES", "F1")
        table = screen.query_one("#players", DataTable)
        table.focus()
        await pilot.press("enter")                                       # load Ana into the form
        await type_into(pilot, "#p_club", "Club Toledo", paste=True)
        await pilot.click("#update")
        await settle(pilot)
        assert service.entries()[0][1].club == "Club Toledo"

        await type_into(pilot, "#csv_path", str(bad), enter=True, paste=True)
        assert "línea 3" in message(screen) and "no se ha inscrito a nadie" in message(screen)
        assert len(service.entries()) == 1
        await type_into(pilot, "#csv_path", str(good), enter=True, paste=True)
        assert "Importados: 2 jugadores" in message(screen)
        assert table.row_count == 3

        table.move_cursor(row=1)                                         # Eva Gil
        await pilot.click("#withdraw")
        await settle(pilot)
        statuses = {player.name: entry.status for entry, player in service.entries()}
        assert statuses == {"Ana Pérez": "active", "Eva Gil": EntryStatus.WITHDRAWN.value, "Íñigo Baños": "active"}
        assert "retirado" in str(table.get_row_at(1))

    run_setup(service, scenario)


def test_create_a_game_and_seat_players_alphabetically(service: TournamentService) -> None:
    service.create_tournament("Open")
    for name in NAMES:
        service.add_player(name)

    async def scenario(pilot: Pilot, screen: SetupScreen) -> None:
        await pilot.press("f4")
        await type_into(pilot, "#rounds", "12")
        await type_into(pilot, "#seed", "77")
        screen.query_one("#seating", Select).value = SeatingMethod.ALPHABETICAL.value
        await pilot.click("#create_game")
        await settle(pilot)
        assert "Partida 1 creada" in message(screen)
        assert screen.query_one("#tables", DataTable).row_count == 4

    run_setup(service, scenario)
    [game] = service.tournament().games
    assert (game.planned_rounds, game.seconds_per_round) == (12, 180)
    assert [player.name for _, _, player in service.seats(1)] == ["Ana Pérez", "Ángel Núñez", "Beatriz Ñúñez",
                                                                  "Zoe Ruiz"]


def test_a_game_before_the_previous_results_are_published_needs_a_reason_IV32(service: TournamentService) -> None:
    # Issue 13 §1: the setup screen, like the console, lets the judge start anyway with a
    # reason (recorded); Esc in the dialog creates nothing.
    service.create_tournament("Open")
    for name in NAMES:
        service.add_player(name)
    service.create_game(rounds=3, seed=1)
    service.end_game(1, reason="prueba")

    async def scenario(pilot: Pilot, screen: SetupScreen) -> None:
        await pilot.press("f4")
        await pilot.click("#create_game")
        await settle(pilot)
        assert "IV.32" in message(screen)
        assert "IV.32" in str(pilot.app.screen.query_one(".title", Static).render())
        await pilot.press("escape")
        await settle(pilot)
        assert len(service.tournament().games) == 1
        await pilot.click("#create_game")
        await settle(pilot)
        await pilot.press(*"se publican al final de la jornada", "enter")
        await settle(pilot)
        assert "Partida 2 creada" in message(screen)

    run_setup(service, scenario)
    [created] = [event for event in service.history() if event.kind == "game_created" and event.payload["number"] == 2]
    assert created.reason.endswith("se publican al final de la jornada")


def test_every_tab_fits_80_by_24(service: TournamentService) -> None:
    # Issue 13 §3: the footer and every button of every tab within 80 columns.
    service.create_tournament("Open")

    async def scenario(pilot: Pilot, screen: SetupScreen) -> None:
        for key in ("f2", "f3", "f4", "f5"):
            await pilot.press(key)
            await settle(pilot)
            await until(pilot, lambda: footer_laid_out(screen))
            assert footer_beyond(screen) == [], key
            for button in screen.query(Button):
                if button.display and button.region.width:
                    assert button.region.right <= 80, (key, str(button.label))

    run_setup(service, scenario, size=(80, 24))


def test_assistant_ranges_and_pins(service: TournamentService) -> None:
    service.create_tournament("Open")

    async def scenario(pilot: Pilot, screen: SetupScreen) -> None:
        await pilot.press("f5")
        await type_into(pilot, "#a_name", "aux1", enter=True)
        await type_into(pilot, "#a_first", "1", enter=True, paste=True)
        await type_into(pilot, "#a_last", "30", enter=True, paste=True)
        await type_into(pilot, "#a_name", "aux2", enter=True, paste=True)
        await type_into(pilot, "#a_first", "31", enter=True, paste=True)
        await type_into(pilot, "#a_last", "20", enter=True, paste=True)
        assert "no válido" in message(screen)
        await type_into(pilot, "#pin_judge", "12", enter=True, paste=True)
        assert "al menos 6" in message(screen)
        await type_into(pilot, "#a_name", "aux1", paste=True)
        await type_into(pilot, "#pin_assistant", "aux1-mesas", enter=True, paste=True)
        await again(pilot, "aux1-mesas")
        assert "auxiliar «aux1»" in message(screen)
        await type_into(pilot, "#pin_judge", "juez-nuevo-1", enter=True)
        await again(pilot, "juez-nuevo-1")
        assert screen.query_one("#ranges", DataTable).row_count == 1

    run_setup(service, scenario)
    assert [(r.assistant, r.first_table, r.last_table) for r in service.assistant_ranges()] == [("aux1", 1, 30)]
    assert service.with_pin("juez-nuevo-1").sign_in().role is Role.JUDGE
    assert service.with_pin("aux1-mesas").sign_in().tables == (1, 30)
    with pytest.raises(CredentialRefused):
        service.with_pin(JUDGE_PIN).sign_in()                    # the old judge PIN no longer opens


def test_setup_snapshot(service: TournamentService, snap_compare) -> None:  # type: ignore[no-untyped-def]
    service.create_tournament("Open de Valencia", venue="Valencia")
    for index, name in enumerate(NAMES):
        service.add_player(name, club="Club Valencia", country="ES", federation_id=f"F{index}")

    async def open_players(pilot: Pilot) -> None:
        app = pilot.app
        app.state.tournament_id = service.tournament().id  # type: ignore[attr-defined]
        app.authenticate(pin_of("judge"))  # type: ignore[attr-defined]
        await app.push_screen(SetupScreen())
        await settle(pilot)
        await pilot.press("f3")
        await settle(pilot)
        for field in app.screen.query(Input):         # a steady cursor, whenever the picture is taken
            field.cursor_blink = False
        await pilot.pause()

    assert snap_compare(DuplicadaApp(service, poll=False), terminal_size=(120, 40), run_before=open_players)


def test_names_with_markup_are_shown_as_typed(service: TournamentService) -> None:
    # Every input is untrusted: a tournament or player name holding Rich markup is text.
    service.create_tournament("[b]Open[/b] [/]")

    async def scenario(pilot: Pilot, screen: SetupScreen) -> None:
        assert "[b]Open[/b] [/]" in str(screen.query_one("#info", Static).render())
        await pilot.press("f3")
        await type_into(pilot, "#p_name", "[red]Eva[/] [/x]", enter=True)
        for selector in ("#p_club", "#p_country", "#p_fed"):
            await type_into(pilot, selector, "", enter=True)
        assert "Inscrito: [red]Eva[/] [/x]." in message(screen)
        assert [player.name for _, player in service.entries()] == ["[red]Eva[/] [/x]"]
        assert "[red]Eva[/] [/x]" in str(screen.query_one("#players", DataTable).get_row_at(0))

    run_setup(service, scenario)


def test_players_typed_ahead_are_all_registered_and_f3_puts_the_cursor_in_the_name(
        service: TournamentService) -> None:
    # Issue 13 §2, §3: F3 puts the cursor in the first field; five players typed with no
    # pause (name, Enter through club, country and federation) are all registered.
    service.create_tournament("Open")
    names = ["Ana Gil", "Beto Ruiz", "Carla Soto", "Dani Vega", "Eva Mora"]

    async def scenario(pilot: Pilot, screen: SetupScreen) -> None:
        await pilot.press("f3")
        await pilot.pause()
        assert pilot.app.focused is screen.query_one("#p_name")
        keys: list[str] = []
        for name in names:
            keys += [*name, "enter", *"Club", "enter", "enter", "enter"]
        send_without_pauses(pilot.app, keys)
        await until(pilot, lambda: len(service.entries()) >= len(names), "every player typed ahead stored")
        await settle(pilot)
        assert sorted(player.name for _, player in service.entries()) == names
        assert {player.club for _, player in service.entries()} == {"Club"}

    run_setup(service, scenario)
