"""The board widget: 15×15 with premium squares, rows A–O and columns 1–15 labelled, the
last master highlighted and blanks visibly different (issue 4 §2)."""

from __future__ import annotations

from rich.text import Text
from textual.geometry import Size
from textual.reactive import reactive
from textual.widget import Widget

from duplicate.service.views import BOARD_SIZE, BoardCells
from tui.app.widgets.glyphs import CENTRE_MARK

PREMIUM_STYLES = {
    (1, 1): ("·", "grey50 on grey15"),
    (2, 1): ("2L", "black on #8ec5e8"),
    (3, 1): ("3L", "white on #2f6fb0"),
    (1, 2): ("2P", "black on #f2b8c6"),
    (1, 3): ("3P", "white on #c0392b"),
}
"""(letter premium, word premium) → (mark, style) for an empty square."""

TILE_STYLE = "bold black on #f5deb3"
BLANK_STYLE = "bold #7a1f1f on #fff5dc"
LAST_STYLE = "bold black on #ffd84d"
LAST_BLANK_STYLE = "bold #7a1f1f on #ffd84d"


def board_text(board: BoardCells, highlight: frozenset[tuple[int, int]] = frozenset(), *, cell: int = 3) -> Text:
    """The board as rich ``Text``: ``cell`` characters per square (3 fits 80 columns;
    5 is for the projection screen). Blanks are shown lowercase in another colour."""
    text = Text()
    text.append(" " * 3)
    for column in range(BOARD_SIZE):
        text.append(f"{column + 1:^{cell}}", style="bold")
    text.append("\n")
    empty = board.empty
    for row, line in enumerate(board.rows):
        text.append(f" {board.row_name(row)} ", style="bold")
        for column, square in enumerate(line):
            if square.shown is None:
                mark, style = PREMIUM_STYLES[(square.letter_premium, square.word_premium)]
                if (row, column) == (7, 7) and empty:
                    mark = CENTRE_MARK
                text.append(f"{mark:^{cell}}", style=style)
                continue
            blank, last = square.blank, (row, column) in highlight
            style = (LAST_BLANK_STYLE if blank else LAST_STYLE) if last else (BLANK_STYLE if blank else TILE_STYLE)
            text.append(f"{square.shown:^{cell}}", style=style)
        text.append("\n")
    return text


class BoardView(Widget):
    """Shows ``board`` with the squares in ``highlight`` (the last master) marked."""

    DEFAULT_CSS = """
    BoardView { width: auto; height: auto; }
    """

    board: reactive[BoardCells | None] = reactive(None, layout=True)
    highlight: reactive[frozenset[tuple[int, int]]] = reactive(frozenset())

    def __init__(self, *, cell: int = 3, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.cell = cell

    def render(self) -> Text:
        if self.board is None:
            return Text("(sin tablero)")
        return board_text(self.board, self.highlight, cell=self.cell)

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return 3 + BOARD_SIZE * self.cell

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return BOARD_SIZE + 1
