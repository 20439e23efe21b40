"""Waiting in Pilot tests for the state a test checks, never for a length of time (issue 34 §7).

The one way to wait: :func:`until` lets the app run (``pilot.pause()`` with no delay: the
screen's pending messages handled, then the event loop let run until the process is idle)
until a condition on the app or the service holds; :func:`mounted` waits for a screen to be
mounted (its widgets queried only then); :func:`idle` waits for every worker and
what it shows; :func:`finished` awaits one of the app's own awaitables (``keys_applied``).
The only limit is a safety cap, :data:`CAP` seconds, far above what any wait takes on a
quiet machine (the longest, a hundred slips typed ahead, takes under a minute): on a busy
machine the tests are slower, never failed for it; a test that cannot get there fails with
what it was waiting for instead of hanging, and at once if the app has stopped on an error.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable
from typing import TypeVar

from textual.pilot import Pilot
from textual.screen import Screen

T = TypeVar("T")
S = TypeVar("S", bound=Screen)  # type: ignore[type-arg]

CAP = 900.0
"""Seconds a single wait may take before the test fails (ten times and more the quiet time)."""


def _described(condition: Callable[[], object]) -> str:
    try:
        return inspect.getsource(condition).strip()
    except (OSError, TypeError):
        return repr(condition)


async def until(pilot: Pilot, condition: Callable[[], object], what: str = "", *,  # type: ignore[type-arg]
                cap: float = CAP) -> None:
    """Let the app run (workers included) until ``condition()`` is true; fail with ``what``
    (or the condition's source) and the screen shown if it is still false after ``cap`` s."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + cap
    while not condition():
        if pilot.app._exception is not None:
            raise AssertionError(f"the app stopped while waiting for: {what or _described(condition)}") \
                from pilot.app._exception
        if loop.time() > deadline:
            raise AssertionError(f"after {cap:.0f} s the app had still not reached: {what or _described(condition)} "
                                 f"(screen {type(pilot.app.screen).__name__})")
        await pilot.pause()


async def mounted(pilot: Pilot, kind: type[S]) -> S:  # type: ignore[type-arg]
    """The app's screen once it is a ``kind`` and mounted (composed: its widgets can be
    queried; ``app.screen`` is the new screen as soon as it is pushed, before that)."""
    await until(pilot, lambda: isinstance(pilot.app.screen, kind) and pilot.app.screen.is_mounted,
                f"a {kind.__name__} shown")
    screen = pilot.app.screen
    assert isinstance(screen, kind)
    return screen


async def finished(awaitable: Awaitable[T], what: str, *, cap: float = CAP) -> T:
    """Await ``awaitable`` (the event loop runs meanwhile); fail with ``what`` after ``cap`` s."""
    try:
        return await asyncio.wait_for(awaitable, timeout=cap)
    except asyncio.TimeoutError:
        raise AssertionError(f"after {cap:.0f} s still not done: {what}") from None


async def idle(pilot: Pilot, *, cap: float = CAP) -> None:  # type: ignore[type-arg]
    """Every worker done and its result shown, the workers that result started included (a
    judge's action, then the lists read again): no worker left after the screen has handled
    what the last ones posted. Fails after ``cap`` s."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + cap
    await pilot.pause()
    while pilot.app.workers:
        await finished(pilot.app.workers.wait_for_complete(), "the app's workers done", cap=deadline - loop.time())
        await pilot.pause()
