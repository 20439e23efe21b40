"""Benchmark of the tournament service (issue 3 §10).

Measures, on a SQLite file (and on PostgreSQL with ``--db URL``):

* entering and scoring one slip, including the commit (``TournamentService.enter_slip``),
  for every table of a 300-player game, a mix of valid and faulty slips;
* tournament standings for 300 players × 10 games × 20 rounds, read from the database
  (``TournamentService.tournament_standings``) — the games are written straight into
  the tables with synthetic scores, which is what the standings read;
* one game's standings on the same data.

Usage: ``python bench/tournament.py [--db URL] [--players N] [--games G] [--rounds R]``.
Figures are quoted in ``docs/performance.md``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import insert, select
from sqlalchemy.orm import Session

from duplicate.rules.statuses import GameStatus
from duplicate.service.facade import TournamentService
from duplicate.service.settings import TournamentSettings
from duplicate.storage.database import open_database
from duplicate.storage.models import GameRow, RoundRow, Seat, Slip
from lexicon.default import default_lexicon_path
from lexicon.lexicon import Lexicon


def time_slip_entry(service: TournamentService, players: int) -> list[float]:
    """Seconds per ``enter_slip`` (judge + store + commit) for every table of one round."""
    game = service.create_game(seed=99)
    view = service.draw_rack(game)
    assert view is not None
    view = service.choose_master(game)
    assert view.master is not None
    coordinate, word = view.master.split("-")
    # The commonest mistake: the coordinate's order swapped (H12 ↔ 12H).
    swapped = coordinate[1:] + coordinate[0] if coordinate[0].isalpha() else coordinate[-1] + coordinate[:-1]
    texts = [view.master, view.master, f"{swapped}-{word}", f"{coordinate}-{word}Z", view.master.lower(), "H8"]
    rng = random.Random(1)
    times = []
    for table in range(1, players + 1):
        text = rng.choice(texts)
        started = time.perf_counter()
        service.enter_slip(game, table, text)
        times.append(time.perf_counter() - started)
    return times


def fill_games(service: TournamentService, tournament_id: int, games: int, rounds: int, seed: int) -> None:
    """Write ``games`` finished games of ``rounds`` rounds with synthetic slips, directly into
    the tables: a plain session, not the database's guarded write session (issue 34: only
    the projector writes the projected tables there, and these synthetic rows have no
    events). What the benchmarks time is reading them."""
    rng = random.Random(seed)
    entries = [entry.id for entry, _ in service.entries(tournament_id)]
    now = datetime.now(UTC)
    with Session(service.db.engine) as session, session.begin():
        first = (session.scalar(select(GameRow.number).where(GameRow.tournament_id == tournament_id)
                                .order_by(GameRow.number.desc()).limit(1)) or 0) + 1
        for number in range(first, first + games):
            game = GameRow(tournament_id=tournament_id, number=number, planned_rounds=rounds, seconds_per_round=180,
                           seed=number, status=GameStatus.FINAL.value)
            session.add(game)
            session.flush()
            order = entries[:]
            rng.shuffle(order)
            session.execute(insert(Seat), [{"game_id": game.id, "entry_id": entry, "table_number": table}
                                           for table, entry in enumerate(order, start=1)])
            cumulative = 0
            skill = {entry: rng.random() for entry in entries}
            for round_number in range(1, rounds + 1):
                master = rng.randint(20, 110)
                cumulative += master
                session.add(RoundRow(game_id=game.id, number=round_number, rack="AEIOUST", board_before="15/" * 14 + "15",
                                     top_score=master, top_moves=[["H8-X", master, ""]], move_count=1, master="H8-X",
                                     master_score=master, cumulative=cumulative, closed=True))
                rows = []
                for table, entry in enumerate(order, start=1):
                    score = master if rng.random() < skill[entry] * 0.7 else int(master * rng.random() * skill[entry])
                    rows.append({"game_id": game.id, "round_number": round_number, "entry_id": entry,
                                 "table_number": table, "text": "x", "move": None, "status": "valid", "score": score,
                                 "reason": "", "entered_by": "bench", "entered_at": now})
                session.execute(insert(Slip), rows)



def add_round(service: TournamentService, tournament_id: int, number: int, seed: int) -> None:
    """One more closed round at the end of game ``number`` (written as ``fill_games``
    writes them, directly into the tables): a master and every seated player's slip."""
    from sqlalchemy import update

    rng = random.Random(seed)
    now = datetime.now(UTC)
    with Session(service.db.engine) as session, session.begin():
        game = session.scalars(select(GameRow).where(GameRow.tournament_id == tournament_id,
                                                     GameRow.number == number)).one()
        last = session.scalars(select(RoundRow).where(RoundRow.game_id == game.id)
                               .order_by(RoundRow.number.desc()).limit(1)).one()
        master = rng.randint(20, 110)
        session.add(RoundRow(game_id=game.id, number=last.number + 1, rack="AEIOUST", board_before="15/" * 14 + "15",
                             top_score=master, top_moves=[["H8-X", master, ""]], move_count=1, master="H8-X",
                             master_score=master, cumulative=last.cumulative + master, closed=True))
        session.execute(update(GameRow).where(GameRow.id == game.id).values(planned_rounds=last.number + 1))
        seats = session.execute(select(Seat.entry_id, Seat.table_number).where(Seat.game_id == game.id)).all()
        session.execute(insert(Slip), [{"game_id": game.id, "round_number": last.number + 1, "entry_id": entry,
                                        "table_number": table, "text": "x", "move": None, "status": "valid",
                                        "score": master if rng.random() < 0.4 else int(master * rng.random()),
                                        "reason": "", "entered_by": "bench", "entered_at": now}
                                       for entry, table in seats])

def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", default=None, help="SQLAlchemy URL (default: a temporary SQLite file)")
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as folder:
        url = args.db or f"sqlite:///{Path(folder) / 'bench.db'}"
        lexicon = Lexicon.load(default_lexicon_path(None))
        service = TournamentService(open_database(url), station="bench", lexicon=lexicon, pin="juez-del-banco")
        tournament_id = service.create_tournament("Banco de pruebas", settings=TournamentSettings(
            bonus_mode="automatic", criterion="average_percentage", tie_breaks=True))
        for index in range(args.players):
            service.add_player(f"Jugador {index:03d}")

        times = sorted(time_slip_entry(service, args.players))
        print(f"enter_slip (judge + store + commit), {len(times)} slips: mean {1000 * statistics.fmean(times):.1f} ms, "
              f"p50 {1000 * times[len(times) // 2]:.1f} ms, p99 {1000 * times[int(0.99 * len(times))]:.1f} ms, "
              f"max {1000 * times[-1]:.1f} ms")

        service.end_game(1)
        started = time.perf_counter()
        fill_games(service, tournament_id, args.games, args.rounds, seed=7)
        print(f"wrote {args.games} games × {args.rounds} rounds × {args.players} players "
              f"in {time.perf_counter() - started:.1f} s")
        for attempt in range(3):
            started = time.perf_counter()
            standings = service.tournament_standings(tournament_id)
            elapsed = time.perf_counter() - started
            print(f"tournament standings ({len(standings)} players, run {attempt + 1}): {elapsed:.3f} s")
        started = time.perf_counter()
        service.game_standings(2, tournament_id)
        print(f"one game's standings: {time.perf_counter() - started:.3f} s")
        service.db.dispose()


if __name__ == "__main__":
    main()
