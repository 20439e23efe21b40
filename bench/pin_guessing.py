"""Guesses compared before the lock-out, many processes and threads at once (issue 26 §1),
and honest sign-ins during a rotating guesser's attack (issue 36 §1).

Creates a tournament, then, by default, ``--processes`` × ``--threads`` wrong PINs are
tried at once (``tests/duplicate/guessing.py``): first all from one station, then each from
its own station (spread-out guessing). Prints how many were compared with the credentials
before the refusals began (the rest refused unchecked).

``--rotating SECONDS`` measures issue 36 §1's scenario instead: ``--processes`` ×
``--threads`` guessers each try one wrong PIN after another, every one from a new station
name, for SECONDS (the issue: 120), waiting for their answers (``--impatient``: not
waiting, as a guesser that reads the silence as «wrong» and leaves); meanwhile, every
``--every`` seconds, an honest sign-in with the right PIN, by turns the assistant at its
station and the judge at a brand-new station. Prints the honest sign-ins that got in of
those attempted, their median and slowest wall time, and the wrong PINs compared.

Usage: ``python bench/pin_guessing.py [--db URL] [--processes 4] [--threads 16]
[--rotating 120 [--impatient] [--every 1.0]] [--scrypt-n 1024]`` (default: a temporary
SQLite file; scrypt N 1024, the production cost is 16384). Figures are quoted in
``docs/robustness.md``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from duplicate.service.facade import TournamentService  # noqa: E402
from duplicate.storage.database import open_database  # noqa: E402
from tests.duplicate.guessing import RotatingGuesser, SignIn, guess_at_once, honest_sign_in  # noqa: E402

JUDGE_PIN, ASSISTANT_PIN = "pin-del-juez-1", "pin-del-auxiliar-1"


def at_once(url: str, tournament: int, processes: int, threads: int) -> None:
    """Issue 26 §1: ``processes`` × ``threads`` wrong PINs at once, from one station, then from one each."""
    total = processes * threads
    pins = iter(f"adivina{index:04d}" for index in range(2 * total))
    for label, spread in (("one station", False), ("a station each", True)):
        plans = [[(f"f{p}-{t}" if spread else "aux-portatil", next(pins)) for t in range(threads)]
                 for p in range(processes)]
        outcomes = guess_at_once(url, tournament, plans)
        other = {key: value for key, value in outcomes.items() if key not in ("compared", "refused", "accepted")}
        print(f"{label}: {outcomes['compared']} of {total} compared, {outcomes['refused']} refused unchecked, "
              f"{outcomes['accepted']} accepted; other: {other}")


def rotating(url: str, tournament: int, processes: int, threads: int, seconds: float, every: float,
             patient: bool) -> None:
    """Issue 36 §1: a rotating guesser for ``seconds``, honest sign-ins every ``every`` s meanwhile."""
    guesser = RotatingGuesser(url, tournament, processes=processes, threads=threads, patient=patient)
    database = open_database(url, migrate=False)
    signed: list[SignIn] = []
    guesser.start()
    try:
        turn = 0
        while time.monotonic() - guesser.started < seconds:
            time.sleep(every)
            signed.append(honest_sign_in(database, tournament, "mesa-aux1", ASSISTANT_PIN) if turn % 2 == 0 else
                          honest_sign_in(database, tournament, f"puesto-nuevo-{turn}", JUDGE_PIN))
            turn += 1
    finally:
        outcomes, elapsed = guesser.stop()
        database.dispose()
    times = [sign.seconds for sign in signed]
    for who, station in (("assistant", "mesa-aux1"), ("judge at a new station", "puesto-nuevo")):
        mine = [sign for sign in signed if sign.station.startswith(station)]
        print(f"{who}: {sum(sign.role is not None for sign in mine)} of {len(mine)} got in")
    print(f"honest sign-ins: {sum(sign.role is not None for sign in signed)} of {len(signed)} got in; "
          f"median {statistics.median(times):.3f} s, slowest {max(times):.3f} s")
    refusals = [sign.refusal for sign in signed if sign.role is None]
    if refusals:
        print(f"{len(refusals)} refused, the first: «{refusals[0]}»")
    print(f"guesser ({processes} × {threads}, {'patient' if patient else 'impatient'}) over {elapsed:.1f} s: "
          f"{outcomes['compared']} wrong PINs compared, {outcomes['refused']} refused unchecked, "
          f"{outcomes['accepted']} accepted; other: "
          f"{ {key: value for key, value in outcomes.items() if key not in ('compared', 'refused', 'accepted')} }")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", default=None)
    parser.add_argument("--processes", type=int, default=None, help="default: 4 at once, 2 rotating")
    parser.add_argument("--threads", type=int, default=None, help="default: 16 at once, 3 rotating")
    parser.add_argument("--rotating", type=float, default=None, metavar="SECONDS")
    parser.add_argument("--every", type=float, default=1.0)
    parser.add_argument("--impatient", action="store_true")
    parser.add_argument("--scrypt-n", type=int, default=1024)
    options = parser.parse_args()
    os.environ["DUPLICADA_TEST_SCRYPT_N"] = str(options.scrypt_n)   # the digests' cost (same races)
    url = options.db or f"sqlite:///{tempfile.mkdtemp()}/guessing.db"
    judge = TournamentService(open_database(url), station="mesa-juez", pin=JUDGE_PIN)
    tournament = judge.create_tournament("Adivinanzas")
    judge.set_pin("assistant", ASSISTANT_PIN, name="aux1")
    judge.db.dispose()
    if options.rotating is None:
        at_once(url, tournament, options.processes or 4, options.threads or 16)
    else:
        rotating(url, tournament, options.processes or 2, options.threads or 3, options.rotating, options.every,
                 not options.impatient)


if __name__ == "__main__":
    main()
