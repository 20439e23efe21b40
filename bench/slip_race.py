"""Slips racing ``round close`` (issue 34 §1, "Decide, then apply"), as stations do it.

For each of ``--rounds`` rounds of one game of ``--tables`` players: the judge draws the
rack and places the master (the service, in this process), then ``--tables`` processes
``duplicada slip enter TABLE TEXT`` (one per table: the master for even tables, a word
that is not in the lexicon for odd ones) and one ``duplicada round close`` are started
at once (the close in the middle of the slips) and waited for. Each command is a
separate process with its own database connection and the judge's PIN, as stations
typing at the same time.

Counted afterwards, from the database:

* ``after_close``: ``slip_entered`` / ``slip_conflict`` events stored for a round after
  that round's ``round_closed`` event (must be 0);
* ``open_conflicts_closed``: unresolved conflicts on a closed round (must be 0);
* ``lost``: ``slip enter`` commands that exited 0 but whose text is in no
  ``slip_entered`` / ``slip_conflict`` event of their table and round (must be 0);
* ``ok`` / ``refused``: commands that exited 0, and the ones refused with the «ronda …
  está cerrada» message (``RoundClosed``); ``other``: any other failure (must be 0).

Usage: ``python bench/slip_race.py --db sqlite|postgresql [--tables 40] [--rounds 4]
[--url URL]``. PostgreSQL: a fresh database is created on 127.0.0.1:5432 (user
postgres) and dropped afterwards, unless ``--url`` names one (it must be empty).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sqlalchemy import select

from bench.scratch_databases import scratch_database
from duplicate.service.access import TEST_SCRYPT_N_VARIABLE
from duplicate.service.facade import TournamentService
from duplicate.storage.database import open_database
from duplicate.storage.models import Conflict, Event, GameRow, RoundRow
from lexicon.default import default_lexicon_path
from lexicon.lexicon import Lexicon

JUDGE_PIN = "juez-de-la-carrera"
WRONG_WORD = "H8-ZZZZ"


@contextmanager
def database(kind: str, url: str | None) -> Iterator[str]:
    """A fresh, empty database URL of ``kind`` (removed afterwards), or ``url`` as it is."""
    if url is not None:
        yield url
        return
    with scratch_database(kind, "carrera") as created:
        yield created


def command(url: str, station: str, *args: str) -> subprocess.Popen[str]:
    """``duplicada --db URL ARGS`` as its own process, with the judge's PIN."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DUPLICADA_PIN": JUDGE_PIN, "DUPLICADA_STATION": station}
    return subprocess.Popen([sys.executable, "-m", "tui.cli", *args, "--db", url], cwd=ROOT,
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def race(url: str, tables: int, rounds: int, scrypt_n: int) -> dict[str, int]:
    lexicon = Lexicon.load(default_lexicon_path(None))
    os.environ[TEST_SCRYPT_N_VARIABLE] = str(scrypt_n)      # the PINs' digests are made with this cost
    service = TournamentService(open_database(url), station="juez", lexicon=lexicon, pin=JUDGE_PIN)
    service.create_tournament("Carrera de papeletas")
    for index in range(tables):
        service.add_player(f"Jugador {index:03d}")
    game = service.create_game(seed=34, rounds=rounds)
    succeeded: list[tuple[int, int, str]] = []          # (round, table, text) of each command that exited 0
    counts = {"ok": 0, "refused": 0, "other": 0, "close_failed": 0}
    started = time.perf_counter()
    for _ in range(rounds):
        service.draw_rack(game)
        view = service.choose_master(game)
        assert view.master is not None
        number = view.number
        texts = {table: view.master if table % 2 == 0 else WRONG_WORD for table in range(1, tables + 1)}
        slips = []
        for table in range(1, tables + 1):
            slips.append((table, command(url, f"puesto{table}", "slip", "enter", str(table), texts[table])))
            if table == tables // 2:
                closing = command(url, "juez", "round", "close", "--round", str(number))
        for table, process in slips:
            _, err = process.communicate(timeout=600)
            if process.returncode == 0:
                counts["ok"] += 1
                succeeded.append((number, table, texts[table]))
            elif "está cerrada" in err:
                counts["refused"] += 1
            else:
                counts["other"] += 1
                print(f"mesa {table}, ronda {number}: {err.strip()}", file=sys.stderr)
        _, err = closing.communicate(timeout=600)
        if closing.returncode != 0:
            counts["close_failed"] += 1
            print(f"round close, ronda {number}: {err.strip()}", file=sys.stderr)
    counts["seconds"] = round(time.perf_counter() - started)
    counts.update(audit(service, game, succeeded))
    service.db.dispose()
    return counts


def audit(service: TournamentService, game_number: int, succeeded: list[tuple[int, int, str]]) -> dict[str, int]:
    """The three figures of the issue, read from the stored events and tables."""
    with service.db.read() as session:
        game = session.scalar(select(GameRow).where(GameRow.number == game_number))
        assert game is not None
        events = list(session.scalars(select(Event).where(Event.game_id == game.id).order_by(Event.id)))
        closed_at = {event.round_number: event.id for event in events if event.kind == "round_closed"}
        slip_kinds = ("slip_entered", "slip_conflict")
        after = [event for event in events if event.kind in slip_kinds and event.round_number in closed_at
                 and event.id > closed_at[event.round_number]]
        closed_rounds = set(session.scalars(select(RoundRow.number).where(RoundRow.game_id == game.id,
                                                                          RoundRow.closed.is_(True))))
        open_conflicts = [conflict for conflict in session.scalars(select(Conflict).where(
            Conflict.game_id == game.id, Conflict.resolution.is_(None)))
            if conflict.round_number in closed_rounds]
        recorded = {(event.round_number, int(event.payload["table"]), str(event.payload["text"]))
                    for event in events if event.kind in slip_kinds}
        lost = [item for item in succeeded if item not in recorded]
    return {"after_close": len(after), "open_conflicts_closed": len(open_conflicts), "lost": len(lost)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", choices=["sqlite", "postgresql"], default="sqlite")
    parser.add_argument("--url", default=None, help="an empty database to use instead of a fresh one")
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--scrypt-n", type=int, default=2**10,
                        help="scrypt N of the PINs (default 1024; the product's is 16384)")
    options = parser.parse_args()
    with database(options.db, options.url) as url:
        counts = race(url, options.tables, options.rounds, options.scrypt_n)
    print(f"{options.db}: {options.tables} slips × {options.rounds} rounds racing «round close»")
    for key in ("after_close", "open_conflicts_closed", "lost", "ok", "refused", "other", "close_failed", "seconds"):
        print(f"  {key:22} {counts[key]}")


if __name__ == "__main__":
    main()
