"""A whole simulated classic event through the services (issue 16): 150 players, 9 rounds.

Creates the event in a temporary SQLite database with ``ranking.classic.simulate`` (the
judge pairs every round, an assistant's station enters every board, some are confirmed from
a second station) and prints the wall time, the boards entered and the standings' time.

Usage: ``python bench/classic_event.py [--players 150] [--rounds 9] [--system dutch] [--seed 1]``.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from duplicate.service.facade import TournamentService  # noqa: E402
from duplicate.storage.database import open_database  # noqa: E402
from ranking.classic.service import ClassicService  # noqa: E402
from ranking.classic.simulate import simulate_classic  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--players", type=int, default=150)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--system", default="dutch")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        service = TournamentService(open_database(str(Path(folder) / "bench.db")), station="bench")
        started = time.perf_counter()
        result = simulate_classic(service, players=args.players, rounds=args.rounds, seed=args.seed,
                                  system=args.system, judge_pin="juez-de-banco", assistant_pin="auxiliar-de-banco")
        elapsed = time.perf_counter() - started
        started = time.perf_counter()
        lines = ClassicService(service.db).standings()
        standings_time = time.perf_counter() - started
    print(f"{args.players} jugadores, {args.rounds} rondas ({args.system}): {elapsed:.1f} s en total, "
          f"{result.boards} mesas anotadas, {result.confirmations} confirmaciones; "
          f"clasificación con desempates {standings_time:.2f} s ({len(lines)} líneas)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
