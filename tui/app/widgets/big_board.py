"""The board at any size for the projection screen: each square ``width`` columns by
``height`` lines (3×1 as in ``BoardView``, 5×2, 7×3 …), with the same premium colours,
the last master highlighted and blanks in lowercase and another colour.

``cell_for(columns, lines, reserve)`` picks the biggest square that fits a region.
"""

from __future__ import annotations

from rich.text import Text
from textual.geometry import Size
from textual.reactive import reactive
from textual.widget import Widget

from duplicate.service.views import BOARD_SIZE, BoardCells
from tui.app.widgets.board import BLANK_STYLE, LAST_BLANK_STYLE, LAST_STYLE, PREMIUM_STYLES, TILE_STYLE
from tui.app.widgets.glyphs import CENTRE_MARK

CELLS: tuple[tuple[int, int], ...] = ((9, 4), (7, 3), (5, 2), (3, 1))
"""Square sizes (columns, lines), biggest first; about square on a terminal."""

LABEL_WIDTH = 3
"""Columns of the row labels (`` A ``)."""


def board_size(cell: tuple[int, int]) -> tuple[int, int]:
    """Columns and lines of the board drawn with ``cell`` squares (labels included)."""
    width, height = cell
    return LABEL_WIDTH + BOARD_SIZE * width, 1 + BOARD_SIZE * height


def cell_for(columns: int, lines: int, reserve: int = 0) -> tuple[int, int]:
    """The biggest square size with which the board fits ``columns`` × ``lines`` and
    leaves ``reserve`` columns free beside it (the smallest size when none fits)."""
    for cell in CELLS:
        width, height = board_size(cell)
        if width + reserve <= columns and height <= lines:
            return cell
    return CELLS[-1]


def big_board_text(board: BoardCells, highlight: frozenset[tuple[int, int]], cell: tuple[int, int]) -> Text:
    """The board as rich ``Text``; letters and premium marks on the middle line of
    each square."""
    width, height = cell
    middle = height // 2
    text = Text()
    text.append(" " * LABEL_WIDTH)
    empty = board.empty
    for column in range(BOARD_SIZE):
        text.append(f"{column + 1:^{width}}", style="bold")
    for row in range(BOARD_SIZE):
        for line in range(height):
            text.append("\n")
            label = f" {board.row_name(row)} " if line == middle else " " * LABEL_WIDTH
            text.append(label, style="bold")
            for column in range(BOARD_SIZE):
                mark, style = _square(board, highlight, row, column, empty)
                text.append(f"{mark if line == middle else '':^{width}}", style=style)
    return text


def _square(board: BoardCells, highlight: frozenset[tuple[int, int]], row: int, column: int,
            empty: bool) -> tuple[str, str]:
    square = board.cell(row, column)
    if square.shown is None:
        mark, style = PREMIUM_STYLES[(square.letter_premium, square.word_premium)]
        if (row, column) == (7, 7) and empty:
            mark = CENTRE_MARK
        return mark, style
    if (row, column) in highlight:
        return square.shown, LAST_BLANK_STYLE if square.blank else LAST_STYLE
    return square.shown, BLANK_STYLE if square.blank else TILE_STYLE


class BigBoard(Widget):
    """Shows ``board`` with squares of size ``cell`` and ``highlight`` (the last master)."""

    DEFAULT_CSS = """
    BigBoard { width: auto; height: auto; }
    """

    board: reactive[BoardCells | None] = reactive(None, layout=True)
    highlight: reactive[frozenset[tuple[int, int]]] = reactive(frozenset())
    cell: reactive[tuple[int, int]] = reactive((5, 2), layout=True)

    def render(self) -> Text:
        if self.board is None:
            return Text("(sin tablero)")
        return big_board_text(self.board, self.highlight, self.cell)

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return board_size(self.cell)[0]

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return board_size(self.cell)[1] if self.board is not None else 1
