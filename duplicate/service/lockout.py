"""Wrong PINs: counted where they come from and tournament-wide, under a row lock (issue 26 §1,
issue 36 §1).

A sign-in (a handle's first action in a tournament, ``ServiceBase._actor``) is an
*attempt*. Every attempt comes from a **source**, a key the front end gives the service:
the station's name at a terminal or on the command line, the browser's address under
``duplicada serve``. Before the PIN is compared, ``open_attempt`` locks the tournament's
``tournament_access`` row (``SELECT … FOR UPDATE``; SQLite's writers are serialised
already by ``BEGIN IMMEDIATE``) and keeps it locked until the wrong try is counted and
committed, in the same transaction; so whatever the concurrency, no attempt is compared
with a count that misses an earlier one.

* **Per source**: ``access.MAX_FAILURES`` wrong tries from one source lock that source for
  ``access.lock_seconds`` (2 s, doubling with each further wrong try, at most 15 min): its
  attempts are refused before comparison (``SignInLocked``) and not counted. No success
  clears them, whoever's it is: a source's wrong tries are forgotten only
  ``FAILURE_MEMORY_SECONDS`` after the last one. Other sources are not locked.
* **Tournament-wide**: nothing is refused before comparison (issue 36 §1: station names
  are self-declared, so a guesser rotating them would take every turn meant for honest
  stations). Every wrong try, from anywhere, raises the tournament's level by one; the
  level leaks one try every ``LEAK_SECONDS`` and never rises beyond ``GUESS_LEVEL_MAX``.
  Above ``TOURNAMENT_CEILING`` a wrong PIN's *answer is held*: in the transaction that
  counts it, it takes the tournament's next release slot (``paced_until``; the slot after
  it ``pace_seconds(level)`` later: 1 s, doubling, at most ``LONGEST_PACE_SECONDS``; no
  slot more than that ahead), and the service gives the refusal only then
  (``hold_answer``), after the transaction has ended. A right PIN is never held: it gets
  in at once whatever the others' failures. A guesser that waits for its answers gets
  one wrong answer per slot tournament-wide, plus the attempts it keeps in flight; one
  that does not wait reads «wrong» from the silence and is bounded only by the attempts
  it can start (docs/robustness.md, "Guessing PINs").
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from duplicate.service.access import lock_seconds
from duplicate.service.access_damage import check_access_rows, organiser_judge
from duplicate.service.errors import CredentialRefused, SignInLocked
from duplicate.storage.models import Credential, SignInSource, TournamentAccess, find_tournament

FAILURE_MEMORY_SECONDS = 3600.0
"""A source's wrong tries are forgotten one hour after the last of them."""

TOURNAMENT_CEILING = 10.0
"""Wrong tries tournament-wide (the leaking level) above which wrong PINs' answers are held."""

LEAK_SECONDS = 90.0
"""The tournament's level loses one wrong try every 90 s (ten in a quarter of an hour)."""

FIRST_PACE_SECONDS = 1.0
"""The pace just above the ceiling; it doubles with each wrong try more."""

LONGEST_PACE_SECONDS = 60.0
"""Release slots are at most a minute apart, and a held answer waits at most a minute."""

GUESS_LEVEL_MAX = TOURNAMENT_CEILING + 1 + math.ceil(math.log2(LONGEST_PACE_SECONDS / FIRST_PACE_SECONDS))
"""The level never rises beyond the point where the pace is longest (17): once an attack
stops, wrong PINs are answered at once again ``7 × LEAK_SECONDS`` later (10.5 min), however
long it lasted."""

SOURCE_MAX = 200
"""Characters a source key may have (the column's width)."""


def now() -> datetime:
    """The moment attempts are judged at (UTC); tests move it instead of waiting."""
    return datetime.now(UTC)


def station_source(station: str) -> str:
    """The source key of a station known only by its name (terminal, command line)."""
    return f"puesto:{station}"


def address_source(address: str) -> str:
    """The source key of a browser under ``serve``: its client address."""
    return f"dirección:{address}"


def pace_seconds(level: float) -> float:
    """Seconds between the release slots of held answers at tournament level ``level`` (the
    level with the wrong try just counted): 0 up to ``TOURNAMENT_CEILING`` (not held); then
    1 s up to one try above it, 2 s up to two, 4, 8… up to ``LONGEST_PACE_SECONDS``."""
    if level <= TOURNAMENT_CEILING:
        return 0.0
    steps = min(max(0, math.ceil(level - TOURNAMENT_CEILING) - 1), 16)
    return float(min(FIRST_PACE_SECONDS * 2.0**steps, LONGEST_PACE_SECONDS))


def hold_answer(seconds: float) -> None:
    """Wait ``seconds`` before giving a held wrong PIN's answer (issue 36 §1). The service
    calls it after the attempt's transaction has ended, holding no lock nor connection;
    tests replace it to record the holds instead of sleeping."""
    time.sleep(seconds)


def seconds_until(release_at: datetime) -> float:
    """Seconds from ``now()`` to ``release_at``, within 0 and ``LONGEST_PACE_SECONDS``."""
    return min(max(0.0, _wait(release_at, now())), LONGEST_PACE_SECONDS)


def _aware(moment: datetime | None) -> datetime | None:
    """SQLite gives back naive datetimes: they were stored in UTC."""
    return moment.replace(tzinfo=UTC) if moment is not None and moment.tzinfo is None else moment


def _wait(until: datetime, now: datetime) -> float:
    return (until - now).total_seconds()


@dataclass
class Attempt:
    """One sign-in attempt, between ``open_attempt`` and ``count_failure`` (or the right PIN's
    commit): the locked rows of its tournament and its source."""

    access: TournamentAccess
    origin: SignInSource


def _locked_rows(session: Session, tournament_id: int, source: str) -> Attempt:
    """The tournament's and the source's sign-in rows, locked for this transaction (the
    source's made when it first tries); ``CredentialRefused`` when the tournament has no
    judge's PIN yet (it is from before credentials); ``DamagedAccess`` when its access row or
    its judge's credential was lost (``access_damage``, issue 36 §3)."""
    access = session.scalar(select(TournamentAccess).where(TournamentAccess.tournament_id == tournament_id)
                            .with_for_update().execution_options(populate_existing=True))
    check_access_rows(session, tournament_id, access, organiser_judge(session, tournament_id))
    if access is None:
        raise CredentialRefused("este torneo aún no tiene PIN de juez árbitro: el juez debe asignarlo "
                                "(duplicada tournament pin judge)")
    origin = session.scalar(select(SignInSource).where(SignInSource.tournament_id == tournament_id,
                                                       SignInSource.source == source)
                            .with_for_update().execution_options(populate_existing=True))
    if origin is None:
        origin = SignInSource(tournament_id=tournament_id, source=source, failures=0)
        session.add(origin)
    return Attempt(access, origin)


def open_attempt(session: Session, tournament_id: int, source: str, now: datetime) -> Attempt:
    """Lock the tournament's sign-in row for this transaction and let one attempt from
    ``source`` be compared, or refuse it first: ``SignInLocked`` (``scope`` ``"source"``:
    the source is locked; ``retry_after`` says how long), ``CredentialRefused`` when the
    tournament has no judge's PIN yet, ``DamagedAccess`` when its sign-in rows were lost
    (issue 36 §3). The tournament's level refuses nothing (issue 36 §1)."""
    attempt = _locked_rows(session, tournament_id, source)
    origin = attempt.origin
    last_failure = _aware(origin.last_failure_at)
    if last_failure is not None and _wait(now, last_failure) > FAILURE_MEMORY_SECONDS:
        origin.failures, origin.last_failure_at, origin.locked_until = 0, None, None
    locked_until = _aware(origin.locked_until)
    if locked_until is not None and locked_until > now:
        wait = _wait(locked_until, now)
        raise SignInLocked(f"demasiados PIN incorrectos desde este puesto: espere {max(1, math.ceil(wait))} s antes "
                           "de volver a intentarlo", retry_after=wait, scope="source")
    return attempt


@dataclass(frozen=True)
class Counted:
    """A wrong PIN counted: ``lock``, the seconds its source is now locked for (0: not
    locked); ``release_at``, the moment its answer may be given (``None``: at once)."""

    lock: float
    release_at: datetime | None


def count_late_failure(session: Session, tournament_id: int, source: str, now: datetime) -> Counted:
    """Count a wrong PIN found in a transaction that had to be rolled back (it had changed
    something before the check): the rows locked again in ``session``; as ``count_failure``."""
    return count_failure(_locked_rows(session, tournament_id, source), now)


def _leak(access: TournamentAccess, now: datetime) -> None:
    since = _aware(access.guess_level_at)
    if since is not None:
        access.guess_level = max(0.0, access.guess_level - max(0.0, _wait(now, since)) / LEAK_SECONDS)
    access.guess_level_at = now


def count_failure(attempt: Attempt, now: datetime) -> Counted:
    """Count a wrong PIN against its source and the tournament (the rows ``open_attempt``
    locked). Above ``TOURNAMENT_CEILING`` its answer takes the tournament's next release
    slot: ``max(now, paced_until)``, at most ``LONGEST_PACE_SECONDS`` ahead; the following
    slot is ``pace_seconds(level)`` after it (issue 36 §1)."""
    origin, access = attempt.origin, attempt.access
    origin.failures += 1
    origin.last_failure_at = now
    wait = lock_seconds(origin.failures)
    origin.locked_until = now + timedelta(seconds=wait) if wait else None
    _leak(access, now)
    access.guess_level = min(access.guess_level + 1.0, GUESS_LEVEL_MAX)
    pace = pace_seconds(access.guess_level)
    if not pace:
        return Counted(wait, None)
    queued = _aware(access.paced_until)
    release_at = min(max(now, queued or now), now + timedelta(seconds=LONGEST_PACE_SECONDS))
    access.paced_until = release_at + timedelta(seconds=pace)
    return Counted(wait, release_at)


class WrongPin(Exception):
    """Internal to the service: a PIN that opened no credential of ``tournament_id``.
    ``outcome``: its count when the wrong try was counted in the action's own transaction
    (nothing had changed before the check), which is then committed rather than rolled
    back; ``None`` when it is left for ``count_late_failure`` after the rollback."""

    def __init__(self, tournament_id: int, *, counted: Counted | None) -> None:
        super().__init__(tournament_id)
        self.tournament_id, self.outcome = tournament_id, counted

    @staticmethod
    def refusal(counted: Counted) -> CredentialRefused:
        """The ``CredentialRefused`` a front end sees (Spanish) for a wrong PIN ``counted``;
        ``retry_after``: the seconds its source is now locked for."""
        message = "PIN incorrecto: no corresponde a ningún puesto de este torneo"
        if counted.lock:
            message += f"; demasiados intentos fallidos desde este puesto, espere {math.ceil(counted.lock)} s"
        return CredentialRefused(message, retry_after=counted.lock)


def salt_to_derive(session: Session, tournament_id: int | None, source: str, now: datetime) -> str | None:
    """The salt a sign-in to ``tournament_id`` (``None``: the newest) from ``source`` will
    derive its PIN digest with, read without any lock so that the key derivation can run
    before the attempt takes one (issue 36 §1); ``None`` when there is no such tournament or
    salt, or when ``source`` is locked (its attempt is refused before comparison and needs
    no digest). The attempt itself decides under the lock (``open_attempt``)."""
    tournament = find_tournament(session, tournament_id)
    if tournament is None:
        return None
    origin = session.scalar(select(SignInSource).where(SignInSource.tournament_id == tournament.id,
                                                       SignInSource.source == source))
    locked_until = _aware(origin.locked_until) if origin is not None else None
    if locked_until is not None and locked_until > now:
        return None
    return session.scalar(select(TournamentAccess.salt).where(TournamentAccess.tournament_id == tournament.id))


def check_pin(session: Session, tournament_id: int, digest_of: Callable[[str], str], source: str, *,
              clean: bool) -> tuple[Credential, str]:
    """The credential a PIN opens in ``tournament_id`` and its digest (``digest_of(salt)``:
    the PIN's scrypt digest with the tournament's salt, derived before the lock when the
    front end could, ``ServiceContext.derive_ahead``), the attempt counted
    under the tournament's row lock (``open_attempt``). A wrong PIN raises ``WrongPin``:
    counted in ``session`` when ``clean`` (nothing else changed in it), else left for
    ``count_late_failure`` after the rollback. ``SignInLocked``/``CredentialRefused`` as
    ``open_attempt``. A right PIN is let in at once, whatever the tournament's level."""
    moment = now()
    attempt = open_attempt(session, tournament_id, source, moment)
    digest = digest_of(attempt.access.salt)
    credential = session.scalar(select(Credential).where(Credential.tournament_id == tournament_id,
                                                         Credential.digest == digest))
    if credential is None:
        counted = count_failure(attempt, moment) if clean else None
        if clean:
            session.flush()
        raise WrongPin(tournament_id, counted=counted)
    return credential, digest
