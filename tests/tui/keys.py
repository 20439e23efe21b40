"""Keys sent to an app the way a fast typist's terminal sends them, and the keys its
footer shows."""

from __future__ import annotations

from textual import events
from textual.app import App
from textual.screen import Screen
from textual.widgets import Footer
from textual.widgets._footer import FooterKey, FooterLabel


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


def footer_beyond(screen: Screen[object], width: int = 80) -> list[str]:
    """The footer items of ``screen`` that do not fit in ``width`` columns (issue 13 §3:
    every key a station may press is visible at 80×24), as ``key description``."""
    footer = screen.query_one(Footer)
    items = list(footer.query(FooterKey)) + list(footer.query(FooterLabel))
    assert items, "the footer shows no key"
    return [f"{getattr(item, 'key', '')} {getattr(item, 'description', item.render())}".strip()
            for item in items if item.region.width == 0 or item.region.right > width]


def footer_laid_out(screen: Screen[object]) -> bool:
    """Whether the footer of ``screen`` has its keys mounted and placed (a footer rebuilt
    after a change of bindings is laid out at the next refresh): wait for it before
    :func:`footer_beyond`."""
    keys = list(screen.query_one(Footer).query(FooterKey))
    return bool(keys) and all(key.region.width for key in keys)


def footer_actions(screen: Screen[object]) -> set[str]:
    """The actions the footer of ``screen`` offers."""
    return {item.action for item in screen.query_one(Footer).query(FooterKey)}
