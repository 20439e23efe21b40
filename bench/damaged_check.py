"""What checking a SQLite file before a process's first write costs (issue 36 §3).

Builds (once, or reuses with ``--db FILE``) a tournament as ``bench/export_memory.py`` does:
``--players`` players × ``--games`` games × ``--rounds`` rounds, synthetic rounds and slips
written straight into the tables (a plain session: not through the projector, which would
refuse it) with one chained ``slip_entered`` event per slip, as a real tournament logs. Then, on that file (warm in the page cache, as a station finds it):

* ``PRAGMA quick_check`` (what ``Database.check_file`` runs) and, for comparison,
  ``PRAGMA integrity_check``: the median and the largest of ``--runs`` runs;
* ``Database.check_file`` itself on a freshly opened database (the first write's extra
  cost), and a second call on the same object (what every later write pays: nothing).

Usage: ``python bench/damaged_check.py [--players 300] [--games 10] [--rounds 20]
[--runs 5] [--db FILE]``. Figures quoted in docs/robustness.md.
"""

from __future__ import annotations

import argparse
import contextlib
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH.parent))
sys.path.insert(0, str(BENCH))

from sqlalchemy import insert  # noqa: E402
from sqlalchemy.orm import Session  # noqa: E402

from duplicate.service.facade import TournamentService  # noqa: E402
from duplicate.storage.database import open_database  # noqa: E402
from duplicate.storage.event_chain import extend_chain  # noqa: E402
from duplicate.storage.models import Event, GameRow, RoundRow, Seat, Slip  # noqa: E402
from lexicon.default import default_lexicon_path  # noqa: E402
from lexicon.lexicon import Lexicon  # noqa: E402

PIN = "juez-del-banco"


def build(path: Path, players: int, games: int, rounds: int, seed: int = 7) -> None:
    """The tournament file: players through the service, then finished games of synthetic
    rounds and slips, and a chained ``slip_entered`` event per slip, written directly."""
    lexicon = Lexicon.load(default_lexicon_path(None))
    service = TournamentService(open_database(f"sqlite:///{path}"), station="bench", lexicon=lexicon, pin=PIN)
    tournament_id = service.create_tournament("Banco de comprobación")
    for index in range(players):
        service.add_player(f"Jugador {index:03d}", club="Club de pruebas", federation_id=f"B{index:04d}")
    entries = [entry.id for entry, _ in service.entries(tournament_id)]
    rng = random.Random(seed)
    now = datetime.now(UTC)
    with Session(service.db.engine) as session, session.begin():
        for number in range(1, games + 1):
            game = GameRow(tournament_id=tournament_id, number=number, planned_rounds=rounds, seconds_per_round=180,
                           seed=number, status="final")
            session.add(game)
            session.flush()
            order = entries[:]
            rng.shuffle(order)
            session.execute(insert(Seat), [{"game_id": game.id, "entry_id": entry, "table_number": table}
                                           for table, entry in enumerate(order, start=1)])
            cumulative = 0
            for round_number in range(1, rounds + 1):
                master = rng.randint(20, 110)
                cumulative += master
                session.add(RoundRow(game_id=game.id, number=round_number, rack="AEIOUST", board_before="15/" * 14 + "15",
                                     top_score=master, top_moves=[["H8-X", master, ""]], move_count=1, master="H8-X",
                                     master_score=master, cumulative=cumulative, closed=True))
                slips = [{"game_id": game.id, "round_number": round_number, "entry_id": entry, "table_number": table,
                          "text": "H8-X", "move": None, "status": "valid", "score": rng.randint(0, master),
                          "reason": "", "entered_by": "bench", "entered_at": now}
                         for table, entry in enumerate(order, start=1)]
                session.execute(insert(Slip), slips)
                session.execute(insert(Event), [
                    {"tournament_id": tournament_id, "game_id": game.id, "round_number": round_number,
                     "kind": "slip_entered", "station": "bench", "arbiter": "bench", "role": "assistant", "reason": "",
                     "created_at": now, "payload": {"table": slip["table_number"], "entry": slip["entry_id"],
                                                    "text": slip["text"], "status": "valid", "score": slip["score"],
                                                    "move": None, "reason": ""}} for slip in slips])
        extend_chain(session.connection(), tournament_id)     # inserted straight: chained here
    service.db.dispose()


def pragma_seconds(path: Path, pragma: str, runs: int) -> list[float]:
    """Seconds of ``PRAGMA pragma`` on ``path`` (read only), ``runs`` times; asserts it says ok."""
    times = []
    for _ in range(runs):
        with contextlib.closing(sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)) as connection:
            started = time.perf_counter()
            rows = connection.execute(f"PRAGMA {pragma}").fetchall()
            times.append(time.perf_counter() - started)
        assert rows == [("ok",)], rows
    return times


def check_file_seconds(path: Path, runs: int) -> tuple[list[float], list[float]]:
    """Seconds of ``Database.check_file`` on a freshly opened database (first call) and
    again on the same object (second call), ``runs`` times each."""
    first, second = [], []
    for _ in range(runs):
        database = open_database(str(path), create=False)
        started = time.perf_counter()
        database.check_file()
        first.append(time.perf_counter() - started)
        started = time.perf_counter()
        database.check_file()
        second.append(time.perf_counter() - started)
        database.dispose()
    return first, second


def shown(times: list[float]) -> str:
    return f"mediana {statistics.median(times) * 1000:.0f} ms, máximo {max(times) * 1000:.0f} ms"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--db", type=Path, help="the tournament database (built if it does not exist)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        database = args.db or Path(folder) / "torneo.db"
        if not database.exists():
            started = time.perf_counter()
            build(database, args.players, args.games, args.rounds)
            print(f"base de datos: {args.players} jugadores × {args.games} partidas × {args.rounds} rondas "
                  f"en {time.perf_counter() - started:.0f} s")
        with contextlib.closing(sqlite3.connect(database)) as connection:
            connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            pages = connection.execute("PRAGMA page_count").fetchone()[0]
            slips = connection.execute("SELECT count(*) FROM slips").fetchone()[0]
            events = connection.execute("SELECT count(*) FROM events").fetchone()[0]
        print(f"archivo: {database.stat().st_size / 2**20:.1f} MiB, {pages} páginas, {slips} papeletas, "
              f"{events} eventos")
        print(f"PRAGMA quick_check: {shown(pragma_seconds(database, 'quick_check', args.runs))}")
        print(f"PRAGMA integrity_check: {shown(pragma_seconds(database, 'integrity_check', args.runs))}")
        first, second = check_file_seconds(database, args.runs)
        print(f"check_file, primera escritura del proceso: {shown(first)}")
        print(f"check_file, escrituras siguientes: {shown(second)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
