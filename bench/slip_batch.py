"""A batch of slips (``enter_slips``, the simulator and CSV imports) timed on SQLite.

Creates a tournament of ``--players`` players in a temporary SQLite file, then for each of
``--rounds`` rounds draws the rack, places the master and times one ``enter_slips`` of
every table's slip (one table in six types a word off the rack: an invalid slip, judged
once), then closes the round. Prints the seconds of each batch and their median.

Usage: ``PYTHONPATH=TREE python bench/slip_batch.py [--players 60] [--rounds 8]`` (run it
with the tree to measure first on the path: this worktree, or /work/main for the code
before a change).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from duplicate.service.facade import TournamentService
from duplicate.storage.database import open_database
from lexicon.default import default_lexicon_path
from lexicon.lexicon import Lexicon

PIN = "123456"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=60)
    parser.add_argument("--rounds", type=int, default=8)
    arguments = parser.parse_args()
    lexicon = Lexicon.load(default_lexicon_path(None))
    with tempfile.TemporaryDirectory() as folder:
        service = TournamentService(open_database(f"sqlite:///{Path(folder) / 'bench.db'}"), station="juez",
                                    lexicon=lexicon, pin=PIN)
        service.create_tournament("Banco de papeletas")
        for index in range(arguments.players):
            service.add_player(f"Jugador {index:03d}")
        game = service.create_game(seed=11)
        times = []
        for _ in range(arguments.rounds):
            view = service.draw_rack(game)
            if view is None:
                break
            view = service.choose_master(game)
            assert view.master is not None
            batch = [(table, view.master if table % 6 else "H8-QZQZ") for table in range(1, arguments.players + 1)]
            started = time.perf_counter()
            results = service.enter_slips(game, batch, round_number=view.number)
            times.append(time.perf_counter() - started)
            assert [result.outcome for result in results] == ["accepted"] * arguments.players
            service.close_round(game, view.number)
    print("batches (s):", " ".join(f"{seconds:.3f}" for seconds in times))
    print(f"median of {len(times)} batches of {arguments.players} slips: {statistics.median(times):.3f} s")


if __name__ == "__main__":
    main()
