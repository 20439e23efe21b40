"""The round clock on the live pages (issue 37, III.13): stable text, ticked by the browser.

The service's ``ClockView.remaining`` is computed when it is read, so a page that printed
it would change at every rebuild while the clock runs. A live page prints instead what the
judge recorded: the seconds left at the last start, pause or reset, and for a running clock
the moment it reaches 0:00 (``LiveClock.ends_at_ms``, milliseconds since the epoch on the
server's clock). The page's text therefore changes only when the judge acts on the clock.

In the browser, ``CLOCK_SCRIPT`` ticks every running clock of the page (the elements
``.crono[data-limite]``) down, shows the III.13 call due (the cues of
``duplicate.rules.timer.CUES``, carried by the page in ``data-llamadas``, never written
twice) and marks the element with ``data-aviso``: how many calls are left after the one
due (0 at «TIEMPO», 1 at «ALCEN»…; -1 before the first), what a stylesheet colours. Clock
skew: the server sends its time with the stream's first event (``event: version``,
``"hora"``: ms since the epoch); the live script keeps ``hora - Date.now()`` as the offset
of the browser's clock (0 without a stream: a static mirror). Without JavaScript the page shows the clock as recorded, and a running
clock says when it started and when it ends (local time of the server).
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from duplicate.rules.timer import CUES, clock_text, cue_at
from duplicate.service.views import ClockView

__all__ = ["CLOCK_SCRIPT", "LiveClock", "live_clock"]


@dataclass(frozen=True)
class LiveClock:
    """The round clock as a live page prints it (module docstring).

    ``seconds`` left when last recorded; ``running`` whether it was started then (it may
    have run out since: the page's script says so, the text does not); ``text`` those
    seconds as ``M:SS`` (rounded up, as ``timer.clock_text``: «0:00» only once the time is
    over); ``cue`` the call due at that moment (III.13; ``""`` none) and ``cue_level`` the
    calls left after it (0 at «TIEMPO»; -1 before the first call); ``ends_at_ms`` when a
    started clock reaches 0:00 (milliseconds since the epoch; None when paused or reset);
    ``since`` and ``ends`` the local times (``HH:MM:SS``) of the start and of that end
    (``""`` when paused); ``calls`` the III.13 calls of a round of this length as JSON
    ``[[seconds left, "call"], …]``, in order."""

    seconds: float
    running: bool
    text: str
    cue: str
    cue_level: int
    ends_at_ms: int | None
    since: str
    ends: str
    calls: str


def live_clock(clock: ClockView | None, round_in_play: int | None, seconds_per_round: float, *,
               full_time: bool = False) -> LiveClock | None:
    """What a live page shows of the round clock: the judge's ``clock``
    (``GameView.clock``) when it was recorded for the round in play (``round_in_play``:
    ``GameView.rack.number``; a clock left from an earlier round is not this round's);
    else, with ``full_time`` and a rack in play, the whole ``seconds_per_round`` stopped
    (what the terminal projection shows before the clock starts); else None (nothing to
    show: no rack in play, or the clock never started for it). Reads only recorded values
    (module docstring), so two calls with the same record give the same value."""
    calls = [(at, str(cue)) for at, cue in CUES if at < seconds_per_round]
    if clock is not None and round_in_play is not None and clock.round_number == round_in_play:
        recorded = clock.recorded_remaining if clock.recorded_remaining is not None else clock.remaining
        ends_at = clock.ends_at
    elif full_time and round_in_play is not None:
        recorded, ends_at = float(seconds_per_round), None
    else:
        return None
    cue = cue_at(recorded, seconds_per_round)
    index = next((index for index, (_at, text) in enumerate(calls) if cue is not None and text == str(cue)), None)
    since = clock.recorded_at if clock is not None and ends_at is not None else None
    return LiveClock(recorded, ends_at is not None, clock_text(recorded), str(cue) if cue is not None else "",
                     -1 if index is None else len(calls) - 1 - index,
                     round(ends_at.timestamp() * 1000) if ends_at is not None else None,
                     since.astimezone().strftime("%H:%M:%S") if since is not None else "",
                     ends_at.astimezone().strftime("%H:%M:%S") if ends_at is not None else "",
                     json.dumps(calls, ensure_ascii=False))


CLOCK_SCRIPT = """  function tick() {
    var clocks = document.querySelectorAll(".crono[data-limite]");
    for (var i = 0; i < clocks.length; i++) {
      var clock = clocks[i], calls = JSON.parse(clock.getAttribute("data-llamadas") || "[]");
      var left = Math.max(0, (Number(clock.getAttribute("data-limite")) - (Date.now() + offset)) / 1000);
      var whole = Math.ceil(left), text = Math.floor(whole / 60) + ":" + ("0" + whole % 60).slice(-2);
      var call = -1;
      for (var j = 0; j < calls.length; j++) { if (left <= calls[j][0]) { call = j; } }
      var parts = {tiempo: text, llamada: call < 0 ? "" : calls[call][1], situacion: left > 0 ? "en marcha" : "terminado"};
      for (var name in parts) {
        var shown = clock.querySelector("." + name);
        if (shown && shown.textContent !== parts[name]) { shown.textContent = parts[name]; }
      }
      var level = String(call < 0 ? -1 : calls.length - 1 - call);
      if (clock.getAttribute("data-aviso") !== level) { clock.setAttribute("data-aviso", level); }
    }
  }
  tick();
  window.setInterval(tick, 250);
"""
"""JavaScript statements for the body of the live script's function (``live_pages.live_script``):
``tick()`` shows every running clock of the page as of now (module docstring), called four
times a second (the text changes once a second). ``offset`` is a ``var`` of the enclosing
function: milliseconds to add to ``Date.now()`` for the server's time (0 until the stream
says it)."""
