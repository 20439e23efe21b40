"""The round clock: a ``duplicate.rules.timer.RoundTimer`` shown in large digits with the
announcer's cues (III.13: 1:00, 0:30, «ALCEN» at 0:05, «TIEMPO» at 0:00).

The widget holds no rule: the countdown and the cue moments are the ``RoundTimer``'s.
It only refreshes the display on an interval and reports each cue up with a
``RoundClock.CueReached`` message (attributes down, messages up).
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import Digits, Static

from duplicate.rules.timer import Cue, RoundTimer

TICK_SECONDS = 0.2
"""How often the display is refreshed (seconds)."""

CUE_CLASSES = {Cue.ONE_MINUTE: "-warning", Cue.THIRTY_SECONDS: "-warning", Cue.RAISE: "-raise", Cue.TIME: "-time"}


class RoundClock(Vertical):
    """Shows ``timer`` (``M:SS`` in large digits), whether it runs, ``hint`` (e.g. the
    keys), and the last cue.

    ``tick``: seconds between refreshes (``None``: no interval; call ``refresh_clock``).
    Posts ``CueReached`` once for every cue the timer reports.
    """

    DEFAULT_CSS = """
    RoundClock { height: auto; width: 100%; }
    RoundClock Digits { width: auto; }
    RoundClock #clock-line { height: 3; }
    RoundClock #clock-state { width: 1fr; padding: 0 2; color: $text-muted; }
    RoundClock #clock-cue { height: 1; width: 100%; text-style: bold; }
    RoundClock.-warning #clock-cue { color: $warning; }
    RoundClock.-raise #clock-cue { background: $warning; color: $background; text-align: center; }
    RoundClock.-time #clock-cue { background: $error; color: $text; text-align: center; }
    RoundClock.-time Digits { color: $error; }
    """

    class CueReached(Message):
        """A cue is due now (``cue``: a ``duplicate.rules.timer.Cue``)."""

        def __init__(self, cue: Cue) -> None:
            super().__init__()
            self.cue = cue

    text: reactive[str] = reactive("")
    cue: reactive[Cue | None] = reactive(None)

    def __init__(self, timer: RoundTimer, *, tick: float | None = TICK_SECONDS, hint: str = "",
                 id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.timer = timer
        self.hint = hint
        self._tick = tick

    def compose(self) -> ComposeResult:
        with Horizontal(id="clock-line"):
            yield Digits(self.timer.text(), id="clock-digits")
            yield Static("", id="clock-state")
        yield Static("", id="clock-cue")

    def on_mount(self) -> None:
        self.refresh_clock()
        if self._tick is not None:
            self.set_interval(self._tick, self.refresh_clock)

    def refresh_clock(self) -> None:
        """Read the timer: update the digits and post the cues that are due."""
        self.text = self.timer.text()
        for cue in self.timer.due_cues():
            self.post_message(self.CueReached(cue))
        # The call shown is the last one due, also after following another station's
        # clock (``RoundTimer.sync``) past a call.
        self.cue = self.timer.current_cue()
        self._show_state()
        self._show_cue()

    def reset(self, seconds: float | None = None) -> None:
        """Back to the full time (stopped), clearing the cue."""
        self.timer.reset(seconds)
        self.cue = None
        self.refresh_clock()

    def toggle(self) -> None:
        """Start when stopped, pause when running."""
        if self.timer.running:
            self.timer.pause()
        else:
            self.timer.start()
        self.refresh_clock()

    def watch_text(self, text: str) -> None:
        if self.is_mounted:
            self.query_one("#clock-digits", Digits).update(text)

    def watch_cue(self, cue: Cue | None) -> None:
        for name in set(CUE_CLASSES.values()):
            self.remove_class(name)
        if cue is not None:
            self.add_class(CUE_CLASSES[cue])
        self._show_cue()

    def cue_line(self) -> str:
        """The call to make now: the last cue due, or «TIEMPO» while the round runs
        before its first cue (III.13: the judge calls «TIEMPO» to start the 3 minutes);
        empty while the clock is stopped at full time."""
        if self.cue is not None:
            return self.cue.value
        if self.timer.running:
            return f"{Cue.TIME.value} (inicio)"
        return ""

    def _show_cue(self) -> None:
        if self.is_mounted:
            line = self.cue_line()
            self.query_one("#clock-cue", Static).update(f"  {line}  " if line else "")

    def _show_state(self) -> None:
        if self.timer.running:
            state = "en marcha"
        elif self.timer.remaining() <= 0:
            state = "tiempo agotado"
        elif self.timer.remaining() < self.timer.seconds:
            state = "en pausa"
        else:
            state = "parado"
        self.query_one("#clock-state", Static).update(f"{state}\n{self.hint}" if self.hint else state)
