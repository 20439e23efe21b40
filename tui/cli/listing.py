"""Rows of a command's output as an aligned table, CSV or JSON (the ``--format`` option).

Used by every command that lists something (standings, tables, slips, ratings): one
place decides how a list looks, with maintained libraries doing the work (``rich`` for
a table shown on a terminal, ``csv`` and ``json`` from the standard library). A table
written to a file or a pipe, or longer than the terminal, is printed plainly by
``plain_table`` — the same columns, headings and rule as Rich draws them, without Rich's
layout engine (a 300-player standings table took 0.25 s to lay out, issue 38). Every JSON a command prints
is ``json_text``: stored text stays exact for the program reading it, and a control,
format or separator character (U+202E, ESC, U+2028…) is written as a JSON escape
(``\\u202e``), never raw (issue 36 §5).
"""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
import sys
from collections.abc import Mapping, Sequence
from typing import Any

import click

from duplicate.texts import hidden, visible

FORMATS = ("table", "csv", "json")

ACCENTED = {"unico": "único", "maximo": "máximo", "pais": "país", "inscripcion": "inscripción",
            "posicion": "posición", "ultima": "última", "numero": "número", "clasificacion": "clasificación",
            "anoto": "anotó", "cambio": "cambio"}
"""Words of the column keys (ASCII, as in CSV and JSON, which programs read) written with
their accents in the table shown to people."""


def say(text: str) -> None:
    """Print a line holding stored text on standard output with every control, format or
    separator character made visible (``duplicate.texts.visible``): a name, a reason or a
    station read from the database never moves the cursor, retitles the terminal or
    reverses the line (issue 26 §3). Every listing prints through it or ``emit_rows``."""
    click.echo(visible(text))


_NOT_PLAIN = re.compile(r"[^\x20-\x7e\n]")
"""A character of a JSON text that may need escaping: anything but printable ASCII and the
line breaks of the indentation (JSON's own syntax is ASCII, so such a character is always
inside a string)."""


def json_text(value: Any, *, indent: int | None = 1) -> str:
    """``value`` as JSON (``json.dumps``, non-ASCII letters kept as they are: «Añón»), with
    every ``duplicate.texts.hidden`` character — controls, bidirectional overrides, zero-width
    and line separators, surrogates, noncharacters — escaped ``\\uXXXX`` (a surrogate pair
    beyond U+FFFF), as ``ensure_ascii`` would: a program reading it gets the exact text, a
    terminal shows it inert (issue 36 §5). Every ``--format json`` output and JSON stream of
    the command line prints through it."""
    return _NOT_PLAIN.sub(_escaped, json.dumps(value, ensure_ascii=False, indent=indent))


def _escaped(match: re.Match[str]) -> str:
    """``json_text``'s escape of one character: itself unless ``hidden``."""
    char = match.group()
    return json.dumps(char)[1:-1] if hidden(char) else char        # ASCII escapes: \u202e, \ud83f\udffe


def emit_json(value: Any) -> None:
    """Print ``value`` as ``json_text`` on standard output."""
    click.echo(json_text(value))


def heading(key: str) -> str:
    """The table heading of a column key: words apart, accents on (``unico_maximo`` → «único máximo»)."""
    return " ".join(ACCENTED.get(word, word) for word in key.split("_"))


def cell(value: Any) -> str:
    """A value as shown in a table: integers as such (no «.0»), decimals with a comma,
    ``None`` empty, yes/no in Spanish."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "sí" if value else "no"
    if isinstance(value, float):
        if value.is_integer():
            return str(int(value))
        return f"{value:.4f}".rstrip("0").rstrip(".").replace(".", ",")
    return str(value)


def _shown(value: Any, digits: int | None) -> str:
    """``cell``, or a number with ``digits`` decimals (``spanish_number``) when given."""
    if digits is not None and isinstance(value, int | float) and not isinstance(value, bool):
        from duplicate.labels import spanish_number     # (its module pulls in the rules' enums)

        return spanish_number(value, digits)
    return cell(value)


def plain_table(headings: Sequence[str], right: Sequence[bool], cells: Sequence[Sequence[str]]) -> str:
    """The lines of a table as ``emit_rows`` draws it with Rich (``box.SIMPLE_HEAD``, no
    edge, one space of padding each side of a cell, one between columns, a rule of «─»
    under the headings), built by hand: each column as wide as its widest cell in
    terminal cells (``rich.cells.cell_len``: a wide character counts two), ``right[i]``
    for a right-aligned column; never cut nor wrapped. ``cells``: one list of texts per
    row, already ``visible``. Ends with a line break."""
    from rich.cells import cell_len          # the width function alone (not Rich's console)

    widths = [cell_len(heading) for heading in headings]
    measured = [[cell_len(text) for text in row] for row in cells]
    for row in measured:
        widths = [max(width, size) for width, size in zip(widths, row, strict=True)]

    def line(texts: Sequence[str]) -> str:
        parts = []
        for text, width, flush_right in zip(texts, widths, right, strict=True):
            shown = text.rstrip(" ")         # as Rich: trailing spaces count in the width, are not drawn
            gap = " " * (width - cell_len(shown))
            parts.append(f" {gap}{shown} " if flush_right else f" {shown}{gap} ")
        return " ".join(parts)

    lines = [line(headings), "─" * (sum(widths) + 3 * len(widths) - 1)]
    lines.extend(line(row) for row in cells)
    return "\n".join(lines) + "\n"


def emit_rows(rows: Sequence[dict[str, Any]], output: str, *, numeric_text: Sequence[str] = (),
              digits: Mapping[str, int] | None = None) -> None:
    """Write ``rows`` (dicts with the same keys, in column order) to standard output as
    ``table``, ``csv`` or ``json`` (tables in Spanish: accented headings, decimals with a
    comma, ``cell``, control characters ``visible``; CSV and JSON keep the keys and numbers
    as programs read them; a CSV text cell is ``duplicate.publishing.spreadsheets.neutralised``
    as in the published files — hidden characters ``visible``, a would-be formula behind a
    ``'`` — and JSON is ``json_text``, hidden characters escaped).
    ``None`` prints as an empty cell; columns whose values
    are all numbers (or ``None``, or one of ``numeric_text`` such as «nuevo») are right-aligned.
    A table goes through Rich (bold headings, cut to the terminal's width) only when
    standard output is a terminal and the table fits its height; otherwise — a file, a
    pipe, a long table — it is ``plain_table``, the same text never cut (issue 38).
    ``digits``: the columns whose
    decimals a table shows as ``duplicate.labels.spanish_number`` with that many digits
    (a percentage ``43,60`` as on every page, never ``43,6``)."""
    if output == "json":
        emit_json(list(rows))
        return
    if not rows:
        click.echo("(nada)" if output == "table" else "")
        return
    headers = list(rows[0])
    if output == "csv":
        from duplicate.publishing.spreadsheets import neutralised      # the rule the published CSV files follow

        buffer = io.StringIO()
        writer = csv.DictWriter(buffer, fieldnames=headers)
        writer.writeheader()
        writer.writerows({key: "" if value is None else neutralised(value) for key, value in row.items()}
                         for row in rows)
        click.echo(buffer.getvalue(), nl=False)
        return
    right = [all(isinstance(row.get(key), int | float) or row.get(key) is None or row.get(key) in numeric_text
                 for row in rows) for key in headers]
    places = [(digits or {}).get(key) for key in headers]
    cells = [[visible(_shown(row.get(key), place)) for key, place in zip(headers, places, strict=True)]
             for row in rows]
    headings = [heading(key) for key in headers]
    size = shutil.get_terminal_size()
    if not sys.stdout.isatty() or len(rows) + 2 > size.lines:
        click.echo(plain_table(headings, right, cells), nl=False)
        return
    from rich import box
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    table = Table(box=box.SIMPLE_HEAD, show_edge=False)
    for text, flush_right in zip(headings, right, strict=True):
        table.add_column(text, justify="right" if flush_right else "left")
    for row_cells in cells:
        table.add_row(*(Text(text) for text in row_cells))
    Console(width=size.columns, highlight=False).print(table)
