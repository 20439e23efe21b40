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

**The command, before and after (issue 38).** ``--tree DIR`` (given once or more) times
instead ``python -m tui.cli publish --db … --out …`` of each checkout (``PYTHONPATH=DIR``,
e.g. an extracted ``git archive`` of main with its ``lexicon/_gaddag*.so``) as a child
process, the trees' runs alternating A B A B … (the same load for each; the pattern of
``bench/cli_commands.py``, whose ``child_cpu`` it uses): wall time, CPU time (user +
system, the pool's workers included) and peak RSS of each run (``os.wait4``). Three steps
a run, into one folder: a first publication (empty folder); the same again, nothing
changed; and after one more round of the last game (``bench/tournament.py``'s
``add_round`` on a copy of the database). The event is written by this checkout's code:
the last game one round short, so that the round added completes it. ``--db FILE`` (e.g.
a ``duplicada simulate --players 300 --games 10`` database, copied first) times the first
two steps on that event instead. A terminal's progress bar is not drawn (the output is
captured: a pipe). Usage: ``python bench/publish.py --tree /tmp/pub-before --tree .
[--runs 3] [--db FILE]``; figures in docs/performance.md.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import re
import shutil
import statistics
import subprocess
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
sys.path.insert(0, str(Path(__file__).resolve().parent))
from cli_commands import PIN  # noqa: E402  (bench/cli_commands.py: the shared bench PIN)

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


def publish_child(tree: Path, database: Path, out: Path) -> tuple[float, float, float, str]:
    """Wall s, CPU s (user + system, its workers included) and peak RSS (MiB) of one
    ``python -m tui.cli publish`` of ``tree``, and its output."""
    env = {key: value for key, value in os.environ.items()
           if not key.startswith("DUPLICADA_") and key != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = str(tree)
    started = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-m", "tui.cli", "publish", "--db", str(database), "--out", str(out)],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, cwd=tree)
    assert process.stdout is not None
    output = process.stdout.read().decode()
    _pid, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise SystemExit(f"falló «publish» de {tree}: {output[-800:]}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, output


def compare_trees(trees: list[Path], runs: int, database: Path | None, players: int, games: int,
                  rounds: int) -> None:
    """The three steps of the module doc, for each tree, ``runs`` times, alternating."""
    folder = Path(tempfile.mkdtemp(prefix="duplicada-publish-"))
    try:
        steps = ["primera publicación", "otra vez, sin cambios"]
        if database is None:
            database = folder / "antes.db"
            started = time.perf_counter()
            service, tournament_id = build(f"sqlite:///{database}", players, games - 1, rounds)
            bench_tournament.fill_games(service, tournament_id, 1, rounds - 1, seed=12)
            service.db.dispose()
            shutil.copyfile(database, folder / "despues.db")
            service = TournamentService(open_database(f"sqlite:///{folder / 'despues.db'}"), station="bench", pin=PIN)
            bench_tournament.add_round(service, tournament_id, games, seed=13)
            service.db.dispose()
            steps.append("una ronda más")
            print(f"# {players} × {games} × {rounds} escrito en {time.perf_counter() - started:.1f} s "
                  f"(la partida {games} con {rounds - 1} rondas; después, {rounds})")
        else:
            shutil.copyfile(database, folder / "antes.db")
            database = folder / "antes.db"
        figures: dict[tuple[Path, str], list[tuple[float, float, float, int]]] = {}
        print(f"# {runs} ejecuciones, árboles alternados "
              f"({', '.join(f'{chr(65 + index)} = {tree}' for index, tree in enumerate(trees))}); "
              f"carga {os.getloadavg()[0]:.2f}", flush=True)
        for _ in range(runs):
            for tree in trees:
                out = folder / "publicacion"
                shutil.rmtree(out, ignore_errors=True)
                for step in steps:
                    source = folder / "despues.db" if step == "una ronda más" else database
                    wall, cpu, rss, output = publish_child(tree, source, out)
                    rewritten = re.search(r"Reescritos (\d+) de", output)
                    files = sum(1 for path in out.rglob("*") if path.is_file() and not path.name.startswith("."))
                    figures.setdefault((tree, step), []).append(
                        (wall, cpu, rss, int(rewritten.group(1)) if rewritten else files))
        print(f"| {'paso':<32} | {'mediana s':>9} | {'CPU s (mediana)':>15} | {'RSS MiB (máx.)':>14} | "
              f"{'reescritos':>10} |")
        print(f"|{'-' * 34}|{'-' * 10}:|{'-' * 16}:|{'-' * 15}:|{'-' * 11}:|")
        for step in steps:
            for index, tree in enumerate(trees):
                values = figures[(tree, step)]
                name = step + (f" ({chr(65 + index)})" if len(trees) > 1 else "")
                print(f"| {name:<32} | {statistics.median(v[0] for v in values):>9.2f} | "
                      f"{statistics.median(v[1] for v in values):>15.2f} | {max(v[2] for v in values):>14.0f} | "
                      f"{values[-1][3]:>10} |")
        print(f"# carga al final {os.getloadavg()[0]:.2f}")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", type=Path, action="append", default=None,
                        help="time the command of this checkout (twice or more: alternating)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--db", type=Path, default=None, help="with --tree: this event instead (copied)")
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--workers", type=int, default=None, help="processes (default: CPUs)")
    parser.add_argument("--formats", default=",".join(FORMATS))
    parser.add_argument("--out", type=Path, default=None, help="keep the publication in this folder")
    args = parser.parse_args()
    if args.tree:
        compare_trees([tree.resolve() for tree in args.tree], args.runs, args.db, args.players, args.games,
                      args.rounds)
        return

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
