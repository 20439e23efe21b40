"""Before and after a change, interleaved on a busy machine (issue 34: not slower).

Runs the same measurements on two source trees, alternating BEFORE and AFTER (A B A B …)
so that both suffer the same load, and prints each tree's median and the 1-minute load
average seen around the runs:

* ``startup``: each tree's ``bench/startup.py --runs N`` (``--help``, ``analyze`` of one
  position, ``standings`` of 60 players), every process as ``python -m tui.cli`` in both
  trees (an installed ``duplicada`` script belongs to one tree only);
* ``standings``: ``python -m tui.cli standings --overall`` and ``standings --game 1`` on a
  big simulated tournament, each tree on its own SQLite file (``--db-before``/``--db-after``,
  made beforehand with ``simulate --players 300 --games 10 --seed 1 --rounds 12``);
* ``entry``: each tree's ``bench/tui_entry.py`` (Pilot, per-slip feedback) and the direct
  ``enter_slip`` it also prints (the medians of the runs' p50);
* ``batch``: this tree's ``bench/slip_batch.py`` (service API only) on both trees.

Usage::

    python bench/before_after.py --before /work/wt/base --after . \\
        --db-before /tmp/perf/base.db --db-after /tmp/perf/integ.db [--steps startup,standings,entry,batch]

Raw outputs go to ``--out`` (default: a temporary folder), the summary to stdout as a
Markdown table.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PIN = "juez-del-banco"
HERE = Path(__file__).resolve().parent

# startup.py with every process as ``python -m tui.cli``: an installed console script was
# generated for one tree's entry point and may not import the other tree's code.
STARTUP_SHIM = (
    "import runpy, sys; sys.argv = [sys.argv[1]] + sys.argv[2:]; "
    "namespace = runpy.run_path(sys.argv[0], run_name='bench_startup'); "
    "namespace['main'].__globals__['command'] = lambda: [sys.executable, '-m', 'tui.cli']; "
    "namespace['main']()"
)


def load() -> float:
    return os.getloadavg()[0]


def run(tree: Path, args: list[str], *, env: dict[str, str] | None = None, log: Path) -> tuple[float, str]:
    environment = dict(os.environ, PYTHONPATH=str(tree), **(env or {}))
    started = time.perf_counter()
    result = subprocess.run(args, capture_output=True, text=True, env=environment, check=False, cwd=tree)
    elapsed = time.perf_counter() - started
    with log.open("a") as handle:
        handle.write(f"$ PYTHONPATH={tree} {' '.join(args)}  [{elapsed:.3f} s, rc {result.returncode}]\n")
        handle.write(result.stdout + result.stderr + "\n")
    if result.returncode != 0:
        raise SystemExit(f"failed in {tree}: {' '.join(args)}\n{result.stderr[-800:]}")
    return elapsed, result.stdout


class Results:
    def __init__(self) -> None:
        self.values: dict[tuple[str, str], list[float]] = {}
        self.loads: dict[str, list[float]] = {}
        self.commands: dict[str, str] = {}

    def add(self, work: str, side: str, value: float, command: str) -> None:
        self.values.setdefault((work, side), []).append(value)
        self.commands.setdefault(work, command)

    def load(self, work: str, value: float) -> None:
        self.loads.setdefault(work, []).append(value)

    def table(self) -> str:
        lines = ["| work | before | after | after/before | command | load avg (1 min, median [min–max]) |",
                 "|---|---|---|---|---|---|"]
        for work, command in self.commands.items():
            before = self.values.get((work, "before"), [])
            after = self.values.get((work, "after"), [])
            if not before or not after:
                continue
            b, a = statistics.median(before), statistics.median(after)
            unit = "ms" if "ms" in work else "s"
            fmt = (lambda v: f"{v:.1f} ms") if unit == "ms" else (lambda v: f"{v:.3f} s")
            loads = self.loads.get(work.split(":")[0], [])
            load_text = (f"{statistics.median(loads):.0f} [{min(loads):.0f}–{max(loads):.0f}]" if loads else "")
            lines.append(f"| {work} | {fmt(b)} (n={len(before)}) | {fmt(a)} (n={len(after)}) | {a / b:.2f} | "
                         f"`{command}` | {load_text} |")
        return "\n".join(lines)


def step_startup(trees: dict[str, Path], results: Results, rounds: int, runs: int, out: Path) -> None:
    labels = {"duplicada --help": "--help", "duplicada analyze": "analyze (1 position)",
              "duplicada standings": "standings (60 players, 1 game)"}
    for _ in range(rounds):
        for side, tree in trees.items():
            results.load("startup", load())
            _, stdout = run(tree, [sys.executable, "-c", STARTUP_SHIM, str(tree / "bench" / "startup.py"),
                                   "--runs", str(runs)], env={"DUPLICADA_PIN": PIN}, log=out / "startup.log")
            for line in stdout.splitlines():
                for prefix, label in labels.items():
                    if line.startswith(prefix):
                        median = float(line[38:].split()[0])
                        results.add(f"startup: {label}", side, median,
                                    f"bench/startup.py --runs {runs} (median of {runs} processes per run)")
            results.load("startup", load())


def step_standings(trees: dict[str, Path], databases: dict[str, str], results: Results, repeats: int,
                   out: Path) -> None:
    cases = [("standings --overall", ["standings", "--overall"]), ("standings --game 1", ["standings", "--game", "1"])]
    for label, args in cases:
        for side, tree in trees.items():                       # one warm-up each (page cache)
            run(tree, [sys.executable, "-m", "tui.cli", *args], env={"DUPLICADA_DB": databases[side]},
                log=out / "standings.log")
        for _ in range(repeats):
            for side, tree in trees.items():
                results.load("standings", load())
                elapsed, _ = run(tree, [sys.executable, "-m", "tui.cli", *args],
                                 env={"DUPLICADA_DB": databases[side]}, log=out / "standings.log")
                results.add(f"standings: {label} (big event)", side, elapsed,
                            f"python -m tui.cli {' '.join(args)}")


def step_entry(trees: dict[str, Path], results: Results, repeats: int, tables: int, out: Path) -> None:
    wanted = {"Enter → feedback widget updated": "entry: Enter → feedback (p50 ms)",
              "Enter → first frame drawn with it": "entry: Enter → frame drawn (p50 ms)",
              "enter_slip alone": "entry: enter_slip direct (p50 ms)"}
    for _ in range(repeats):
        for side, tree in trees.items():
            results.load("entry", load())
            _, stdout = run(tree, [sys.executable, str(tree / "bench" / "tui_entry.py"), "--tables", str(tables)],
                            log=out / "entry.log")
            for line in stdout.splitlines():
                for prefix, label in wanted.items():
                    if line.startswith(prefix):
                        p50 = float(re.search(r"p50\s+([\d.]+) ms", line).group(1))
                        results.add(label, side, p50, f"bench/tui_entry.py --tables {tables}")


def step_batch(trees: dict[str, Path], results: Results, repeats: int, players: int, rounds: int,
               out: Path) -> None:
    script = trees["after"] / "bench" / "slip_batch.py"
    for _ in range(repeats):
        for side, tree in trees.items():
            results.load("batch", load())
            _, stdout = run(tree, [sys.executable, str(script), "--players", str(players), "--rounds", str(rounds)],
                            log=out / "batch.log")
            median = float(re.search(r"slips: ([\d.]+) s", stdout).group(1))
            results.add(f"batch: enter_slips of {players} slips (median of {rounds} rounds)", side, median,
                        f"bench/slip_batch.py --players {players} --rounds {rounds} (AFTER's script on both)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, required=True)
    parser.add_argument("--after", type=Path, default=HERE.parent)
    parser.add_argument("--db-before", help="SQLite URL or file of the big tournament, BEFORE's format")
    parser.add_argument("--db-after", help="the same for AFTER")
    parser.add_argument("--steps", default="startup,standings,entry,batch")
    parser.add_argument("--startup-rounds", type=int, default=2, help="interleaved runs of startup.py per tree")
    parser.add_argument("--startup-runs", type=int, default=10)
    parser.add_argument("--repeats", type=int, default=5, help="interleaved standings runs per tree")
    parser.add_argument("--entry-repeats", type=int, default=3)
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--batch-repeats", type=int, default=3)
    parser.add_argument("--batch-players", type=int, default=60)
    parser.add_argument("--batch-rounds", type=int, default=8)
    parser.add_argument("--out", type=Path)
    options = parser.parse_args()
    out = options.out or Path(tempfile.mkdtemp(prefix="before-after-"))
    out.mkdir(parents=True, exist_ok=True)
    trees = {"before": options.before.resolve(), "after": options.after.resolve()}
    results = Results()
    steps = options.steps.split(",")
    print(f"trees: {trees}; raw output in {out}", file=sys.stderr)
    for step in steps:
        started = time.perf_counter()
        if step == "startup":
            step_startup(trees, results, options.startup_rounds, options.startup_runs, out)
        elif step == "standings":
            step_standings(trees, {"before": options.db_before, "after": options.db_after}, results,
                           options.repeats, out)
        elif step == "entry":
            step_entry(trees, results, options.entry_repeats, options.tables, out)
        elif step == "batch":
            step_batch(trees, results, options.batch_repeats, options.batch_players, options.batch_rounds, out)
        else:
            raise SystemExit(f"unknown step {step}")
        print(f"{step}: {time.perf_counter() - started:.0f} s", file=sys.stderr)
        (out / "results.json").write_text(json.dumps(
            {"values": {f"{w}|{s}": v for (w, s), v in results.values.items()}, "loads": results.loads}, indent=1))
        print(results.table(), file=sys.stderr)
    print(results.table())


if __name__ == "__main__":
    main()
