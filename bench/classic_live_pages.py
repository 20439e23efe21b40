"""Benchmark of the classic divisions' live pages and of the mirror (issue 37).

A classic event of ``--players`` players and ``--rounds`` rounds is simulated through the
services (``ranking.classic.simulate``); then, ``--repeat`` times each:

* ``with_classic_pages`` from nothing (every page rendered, the standings after each round
  asked of the service),
* ``with_classic_pages(previous=…)`` with nothing changed (what a rebuild costs after an
  event of another division or of a duplicate game),
* ``write_mirror`` of the whole site into an empty folder, then again unchanged (every file
  compared, none written).

Usage: ``python bench/classic_live_pages.py [--players 40] [--rounds 9] [--repeat 3]``.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from duplicate.publishing.live_pages import live_site, write_mirror  # noqa: E402
from duplicate.service.facade import TournamentService  # noqa: E402
from duplicate.storage.database import open_database  # noqa: E402
from ranking.classic.live_pages import with_classic_pages  # noqa: E402
from ranking.classic.simulate import simulate_classic  # noqa: E402


def timed(function: object, repeat: int) -> tuple[float, float]:
    """Median and max seconds of ``repeat`` calls."""
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        function()                                               # type: ignore[operator]
        times.append(time.perf_counter() - started)
    return statistics.median(times), max(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--players", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        judge = TournamentService(open_database(str(Path(folder) / "bench.db")), station="bench")
        simulation = simulate_classic(judge, players=args.players, rounds=args.rounds, seed=1,
                                      judge_pin="juez-de-banco", assistant_pin="auxiliar-de-banco")
        viewer = judge.with_pin(None)
        base = live_site(viewer, simulation.tournament_id)
        site = with_classic_pages(base, viewer, simulation.tournament_id)
        classic = [name for name in site.pages if name not in base.pages]
        size = sum(len(site.pages[name].encode()) for name in classic)
        full = timed(lambda: with_classic_pages(base, viewer, simulation.tournament_id), args.repeat)
        kept = timed(lambda: with_classic_pages(base, viewer, simulation.tournament_id, previous=site),
                     args.repeat)
        mirror = Path(folder) / "espejo"

        def fresh() -> None:
            shutil.rmtree(mirror, ignore_errors=True)
            write_mirror(site, mirror)

        first = timed(fresh, args.repeat)
        again = timed(lambda: write_mirror(site, mirror), args.repeat)
    print(f"{args.players} jugadores, {simulation.rounds} rondas: {len(classic)} páginas clásicas "
          f"({size / 1e6:.2f} MB), {len(site.pages)} en el sitio")
    print(f"with_classic_pages: desde cero mediana {full[0]:.3f} s (máx {full[1]:.3f}); "
          f"sin cambios, previous=… mediana {kept[0]:.3f} s (máx {kept[1]:.3f})")
    print(f"write_mirror: carpeta vacía mediana {first[0]:.3f} s (máx {first[1]:.3f}); "
          f"sin cambios mediana {again[0]:.3f} s (máx {again[1]:.3f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
