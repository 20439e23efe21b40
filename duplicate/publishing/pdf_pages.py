"""The page and the table every printed document (PDF) is drawn with: the fonts, the colours
of bonuses (III.24) and penalised moves (III.25), ``Document`` (a canvas with margins, a
running header and footer and a y cursor) and ``draw_table`` (rows under a heading
repeated on every page, zebra stripes, long text cut or wrapped to its column). Every text
is drawn ``visible`` (``duplicate.texts``): a control or format character stored by another
program shows as ``U+XXXX`` instead of a blank or a missing glyph (issue 36 §5).

Built with **ReportLab** (``reportlab.pdfgen.canvas``), page by page; nothing here
writes PDF syntax by hand.

**Why ReportLab.** It installs from a pure-Python wheel on PyPI (it needs only Pillow
and charset-normalizer, both wheels; no Cairo, Pango or other system library, unlike
WeasyPrint), it has been the reference Python PDF library for two decades, its canvas
draws thousands of pages a second (the 300-player, 10-game benchmark prints about
4,000 pages, ``bench/publish.py``), and — decisive for a fresh machine — its wheel
**ships a Unicode TrueType font**: Bitstream Vera (``reportlab/fonts/Vera*.ttf``,
Bitstream Vera licence, free to embed and redistribute; the licence text is
``reportlab/fonts/bitstream-vera-license.txt``). Vera covers Latin-1 and more: every
Spanish letter (á é í ó ú ü ñ Ñ), ¿ ¡ « » – · €. It has no arrows, so documents write
moves in canonical notation only (III.20.1.a). fpdf2 was the other candidate; its wheel
carries no Unicode TTF, so it would have needed a font file of our own or the system's
DejaVu (absent on a machine set up from pip alone). The font is subset and embedded in
every PDF, so the files print the same anywhere.

The documents (all Spanish, A4), drawn with this page and table:

* ``duplicate.publishing.pdf_noticeboard``: ``write_game_pdf`` — a game's results for the
  noticeboard (III.26, IV.32): status (provisional / final) on every page, the standings
  with per-round points, bonuses highlighted (III.24) and penalised rounds marked
  (III.25), the percentage of the master; the partial standings (every
  ``partial_every`` rounds); the game record (racks, master moves, scores, cumulative);
  penalties with their reasons; the final board; the EloDI changes when available;
  ``write_overall_pdf`` — the tournament standings by its criterion (IV.31, IV.32).
* ``duplicate.publishing.pdf_sheets``: ``write_follow_up_sheets_pdf`` — one filled
  follow-up sheet per player (II.9); ``write_blank_follow_up_pdf`` — a blank follow-up
  sheet to photocopy (II.9); ``write_slip_pads_pdf`` — pre-filled slips (II.8):
  tournament, game, table and player's name on every slip, ``SLIPS_PER_PAD`` (30) per
  player, ten to a page so that a pad is three pages cut along the dashed lines; room
  for round and move.
* the classic events' publications (``ranking.classic.publish``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

import reportlab
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.units import mm
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from duplicate.texts import visible

__all__ = [
    "BONUS_FILL",
    "FONT",
    "FONT_BOLD",
    "HEADER_FILL",
    "MIN_FONT_SIZE",
    "PENALTY_FILL",
    "PREMIUM_FILLS",
    "TILE_FILL",
    "ZEBRA_FILL",
    "Cell",
    "Column",
    "Document",
    "draw_table",
    "fit_text",
    "font_files",
]

FONT = "DuplicadaSans"
FONT_BOLD = "DuplicadaSans-Bold"

BONUS_FILL = colors.HexColor("#ffe27a")
PENALTY_FILL = colors.HexColor("#e3e3e3")
ZEBRA_FILL = colors.HexColor("#f3f6fa")
HEADER_FILL = colors.HexColor("#1f3b5a")
PREMIUM_FILLS = {"tp": colors.HexColor("#e0523f"), "dp": colors.HexColor("#f5b7b1"),
                 "tl": colors.HexColor("#3b7fc4"), "dl": colors.HexColor("#b9d7f0"), "": colors.HexColor("#d8e8d2")}
TILE_FILL = colors.HexColor("#f6e7c1")


def font_files() -> tuple[Path, Path]:
    """The regular and bold TTF files used (Bitstream Vera, shipped in ReportLab's wheel)."""
    folder = Path(reportlab.__file__).resolve().parent / "fonts"
    return folder / "Vera.ttf", folder / "VeraBd.ttf"


@cache
def _register_fonts() -> None:
    regular, bold = font_files()
    pdfmetrics.registerFont(TTFont(FONT, str(regular)))
    pdfmetrics.registerFont(TTFont(FONT_BOLD, str(bold)))


# --- a page-oriented document --------------------------------------------------------------------


class Document:
    """A canvas with margins, a running header and footer, and a y cursor (points from the bottom)."""

    def __init__(self, path: Path, title: str, *, wide: bool = False, header: str = "", banner: str = "",
                 final: bool = True) -> None:
        _register_fonts()
        self.size = landscape(A4) if wide else A4
        self.canvas = Canvas(str(path), pagesize=self.size, pageCompression=1)
        self.canvas.setTitle(visible(title))
        self.canvas.setAuthor("duplicada")
        self.canvas.setCreator("duplicada (ReportLab)")
        self.margin = 14 * mm
        self.header = visible(header)
        self.banner = visible(banner)
        self.final = final
        self.page = 0
        self.y = 0.0
        self.started = False
        self.forms: dict[object, str] = {}
        """The forms of ``draw_table``'s ``shared`` columns drawn so far: content → form name."""

    @property
    def width(self) -> float:
        return float(self.size[0] - 2 * self.margin)

    @property
    def bottom(self) -> float:
        return float(self.margin + 10)

    def new_page(self) -> None:
        if self.started:
            self.canvas.showPage()
        self.started = True
        self.page += 1
        c = self.canvas
        top = self.size[1] - self.margin
        c.setFont(FONT, 8)
        c.setFillColor(colors.black)
        c.drawString(self.margin, top, self.header)
        if self.banner:
            c.setFont(FONT_BOLD, 9)
            c.setFillColor(colors.black if self.final else colors.HexColor("#b00020"))
            c.drawRightString(self.size[0] - self.margin, top, self.banner)
            c.setFillColor(colors.black)
        c.setFont(FONT, 7)
        c.drawCentredString(self.size[0] / 2, self.margin - 4, f"Página {self.page}")
        self.y = top - 14

    def ensure(self, height: float) -> None:
        """Start a new page unless ``height`` points fit above the bottom margin."""
        if not self.started or self.y - height < self.bottom:
            self.new_page()

    def heading(self, text: str, size: float = 13) -> None:
        self.ensure(size + 30)
        self.y -= size
        self.canvas.setFont(FONT_BOLD, size)
        self.canvas.drawString(self.margin, self.y, visible(text))
        self.y -= 6

    def paragraph(self, text: str, size: float = 8.5, font: str = FONT) -> None:
        lines = simpleSplit(visible(text, lines=True), font, size, self.width)
        for line in lines:
            self.ensure(size + 3)
            self.y -= size + 2
            self.canvas.setFont(font, size)
            self.canvas.drawString(self.margin, self.y, line)
        self.y -= 3

    def save(self) -> None:
        if not self.started:
            self.new_page()
        self.canvas.save()


@dataclass(frozen=True)
class Column:
    """A table column: heading, width in points, ``align`` left/right/centre, ``wrap``:
    long text wraps on several lines (else it is cut to the width)."""

    title: str
    width: float
    align: str = "left"
    wrap: bool = False


Cell = str | tuple[str, str]
"""A cell's text, or ``(text, style)`` with style ``bonus``, ``penalty`` or ``bold``."""


def fit_text(text: str, font: str, size: float, width: float) -> str:
    """``text`` as drawn in ``width`` points (hidden characters ``visible``): whole when it
    fits, else cut with «…»."""
    text = visible(text)
    if _width(text, font, size) <= width:
        return text
    while text and pdfmetrics.stringWidth(text + "…", font, size) > width:
        text = text[:-1]
    return text + "…"


def draw_table(doc: Document, columns: Sequence[Column], rows: Iterable[Sequence[Cell]], *,
               size: float = 7.5, scale: bool = True, shared: Sequence[int] = ()) -> None:
    """Rows of cells under a heading row repeated on every page; zebra stripes.

    ``shared``: the indexes of columns whose cells are the same in many tables of the
    document (the master's columns of every follow-up sheet of a game, II.9). When the
    table fits on the page, one line a row, its heading row, stripes and those columns
    are drawn once as a form (a PDF XObject) that every such table reuses — the same
    page, drawn in a fraction of the time."""
    total = sum(column.width for column in columns)
    factor = doc.width / total if scale and total > doc.width else 1.0
    widths = [column.width * factor for column in columns]
    lefts = [doc.margin + sum(widths[:i]) for i in range(len(widths))]
    line_height = size + 3.5
    c = doc.canvas
    if shared and not any(column.wrap for column in columns):
        rows = [tuple(row) for row in rows]
        doc.ensure(2 * line_height + 2)
        if doc.y - line_height * (1 + len(rows)) >= doc.bottom:     # no page break inside the table
            _shared_table(doc, columns, rows, widths, lefts, size, frozenset(shared))
            return

    def heading() -> None:
        doc.ensure(2 * line_height + 2)
        _heading_row(c, columns, widths, lefts, size, doc.margin, doc.y)
        doc.y -= line_height

    heading()
    page = doc.page
    for index, row in enumerate(rows):
        texts = _cell_lines(columns, row, widths, size)
        height = line_height * max(len(lines) for lines in texts)
        if doc.y - height < doc.bottom:
            doc.new_page()
        if doc.page != page:
            page = doc.page
            heading()
        if index % 2:
            c.setFillColor(ZEBRA_FILL)
            c.rect(doc.margin, doc.y - height, sum(widths), height, stroke=0, fill=1)
        _cells(c, columns, row, texts, widths, lefts, size, doc.y, height, range(len(columns)))
        doc.y -= height
    doc.y -= 8


def _shared_table(doc: Document, columns: Sequence[Column], rows: Sequence[Sequence[Cell]], widths: Sequence[float],
                  lefts: Sequence[float], size: float, shared: frozenset[int]) -> None:
    """``draw_table`` of a table that fits below ``doc.y``, one line a row: its heading
    row, stripes and ``shared`` columns from a form (made the first time these are
    drawn in the document), the other cells drawn here."""
    c = doc.canvas
    line_height = size + 3.5
    key = (tuple(columns), tuple(widths), size, doc.margin,
           tuple(tuple(cell for index, cell in enumerate(row) if index in shared) for row in rows))
    name = doc.forms.get(key)
    if name is None:
        name = doc.forms[key] = f"tabla{len(doc.forms) + 1}"
        c.beginForm(name, lowerx=0, lowery=-line_height * (1 + len(rows)) - 1, upperx=doc.size[0], uppery=1)
        _heading_row(c, columns, widths, lefts, size, doc.margin, 0.0)
        y = -line_height
        for index, row in enumerate(rows):
            if index % 2:
                c.setFillColor(ZEBRA_FILL)
                c.rect(doc.margin, y - line_height, sum(widths), line_height, stroke=0, fill=1)
            _cells(c, columns, row, _cell_lines(columns, row, widths, size), widths, lefts, size, y, line_height,
                   sorted(shared))
            y -= line_height
        c.endForm()
    c.saveState()
    c.translate(0, doc.y)
    c.doForm(name)
    c.restoreState()
    others = [index for index in range(len(columns)) if index not in shared]
    doc.y -= line_height
    for row in rows:
        _cells(c, columns, row, _cell_lines(columns, row, widths, size, others), widths, lefts, size, doc.y,
               line_height, others)
        doc.y -= line_height
    doc.y -= 8


def _heading_row(c: Canvas, columns: Sequence[Column], widths: Sequence[float], lefts: Sequence[float], size: float,
                 margin: float, y: float) -> None:
    """A table's heading row, white on ``HEADER_FILL``, its top at ``y``."""
    line_height = size + 3.5
    c.setFillColor(HEADER_FILL)
    c.rect(margin, y - line_height, sum(widths), line_height, stroke=0, fill=1)
    c.setFillColor(colors.white)
    for column, left, width in zip(columns, lefts, widths, strict=True):
        fitted = size  # a long heading shrinks (down to 5 pt) before it is cut
        while fitted > 5 and _width(column.title, FONT_BOLD, fitted) > width - 3:
            fitted -= 0.5
        c.setFont(FONT_BOLD, fitted)
        _put(c, fit_text(column.title, FONT_BOLD, fitted, width - 3), column.align, left, width, y - size - 0.5)
    c.setFillColor(colors.black)


def _cell_lines(columns: Sequence[Column], row: Sequence[Cell], widths: Sequence[float], size: float,
                chosen: Iterable[int] | None = None) -> list[list[str]]:
    """Each cell's text as drawn (``visible``), as lines: wrapped in a ``wrap`` column;
    with ``chosen``, only those cells' (the others empty)."""
    texts: list[list[str]] = []
    wanted = None if chosen is None else frozenset(chosen)
    for index, (column, cell, width) in enumerate(zip(columns, row, widths, strict=True)):
        if wanted is not None and index not in wanted:
            texts.append([])
            continue
        text = visible(cell[0] if isinstance(cell, tuple) else cell, lines=column.wrap)
        if column.wrap:
            texts.append(simpleSplit(text, FONT, size, width - 3) or [""])
        else:
            texts.append([text])
    return texts


def _cells(c: Canvas, columns: Sequence[Column], row: Sequence[Cell], texts: Sequence[Sequence[str]],
           widths: Sequence[float], lefts: Sequence[float], size: float, y: float, height: float,
           chosen: Iterable[int]) -> None:
    """The cells ``chosen`` (indexes) of a row whose top is at ``y``: a bonus or penalty
    cell's fill, then every text (one text object)."""
    chosen = list(chosen)
    line_height = size + 3.5
    for index in chosen:
        cell = row[index]
        if isinstance(cell, tuple) and cell[1] in ("bonus", "penalty"):
            c.setFillColor(BONUS_FILL if cell[1] == "bonus" else PENALTY_FILL)
            c.rect(lefts[index] + 0.5, y - height + 0.5, widths[index] - 1, height - 1, stroke=0, fill=1)
    c.setFillColor(colors.black)
    writer = c.beginText()
    current: tuple[str, float] = ("", 0.0)
    for index in chosen:
        column, cell, left, width = columns[index], row[index], lefts[index], widths[index]
        style = cell[1] if isinstance(cell, tuple) else ""
        font = FONT_BOLD if style in ("bonus", "bold") else FONT
        for number, line in enumerate(texts[index]):
            if not line:
                continue
            line_size = size
            if column.align == "left" and not column.wrap:
                line = fit_text(line, font, size, width - 3)
            elif not column.wrap and _width(line, font, size) > width - 3:
                # A number that does not fit its column («39+10» in a round column) is
                # set smaller rather than over the next cell.
                line_size = max(MIN_FONT_SIZE, size * (width - 3) / _width(line, font, size))
            if (font, line_size) != current:
                writer.setFont(font, line_size)
                current = (font, line_size)
            writer.setTextOrigin(_x(line, font, line_size, column.align, left, width),
                                 y - size - 0.5 - number * line_height)
            writer._textOut(line)   # placed by its origin: the cursor's advance is not needed
    c.drawText(writer)


MIN_FONT_SIZE = 4.0
"""The smallest size a cell's text is set at to fit its column (points)."""


@lru_cache(maxsize=65536)
def _width(text: str, font: str, size: float) -> float:
    return float(pdfmetrics.stringWidth(text, font, size))


def _x(text: str, font: str, size: float, align: str, left: float, width: float) -> float:
    if align == "right":
        return left + width - 2 - _width(text, font, size)
    if align == "centre":
        return left + (width - _width(text, font, size)) / 2
    return left + 2


def _put(c: Canvas, text: str, align: str, left: float, width: float, y: float) -> None:
    if align == "right":
        c.drawRightString(left + width - 2, y, text)
    elif align == "centre":
        c.drawCentredString(left + width / 2, y, text)
    else:
        c.drawString(left + 2, y, text)
