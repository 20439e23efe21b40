"""Keys sent to an app the way a fast typist's terminal sends them."""

from __future__ import annotations

from textual import events
from textual.app import App


def send_without_pauses(app: App[object], keys: list[str]) -> None:
    """Hand every key to the app at once, as a fast typist's terminal does (``Pilot.press``
    waits for the app to settle after each key, which hides type-ahead problems)."""
    assert app._driver is not None
    for key in keys:
        character = "\r" if key == "enter" else key if len(key) == 1 else None
        name = {"-": "minus", "?": "question_mark"}.get(key, key)
        event = events.Key(name, character)
        event.set_sender(app)
        app._driver.send_message(event)
