"""CSV files people send in: players' lists and slips (issue 14 §1, issue 26 §3).

``read_csv_rows(path)`` reads a CSV file with a header row (UTF-8, with or without a BOM;
comma, semicolon or tab) and returns its rows with their line numbers. The separator is
chosen from the header line alone, without ``csv.Sniffer`` (whose patterns backtrack: a
crafted 422-byte first line took 23 s): ``separator`` counts each candidate outside
quotes in at most ``HEADER_MAX`` characters, in one pass, and the most frequent wins
(comma on a tie or when there is none). Cells are stored exactly as written — a name
such as ``=HYPERLINK(…)`` is a name; neutralising formulas belongs to the files the
program writes (``duplicate.publishing.spreadsheets.neutralised``). Only spaces right after a
separator are skipped (``Ana; Club A``); empty cells beyond the header (a trailing
comma) are ignored, a row shorter than the header has empty cells.

Errors are ``CsvFileError`` (an ``input_files.InputFileError``), Spanish, naming the file and the line.
"""

from __future__ import annotations

import csv
from pathlib import Path

from duplicate.input_files import InputFileError, read_text

__all__ = ["CSV_MAX_BYTES", "HEADER_MAX", "SEPARATORS", "CsvFileError", "read_csv_rows", "separator"]

CSV_MAX_BYTES = 5_000_000
"""A players' or slips' CSV file larger than this is refused unread (thousands of rows fit)."""

HEADER_MAX = 4096
"""Characters of the header line looked at to choose the separator."""

SEPARATORS = (",", ";", "\t")
"""The separators accepted, in order of preference on a tie."""


class CsvFileError(InputFileError):
    """A CSV file that cannot be read; the message (Spanish) names the file and, where
    it applies, the line. ``line`` is that line number (0 for the whole file)."""


def separator(header: str) -> str:
    """The separator of a CSV file whose first line is ``header``: the candidate of
    ``SEPARATORS`` met most often outside double quotes in its first ``HEADER_MAX``
    characters (a comma when none is). Linear in ``HEADER_MAX`` whatever the text."""
    counts = dict.fromkeys(SEPARATORS, 0)
    quoted = False
    for char in header[:HEADER_MAX]:
        if char == '"':
            quoted = not quoted
        elif not quoted and char in counts:
            counts[char] += 1
    best = max(SEPARATORS, key=lambda candidate: counts[candidate])   # first of the tied ones
    return best if counts[best] else ","


def read_csv_rows(path: Path) -> list[tuple[int, dict[str, str]]]:
    """Rows of the CSV file ``path`` with a header, each with the line it starts on.

    Raises ``CsvFileError`` for a file that is not a regular file (a FIFO, a device),
    larger than ``CSV_MAX_BYTES``, not UTF-8, empty, or with a quote left open (which
    would merge the following lines into one field, issue 14 §1)."""
    try:
        text = read_text(path, what="un CSV de jugadores o papeletas", limit=CSV_MAX_BYTES)
    except InputFileError as error:
        raise CsvFileError(str(error), line=error.line) from None
    lines = text.splitlines()
    reader = csv.DictReader(lines, delimiter=separator(lines[0] if lines else ""), quotechar='"',
                            skipinitialspace=True, strict=True, restval="")
    rows = []
    start = 2                                   # where the row being read begins
    try:
        if not reader.fieldnames:
            raise CsvFileError(f"{path}: el archivo está vacío (se espera una fila de cabecera)", line=1)
        start = reader.line_num + 1
        for row in reader:
            number, start = start, reader.line_num + 1
            if any("\n" in value for value in row.values() if isinstance(value, str)):
                raise CsvFileError(f"{path}, línea {number}: unas comillas abiertas no se cierran en la misma "
                                   "línea; cada fila va en una línea", line=number)
            extra = row.pop(None, [])             # type: ignore[call-overload,unused-ignore]  # beyond the header
            if any(cell.strip() for cell in extra):
                raise CsvFileError(f"{path}, línea {number}: {len(reader.fieldnames) + len(extra)} campos, y la "
                                   f"cabecera tiene {len(reader.fieldnames)}", line=number)
            rows.append((number, row))
    except csv.Error as error:
        raise CsvFileError(f"{path}, línea {start}: CSV mal formado ({error}); revise las comillas",
                           line=start) from None
    return rows
