"""``publish`` of a prepared game of 20+ rounds with its replay page and venue pages
(issue 27 §2–§3).

One prepared game (``--rounds``, default 22) is played in the organiser's own room
(``--players``, default 60) and in one offline venue (``--venue-players``, default 40,
imported with ``venue import``); slips follow a fixed pattern (the master or a zero), so
every round has a board, a master and every player's move. Then ``publish_results``
writes the HTML only (index, the game page, its partial standings, the replay page
``partida-1-repeticion.html`` with every round's board, the player pages, ``sedes.html``
and one page per venue) and, separately, every format (HTML, PDF, CSV, XLSX). Prints the
seconds of each, the size of the replay page and the boards it holds.

Usage: ``python bench/publish_replay.py [--players 60] [--venue-players 40] [--rounds 22]
[--seed 27] [--workers W]``. Figures in docs/performance.md.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from duplicate.prepared.file import PreparedGame
from duplicate.prepared.generation import generate  # noqa: E402
from duplicate.publishing.site import publish_results  # noqa: E402
from duplicate.service.facade import TournamentService  # noqa: E402
from duplicate.service.settings import TournamentSettings  # noqa: E402
from duplicate.storage.database import open_database  # noqa: E402
from lexicon.default import default_lexicon_path  # noqa: E402
from lexicon.lexicon import Lexicon  # noqa: E402

PIN = "juez-banco-1234"
SETTINGS = TournamentSettings(bonus_mode="automatic", partial_every=3)


def room(service: TournamentService, prepared: PreparedGame, name: str, venue: str, players: int) -> None:
    """A tournament of ``players`` players playing ``prepared`` in ``service``."""
    service.create_tournament(name, venue=venue, settings=SETTINGS, judge_pin=PIN)
    for index in range(players):
        service.add_player(f"{venue} {index + 1:03d}", club=f"Club {index % 7}")
    game = service.create_game(prepared=prepared)
    tables = sorted(table for table, _entry, _player in service.seats(game))
    for round_ in prepared.rounds:
        service.draw_rack(game)
        service.choose_master(game)
        service.enter_slips(game, [(table, round_.master if (table + round_.number) % 4 else "H8-QZQZ")
                                   for table in tables], round_number=round_.number)
        service.close_round(game, round_.number)


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--players", type=int, default=60)
    parser.add_argument("--venue-players", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=22)
    parser.add_argument("--seed", type=int, default=27)
    parser.add_argument("--workers", type=int, default=None, help="processes (default: CPUs)")
    args = parser.parse_args()
    lexicon = Lexicon.load(default_lexicon_path(None))
    started = time.perf_counter()
    prepared = generate(lexicon, args.seed, args.rounds)
    print(f"partida preparada: {len(prepared.rounds)} rondas, {prepared.total} puntos, generada en "
          f"{time.perf_counter() - started:.1f} s")
    with tempfile.TemporaryDirectory() as folder:
        started = time.perf_counter()
        venue = TournamentService(open_database(str(Path(folder) / "sede.db")), station="sede", lexicon=lexicon,
                                  pin=PIN)
        room(venue, prepared, "Sede", "Lloret", args.venue_players)
        organiser = TournamentService(open_database(str(Path(folder) / "org.db")), station="org", lexicon=lexicon,
                                      pin=PIN)
        room(organiser, prepared, "Simultáneo", "Barcelona", args.players)
        organiser.import_venue(venue.export(), "Lloret", unsigned=True)
        print(f"datos: {args.players} + {args.venue_players} jugadores jugados e importados en "
              f"{time.perf_counter() - started:.1f} s")
        out = Path(folder) / "html"
        html = publish_results(organiser, out, formats=["html"], workers=args.workers)
        replay = out / "partida-1-repeticion.html"
        boards = replay.read_text(encoding="utf-8").count('class="tablero"')
        print(f"publish --formats html: {html.seconds:.2f} s — {html.count('.html')} páginas; repetición "
              f"{replay.stat().st_size / 1e6:.2f} MB con {boards} tableros; "
              f"sedes: {len(list(out.glob('sede*.html')))} páginas (workers: {args.workers or 'all CPUs'})")
        every = publish_results(organiser, Path(folder) / "todo", workers=args.workers)
        print(f"publish (todos los formatos): {every.seconds:.2f} s — {every.count('.html')} HTML, "
              f"{every.count('.pdf')} PDF, {every.count('.csv')} CSV, {every.count('.xlsx')} XLSX")
        venue.db.dispose()
        organiser.db.dispose()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
