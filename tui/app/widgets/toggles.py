"""Radio buttons and check boxes whose state shows as a mark, not by colour alone
(issue 25 §3): ``MarkedRadioButton`` shows «●» when chosen and «○» when not,
``MarkedCheckbox`` «x» when ticked and a blank when not. The marks are in ``glyphs``."""

from __future__ import annotations

from textual.content import Content
from textual.widgets import Checkbox, RadioButton

from tui.app.widgets.glyphs import CHECK_MARKS, RADIO_MARKS


class MarkedRadioButton(RadioButton):
    """A ``RadioButton`` showing ``RADIO_MARKS`` for its ``value``."""

    def render(self) -> Content:
        self.BUTTON_INNER = RADIO_MARKS[self.value]
        return super().render()


class MarkedCheckbox(Checkbox):
    """A ``Checkbox`` showing ``CHECK_MARKS`` for its ``value``."""

    def render(self) -> Content:
        self.BUTTON_INNER = CHECK_MARKS[self.value]
        return super().render()
