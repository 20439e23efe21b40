"""Where a live rebuild's time goes (issue 37): one ``live_site(previous=…)`` after a round closed.

A tournament of ``--players`` × ``--games`` games of ``--rounds`` rounds is simulated
through the service (as ``bench/live_pages.py``); then a new game is played for
``--played`` rounds (every player's slip but three, the round closed), the pages are built,
one more round is played up to its slips (not closed) and built with the previous pages,
and the round is closed: that rebuild is timed, and run under ``cProfile`` with
``--profile`` (the ``--top`` functions by cumulative time printed). Then the rebuild
with nothing changed is timed.

Usage: ``python bench/live_profile.py [--players N] [--games G] [--rounds R] [--played K]
[--profile] [--top T]``.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from duplicate.publishing.live_pages import live_site
from duplicate.service.facade import TournamentService
from duplicate.simulate import simulate_tournament
from duplicate.storage.database import open_database


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=150)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--played", type=int, default=3, help="rounds of the new game closed before the one timed")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--top", type=int, default=30)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        service = TournamentService(open_database(str(Path(folder) / "bench.db")), station="bench",
                                    pin="juez-del-banco")
        tournament_id = simulate_tournament(service, players=args.players, games=args.games, seed=2026,
                                            rounds=args.rounds, name="Open en directo")
        game = service.create_game(rounds=args.played + 2, seed=9, tournament_id=tournament_id)
        tables = [table for table, _entry, _player in service.seats(game, tournament_id)]

        def play(close: bool) -> None:
            service.draw_rack(game, tournament_id=tournament_id)
            placed = service.choose_master(game, tournament_id=tournament_id)
            service.enter_slips(game, [(table, placed.master) for table in tables[:-3]], tournament_id=tournament_id)
            if close:
                service.close_round(game, tournament_id=tournament_id)

        for _ in range(args.played):
            play(True)
        site = live_site(service, tournament_id)
        play(False)
        site = live_site(service, tournament_id, previous=site)
        service.close_round(game, tournament_id=tournament_id)
        profile = cProfile.Profile() if args.profile else None
        started = time.perf_counter()
        if profile is not None:
            profile.enable()
        closed = live_site(service, tournament_id, previous=site)
        if profile is not None:
            profile.disable()
        spent = time.perf_counter() - started
        started = time.perf_counter()
        live_site(service, tournament_id, previous=closed)
        print(f"{args.players} players, game {game} round {args.played + 1} closed: rebuild "
              f"{spent:.2f} s{' (profiled)' if profile else ''}; nothing changed {time.perf_counter() - started:.2f} s")
        if profile is not None:
            pstats.Stats(profile).sort_stats("cumulative").print_stats(args.top)
        service.db.dispose()


if __name__ == "__main__":
    main()
