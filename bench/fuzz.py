"""Fuzz run, benchmark-sized (issue 14 §1, issue 26 §3): random inputs built from the
corpus of nasty strings (``tests/fuzz/corpus.txt``) by random edits, through the ways
untrusted input enters — slips (judge and service), ``analyze`` lines, players' CSV files,
word lists (plain and compressed, often cut short), tournament records for ``verify``, TRF
files, CSV sniffer traps and slips' CSV files, numbers out of range (service and command
line), station names, and damaged copies of the database — each allowed only its own
error (``tests/fuzz/targets.py``). Prints, per target, the inputs run, the crashes (any
other exception), the hangs (an input still running after ``--hang-seconds``, stopped by
an alarm) and the slowest input.

Usage: ``python bench/fuzz.py [--inputs 100000] [--seed 1] [--hang-seconds 20]
[--progress-every 5000]``. Exit
status 1 if anything crashed or hung.
"""

from __future__ import annotations

import argparse
import random
import signal
import sys
import time
import traceback
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from lexicon.default import default_lexicon_path
from lexicon.lexicon import Lexicon
from tests.fuzz.targets import KINDS, corpus, make_targets, run_one, scratch


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--inputs", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hang-seconds", type=int, default=20)
    parser.add_argument("--progress-every", type=int, default=5000,
                        help="print the running counts every N inputs (a long run can be read while it runs)")
    args = parser.parse_args()
    signal.signal(signal.SIGALRM, _alarm)
    lexicon = Lexicon.load(default_lexicon_path(None))
    pieces = corpus()
    rng = random.Random(args.seed)
    runs: Counter[str] = Counter()
    crashes: Counter[str] = Counter()
    hangs: Counter[str] = Counter()
    slowest: dict[str, float] = {}
    examples: list[str] = []
    started = time.perf_counter()
    with scratch() as folder:
        targets = make_targets(Path(folder), lexicon)
        for index in range(args.inputs):
            kind = KINDS[index % len(KINDS)]
            call = run_one(targets, kind, rng, pieces)
            began = time.perf_counter()
            signal.alarm(args.hang_seconds)
            try:
                call()
            except Hang:
                hangs[kind] += 1
                examples.append(f"{kind}: más de {args.hang_seconds} s")
            except Exception:  # noqa: BLE001 — counting crashes is the point
                crashes[kind] += 1
                if len(examples) < 5:
                    examples.append(traceback.format_exc(limit=3))
            finally:
                signal.alarm(0)
            runs[kind] += 1
            slowest[kind] = max(slowest.get(kind, 0.0), time.perf_counter() - began)
            if args.progress_every and (index + 1) % args.progress_every == 0:
                print(f"... {index + 1} inputs in {time.perf_counter() - started:.0f} s: crashes "
                      f"{sum(crashes.values())}, hangs {sum(hangs.values())}", flush=True)
    elapsed = time.perf_counter() - started
    print(f"{sum(runs.values())} inputs in {elapsed:.0f} s (seed {args.seed})")
    for kind in KINDS:
        print(f"  {kind:<8} {runs[kind]:>7} inputs  crashes {crashes[kind]:>4}  hangs {hangs[kind]:>3}  "
              f"slowest {slowest[kind] * 1000:8.1f} ms")
    print(f"crashes: {sum(crashes.values())}  hangs: {sum(hangs.values())}")
    for example in examples:
        print(example)
    return 1 if crashes or hangs else 0


class Hang(BaseException):
    """An input ran longer than ``--hang-seconds`` (raised by the alarm; not an ``Exception``,
    so no target's own ``except`` swallows it)."""


def _alarm(_signal: int, _frame: object) -> None:
    raise Hang


if __name__ == "__main__":
    sys.exit(main())
