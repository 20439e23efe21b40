"""Import of a large offline venue's record (issue 27 §2): one prepared game played in a
venue of N players (slips entered in batches at the end of the game, III.15), its record
exported to a file, then imported into an organiser's tournament from that file as ``venue
import`` and the app's setup screen do (``import_venue_file``); prints the time to import
(reading, verify + prepared-game check + event), to list the venues (what the setup
screen's «Sedes» tab reads on each refresh) and to compute the whole field's standings.

Usage: ``python bench/venue_import.py [--players 100] [--rounds 15] [--seed 27]``.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from duplicate.prepared.generation import generate  # noqa: E402
from duplicate.service.facade import TournamentService  # noqa: E402
from duplicate.service.settings import TournamentSettings  # noqa: E402
from duplicate.storage.database import open_database  # noqa: E402
from lexicon.default import default_lexicon_path  # noqa: E402
from lexicon.lexicon import Lexicon  # noqa: E402

PIN = "juez-banco-1234"


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--seed", type=int, default=27)
    args = parser.parse_args()
    lexicon = Lexicon.load(default_lexicon_path(None))
    prepared = generate(lexicon, args.seed, args.rounds)
    settings = TournamentSettings(bonus_mode="automatic")
    with tempfile.TemporaryDirectory() as folder:
        venue = TournamentService(open_database(str(Path(folder) / "sede.db")), station="sede", lexicon=lexicon,
                                  pin=PIN)
        venue.create_tournament("Sede", venue="Lloret", settings=settings, judge_pin=PIN)
        for index in range(args.players):
            venue.add_player(f"Jugador {index + 1}")
        game = venue.create_game(prepared=prepared)
        for _ in prepared.rounds:
            venue.draw_rack(game)
            venue.choose_master(game)
        tables = sorted(table for table, _entry, _player in venue.seats(game))
        for round_ in prepared.rounds:
            venue.enter_slips(game, [(table, round_.master if (table + round_.number) % 4 else "H8-QZQZ")
                                     for table in tables], round_number=round_.number)
            venue.close_round(game, round_.number)
        record = venue.export()
        organiser = TournamentService(open_database(str(Path(folder) / "org.db")), station="org", lexicon=lexicon,
                                      pin=PIN)
        organiser.create_tournament("Organizador", venue="Barcelona", settings=settings, judge_pin=PIN)
        organiser.create_game(prepared=prepared)
        path = Path(folder) / "sede.json"
        path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
        megabytes = path.stat().st_size / 1e6
        start = time.perf_counter()
        organiser.import_venue_file(path, "Lloret", unsigned=True)
        imported = time.perf_counter() - start
        start = time.perf_counter()
        organiser.venues()
        listed = time.perf_counter() - start
        start = time.perf_counter()
        lines = organiser.venue_game_standings(1)
        overall = organiser.venue_tournament_standings()
        ranked = time.perf_counter() - start
    print(f"sede de {args.players} jugadores, {len(prepared.rounds)} rondas, {len(record['events'])} eventos: "
          f"registro de {megabytes:.1f} MB: importación {imported:.2f} s; lista de sedes "
              f"{listed:.3f} s; clasificaciones de todo el campo {ranked:.3f} s "
          f"({len(lines)} jugadores, {len(overall)} en la general)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
