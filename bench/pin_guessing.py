"""Guesses compared before the lock-out, many processes and threads at once (issue 26 §1).

Creates a tournament, then ``--processes`` × ``--threads`` wrong PINs are tried at once
(``tests/duplicate/guessing.py``): first all from one station, then each from its own
station (spread-out guessing). Prints how many were compared with the credentials before
the refusals began (the rest refused unchecked). Usage:
``python bench/pin_guessing.py [--db URL] [--processes 4] [--threads 16]`` (default: a
temporary SQLite file). Figures are quoted in ``docs/robustness.md``.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DUPLICADA_TEST_SCRYPT_N", "1024")   # cheaper digests, same races

from duplicate.service.facade import TournamentService  # noqa: E402
from duplicate.storage.database import open_database  # noqa: E402
from tests.duplicate.guessing import guess_at_once  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", default=None)
    parser.add_argument("--processes", type=int, default=4)
    parser.add_argument("--threads", type=int, default=16)
    options = parser.parse_args()
    url = options.db or f"sqlite:///{tempfile.mkdtemp()}/guessing.db"
    judge = TournamentService(open_database(url), station="mesa-juez", pin="pin-del-juez-1")
    tournament = judge.create_tournament("Adivinanzas")
    judge.db.dispose()
    total = options.processes * options.threads
    pins = iter(f"adivina{index:04d}" for index in range(2 * total))
    for label, station in (("one station", lambda p, t: "aux-portatil"), ("a station each", lambda p, t: f"f{p}-{t}")):
        plans = [[(station(p, t), next(pins)) for t in range(options.threads)] for p in range(options.processes)]
        outcomes = guess_at_once(url, tournament, plans)
        print(f"{label}: {outcomes['compared']} of {total} compared, {outcomes['refused']} refused unchecked, "
              f"{outcomes['accepted']} accepted; other: {dict((k, v) for k, v in outcomes.items() if k not in ('compared', 'refused', 'accepted'))}")


if __name__ == "__main__":
    main()
