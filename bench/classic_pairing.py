"""Pairing time of a large Swiss event (issue 16: a round of 150 players in ≤ 2 s).

Simulates a 150-player, 9-round event (random results, seeded), pairing every round with
each Swiss system through ``ranking.classic.engines.pair_next_round`` (which includes
writing the TRF for the engine and checking the absolute rules), and prints per system the
mean and the worst round in seconds.

Usage: ``python bench/classic_pairing.py [--players 150] [--rounds 9] [--seed 1]``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ranking.classic.engines import available_systems, pair_next_round  # noqa: E402
from ranking.classic.trf import Trf, TrfPlayer, with_round  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--players", type=int, default=150)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for system in available_systems():
        rng = random.Random(args.seed)
        ratings = sorted((rng.randint(1000, 2200) for _ in range(args.players)), reverse=True)
        trf = Trf(tuple(TrfPlayer(n, f"Jugador {n}", r) for n, r in enumerate(ratings, start=1)),
                  total_rounds=args.rounds, first_colour="w")
        times = []
        for _ in range(args.rounds):
            started = time.perf_counter()
            pairs = pair_next_round(trf, system)
            times.append(time.perf_counter() - started)
            results = {p.first: rng.choice("110=0") for p in pairs if p.second}
            trf = with_round(trf, [(p.first, p.second) for p in pairs], results)
        print(f"{system.value:>11}: {args.players} jugadores, {args.rounds} rondas: media {statistics.mean(times):.3f} s,"
              f" peor ronda {max(times):.3f} s (ronda {times.index(max(times)) + 1})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
