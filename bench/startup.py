"""Start-up of the command line, whole processes (issue 12 §3).

Measures, on warm caches, the median wall time of 10 runs of:

* ``duplicada --help`` (target ≤ 0.25 s);
* ``duplicada analyze`` of one position (target ≤ 0.6 s);
* ``duplicada standings`` on a simulated 60-player tournament (target ≤ 0.6 s).

Usage: ``python bench/startup.py [--runs N]``. The 60-player tournament is simulated
once into a temporary SQLite file (a few seconds); every run is a fresh process.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

POSITION = "15/15/15/15/15/15/15/7CASA4/15/15/15/15/15/15/15 ERRE?LO\n"
BENCH_PIN = "juez-del-banco"


def command() -> list[str]:
    """The console script of this environment (else ``python -m tui.cli``)."""
    script = Path(sys.executable).with_name("duplicada")
    return [str(script)] if script.exists() else [sys.executable, "-m", "tui.cli"]


def timed(args: list[str], *, stdin: str = "", env: dict[str, str]) -> float:
    started = time.perf_counter()
    result = subprocess.run(command() + args, input=stdin, capture_output=True, text=True, env=env, check=False)
    elapsed = time.perf_counter() - started
    if result.returncode != 0:
        raise SystemExit(f"falló «duplicada {' '.join(args)}»: {result.stderr.strip()[:400]}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    options = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="duplicada-arranque-"))
    try:
        env = dict(os.environ, DUPLICADA_DB=str(folder / "bench.db"), DUPLICADA_PIN=BENCH_PIN)
        subprocess.run(command() + ["simulate", "--players", "60", "--games", "1", "--rounds", "12", "--seed", "1"],
                       env=env, check=True, capture_output=True, text=True)
        cases = [("duplicada --help", ["--help"], "", 0.25),
                 ("duplicada analyze (1 posición)", ["analyze"], POSITION, 0.6),
                 ("duplicada standings (60 jugadores)", ["standings"], "", 0.6)]
        print(f"{'orden':<38} {'mediana s':>9} {'mín s':>7} {'máx s':>7} {'objetivo s':>10}")
        for label, args, stdin, target in cases:
            timed(args, stdin=stdin, env=env)                       # warm the caches
            times = [timed(args, stdin=stdin, env=env) for _ in range(options.runs)]
            median = statistics.median(times)
            print(f"{label:<38} {median:>9.3f} {min(times):>7.3f} {max(times):>7.3f} {target:>10.2f}"
                  f"{'' if median <= target else '  (por encima)'}")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
