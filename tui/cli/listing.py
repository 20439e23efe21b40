"""Rows of a command's output as an aligned table, CSV or JSON (the ``--format`` option).

Used by every command that lists something (standings, tables, slips, ratings): one
place decides how a list looks, with maintained libraries doing the work (``rich`` for
the table, ``csv`` and ``json`` from the standard library). Every JSON a command prints
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
from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from duplicate.labels import spanish_number
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
        return spanish_number(value, digits)
    return cell(value)


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
    Piped tables are not cut to the terminal's width. ``digits``: the columns whose
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
    table = Table(box=box.SIMPLE_HEAD, show_edge=False)
    for key in headers:
        numeric = all(isinstance(row.get(key), int | float) or row.get(key) is None or row.get(key) in numeric_text
                      for row in rows)
        table.add_column(heading(key), justify="right" if numeric else "left")
    for row in rows:
        table.add_row(*(Text(visible(_shown(row.get(key), (digits or {}).get(key)))) for key in headers))
    width = shutil.get_terminal_size().columns if sys.stdout.isatty() else 250
    Console(width=width, highlight=False).print(table)
