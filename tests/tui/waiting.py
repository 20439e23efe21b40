"""Waiting in Pilot tests for what the app does in its workers."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from textual.pilot import Pilot


async def until(pilot: Pilot, condition: Callable[[], bool], timeout: float = 90.0) -> None:  # type: ignore[type-arg]
    """Let the app run until ``condition`` holds (workers included); fail after ``timeout`` s."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        assert loop.time() < deadline, "the app did not get there in time"
        await pilot.pause(0.02)


async def idle(pilot: Pilot) -> None:  # type: ignore[type-arg]
    """Every worker done and its result shown."""
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()
