"""Peak memory of ``duplicada export`` on a large tournament (issue 26 §3).

Builds (once, or reuses with ``--db FILE``) a SQLite tournament of ``--players`` players ×
``--games`` games × ``--rounds`` rounds written straight into the tables as
``bench/tournament.py`` does (synthetic slips), with one ``slip_entered`` event per slip
as a real tournament logs (chained), then runs ``duplicada export`` in a child process under
``/usr/bin/time -v`` and reports its peak resident memory (maximum RSS), the time and the
size of the record written.

Usage: ``python bench/export_memory.py [--players 300] [--games 10] [--rounds 20]
[--db FILE] [--out FILE]``. Figures quoted in docs/performance.md.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH.parent))
sys.path.insert(0, str(BENCH))

from sqlalchemy import insert, select

from duplicate.service.facade import TournamentService
from duplicate.service.settings import TournamentSettings
from duplicate.storage.database import open_database
from duplicate.storage.event_chain import extend_chain
from duplicate.storage.models import Event, GameRow, Slip
from lexicon.default import default_lexicon_path
from lexicon.lexicon import Lexicon
from tournament import fill_games  # bench/tournament.py

PIN = "juez-del-banco"


def build(path: Path, players: int, games: int, rounds: int) -> None:
    lexicon = Lexicon.load(default_lexicon_path(None))
    service = TournamentService(open_database(f"sqlite:///{path}"), station="bench", lexicon=lexicon, pin=PIN)
    tournament_id = service.create_tournament("Banco de exportación", settings=TournamentSettings(
        bonus_mode="automatic", criterion="average_percentage", tie_breaks=True))
    for index in range(players):
        service.add_player(f"Jugador {index:03d}", club="Club de pruebas", federation_id=f"B{index:04d}")
    fill_games(service, tournament_id, games, rounds, seed=7)
    now = datetime.now(UTC)
    with service.db.write() as session:
        for game_id in session.scalars(select(GameRow.id).where(GameRow.tournament_id == tournament_id)).all():
            rows = [{"tournament_id": tournament_id, "game_id": game_id, "round_number": slip.round_number,
                     "kind": "slip_entered", "station": "bench", "arbiter": "bench", "role": "assistant", "reason": "",
                     "created_at": now, "payload": {"table": slip.table_number, "entry": slip.entry_id,
                                                    "text": slip.text, "status": slip.status, "score": slip.score,
                                                    "move": slip.move, "reason": slip.reason}}
                    for slip in session.scalars(select(Slip).where(Slip.game_id == game_id))]
            session.execute(insert(Event), rows)
        extend_chain(session.connection(), tournament_id)     # inserted straight: chained here
    service.db.dispose()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--db", type=Path, help="the tournament database (built if it does not exist)")
    parser.add_argument("--out", type=Path, help="where the record goes (default: a temporary file)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        database = args.db or Path(folder) / "export.db"
        if not database.exists():
            started = time.perf_counter()
            build(database, args.players, args.games, args.rounds)
            print(f"base de datos: {args.players} jugadores × {args.games} partidas × {args.rounds} rondas "
                  f"en {time.perf_counter() - started:.0f} s")
        out = args.out or Path(folder) / "record.json"
        command = ["/usr/bin/time", "-v", sys.executable, "-m", "tui.cli", "export", "--db", str(database), str(out)]
        started = time.perf_counter()
        result = subprocess.run(command, capture_output=True, text=True, cwd=BENCH.parent,
                                env={**os.environ, "PYTHONPATH": str(BENCH.parent)})
        elapsed = time.perf_counter() - started
        if result.returncode != 0:
            print(result.stdout, result.stderr)
            return 1
        peak = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", result.stderr).group(1))  # type: ignore[union-attr]
        size = out.stat().st_size
        print(f"export: pico de memoria {peak / 1024:.0f} MiB, {elapsed:.1f} s, registro {size / 2**20:.1f} MiB "
              f"({peak * 1024 / size:.1f}× el registro)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
