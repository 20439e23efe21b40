"""Wrong PINs: counted where they come from and tournament-wide, under a row lock (issue 26 §1).

A sign-in (a handle's first action in a tournament, ``ServiceBase._actor``) is an
*attempt*. Every attempt comes from a **source**, a key the front end gives the service:
the station's name at a terminal or on the command line, the browser's address under
``duplicada serve``. Before the PIN is compared, ``open_attempt`` locks the tournament's
``tournament_access`` row (``SELECT … FOR UPDATE``; SQLite's writers are serialised
already by ``BEGIN IMMEDIATE``) and keeps it locked until the wrong try is counted and
committed, in the same transaction; so whatever the concurrency, no attempt is compared
with a count that misses an earlier one.

* **Per source**: ``access.MAX_FAILURES`` wrong tries from one source lock that source for
  ``access.lock_seconds`` (2 s, doubling with each further wrong try, at most 15 min).
  No success clears them, whoever's it is: a source's wrong tries are forgotten only
  ``FAILURE_MEMORY_SECONDS`` after the last one. Other sources are not locked.
* **Tournament-wide**: every wrong try, from anywhere, raises the tournament's level by
  one; the level leaks one try every ``LEAK_SECONDS``. Above ``TOURNAMENT_CEILING`` the
  sources the judge has not signed in at are *paced*: one attempt at a time among them,
  the next only ``pace_seconds(level)`` later (1 s, doubling, at most ``LONGEST_PACE_SECONDS``).
  A source where the judge has signed in, and from which no wrong try came since, is never
  paced: spread-out guessing slows down without locking the judge out of a station that
  has not guessed. A paced or locked attempt is refused before its PIN is compared
  (``SignInLocked``) and is not counted.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from duplicate.service.access import Role, lock_seconds, pin_digest
from duplicate.service.access_damage import check_access_rows, organiser_judge
from duplicate.service.errors import CredentialRefused, SignInLocked
from duplicate.storage.models import Credential, SignInSource, TournamentAccess

FAILURE_MEMORY_SECONDS = 3600.0
"""A source's wrong tries are forgotten one hour after the last of them."""

TOURNAMENT_CEILING = 10.0
"""Wrong tries tournament-wide (the leaking level) above which unvouched sources are paced."""

LEAK_SECONDS = 90.0
"""The tournament's level loses one wrong try every 90 s (ten in a quarter of an hour)."""

FIRST_PACE_SECONDS = 1.0
"""The pace just above the ceiling; it doubles with each wrong try more."""

LONGEST_PACE_SECONDS = 60.0
"""Paced sources wait at most a minute for their turn."""

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
    """Seconds between attempts of unvouched sources at tournament level ``level`` (0 up to
    ``TOURNAMENT_CEILING``; then 1, 2, 4… up to ``LONGEST_PACE_SECONDS``)."""
    if level < TOURNAMENT_CEILING:
        return 0.0
    return float(min(FIRST_PACE_SECONDS * 2.0 ** math.floor(level - TOURNAMENT_CEILING), LONGEST_PACE_SECONDS))


def _aware(moment: datetime | None) -> datetime | None:
    """SQLite gives back naive datetimes: they were stored in UTC."""
    return moment.replace(tzinfo=UTC) if moment is not None and moment.tzinfo is None else moment


def _wait(until: datetime, now: datetime) -> float:
    return (until - now).total_seconds()


@dataclass
class Attempt:
    """One sign-in attempt, between ``open_attempt`` and ``count_failure``/``count_success``:
    the locked rows of its tournament and its source."""

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
        origin = SignInSource(tournament_id=tournament_id, source=source, failures=0, judge_vouched=False)
        session.add(origin)
    return Attempt(access, origin)


def open_attempt(session: Session, tournament_id: int, source: str, now: datetime) -> Attempt:
    """Lock the tournament's sign-in row for this transaction and let one attempt from
    ``source`` be compared, or refuse it first: ``SignInLocked`` (the source is locked, or
    paced and not its turn; ``retry_after`` says how long), ``CredentialRefused`` when the
    tournament has no judge's PIN yet, ``DamagedAccess`` when its sign-in rows were lost. Claims the paced turn when pacing applies."""
    attempt = _locked_rows(session, tournament_id, source)
    access, origin = attempt.access, attempt.origin
    last_failure = _aware(origin.last_failure_at)
    if last_failure is not None and _wait(now, last_failure) > FAILURE_MEMORY_SECONDS:
        origin.failures, origin.last_failure_at, origin.locked_until = 0, None, None
    locked_until = _aware(origin.locked_until)
    if locked_until is not None and locked_until > now:
        wait = _wait(locked_until, now)
        raise SignInLocked(f"demasiados PIN incorrectos desde este puesto: espere {max(1, math.ceil(wait))} s antes "
                           "de volver a intentarlo", retry_after=wait, scope="source")
    _leak(access, now)
    pace = pace_seconds(access.guess_level)
    if pace and not origin.judge_vouched:
        paced_until = _aware(access.paced_until)
        if paced_until is not None and paced_until > now:
            wait = _wait(paced_until, now)
            raise SignInLocked(f"el torneo está recibiendo muchos PIN incorrectos: espere {max(1, math.ceil(wait))} s "
                               "y vuelva a intentarlo", retry_after=wait, scope="tournament")
        access.paced_until = now + timedelta(seconds=pace)
    return attempt


def count_late_failure(session: Session, tournament_id: int, source: str, now: datetime) -> float:
    """Count a wrong PIN found in a transaction that had to be rolled back (it had changed
    something before the check): the rows locked again in ``session``; as ``count_failure``."""
    return count_failure(_locked_rows(session, tournament_id, source), now)


def _leak(access: TournamentAccess, now: datetime) -> None:
    since = _aware(access.guess_level_at)
    if since is not None:
        access.guess_level = max(0.0, access.guess_level - max(0.0, _wait(now, since)) / LEAK_SECONDS)
    access.guess_level_at = now


def count_failure(attempt: Attempt, now: datetime) -> float:
    """Count a wrong PIN against its source and the tournament; returns the seconds the
    source is now locked for (0: not locked)."""
    origin = attempt.origin
    origin.failures += 1
    origin.last_failure_at = now
    origin.judge_vouched = False
    wait = lock_seconds(origin.failures)
    origin.locked_until = now + timedelta(seconds=wait) if wait else None
    _leak(attempt.access, now)
    attempt.access.guess_level += 1.0
    return wait


def count_success(attempt: Attempt, role: Role) -> None:
    """A PIN that opened a credential: nothing is forgiven; a judge's vouches for its source."""
    if role is Role.JUDGE:
        attempt.origin.judge_vouched = True



class WrongPin(Exception):
    """Internal to the service: a PIN that opened no credential of ``tournament_id``.
    ``counted``: the wrong try was counted in the action's own transaction (nothing had
    changed before the check), which is then committed rather than rolled back; ``wait``:
    the seconds the source is now locked for."""

    def __init__(self, tournament_id: int, *, counted: bool, wait: float) -> None:
        super().__init__(tournament_id)
        self.tournament_id, self.counted, self.wait = tournament_id, counted, wait

    def refusal(self, wait: float | None = None) -> CredentialRefused:
        """The ``CredentialRefused`` a front end sees (Spanish)."""
        wait = self.wait if wait is None else wait
        message = "PIN incorrecto: no corresponde a ningún puesto de este torneo"
        if wait:
            message += f"; demasiados intentos fallidos desde este puesto, espere {math.ceil(wait)} s"
        return CredentialRefused(message, retry_after=wait)


def check_pin(session: Session, tournament_id: int, pin: str, source: str, *, clean: bool) -> tuple[Credential, str]:
    """The credential ``pin`` opens in ``tournament_id`` and its digest, the attempt counted
    under the tournament's row lock (``open_attempt``). A wrong PIN raises ``WrongPin``:
    counted in ``session`` when ``clean`` (nothing else changed in it), else left for
    ``count_late_failure`` after the rollback. ``SignInLocked``/``CredentialRefused`` as
    ``open_attempt``."""
    moment = now()
    attempt = open_attempt(session, tournament_id, source, moment)
    digest = pin_digest(pin, attempt.access.salt)
    credential = session.scalar(select(Credential).where(Credential.tournament_id == tournament_id,
                                                         Credential.digest == digest))
    if credential is None:
        wait = count_failure(attempt, moment) if clean else 0.0
        if clean:
            session.flush()
        raise WrongPin(tournament_id, counted=clean, wait=wait)
    count_success(attempt, Role(credential.role))
    return credential, digest
