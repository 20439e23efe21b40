"""A scripted assistant station, run as a subprocess by the concurrency and crash tests.

``python -m tests.duplicate.station URL NAME GAME ROUND TEXT_FILE``: enters, for each
line ``table<TAB>text`` of TEXT_FILE, the slip through ``TournamentService`` and prints
``ok <table> <outcome>`` once the entry is committed (the acknowledgement). With
``--play N`` instead, it plays N whole rounds (draw, master, every seated table's slip,
close), printing ``round <n> ok`` after each step that is committed.
"""

from __future__ import annotations

import sys

from duplicate.service.facade import TournamentService
from duplicate.storage.database import open_database
from lexicon.default import default_lexicon_path
from lexicon.lexicon import Lexicon
from tests.credentials import JUDGE_PIN


def main(argv: list[str]) -> None:
    url, name, game = argv[0], argv[1], int(argv[2])
    service = TournamentService(open_database(url), station=name, lexicon=Lexicon.load(default_lexicon_path(None)), pin=JUDGE_PIN)
    if argv[3] == "--play":
        for _ in range(int(argv[4])):
            view = service.draw_rack(game)
            if view is None:
                break
            print(f"round {view.number} drawn", flush=True)
            view = service.choose_master(game)
            print(f"round {view.number} master", flush=True)
            assert view.master is not None
            for table, _, _ in service.seats(game):
                service.enter_slip(game, table, view.master if table % 2 else "H8-QZQZ")
                print(f"slip {view.number} {table}", flush=True)
            service.close_round(game, view.number)
            print(f"round {view.number} closed", flush=True)
        return
    round_number = int(argv[3])
    with open(argv[4], encoding="utf-8") as lines:
        for line in lines:
            table, text = line.rstrip("\n").split("\t")
            result = service.enter_slip(game, int(table), text, round_number=round_number)
            print(f"ok {table} {result.outcome}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
