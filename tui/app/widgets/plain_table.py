"""A ``DataTable`` whose text cells are shown as typed, never read as markup.

Textual renders a ``str`` cell as Rich markup: a player called «[red]Eva[/]» would be
shown red, and «[/x]» would stop the screen with a ``MarkupError``. Names, clubs, slips
and reasons come from people, so every screen's tables are ``PlainTable``: a ``str``
cell becomes a plain ``Text``; cells that are already renderables are kept.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.coordinate import Coordinate
from textual.widgets import DataTable
from textual.widgets.data_table import ColumnKey, RowKey


def plain(cell: Any) -> Any:
    """``cell`` as plain text when it is a ``str``, else unchanged."""
    return Text(cell) if isinstance(cell, str) else cell


class PlainTable(DataTable[Any]):
    """``DataTable`` whose ``str`` cells are plain text (see the module docstring)."""

    def add_row(self, *cells: Any, height: int | None = 1, key: str | None = None,
                label: Any = None) -> RowKey:
        return super().add_row(*(plain(cell) for cell in cells), height=height, key=key, label=label)

    def update_cell(self, row_key: RowKey | str, column_key: ColumnKey | str, value: Any, *,
                    update_width: bool = False) -> None:
        super().update_cell(row_key, column_key, plain(value), update_width=update_width)

    def update_cell_at(self, coordinate: Coordinate, value: Any, *, update_width: bool = False) -> None:
        super().update_cell_at(coordinate, plain(value), update_width=update_width)
