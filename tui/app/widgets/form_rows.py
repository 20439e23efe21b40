"""The pieces of the judge's forms (the setup screen, issue 4 §2): compact fields, buttons
and drop-down lists, each on a line with its name and an optional hint."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import RenderableType
from rich.text import Text
from textual.containers import Horizontal
from textual.widgets import Button, Label, Select, Static

from tui.app.widgets.ordered_input import OrderedInput
from tui.app.widgets.spanish_select import SpanishSelect


def form_input(**options: Any) -> OrderedInput:
    """A form field that takes keys in the order typed (the screen wires its Enter)."""
    return OrderedInput(compact=True, **options)


def form_button(label: str, **options: Any) -> Button:
    """A compact button."""
    return Button(label, compact=True, **options)


def form_select(options: Sequence[tuple[RenderableType, str]], name: str, *, blank: bool = False,
                prompt: str = "Elija") -> Select[str]:
    """A compact drop-down list with id ``name`` (``blank``: it may have no choice, and
    no option at all, showing ``prompt``). Pass names people typed as ``Text``: a ``str``
    is shown as typed by Textual today, a ``Text`` always is."""
    return SpanishSelect(options, compact=True, allow_blank=blank, prompt=prompt, id=name)


def show_or_hide(static: Static, text: str) -> None:
    """Show ``text`` (plain, never markup) in ``static``, hiding it when empty."""
    static.update(Text(text))
    static.set_class(not text, "-empty")


def form_row(label: str, *widgets: Any, hint: str = "") -> Horizontal:
    """A form line: the field's name, its widgets, an optional hint after them."""
    return Horizontal(Label(label, classes="field"), *widgets, *([Label(hint, classes="aside")] if hint else []),
                      classes="row")
