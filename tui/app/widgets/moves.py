"""The list of moves a judge chooses the master from (III.15).

``MoveChoices`` shows every move of top score in the III.15 order, each with why it
ranks where it does, then the next best scores (one move per score, with how many
moves share it). The data comes down as ``TopMove`` / ``NextScore`` values (the
service's views); the choice goes up as a ``MoveChoices.TopChosen`` message. No rule is applied here: the ranking
and its reasons are the engine's (``duplicate.rules.master``).
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.binding import Binding
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from duplicate.plurals import counted
from duplicate.service.views import NextScore, TopMove
from tui.app.widgets.glyphs import MASTER_MARK

__all__ = ["MoveChoices"]


class MoveChoices(OptionList):
    """Top moves (selectable as master) followed by the next best scores.

    Fed by ``show_tops`` and ``show_others`` (one rebuild each: laying out the options
    is the costly part). ``tops``: the III.15 ranking (index 0 is the rules' master);
    ``others``: the next scores; ``hidden``: top moves not shown (counted only);
    ``searching``: the next scores are still being computed; ``empty_text``: shown
    when there is no move.
    """

    DEFAULT_CSS = """
    MoveChoices { height: 1fr; min-height: 6; }
    """
    BINDINGS: ClassVar = [Binding("enter", "select", "Maestra")]

    choosing = True
    """Whether Enter chooses the master (False at a station that may not place it: the
    list is shown for information, and Enter is not offered)."""

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Enter («Maestra») is offered only while ``choosing``."""
        return self.choosing or action != "select"

    class TopChosen(Message):
        """The judge pressed Enter on top move ``index`` (``canonical``)."""

        def __init__(self, index: int, canonical: str) -> None:
            super().__init__()
            self.index = index
            self.canonical = canonical

    class NothingToChoose(Message):
        """The judge pressed Enter with no top move listed: no rack in play, or a rack
        with no legal move (III.29)."""

    class NotATop(Message):
        """The judge pressed Enter on a move below the top score."""

        def __init__(self, canonical: str, score: int) -> None:
            super().__init__()
            self.canonical = canonical
            self.score = score

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.tops: tuple[TopMove, ...] = ()
        self.others: tuple[NextScore, ...] = ()
        self.hidden = 0
        self.searching = False
        self.empty_text = ""

    def show_tops(self, tops: tuple[TopMove, ...], *, hidden: int = 0, searching: bool = False,
                  empty_text: str = "") -> None:
        """Show a new ranking (the next scores are cleared; ``searching``: they are coming)."""
        self.tops, self.hidden, self.searching, self.empty_text = tops, hidden, searching, empty_text
        self.others = ()
        self._rebuild(keep=False)

    def show_others(self, others: tuple[NextScore, ...]) -> None:
        """Add the next best scores below the top moves."""
        self.others, self.searching = others, False
        self._rebuild(keep=True)

    @property
    def top_count(self) -> int:
        """Number of top moves shown."""
        return len(self.tops)

    def _rebuild(self, *, keep: bool) -> None:
        highlighted = self.highlighted if keep else None
        if not self.tops:
            self.set_options([Option(Text(self.empty_text, style="dim"), disabled=True)] if self.empty_text else [])
            return
        options: list[Option] = [Option(self._top_prompt(index, top), id=f"top-{index}")
                                 for index, top in enumerate(self.tops)]
        if self.hidden:
            score = self.tops[0].score if self.tops else 0
            options.append(Option(Text(f"… y {counted(self.hidden, 'jugada')} más de {counted(score, 'punto')} (no se muestran)",
                                       style="dim"), id="hidden", disabled=True))
        if self.tops and (self.others or self.searching):
            title = "Siguientes puntuaciones" + (" (calculando…)" if self.searching and not self.others else "")
            options.append(Option(Text(title, style="bold"), id="others-title", disabled=True))
        for index, other in enumerate(self.others):
            more = f"  (+{other.count - 1} con la misma puntuación)" if other.count > 1 else ""
            prompt = Text.assemble((f"{other.score:>4}  ", "bold"), other.canonical, (more, "dim"))
            options.append(Option(prompt, id=f"other-{index}"))
        self.set_options(options)
        if self.tops:
            self.highlighted = highlighted if highlighted is not None and highlighted < len(options) else 0

    def _top_prompt(self, index: int, top: TopMove) -> Text:
        mark = (f"{MASTER_MARK} maestra (III.15)", "bold yellow") if index == 0 else ("", "")
        leave = f"deja «{top.leave}»" if top.leave else "no deja fichas"
        return Text.assemble((f"{top.score:>4}  ", "bold"), (f"{top.canonical:<20}", "bold"), " ",
                             (f"{leave}  ", "dim"), mark, "\n", (f"      {top.reason}", "italic dim"))

    def action_select(self) -> None:
        """Enter: choose the highlighted move; with no top move listed, say so (the
        screen explains why) instead of doing nothing."""
        if not self.tops:
            self.post_message(self.NothingToChoose())
            return
        super().action_select()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if not self.choosing:
            return
        option_id = event.option.id or ""
        kind, _, number = option_id.partition("-")
        if kind == "top":
            index = int(number)
            self.post_message(self.TopChosen(index, self.tops[index].canonical))
        elif kind == "other":
            other = self.others[int(number)]
            self.post_message(self.NotATop(other.canonical, other.score))
