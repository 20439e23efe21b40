"""Benchmark of the slip entry screen (issue 4 §5: slip feedback ≤ 100 ms after Enter).

Drives ``tui.app.screens.entry.EntryScreen`` with Pilot on a SQLite file: a game of
``--tables`` players, round 2 (a word already on the board), and for every table the
table number, Enter, a slip, Enter — a mix of valid and faulty slips (the master, the
coordinate's order swapped, blanks not marked, an invalid word, unreadable text) so the
service's hint searches run too. Timed per slip: from pressing the final Enter to the
feedback widget updated with that slip's verdict (the service call runs in the screen's
worker thread). For comparison, the same ``enter_slip`` called directly.

Usage: ``python bench/tui_entry.py [--tables 50] [--seed 99] [--inline]``.
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
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from duplicate.service.facade import TournamentService
from duplicate.storage.database import open_database
from lexicon.default import default_lexicon_path
from lexicon.lexicon import Lexicon
from tui.app.application import DuplicadaApp
from tui.app.screens.entry import EntryScreen
from tui.app.widgets.slip_feedback import SlipFeedback


def seed_game(service: TournamentService, tables: int, seed: int) -> list[str]:
    """A tournament of ``tables`` players, game 1 at round 2 with its master; returns the
    slip texts to type (one per table)."""
    service.create_tournament("Banco de pruebas")
    for index in range(tables):
        service.add_player(f"Jugador {index + 1:03d}")
    game = service.create_game(seed=seed)
    for _ in range(2):
        assert service.draw_rack(game) is not None
        view = service.choose_master(game)
    assert view.master is not None
    coordinate, word = view.master.split("-")
    swapped = coordinate[1:] + coordinate[0] if coordinate[0].isalpha() else coordinate[-1] + coordinate[:-1]
    texts = [view.master, view.master, f"{swapped}-{word}", f"{coordinate}-{word.upper()}",
             f"{coordinate}-{word}Z", "H8 CASA", view.master.lower()]
    rng = random.Random(seed)
    return [rng.choice(texts) for _ in range(tables)]


async def drive(service: TournamentService, texts: list[str], size: tuple[int, int],
                threaded: bool = True, cpu: list[float] | None = None) -> tuple[list[float], list[float]]:
    """Type every slip; returns the seconds from Enter to the feedback set, and to the
    first frame drawn after it (and appends to ``cpu`` the process's CPU seconds, every
    thread, from Enter to that frame: a figure a busy machine moves less). The waits are
    events, not polling, so the benchmark does not compete with the worker thread for the
    interpreter."""
    app = DuplicadaApp(service, poll=False)
    marks: dict[str, float] = {}
    reported = asyncio.Event()
    drawn = asyncio.Event()
    display = app._display

    def timed_display(screen, renderable):  # type: ignore[no-untyped-def]
        display(screen, renderable)
        if renderable is not None and reported.is_set() and not drawn.is_set():
            marks["drawn"] = time.perf_counter()
            marks["drawn_cpu"] = time.process_time()
            drawn.set()

    app._display = timed_display  # type: ignore[method-assign]
    updated: list[float] = []
    painted: list[float] = []
    async with app.run_test(size=size) as pilot:
        app.state.tournament_id = service.tournament().id
        app.state.role, app.state.arbiter = "assistant", "banco"
        await app.push_screen(EntryScreen(threaded=threaded))
        screen = app.screen
        assert isinstance(screen, EntryScreen)
        while screen.reading:                          # the lists are read in worker threads
            await pilot.pause(0.01)
        await app.workers.wait_for_complete()          # and the lexicon loaded (the warm-up)
        feedback = screen.query_one(SlipFeedback)
        report_slip = screen._report

        def timed_report(job, outcome):  # type: ignore[no-untyped-def]
            report_slip(job, outcome)
            marks["reported"] = time.perf_counter()
            reported.set()

        screen._report = timed_report  # type: ignore[method-assign]
        for table, text in enumerate(texts, start=1):
            await pilot.press(*str(table), "enter", *text)
            await pilot.pause()
            reported.clear()
            drawn.clear()
            started, started_cpu = time.perf_counter(), time.process_time()
            await pilot.press("enter")
            await reported.wait()
            await drawn.wait()
            updated.append(marks["reported"] - started)
            painted.append(marks["drawn"] - started)
            if cpu is not None:
                cpu.append(marks["drawn_cpu"] - started_cpu)
            if os.environ.get("BENCH_VERBOSE"):
                print(f"{table:>3} {text:<24} {1000 * updated[-1]:7.1f} ms")
            assert feedback.feedback is not None and f"Mesa {table} " in feedback.feedback.headline
            await pilot.pause()
    return updated, painted


def report(label: str, seconds: list[float]) -> None:
    ms = sorted(value * 1000 for value in seconds)
    p99 = ms[min(len(ms) - 1, round(0.99 * (len(ms) - 1)))]
    print(f"{label:<44} n={len(ms):3d}  mean {statistics.fmean(ms):6.1f} ms  p50 {statistics.median(ms):6.1f} ms  "
          f"p99 {p99:6.1f} ms  max {ms[-1]:6.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seed", type=int, default=99)
    parser.add_argument("--inline", action="store_true", help="service calls in the event loop, not a worker")
    args = parser.parse_args()
    lexicon = Lexicon.load(default_lexicon_path(None))
    with tempfile.TemporaryDirectory() as folder:
        service = TournamentService(open_database(str(Path(folder) / "bench.db")), station="banco", lexicon=lexicon, pin="juez-del-banco")
        texts = seed_game(service, args.tables, args.seed)
        cpu: list[float] = []
        updated, painted = asyncio.run(drive(service, texts, (120, 40), threaded=not args.inline, cpu=cpu))
        for number in (1, 2):                          # game 1 closed and ended, as III.22 asks
            service.close_round(1, number)
        service.end_game(1, reason="banco de pruebas")
        service.publish(1)                             # IV.32: results before the next game
        service.create_game(seed=args.seed)            # a second game, same racks: the service alone
        for _ in range(2):
            service.draw_rack(2)
            service.choose_master(2)
        direct = []
        for table, text in enumerate(texts, start=1):
            started = time.perf_counter()
            service.enter_slip(2, table, text)
            direct.append(time.perf_counter() - started)
    mode = "in the event loop" if args.inline else "in a worker thread"
    print(f"{args.tables} slips, round 2, SQLite file, service calls {mode}, 120×40; "
          f"load average {os.getloadavg()[0]:.1f}")
    report("Enter → feedback widget updated", updated)
    report("Enter → first frame drawn with it", painted)
    report("  CPU meanwhile (process, every thread)", cpu)
    report("enter_slip alone (judge + store + commit)", direct)


if __name__ == "__main__":
    main()
