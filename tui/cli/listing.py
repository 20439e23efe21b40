"""Rows of a command's output as an aligned table, CSV or JSON (the ``--format`` option).

Used by every command that lists something (standings, tables, slips, ratings): one
place decides how a list looks, with maintained libraries doing the work (``rich`` for
the table, ``csv`` and ``json`` from the standard library).
"""

from __future__ import annotations

import csv
import io
import json
import shutil
import sys
from collections.abc import Sequence
from typing import Any

import click
from rich import box
from rich.console import Console
from rich.table import Table

FORMATS = ("table", "csv", "json")


def emit_rows(rows: Sequence[dict[str, Any]], output: str, *, numeric_text: Sequence[str] = ()) -> None:
    """Write ``rows`` (dicts with the same keys, in column order) to standard output as
    ``table``, ``csv`` or ``json``. ``None`` prints as an empty cell; columns whose values
    are all numbers (or ``None``, or one of ``numeric_text`` such as «nuevo») are right-aligned.
    Piped tables are not cut to the terminal's width."""
    if output == "json":
        click.echo(json.dumps(list(rows), ensure_ascii=False, indent=1))
        return
    if not rows:
        click.echo("(nada)" if output == "table" else "")
        return
    headers = list(rows[0])
    if output == "csv":
        buffer = io.StringIO()
        writer = csv.DictWriter(buffer, fieldnames=headers)
        writer.writeheader()
        writer.writerows({key: "" if value is None else value for key, value in row.items()} for row in rows)
        click.echo(buffer.getvalue(), nl=False)
        return
    table = Table(box=box.SIMPLE_HEAD, show_edge=False)
    for key in headers:
        numeric = all(isinstance(row.get(key), int | float) or row.get(key) is None or row.get(key) in numeric_text
                      for row in rows)
        table.add_column(key.replace("_", " "), justify="right" if numeric else "left")
    for row in rows:
        table.add_row(*("" if row.get(key) is None else str(row[key]) for key in headers))
    width = shutil.get_terminal_size().columns if sys.stdout.isatty() else 250
    Console(width=width, highlight=False).print(table)
