"""First run on a fresh install: ``duplicada play`` with empty caches (issue 17).

Runs ``duplicada play --seed S`` as a new user would the first time — no compiled lexicon
in the cache, no numba cache — then a second time on the warm caches, for this tree and
for the reference commit's tree (``bench/movegen.py``'s extraction; its numba compiles
its walker on the first call). Each run is a process of its own, with its own empty
``XDG_CACHE_HOME``, ``HOME`` and ``NUMBA_CACHE_DIR``; wall time and peak RSS are printed.
The lexicon is the default word list of each tree (the reference shipped an earlier one).

Usage: ``python bench/first_run.py [--seed S] [--reference REV | --no-reference]``.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from movegen import REFERENCE, reference_tree  # noqa: E402

PROGRAM = "import sys; sys.path.insert(0, sys.argv[1]); from tui.cli.main import main; sys.argv = ['duplicada', *sys.argv[2:]]; main()"


def run(tree: Path, seed: int, home: Path) -> tuple[float, float, str]:
    """(seconds, peak RSS in MB, last line printed) of one ``duplicada play``."""
    environment = {**os.environ, "HOME": str(home), "XDG_CACHE_HOME": str(home / "cache"),
                   "NUMBA_CACHE_DIR": str(home / "numba")}
    environment.pop("DUPLICADA_LEXICON", None)
    with tempfile.TemporaryFile("w+") as output:
        started = time.perf_counter()
        process = subprocess.Popen([sys.executable, "-c", PROGRAM, str(tree), "play", "--seed", str(seed)],
                                   env=environment, stdout=output, stderr=subprocess.DEVNULL)
        _pid, status, usage = os.wait4(process.pid, 0)
        elapsed = time.perf_counter() - started
        process.returncode = os.waitstatus_to_exitcode(status)
        output.seek(0)
        lines = output.read().strip().splitlines()
    if process.returncode:
        raise SystemExit(f"{tree}: duplicada play terminó con el código {process.returncode}")
    return elapsed, usage.ru_maxrss / 1024, lines[-1] if lines else ""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--reference", default=REFERENCE)
    parser.add_argument("--no-reference", action="store_true")
    args = parser.parse_args()
    trees = [("this tree", ROOT)]
    if not args.no_reference:
        trees.append((f"reference {args.reference}", reference_tree(args.reference)))
    for label, tree in trees:
        with tempfile.TemporaryDirectory() as folder:
            home = Path(folder)
            first = run(tree, args.seed, home)
            second = run(tree, args.seed, home)
        print(f"{label}: first run {first[0]:.2f} s ({first[1]:.0f} MB peak RSS), second run {second[0]:.2f} s "
              f"({second[1]:.0f} MB) — {first[2]}")


if __name__ == "__main__":
    main()
