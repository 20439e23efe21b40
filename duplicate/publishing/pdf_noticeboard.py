"""The noticeboard documents (PDF, landscape A4, Spanish): ``write_game_pdf`` — a game's
results (III.26, IV.32): status (provisional / final) on every page, the standings with
per-round points, bonuses highlighted (III.24) and penalised rounds marked (III.25), the
percentage of the master; the partial standings; the game record (racks, master moves,
scores, cumulative); penalties with their reasons; the final board; the EloDI changes
when available — and ``write_overall_pdf``, the tournament standings by its criterion
(IV.31, IV.32). Drawn with ``duplicate.publishing.pdf_pages``.
"""

from __future__ import annotations

from pathlib import Path

from reportlab.lib import colors

from duplicate.plurals import counted
from duplicate.publishing.pdf_pages import FONT, FONT_BOLD, PREMIUM_FILLS, TILE_FILL, Cell, Column, Document, draw_table
from duplicate.labels import spanish_number
from duplicate.publishing.result_values import GameResults, TournamentResults
from lexicon.board import ROW_NAMES, SIZE

__all__ = ["status_banner", "write_game_pdf", "write_overall_pdf"]


def status_banner(game: GameResults) -> str:
    """The status every page of a game's document shows (III.26: provisional or final)."""
    return "RESULTADOS DEFINITIVOS" if game.final else "RESULTADOS PROVISIONALES"


def _round_cell(points: int, bonus: int, penalised: bool) -> Cell:
    if bonus:
        return (f"{points}+{bonus}", "bonus")
    if penalised:
        return (f"{points}p", "penalty")
    return str(points)


def write_game_pdf(results: TournamentResults, game: GameResults, path: Path) -> None:
    """The noticeboard PDF of one game (III.26, IV.32): see the module doc. Landscape A4."""
    doc = Document(path, f"{results.name} — partida {game.number}", wide=True,
                    header=f"{results.name} · Partida {game.number}", banner=status_banner(game), final=game.final)
    doc.heading(f"{results.name} — Clasificación de la partida {game.number}", 14)
    doc.paragraph(f"{status_banner(game).capitalize()} (III.26). Puntos de la jugada maestra: {game.master_total} en "
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
    draw_table(doc, columns, rows, size=6.5 if len(rounds) > 20 else 7.5)

    for partial in game.partials:
        doc.heading(f"Clasificación parcial tras la ronda {partial.after_round}", 11)
        doc.paragraph(f"Maestra acumulada: {partial.master_cumulative} puntos.")
        draw_table(doc, [Column("Pos.", 30, "right"), Column("Mesa", 30, "right"), Column("Jugador", 200),
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


def _game_record(doc: Document, game: GameResults) -> None:
    doc.heading(f"Desarrollo de la partida {game.number}: atriles y jugadas maestras", 11)
    draw_table(doc, [Column("Ronda", 36, "right"), Column("Atril", 90), Column("Coordenada", 60),
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


def _penalties_and_bonuses(doc: Document, game: GameResults) -> None:
    doc.heading("Bonificaciones (III.24)", 11)
    if game.bonuses:
        draw_table(doc, [Column("Ronda", 40, "right"), Column("Jugador", 220), Column("Bonif.", 50, "right")],
                    ([str(number), player.name, (f"+{points}", "bonus")] for number, player, points in game.bonuses),
                    scale=False)
    else:
        doc.paragraph("No se otorgaron bonificaciones.")
    doc.heading("Jugadas puntuadas con cero y sus motivos (III.23, III.25)", 11)
    if game.penalties:
        draw_table(doc, [Column("Ronda", 36, "right"), Column("Mesa", 32, "right"), Column("Jugador", 140),
                          Column("Papeleta", 90), Column("Motivo", 460, wrap=True)],
                    ([str(p.round_number), str(p.table), p.player.name, p.text, p.reason] for p in game.penalties),
                    size=7)
    else:
        doc.paragraph("Ninguna.")


def _board(doc: Document, game: GameResults) -> None:
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


def _elodi(doc: Document, game: GameResults) -> None:
    doc.heading("Variación EloDI", 11)
    if game.elodi is None:
        doc.paragraph(game.elodi_note)
        return
    draw_table(doc, [Column("Jugador", 200), Column("Antes", 50, "right"), Column("Variación", 60, "right"),
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
    doc = Document(path, f"{results.name} — clasificación general", wide=True, header=results.name,
                    banner=banner, final=not results.provisional)
    doc.heading(f"{results.name} — Clasificación general", 14)
    doc.paragraph(f"Criterio: {results.criterion_label}. Partidas jugadas: {len(results.all_games)}. "
                  "«P1», «P2»…: puesto en cada partida («—»: no la jugó).")
    columns = [Column("Pos.", 28, "right"), Column("Jugador", 140), Column("Club", 90),
               *[Column(f"P{number}", 26, "right") for number in results.all_games],
               Column("Partidas", 40, "right"), Column("Bonif.", 34, "right"), Column("Total", 40, "right"),
               Column("% maestra", 46, "right"),
               *([Column(results.criterion_heading, 70, "right")] if results.shows_value else [])]
    draw_table(doc, columns, ([str(line.standing.position), line.player.name, line.player.club,
                                *["—" if place is None else str(place) for place in line.standing.places],
                                str(line.standing.games_played), str(line.standing.bonus_total or ""),
                                str(line.standing.total), spanish_number(line.standing.percentage) + " %",
                                *([(results.format_value(line.standing.value), "bold")] if results.shows_value
                                  else [])]
                               for line in results.overall))
    doc.save()
