"""``SteadyFooter``: Textual's ``Footer`` recomposed only when the keys it shows change.

The stock footer rebuilds all its key widgets on every focus change and every
``refresh_bindings`` (a screen whose keys are enabled by its state asks for one after each
change of state); the rebuild removes and mounts a widget per key, restyles them all and
lays the screen out again. On the slip entry (the focus moves between two fields for every
slip) and on the judge's console that rebuild was most of the cost of a keystroke's frame.
"""

from __future__ import annotations

from typing import Any

from textual.screen import Screen
from textual.widgets import Footer


def shown_bindings(screen: Screen[object]) -> tuple[tuple[Any, ...], ...]:
    """What a footer shows on ``screen``: for each shown binding (and the command palette's,
    which the footer shows apart) the binding itself (key, description, action, group…),
    whether it is enabled and its tooltip."""
    app = screen.app
    return tuple((binding, enabled, tooltip) for _, binding, enabled, tooltip in screen.active_bindings.values()
                 if binding.show or binding.key == app.COMMAND_PALETTE_BINDING)


class SteadyFooter(Footer):
    """A ``Footer`` that skips the rebuild when the shown keys are the same as before."""

    _shown: tuple[tuple[Any, ...], ...] | None = None

    def bindings_changed(self, screen: Screen[object]) -> None:
        if screen.app.app_focus and self.is_attached and screen is self.screen:   # the stock footer rebuilds
            shown = shown_bindings(screen)
            if shown == self._shown:
                return
            self._shown = shown
        super().bindings_changed(screen)
