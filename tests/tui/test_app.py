"""The app's start: open or create a tournament, sign in with role and PIN (issue 4 §1, §3)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from textual.widgets import OptionList

from duplicate.service.access import Role
from duplicate.service.errors import NotAuthorised
from duplicate.service.facade import TournamentService
from duplicate.storage.database import open_database
from lexicon.lexicon import Lexicon
from tests.credentials import ASSISTANT_PINS, JUDGE_PIN
from tests.tui.waiting import idle, mounted
from tui.app.application import DuplicadaApp
from tui.app.screens.home import HomeScreen
from tui.app.screens.signin import SignInScreen
from tui.app.widgets.pin_dialog import PinAgainDialog


async def checked(pilot) -> None:  # type: ignore[no-untyped-def]
    """Wait for the PIN check (a worker thread: the slow hash) and what it shows."""
    await idle(pilot)


def test_create_a_tournament_then_sign_in_as_judge(service: TournamentService) -> None:
    # Issue 12 §1: the creator sets the judge's PIN; the PIN alone then says who acts.
    async def scenario() -> None:
        app = DuplicadaApp(service.with_pin(None), poll=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await checked(pilot)                             # the tournaments are read in a worker
            await pilot.click("#name")
            await pilot.press(*"Open de Pruebas", "enter", *"Madrid", "enter", "enter", *"juez-del-open", "enter")
            await checked(pilot)
            assert "Falta el nombre del juez" in str(app.screen.query_one("#message").render())  # required
            assert app.focused is app.screen.query_one("#judge_name")
            await pilot.press(*"Lucía Gil", "enter", *"12345", "enter")
            await checked(pilot)
            assert "al menos 6" in str(app.screen.query_one("#message").render())      # too short: not created
            # Issue 35 §4: the PIN is typed twice; two different ones create nothing.
            await pilot.press(*"juez-del-open", "enter")
            assert isinstance(pilot.app.screen, PinAgainDialog), "the PIN is asked again"
            await mounted(pilot, PinAgainDialog)
            await pilot.press(*"juez-del-opem", "enter")
            await checked(pilot)
            assert "no coinciden" in str(app.screen.query_one("#message").render())
            assert service.tournaments() == []
            assert app.focused is app.screen.query_one("#judge_pin") and app.focused.value == ""
            await pilot.press(*"juez-del-open", "enter")
            assert isinstance(pilot.app.screen, PinAgainDialog), "the PIN is asked again"
            await mounted(pilot, PinAgainDialog)
            await pilot.press(*"juez-del-open", "enter")
            await checked(pilot)
            assert isinstance(app.screen, SignInScreen)
            await pilot.press(*"juez-del-open", "enter")
            await checked(pilot)
            assert isinstance(app.screen, HomeScreen), app.screen.query_one("#message").render()
            menu = app.screen.query_one("#menu", OptionList)
            assert menu.option_count == 6                       # with the classic event screen (issue 16)
            assert (app.state.role, app.state.arbiter) == ("judge", "Lucía Gil")

    asyncio.run(scenario())
    [tournament] = service.tournaments()
    assert (tournament.name, tournament.venue) == ("Open de Pruebas", "Madrid")
    assert service.with_pin("juez-del-open").sign_in().role is Role.JUDGE


def test_a_wrong_pin_keeps_the_station_out_and_an_assistant_sees_fewer_screens(service: TournamentService) -> None:
    service.create_tournament("T")
    service.set_assistant_range("aux1", 1, 10)
    service.set_pin("assistant", ASSISTANT_PINS["aux1"], name="aux1")

    async def scenario() -> None:
        app = DuplicadaApp(service.with_pin(None), poll=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await checked(pilot)                             # the tournaments are read in a worker
            await pilot.press("enter")                       # open the only tournament
            await pilot.pause()
            await pilot.press(*"111111", "enter")
            await checked(pilot)
            assert isinstance(app.screen, SignInScreen)
            assert "incorrecto" in str(app.screen.query_one("#message").render())
            await pilot.press(*ASSISTANT_PINS["aux1"], "enter")
            await checked(pilot)
            assert isinstance(app.screen, HomeScreen) and app.state.role == "assistant"
            assert app.state.arbiter == "aux1"
            assert app.screen.query_one("#menu", OptionList).option_count == 4   # slips, results, standings

    asyncio.run(scenario())


def test_a_station_without_pin_only_reads(service: TournamentService) -> None:
    service.create_tournament("T")

    async def scenario() -> None:
        app = DuplicadaApp(service.with_pin(None), poll=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await checked(pilot)
            await pilot.press("enter")
            await pilot.pause()
            await pilot.click("#viewer")
            await pilot.pause()
            assert isinstance(app.screen, HomeScreen) and app.state.role == "viewer"
            titles = [str(option.prompt) for option in app.screen.query_one("#menu", OptionList).options]
            assert titles == ["Pantalla de proyección", "Clasificaciones",
                              "Torneo clásico (emparejamientos y resultados)"]
            with pytest.raises(NotAuthorised):
                app.service.add_player("Intruso")

    asyncio.run(scenario())
    assert service.entries() == []


def test_a_database_hiccup_does_not_close_the_station(tmp_path: Path, spanish_lexicon: Lexicon) -> None:
    # The database's folder goes away under the station (a network share lost): the
    # service says StorageUnavailable, the class the poll handles (issue 34 §5); the
    # station stays open, says so, and says when the database answers again.
    folder = tmp_path / "sala"
    folder.mkdir()
    service = TournamentService(open_database(str(folder / "t.db")), station="puesto-1", lexicon=spanish_lexicon,
                                pin=JUDGE_PIN)
    service.create_tournament("T")

    async def scenario() -> None:
        app = DuplicadaApp(service, poll=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await checked(pilot)
            await pilot.press("enter")
            await pilot.pause()
            service.context.db.dispose()                 # the pooled connection goes with the share
            folder.rename(tmp_path / "fuera")
            app.check_for_changes()
            await pilot.pause()
            assert app.is_running
            assert any("Sin conexión" in str(notice.message) and "StorageUnavailable" in str(notice.message)
                       for notice in app._notifications)
            (tmp_path / "fuera").rename(folder)
            app.check_for_changes()
            await pilot.pause()
            assert any("recuperada" in str(notice.message) for notice in app._notifications)

    asyncio.run(scenario())


def test_a_browser_session_signs_in_and_never_creates_a_tournament(service: TournamentService) -> None:
    # Issue 14 §3: under «duplicada serve» (remote) there is no tournament form and no
    # read-only entry without a PIN; the PIN is the only way in. Issue 26 §1: nothing of
    # the tournaments (list, name, venue, counts) is shown before it.
    service.create_tournament("Torneo Anterior", venue="Alcorcón")
    service.create_tournament("Open de la Sala", venue="Villanueva", judge_name="Lucía")

    async def scenario() -> None:
        app = DuplicadaApp(service.with_pin(None), poll=False, remote=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await checked(pilot)
            assert isinstance(app.screen, SignInScreen) and not app.screen.query("#viewer")
            assert not app.screen.query(OptionList) and not app.screen.query("#name")
            before = app.export_screenshot()
            assert not any(word in before for word in ("Open", "Villanueva", "Anterior", "Alcorc", "jugador"))
            await pilot.press("escape")                       # nowhere to go back to
            await pilot.press("enter")                        # an empty PIN: refused
            await checked(pilot)
            assert isinstance(app.screen, SignInScreen) and app.state.role is None
            assert "Villanueva" not in app.export_screenshot()
            await pilot.press(*JUDGE_PIN, "enter")
            await checked(pilot)
            assert isinstance(app.screen, HomeScreen) and app.state.role == "judge"
            assert app.state.tournament_id == service.tournaments()[-1].id       # the newest one is served

    asyncio.run(scenario())


def test_after_the_judges_sign_in_the_lexicon_and_the_rack_in_play_are_ready_not_for_a_viewer(
        service: TournamentService) -> None:
    # Issue 38: while the menu waits, the judge's station loads the lexicon, replays the
    # game and ranks the rack in play in the background (the console then opens at once);
    # a read-only station loads nothing it may never need.
    service.create_tournament("T")
    for name in ("Ana", "Blas"):
        service.add_player(name)
    service.create_game(rounds=3, seed=7)
    service.draw_rack(1)

    async def scenario(pin: str | None) -> tuple[int, int]:
        base = TournamentService(open_database(service.context.db.engine.url.render_as_string(hide_password=False)),
                                 station="otro-puesto")          # a fresh process: nothing loaded yet
        app = DuplicadaApp(base, poll=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await checked(pilot)
            await pilot.press("enter")
            await pilot.pause()
            if pin is None:
                await pilot.click("#viewer")
            else:
                await pilot.press(*pin, "enter")
            await checked(pilot)                             # the PIN check and the warm-up
            assert isinstance(app.screen, HomeScreen)
            pending = [engine.pending for _, engine in base.context.games.values() if engine.pending is not None]
            return len(base.context.lexicons), sum(1 for rack in pending if rack.generated)

    assert asyncio.run(scenario(JUDGE_PIN)) == (1, 1)
    assert asyncio.run(scenario(None)) == (0, 0)
