"""Printed documents (PDF): noticeboard standings, game records, follow-up sheets and slip pads.

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
DejaVu (absent on a machine set up from pip alone).

The font is subset and embedded in every PDF, so the files print the same anywhere.

Documents (all Spanish, A4):

* ``write_game_pdf`` — a game's results for the noticeboard (III.26, IV.32): status
  (provisional / final) on every page, the standings with per-round points, bonuses
  highlighted (III.24) and penalised rounds marked (III.25), the percentage of the
  master; the partial standings (every ``partial_every`` rounds); the game record (racks,
  master moves, scores, cumulative); penalties with their reasons; the final board; the
  EloDI changes when available.
* ``write_overall_pdf`` — the tournament standings by its criterion (IV.31, IV.32).
* ``write_follow_up_sheets_pdf`` — one filled follow-up sheet per player (II.9).
* ``write_blank_follow_up_pdf`` — a blank follow-up sheet to photocopy (II.9).
* ``write_slip_pads_pdf`` — pre-filled slips (II.8): tournament, game, table and
  player's name on every slip, ``SLIPS_PER_PAD`` (30) per player, ten to a page so
  that a pad is three pages cut along the dashed lines; room for round and move.
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

from duplicate.results import (
    GameResults,
    TournamentResults,
    spanish_number,
)
from duplicate.plurals import counted
from lexicon.board import ROW_NAMES, SIZE

__all__ = [
    "FONT",
    "FONT_BOLD",
    "SLIPS_PER_PAD",
    "font_files",
    "write_blank_follow_up_pdf",
    "write_follow_up_sheets_pdf",
    "write_game_pdf",
    "write_overall_pdf",
    "write_slip_pads_pdf",
]

FONT = "DuplicadaSans"
FONT_BOLD = "DuplicadaSans-Bold"
SLIPS_PER_PAD = 30
"""II.8: «Se recomienda entregar 30 papeletas en cada taco»."""

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


class _Document:
    """A canvas with margins, a running header and footer, and a y cursor (points from the bottom)."""

    def __init__(self, path: Path, title: str, *, wide: bool = False, header: str = "", banner: str = "",
                 final: bool = True) -> None:
        _register_fonts()
        self.size = landscape(A4) if wide else A4
        self.canvas = Canvas(str(path), pagesize=self.size, pageCompression=1)
        self.canvas.setTitle(title)
        self.canvas.setAuthor("duplicada")
        self.canvas.setCreator("duplicada (ReportLab)")
        self.margin = 14 * mm
        self.header = header
        self.banner = banner
        self.final = final
        self.page = 0
        self.y = 0.0
        self.started = False

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
        self.canvas.drawString(self.margin, self.y, text)
        self.y -= 6

    def paragraph(self, text: str, size: float = 8.5, font: str = FONT) -> None:
        lines = simpleSplit(text, font, size, self.width)
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


def _fit(text: str, font: str, size: float, width: float) -> str:
    if _width(text, font, size) <= width:
        return text
    while text and pdfmetrics.stringWidth(text + "…", font, size) > width:
        text = text[:-1]
    return text + "…"


def _draw_table(doc: _Document, columns: Sequence[Column], rows: Iterable[Sequence[Cell]], *,
                size: float = 7.5, scale: bool = True) -> None:
    """Rows of cells under a heading row repeated on every page; zebra stripes."""
    total = sum(column.width for column in columns)
    factor = doc.width / total if scale and total > doc.width else 1.0
    widths = [column.width * factor for column in columns]
    lefts = [doc.margin + sum(widths[:i]) for i in range(len(widths))]
    line_height = size + 3.5
    c = doc.canvas

    def heading() -> None:
        doc.ensure(2 * line_height + 2)
        c.setFillColor(HEADER_FILL)
        c.rect(doc.margin, doc.y - line_height, sum(widths), line_height, stroke=0, fill=1)
        c.setFillColor(colors.white)
        for column, left, width in zip(columns, lefts, widths, strict=True):
            fitted = size  # a long heading shrinks (down to 5 pt) before it is cut
            while fitted > 5 and _width(column.title, FONT_BOLD, fitted) > width - 3:
                fitted -= 0.5
            c.setFont(FONT_BOLD, fitted)
            _put(c, _fit(column.title, FONT_BOLD, fitted, width - 3), column.align, left, width, doc.y - size - 0.5)
        c.setFillColor(colors.black)
        doc.y -= line_height

    heading()
    page = doc.page
    for index, row in enumerate(rows):
        texts: list[list[str]] = []
        for column, cell, width in zip(columns, row, widths, strict=True):
            text = cell[0] if isinstance(cell, tuple) else cell
            if column.wrap:
                texts.append(simpleSplit(text, FONT, size, width - 3) or [""])
            else:
                texts.append([text])
        height = line_height * max(len(lines) for lines in texts)
        if doc.y - height < doc.bottom:
            doc.new_page()
        if doc.page != page:
            page = doc.page
            heading()
        if index % 2:
            c.setFillColor(ZEBRA_FILL)
            c.rect(doc.margin, doc.y - height, sum(widths), height, stroke=0, fill=1)
        for cell, left, width in zip(row, lefts, widths, strict=True):
            if isinstance(cell, tuple) and cell[1] in ("bonus", "penalty"):
                c.setFillColor(BONUS_FILL if cell[1] == "bonus" else PENALTY_FILL)
                c.rect(left + 0.5, doc.y - height + 0.5, width - 1, height - 1, stroke=0, fill=1)
        c.setFillColor(colors.black)
        writer = c.beginText()
        current: tuple[str, float] = ("", 0.0)
        for column, cell, lines, left, width in zip(columns, row, texts, lefts, widths, strict=True):
            style = cell[1] if isinstance(cell, tuple) else ""
            font = FONT_BOLD if style in ("bonus", "bold") else FONT
            for number, line in enumerate(lines):
                if not line:
                    continue
                line_size = size
                if column.align == "left" and not column.wrap:
                    line = _fit(line, font, size, width - 3)
                elif not column.wrap and _width(line, font, size) > width - 3:
                    # A number that does not fit its column («39+10» in a round column) is
                    # set smaller rather than over the next cell.
                    line_size = max(MIN_FONT_SIZE, size * (width - 3) / _width(line, font, size))
                if (font, line_size) != current:
                    writer.setFont(font, line_size)
                    current = (font, line_size)
                writer.setTextOrigin(_x(line, font, line_size, column.align, left, width),
                                     doc.y - size - 0.5 - number * line_height)
                writer.textOut(line)
        c.drawText(writer)
        doc.y -= height
    doc.y -= 8


Document = _Document
"""The page and cursor of a noticeboard PDF, for other publications (classic events)."""
draw_table = _draw_table
"""A table across pages with its heading repeated, for other publications (classic events)."""

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


# --- the game's noticeboard document --------------------------------------------------------------


def _banner(game: GameResults) -> str:
    return "RESULTADOS DEFINITIVOS" if game.final else "RESULTADOS PROVISIONALES"


def _round_cell(points: int, bonus: int, penalised: bool) -> Cell:
    if bonus:
        return (f"{points}+{bonus}", "bonus")
    if penalised:
        return (f"{points}p", "penalty")
    return str(points)


def write_game_pdf(results: TournamentResults, game: GameResults, path: Path) -> None:
    """The noticeboard PDF of one game (III.26, IV.32): see the module doc. Landscape A4."""
    doc = _Document(path, f"{results.name} — partida {game.number}", wide=True,
                    header=f"{results.name} · Partida {game.number}", banner=_banner(game), final=game.final)
    doc.heading(f"{results.name} — Clasificación de la partida {game.number}", 14)
    doc.paragraph(f"{_banner(game).capitalize()} (III.26). Puntos de la jugada maestra: {game.master_total} en "
                  f"{counted(len(game.masters), 'ronda')}. En cada ronda, «+N» (fondo amarillo) es una bonificación (III.24); "
                  "«p» (fondo gris) una jugada puntuada con cero, con el motivo al final (III.23, III.25).")
    rounds = [master.number for master in game.masters]
    columns = [Column("Pos.", 26, "right"), Column("Mesa", 26, "right"), Column("Jugador", 120),
               *[Column(f"R{number}", 22, "right") for number in rounds],
               Column("Bonif.", 28, "right"), Column("Total", 32, "right"), Column("% maestra", 40, "right")]
    rows = []
    for line in game.standings:
        s = line.standing
        rows.append([str(s.position), str(line.table), line.player.name,
                     *[_round_cell(cell.points, cell.bonus, cell.penalised) for cell in line.cells],
                     str(s.bonus_total) if s.bonus_total else "", (str(s.total), "bold"),
                     spanish_number(s.percentage) + " %"])
    rows.append(["", "", ("Jugada maestra", "bold"), *[str(master.score) for master in game.masters], "",
                 (str(game.master_total), "bold"), "100,00 %"])
    _draw_table(doc, columns, rows, size=6.5 if len(rounds) > 20 else 7.5)

    for partial in game.partials:
        doc.heading(f"Clasificación parcial tras la ronda {partial.after_round}", 11)
        doc.paragraph(f"Maestra acumulada: {partial.master_cumulative} puntos.")
        _draw_table(doc, [Column("Pos.", 30, "right"), Column("Mesa", 30, "right"), Column("Jugador", 200),
                          Column("Puntos", 50, "right"), Column("Bonif.", 40, "right"), Column("Total", 50, "right"),
                          Column("% maestra", 60, "right")],
                    ([str(p.position), str(p.table), p.player.name, str(p.points), str(p.bonus) if p.bonus else "",
                      (str(p.total), "bold"), spanish_number(p.percentage) + " %"] for p in partial.lines),
                    scale=False)

    _game_record(doc, game)
    _penalties_and_bonuses(doc, game)
    _board(doc, game)
    _elodi(doc, game)
    doc.save()


def _game_record(doc: _Document, game: GameResults) -> None:
    doc.heading(f"Desarrollo de la partida {game.number}: atriles y jugadas maestras", 11)
    _draw_table(doc, [Column("Ronda", 36, "right"), Column("Atril", 90), Column("Coordenada", 60),
                      Column("Palabra", 110), Column("Puntos", 44, "right"), Column("Acumulado", 56, "right"),
                      Column("Máx. del programa", 80, "right"), Column("Notas", 180)],
                ([str(m.number), m.rack, m.coordinate, m.word, str(m.score), str(m.cumulative), str(m.top_score),
                  "; ".join(note for note in (
                      "anulada (III.29)" if m.annulled else "",
                      f"{m.redraws} cambio(s) de atril (III.19)" if m.redraws else "",
                      *m.replaced,
                      f"{m.top_count} jugadas empatan con la máxima" if m.top_count > 1 else "") if note)]
                 for m in game.masters), scale=False)
    if game.end_reason:
        doc.paragraph(f"Fin de la partida: {game.end_reason}")
    for line in game.reopenings:
        doc.paragraph(f"Resultados definitivos reabiertos (IV.32): {line}")


def _penalties_and_bonuses(doc: _Document, game: GameResults) -> None:
    doc.heading("Bonificaciones (III.24)", 11)
    if game.bonuses:
        _draw_table(doc, [Column("Ronda", 40, "right"), Column("Jugador", 220), Column("Puntos", 50, "right")],
                    ([str(number), player.name, (f"+{points}", "bonus")] for number, player, points in game.bonuses),
                    scale=False)
    else:
        doc.paragraph("No se otorgaron bonificaciones.")
    doc.heading("Jugadas puntuadas con cero y sus motivos (III.23, III.25)", 11)
    if game.penalties:
        _draw_table(doc, [Column("Ronda", 36, "right"), Column("Mesa", 32, "right"), Column("Jugador", 140),
                          Column("Papeleta", 90), Column("Motivo", 460, wrap=True)],
                    ([str(p.round_number), str(p.table), p.player.name, p.text, p.reason] for p in game.penalties),
                    size=7)
    else:
        doc.paragraph("Ninguna.")


def _board(doc: _Document, game: GameResults) -> None:
    cell = 17.0
    side = cell * (SIZE + 1)
    doc.ensure(side + 40)
    doc.heading("Tablero final", 11)
    c = doc.canvas
    left = doc.margin
    top = doc.y - 4
    c.setFont(FONT_BOLD, 7)
    for col in range(SIZE):
        c.drawCentredString(left + cell * (col + 1.5), top - cell + 5, str(col + 1))
    for row in range(SIZE):
        y = top - cell * (row + 2)
        c.setFont(FONT_BOLD, 7)
        c.setFillColor(colors.black)
        c.drawCentredString(left + cell / 2, y + 5, ROW_NAMES[row])
        for col, square in enumerate(game.board[row]):
            x = left + cell * (col + 1)
            c.setStrokeColor(colors.white)
            c.setFillColor(TILE_FILL if square.tile else PREMIUM_FILLS[square.premium])
            c.rect(x, y, cell, cell, stroke=1, fill=1)
            if square.tile:
                c.setFillColor(colors.HexColor("#b00020") if square.blank else colors.black)
                c.setFont(FONT_BOLD, 8 if len(square.tile) == 1 else 6.5)
                c.drawCentredString(x + cell / 2, y + 5, square.tile)
    c.setFillColor(colors.black)
    c.setStrokeColor(colors.black)
    legend_x = left + side + 16
    c.setFont(FONT, 7.5)
    for index, (code, label) in enumerate((("tp", "triple palabra"), ("dp", "doble palabra"),
                                           ("tl", "triple letra"), ("dl", "doble letra"))):
        y = top - cell * (index + 2)
        c.setFillColor(PREMIUM_FILLS[code])
        c.rect(legend_x, y, 10, 10, stroke=0, fill=1)
        c.setFillColor(colors.black)
        c.drawString(legend_x + 14, y + 2, label)
    c.drawString(legend_x, top - cell * 7, "Letras en minúscula y en rojo: comodines.")
    doc.y = top - side - 10


def _elodi(doc: _Document, game: GameResults) -> None:
    doc.heading("Variación EloDI", 11)
    if game.elodi is None:
        doc.paragraph(game.elodi_note)
        return
    _draw_table(doc, [Column("Jugador", 200), Column("Antes", 50, "right"), Column("Variación", 60, "right"),
                      Column("Después", 50, "right"), Column("Puesto esperado", 80, "right"),
                      Column("Puesto real", 70, "right")],
                ([line.name, "nuevo" if line.rating_before is None else str(line.rating_before),
                  f"{line.change:+d}", str(line.rating_after),
                  "" if line.target_position is None else spanish_number(line.target_position, 1),
                  "" if line.actual_position is None else spanish_number(line.actual_position, 1)]
                 for line in game.elodi), scale=False)


# --- the overall standings --------------------------------------------------------------------------


def write_overall_pdf(results: TournamentResults, path: Path) -> None:
    """The tournament standings (IV.31, IV.32) for the noticeboard. Landscape A4."""
    banner = "CLASIFICACIÓN PROVISIONAL" if results.provisional else "CLASIFICACIÓN DEFINITIVA"
    doc = _Document(path, f"{results.name} — clasificación general", wide=True, header=results.name,
                    banner=banner, final=not results.provisional)
    doc.heading(f"{results.name} — Clasificación general", 14)
    doc.paragraph(f"Criterio: {results.criterion_label}. Partidas jugadas: {len(results.all_games)}. "
                  "«P1», «P2»…: puesto en cada partida («—»: no la jugó).")
    columns = [Column("Pos.", 28, "right"), Column("Jugador", 140), Column("Club", 90),
               *[Column(f"P{number}", 26, "right") for number in results.all_games],
               Column("Partidas", 40, "right"), Column("Bonif.", 34, "right"), Column("Total", 40, "right"),
               Column("% maestra", 46, "right"), Column(results.criterion_heading, 70, "right")]
    _draw_table(doc, columns, ([str(line.standing.position), line.player.name, line.player.club,
                                *["—" if place is None else str(place) for place in line.standing.places],
                                str(line.standing.games_played), str(line.standing.bonus_total or ""),
                                str(line.standing.total), spanish_number(line.standing.percentage) + " %",
                                (results.format_value(line.standing.value), "bold")]
                               for line in results.overall))
    doc.save()


# --- follow-up sheets (II.9) --------------------------------------------------------------------------

_SHEET_COLUMNS = (Column("Ronda", 30, "right"), Column("Coordenada", 50), Column("Palabra", 88),
                  Column("Puntos", 38, "right"), Column("Acumulado", 50, "right"), Column("Coord. maestra", 66),
                  Column("Palabra maestra", 88), Column("Puntos", 40, "right"), Column("Acumulado", 50, "right"))


def write_follow_up_sheets_pdf(results: TournamentResults, game: GameResults, path: Path) -> None:
    """One filled follow-up sheet (II.9) per seated player, by table: round, coordinate,
    word, points, cumulative; the master's coordinate, word, points, cumulative."""
    doc = _Document(path, f"{results.name} — hojas de seguimiento, partida {game.number}",
                    header=f"{results.name} · Partida {game.number} · Hoja de seguimiento (II.9)",
                    banner=_banner(game), final=game.final)
    for line in sorted(game.standings, key=lambda line: line.table):
        doc.new_page()
        doc.heading(f"{line.player.name} — mesa {line.table}", 13)
        s = line.standing
        doc.paragraph(f"Partida {game.number}: {s.total} puntos (bonificaciones {s.bonus_total}), puesto "
                      f"{s.position}, {spanish_number(s.percentage)} % de la maestra.")
        sheet = game.sheets.get(line.player.entry_id, ())
        _draw_table(doc, _SHEET_COLUMNS,
                    ([str(item.number), item.coordinate, item.word,
                      (f"{item.points}+{item.bonus}", "bonus") if item.bonus
                      else (f"{item.points}p", "penalty") if item.status != "valid" else str(item.points),
                      str(item.cumulative), item.master_coordinate, item.master_word, str(item.master_score),
                      str(item.master_cumulative)] for item in sheet), size=7.5)
    doc.save()


def write_blank_follow_up_pdf(results: TournamentResults, path: Path, *, game: int | None = None,
                              rows: int = 25) -> None:
    """A blank follow-up sheet (II.9) with ``rows`` round lines; the game number filled
    when given, the player's name left blank."""
    doc = _Document(path, f"{results.name} — hoja de seguimiento", header=f"{results.name} · Hoja de seguimiento (II.9)")
    doc.new_page()
    doc.heading("Hoja de seguimiento de la partida", 14)
    c = doc.canvas
    c.setFont(FONT, 10)
    doc.y -= 18
    c.drawString(doc.margin, doc.y, "Nombre: " + "_" * 48)
    c.drawString(doc.margin + 330, doc.y, f"Partida: {game if game is not None else '____'}   Mesa: ____")
    doc.y -= 16
    _draw_table(doc, _SHEET_COLUMNS, ([str(number), "", "", "", "", "", "", "", ""] for number in range(1, rows + 1)),
                size=13)
    doc.paragraph("Rellene su jugada y su puntuación en cada ronda: es condición para poder reclamar (II.9, III.27).")
    doc.save()


# --- slip pads (II.8) -----------------------------------------------------------------------------------

_SLIP_COLUMNS, _SLIP_ROWS = 2, 5


def write_slip_pads_pdf(results: TournamentResults, game: int, seats: Sequence[tuple[int, str]], path: Path, *,
                        per_pad: int = SLIPS_PER_PAD) -> None:
    """Pre-filled slip pads (II.8) for ``seats`` = ``(table, player name)``: on every slip
    the tournament's name, the game, the table and the player; boxes for round and move
    (canonical notation, III.20.1.a). Ten slips (2 × 5, 105 × 59 mm) per A4 page; a pad of
    ``per_pad`` slips per player, the pads in table order, each starting on a new page."""
    doc = _Document(path, f"{results.name} — papeletas, partida {game}")
    c = doc.canvas
    width, height = A4[0] / _SLIP_COLUMNS, A4[1] / _SLIP_ROWS
    per_page = _SLIP_COLUMNS * _SLIP_ROWS
    for table, name in seats:
        form = f"slip{table}"
        c.beginForm(form, lowerx=0, lowery=0, upperx=width, uppery=height)
        _slip(c, width, height, results.name, game, table, name)
        c.endForm()
        for index in range(per_pad):
            if index % per_page == 0:
                if doc.started:
                    c.showPage()
                doc.started = True
                _cut_marks(c, width, height)
            slot = index % per_page
            column, row = slot % _SLIP_COLUMNS, slot // _SLIP_COLUMNS
            c.saveState()
            c.translate(column * width, A4[1] - (row + 1) * height)
            c.doForm(form)
            c.restoreState()
    doc.save()


def _cut_marks(c: Canvas, width: float, height: float) -> None:
    c.saveState()
    c.setDash(2, 3)
    c.setStrokeColor(colors.grey)
    c.setLineWidth(0.3)
    for column in range(1, _SLIP_COLUMNS):
        c.line(column * width, 0, column * width, A4[1])
    for row in range(1, _SLIP_ROWS):
        c.line(0, row * height, A4[0], row * height)
    c.restoreState()


def _slip(c: Canvas, width: float, height: float, tournament: str, game: int, table: int, name: str) -> None:
    pad = 6 * mm
    inner = width - 2 * pad
    c.setFont(FONT_BOLD, 9)
    c.drawCentredString(width / 2, height - pad - 4, _fit(tournament, FONT_BOLD, 9, inner))
    labels: Sequence[tuple[str, float, str]] = (("PARTIDA", 0.2, str(game)), ("MESA", 0.2, str(table)),
                                                ("NOMBRE", 0.6, name))
    _boxes(c, pad, height - pad - 36, inner, 26, labels, value_size=10)
    _boxes(c, pad, pad + 2, inner, 50, (("RONDA", 0.2, ""), ("JUGADA (notación canónica)", 0.8, "")), value_size=10)


def _boxes(c: Canvas, x: float, y: float, width: float, height: float,
           labels: Sequence[tuple[str, float, str]], *, value_size: float) -> None:
    left = x
    c.setLineWidth(0.6)
    for label, share, value in labels:
        box = width * share
        c.rect(left, y, box, height, stroke=1, fill=0)
        c.setFont(FONT, 5.5)
        c.drawString(left + 2, y + height - 7, label)
        if value:
            c.setFont(FONT_BOLD, value_size)
            c.drawString(left + 4, y + 5, _fit(value, FONT_BOLD, value_size, box - 8))
        left += box

