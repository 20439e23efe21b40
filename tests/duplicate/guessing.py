"""PIN guesses at once from several processes and threads (issue 26 §1), for
``test_lockout.py`` and ``bench/pin_guessing.py``.

Each process opens the database itself; its threads wait for one start signal shared by
every process, then each tries one PIN through ``sign_in``. An outcome is ``accepted``
(the PIN opened a credential), ``compared`` (refused after its digest was compared with
the credentials: a guess that was checked) or ``refused`` (refused before any comparison:
its source locked or paced), or an unexpected error's type name.
"""

from __future__ import annotations

import multiprocessing
import threading
from collections import Counter
from typing import Any

from duplicate.service.errors import CredentialRefused
from duplicate.service.facade import TournamentService
from duplicate.storage.database import open_database

try:                                  # the error of a refusal made before any comparison
    from duplicate.service.errors import SignInLocked
except ImportError:                   # (an earlier version, measured by the bench: it had none)
    SignInLocked = None  # type: ignore[assignment,misc]


def outcome(service: TournamentService, tournament_id: int) -> str:
    """What became of one sign-in attempt of ``service``."""
    try:
        service.sign_in(tournament_id)
    except CredentialRefused as error:
        if SignInLocked is not None:
            return "refused" if isinstance(error, SignInLocked) else "compared"
        return "compared" if str(error).startswith("PIN incorrecto") else "refused"
    except Exception as error:  # noqa: BLE001 - reported, counted as its own outcome
        return type(error).__name__
    return "accepted"


def _process(url: str, tournament_id: int, guesses: list[tuple[str, str]], ready: Any, go: Any,
             results: Any) -> None:
    database = open_database(url, migrate=False)
    found: list[str] = []

    def guess(station: str, pin: str) -> None:
        service = TournamentService(database, station=station, pin=pin)
        go.wait()
        found.append(outcome(service, tournament_id))

    threads = [threading.Thread(target=guess, args=guess_) for guess_ in guesses]
    for thread in threads:
        thread.start()
    ready.release()
    for thread in threads:
        thread.join()
    database.dispose()
    results.put(found)


def guess_at_once(url: str, tournament_id: int, plans: list[list[tuple[str, str]]]) -> Counter[str]:
    """Run one process per plan, one thread per ``(station, pin)`` of it, all released at
    once; the outcomes counted."""
    context = multiprocessing.get_context("fork")
    ready, go, results = context.Semaphore(0), context.Event(), context.Queue()
    processes = [context.Process(target=_process, args=(url, tournament_id, plan, ready, go, results))
                 for plan in plans]
    for process in processes:
        process.start()
    for _ in processes:
        ready.acquire()
    go.set()
    counted: Counter[str] = Counter()
    for _ in processes:
        counted.update(results.get(timeout=300))
    for process in processes:
        process.join()
    return counted
