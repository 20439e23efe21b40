"""Benchmark of the move generator on the default lexicon, against a reference commit (issue 17).

In one run:

* builds the default lexicon with this tree (timed) and, for the reference, with the
  reference commit's tree (``git archive`` of ``--reference``, default 824cb18, the numba
  generator before issue 17; kept in ``bench/results/``, so that numba's cache is warm
  after the first run);
* draws the positions once: self-played games (``duplicate.rules.game.Game``, real rack rules)
  and two stress sets on the same boards, two-blank racks (5 random letters + ``??``) and
  digraph-heavy racks (CH, LL, RR, Ñ + 3 random letters);
* measures each tree's generator in a process of its own (``bench/movegen_worker.py``):
  import, load and first generation; per position, **full enumeration** of the legal moves
  plus the III.15 ranking of the top ones (what is compared); for this tree also the
  top-moves mode (``generate_top``, the master's path); the empty board with AE??RST;
  the process's peak memory (max RSS).

Times are wall clock per position; ``pos/cpu-s`` divides by the process's CPU time, which
other processes on a busy machine do not inflate. The reference needs numba
(``pip install -e '.[bench]'``); ``--no-reference`` skips it.

Usage: ``python bench/movegen.py [--games N] [--stress N] [--seed S] [--reference REV | --no-reference] [--json OUT]``.
Figures are quoted in ``docs/performance.md``.
"""

from __future__ import annotations

import argparse
import io
import json
import random
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import data
from duplicate.rules.game import Game
from lexicon.board import Board
from lexicon.default import WORD_LIST
from lexicon.lexicon import Lexicon

Position = tuple[Board, tuple[int, ...]]
REFERENCE = "824cb18"
SETS = ("self_play", "two_blank", "digraph_heavy")


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


def reference_tree(revision: str) -> Path:
    """The reference commit's tree (its packages), extracted once into ``bench/results/``."""
    commit = subprocess.run(["git", "rev-parse", "--short", revision], cwd=ROOT, capture_output=True, text=True,
                            check=True).stdout.strip()
    tree = ROOT / "bench" / "results" / f"reference-{commit}"
    if not (tree / "tui").is_dir():
        archive = subprocess.run(["git", "archive", "--format=tar", commit, "lexicon", "duplicate", "ranking", "tui",
                                  "data"], cwd=ROOT, capture_output=True, check=True).stdout
        tree.mkdir(parents=True, exist_ok=True)
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(tree, filter="data")
    return tree


def build_lexicon(tree: Path, output: Path) -> float:
    """Compile the default word list with ``tree``'s code, in a process of its own; seconds."""
    # This tree's word list in both cases: the reference commit shipped an earlier one.
    program = ("import sys, time; from pathlib import Path; sys.path.insert(0, sys.argv[1]); "
               "from lexicon.default import read_lines; from lexicon.lexicon import build; "
               "t = time.perf_counter(); build(read_lines(Path(sys.argv[3])), Path(sys.argv[2]), source=sys.argv[4]); "
               "print(time.perf_counter() - t)")
    done = subprocess.run([sys.executable, "-c", program, str(tree), str(output), str(data.path(WORD_LIST)), WORD_LIST],
                          capture_output=True, text=True, check=True)
    return float(done.stdout.strip().splitlines()[-1])


def measure(tree: Path, lexicon: Path, positions: Path, folder: Path) -> dict[str, object]:
    out = folder / f"worker-{tree.name}.json"
    subprocess.run([sys.executable, str(ROOT / "bench" / "movegen_worker.py"), "--code", str(tree), "--lexicon",
                    str(lexicon), "--positions", str(positions), "--out", str(out)], check=True)
    result: dict[str, object] = json.loads(out.read_text(encoding="utf-8"))
    return result


def table(title: str, measured: dict[str, object], mode: str) -> dict[str, dict[str, float]]:
    block = measured[mode]
    assert isinstance(block, dict)
    rows = {name: summary(block["times"][name], block["cpu_s"][name]) for name in SETS}
    rows["overall"] = summary([t for name in SETS for t in block["times"][name]], sum(block["cpu_s"].values()))
    print(f"\n{title}")
    print(f"{'set':<14}{'positions':>10}{'pos/s':>9}{'pos/cpu-s':>10}{'mean ms':>9}{'p50 ms':>9}{'p99 ms':>9}"
          f"{'max ms':>9}")
    for name, row in rows.items():
        print(f"{name:<14}{row['positions']:>10}{row['per_second']:>9.1f}{row['per_cpu_second']:>10.1f}"
              f"{row['mean_ms']:>9.2f}{row['p50_ms']:>9.2f}{row['p99_ms']:>9.2f}{row['max_ms']:>9.2f}")
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=45, help="self-played games (about 23 positions each)")
    parser.add_argument("--stress", type=int, default=150, help="positions in each stress set")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--reference", default=REFERENCE, help="the commit to compare with")
    parser.add_argument("--no-reference", action="store_true")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        lexicon_path = folder / "default.lex"
        build_s = build_lexicon(ROOT, lexicon_path)
        lexicon = Lexicon.load(lexicon_path)
        print(f"lexicon: {len(lexicon)} words from {WORD_LIST}; build {build_s:.2f} s (this tree)")
        positions = self_played_positions(lexicon, args.games, args.seed)
        sets = {"self_play": positions,
                **stress_positions(lexicon, [board for board, _ in positions], args.stress, args.seed)}
        positions_path = folder / "positions.json"
        positions_path.write_text(json.dumps({name: [(board.to_cgp(), list(rack)) for board, rack in chosen]
                                              for name, chosen in sets.items()}), encoding="utf-8")
        results: dict[str, object] = {"build_s": build_s, "words": len(lexicon)}
        trees = [("this tree", ROOT)]
        if not args.no_reference:
            trees.insert(0, (f"reference {args.reference}", reference_tree(args.reference)))
        for label, tree in trees:
            if tree != ROOT:
                reference_lexicon = folder / "reference.lex"
                results["reference_build_s"] = build_lexicon(tree, reference_lexicon)
                print(f"reference {args.reference}: build {results['reference_build_s']:.2f} s")
                measured = measure(tree, reference_lexicon, positions_path, folder)
            else:
                measured = measure(tree, lexicon_path, positions_path, folder)
            key = "reference" if tree != ROOT else "current"
            print(f"\n{label}: walker {measured['walker']}; import {measured['import_s']:.3f} s, load "
                  f"{measured['load_s']:.3f} s, first generate {measured['first_generate_s']:.3f} s; peak RSS "
                  f"{measured['peak_rss_mb']:.0f} MB")
            entry: dict[str, object] = {key2: measured[key2] for key2 in measured if key2 not in ("all", "top")}
            entry["all"] = table(f"{label}: full enumeration + III.15 ranking", measured, "all")
            if "top" in measured:
                entry["top"] = table(f"{label}: top-moves mode + III.15 ranking", measured, "top")
            for mode in ("all", "top"):
                case = measured.get(f"empty_ae_rst_{mode}")
                if isinstance(case, dict):
                    print(f"empty board AE??RST ({mode}): {1000 * case['best_s']:.1f}-{1000 * case['worst_s']:.1f} ms, "
                          f"{case['equal_tops']} equal tops of {case['score']}")
            results[key] = entry
        if "reference" in results:
            before, after = results["reference"], results["current"]
            assert isinstance(before, dict) and isinstance(after, dict)
            print("\nspeed-up of full enumeration (pos/cpu-s, this tree / reference):",
                  ", ".join(f"{name} {after['all'][name]['per_cpu_second'] / before['all'][name]['per_cpu_second']:.2f}x"
                            for name in (*SETS, "overall")))
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
