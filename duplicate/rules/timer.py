"""The round timer (III.13): 3 minutes by default, warnings at 1:00 and 0:30, «ALCEN» at
0:05 and «TIEMPO» at 0:00.

``RoundTimer`` is pure: time comes from an injected monotonic clock, so the TUI, the
projection screen and the tests agree on what the timer says at any moment.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum

from data.rules import ALCEN_SECONDS, CALL_SECONDS, ROUND_SECONDS


class Cue(StrEnum):
    """What the announcer calls out (III.13)."""

    ONE_MINUTE = "queda 1 minuto"
    THIRTY_SECONDS = "quedan 30 segundos"
    RAISE = "ALCEN"
    TIME = "TIEMPO"


CUES: tuple[tuple[float, Cue], ...] = (
    (CALL_SECONDS[0], Cue.ONE_MINUTE), (CALL_SECONDS[1], Cue.THIRTY_SECONDS), (ALCEN_SECONDS, Cue.RAISE), (0, Cue.TIME))
"""Seconds remaining at which each cue is due."""


def cue_at(remaining: float, seconds: float = ROUND_SECONDS) -> Cue | None:
    """The last call due with ``remaining`` seconds left of a ``seconds``-long round
    (III.13): ``None`` before 1:00, then «queda 1 minuto», «quedan 30 segundos»,
    «ALCEN» from 0:05 and «TIEMPO» at 0:00 — what a screen shows until the next call,
    whether it followed the countdown or joined it late."""
    reached = [cue for at, cue in CUES if remaining <= at and at < seconds]
    return reached[-1] if reached else None


def clock_text(seconds: float) -> str:
    """``seconds`` left (negative counts as 0) as ``M:SS``, rounded up: «0:00» only once the
    time is over — what every clock of the program shows (the terminal, the live pages)."""
    whole = max(0, math.ceil(seconds))
    return f"{whole // 60}:{whole % 60:02d}"


@dataclass
class RoundTimer:
    """A countdown of ``seconds`` that can be started, paused and reset.

    ``remaining()`` is in seconds (float, never below 0); ``due_cues()`` returns the
    cues reached since the last call, each once, in order.
    """

    seconds: float = ROUND_SECONDS
    clock: Callable[[], float] = time.monotonic
    _elapsed: float = 0.0
    _started_at: float | None = None
    _announced: set[Cue] = field(default_factory=set)

    @property
    def running(self) -> bool:
        return self._started_at is not None

    def start(self) -> None:
        """Start or resume (no effect when running or finished)."""
        if self._started_at is None and self.remaining() > 0:
            self._started_at = self.clock()

    def pause(self) -> None:
        if self._started_at is not None:
            self._elapsed += self.clock() - self._started_at
            self._started_at = None

    def reset(self, seconds: float | None = None) -> None:
        """Back to the full time (``seconds`` replaces the length), stopped."""
        if seconds is not None:
            self.seconds = seconds
        self._elapsed = 0.0
        self._started_at = None
        self._announced.clear()

    def remaining(self) -> float:
        elapsed = self._elapsed + (self.clock() - self._started_at if self._started_at is not None else 0.0)
        return max(0.0, self.seconds - elapsed)

    def text(self) -> str:
        """``M:SS``, rounded up so that «0:00» shows only when time is over (``clock_text``)."""
        return clock_text(self.remaining())

    def current_cue(self) -> Cue | None:
        """The last call due now (``cue_at``)."""
        return cue_at(self.remaining(), self.seconds)

    def sync(self, remaining: float, running: bool) -> None:
        """Set the countdown to ``remaining`` seconds, running or paused (to follow another
        station's timer, ``shared_remaining``). Cues already past are not repeated."""
        self._elapsed = max(0.0, self.seconds - remaining)
        self._started_at = self.clock() if running and remaining > 0 else None
        self._announced = {cue for at, cue in CUES if remaining <= at}

    def due_cues(self) -> list[Cue]:
        """Cues whose moment has come and that were not returned before."""
        left = self.remaining()
        due = [cue for at, cue in CUES if left <= at and cue not in self._announced and at < self.seconds]
        self._announced.update(due)
        if left <= 0 and self._started_at is not None:
            self.pause()
        return due


def shared_remaining(action: str, remaining: float, elapsed_since: float) -> tuple[float, bool]:
    """What a timer shared through the event log shows now: ``(seconds left, running)``.

    ``action``/``remaining``: the last ``start``/``pause``/``reset`` recorded and the
    seconds left at that moment; ``elapsed_since``: seconds since it was recorded.
    """
    if action == "start":
        return max(0.0, remaining - max(0.0, elapsed_since)), remaining - elapsed_since > 0
    return remaining, False
