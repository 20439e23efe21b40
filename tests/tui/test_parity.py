"""Parity (issue 12 §4): one game driven through the command line and through the app
(Pilot, by keys) gives the same exported record, once timestamps are removed — because
both only ask the tournament service, which decides everything. EloDI changes in both.

The game: 3 players, 12 rounds (a game that counts for EloDI, V); in round 1 table 2's
slip is corrected and table 3 gets a second, different slip (a conflict the judge keeps);
then the round is closed; every round the master is entered for all tables except
table 3, which plays H8-QZQZ (0 points); provisional then final results.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from textual.pilot import Pilot
from textual.widgets import Input

from duplicate.service.facade import TournamentService
from duplicate.storage.database import open_database
from lexicon.lexicon import Lexicon
from ranking.ratings import RatingService
from ranking.service import tournament_service
from tests.credentials import JUDGE_PIN
from tests.tui.waiting import idle, mounted, until
from tui.app.application import DuplicadaApp
from tui.app.screens.entry import EntryScreen
from tui.app.screens.judge import JudgeScreen
from tui.app.screens.setup import SetupScreen
from tui.app.screens.standings import StandingsScreen
from tui.app.screens.start import StartScreen
from tui.app.widgets.pin_dialog import PinAgainDialog
from tui.cli.main import main

PLAYERS = ("Ana", "Beto", "Carla")
ROUNDS = 12
SEED = 4
STATION = "puesto-1"
WRONG = "H8-QZQZ"

pytestmark = pytest.mark.slow


def strip_times(value: Any) -> Any:
    """The record without the moments things happened (they differ between two runs), nor
    the chain of event hashes, which covers those moments (issue 26 §2), nor the tournament's
    signing key and the signature (drawn at random for each tournament, issue 35 §2)."""
    if isinstance(value, dict):
        return {key: strip_times(item) for key, item in value.items()
                if not (key == "at" or key.endswith("_at")
                        or key in ("previous_hash", "events_head", "signature", "public_key", "fingerprint"))}
    if isinstance(value, list):
        return [strip_times(item) for item in value]
    return value


def master_of(database_path: Path, round_number: int, lexicon: Lexicon) -> str:
    """The master of a round as the screens show it (the person reads it there)."""
    service = TournamentService(open_database(str(database_path)), lexicon=lexicon)
    view = service.rounds(1)[round_number - 1]
    assert view.master is not None
    return view.master


def by_cli(path: Path, lexicon: Lexicon) -> dict[str, Any]:
    runner = CliRunner()
    env = {"DUPLICADA_DB": str(path), "DUPLICADA_STATION": STATION, "DUPLICADA_PIN": JUDGE_PIN}

    def run(*args: str) -> str:
        result = runner.invoke(main, list(args), env=env)
        assert result.exit_code == 0, (args, result.output)
        return result.output

    run("tournament", "create", "Paridad")
    for name in PLAYERS:
        run("player", "add", name)
    run("game", "start", "--rounds", str(ROUNDS), "--seed", str(SEED))
    for number in range(1, ROUNDS + 1):
        run("rack", "draw")
        run("master", "choose")
        master = master_of(path, number, lexicon)
        if number == 1:
            run("slip", "enter", "1", master)
            run("slip", "enter", "2", WRONG)
            run("slip", "correct", "2", master, "--reason", "error al teclear")
            run("slip", "enter", "3", WRONG)
            run("slip", "enter", "3", master)                       # a second, different slip: a conflict
            service = TournamentService(open_database(str(path)), lexicon=lexicon)
            [(pending, _)] = service.conflicts(1)                    # its number, as «slip conflicts» lists it
            run("slip", "resolve", str(pending.id))                 # the judge keeps the first
        else:
            run("slip", "enter", "1", master)
            run("slip", "enter", "2", master)
            run("slip", "enter", "3", WRONG)
        run("round", "close")
    run("game", "publish")
    run("game", "publish", "--final")
    out = path.with_suffix(".json")
    run("export", str(out))
    return json.loads(out.read_text(encoding="utf-8"))


async def type_slip(pilot: Pilot, screen: EntryScreen, table: int, text: str) -> None:
    await pilot.press(*str(table), "enter", *text, "enter")
    await until(pilot, lambda: not screen.pending and not screen.reading)
    await pilot.pause()


def by_app(path: Path, lexicon: Lexicon) -> dict[str, Any]:
    service = tournament_service(open_database(str(path)), station=STATION, lexicon=lexicon)

    async def scenario() -> None:
        app = DuplicadaApp(service, station=STATION, poll=False)
        async with app.run_test(size=(120, 40)) as pilot:
            assert isinstance(app.screen, StartScreen)
            await idle(pilot)                                        # the tournaments are read in a worker
            app.screen.query_one("#name", Input).focus()
            await pilot.press(*"Paridad", "enter", "enter", *"juez", "enter", *JUDGE_PIN, "enter")
            assert isinstance(pilot.app.screen, PinAgainDialog), "the PIN is asked again"
            await mounted(pilot, PinAgainDialog)
            await pilot.press(*JUDGE_PIN, "enter")                   # typed twice (issue 35 §4)
            await idle(pilot)
            await pilot.press(*JUDGE_PIN, "enter")                   # sign in with the judge's PIN
            await idle(pilot)                                        # the PIN is checked in a worker
            assert app.state.role == "judge"

            setup = SetupScreen()
            await app.push_screen(setup)
            await until(pilot, lambda: not setup.busy)
            await pilot.press("f3")
            for name in PLAYERS:
                setup.query_one("#p_name", Input).focus()
                await pilot.press(*name, "enter", "enter", "enter", "enter")   # name, club, country, federation
                await until(pilot, lambda: not setup.busy)
            assert [player.name for _, player in app.service.entries()] == list(PLAYERS)
            app.pop_screen()

            console = JudgeScreen(tick=None)
            await app.push_screen(console)
            await until(pilot, lambda: console.loaded and not console.busy)
            await pilot.press("p", *str(ROUNDS), "enter", *str(SEED), "enter", "enter")
            await until(pilot, lambda: console.state.game == 1 and not console.busy)
            for number in range(1, ROUNDS + 1):
                await pilot.press("d")
                await until(pilot, lambda n=number: console.state.rack_round == n and not console.busy)
                await idle(pilot)
                await pilot.press("enter", "s")                          # the III.15 master, confirmed
                await until(pilot, lambda n=number: len(app.service.rounds(1)) == n
                            and app.service.rounds(1)[-1].master is not None and not console.busy)
                await idle(pilot)
                master = app.service.rounds(1)[-1].master
                entry = EntryScreen()
                await app.push_screen(entry)
                await until(pilot, lambda e=entry: not e.reading)
                if number == 1:
                    await type_slip(pilot, entry, 1, master)
                    await type_slip(pilot, entry, 2, WRONG)
                    await pilot.press("2", "f6", "ctrl+u", *master, "enter", *"error al teclear", "enter")
                    await until(pilot, lambda e=entry: not e.pending)
                    await type_slip(pilot, entry, 3, WRONG)
                    await type_slip(pilot, entry, 3, master)             # a conflict
                    await pilot.press("3", "f10", "enter", "enter")      # the judge keeps the first
                    await until(pilot, lambda e=entry: not e.pending and not app.service.conflicts(1))
                else:
                    await type_slip(pilot, entry, 1, master)
                    await type_slip(pilot, entry, 2, master)
                    await type_slip(pilot, entry, 3, WRONG)
                await idle(pilot)
                app.pop_screen()
                await pilot.pause()
                await pilot.press("c")
                await pilot.pause()
                if app.screen is not console:
                    await pilot.press("s")
                await until(pilot, lambda: app.service.rounds(1)[-1].closed and not console.busy)
                await idle(pilot)
            app.pop_screen()

            standings = StandingsScreen(1)
            await app.push_screen(standings)
            await idle(pilot)
            await pilot.press("p")
            await idle(pilot)
            await pilot.press("d", "s")                                  # final results, confirmed
            await idle(pilot)

    asyncio.run(scenario())
    return service.export()


def test_the_command_line_and_the_app_record_the_same_game(tmp_path: Path, spanish_lexicon: Lexicon) -> None:
    cli = by_cli(tmp_path / "cli.db", spanish_lexicon)
    app = by_app(tmp_path / "app.db", spanish_lexicon)
    assert [game["status"] for game in app["games"]] == ["final"]
    assert len(app["events"]) > ROUNDS * 6 and len(app["games"][0]["rounds"]) == ROUNDS
    assert strip_times(app) == strip_times(cli)
    for path in (tmp_path / "cli.db", tmp_path / "app.db"):
        ratings = RatingService(open_database(str(path))).rating_list()
        assert len(ratings) == len(PLAYERS) and len({line.rating for line in ratings}) > 1   # EloDI changed
