"""Benchmark of the standings (issue 3): game and tournament standings on a large event.

Builds a synthetic tournament — by default 300 players, 10 games of 20 rounds, each
player missing a game with probability 5 %, master scores 10–150, player scores drawn
below or at the master (30 % equal it) — awards automatic bonuses (III.24), then
times ``game_standings`` for every game and ``tournament_standings`` under each
IV.31 criterion (best of ``--repeat`` runs, in milliseconds).

Usage: ``python bench/standings.py [--players N] [--games G] [--rounds R]
[--repeat K] [--seed S]``.
"""

from __future__ import annotations

import argparse
import functools
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from duplicate.rules.bonuses import BonusMode, BonusPolicy, round_bonuses
from duplicate.rules.game_standings import RoundResult, game_standings
from duplicate.rules.tournament_standings import TournamentCriterion, tournament_standings

Game = tuple[list[int], list[RoundResult[int]]]


def synthetic_tournament(players: int, games: int, rounds: int, rng: random.Random) -> list[Game]:
    """``games`` games of ``rounds`` rounds; each player misses a game with probability 5 %."""
    policy = BonusPolicy(BonusMode.AUTOMATIC)
    result = []
    for _game in range(games):
        members = [player for player in range(players) if rng.random() >= 0.05]
        game_rounds = []
        for number in range(1, rounds + 1):
            master = rng.randint(10, 150)
            scores = {player: master if rng.random() < 0.3 else rng.randint(0, master) for player in members}
            bonuses = round_bonuses(master, scores, policy)
            game_rounds.append(RoundResult(number, master, master, scores, bonuses))
        result.append((members, game_rounds))
    return result


def best_of(repeat: int, action: Callable[[], object]) -> float:
    """Fastest of ``repeat`` runs of ``action``, in milliseconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return 1000 * min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    players = list(range(args.players))
    games = synthetic_tournament(args.players, args.games, args.rounds, rng)
    print(f"{args.players} jugadores, {args.games} partidas de {args.rounds} rondas "
          f"(mejor de {args.repeat} ejecuciones, Python {sys.version.split()[0]})")

    def every_game() -> None:
        for members, rounds in games:
            game_standings(members, rounds, tie_breaks=True)

    print(f"  game_standings, las {args.games} partidas (con desempates III.28): {best_of(args.repeat, every_game):8.1f} ms")
    for criterion in TournamentCriterion:
        elapsed = best_of(args.repeat, functools.partial(tournament_standings, players, games, criterion))
        print(f"  tournament_standings {criterion.value:<20} {elapsed:8.1f} ms")


if __name__ == "__main__":
    main()
