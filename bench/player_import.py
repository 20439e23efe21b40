"""``duplicada player import`` of a growing CSV file, and a slip entry waiting on it (issue 36 §4).

For each size of ``--rows`` (default 250, 500, 1,000, 2,000) a fresh database gets a
tournament of ``--seated`` players with a game whose first round is open for slips (rack
drawn, master placed); then ``duplicada player import FILE`` runs as its own process (the
command line, as the judge types it, with the judge's PIN in ``$DUPLICADA_PIN``) on a file
of that many players: one in three with a federation id, one in fifty a homonym of an
earlier row told apart by its club. Printed per size: the command's wall time (start-up
included) and the players it entered.

With ``--concurrent`` (on the largest size) this process, another station, enters slips
through the service in a loop (one write transaction each, the judge's PIN, station
«puesto-2») while the import runs, and prints how many it entered, how many failed and the
longest one took (the wait for the import's lock included); and the same loop's longest
entry with no import running, to compare.

Usage: ``python bench/player_import.py [--rows 250 500 1000 2000] [--db sqlite|postgresql|URL]
[--concurrent] [--tree TREE]``. ``--db postgresql``: a fresh database per size on
127.0.0.1:5432 (user postgres), dropped afterwards; a URL: a server's maintenance database
(``…/test``) under which the fresh ones are made. ``--tree``: the source tree whose command
line runs the import (default: this one; another checkout measures the code before a change).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


from bench.scratch_databases import scratch_database
from duplicate.service.facade import TournamentService
from duplicate.service.errors import TournamentError
from duplicate.storage.database import open_database
from lexicon.default import default_lexicon_path
from lexicon.lexicon import Lexicon

JUDGE_PIN = "juez-de-la-importacion"


@contextmanager
def database(kind: str) -> Iterator[str]:
    """A fresh, empty database URL (``kind``: sqlite, postgresql or a server's admin URL), removed afterwards."""
    with scratch_database(kind, "importacion") as url:
        yield url


def players_file(path: Path, rows: int) -> None:
    """``rows`` players: one in three with a federation id, one in fifty a homonym of an earlier row (another club)."""
    lines = ["nombre,club,pais,federacion"]
    for index in range(rows):
        name = f"Jugadora {index // 50 * 50:05d}" if index % 50 == 49 else f"Jugadora {index:05d}"
        federation = f"F{index:06d}" if index % 3 == 0 else ""
        lines.append(f"{name},Club {index % 40 if index % 50 != 49 else 'Visitante'},ESP,{federation}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def prepare(url: str, lexicon: Lexicon, seated: int) -> tuple[TournamentService, int, str]:
    """A tournament of ``seated`` players whose game's first round is open for slips: the service, game and master."""
    service = TournamentService(open_database(url), station="juez", lexicon=lexicon, pin=JUDGE_PIN)
    service.create_tournament("Importación")
    for index in range(seated):
        service.add_player(f"Sentado {index:03d}")
    game = service.create_game(seed=36)
    service.draw_rack(game)
    view = service.choose_master(game)
    assert view.master is not None
    return service, game, view.master


def start_import(url: str, path: Path, tree: Path) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(tree), "DUPLICADA_PIN": JUDGE_PIN, "DUPLICADA_STATION": "juez"}
    return subprocess.Popen([sys.executable, "-m", "tui.cli", "player", "import", str(path), "--db", url],
                            cwd=tree, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def slip_loop(station: TournamentService, game: int, master: str, seated: int,
              running: subprocess.Popen[str] | None, count: int = 40) -> tuple[int, int, float]:
    """Slips entered one per transaction while ``running`` runs (or ``count`` of them):
    (entered, failed, longest seconds)."""
    entered = failed = 0
    longest = 0.0
    table = 0
    while (running.poll() is None) if running is not None else entered + failed < count:
        table = table % seated + 1
        started = time.perf_counter()
        try:
            station.enter_slip(game, table, master)
            entered += 1
        except TournamentError as error:
            failed += 1
            print(f"    slip of table {table} refused: {error}", file=sys.stderr)
        longest = max(longest, time.perf_counter() - started)
    return entered, failed, longest


def measure(kind: str, rows: int, lexicon: Lexicon, seated: int, tree: Path, concurrent: bool) -> None:
    with database(kind) as url, tempfile.TemporaryDirectory() as folder:
        service, game, master = prepare(url, lexicon, seated)
        path = Path(folder) / f"jugadores-{rows}.csv"
        players_file(path, rows)
        station = None
        if concurrent:
            station = TournamentService(open_database(url), station="puesto-2", lexicon=lexicon, pin=JUDGE_PIN)
            alone = slip_loop(station, game, master, seated, None)
        started = time.perf_counter()
        process = start_import(url, path, tree)
        during = slip_loop(station, game, master, seated, process) if station is not None else None
        out, err = process.communicate()
        seconds = time.perf_counter() - started
        entered = len(service.entries()) - seated
        status = "ok" if process.returncode == 0 else f"failed: {err.strip()[-300:]}"
        print(f"{rows:>6} rows: {seconds:7.2f} s  ({entered} players entered; {status})", flush=True)
        if station is not None and during is not None:
            print(f"        slips during the import: {during[0]} entered, {during[1]} failed, "
                  f"longest {during[2]:.3f} s (alone: longest of {alone[0]} {alone[2]:.3f} s)", flush=True)
            station.db.dispose()
        service.db.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, nargs="+", default=[250, 500, 1000, 2000])
    parser.add_argument("--db", default="sqlite", help="sqlite, postgresql, or a PostgreSQL server's admin URL")
    parser.add_argument("--seated", type=int, default=20, help="players seated before the import (default 20)")
    parser.add_argument("--concurrent", action="store_true", help="slips entered during the largest import")
    parser.add_argument("--tree", type=Path, default=ROOT, help="source tree whose command line imports")
    options = parser.parse_args()
    lexicon = Lexicon.load(default_lexicon_path(None))
    largest = max(options.rows)
    print(f"player import, {options.db}, tree {options.tree}")
    for rows in options.rows:
        measure(options.db, rows, lexicon, options.seated, options.tree.resolve(),
                options.concurrent and rows == largest)


if __name__ == "__main__":
    main()
