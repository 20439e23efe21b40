"""An ``Input`` that takes typing keys in the order typed, however fast (issue 13 §2).

Textual hands each key to the focused widget's own message queue and moves the focus
later still (``Widget.focus`` is deferred): with type-ahead, keys typed after an Enter
that moves to the next field used to land in the old field, or be refused there. An
``OrderedInput`` handles printable keys, Backspace and Enter the moment the app reads
them; ``on_enter`` (called at once, instead of posting ``Input.Submitted``) moves the
focus with ``Screen.set_focus``, which is immediate, so the next key goes to the next
field. ``handle_now`` lets a screen take more keys at once (the slip form's F2–F4, Esc);
any other key goes the usual way.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual import events
from textual.geometry import Size
from textual.reactive import Reactive
from textual.widgets import Input


class OrderedInput(Input):
    """See the module docstring. ``on_enter(field)``: what Enter does (default: post
    ``Input.Submitted`` as usual); ``handle_now(field, key)``: keys the screen takes
    first, True when it did."""

    virtual_size: Reactive[Size] = Reactive(Size(0, 0), layout=False)
    """The text's extent (its width + 1, for horizontal scrolling). ``Widget``'s relays
    out the whole screen when it changes, i.e. on every key typed in an ``Input``, and
    the layout sets it back (ping-pong: two layout passes of the screen per key, most of
    the time of a burst of slips). A field's size does not depend on its text here (the
    screens give every field a width; ``Input`` itself relays out a field whose width
    is ``auto``), so a new text only repaints the field."""

    def __init__(self, *, on_enter: Callable[[OrderedInput], None] | None = None,
                 handle_now: Callable[[OrderedInput, events.Key], bool] | None = None, **options: Any) -> None:
        super().__init__(**options)
        self.on_enter = on_enter
        """What Enter does, at once (None: post ``Input.Submitted`` as usual)."""
        self._handle_now = handle_now

    def _forward_event(self, event: events.Event) -> None:
        if isinstance(event, events.Key) and self.screen is self.app.screen and self._take(event):
            event._set_forwarded()
            return
        super()._forward_event(event)

    def _take(self, event: events.Key) -> bool:
        if self._handle_now is not None and self._handle_now(self, event):
            return True
        if event.is_printable and event.character is not None:
            self.insert_text_at_cursor(event.character)
        elif event.key == "backspace":
            self.action_delete_left()
        elif event.key == "enter" and self.on_enter is not None:
            self.on_enter(self)
        else:
            return False
        return True
