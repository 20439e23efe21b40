"""Slips written on a paper board (II.8; III.20.1.c absolute, III.20.1.d relative): the
assistant places the word on an on-screen copy of the round's board, sees the canonical
notation (III.20.1.a) it gives, and the dialog returns the board form (``BoardSlip``) that
the service converts and judges (``duplicate.rules.board_notation``: the rules convert, the
screen only shows).

Arrows move the cursor to the square of the word's first new tile; Space turns the
direction (→ / ↓); the letters are typed as in the canonical notation (a lowercase
letter is a blank, III.20.3; ``[C]H`` two tiles, ``CH`` the digraph tile) and are laid
from the cursor along the direction, over the squares already occupied; Backspace takes
the last letter back; Intro gives the canonical notation of the main word — extended
over the tiles already on the board before and after it — and Esc cancels.
The service's ``paper_board_placement`` does the arithmetic on the board's cells
(``duplicate.rules.board_notation.placed_word``) and is tested on its own.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from duplicate.rules.board_notation import BoardNotationError
from duplicate.rules.notation import LOWERCASE_HINT
from duplicate.service.game_views import paper_board_placement
from duplicate.service.views import BOARD_SIZE, BoardCells, PaperPlacement
from tui.app.widgets.board import board_text
from tui.app.widgets.glyphs import WARNING_MARK


class PaperBoardDialog(ModalScreen[PaperPlacement | None]):
    """Place a paper board's word on the round's board; returns the placement (its
    board form ``text`` goes to the service), or None when cancelled."""

    DEFAULT_CSS = """
    PaperBoardDialog { align: center middle; }
    PaperBoardDialog > Vertical { width: auto; height: auto; border: thick $accent; background: $panel;
                                  padding: 0 1; }
    PaperBoardDialog #paper-body { width: auto; height: auto; }
    PaperBoardDialog #paper-board { width: auto; }
    PaperBoardDialog #paper-help { width: 24; height: auto; padding-left: 2; }
    PaperBoardDialog #paper-result { width: 72; height: auto; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancelar")]

    def __init__(self, board: BoardCells, title: str = "") -> None:
        super().__init__()
        self.board = board
        self.title_text = title or "Papeleta en tablero (III.20.1.c, III.20.1.d)"
        self.row, self.col = 7, 7
        self.across = True
        self.letters = ""

    def compose(self) -> ComposeResult:
        with Vertical():
            # The square, the letters and the notation they give first; the keys beside
            # the board: the whole dialog fits in 80×24.
            yield Static(Text(self.title_text, style="bold"))
            yield Static(id="paper-result")
            with Horizontal(id="paper-body"):
                yield Static(id="paper-board")
                yield Static(Text("Flechas: casilla de la primera ficha nueva\n\nEspacio: → / ↓\n\nLetras como en la "
                                  f"notación; {LOWERCASE_HINT}\n\nRetroceso: borrar\n\nIntro: usar\n\nEsc: cancelar",
                                  style="dim"), id="paper-help")

    def on_mount(self) -> None:
        self.show()

    def result(self) -> PaperPlacement | None:
        """What is placed, or None when it does not fit (the reason shown)."""
        try:
            return paper_board_placement(self.board, self.row, self.col, self.across, self.letters)
        except BoardNotationError:
            return None

    def show(self) -> None:
        shown, highlight, note = self.board, frozenset[tuple[int, int]](), ""
        if self.letters:
            try:
                placement = paper_board_placement(self.board, self.row, self.col, self.across, self.letters)
                shown, highlight, note = placement.board, placement.placed, f"→ {placement.canonical}"
            except BoardNotationError as error:
                note = f"{WARNING_MARK} {error}"
        self.query_one("#paper-board", Static).update(board_text(shown, highlight))
        arrow = "→" if self.across else "↓"
        square = self.board.square_name(self.row, self.col)
        self.query_one("#paper-result", Static).update(
            Text(f"Casilla {square} {arrow} · letras «{self.letters}» {note}"))

    def on_key(self, event: events.Key) -> None:
        moves = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}
        if event.key in moves:
            dr, dc = moves[event.key]
            self.row = min(BOARD_SIZE - 1, max(0, self.row + dr))
            self.col = min(BOARD_SIZE - 1, max(0, self.col + dc))
        elif event.key == "space":
            self.across = not self.across
        elif event.key == "backspace":
            self.letters = self.letters[:-1]
        elif event.key == "enter":
            slip = self.result()
            if slip is not None:
                self.dismiss(slip)
            return
        elif event.is_printable and event.character is not None:
            self.letters += event.character
        else:
            return
        event.stop()
        event.prevent_default()
        self.show()

    def action_cancel(self) -> None:
        self.dismiss(None)
