"""``SpanishSelect``: Textual's ``Select`` whose open list says its keys in Spanish.

Textual's drop-down list (``SelectOverlay``) declares «escape: Dismiss menu», shown in the
footer while the list is open (issue 25 §3: stray English). Its bindings are rewritten
with ``TEXTUAL_TEXTS`` when the select is mounted; any binding text Textual declares that
the table lacks is left as it is (a test walks the screens for English in the footer).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TypeVar

from textual.binding import BindingsMap
from textual.dom import DOMNode
from textual.widgets import Select
from textual.widgets._select import SelectOverlay

TEXTUAL_TEXTS = {
    "Dismiss menu": "Cerrar la lista",
    "Show menu": "Abrir la lista",
}
"""Textual's own binding descriptions a user can see → Spanish."""

SelectType = TypeVar("SelectType")


def translate_bindings(node: DOMNode) -> None:
    """Replace ``node``'s binding descriptions found in ``TEXTUAL_TEXTS``."""
    keys = {key: [replace(binding, description=TEXTUAL_TEXTS.get(binding.description, binding.description))
                  for binding in bindings]
            for key, bindings in node._bindings.key_to_bindings.items()}
    node._bindings = BindingsMap.from_keys(keys)


class SpanishSelect(Select[SelectType]):
    """A ``Select`` whose keys (its own and its open list's) are described in Spanish."""

    def on_mount(self) -> None:
        translate_bindings(self)
        for overlay in self.query(SelectOverlay):
            translate_bindings(overlay)
