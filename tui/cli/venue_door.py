"""Wrong venue passwords counted per client address (issue 26 §1).

``duplicada serve``'s password is checked on every request (HTTP Basic authentication).
``DoorGuard`` counts the requests that carry a wrong one against the client's address,
the same policy as a station's wrong PINs (``duplicate.service.access``): after
``MAX_FAILURES`` the address is locked for ``lock_seconds`` (2 s, doubling with each
further wrong password, at most 15 min) and every request from it is refused, the right
password too, until the lock ends. A right password clears nothing; an address's wrong
tries are forgotten an hour after the last. A request without a password (a browser's
first) is not a wrong try. The counts live in the server's memory: a restart forgets
them, which costs a guesser the restart's minute and the judge's attention.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from duplicate.service.access import lock_seconds

FORGET_SECONDS = 3600.0
"""An address's wrong passwords are forgotten an hour after the last."""

ADDRESSES_KEPT = 4096
"""Addresses remembered at most; beyond, the ones whose count is oldest are dropped."""


@dataclass
class _Tries:
    failures: int = 0
    last: float = 0.0
    locked_until: float = 0.0


class DoorGuard:
    """Wrong venue passwords by client address. ``clock``: seconds, monotonic."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._tries: dict[str, _Tries] = {}

    def wait(self, address: str) -> float:
        """Seconds ``address`` stays locked (0: it may try)."""
        tries = self._current(address)
        return max(0.0, tries.locked_until - self._clock()) if tries is not None else 0.0

    def failed(self, address: str) -> float:
        """Count a wrong password from ``address``; the seconds it is now locked for."""
        now = self._clock()
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
