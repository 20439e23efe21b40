"""PIN guesses at once from several processes and threads (issue 26 §1), for
``test_lockout.py`` and ``bench/pin_guessing.py``.

Each process opens the database itself; its threads wait for one start signal shared by
every process, then each tries one PIN through ``sign_in``. An outcome is ``accepted``
(the PIN opened a credential), ``compared`` (refused after its digest was compared with
the credentials: a guess that was checked) or ``refused`` (refused before any comparison:
its source locked or paced), or an unexpected error's type name.

``RotatingGuesser`` is issue 36 §1's attack (a new station name for every guess, for as
long as it runs) and ``honest_sign_in`` an honest station signing in meanwhile, timed.
"""

from __future__ import annotations

import multiprocessing
import secrets
import threading
import time
from collections import Counter
from dataclasses import dataclass
from typing import Any

from duplicate.service.errors import CredentialRefused
from duplicate.service.facade import TournamentService
from duplicate.storage.database import Database, open_database

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


def _rotate(url: str, tournament_id: int, threads: int, patient: bool, stop: Any, results: Any) -> None:
    """One guessing process: ``threads`` threads, each trying a wrong PIN from a new station
    name after another until ``stop`` is set. A held answer is waited for in real time
    (``patient``), ending early when ``stop`` is set; an impatient guesser does not wait
    (as one that reads the silence as «wrong» and closes its session)."""
    from duplicate.service import lockout

    lockout.hold_answer = (lambda seconds: stop.wait(seconds)) if patient else (lambda seconds: None)
    database = open_database(url, migrate=False)
    found: list[str] = []

    def guess() -> None:
        while not stop.is_set():
            service = TournamentService(database, station=f"falso-{secrets.token_hex(6)}",
                                        pin=f"adivina-{secrets.token_hex(4)}")
            found.append(outcome(service, tournament_id))

    workers = [threading.Thread(target=guess) for _ in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    database.dispose()
    results.put(found)


class RotatingGuesser:
    """Issue 36 §1's attack: ``processes`` × ``threads`` guessers, each trying one wrong PIN
    after another, every attempt from a new station name (sources are self-declared at a
    terminal), until ``stop``. ``patient``: the guessers wait for their held answers."""

    def __init__(self, url: str, tournament_id: int, *, processes: int, threads: int, patient: bool = True) -> None:
        context = multiprocessing.get_context("fork")
        self._stop, self._results = context.Event(), context.Queue()
        self._processes = [context.Process(target=_rotate, args=(url, tournament_id, threads, patient, self._stop,
                                                                  self._results))
                           for _ in range(processes)]
        self.in_flight = processes * threads
        """Attempts at most under way at any moment (one per thread)."""
        self.started = 0.0

    def start(self) -> None:
        """Start guessing; ``started`` is the ``time.monotonic()`` of the start."""
        self.started = time.monotonic()
        for process in self._processes:
            process.start()

    def stop(self) -> tuple[Counter[str], float]:
        """Stop guessing (held answers end at once); the outcomes of every attempt counted,
        and the seconds from ``start`` to the stop."""
        self._stop.set()
        elapsed = time.monotonic() - self.started
        counted: Counter[str] = Counter()
        for _ in self._processes:
            counted.update(self._results.get(timeout=120))
        for process in self._processes:
            process.join()
        return counted, elapsed


@dataclass(frozen=True)
class SignIn:
    """One honest sign-in: who (``station``), whether it got in (``role``: the role it got,
    ``None`` when refused, ``refusal`` then saying why) and its wall time in seconds."""

    station: str
    role: str | None
    refusal: str
    seconds: float


def honest_sign_in(database: Database, tournament_id: int, station: str, pin: str) -> SignIn:
    """Sign in once with the right ``pin`` at ``station`` (a new handle: a new attempt), timed."""
    service = TournamentService(database, station=station, pin=pin)
    began = time.monotonic()
    try:
        role: str | None = service.sign_in(tournament_id).role.value
        refusal = ""
    except CredentialRefused as error:
        role, refusal = None, str(error)
    return SignIn(station, role, refusal, time.monotonic() - began)
