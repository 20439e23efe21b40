"""Side by side with wolges: our move generator and wolges' on the same word list and positions (issue 38).

wolges (``../shared/bench/wolges/``, its README) is the yardstick: ``buildlex`` compiles a
word list into its GADDAWG, ``oracle LEX POSITIONS RUNS`` enumerates every placement of each
position (every blank designation, no exchanges), RUNS times in one process, and prints per
position ``best_score placements microseconds`` (fastest run) and the set's pos/s (fastest
run). In one run this script:

* converts the default word list (``lexicon.default.WORD_LIST``, read as the lexicon build
  reads it: the same words) into wolges' form (digraph tiles ``[CH]``, ``[LL]``, ``[RR]``)
  and compiles it with ``buildlex``; compiles our lexicon from the same list;
* draws the positions with ``bench/movegen.py``'s code (self-played games with the real rack
  rules; two-blank racks and digraph-heavy racks on those boards) plus a dense set (the
  boards of the games' last rounds, full-bag random racks), and writes them in the oracle's
  format, one file per set (``<cgp board> <rack>``, blanks ``?``);
* runs both engines in the same launch pattern: each in a process of its own, the whole
  set, RUNS runs in-process, fastest run (and per position its fastest time); interleaved
  over ROUNDS rounds (the order alternating), the fastest round of each counting. Our side
  (``--worker``, this file) times, per position, what the issue times: full enumeration
  (``lexicon.movegen.generate``) plus the III.15 ranking of the top moves
  (``duplicate.rules.master.rank_top_moves``); the board is read beforehand, like wolges';
* prints each engine's pos/s per set and overall, the ratio ours/wolges of the times (below
  1.0: ours faster), the p99 of the two-blank racks, and checks, position by position, the
  best score and the number of placements (both count a placement once per blank
  designation; a one-tile move that forms words both ways once; on the empty board wolges
  gives the across moves only, ours the down ones too: its count is compared with twice
  wolges'). Any difference is listed
  (the first ten) and makes the exit status 1.

Ours walks the across and the down moves of a rack with a blank on two threads (its
default, ``lexicon.gaddag_walk``); ``--one-thread`` measures it on one, as wolges runs.
Times are wall clock (the ratio the issue asks for); a second ratio divides CPU seconds, less
disturbed by other processes on a busy machine: ours, the least CPU time of a run of the set
(both threads); wolges', its process's CPU time with RUNS runs less with one run, over
RUNS - 1 (``getrusage`` of the children). The machine's load average
is printed before and after: the rounds are meant for a quiet machine, and the fastest round
is what counts.

Usage: ``python bench/movegen_wolges.py [--games N] [--stress N] [--seed S] [--runs R] [--rounds K]
[--one-thread] [--wolges DIR] [--keep DIR] [--before TREE] [--json OUT]``. ``--before TREE``: another
checkout of the project (its C extension built in place there) measured in the same rounds,
as a third engine (the before/after figures of a change to the generator).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

WOLGES = next((folder / "shared" / "bench" / "wolges" for folder in ROOT.parents
               if (folder / "shared" / "bench" / "wolges" / "oracle").exists()), ROOT.parent / "shared" / "bench" / "wolges")
"""``../shared/bench/wolges/`` of the project (or of a folder above a worktree)."""
SETS = ("self_play", "two_blank", "digraph_heavy", "dense")


def _bench_movegen() -> ModuleType:
    """bench/movegen.py as a module (its position drawing and lexicon build)."""
    spec = importlib.util.spec_from_file_location("bench_movegen", ROOT / "bench" / "movegen.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# --- our side: one measuring process --------------------------------------------------------------------------


def worker(lexicon_path: Path, positions_path: Path, runs: int, out: Path, one_thread: bool) -> None:
    """Time ours on every position of ``positions_path`` (oracle format), ``runs`` times;
    write lines ``best_score placements microseconds`` (fastest run of each position) and a
    last line ``total_s cpu_s`` (the fastest whole run, its CPU seconds)."""
    from duplicate.rules.master import rank_top_moves
    from lexicon import gaddag_walk
    from lexicon.board import Board
    from lexicon.lexicon import Lexicon
    from lexicon.movegen import generate, walker_name

    if one_thread:
        gaddag_walk._PARALLEL = False
    assert walker_name() == "gaddag", walker_name()
    lexicon = Lexicon.load(lexicon_path)
    alphabet = lexicon.alphabet
    positions = [read_oracle_line(line, alphabet) for line in positions_path.read_text(encoding="utf-8").splitlines()]
    generate(Board(alphabet), alphabet.tokenize("CASA"), lexicon)   # first call: lazy set-up, not timed
    best_times = [float("inf")] * len(positions)
    results: list[tuple[int, int]] = []
    fastest, least_cpu = float("inf"), float("inf")
    clock = time.perf_counter
    for _ in range(runs):
        results = []
        cpu = time.process_time()
        run_started = clock()
        for index, (board, rack) in enumerate(positions):
            started = clock()
            moves = generate(board, rack, lexicon)
            rank_top_moves(board, rack, moves)
            elapsed = clock() - started
            if elapsed < best_times[index]:
                best_times[index] = elapsed
            results.append((moves.best_score, len(moves)))
        total = clock() - run_started
        fastest = min(fastest, total)
        least_cpu = min(least_cpu, time.process_time() - cpu)
    lines = [f"{best} {count} {1e6 * seconds:.0f}" for (best, count), seconds in zip(results, best_times)]
    out.write_text("\n".join([*lines, f"{fastest} {least_cpu}"]) + "\n", encoding="utf-8")


# --- the comparison -------------------------------------------------------------------------------------------


def word_list_for_wolges(output: Path) -> int:
    """Write the default word list as wolges reads it (one word a line, digraphs ``[CH]``);
    the words of the lexicon build (``read_word_list``). Returns how many."""
    import data
    from lexicon.alphabet import spanish
    from lexicon.default import WORD_LIST, read_lines
    from lexicon.lexicon import BuildReport, read_word_list

    alphabet = spanish()
    words = read_word_list(read_lines(data.path(WORD_LIST)), alphabet, BuildReport())
    output.write_text("".join(alphabet.display(word) + "\n" for word in words), encoding="utf-8")
    return len(words)


def oracle_line(board: Any, rack: tuple[int, ...]) -> str:
    """``<cgp board> <rack>``: digraph tiles always bracketed, single letters never (wolges'
    form; our ``Board.from_cgp`` and ``tokenize`` read it too)."""
    alphabet = board.alphabet
    rows = []
    for row in board.tiles:
        text, empty = [], 0
        for tile in row:
            if tile is None:
                empty += 1
                continue
            if empty:
                text.append(str(empty))
                empty = 0
            text.append(alphabet.display([tile]))
        if empty:
            text.append(str(empty))
        rows.append("".join(text))
    return "/".join(rows) + " " + str(alphabet.display(rack))


def read_oracle_line(line: str, alphabet: Any) -> tuple[Any, tuple[int, ...]]:
    """``(board, rack)`` of an ``oracle_line``."""
    from lexicon.board import Board

    cgp, rack = line.split()
    # wolges' form: a digraph tile always bracketed, so bare letters are single tiles (our
    # tokenize would read a bare LL as the digraph): each piece read alone.
    tiles = tuple(code for piece in re.findall(r"\[[^\]]*\]|.", rack)
                  for code in alphabet.tokenize(piece, allow_unknown_blank=True))
    return Board.from_cgp(cgp, alphabet), tiles


def dense_positions(lexicon: Any, games: list[list[Any]], count: int, seed: int) -> list[Any]:
    """Random full racks (7 tiles of the full bag) on the boards of the games' last rounds."""
    import random

    rng = random.Random(seed)
    boards = [game[-1][0] for game in games if game]
    boards += [game[-2][0] for game in games if len(game) > 1]
    bag = lexicon.alphabet.full_bag()
    return [(rng.choice(boards), tuple(rng.sample(bag, 7))) for _ in range(count)]


def parse(path: Path) -> tuple[list[tuple[int, int, int]], float, float | None]:
    """An engine's output: per position ``(best, placements, microseconds)``, the fastest
    run's seconds and (ours) its CPU seconds."""
    rows, total, cpu = [], 0.0, None
    for line in path.read_text(encoding="utf-8").splitlines():
        parts = line.split()
        if line.startswith("wolges:"):
            # wolges: N positions in T s, R pos/s (fastest of RUNS runs)
            total = float(parts[4])
        elif len(parts) == 3:
            rows.append((int(parts[0]), int(parts[1]), int(parts[2])))
        elif len(parts) == 2:
            total, cpu = float(parts[0]), float(parts[1])
    return rows, total, cpu


def child_cpu() -> float:
    """CPU seconds (user + system) of the finished child processes so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def load_average() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=45, help="self-played games (about 23 positions each)")
    parser.add_argument("--stress", type=int, default=150, help="positions in each stress set (two-blank, digraphs, dense)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--runs", type=int, default=3, help="runs of the whole set in each process")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds (each engine once a round)")
    parser.add_argument("--one-thread", action="store_true", help="ours on one thread (its default: two with a blank)")
    parser.add_argument("--wolges", type=Path, default=WOLGES, help="the folder of buildlex and oracle")
    parser.add_argument("--keep", type=Path, default=None, help="keep the lexicons and position files there")
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--before", type=Path, default=None,
                        help="another tree of the project (its extension built in place), measured in the same rounds")
    parser.add_argument("--code", type=Path, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--worker", nargs=3, metavar=("LEXICON", "POSITIONS", "OUT"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        if args.code:   # the measured tree's packages first
            sys.path.insert(0, str(args.code.resolve()))
            for name in [name for name in sys.modules if name.split(".")[0] in ("lexicon", "duplicate", "data")]:
                del sys.modules[name]
        worker(Path(args.worker[0]), Path(args.worker[1]), args.runs, Path(args.worker[2]), args.one_thread)
        return

    bench = _bench_movegen()
    from lexicon.default import WORD_LIST
    from lexicon.lexicon import Lexicon

    with tempfile.TemporaryDirectory() as name:
        folder = args.keep or Path(name)
        folder.mkdir(parents=True, exist_ok=True)
        print(f"load average at start: {load_average()}")
        ours_lexicon = folder / "default.lex"
        if not ours_lexicon.exists():
            bench.build_lexicon(ROOT, ours_lexicon)
        lexicon = Lexicon.load(ours_lexicon)
        kwg = folder / "default.kwg"
        if not kwg.exists():
            words = word_list_for_wolges(folder / "words-wolges.txt")
            subprocess.run([str(args.wolges / "buildlex"), "spanish-kwg", str(folder / "words-wolges.txt"), str(kwg)],
                           check=True, capture_output=True)
            print(f"word list {WORD_LIST}: {words} words, compiled for both")

        games: list[list[Any]] = []
        for number in range(args.games):
            games.append(bench.self_played_positions(lexicon, 1, args.seed + number))
        self_play = [position for game in games for position in game]
        sets = {"self_play": self_play,
                **bench.stress_positions(lexicon, [board for board, _ in self_play], args.stress, args.seed),
                "dense": dense_positions(lexicon, games, args.stress, args.seed)}
        files = {}
        for set_name, chosen in sets.items():
            for board, rack in chosen:   # the file reads back to the very position
                again = read_oracle_line(oracle_line(board, rack), lexicon.alphabet)
                assert again[0] == board and again[1] == tuple(rack), oracle_line(board, rack)
            files[set_name] = folder / f"{set_name}.txt"
            files[set_name].write_text("".join(oracle_line(board, rack) + "\n" for board, rack in chosen),
                                       encoding="utf-8")
        total_positions = sum(len(chosen) for chosen in sets.values())
        print("positions: " + ", ".join(f"{set_name} {len(chosen)}" for set_name, chosen in sets.items())
              + f" ({total_positions}); {args.runs} runs a process, {args.rounds} rounds"
              + (", ours on one thread" if args.one_thread else ""))

        # rounds[engine][set] = list of (rows, total_s, cpu_s)
        engines = ("ours", "wolges", *(("before",) if args.before else ()))
        measured: dict[str, dict[str, list[tuple[list[tuple[int, int, int]], float, float | None]]]] = {
            engine: {set_name: [] for set_name in SETS} for engine in engines}
        for round_number in range(args.rounds):
            order = engines if round_number % 2 == 0 else engines[::-1]
            for set_name in SETS:
                for engine in order:
                    out = folder / f"{engine}-{set_name}.out"
                    if engine == "wolges":
                        # Its CPU seconds a run, start-up left out: the process's with RUNS runs
                        # less one with a single run, over RUNS - 1.
                        started = child_cpu()
                        with out.open("w") as handle:
                            subprocess.run([str(args.wolges / "oracle"), str(kwg), str(files[set_name]),
                                            str(args.runs)], check=True, stdout=handle)
                        middle = child_cpu()
                        if args.runs > 1:
                            subprocess.run([str(args.wolges / "oracle"), str(kwg), str(files[set_name]), "1"],
                                           check=True, stdout=subprocess.DEVNULL)
                            per_run = max(0.0, (middle - started) - (child_cpu() - middle)) / (args.runs - 1)
                        else:
                            per_run = middle - started
                        rows, total, _cpu = parse(out)
                        measured[engine][set_name].append((rows, total, per_run))
                        continue
                    else:
                        subprocess.run([sys.executable, __file__, "--runs", str(args.runs),
                                        *(["--one-thread"] if args.one_thread else []),
                                        *(["--code", str(args.before)] if engine == "before" else []),
                                        "--worker", str(ours_lexicon), str(files[set_name]), str(out)], check=True)
                    measured[engine][set_name].append(parse(out))
        print(f"load average at end: {load_average()}")

        results: dict[str, object] = {"positions": {s: len(sets[s]) for s in SETS}, "runs": args.runs,
                                      "rounds": args.rounds, "one_thread": args.one_thread,
                                      "load_average_end": load_average(), "sets": {}}
        print(f"\n{'set':<14}{'positions':>10}{'ours pos/s':>12}{'wolges pos/s':>14}{'ours/wolges':>13}"
              f"{'ours p99 ms':>13}{'wolges p99 ms':>15}{'ours cpu/wall':>15}{'cpu ratio':>11}"
              + (f"{'before pos/s':>14}{'bef/wolges':>12}{'bef p99 ms':>12}{'bef cpu r':>11}" if args.before else ""))
        disagreements: list[str] = []
        totals = {engine: 0.0 for engine in engines}
        cpu_totals = {engine: 0.0 for engine in engines}
        for set_name in SETS:
            best = {engine: min(measured[engine][set_name], key=lambda entry: entry[1]) for engine in measured}
            per_position = {engine: [min(entry[0][i][2] for entry in measured[engine][set_name])
                                     for i in range(len(sets[set_name]))] for engine in measured}
            p99 = {engine: sorted(times)[min(len(times) - 1, int(0.99 * len(times)))] / 1000
                   for engine, times in per_position.items()}
            for engine in totals:
                totals[engine] += best[engine][1]
            n = len(sets[set_name])
            wolges_rows = best["wolges"][0]
            for engine in engines:
                if engine == "wolges":
                    continue
                for index, ((our_best, our_count, _), (their_best, their_count, _)) in enumerate(
                        zip(best[engine][0], wolges_rows)):
                    board, rack = sets[set_name][index]
                    if board.is_empty():
                        their_count *= 2   # wolges walks the empty board across only; ours gives the down moves too
                    if our_best != their_best or our_count != their_count:
                        disagreements.append(f"{set_name} #{index}: {engine} {our_best} ({our_count} placements), "
                                             f"wolges {their_best} ({their_count}): {oracle_line(board, rack)}")
            cpu = best["ours"][2] or 0.0
            least_cpu = {engine: min(entry[2] or 0.0 for entry in measured[engine][set_name]) for engine in engines}
            for engine in engines:
                cpu_totals[engine] += least_cpu[engine]
            row = {"ours_per_s": n / best["ours"][1], "wolges_per_s": n / best["wolges"][1],
                   "ratio": best["ours"][1] / best["wolges"][1], "ours_p99_ms": p99["ours"],
                   "wolges_p99_ms": p99["wolges"], "ours_cpu_over_wall": cpu / best["ours"][1],
                   "cpu_ratio": least_cpu["ours"] / least_cpu["wolges"],
                   "rounds_ours_s": [entry[1] for entry in measured["ours"][set_name]],
                   "rounds_wolges_s": [entry[1] for entry in measured["wolges"][set_name]]}
            if args.before:
                row["before_per_s"] = n / best["before"][1]
                row["before_ratio"] = best["before"][1] / best["wolges"][1]
                row["before_p99_ms"] = p99["before"]
                row["before_cpu_ratio"] = least_cpu["before"] / least_cpu["wolges"]
            results["sets"][set_name] = row  # type: ignore[index]
            print(f"{set_name:<14}{n:>10}{row['ours_per_s']:>12.1f}{row['wolges_per_s']:>14.1f}{row['ratio']:>13.2f}"
                  f"{row['ours_p99_ms']:>13.2f}{row['wolges_p99_ms']:>15.2f}{row['ours_cpu_over_wall']:>15.2f}"
                  f"{row['cpu_ratio']:>11.2f}"
                  + (f"{row['before_per_s']:>14.1f}{row['before_ratio']:>12.2f}{row['before_p99_ms']:>12.2f}"
                     f"{row['before_cpu_ratio']:>11.2f}" if args.before else ""))
        ratio = totals["ours"] / totals["wolges"]
        cpu_ratio = cpu_totals["ours"] / cpu_totals["wolges"]
        print(f"{'overall':<14}{total_positions:>10}{total_positions / totals['ours']:>12.1f}"
              f"{total_positions / totals['wolges']:>14.1f}{ratio:>13.2f}{'':>13}{'':>15}{'':>15}{cpu_ratio:>11.2f}")
        results["overall"] = {"ours_per_s": total_positions / totals["ours"],
                              "wolges_per_s": total_positions / totals["wolges"], "ratio": ratio,
                              "cpu_ratio": cpu_ratio}
        if args.before:
            results["overall"]["before_per_s"] = total_positions / totals["before"]  # type: ignore[index]
            results["overall"]["before_ratio"] = totals["before"] / totals["wolges"]  # type: ignore[index]
            results["overall"]["before_cpu_ratio"] = cpu_totals["before"] / cpu_totals["wolges"]  # type: ignore[index]
            print(f"{'':<14}{'':>10}{'':>12}{'':>14}{'':>13}{'':>13}{'':>15}{'':>15}{'':>11}"
                  f"{total_positions / totals['before']:>14.1f}{totals['before'] / totals['wolges']:>12.2f}{'':>12}"
                  f"{cpu_totals['before'] / cpu_totals['wolges']:>11.2f}")
        print(f"\nratio ours/wolges (time, fastest round of each): {ratio:.2f}; on CPU time {cpu_ratio:.2f}; "
              f"two-blank p99: ours "
              f"{results['sets']['two_blank']['ours_p99_ms']:.2f} ms, wolges "  # type: ignore[index]
              f"{results['sets']['two_blank']['wolges_p99_ms']:.2f} ms")  # type: ignore[index]
        results["disagreements"] = disagreements
        if disagreements:
            print(f"\n{len(disagreements)} positions where the best score or the placements differ:")
            for line in disagreements[:10]:
                print("  " + line)
        else:
            print(f"best score and placements agree on all {total_positions} positions")
        if args.json:
            args.json.write_text(json.dumps(results, indent=1), encoding="utf-8")
        if disagreements:
            sys.exit(1)


if __name__ == "__main__":
    main()
