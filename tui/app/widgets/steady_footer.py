"""``SteadyFooter``: Textual's ``Footer`` recomposed only when the keys it shows change.

The stock footer rebuilds all its key widgets on every focus change; on a screen whose
keys do not depend on the focused widget (the slip entry moves the focus between two
fields for every slip) that rebuild is most of the cost of a keystroke's frame.
"""

from __future__ import annotations

from textual.screen import Screen
from textual.widgets import Footer


def shown_bindings(screen: Screen[object]) -> tuple[tuple[str, str, str, bool, str], ...]:
    """The bindings a footer shows on ``screen``: (key, description, action, enabled, tooltip)."""
    return tuple((binding.key, binding.description, binding.action, enabled, tooltip)
                 for _, binding, enabled, tooltip in screen.active_bindings.values() if binding.show)


class SteadyFooter(Footer):
    """A ``Footer`` that skips the rebuild when the shown keys are the same as before."""

    _shown: tuple[tuple[str, str, str, bool, str], ...] | None = None

    def bindings_changed(self, screen: Screen[object]) -> None:
        shown = shown_bindings(screen)
        if shown == self._shown:
            return
        self._shown = shown
        super().bindings_changed(screen)
