"""Results as tables for federations: CSV files and an XLSX workbook (IV.32).

``result_tables(results)`` turns a ``TournamentResults`` into ``DataTable`` values
(a name, Spanish column headings, rows of plain values); ``write_csv`` and
``write_xlsx`` only write them, so the CSV files and the workbook hold the same
figures.

* **CSV**: RFC 4180, comma-separated, UTF-8 with a byte-order mark (so that Excel in a
  Spanish locale shows accents and Ñ), one file per table; numbers are written
  machine-readable (decimal point, no thousands separator): percentages with two
  decimals, points as integers, an empty cell for "none".
* **XLSX**: openpyxl (pure Python, from a PyPI wheel) in write-only mode, one sheet per
  table, heading row bold and frozen, numbers as numbers (percentages with the
  ``0.00`` format).

No text a user typed is ever a formula (issue 14 §2, the OWASP CSV-injection rule): in
CSV a text cell starting with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return is
written with a leading ``'`` (``neutralised``); in XLSX every text is a string cell, never
a formula, and is written as typed. Numbers stay numbers in both. A control, format or
separator character stored past the service's checks (by another program: ESC, NUL,
U+202E, U+FFFE…) is written ``U+XXXX`` in both (``duplicate.texts.visible``; line breaks
and tabs kept), so the workbook is always written and always opens (issue 36 §5).

Tables: ``clasificacion-general`` (IV.31), per game ``partida-N`` (standings with the
points of every round, III.23, III.24, III.26), ``partida-N-maestras`` (the game
record: racks, master moves, III.15) and ``partida-N-jugadas`` (every player's slip
per round with status and reason, II.9, III.25; CSV only — it is long).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from duplicate.publishing.result_values import SLIP_STATUS_LABELS, GameResults, TournamentResults
from duplicate.texts import visible

__all__ = ["DataTable", "csv_bytes", "game_table_names", "game_tables", "neutralised", "overall_table", "write_csv",
           "write_xlsx"]

Value = str | int | float | None


@dataclass(frozen=True)
class DataTable:
    """A table to export: ``name`` (file and sheet name), ``headings``, ``rows``;
    ``percent_columns``: indices of columns holding percentages (0–100+);
    ``in_workbook``: False for tables written as CSV only."""

    name: str
    title: str
    headings: tuple[str, ...]
    rows: list[tuple[Value, ...]]
    percent_columns: tuple[int, ...] = ()
    in_workbook: bool = True


def overall_table(results: TournamentResults) -> DataTable:
    """The tournament standings (IV.31): position, player, places per game, totals, value."""
    games = results.all_games
    headings = ("posicion", "jugador", "club", "pais", "id_federacion",
                *[f"puesto_partida_{number}" for number in games], "partidas_jugadas", "puntos", "bonificaciones",
                "total", "puntos_maestra", "porcentaje_maestra", f"valor_{results.settings.criterion}")
    rows = [(s.position, line.player.name, line.player.club, line.player.country, line.player.federation_id,
             *s.places, s.games_played, s.round_total, s.bonus_total, s.total, s.master_total,
             round(s.percentage, 2), round(s.value, 4))
            for line in results.overall for s in (line.standing,)]
    percent = (len(headings) - 2,)
    return DataTable("clasificacion-general", "General", headings, rows, percent)


def game_table_names(number: int) -> tuple[str, str, str]:
    """The names of game ``number``'s tables (``game_tables``, in that order): the file names
    of its CSV files without ``.csv``."""
    return f"partida-{number}", f"partida-{number}-maestras", f"partida-{number}-jugadas"


def game_tables(game: GameResults) -> list[DataTable]:
    """A game's standings with every round's points, its master moves and its slips
    (named ``game_table_names``)."""
    rounds = [master.number for master in game.masters]
    headings = ("posicion", "mesa", "jugador", "club", *[f"ronda_{n}" for n in rounds],
                *[f"bonificacion_ronda_{n}" for n in rounds], "puntos", "bonificaciones", "total", "puntos_maestra",
                "porcentaje_maestra", "iguala_maestra", "maxima_en_solitario", "maximo_diferencial", "estado")
    rows: list[tuple[Value, ...]] = []
    for line in game.standings:
        s = line.standing
        rows.append((s.position, line.table, line.player.name, line.player.club, *s.per_round, *s.bonuses_per_round,
                     s.round_total, s.bonus_total, s.total, s.master_total, round(s.percentage, 2), s.equal_master,
                     s.sole_top, s.max_deficit, game.status))
    standings = DataTable(f"partida-{game.number}", f"Partida {game.number}", headings, rows,
                          (headings.index("porcentaje_maestra"),))
    masters = DataTable(f"partida-{game.number}-maestras", f"Partida {game.number} maestras",
                        ("ronda", "atril", "jugada_maestra", "coordenada", "palabra", "puntos", "acumulado",
                         "maxima_del_programa", "jugadas_empatadas", "anulada"),
                        [(m.number, m.rack, m.master, m.coordinate, m.word, m.score, m.cumulative, m.top_score,
                          m.top_count, "sí" if m.annulled else "no") for m in game.masters])
    slips: list[tuple[Value, ...]] = []
    for line in sorted(game.standings, key=lambda line: line.table):
        for item in game.sheets.get(line.player.entry_id, ()):
            slips.append((item.number, line.table, line.player.name, item.coordinate, item.word, item.points,
                          item.bonus, item.cumulative, SLIP_STATUS_LABELS.get(item.status, item.status), item.reason,
                          item.master_coordinate, item.master_word, item.master_score, item.master_cumulative))
    slips.sort(key=lambda row: (row[0], row[1]))
    detail = DataTable(f"partida-{game.number}-jugadas", f"Partida {game.number} jugadas",
                       ("ronda", "mesa", "jugador", "coordenada", "palabra", "puntos", "bonificacion", "acumulado",
                        "estado", "motivo", "coordenada_maestra", "palabra_maestra", "puntos_maestra",
                        "acumulado_maestra"), slips, in_workbook=False)
    return [standings, masters, detail]


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""What a spreadsheet reads as the start of a formula in a text cell (OWASP)."""


def neutralised(value: Value) -> Value:
    """``value`` for a CSV cell: a text's hidden characters ``visible`` (line breaks and
    tabs kept; issue 36 §5), and a text a spreadsheet would run as a formula gets a leading
    ``'`` (shown as typed, never evaluated); numbers unchanged. Every CSV the program
    writes — published or printed by a command — passes its cells through it."""
    if not isinstance(value, str):
        return value
    value = visible(value, lines=True)
    return "'" + value if value.startswith(FORMULA_STARTS) else value


def csv_bytes(table: DataTable) -> bytes:
    """``table`` as CSV (UTF-8 with BOM, comma, decimal point); texts that would be formulas
    are ``neutralised``."""
    handle = io.StringIO(newline="")
    writer = csv.writer(handle)
    writer.writerow([neutralised(heading) for heading in table.headings])
    writer.writerows(["" if value is None else neutralised(value) for value in row] for row in table.rows)
    return handle.getvalue().encode("utf-8-sig")


def write_csv(table: DataTable, path: Path) -> None:
    """Write ``table`` as CSV into ``path`` (``csv_bytes``)."""
    path.write_bytes(csv_bytes(table))


def write_xlsx(tables: Sequence[DataTable], path: Path, *, title: str = "") -> None:
    """Write the tables meant for the workbook (``in_workbook``) as sheets of one XLSX file;
    every text ``visible`` (openpyxl refuses ESC, NUL and the like with
    ``IllegalCharacterError``; no XML holds U+FFFE), the title and the headings too."""
    from openpyxl import Workbook
    from openpyxl.cell import WriteOnlyCell
    from openpyxl.styles import Font

    workbook = Workbook(write_only=True)
    workbook.properties.title = visible(title)
    workbook.properties.creator = "duplicada"
    bold = Font(bold=True)
    for table in tables:
        if not table.in_workbook:
            continue
        sheet = workbook.create_sheet(_sheet_name(table.title))
        sheet.freeze_panes = "A2"
        heading = []
        for text in table.headings:
            cell = WriteOnlyCell(sheet, value=visible(text))
            cell.font = bold
            heading.append(cell)
        sheet.append(heading)
        percent = set(table.percent_columns)
        for row in table.rows:
            cells: list[object] = []
            for index, value in enumerate(row):
                if index in percent:
                    cell = WriteOnlyCell(sheet, value=value)
                    cell.number_format = "0.00"
                    cells.append(cell)
                elif isinstance(value, str):
                    cell = WriteOnlyCell(sheet, value=visible(value, lines=True))
                    cell.data_type = "s"          # a text, even «=…»: never a formula
                    cells.append(cell)
                else:
                    cells.append(value)
            sheet.append(cells)
    workbook.save(path)


def _sheet_name(title: str) -> str:
    """Excel sheet names: at most 31 characters, none of ``[]:*?/\\``, nothing hidden."""
    title = visible(title)
    for character in "[]:*?/\\":
        title = title.replace(character, " ")
    return title[:31]
