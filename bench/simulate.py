"""``duplicada simulate`` as a user runs it, a whole process (issue 38: 300 × 10 in ≤ 20 s).

Each run is a fresh ``python -m tui.cli simulate --players P --games G [--rounds R] --seed S``
process writing a new SQLite file in a temporary folder (removed at the end), with the
bytecode cache written (one small warm-up run per tree first) and no ``DUPLICADA_*`` of
this shell (``cli_commands.user_env``). For each run: wall seconds, the child's CPU seconds
(user + system) and its peak resident memory, read from ``os.wait4`` (that one process,
not every child so far).

``--tree DIR`` runs another checkout (``PYTHONPATH=DIR``, e.g. an extracted ``git archive``
of main with its ``lexicon/_gaddag*.so``); given twice (``--tree BEFORE --tree AFTER``) the
trees' runs alternate, A B A B …, so that both see the same load, as
``bench/cli_commands.py`` does. The summary each run prints (counts and the top five, the
time it states aside) is compared between runs and trees: the same seed must give the same
tournament; a difference is reported.

Usage: ``python bench/simulate.py [--players 300] [--games 10] [--rounds R] [--seed 1]
[--runs 3] [--tree DIR [--tree DIR]]``. Figures quoted in docs/performance.md.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from cli_commands import PIN, ROOT, user_env  # bench/cli_commands.py

GOAL = 20.0
"""Issue 38: seconds for 300 × 10 (full bag) on the 2-core machine."""

_ELAPSED = re.compile(r", en [0-9.,]+ s\.")


@dataclass(frozen=True)
class Run:
    """One ``simulate`` process: wall and CPU seconds, peak memory in MiB, its summary."""

    wall: float
    cpu: float
    rss: float
    summary: str


def simulate(tree: Path, folder: Path, args: list[str]) -> Run:
    """Run ``duplicada simulate ARGS`` of ``tree`` on a new database in ``folder``."""
    database = Path(tempfile.mkdtemp(prefix="sim-", dir=folder)) / "simulado.db"
    env = dict(user_env(), PYTHONPATH=str(tree), DUPLICADA_DB=str(database), DUPLICADA_PIN=PIN)
    errors = database.parent / "stderr.txt"
    with errors.open("w", encoding="utf-8") as stderr:       # the progress display, not a pipe to drain
        started = time.perf_counter()
        process = subprocess.Popen([sys.executable, "-m", "tui.cli", "simulate", *args], stdout=subprocess.PIPE,
                                   stderr=stderr, env=env, cwd=tree, text=True, encoding="utf-8")
        assert process.stdout is not None
        output = process.stdout.read()
        _, status, usage = os.wait4(process.pid, 0)         # this child's own rusage (Popen.wait gives none)
        wall = time.perf_counter() - started
    process.stdout.close()
    process.returncode = os.waitstatus_to_exitcode(status)   # reaped here: Popen must not wait for it again
    if process.returncode != 0:
        raise SystemExit(f"falló «duplicada simulate {' '.join(args)}» ({tree}): "
                         f"{errors.read_text(encoding='utf-8').strip()[-800:]}")
    shutil.rmtree(database.parent, ignore_errors=True)
    return Run(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, _ELAPSED.sub("", output.strip()))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=None, help="rounds per game (default: full bag)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--tree", type=Path, action="append", default=None,
                        help="a checkout whose simulate runs (default: this one); given twice or more, the "
                             "trees' runs alternate (A B A B …) and each gets its line")
    options = parser.parse_args()
    trees = [tree.resolve() for tree in options.tree or [ROOT]]
    args = ["--players", str(options.players), "--games", str(options.games), "--seed", str(options.seed)]
    if options.rounds is not None:
        args += ["--rounds", str(options.rounds)]
    folder = Path(tempfile.mkdtemp(prefix="duplicada-simulate-"))
    try:
        for tree in trees:                                    # warm-up: the bytecode cache written
            simulate(tree, folder, ["--players", "2", "--games", "1", "--rounds", "1", "--seed", "1"])
        print(f"# duplicada simulate {' '.join(args)}: {options.runs} ejecuciones por árbol, alternadas "
              f"({', '.join(f'{chr(65 + index)} = {tree}' for index, tree in enumerate(trees))}); "
              f"carga {os.getloadavg()[0]:.2f}", flush=True)
        runs: dict[Path, list[Run]] = {tree: [] for tree in trees}
        for _ in range(options.runs):                          # A B A B …: the same load for each
            for tree in trees:
                runs[tree].append(simulate(tree, folder, args))
        print(f"| {'árbol':<6} | {'mejor s':>7} | {'mediana s':>9} | {'CPU s (mediana)':>15} | "
              f"{'memoria MiB (máx.)':>18} | {'objetivo s':>10} |")
        print(f"|{'-' * 8}|{'-' * 9}:|{'-' * 11}:|{'-' * 17}:|{'-' * 20}:|{'-' * 12}:|")
        for index, tree in enumerate(trees):
            walls = [run.wall for run in runs[tree]]
            median = statistics.median(walls)
            print(f"| {chr(65 + index):<6} | {min(walls):>7.2f} | {median:>9.2f} | "
                  f"{statistics.median(run.cpu for run in runs[tree]):>15.2f} | "
                  f"{max(run.rss for run in runs[tree]):>18.0f} | {GOAL:>10.2f} |"
                  f"{'' if median <= GOAL else ' (por encima)'}")
        summaries = {run.summary for tree in trees for run in runs[tree]}
        print("# el mismo torneo en cada ejecución y árbol" if len(summaries) == 1 else
              f"# ¡resúmenes distintos! ({len(summaries)})")
        for summary in sorted(summaries):
            print("\n".join(f"#   {line}" for line in summary.splitlines()))
        print(f"# carga al final {os.getloadavg()[0]:.2f}")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return 0 if len(summaries) == 1 else 1


if __name__ == "__main__":
    raise SystemExit(main())
