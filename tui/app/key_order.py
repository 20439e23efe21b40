"""Keys applied in the order typed, however fast they come (issue 25 §2).

Why keys got out of order: Textual hands a key to the focused widget's own message queue,
and what the key does may happen several queue hops later. A printable key is inserted by
the ``Input`` at the first hop, but an editing key (arrows, Home/End, Delete, Ctrl+U…)
and Tab/Shift+Tab are *bindings*, run only once the key has bubbled up through every
container to the app; Enter posts ``Input.Submitted``, whose handler moves the focus with
``Widget.focus`` — one more hop, through the app's queue; F6 opens a dialog that is mounted
later still. Keys typed in a burst are all in the app's queue already, so they overtook
those: ``H8-CASMO ← ← A`` became ``H8-CASMOA``, a whole form went into its first field, the
keys after F6 went to the form under the dialog.

``KeysInOrderApp`` makes every front end's keys wait their turn: the app takes a key
(or a paste) from the terminal or the browser, lets the screen do *everything* that key
causes — bindings, messages up the DOM, focus moves, a dialog mounted and focused — and
only then takes the next one. A key's effects are complete when the app and every widget
of the screen(s) involved have processed what was queued for them and nothing new is
queued (``settled``). Work a key starts in a worker thread (a slip saved, a PIN checked)
is not waited for: screens that need it keep their own order (the entry screen's queue).
Mouse events and everything else go through at once, as before.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Iterable
from typing import Any, TypeVar

from textual import events
from textual.app import App
from textual.message_pump import MessagePump
from textual.screen import Screen

ReturnType = TypeVar("ReturnType")

SETTLE_ROUNDS = 50
"""At most this many passes for one key (a pass waits for the widgets that have messages
queued; a key bubbling up through the containers needs one per level); a widget that never
stops posting (an animation) cannot hold the keys back beyond it."""

SETTLE_SECONDS = 5.0
"""At most this long for one key's effects: a widget stuck in a handler cannot hold the
keys back for ever (the next key is then applied, still in order)."""


class KeysInOrderApp(App[ReturnType]):
    """An ``App`` that applies keys and pastes one at a time, each once the previous one's
    effects are complete (see the module docstring). ``keys_waiting`` counts those taken
    from the terminal and not yet applied; ``keys_applied()`` waits for them."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._keys: deque[events.Key | events.Paste] = deque()
        self._key_busy = False
        self._keys_idle = asyncio.Event()
        self._keys_idle.set()
        self._settling: asyncio.Task[None] | None = None
        """The task waiting for the last key's effects (kept: the loop holds tasks weakly)."""

    @property
    def keys_waiting(self) -> int:
        """Keys (and pastes) received and not yet applied, the one being applied included."""
        return len(self._keys) + (1 if self._key_busy else 0)

    async def keys_applied(self) -> None:
        """Return once every key that reached the app so far has been applied and its
        effects are complete."""
        await _processed([self])                     # keys still in the app's queue reach the gate
        while self._key_busy or self._keys:
            await self._keys_idle.wait()

    async def _press_keys(self, keys: Iterable[str]) -> None:
        """Pilot's key presses (tests, ``auto_pilot``) return once the keys are applied:
        Pilot then waits for the screen, as it did when keys were handed on at once."""
        await super()._press_keys(keys)
        await self.keys_applied()

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, (events.Key, events.Paste)) and not event.is_forwarded:
            self._keys.append(event)
            if not self._key_busy:
                await self._apply_next_key()
            return
        await super().on_event(event)

    async def _apply_next_key(self) -> None:
        """Apply the oldest waiting key (as Textual does: priority bindings, then the
        focused widget), then wait in a task for its effects before the next one."""
        if not self._keys:
            self._key_busy = False
            self._keys_idle.set()
            return
        self._key_busy = True
        self._keys_idle.clear()
        event = self._keys.popleft()
        screens = self.screen_stack[-1:]                        # the screen the key went to
        try:
            await super().on_event(event)
        finally:
            self._settling = asyncio.get_running_loop().create_task(self._settle_then_next(screens))

    async def _settle_then_next(self, screens: list[Screen[Any]]) -> None:
        try:
            await self.settled(screens)
        finally:
            if not self.call_later(self._apply_next_key):       # the app is closing
                self._keys.clear()
                self._key_busy = False
                self._keys_idle.set()

    async def settled(self, screens: list[Screen[Any]] | None = None) -> None:
        """Return once the app, the active screen and ``screens`` have processed every
        message queued for them (at most ``SETTLE_ROUNDS`` passes, ``SETTLE_SECONDS``):
        each pass waits for the busy ones, which may post to others (a key bubbling up,
        a focus move, a dialog being mounted)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + SETTLE_SECONDS
        for _ in range(SETTLE_ROUNDS):
            busy = [pump for pump in self._pumps(screens or []) if _busy(pump)]
            left = deadline - loop.time()
            if not busy or left <= 0:
                return
            await _processed(busy, left)

    def _pumps(self, screens: list[Screen[Any]]) -> list[MessagePump]:
        """The app and every node of the active screen and of ``screens``."""
        pumps: dict[int, MessagePump] = {id(self): self}
        for root in [*screens, *self.screen_stack[-1:]]:
            for node in root.walk_children(with_self=True):
                pumps.setdefault(id(node), node)
        return list(pumps.values())


def _busy(pump: MessagePump) -> bool:
    """Whether ``pump`` has a message queued or being processed (``Queue.task_done`` is
    called once a message has been handled)."""
    queue: asyncio.Queue[Any] = pump._message_queue
    return bool(queue.qsize() or getattr(queue, "_unfinished_tasks", 0))


async def _processed(pumps: list[MessagePump], timeout: float = SETTLE_SECONDS) -> None:
    """Return once each of ``pumps`` has processed what was queued for it now (or after
    ``timeout`` seconds)."""
    loop = asyncio.get_running_loop()
    done = loop.create_future()
    waiting = 0

    def one_done() -> None:
        nonlocal waiting
        waiting -= 1
        if waiting == 0 and not done.done():
            done.set_result(None)

    for pump in pumps:
        if pump.call_later(one_done):
            waiting += 1
    if waiting:
        try:
            await asyncio.wait_for(asyncio.shield(done), timeout)
        except TimeoutError:
            pass
