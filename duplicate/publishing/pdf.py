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

The code lives in three modules, re-exported here: ``duplicate.publishing.pdf_pages`` (fonts,
colours, the page and the table), ``duplicate.publishing.pdf_noticeboard`` (the game's and the
tournament's standings) and ``duplicate.publishing.pdf_sheets`` (follow-up sheets and slip
pads).
"""

from __future__ import annotations

from duplicate.publishing.pdf_noticeboard import write_game_pdf, write_overall_pdf
from duplicate.publishing.pdf_pages import FONT, FONT_BOLD, Cell, Column, Document, draw_table, font_files
from duplicate.publishing.pdf_sheets import (
    SLIPS_PER_PAD,
    write_blank_follow_up_pdf,
    write_follow_up_sheets_pdf,
    write_slip_pads_pdf,
)

__all__ = [
    "FONT",
    "FONT_BOLD",
    "SLIPS_PER_PAD",
    "Cell",
    "Column",
    "Document",
    "draw_table",
    "font_files",
    "write_blank_follow_up_pdf",
    "write_follow_up_sheets_pdf",
    "write_game_pdf",
    "write_overall_pdf",
    "write_slip_pads_pdf",
]
