"""Event day (issue 13 §5): a 12-player, 2-game event run through the app with Pilot, as
the judge's station does it, with every situation of the issue happening at least once:

* a wrong rack replaced from the console (III.29), by a rack typed by the judge;
* that rack has no valid move on the board: the console says so and the judge has it
  redrawn from the bag (III.29, third case);
* a conflict (two different slips for one table) refused at closing, then resolved from
  the console (II.4.a);
* the judge leaves the console with the round clock running and comes back to a new
  console: the clock has kept running (III.13);
* every slip of the event is typed ahead — table, Enter, move, Enter, for all the tables
  of a round with no pause at all — 100 slips and more;
* the database is locked by another program during a burst of slips: they wait in
  «Guardando…», are retried and all end stored;
* game 1 (12 rounds, V) is published final from the standings screen and changes the
  EloDI ratings; game 2 waits for that (IV.32), and the judge ends it with a reason
  (III.22).

Then the exported record is checked by the independent verifier and read for the events
above. Slow: it plays 14 rounds of 12 slips through the app.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Static

import duplicate.storage.database
from duplicate.record.verify import verify_record
from duplicate.service.facade import TournamentService
from duplicate.storage.database import open_database
from lexicon.lexicon import Lexicon
from ranking.ratings import RatingService
from ranking.service import tournament_service
from tests.credentials import JUDGE_PIN
from tests.tui.keys import send_without_pauses
from tests.tui.waiting import idle, until
from tui.app.application import DuplicadaApp
from tui.app.screens.entry import EntryScreen
from tui.app.screens.game_dialogs import ConfirmScreen
from tui.app.screens.judge import JudgeScreen
from tui.app.screens.judge_presenter import situation
from tui.app.screens.standings import StandingsScreen
from tui.app.widgets.moves import MoveChoices
from tui.app.widgets.timer import RoundClock

pytestmark = pytest.mark.slow

PLAYERS = ("Ana Pérez", "Ángel Núñez", "Beatriz Ñúñez", "Carmen Gil", "David Sanz", "Elena Ruiz",
           "Fernando Díaz", "Gloria Vidal", "Héctor Mora", "Inés Soler", "Jorge Lara", "Karina Ortiz")
# Valid under III.12 (2 vowels, 5 consonants) and with no valid move on an empty board
# (found with the default lexicon's generator; the console must say so).
UNPLAYABLE = "IIQLLRRZY"
WRONG = "H8-QZQZ"           # not a word: a valid slip to type, an invalid move (0 points)
FIRST_ROUNDS = 12           # a game that counts for EloDI (V)
CONFLICT_ROUND, LOCKED_ROUND, CLOCK_ROUND = 2, 3, 4


def said(console: JudgeScreen) -> str:
    return str(console.query_one("#message", Static).render())


class EventDay:
    """The judge's station during the event: console, slip entry, standings."""

    def __init__(self, app: DuplicadaApp, pilot: Pilot, path: Path) -> None:
        self.app, self.pilot, self.path = app, pilot, path
        self.service: TournamentService = app.service
        self.console = JudgeScreen(tick=None)
        self.typed_ahead = 0

    async def open_console(self) -> None:
        self.console = JudgeScreen(tick=None)
        await self.app.push_screen(self.console)
        await until(self.pilot, lambda: self.console.loaded and not self.console.busy)
        await idle(self.pilot)

    async def settled(self) -> None:
        await until(self.pilot, lambda: not self.console.busy)
        await idle(self.pilot)

    async def draw_and_place_master(self, game: int, number: int) -> str:
        await self.pilot.press("d")
        await until(self.pilot, lambda: self.console.state.rack_round == number and not self.console.busy)
        await idle(self.pilot)
        await self.place_master(game, number)
        return self.master(game)

    async def place_master(self, game: int, number: int) -> None:
        await self.pilot.press("enter", "s")                      # the III.15 master, confirmed
        await until(self.pilot, lambda: self.service.rounds(game)[-1].number == number
                    and self.service.rounds(game)[-1].master is not None and not self.console.busy)
        await idle(self.pilot)

    def master(self, game: int) -> str:
        master = self.service.rounds(game)[-1].master
        assert master is not None
        return master

    async def type_round_ahead(self, master: str, *, during: Callable[[EntryScreen], object] | None = None) -> None:
        """Leave the console for slip entry and type the round's slips with no pause:
        tables 1–10 the master, 11 an invalid move, 12 handed in no slip."""
        self.app.pop_screen()
        entry = EntryScreen()
        await self.app.push_screen(entry)
        await until(self.pilot, lambda: not entry.reading)
        await idle(self.pilot)
        slips = {table: master if table <= 10 else WRONG for table in range(1, 12)}
        keys: list[str] = []
        for table, text in slips.items():
            keys += [*str(table), "enter", *text, "enter"]
        before = entry.handled
        send_without_pauses(self.app, keys)
        if during is not None:
            await during(entry)
        await until(self.pilot, lambda: entry.handled >= before + len(slips) and not entry.pending
                    and not entry.reading)
        self.typed_ahead += len(slips)
        await idle(self.pilot)
        self.entry = entry

    async def back_to_console(self) -> None:
        self.app.pop_screen()
        await self.open_console()

    async def close_round(self, game: int, number: int) -> None:
        await until(self.pilot, lambda: self.console.status is not None
                    and self.console.status.round_number == number)
        await self.pilot.press("c")
        await self.pilot.pause()
        assert isinstance(self.app.screen, ConfirmScreen), said(self.console)
        await self.pilot.press("s")
        await until(self.pilot, lambda: self.service.rounds(game)[number - 1].closed and not self.console.busy)
        await idle(self.pilot)


def test_an_event_day_through_the_app(tmp_path: Path, spanish_lexicon: Lexicon,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    # Another program holding the database gives up after 0.2 s instead of 30 s, so that
    # the app's own retries («Guardando…») are what carries the slips through.
    monkeypatch.setattr(duplicate.storage.database, "BUSY_TIMEOUT_MS", 200)
    path = tmp_path / "evento.db"
    service = tournament_service(open_database(str(path)), station="mesa-arbitral", lexicon=spanish_lexicon,
                                 pin=JUDGE_PIN)
    service.create_tournament("Open del Día", venue="Zaragoza", judge_name="Lucía")
    for index, name in enumerate(PLAYERS):
        service.add_player(name, club="Club Duplicada", federation_id=f"E{index + 1:03d}")
    ratings_before = {line.name: line.rating for line in RatingService(open_database(str(path))).rating_list()}

    async def scenario() -> None:
        app = DuplicadaApp(service, station="mesa-arbitral", poll=False)
        async with app.run_test(size=(120, 40)) as pilot:
            app.state.tournament_id = service.tournament().id
            app.authenticate(JUDGE_PIN)
            day = EventDay(app, pilot, path)
            await day.open_console()
            await pilot.press("p", *str(FIRST_ROUNDS), "enter", *"2026", "enter", "enter")
            await until(pilot, lambda: day.console.state.game == 1 and not day.console.busy)

            # Round 1: a rack drawn, then replaced by the judge's typed one (wrong: it has
            # no move), which the console says and the judge has redrawn (III.29).
            await pilot.press("d")
            await until(pilot, lambda: day.console.state.rack_round == 1 and not day.console.busy)
            drawn = service.rounds(1)[0].rack
            await pilot.press("a", *UNPLAYABLE, "enter")
            await pilot.press(*"el atril que se leyó era otro", "enter")
            await day.settled()
            assert "cambiado (III.29): IIQ[LL][RR]ZY" in said(day.console)
            assert day.console.state.move_count == 0
            assert "no tiene ninguna jugada válida: cámbielo («x», III.29)" in situation(day.console.state)
            assert "«x» lo cambia" in day.console.query_one("#moves", MoveChoices).empty_text
            await pilot.press("enter")                                  # nothing to choose
            await pilot.pause()
            assert service.rounds(1)[0].master is None
            await pilot.press("x", *"ninguna jugada válida con este atril", "enter")
            await day.settled()
            assert service.rounds(1)[0].rack not in (drawn, "IIQLLRRZY") and day.console.state.move_count > 0
            await day.place_master(1, 1)

            for number in range(1, FIRST_ROUNDS + 1):
                if number == CLOCK_ROUND:
                    # The rack is read, the clock starts; the judge goes to slip entry and
                    # comes back to a new console: the clock has kept running (III.13).
                    await pilot.press("d")
                    await until(pilot, lambda: day.console.state.rack_round == number and not day.console.busy)
                    await pilot.press("t")
                    await until(pilot, lambda: service.timer_state(1) is not None and service.timer_state(1)[2])
                    app.pop_screen()
                    await app.push_screen(EntryScreen())
                    await idle(pilot)
                    await day.back_to_console()
                    clock = day.console.query_one("#clock", RoundClock)
                    assert clock.timer.running and clock.timer.remaining() < 180
                    await day.place_master(1, number)
                master = day.master(1) if number in (1, CLOCK_ROUND) else await day.draw_and_place_master(1, number)
                locker: list[sqlite3.Connection] = []

                async def lock_meanwhile(entry: EntryScreen) -> None:
                    # Another program holds the database; the slips wait and are retried.
                    await until(pilot, lambda: "reintento" in str(entry.query_one("#saving").render()))
                    assert "Guardando" in str(entry.query_one("#saving").render())
                    locker[0].rollback()
                    locker[0].close()

                if number == LOCKED_ROUND:
                    connection = sqlite3.connect(path, isolation_level=None)
                    connection.execute("BEGIN EXCLUSIVE")
                    locker.append(connection)
                await day.type_round_ahead(master, during=lock_meanwhile if number == LOCKED_ROUND else None)
                assert len(service.slips(1, number)) == 11, f"round {number}"
                if number == CONFLICT_ROUND:
                    entry = day.entry
                    await pilot.press("5", "enter", *WRONG, "enter")    # a second, different slip
                    await until(pilot, lambda: not entry.pending and not entry.reading)
                    assert len(service.conflicts(1)) == 1
                await day.back_to_console()
                if number == CONFLICT_ROUND:
                    await until(pilot, lambda: day.console.status is not None and bool(day.console.status.pending))
                    await pilot.press("c")                              # refused: a conflict is pending
                    await pilot.pause()
                    assert "1 conflicto pendiente" in said(day.console) and app.screen is day.console
                    await pilot.press("r", "enter", *"la papeleta dice la maestra", "enter")
                    await day.settled()
                    assert "resuelto" in said(day.console) and service.conflicts(1) == []
                await day.close_round(1, number)

            # Game 1 is over; game 2 waits for its published results (IV.32).
            await until(pilot, lambda: day.console.state.over)
            assert day.console.state.unpublished == 1
            app.pop_screen()
            standings = StandingsScreen(1)
            await app.push_screen(standings)
            await idle(pilot)
            await pilot.press("p")
            await idle(pilot)
            await pilot.press("d", "s")                                 # final, confirmed (issue 35 §4)
            await until(pilot, lambda: service.tournament().games[0].status == "final")
            await idle(pilot)
            app.pop_screen()
            await day.open_console()
            assert day.console.state.unpublished is None
            await pilot.press("p", "enter", *"7", "enter", "enter")      # the whole bag, seed 7
            await until(pilot, lambda: day.console.state.game == 2 and not day.console.busy)
            for number in (1, 2):
                master = await day.draw_and_place_master(2, number)
                await day.type_round_ahead(master)
                await day.back_to_console()
                await day.close_round(2, number)
            await pilot.press("f", *"se acaba el tiempo del local", "enter")
            await day.settled()
            assert day.console.state.over
            assert day.typed_ahead >= 100

    asyncio.run(scenario())

    # The exported record, as the file holds it, passes the independent verifier …
    record = json.loads(json.dumps(service.export()))
    assert verify_record(record, spanish_lexicon) == []
    events = record["events"]
    kinds = [event["kind"] for event in events]
    # … and holds each situation: the replaced racks with their reasons (III.29) …
    replaced = [event for event in events if event["payload"].get("replaces")]
    assert [event["reason"] for event in replaced] == ["el atril que se leyó era otro",
                                                       "ninguna jugada válida con este atril"]
    assert replaced[0]["payload"]["rack"] == "IIQLLRRZY" and replaced[1]["payload"]["replaces"] == "IIQLLRRZY"
    # … the conflict and its resolution (II.4.a), the shared clock (III.13) …
    assert "conflict_resolved" in kinds and "timer" in {kind.split("_")[0] for kind in kinds}
    # … every slip typed, once: 11 per round, 14 rounds, none lost or doubled …
    games = {game["number"]: game for game in record["games"]}
    assert [len(game["rounds"]) for game in games.values()] == [FIRST_ROUNDS, 2]
    slips = [(game["number"], round_["number"], slip["table"])
             for game in record["games"] for round_ in game["rounds"] for slip in round_["slips"]]
    assert len(slips) == len(set(slips))
    entered = [slip for slip in slips if slip[2] <= 11]
    assert len(entered) == 11 * (FIRST_ROUNDS + 2)
    # … game 2 ended by the judge with the reason (III.22), game 1 final and rated (V).
    assert "se acaba el tiempo del local" in (games[2]["end_reason"] or "")
    assert games[1]["status"] == "final"
    ratings_after = {line.name: line.rating for line in RatingService(open_database(str(path))).rating_list()}
    assert set(ratings_after) == set(PLAYERS) and ratings_after != ratings_before
