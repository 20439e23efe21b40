"""The players' printed sheets (PDF, portrait A4, Spanish): ``write_follow_up_sheets_pdf``
(one filled follow-up sheet per player, II.9), ``write_blank_follow_up_pdf`` (a blank one
to photocopy, II.9) and ``write_slip_pads_pdf`` (pre-filled slips, II.8: tournament,
game, table and player's name on every slip, ``SLIPS_PER_PAD`` (30) per player, ten to a
page so that a pad is three pages cut along the dashed lines; room for round and move in
canonical notation, III.20.1.a). Drawn with ``duplicate.publishing.pdf_pages``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from duplicate.publishing.pdf_noticeboard import status_banner
from duplicate.publishing.pdf_pages import FONT, FONT_BOLD, Column, Document, draw_table, fit_text
from duplicate.labels import spanish_number
from duplicate.publishing.result_values import GameResults, TournamentResults

__all__ = ["SLIPS_PER_PAD", "write_blank_follow_up_pdf", "write_follow_up_sheets_pdf", "write_slip_pads_pdf"]

SLIPS_PER_PAD = 30
"""II.8: «Se recomienda entregar 30 papeletas en cada taco»."""

_SHEET_COLUMNS = (Column("Ronda", 30, "right"), Column("Coordenada", 50), Column("Palabra", 88),
                  Column("Puntos", 38, "right"), Column("Acumulado", 50, "right"), Column("Coord. maestra", 66),
                  Column("Palabra maestra", 88), Column("Puntos", 40, "right"), Column("Acumulado", 50, "right"))


def write_follow_up_sheets_pdf(results: TournamentResults, game: GameResults, path: Path) -> None:
    """One filled follow-up sheet (II.9) per seated player, by table: round, coordinate,
    word, points, cumulative; the master's coordinate, word, points, cumulative."""
    doc = Document(path, f"{results.name} — hojas de seguimiento, partida {game.number}",
                    header=f"{results.name} · Partida {game.number} · Hoja de seguimiento (II.9)",
                    banner=status_banner(game), final=game.final)
    for line in sorted(game.standings, key=lambda line: line.table):
        doc.new_page()
        doc.heading(f"{line.player.name} — mesa {line.table}", 13)
        s = line.standing
        doc.paragraph(f"Partida {game.number}: {s.total} puntos (bonificaciones {s.bonus_total}), puesto "
                      f"{s.position}, {spanish_number(s.percentage)} % de la maestra.")
        sheet = game.sheets.get(line.player.entry_id, ())
        draw_table(doc, _SHEET_COLUMNS,
                    ([str(item.number), item.coordinate, item.word,
                      (f"{item.points}+{item.bonus}", "bonus") if item.bonus
                      else (f"{item.points}p", "penalty") if item.status != "valid" else str(item.points),
                      str(item.cumulative), item.master_coordinate, item.master_word, str(item.master_score),
                      str(item.master_cumulative)] for item in sheet), size=7.5, shared=(0, 5, 6, 7, 8))
    doc.save()


def write_blank_follow_up_pdf(results: TournamentResults, path: Path, *, game: int | None = None,
                              rows: int = 25) -> None:
    """A blank follow-up sheet (II.9) with ``rows`` round lines; the game number filled
    when given, the player's name left blank."""
    doc = Document(path, f"{results.name} — hoja de seguimiento", header=f"{results.name} · Hoja de seguimiento (II.9)")
    doc.new_page()
    doc.heading("Hoja de seguimiento de la partida", 14)
    c = doc.canvas
    c.setFont(FONT, 10)
    doc.y -= 18
    c.drawString(doc.margin, doc.y, "Nombre: " + "_" * 48)
    c.drawString(doc.margin + 330, doc.y, f"Partida: {game if game is not None else '____'}   Mesa: ____")
    doc.y -= 16
    draw_table(doc, _SHEET_COLUMNS, ([str(number), "", "", "", "", "", "", "", ""] for number in range(1, rows + 1)),
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
    doc = Document(path, f"{results.name} — papeletas, partida {game}")
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
    c.drawCentredString(width / 2, height - pad - 4, fit_text(tournament, FONT_BOLD, 9, inner))
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
            c.drawString(left + 4, y + 5, fit_text(value, FONT_BOLD, value_size, box - 8))
        left += box

