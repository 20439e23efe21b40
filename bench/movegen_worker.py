"""One measuring process of ``bench/movegen.py``: the move generator of one code tree.

Run by ``bench/movegen.py``, once on this tree and once on the reference commit's tree
(``--code DIR``), so that each generator is measured in a process of its own (its memory
is its own) on the same positions. It uses only what both trees have: ``Lexicon.load``,
``lexicon.movegen.generate``, ``duplicate.rules.master.rank_top_moves``, ``Board.from_cgp``.

Writes a JSON object: import, load and first-generation seconds; per-position seconds of
full enumeration plus the III.15 ranking of the top moves, by set; where the tree has
``generate_top`` (the top-moves mode), the same with it; the empty-board AE??RST case;
peak RSS.

Usage: ``python bench/movegen_worker.py --code DIR --lexicon FILE --positions FILE --out FILE``.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--code", type=Path, required=True, help="the tree whose generator is measured")
    parser.add_argument("--lexicon", type=Path, required=True, help="a lexicon compiled by that tree")
    parser.add_argument("--positions", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    sys.path.insert(0, str(args.code.resolve()))

    started = time.perf_counter()
    from duplicate.rules.master import rank_top_moves
    from lexicon import movegen
    from lexicon.board import Board
    from lexicon.lexicon import Lexicon
    import_s = time.perf_counter() - started

    started = time.perf_counter()
    lexicon = Lexicon.load(args.lexicon)
    load_s = time.perf_counter() - started
    alphabet = lexicon.alphabet
    started = time.perf_counter()
    movegen.generate(Board(alphabet), alphabet.tokenize("CASA"), lexicon)
    first_s = time.perf_counter() - started

    sets = json.loads(args.positions.read_text(encoding="utf-8"))
    boards = {cgp: Board.from_cgp(cgp, alphabet) for chosen in sets.values() for cgp, _rack in chosen}
    result: dict[str, object] = {"walker": movegen.walker_name(), "import_s": import_s, "load_s": load_s,
                                 "first_generate_s": first_s}
    top_mode = getattr(movegen, "generate_top", None)
    modes = {"all": movegen.generate, **({"top": top_mode} if top_mode else {})}
    for mode, generator in modes.items():
        timings: dict[str, list[float]] = {}
        cpu: dict[str, float] = {}
        for name, chosen in sets.items():
            times = []
            cpu_started = time.process_time()
            for cgp, rack in chosen:
                board = boards[cgp]
                started = time.perf_counter()
                moves = generator(board, rack, lexicon)
                rank_top_moves(board, rack, moves)
                times.append(time.perf_counter() - started)
            timings[name] = times
            cpu[name] = time.process_time() - cpu_started
        result[mode] = {"times": timings, "cpu_s": cpu}

    rack = (*alphabet.tokenize("AERST"), alphabet.blank, alphabet.blank)
    for mode, generator in modes.items():
        times = []
        for _ in range(5):
            started = time.perf_counter()
            ranked = rank_top_moves(Board(alphabet), rack, generator(Board(alphabet), rack, lexicon))
            times.append(time.perf_counter() - started)
        result[f"empty_ae_rst_{mode}"] = {"best_s": min(times), "worst_s": max(times), "equal_tops": len(ranked),
                                          "score": ranked[0].score}
    result["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    args.out.write_text(json.dumps(result), encoding="utf-8")


if __name__ == "__main__":
    main()
