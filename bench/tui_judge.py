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

``--open N`` measures instead how soon the console opens (issue 38, goal ≤ 0.3 s): a
60-player game is built once (rounds 1–2 played, 60 slips entered, round 1 closed, the
rack of round 3 drawn, its moves not yet generated), then N fresh app processes each sign
in as the judge through the PIN screen, reach the menu and press Intro on «Consola del juez
árbitro»; timed from that key to the console loaded (the game read) and to the first frame
drawn with it, with the process's CPU time meanwhile. Two ways each run: right after the
menu appears (``now``), and once the app's workers are done (``menu read``: a judge who
reads the menu first). ``--tree DIR`` (twice: before and after, runs alternating) runs
another checkout's app on the same database.
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


OPEN_CHILD = r"""
import asyncio, json, sys, time
from ranking.service import open_tournament_service
from textual.widgets import OptionList
from tui.app.application import DuplicadaApp
from tui.app.screens.home import HomeScreen
from tui.app.screens.signin import SignInScreen

database, pin, wait = sys.argv[1], sys.argv[2], sys.argv[3] == "wait"
service, _ = open_tournament_service(database, station="banco")
app = DuplicadaApp(service, poll=False)
marks = {}
display = app._display

def timed_display(screen, renderable):
    display(screen, renderable)
    if renderable is not None and "loaded" in marks and "painted" not in marks:
        marks["painted"] = time.perf_counter()

app._display = timed_display

async def main():
    async with app.run_test(size=(120, 40)) as pilot:
        app.open_tournament(service.tournaments()[-1].id)
        while not (isinstance(app.screen, SignInScreen) and app.screen.is_mounted):
            await pilot.pause()
        await pilot.press(*pin, "enter")
        while not (isinstance(app.screen, HomeScreen) and app.screen.is_mounted):
            await asyncio.sleep(0.002)
        if wait:
            await app.workers.wait_for_complete()
        menu = app.screen.query_one("#menu", OptionList)
        menu.highlighted = next(i for i in range(menu.option_count) if menu.get_option_at_index(i).id == "judge")
        await pilot.pause()
        cpu, started = time.process_time(), time.perf_counter()
        press = asyncio.get_running_loop().create_task(pilot.press("enter"))
        while not getattr(app.screen, "loaded", False):
            await asyncio.sleep(0.001)
        marks["loaded"] = time.perf_counter()
        while "painted" not in marks:
            await asyncio.sleep(0.001)
        used = time.process_time() - cpu
        await press
        print(json.dumps({"loaded": marks["loaded"] - started, "painted": marks["painted"] - started, "cpu": used}))

asyncio.run(main())
"""
"""The child of ``--open``: one app process, signed in, opening the console (see the module doc)."""

PIN = "juez-del-banco"


def build_open_game(path: Path, seed: int) -> None:
    """The ``--open`` game: 60 players, rounds 1–2 with masters, round 2's 60 slips
    entered, round 1 closed, round 3's rack drawn (moves not generated yet)."""
    from tui_entry import seed_game

    service = TournamentService(open_database(str(path)), station="banco", lexicon=Lexicon.load(default_lexicon_path(None)),
                                pin=PIN)
    texts = seed_game(service, 60, seed)
    for table, text in enumerate(texts, start=1):
        service.enter_slip(1, table, text)
    service.close_round(1, 1)
    service.draw_rack(1)


def open_runs(runs: int, trees: list[Path], seed: int) -> None:
    """``--open``: the console opened in ``runs`` fresh processes per tree and way, alternating."""
    import json
    import subprocess

    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    with tempfile.TemporaryDirectory() as directory:
        database = Path(directory) / "open.db"
        build_open_game(database, seed)
        print(f"{os.cpu_count()} cores; load average {os.getloadavg()[0]:.1f}; {runs} runs per tree and way", flush=True)
        times: dict[tuple[Path, str], list[dict[str, float]]] = {}
        for run in range(runs + 1):                      # the first round warms the caches, not counted
            for tree in trees:
                for way in ("now", "wait"):
                    result = subprocess.run([sys.executable, "-c", OPEN_CHILD, str(database), PIN, way], cwd=tree,
                                            env=dict(env, PYTHONPATH=str(tree)), capture_output=True, text=True,
                                            check=False)
                    if result.returncode != 0:
                        raise SystemExit(f"the app of {tree} failed: {result.stderr[-800:]}")
                    if run:
                        times.setdefault((tree, way), []).append(json.loads(result.stdout.strip().splitlines()[-1]))
    names = {"now": "right after the menu", "wait": "menu read (workers done)"}
    print(f"{'tree':<28} {'way':<26} {'loaded best/median ms':>22} {'painted best/median ms':>23} {'CPU median ms':>14}")
    for (tree, way), rows in times.items():
        loaded = sorted(row["loaded"] * 1000 for row in rows)
        painted = sorted(row["painted"] * 1000 for row in rows)
        cpu = statistics.median(row["cpu"] * 1000 for row in rows)
        print(f"{str(tree)[-28:]:<28} {names[way]:<26} {loaded[0]:9.0f} / {statistics.median(loaded):6.0f}     "
              f"{painted[0]:9.0f} / {statistics.median(painted):6.0f} {cpu:14.0f}")
    print(f"load average now {os.getloadavg()[0]:.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--draws", type=int, default=10)
    parser.add_argument("--later", type=int, default=6)
    parser.add_argument("--open", type=int, default=0, metavar="N", help="time the console's opening, N runs")
    parser.add_argument("--tree", type=Path, action="append", default=None, help="with --open: another checkout")
    args = parser.parse_args()
    if args.open:
        open_runs(args.open, args.tree or [Path(__file__).resolve().parent.parent], 99)
        return
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
