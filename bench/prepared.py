"""How long prepared games take (issue 27 §1): generating one with quality filters,
checking one, and playing one through the service.

With the default lexicon: ``generate_filtered`` for a few filter sets (seeds 1..N, the
attempts each needed, seconds per file), ``check_prepared`` on each file, and a full
prepared game played through the service on SQLite (game start with its check, every
``draw_rack`` and ``choose_master``). Prints one line per measure; ``--json OUT`` writes them.

Usage: ``python bench/prepared.py [--seeds 10] [--json OUT]``. Figures quoted in
docs/performance.md.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from duplicate.prepared.check import check_prepared
from duplicate.prepared.generation import FiltersNotMet, QualityFilters, generate_filtered
from duplicate.service.facade import TournamentService
from duplicate.storage.database import open_database
from lexicon.default import default_lexicon_path
from lexicon.lexicon import Lexicon

FILTERS = {
    "ninguno (20 rondas)": (20, QualityFilters()),
    "total ≥ 1000": (None, QualityFilters(min_total=1000)),
    "19–21 rondas, ≥ 4 scrabbles": (None, QualityFilters(min_rounds=19, max_rounds=21, min_bingos=4)),
    "total ≥ 1100, ≥ 5 scrabbles": (None, QualityFilters(min_total=1100, min_bingos=5)),
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    lexicon = Lexicon.load(default_lexicon_path(None))
    results: dict[str, object] = {}
    last = None
    for name, (rounds, filters) in FILTERS.items():
        times, attempts, checks, failed = [], [], [], 0
        for seed in range(1, args.seeds + 1):
            started = time.perf_counter()
            try:
                game = generate_filtered(lexicon, seed, rounds, filters, attempts=200)
            except FiltersNotMet:
                failed += 1
                continue
            times.append(time.perf_counter() - started)
            attempts.append(int(game.origin["attempt"]))
            started = time.perf_counter()
            assert check_prepared(game.to_dict(), lexicon) == []
            checks.append(time.perf_counter() - started)
            last = game
        line = {"median_s": statistics.median(times) if times else None, "max_s": max(times, default=None),
                "median_attempts": statistics.median(attempts) if attempts else None,
                "max_attempts": max(attempts, default=None), "check_median_s": statistics.median(checks) if checks else None,
                "not_met_in_200": failed}
        results[name] = line
        print(f"{name:<30} generar: mediana {line['median_s']:.3f} s, máx {line['max_s']:.3f} s; intentos: mediana "
              f"{line['median_attempts']}, máx {line['max_attempts']}; comprobar: {line['check_median_s']:.3f} s; "
              f"sin cumplir en 200: {failed}")
    assert last is not None
    with tempfile.TemporaryDirectory() as folder:
        service = TournamentService(open_database(str(Path(folder) / "t.db")), lexicon=lexicon, pin="juez-bench")
        service.create_tournament("Bench")
        for index in range(20):
            service.add_player(f"Jugador {index}")
        started = time.perf_counter()
        number = service.create_game(prepared=last)
        opened = time.perf_counter() - started
        started = time.perf_counter()
        for _ in last.rounds:
            service.draw_rack(number)
            service.choose_master(number)
        played = time.perf_counter() - started
    results["service"] = {"game_start_s": opened, "rounds": len(last.rounds), "play_s": played}
    print(f"servicio: game start (con la comprobación) {opened:.3f} s; {len(last.rounds)} rondas "
          f"(rack draw + master choose) {played:.3f} s")
    if args.json:
        args.json.write_text(json.dumps(results, ensure_ascii=False, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
