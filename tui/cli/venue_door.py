"""Wrong venue passwords counted per client address and across all addresses (issue 26 §1,
issue 36 §2).

``duplicada serve``'s password is checked on every request (HTTP Basic authentication).
``DoorGuard`` counts the requests that carry a wrong one:

* **per address**, the same policy as a station's wrong PINs
  (``duplicate.service.access``): after ``MAX_FAILURES`` the address is locked for
  ``lock_seconds`` (2 s, doubling with each further wrong password, at most 15 min) and
  every request from it is refused, the right password too, until the lock ends. A right
  password clears nothing; an address's wrong tries are forgotten an hour after the last.
* **across all addresses** (a guesser with many addresses — IPv6 gives one machine
  millions): every wrong password, from anywhere, fills a leaky bucket of
  ``CROWD_BURST`` that empties by one every ``CROWD_LEAK_SECONDS``. While it is full, a
  password from an address that has not given the right one (a *newcomer*) is refused
  uncompared (429) until the bucket has room again — at most ``CROWD_LEAK_SECONDS`` after
  the last wrong password compared. An address that gave the right password in the last
  ``KNOWN_SECONDS`` (a *known* address: the venue's browsers already in, which send the
  password with every request) is never held back by the others' failures.

Why this and not a lock that refuses everyone: the server cannot tell a right password
from a wrong one without comparing it, and a comparison whose answer reaches the browser
is a guess; so the only way to bound guesses across addresses is to refuse some
passwords uncompared. Refusing only newcomers' keeps the stations already in working
through any attack, and the refusal never outlives the attack by more than
``CROWD_LEAK_SECONDS``. Across all addresses, at most ``CROWD_BURST`` + 1 wrong passwords
are compared per ``CROWD_LEAK_SECONDS`` — 20 at once, then one a minute: 80 in the first
hour, 60 an hour after. What it does not promise: a newcomer with the right password
arriving *while* a spread guesser keeps the bucket full races the guesser for each free
slot (one a minute) and may wait as long as the attack lasts; the judge's console says
when the cap starts refusing (``VenueServer`` logs it); a known address is not affected
(its own wrong passwords still lock it, as above).

A request without a password (a browser's first) is not a wrong try. The counts live in
the server's memory: a restart forgets them, which costs a guesser the restart's minute
and the judge's attention.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from duplicate.service.access import lock_seconds

FORGET_SECONDS = 3600.0
"""An address's wrong passwords are forgotten an hour after the last."""

ADDRESSES_KEPT = 4096
"""Addresses remembered at most (wrong tries and known ones, each); beyond, the ones seen
least recently are dropped."""

CROWD_BURST = 20
"""Wrong passwords from all addresses together before newcomers are held back."""

CROWD_LEAK_SECONDS = 60.0
"""The bucket of wrong passwords empties by one every minute."""

KNOWN_SECONDS = 12 * 3600.0
"""An address that gave the right password stays known for twelve hours after the last."""


@dataclass
class _Tries:
    failures: int = 0
    last: float = 0.0
    locked_until: float = 0.0


class DoorGuard:
    """Wrong venue passwords by client address and across all of them. ``clock``:
    seconds, monotonic."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._tries: dict[str, _Tries] = {}
        self._known: dict[str, float] = {}
        self._crowd = 0.0
        self._crowd_at = clock()

    def wait(self, address: str) -> float:
        """Seconds ``address`` stays locked by its own wrong passwords (0: it may try)."""
        tries = self._current(address)
        return max(0.0, tries.locked_until - self._clock()) if tries is not None else 0.0

    def crowd_wait(self, address: str) -> float:
        """Seconds before a password from ``address`` may be compared under the cap across
        all addresses: 0 for a known address or while the bucket has room; else the time
        until it has (the password is then refused uncompared)."""
        if self.known(address):
            return 0.0
        level = self._leaked(self._clock())
        return max(0.0, (level + 1 - CROWD_BURST) * CROWD_LEAK_SECONDS)

    def known(self, address: str) -> bool:
        """Whether ``address`` gave the right password in the last ``KNOWN_SECONDS``."""
        last = self._known.get(address)
        if last is not None and self._clock() - last > KNOWN_SECONDS:
            del self._known[address]
            return False
        return last is not None

    def passed(self, address: str) -> None:
        """Note that ``address`` gave the right password (it is known from now on)."""
        if address not in self._known and len(self._known) >= ADDRESSES_KEPT:
            del self._known[min(self._known, key=self._known.__getitem__)]
        self._known[address] = self._clock()

    def failed(self, address: str) -> float:
        """Count a wrong password from ``address``, against it and in the bucket of all
        addresses (which holds ``CROWD_BURST`` at most: wrong passwords from known
        addresses, compared while it is full, never lengthen a newcomer's wait beyond
        ``CROWD_LEAK_SECONDS``); the seconds ``address`` is now locked for."""
        now = self._clock()
        self._crowd = min(float(CROWD_BURST), self._leaked(now) + 1)
        tries = self._current(address)
        if tries is None:
            if len(self._tries) >= ADDRESSES_KEPT:
                self._forget(now)
            tries = self._tries[address] = _Tries()
        tries.failures += 1
        tries.last = now
        wait = lock_seconds(tries.failures)
        tries.locked_until = now + wait
        return wait

    def _leaked(self, now: float) -> float:
        """The bucket's level at ``now``, after its leak since the last look."""
        self._crowd = max(0.0, self._crowd - (now - self._crowd_at) / CROWD_LEAK_SECONDS)
        self._crowd_at = now
        return self._crowd

    def _current(self, address: str) -> _Tries | None:
        tries = self._tries.get(address)
        if tries is not None and self._clock() - tries.last > FORGET_SECONDS:
            del self._tries[address]
            return None
        return tries

    def _forget(self, now: float) -> None:
        for address in [address for address, tries in self._tries.items() if now - tries.last > FORGET_SECONDS]:
            del self._tries[address]
        while len(self._tries) >= ADDRESSES_KEPT:
            del self._tries[min(self._tries, key=lambda address: self._tries[address].last)]
