"""Benchmark of the judge's console (issue 4 §5): how soon the move list appears after
the rack is set, and whether the interface stalls meanwhile.

Drives the real app with Textual's Pilot (headless) on a temporary SQLite file and the
default lexicon, and measures, for each rack, from the key that sets it (``d``, or
Enter in the rack field) to

* **tops**: the top moves shown in the list (the service has drawn or checked the
  rack, generated every move and ranked the top ones by III.15, in a worker thread);
* **list**: the next best scores shown too (a second search, in another worker);
* **stall**: the longest the event loop went without running a 5 ms timer meanwhile
  (what the judge would feel as a frozen interface).

Racks: ``--draws`` racks drawn with ``d`` in a seeded game (the master of each placed
with Enter), the two-blank rack ``AE??RST`` typed on an empty board, and a two-blank
rack typed after ``--later`` rounds (the leftover tiles, two blanks and letters from
the bag, typed as spaced tiles).

Usage: ``python bench/tui_judge.py [--seed N] [--draws N] [--later N]``.
Set ``DUPLICADA_PURE_PYTHON=1`` to measure the pure-Python move generator.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Self

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from textual.pilot import Pilot

from duplicate.service.errors import TournamentError
from duplicate.service.facade import TournamentService
from duplicate.storage.database import open_database
from lexicon.default import default_lexicon_path
from lexicon.lexicon import Lexicon
from lexicon.movegen import walker_name
from tui.app.application import DuplicadaApp
from tui.app.screens.judge import JudgeScreen

Row = tuple[str, float, float, float, int, int]
"""``(label, tops seconds, list seconds, worst stall seconds, top moves, legal moves)``."""


class StallMeter:
    """Runs a 5 ms timer on the event loop and keeps the longest gap between ticks."""

    def __init__(self) -> None:
        self.worst = 0.0
        self._task: asyncio.Task[None] | None = None

    async def _run(self) -> None:
        last = time.perf_counter()
        while True:
            await asyncio.sleep(0.005)
            now = time.perf_counter()
            self.worst = max(self.worst, now - last - 0.005)
            last = now

    def __enter__(self) -> Self:
        self._task = asyncio.get_running_loop().create_task(self._run())
        return self

    def __exit__(self, *_: object) -> None:
        assert self._task is not None
        self._task.cancel()


async def wait(condition: Callable[[], bool], timeout: float = 60.0) -> float:
    """Poll ``condition`` every 2 ms; returns the time it became true (perf_counter)."""
    deadline = time.perf_counter() + timeout
    while not condition():
        if time.perf_counter() > deadline:
            raise TimeoutError("the console did not answer in time")
        await asyncio.sleep(0.002)
    return time.perf_counter()


async def measure(pilot: Pilot, screen: JudgeScreen, label: str, keys: list[str], trigger: str) -> Row:
    """Press ``keys`` (not timed), then ``trigger`` (timed) and wait for the list."""
    if keys:
        await pilot.press(*keys)
    target = screen.state.round_number
    with StallMeter() as meter:
        start = time.perf_counter()
        # Pilot.press waits until the app is idle: run it aside and watch the list meanwhile.
        press = asyncio.get_running_loop().create_task(pilot.press(trigger))
        tops = await wait(lambda: not screen.busy and screen.state.rack_round == target)
        if screen.state.tops:
            done = await wait(lambda: screen.scores_round == target)
        else:
            done = tops
        await press
    return (label, tops - start, done - start, meter.worst, screen.state.top_total, screen.state.move_count)


async def place_master(pilot: Pilot, screen: JudgeScreen) -> None:
    await pilot.press("enter", "s")
    await wait(lambda: not screen.busy and screen.state.rack_round is None)


def typed_rack(service: TournamentService, tournament_id: int, rng: random.Random) -> str:
    """Leftover tiles + two blanks + letters from the bag, as spaced tiles."""
    engine = service.engine(service.current_game(tournament_id), tournament_id)
    alphabet = engine.alphabet
    leftover = [alphabet.symbol(tile) for tile in engine.leftover]
    letters = [alphabet.symbol(tile) for tile in engine.bag.tiles if tile != alphabet.blank]
    vowels = [symbol for symbol in letters if symbol in "AEIOU"]
    consonants = [symbol for symbol in letters if symbol not in "AEIOU"]
    for _ in range(200):
        need = 7 - len(leftover) - 2
        extra = [rng.choice(vowels) if index % 2 else rng.choice(consonants) for index in range(need)]
        text = " ".join(leftover + ["?", "?"] + extra)
        counts = {symbol: letters.count(symbol) for symbol in set(extra)}
        if all(extra.count(symbol) <= counts[symbol] for symbol in counts):
            return text
    raise RuntimeError("no rack found")


async def open_console(app: DuplicadaApp, pilot: Pilot, name: str, seed: int) -> JudgeScreen:
    """A new tournament with one seeded game, and the console on it."""
    service: TournamentService = app.service
    tournament_id = service.create_tournament(name)
    service.create_game(tournament_id=tournament_id, seed=seed)
    if isinstance(app.screen, JudgeScreen):
        await pilot.press("escape")
    app.state.tournament_id = tournament_id
    app.state.role, app.state.arbiter = "judge", "banco"
    screen = JudgeScreen(clock=lambda: 0.0, tick=None)
    await app.push_screen(screen)
    await wait(lambda: screen.loaded)
    return screen


async def scenario(service: TournamentService, seed: int, draws: int, later: int) -> list[Row]:
    rows: list[Row] = []
    rng = random.Random(seed)
    app = DuplicadaApp(service, poll=False)
    async with app.run_test(size=(120, 40)) as pilot:
        opened = time.perf_counter()
        screen = await open_console(app, pilot, "AE??RST", seed)
        await app.workers.wait_for_complete()
        print(f"console open and generator loaded in {time.perf_counter() - opened:.2f} s", flush=True)

        # 1. AE??RST typed on an empty board.
        rows.append(await measure(pilot, screen, "typed AE??RST, empty board", ["a", *"AE??RST"], "enter"))
        # 2. Drawn racks in a seeded game, each master placed with Enter.
        screen = await open_console(app, pilot, "drawn", seed)
        for number in range(1, draws + 1):
            if screen.state.over:
                break
            rows.append(await measure(pilot, screen, f"drawn, round {number}", [], "d"))
            if screen.state.tops:
                await place_master(pilot, screen)
        # 3. Two blanks typed on a later board: `later` rounds typed through the service
        #    first, keeping the blanks in the bag.
        tournament_id = service.create_tournament("later")
        service.create_game(tournament_id=tournament_id, seed=seed + 1)
        for _ in range(later):
            for _attempt in range(50):
                engine = service.engine(1, tournament_id)
                alphabet = engine.alphabet
                pool = [alphabet.symbol(tile) for tile in engine.bag.tiles if tile != alphabet.blank]
                left = [alphabet.symbol(tile) for tile in engine.leftover]
                try:
                    service.set_rack(1, " ".join(left + rng.sample(pool, 7 - len(left))), tournament_id=tournament_id)
                    break
                except TournamentError:
                    continue
            service.choose_master(1, tournament_id=tournament_id)
        await pilot.press("escape")
        app.state.tournament_id = tournament_id
        screen = JudgeScreen(clock=lambda: 0.0, tick=None)
        await app.push_screen(screen)
        await wait(lambda: screen.loaded)
        text = typed_rack(service, tournament_id, rng)
        rows.append(await measure(pilot, screen, f"typed {text.replace(' ', '')}, after {later} rounds",
                                  ["a", *text], "enter"))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--draws", type=int, default=10)
    parser.add_argument("--later", type=int, default=6)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        lexicon = Lexicon.load(default_lexicon_path(None))
        service = TournamentService(open_database(f"sqlite:///{Path(directory) / 'bench.db'}"), lexicon=lexicon, pin="juez-del-banco")
        print(f"move generator: {walker_name()}; {os.cpu_count()} cores; "
              f"load average {os.getloadavg()[0]:.1f}", flush=True)
        rows = asyncio.run(scenario(service, args.seed, args.draws, args.later))
    print(f"{'rack':<44} {'tops ms':>8} {'list ms':>8} {'stall ms':>9} {'tops':>6} {'moves':>7}")
    for label, tops, listed, stall, top_count, moves in rows:
        print(f"{label:<44} {tops * 1000:8.0f} {listed * 1000:8.0f} {stall * 1000:9.0f} {top_count:6d} {moves:7d}")
    drawn = [row for row in rows if row[0].startswith("drawn")]
    if drawn:
        print(f"drawn racks: tops median {statistics.median(r[1] for r in drawn) * 1000:.0f} ms, "
              f"max {max(r[1] for r in drawn) * 1000:.0f} ms; list median "
              f"{statistics.median(r[2] for r in drawn) * 1000:.0f} ms, max {max(r[2] for r in drawn) * 1000:.0f} ms; "
              f"worst stall {max(r[3] for r in drawn) * 1000:.0f} ms")
    print(f"load average now {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
