"""Benchmark of the core engine on the default lexicon (issue 2, section 9).

Measures, in one process:

* lexicon build time (the shipped word list → a compiled lexicon) and load time;
* move generation + master choice (III.15) over positions from self-played games
  (``duplicate.game.Game``, real rack rules) and two stress sets on the same
  boards: two-blank racks (5 random letters + ``??``) and digraph-heavy racks
  (CH, LL, RR, Ñ plus 3 random letters);
* the first ``generate`` call's extra cost (numba import, compiled code loaded
  from numba's cache or compiled, lexicon graph exported to arrays);
* peak memory (max resident set size).

Times are wall clock per position; ``pos/cpu-s`` divides by the process's CPU time
instead, which other processes on a busy machine do not inflate.

The default path is measured (the compiled walker); ``--pure-python`` measures the
pure-Python walker instead (as ``DUPLICADA_PURE_PYTHON=1`` does).

Usage: ``python bench/movegen.py [--games N] [--stress N] [--seed S] [--pure-python] [--json OUT]``.
Figures are quoted in ``docs/performance.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import data
from duplicate.game import Game
from duplicate.master import rank_top_moves
from lexicon.board import Board
from lexicon.default import WORD_LIST, read_lines
from lexicon.lexicon import Lexicon, build
from lexicon.movegen import PURE_PYTHON_VARIABLE, generate, walker_name

Position = tuple[Board, tuple[int, ...]]


def self_played_positions(lexicon: Lexicon, games: int, seed: int) -> list[Position]:
    """(board, rack) before each round of ``games`` full-bag games."""
    positions: list[Position] = []
    for number in range(games):
        game = Game(lexicon, seed=seed + number)
        while (pending := game.draw()) is not None:
            positions.append((game.board.copy(), pending.rack.tiles))
            if pending.master is None:
                break
            game.play()
    return positions


def stress_positions(lexicon: Lexicon, boards: list[Board], count: int, seed: int) -> dict[str, list[Position]]:
    """Two-blank and digraph-heavy racks on boards drawn from the self-played games."""
    alphabet = lexicon.alphabet
    rng = random.Random(seed)
    letters = [tile for tile in alphabet.full_bag() if tile != alphabet.blank]
    digraphs = [alphabet.code(symbol) for symbol in ("CH", "LL", "RR", "Ñ")]
    two_blank, digraph_heavy = [], []
    for _ in range(count):
        board = rng.choice(boards)
        two_blank.append((board, tuple(rng.sample(letters, 5)) + (alphabet.blank, alphabet.blank)))
        digraph_heavy.append((board, tuple(digraphs) + tuple(rng.sample(letters, 3))))
    return {"two_blank": two_blank, "digraph_heavy": digraph_heavy}


def time_positions(lexicon: Lexicon, positions: list[Position]) -> tuple[list[float], float]:
    """Seconds (wall clock) to generate every move and rank the top ones, per position;
    and the CPU seconds of the whole set (the figure to trust on a busy machine)."""
    times = []
    cpu_started = time.process_time()
    for board, rack in positions:
        started = time.perf_counter()
        moves = generate(board, rack, lexicon)
        rank_top_moves(board, rack, moves)
        times.append(time.perf_counter() - started)
    return times, time.process_time() - cpu_started


def summary(times: list[float], cpu_s: float) -> dict[str, float]:
    ordered = sorted(times)
    return {
        "positions": len(times),
        "per_second": len(times) / sum(times),
        "per_cpu_second": len(times) / cpu_s,
        "mean_ms": 1000 * statistics.fmean(times),
        "p50_ms": 1000 * ordered[len(ordered) // 2],
        "p99_ms": 1000 * ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))],
        "max_ms": 1000 * ordered[-1],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=45, help="self-played games (about 23 positions each)")
    parser.add_argument("--stress", type=int, default=150, help="positions in each stress set")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pure-python", action="store_true", help="measure the pure-Python walker")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    if args.pure_python:
        os.environ[PURE_PYTHON_VARIABLE] = "1"

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "default.lex"
        started = time.perf_counter()
        report = build(read_lines(data.path(WORD_LIST)), path, source=WORD_LIST)
        build_s = time.perf_counter() - started
        started = time.perf_counter()
        lexicon = Lexicon.load(path)
        load_s = time.perf_counter() - started
    print(f"lexicon: {report.words} words, build {build_s:.2f} s, load {load_s:.3f} s")
    rss_loaded = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    started = time.perf_counter()
    walker = walker_name()
    generate(Board(lexicon.alphabet), lexicon.alphabet.tokenize("CASA"), lexicon)
    first_s = time.perf_counter() - started
    print(f"walker: {walker}; first generate {first_s:.2f} s (numba import, compiled code, graph arrays)")

    positions = self_played_positions(lexicon, args.games, args.seed)
    sets = {"self_play": positions, **stress_positions(lexicon, [board for board, _ in positions], args.stress, args.seed)}
    results: dict[str, object] = {"walker": walker, "words": report.words, "build_s": build_s, "load_s": load_s,
                                  "first_generate_s": first_s, "rss_after_load_mb": rss_loaded}
    all_times: list[float] = []
    all_cpu_s = 0.0
    for name, chosen in sets.items():
        times, cpu_s = time_positions(lexicon, chosen)
        all_times.extend(times)
        all_cpu_s += cpu_s
        results[name] = summary(times, cpu_s)
    results["overall"] = summary(all_times, all_cpu_s)
    results["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{'set':<14}{'positions':>10}{'pos/s':>9}{'pos/cpu-s':>10}{'mean ms':>9}{'p50 ms':>9}{'p99 ms':>9}"
          f"{'max ms':>9}")
    for name in (*sets, "overall"):
        row = results[name]
        assert isinstance(row, dict)
        print(f"{name:<14}{row['positions']:>10}{row['per_second']:>9.1f}{row['per_cpu_second']:>10.1f}"
              f"{row['mean_ms']:>9.1f}{row['p50_ms']:>9.1f}{row['p99_ms']:>9.1f}{row['max_ms']:>9.1f}")
    print(f"peak memory (max RSS): {results['peak_rss_mb']:.0f} MB")
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
