"""``duplicada export`` and ``duplicada verify`` on a big event, whole processes (issue 38).

Goal on a 300-player × 10-game event, this 2-core size: each ≤ 2 s and ≤ 150 MiB of peak
memory. Uses the tournament database ``--db`` (made by ``duplicada simulate --players 300
--games 10 --seed 1 --pin-file PIN``; built so into ``--keep DIR`` when ``--db`` is not
given — about a minute), never writing to it: each run exports a copy's record.

For each tree (``--tree DIR``, given once or twice: ``PYTHONPATH=DIR``, e.g. an extracted
``git archive`` of main with its ``lexicon/_gaddag*.so``; default this checkout), ``--runs``
times, the trees alternating A B A B … so that both see the same load:

* ``export RECORD --db DB --pin-file PIN`` (signed, as the judge exports it) with the
  export time fixed (``duplicate.service.record._now`` patched in the child, nothing else),
  so that every tree's record can be compared **byte for byte** (the bench says whether
  they are the same; a signature is deterministic, Ed25519);
* ``verify RECORD`` of the first tree's record (the same file for both trees).

Each command is a fresh ``python -m tui.cli`` process (bytecode cache written, as an
installed package has it: ``PYTHONDONTWRITEBYTECODE`` is dropped), its output captured; one
warm-up run each. Reported per tree and command: best and median wall time, median CPU
(user + system of the child, ``os.wait4``), the largest peak resident memory (``ru_maxrss``,
MiB) and the load average seen.

Usage: ``python bench/record_commands.py [--db DB --pin-file PIN] [--keep DIR] [--runs 5]
[--tree BEFORE --tree AFTER]``. Figures quoted in docs/performance.md.
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

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
PIN = "juez-del-banco"

_FIXED_EXPORT = (
    "import sys, datetime\n"
    "import duplicate.service.record as record\n"
    "record._now = lambda: datetime.datetime(2026, 12, 3, 8, 0, tzinfo=datetime.UTC)\n"
    "from tui.cli.main import main\n"
    "sys.argv = ['duplicada', *sys.argv[1:]]\n"
    "main()\n"
)
"""``duplicada …`` with the export time fixed (the record's ``exported_at``)."""


def run(args: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float, float, str]:
    """Run ``args`` in ``cwd`` (the tree: ``python -m`` and ``-c`` put the current folder
    first on the path, before PYTHONPATH); wall seconds, CPU seconds (user + system), peak
    RSS in MiB, output."""
    started = time.perf_counter()
    child = subprocess.Popen(args, env=env, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert child.stdout is not None
    output = child.stdout.read()
    _pid, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - started
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(args)} → {child.returncode}\n{output}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, output


def simulate(database: Path, pin_file: Path) -> None:
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = str(ROOT)
    subprocess.run([sys.executable, "-m", "tui.cli", "simulate", "--players", "300", "--games", "10", "--seed", "1",
                    "--db", str(database), "--pin-file", str(pin_file)], env=env, cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, help="the 300 × 10 tournament (read only: a copy is used)")
    parser.add_argument("--pin-file", type=Path, help="the judge's PIN for --db (the record is signed)")
    parser.add_argument("--keep", type=Path, help="folder for the built database (built there once)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--tree", type=Path, action="append", help="a checkout to run (once or twice)")
    args = parser.parse_args()
    trees = [tree.resolve() for tree in (args.tree or [ROOT])]
    with tempfile.TemporaryDirectory(prefix="record-commands-") as scratch:
        folder = Path(scratch)
        if args.db is None:
            keep = args.keep or folder
            keep.mkdir(parents=True, exist_ok=True)
            database, pin_file = keep / "big300x10.db", keep / "pin"
            if not database.exists():
                pin_file.write_text(PIN + "\n", encoding="utf-8")
                started = time.perf_counter()
                simulate(database, pin_file)
                print(f"simulate 300 × 10: {time.perf_counter() - started:.0f} s", file=sys.stderr)
        else:
            database, pin_file = args.db, args.pin_file
            if pin_file is None:
                parser.error("--db needs --pin-file")
        copy = folder / "event.db"
        shutil.copyfile(database, copy)
        figures: dict[tuple[int, str], list[tuple[float, float, float]]] = {}
        loads: list[float] = []
        records = [folder / f"record-{index}.json" for index in range(len(trees))]
        for attempt in range(args.runs + 1):                       # the first: warm-up
            for index, tree in enumerate(trees):
                env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
                env["PYTHONPATH"] = str(tree)
                loads.append(os.getloadavg()[0])
                exported = run([sys.executable, "-c", _FIXED_EXPORT, "export", str(records[index]), "--db", str(copy),
                                "--pin-file", str(pin_file)], env, tree)
                verified = run([sys.executable, "-m", "tui.cli", "verify", str(records[0])], env, tree)
                if "sin diferencias" not in verified[3]:
                    raise SystemExit(f"verify ({tree}) found differences:\n{verified[3][:2000]}")
                if attempt:
                    figures.setdefault((index, "export"), []).append(exported[:3])
                    figures.setdefault((index, "verify"), []).append(verified[:3])
        same = all(record.read_bytes() == records[0].read_bytes() for record in records)
        size = records[0].stat().st_size / 2**20
    print(f"{len(trees)} tree(s), {args.runs} runs each (after a warm-up), alternating; record {size:.1f} MiB; "
          f"load average {min(loads):.1f}–{max(loads):.1f}")
    if len(trees) > 1:
        print(f"records byte for byte the same across trees: {'yes' if same else 'NO'}")
    print("| tree | command | best wall | median wall | median CPU | peak RSS |")
    print("|---|---|---:|---:|---:|---:|")
    for (index, command), runs in sorted(figures.items()):
        walls = [wall for wall, _cpu, _rss in runs]
        print(f"| {trees[index].name} | `{command}` | {min(walls):.2f} s | {statistics.median(walls):.2f} s | "
              f"{statistics.median(cpu for _wall, cpu, _rss in runs):.2f} s | "
              f"{max(rss for _wall, _cpu, rss in runs):.0f} MiB |")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
