"""Benchmark of the publication (issue 6): a 300-player, 10-game tournament, every page and PDF.

The games are written straight into the tables (``bench/tournament.py``'s ``fill_games``:
20 rounds, synthetic scores, every slip valid), then about one slip in 25 is turned
into a late slip scored 0 with its reason (III.25.b), so that penalties are listed, and
bonuses are automatic (III.24). Then ``publish_results`` writes everything: the HTML
site (index, 10 game pages, partial standings, 300 player pages), the PDFs (10
noticeboard documents, 10 × 300 follow-up sheets, 10 × 300 pads of 30 slips, overall
standings, blank sheet), the CSV files and the XLSX workbook. Target: ≤ 60 s on a
2-core machine.

Usage: ``python bench/publish.py [--players N] [--games G] [--rounds R] [--workers W]
[--out DIR] [--formats html,pdf,csv,xlsx]``. Figures are quoted in the report of issue 6.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sqlalchemy import update

from duplicate.publishing.site import FORMATS, publish_results
from duplicate.service.facade import TournamentService
from duplicate.service.settings import TournamentSettings
from duplicate.storage.database import open_database
from duplicate.storage.models import Slip

_spec = importlib.util.spec_from_file_location("bench_tournament", Path(__file__).with_name("tournament.py"))
assert _spec is not None and _spec.loader is not None
bench_tournament = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench_tournament)

NAMES = ("Ángela", "Begoña", "Íñigo", "Núria", "Óscar", "Úrsula", "José María", "Ñusta", "Raúl", "Sofía")
SURNAMES = ("Muñoz", "Peña", "Ibáñez", "Castaño", "Gómez", "Núñez", "Álvarez", "Cañete", "Zúñiga", "Díaz")


def build(url: str, players: int, games: int, rounds: int) -> tuple[TournamentService, int]:
    """A tournament of ``players`` × ``games`` finished games of ``rounds`` rounds, written directly."""
    service = TournamentService(open_database(url), station="bench", pin="juez-del-banco")
    tournament_id = service.create_tournament("Open Internacional de Peñíscola", venue="Peñíscola (Castellón)",
                                              settings=TournamentSettings(bonus_mode="automatic",
                                                                          criterion="average_place"))
    for index in range(players):
        service.add_player(f"{NAMES[index % 10]} {SURNAMES[index // 10 % 10]} {index:03d}", club="Club Ñandú",
                           country="España", tournament_id=tournament_id)
    bench_tournament.fill_games(service, tournament_id, games, rounds, seed=11)
    with service.db.write() as session:
        session.execute(update(Slip).where(Slip.id % 25 == 0).values(
            status="late", score=0, reason="jugada entregada fuera de tiempo (III.13, III.25.b): 0 puntos"))
    return service, tournament_id


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--workers", type=int, default=None, help="processes (default: CPUs)")
    parser.add_argument("--formats", default=",".join(FORMATS))
    parser.add_argument("--out", type=Path, default=None, help="keep the publication in this folder")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as folder:
        started = time.perf_counter()
        service, tournament_id = build(f"sqlite:///{Path(folder) / 'bench.db'}", args.players, args.games,
                                       args.rounds)
        print(f"data: {args.players} players × {args.games} games × {args.rounds} rounds written in "
              f"{time.perf_counter() - started:.1f} s")
        out = args.out or Path(folder) / "publicacion"
        publication = publish_results(service, out, tournament_id=tournament_id, workers=args.workers,
                                      formats=args.formats.split(","))
        size = sum((out / path).stat().st_size for path in publication.files) / 1e6
        print(f"publish: {publication.seconds:.1f} s — {publication.count('.html')} HTML, "
              f"{publication.count('.pdf')} PDF, {publication.count('.csv')} CSV, {publication.count('.xlsx')} XLSX, "
              f"{size:.1f} MB (workers: {args.workers or 'all CPUs'})")
        service.db.dispose()


if __name__ == "__main__":
    main()
