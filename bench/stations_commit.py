"""Slip entry with several stations at once: how long each slip takes, call to return (issue 36 §5).

Eight assistant stations (``--stations``), each its own process with its own database
connection and its own assistant PIN for a range of tables, enter the slips of one
tournament of ``--tables`` players through ``TournamentService.enter_slip``, as fast as
they can (no typing pause: the worst case, every station waiting on the others), for
``--rounds`` rounds. Between rounds the judge (this process) closes the round, draws the
next rack and places its master; the stations then start the round together. Every
station signs in before the first round (as the app's sign-in screen does), so the
scrypt of its PIN is not in the figures; ``--cold`` leaves the sign-in to the first slip.

Each slip's wall time, from the call to its return (what the assistant waits for: the
judging, the write transaction, waiting for the other stations' and the commit), is
measured in the station and reported as mean / p50 / p95 / p99 / max over all slips,
with the outcomes (every slip must be ``accepted`` exactly once), the stations' CPU time
and the load average. Where the time goes, per slip (p50 / p99 / max), from the engine's
events in the station: ``before`` the write lock is asked for (the read transaction, the
judging), the ``wait`` for it (SQLite: ``BEGIN IMMEDIATE``; PostgreSQL: the tournament's
advisory lock taken by ``authorise``), ``held`` (the write transaction's statements up to
``COMMIT``) and ``commit`` (``COMMIT``, its fsync, to the return); and how many
statements each slip ran.

Usage: ``python bench/stations_commit.py [--db sqlite|postgresql|URL] [--stations 8]
[--tables 160] [--rounds 3] [--runs 1] [--scrypt-n 16384] [--cold] [--pause MS]``. ``sqlite`` (the
default): a fresh file in a temporary folder; ``postgresql``: a fresh database on
127.0.0.1:5432 (user postgres), dropped afterwards; a URL: an empty database to use.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sqlalchemy import Connection, Engine, event

from bench.scratch_databases import scratch_database
from duplicate.service.access import TEST_SCRYPT_N_VARIABLE
from duplicate.service.facade import TournamentService
from duplicate.storage.database import open_database
from lexicon.default import default_lexicon_path
from lexicon.lexicon import Lexicon

JUDGE_PIN = "juez-de-los-puestos"
WRONG_WORD = "H8-QZQZ"


@contextmanager
def database(kind: str) -> Iterator[str]:
    """A fresh, empty database URL for ``kind`` (``sqlite``, ``postgresql`` or a URL, used as it is)."""
    if kind not in ("sqlite", "postgresql"):
        yield kind
        return
    with scratch_database(kind, "puestos") as url:
        yield url


def station_pin(index: int) -> str:
    return f"auxiliar-{index:02d}-mesas"


# --- one station (a process of its own) ---------------------------------------------------------
class Phases:
    """Where one slip's time goes, from the engine's events: before the write lock (the
    read transaction, the judging), waiting for the lock (``BEGIN IMMEDIATE`` on SQLite, the
    tournament's advisory lock on PostgreSQL), holding it (the statements of the write
    transaction) and the commit to the return; with the number of statements run."""

    def __init__(self, engine: Engine) -> None:
        self.reset()
        event.listen(engine, "before_cursor_execute", self._before)
        event.listen(engine, "after_cursor_execute", self._after)
        event.listen(engine, "commit", self._commit)
        event.listen(engine, "begin", self._begin)
        event.listen(engine.pool, "checkout", self._checkout)

    def _checkout(self, *_: object) -> None:
        self.checked_out = time.perf_counter()

    def _begin(self, connection: Connection) -> None:
        if connection.get_execution_options().get("immediate_transaction"):      # SQLite's write lock taken
            self.lock_asked, self.lock_held = self.checked_out, time.perf_counter()

    def reset(self) -> None:
        self.lock_asked = self.lock_held = self.committing = self.checked_out = 0.0
        self.statements = 0

    def _before(self, _connection: object, _cursor: object, statement: str, *_: object) -> None:
        self.statements += 1
        if "pg_advisory_xact_lock" in statement and not self.lock_asked:    # the first: authorise's
            self.lock_asked = time.perf_counter()

    def _after(self, _connection: object, _cursor: object, statement: str, *_: object) -> None:
        if "pg_advisory_xact_lock" in statement and not self.lock_held:
            self.lock_held = time.perf_counter()

    def _commit(self, _connection: object) -> None:
        if self.lock_held:
            self.committing = time.perf_counter()

    def split(self, started: float, ended: float) -> dict[str, float | int]:
        if not (self.lock_asked and self.lock_held and self.committing):
            return {"statements": self.statements}
        return {"before_s": self.lock_asked - started, "wait_s": self.lock_held - self.lock_asked,
                "held_s": self.committing - self.lock_held, "commit_s": ended - self.committing,
                "statements": self.statements}


def station(url: str, index: int, game: int, first: int, last: int, cold: bool, pause: float) -> None:
    """Wait for ``go ROUND`` lines on stdin; enter the slips of tables ``first``–``last`` in a
    shuffled order; print one JSON line per slip, then ``done``."""
    lexicon = Lexicon.load(default_lexicon_path(None))
    service = TournamentService(open_database(url), station=f"puesto{index}", lexicon=lexicon,
                                pin=station_pin(index))
    if not cold:
        service.sign_in()
    phases = Phases(service.db.engine)
    rng = random.Random(index)
    print("ready", flush=True)
    ready = resource.getrusage(resource.RUSAGE_SELF)
    for line in sys.stdin:
        command, round_number, master = line.rstrip("\n").split("\t")
        if command != "go":
            break
        tables = list(range(first, last + 1))
        rng.shuffle(tables)
        for table in tables:
            text = WRONG_WORD if table % 5 == 0 else master
            phases.reset()
            started = time.perf_counter()
            result = service.enter_slip(game, table, text, round_number=int(round_number))
            ended = time.perf_counter()
            print(json.dumps({"round": int(round_number), "table": table, "seconds": ended - started,
                              "outcome": result.outcome, **phases.split(started, ended)}), flush=True)
            if pause:
                time.sleep(pause)
        used = resource.getrusage(resource.RUSAGE_SELF)
        print(f"done {used.ru_utime + used.ru_stime - ready.ru_utime - ready.ru_stime}", flush=True)


# --- the judge and the figures ---------------------------------------------------------------------
def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered) + 0.5) - 1))]


def run(url: str, stations: int, tables: int, rounds: int, cold: bool, pause: float) -> Figures:
    lexicon = Lexicon.load(default_lexicon_path(None))
    judge = TournamentService(open_database(url), station="juez", lexicon=lexicon, pin=JUDGE_PIN)
    judge.create_tournament("Puestos a la vez")
    for number in range(tables):
        judge.add_player(f"Jugador {number:03d}")
    share = -(-tables // stations)
    spans = [(1 + index * share, min(tables, (index + 1) * share)) for index in range(stations)]
    for index, (first, last) in enumerate(spans):
        judge.set_pin("assistant", station_pin(index), name=f"aux{index}")
        judge.set_assistant_range(f"aux{index}", first, last)
    game = judge.create_game(seed=36, rounds=rounds)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    processes = [subprocess.Popen([sys.executable, __file__, "--station", url, str(index), str(game), str(first),
                                   str(last), "1" if cold else "0", str(pause)],
                                  cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
                 for index, (first, last) in enumerate(spans)]
    for process in processes:
        assert process.stdout is not None and process.stdout.readline().strip() == "ready"
    samples: list[dict[str, object]] = []
    cpu: dict[int, float] = {}
    wall = 0.0
    for _ in range(rounds):
        judge.draw_rack(game)
        view = judge.choose_master(game)
        assert view.master is not None
        started = time.perf_counter()
        for process in processes:
            assert process.stdin is not None
            process.stdin.write(f"go\t{view.number}\t{view.master}\n")
            process.stdin.flush()
        for index, process in enumerate(processes):
            assert process.stdout is not None
            for line in process.stdout:
                if line.startswith("done"):
                    cpu[index] = float(line.split()[1])
                    break
                samples.append(json.loads(line))
        wall += time.perf_counter() - started
        judge.close_round(game, view.number)
    for process in processes:
        assert process.stdin is not None
        process.stdin.close()
        process.wait(timeout=60)
    stored = sum(len(judge.slips(game, number)) for number in range(1, rounds + 1))
    judge.db.dispose()
    return Figures(samples, stored, wall, sum(cpu.values()))


@dataclass
class Figures:
    """One run: the stations' samples (one dict per slip), the slips stored, the wall
    seconds of the rounds' entry and the stations' CPU seconds while entering."""

    samples: list[dict[str, object]]
    stored: int
    wall: float
    cpu: float

    def values(self, key: str) -> list[float]:
        return [float(str(sample[key])) for sample in self.samples if key in sample]

    def summary(self) -> dict[str, float]:
        """mean, p50, p95, p99 and max of the slips' wall time, in ms."""
        seconds = self.values("seconds")
        return {"mean": 1000 * statistics.fmean(seconds), "p50": 1000 * statistics.median(seconds),
                "p95": 1000 * percentile(seconds, 0.95), "p99": 1000 * percentile(seconds, 0.99),
                "max": 1000 * max(seconds)}

    def report(self) -> list[str]:
        outcomes = dict(Counter(str(sample["outcome"]) for sample in self.samples))
        statements = dict(Counter(int(str(sample["statements"])) for sample in self.samples))
        lines = [f"  slips {len(self.samples)} (stored {self.stored}), outcomes {outcomes}, wall {self.wall:.1f} s, "
                 f"stations' CPU {self.cpu:.1f} s (entering only)",
                 "  per slip, call to return: " + ", ".join(f"{key} {value:.1f} ms"
                                                            for key, value in self.summary().items())]
        for phase in ("before", "wait", "held", "commit"):
            values = self.values(f"{phase}_s")
            if values:
                lines.append(f"    {phase:7} p50 {1000 * statistics.median(values):7.1f} ms, "
                             f"p99 {1000 * percentile(values, 0.99):7.1f} ms, max {1000 * max(values):7.1f} ms")
        lines.append(f"  statements per slip (statements: slips) {statements}")
        return lines


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--station":
        url, index, game, first, last, cold, pause = sys.argv[2:9]
        station(url, int(index), int(game), int(first), int(last), cold == "1", float(pause))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", default="sqlite", help="sqlite (default), postgresql, or an empty database's URL")
    parser.add_argument("--stations", type=int, default=8)
    parser.add_argument("--tables", type=int, default=160)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--runs", type=int, default=1, help="runs, each on a fresh database (sqlite, postgresql)")
    parser.add_argument("--scrypt-n", type=int, default=2**14, help="scrypt N of the PINs (the product's: 16384)")
    parser.add_argument("--cold", action="store_true", help="no sign-in before the first slip (its scrypt is in it)")
    parser.add_argument("--pause", type=float, default=0.0, help="ms each station waits after a slip (typing)")
    options = parser.parse_args()
    os.environ[TEST_SCRYPT_N_VARIABLE] = str(options.scrypt_n)
    p99s = []
    for _ in range(options.runs):
        load = os.getloadavg()
        with database(options.db) as url:
            figures = run(url, options.stations, options.tables, options.rounds, options.cold, options.pause / 1000)
        kind = options.db if options.db in ("sqlite", "postgresql") else url.split(":", 1)[0]
        print(f"{kind}: {options.stations} stations, {options.tables} tables × {options.rounds} rounds"
              f"{', cold' if options.cold else ''}; load average before {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}, "
              f"after {os.getloadavg()[0]:.2f}")
        print("\n".join(figures.report()), flush=True)
        p99s.append(figures.summary()["p99"])
    if len(p99s) > 1:
        print(f"p99 over {len(p99s)} runs: " + ", ".join(f"{value:.0f}" for value in p99s) + " ms")


if __name__ == "__main__":
    main()
