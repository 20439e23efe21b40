"""Benchmark of EloDI (issue 5): rating one large game and replaying many.

Measures

* ``ranking.elodi.rate_game`` on one game of ``--field`` players (default 1,000; 80 %
  rated, 20 % new, so both phases run on large fields) — target ≤ 2 s;
* a replay of ``--games`` games of ``--players`` players (default 200 × 100) drawn from a
  pool of 3 × ``--players``, in memory with ``rate_game`` — target ≤ 5 s;
* the same games from the database (a SQLite file, or ``--db URL``; 12 rounds each,
  written straight into the tables and published final): ``RatingService.update`` rating
  them one by one, then ``RatingService.recompute`` (the replay: classifications stored
  with each rated game reused) and ``recompute(reread=True)`` (every game's standings read
  again through ``TournamentService.game_standings``), both storing the whole history.

Usage: ``python bench/elodi.py [--field N] [--games G] [--players P] [--db URL] [--no-db]``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import insert

from duplicate.rules.statuses import GameStatus
from duplicate.service.facade import TournamentService
from duplicate.storage.database import open_database
from duplicate.storage.models import GameRow, RoundRow, Seat, Slip
from lexicon.lexicon import Lexicon, build
from ranking.elodi import Contestant, rate_game
from ranking.ratings import RatingService

ROUNDS = 12


def large_field(size: int, rng: random.Random) -> list[Contestant[int]]:
    players = []
    for key in range(size):
        position = float(rng.randint(1, size))
        if rng.random() < 0.2:
            players.append(Contestant(key, position))
        else:
            players.append(Contestant(key, position, rng.randint(700, 2700), rng.randint(80, 535), rng.randint(1, 80)))
    return players


def time_large_game(size: int, runs: int = 5) -> list[float]:
    field = large_field(size, random.Random(1))
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        rate_game(field)
        times.append(time.perf_counter() - started)
    return times


def schedule(games: int, players: int, seed: int) -> list[dict[int, int]]:
    """Per game, player → total score, players drawn from a pool of 3 × ``players``."""
    rng = random.Random(seed)
    pool = range(3 * players)
    skill = {player: rng.random() for player in pool}
    result = []
    for _ in range(games):
        field = rng.sample(pool, players)
        result.append({player: int(600 + 400 * skill[player] + rng.gauss(0, 80)) for player in field})
    return result


def replay_in_memory(games: list[dict[int, int]]) -> float:
    state: dict[int, tuple[int, int, int]] = {}
    started = time.perf_counter()
    for totals in games:
        contestants = []
        for player, total in totals.items():
            position = float(1 + sum(1 for other in totals.values() if other > total))
            if player in state:
                rating, volatility, count = state[player]
                contestants.append(Contestant(player, position, rating, volatility, count))
            else:
                contestants.append(Contestant(player, position))
        for outcome in rate_game(contestants):
            if outcome.games_after != outcome.games_before:
                state[outcome.key] = (outcome.rating_after, outcome.volatility_after, outcome.games_after)
    return time.perf_counter() - started


def write_games(service: TournamentService, lexicon: Lexicon, games: list[dict[int, int]], per_tournament: int) -> None:
    """Tournaments of ``per_tournament`` games a week apart; every game published final."""
    now = datetime.now(UTC)
    for first in range(0, len(games), per_tournament):
        block = games[first:first + per_tournament]
        players = sorted({player for totals in block for player in totals})
        tournament = service.create_tournament(f"Torneo {first // per_tournament + 1}", lexicon=lexicon,
                                               start_date=date(2026, 1, 4) + timedelta(weeks=first // per_tournament))
        entries = {player: service.add_player(f"Jugador {player:04d}", federation_id=f"F{player}",
                                              tournament_id=tournament) for player in players}
        for number, totals in enumerate(block, start=1):
            with service.db.write() as session:
                game = GameRow(tournament_id=tournament, number=number, planned_rounds=ROUNDS, seed=number,
                               status=GameStatus.ENDED.value)
                session.add(game)
                session.flush()
                session.execute(insert(Seat), [{"game_id": game.id, "entry_id": entries[player], "table_number": table}
                                               for table, player in enumerate(totals, start=1)])
                for round_number in range(1, ROUNDS + 1):
                    session.add(RoundRow(game_id=game.id, number=round_number, rack="AEIOUST",
                                         board_before="15/" * 14 + "15", top_score=2000, top_moves=[], move_count=1,
                                         master="H8-X", master_score=2000, cumulative=2000 * round_number, closed=True))
                    session.execute(insert(Slip), [
                        {"game_id": game.id, "round_number": round_number, "entry_id": entries[player],
                         "table_number": table, "text": "x", "move": None, "status": "valid",
                         "score": total if round_number == 1 else 0, "reason": "", "entered_by": "bench",
                         "entered_at": now}
                        for table, (player, total) in enumerate(totals.items(), start=1)])
            service.publish(number, final=True, tournament_id=tournament)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--field", type=int, default=1000, help="players of the large game")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--db", default=None, help="SQLAlchemy URL (default: a temporary SQLite file)")
    parser.add_argument("--no-db", action="store_true", help="skip the database replay")
    args = parser.parse_args()

    times = time_large_game(args.field)
    print(f"rate_game, one game of {args.field} players (80 % rated, 20 % new), {len(times)} runs: "
          f"best {min(times):.3f} s, median {statistics.median(times):.3f} s")

    games = schedule(args.games, args.players, seed=7)
    elapsed = min(replay_in_memory(games) for _ in range(3))
    print(f"replay of {args.games} games × {args.players} players in memory (best of 3): {elapsed:.3f} s")

    if args.no_db:
        return
    with tempfile.TemporaryDirectory() as folder:
        url = args.db or f"sqlite:///{Path(folder) / 'elodi.db'}"
        lexicon_path = Path(folder) / "bench.lex"
        build(["CASA", "COSA"], lexicon_path, source="bench")
        service = TournamentService(open_database(url), station="bench", pin="juez-del-banco")
        started = time.perf_counter()
        write_games(service, Lexicon.load(lexicon_path), games, per_tournament=10)
        print(f"wrote and published {args.games} games × {args.players} players × {ROUNDS} rounds "
              f"in {time.perf_counter() - started:.1f} s")
        ratings = RatingService(service.db)
        started = time.perf_counter()
        print(f"RatingService.update, {len(ratings.update().rated)} games rated one by one (standings read): "
              f"{time.perf_counter() - started:.3f} s")
        for label, reread in (("classifications stored with each rated game", False),
                              ("--reread: every game's standings read again", True)):
            started = time.perf_counter()
            count = len(ratings.recompute(reread=reread))
            print(f"RatingService.recompute, {count} games ({label}): {time.perf_counter() - started:.3f} s")
        service.db.dispose()


if __name__ == "__main__":
    main()
