"""What a screen shows, as text: the rendered lines of the current screen (issue 25 §2–3)."""

from __future__ import annotations

from typing import Any

from textual.app import App


def screen_lines(app: App[Any]) -> list[str]:
    """The current screen's lines as the terminal shows them (plain text, one per row)."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


def screen_text(app: App[Any]) -> str:
    """The current screen as one string (rows joined by newlines)."""
    return "\n".join(screen_lines(app))
