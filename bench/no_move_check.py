"""The III.22 proof of ``Game.play_round`` (issue 25 §1): how long trying every distinct rack
of the last ``EXHAUSTIVE_TILES`` tiles takes, worst case (no rack has a move, so all are
counted), on late-game boards of the built-in lexicon.

Plays full-bag games with ``play_round`` until at most ``EXHAUSTIVE_TILES`` tiles remain,
then counts the moves of every distinct rack of those tiles, and prints the racks and the
seconds per game. The pool holds ``--blanks`` blanks (0 by default, swapped for letters):
the game only ends for want of a move when no rack plays, which in practice means no
blank is left (a blank nearly always finds a move, and ``play_round`` stops at the first
rack that has one); ``--blanks 2`` times the walker's slowest case.

Usage: ``python bench/no_move_check.py [--games 3] [--tiles 14] [--blanks 0]``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from data.rules import RACK_SIZE  # noqa: E402
from duplicate.rules.game import EXHAUSTIVE_TILES, Game
from duplicate.rules.rack import racks_of  # noqa: E402
from lexicon.default import default_lexicon_path  # noqa: E402
from lexicon.lexicon import Lexicon  # noqa: E402
from lexicon.movegen import count_moves, walker_name  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--tiles", type=int, default=EXHAUSTIVE_TILES)
    parser.add_argument("--blanks", type=int, default=0, choices=(0, 1, 2))
    arguments = parser.parse_args()
    lexicon = Lexicon.load(default_lexicon_path(None))
    blank = lexicon.alphabet.blank
    print(f"walker {walker_name()}, {arguments.tiles} tiles left, {arguments.blanks} blanks")
    for seed in range(arguments.games):
        game = Game(lexicon, seed=seed)
        while len(game.bag) + len(game.leftover) > arguments.tiles and game.play_round() is not None:
            pass
        pool = [*game.leftover, *game.bag.tiles]
        letters = [tile for tile in pool if tile != blank]
        spare = [tile for tile in lexicon.alphabet.full_bag() if tile != blank and tile not in letters]
        pool = [blank] * arguments.blanks + [*letters, *spare][: arguments.tiles - arguments.blanks]
        started = time.perf_counter()
        racks = moves = 0
        for tiles in racks_of(pool, min(RACK_SIZE, len(pool))):
            racks += 1
            moves += count_moves(game.board, tiles, lexicon)
        elapsed = time.perf_counter() - started
        print(f"seed {seed}: round {game.round_number}, {len(pool)} tiles, {racks} racks, "
              f"{moves} moves counted, {elapsed:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
