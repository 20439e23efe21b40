"""Publishing a classic division: HTML pages, PDF for the noticeboard, CSV, and the TRF.

``publish_classic(snapshot, out)`` writes into the folder ``out``:

=============================  ===============================================================
file                           what
=============================  ===============================================================
``index.html``                 standings: wins, losses, spread, points for and against,
                               first/second balance, tie-breaks; links to everything
``ronda-N.html``               round N's pairings by table, with both scores
``cruces.html``                the cross-table: per round the opponent, first or second, result
``jugadores/jugador-N.html``   a player's scorecard: every round with running wins and spread
``pdf/clasificacion.pdf``      the standings for the noticeboard
``pdf/ronda-N.pdf``            round N's pairings (and results) for the noticeboard
``datos/clasificacion.csv``    standings; ``datos/emparejamientos.csv``: every board of every round
``torneo.trf``                 the event as a FIDE TRF-16 file
``estilo.css``                 the stylesheet of the duplicate publications
=============================  ===============================================================

Libraries as for duplicate publications (``duplicate.publishing.site``): Jinja2 (autoescaped: names
are shown as typed), ReportLab through ``duplicate.publishing.pdf_pages``, the ``csv`` module with
formula-looking texts neutralised.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from datetime import datetime
from fractions import Fraction
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

from duplicate.publishing.pdf_pages import Column, Document, draw_table
from duplicate.publishing.result_values import spanish_date
from duplicate.publishing.site import TEMPLATES as DUPLICATE_TEMPLATES, published_value, refuse_links
from duplicate.publishing.spreadsheets import DataTable, write_csv
from ranking.classic.standings import Seeded
from ranking.classic.views import BoardView, EventSnapshot, system_name

TEMPLATES = Path(__file__).with_name("templates")


def wins_text(value: float | Fraction) -> str:
    """Wins as a Spanish number without needless decimals: ``3``, ``3,5``."""
    return f"{float(value):g}".replace(".", ",")


@dataclass(frozen=True)
class ScorecardRow:
    round: int
    table: str
    opponent: str
    turn: str
    points: str
    against: str
    result: str
    wins: float
    spread: int


def scorecard_rows(snapshot: EventSnapshot, number: int) -> list[ScorecardRow]:
    """Player ``number``'s scorecard: one row per round played, with the running wins and
    spread; a game of a player whose results are annulled (C.06 11) is shown, not counted."""
    settings = snapshot.settings
    rows = []
    wins = 0.0
    spread = 0
    for boards in snapshot.rounds_boards[:snapshot.played]:
        board = next((b for b in boards if number in (b.first, b.second)), None)
        round_number = boards[0].round if boards else 0
        if board is None:
            asked = snapshot.absences.get((number, round_number))
            wins += 0.5 if asked == "H" else 0
            rows.append(ScorecardRow(round_number, "", "", "", "", "", "descanso pedido (½)" if asked == "H" else
                                     "descanso pedido" if asked == "Z" else "no jugó", wins, spread))
            continue
        if board.second == 0:
            wins += 1
            spread += settings.bye_spread
            rows.append(ScorecardRow(board.round, "", "", "", "", "", "descanso", wins, spread))
            continue
        first = board.first == number
        opponent = f"{board.second}. {board.second_name}" if first else f"{board.first}. {board.first_name}"
        turn = "empieza" if first else "segundo"
        if {board.first, board.second} & snapshot.annulled:       # kept in the record, not counted (C.06 11)
            rows.append(ScorecardRow(board.round, "—" if board.table is None else str(board.table), opponent, turn,
                                     "", "", "anulada (retirado antes del 50 %)", wins, spread))
            continue
        if board.forfeit is not None:
            lost = board.forfeit in ("both", "first" if first else "second")
            wins += 0 if lost else 1
            spread += -settings.forfeit_spread if lost else settings.forfeit_spread
            table = "—" if board.table is None else str(board.table)          # a game not played: no table
            rows.append(ScorecardRow(board.round, table, opponent, turn, "", "",
                                     "incomparecencia" + (" (perdida)" if lost else " (ganada)"), wins, spread))
            continue
        mine, theirs = (board.first_score, board.second_score) if first else (board.second_score, board.first_score)
        assert mine is not None and theirs is not None
        wins += 1 if mine > theirs else 0.5 if mine == theirs else 0
        spread += mine - theirs
        result = "ganada" if mine > theirs else "empate" if mine == theirs else "perdida"
        rows.append(ScorecardRow(board.round, str(board.table), opponent, turn, str(mine), str(theirs), result,
                                 wins, spread))
    return rows


def _cross_cell(board: BoardView | None, number: int, asked: str | None) -> str:
    if board is None:
        return {"H": "½", "Z": "0"}.get(asked or "", "—")
    if board.second == 0:
        return "D"
    first = board.first == number
    opponent = board.second if first else board.first
    turn = "e" if first else "s"
    if board.forfeit is not None:
        lost = board.forfeit in ("both", "first" if first else "second")
        return f"{opponent}{turn} {'−' if lost else '+'}"
    mine, theirs = (board.first_score, board.second_score) if first else (board.second_score, board.first_score)
    if mine is None or theirs is None:
        return f"{opponent}{turn}"
    mark = "G" if mine > theirs else "E" if mine == theirs else "P"
    return f"{opponent}{turn} {mark} {mine - theirs:+d}"


def not_playing(snapshot: EventSnapshot, boards: tuple[BoardView, ...]) -> list[str]:
    """The players on no board of a round, with why: a bye asked for, withdrawn."""
    if not boards:
        return []
    number = boards[0].round
    seated = {n for b in boards for n in (b.first, b.second) if n}
    lines = []
    for player in snapshot.players:
        if player.number in seated or player.first_round > number:
            continue
        asked = snapshot.absences.get((player.number, number))
        why = ("descanso pedido (½)" if asked == "H" else "descanso pedido" if asked == "Z" else
               "retirado" if player.withdrawn_round is not None and player.withdrawn_round <= number else "no juega")
        lines.append(f"{player.number}. {player.name}: {why}")
    return lines


def classic_environment() -> Environment:
    """The Jinja2 environment of the classic templates (autoescaped: names are text;
    ``published_value`` on every value shown; filters ``num``: wins with a decimal comma,
    ``fecha``: Spanish date). Shared by ``publish_classic`` and the live pages
    (``ranking.classic.live_pages``)."""
    environment = Environment(loader=FileSystemLoader(str(TEMPLATES)), autoescape=select_autoescape(["html"]),
                              undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                              finalize=published_value)
    environment.filters["num"] = wins_text
    environment.filters["fecha"] = spanish_date
    return environment


def event_values(snapshot: EventSnapshot, *, generated_at: datetime, live: bool = False,
                 site_root: str = "") -> dict[str, Any]:
    """What every classic template reads as ``e``: the division's name, system, paired
    round numbers, rounds played (every result in), standings after them, clubs, the
    cross-table of the rounds played, ``generated_at``; ``live``: a page of ``duplicada
    live`` (the live script, no PDF/CSV/TRF links, a board in conflict shown as to be
    checked) whose division folder is ``site_root`` below the live site's root (``""``
    when published on its own)."""
    clubs = {player.number: player.club for player in snapshot.players}
    crosstable = {}
    for player in snapshot.players:
        cells = []
        for round_number, boards in enumerate(snapshot.rounds_boards[:snapshot.played], start=1):
            cells.append(_cross_cell(next((b for b in boards if player.number in (b.first, b.second)), None),
                                     player.number, snapshot.absences.get((player.number, round_number))))
        crosstable[player.number] = cells
    return {
        "name": snapshot.name, "division": snapshot.division, "system": system_name(snapshot.system),
        "round_numbers": list(range(1, len(snapshot.rounds_boards) + 1)), "played": snapshot.played,
        "finished": snapshot.played == snapshot.rounds, "tie_breaks": list(snapshot.settings.tie_breaks),
        "standings": snapshot.standings, "clubs": clubs, "crosstable": crosstable,
        "generated_at": generated_at, "live": live, "site_root": site_root,
    }


def player_card(snapshot: EventSnapshot, player: Seeded) -> dict[str, Any]:
    """What ``jugador.html`` reads as ``card``: the player's place, wins and spread after
    the rounds played and the scorecard's rows (``scorecard_rows``)."""
    line = next((line for line in snapshot.standings if line.number == player.number), None)
    return {"number": player.number, "name": player.name, "place": line.place if line else "",
            "wins": line.wins if line else 0, "spread": line.spread if line else 0,
            "rows": scorecard_rows(snapshot, player.number)}


def publish_classic(snapshot: EventSnapshot, out: Path, *, generated_at: datetime | None = None) -> list[Path]:
    """Write the division's publication into ``out`` (see the module docstring); returns the
    files written. Raises ``OSError`` when the folder cannot be written."""
    refuse_links(out)                   # never writes through a planted link (issue 26 §3)
    out.mkdir(parents=True, exist_ok=True)
    for folder in ("jugadores", "pdf", "datos"):
        (out / folder).mkdir(exist_ok=True)
    environment = classic_environment()
    event = event_values(snapshot, generated_at=generated_at or datetime.now())
    written: list[Path] = []

    def html(name: str, template: str, root: str = "", **context: Any) -> None:
        path = out / name
        path.write_text(environment.get_template(template).render(e=event, root=root, **context), encoding="utf-8")
        written.append(path)

    html("index.html", "index.html")
    html("cruces.html", "cruces.html")
    for boards in snapshot.rounds_boards:
        if boards:
            html(f"ronda-{boards[0].round}.html", "ronda.html", number=boards[0].round, boards=boards,
                 absent=not_playing(snapshot, boards))
    for player in snapshot.players:
        html(f"jugadores/jugador-{player.number}.html", "jugador.html", root="../", card=player_card(snapshot, player))
    shutil.copyfile(DUPLICATE_TEMPLATES / "estilo.css", out / "estilo.css")
    written.append(out / "estilo.css")
    (out / "torneo.trf").write_text(snapshot.trf, encoding="utf-8")
    written.append(out / "torneo.trf")
    written += _pdfs(snapshot, out)
    written += _csvs(snapshot, out)
    return written


def _title(snapshot: EventSnapshot) -> str:
    return f"{snapshot.name}{' — división ' + snapshot.division if snapshot.division else ''}"


def _pdfs(snapshot: EventSnapshot, out: Path) -> list[Path]:
    final = snapshot.played == snapshot.rounds
    banner = "CLASIFICACIÓN FINAL" if final else f"TRAS LA RONDA {snapshot.played}"
    path = out / "pdf" / "clasificacion.pdf"
    doc = Document(path, f"{_title(snapshot)} — clasificación", wide=True, header=_title(snapshot), banner=banner,
                   final=final)
    doc.heading(f"{_title(snapshot)} — Clasificación", 14)
    doc.paragraph(f"Sistema: {system_name(snapshot.system)}. Orden: victorias, diferencia"
                  + (", " + ", ".join(snapshot.settings.tie_breaks) if snapshot.settings.tie_breaks else "") + ".")
    codes = list(snapshot.settings.tie_breaks)
    columns = [Column("Pos.", 28, "right"), Column("N.º", 26, "right"), Column("Jugador", 150), Column("V", 30, "right"),
               Column("Dif.", 40, "right"), Column("A favor", 44, "right"), Column("En contra", 48, "right"),
               Column("1.º/2.º", 40, "right"), *[Column(code, 40, "right") for code in codes]]
    draw_table(doc, columns, ([str(line.place), str(line.number), line.name, (wins_text(line.wins), "bold"),
                               f"{line.spread:+d}", str(line.points_for), str(line.points_against),
                               f"{line.firsts}/{line.games - line.firsts}",
                               *[wins_text(line.tie_breaks.get(code, 0)) for code in codes]]
                              for line in snapshot.standings))
    doc.save()
    written = [path]
    for boards in snapshot.rounds_boards:
        if not boards:
            continue
        number = boards[0].round
        path = out / "pdf" / f"ronda-{number}.pdf"
        doc = Document(path, f"{_title(snapshot)} — ronda {number}", header=_title(snapshot),
                       banner=f"RONDA {number}")
        doc.heading(f"Ronda {number} — emparejamientos", 14)
        rows = []
        for b in boards:
            if b.second == 0:
                rows.append(["—", f"{b.first}. {b.first_name}", "", "", "descansa"])
                continue
            scores = (["incomp.", ""] if b.forfeit else
                      ["" if b.first_score is None else str(b.first_score),
                       "" if b.second_score is None else str(b.second_score)])
            rows.append(["—" if b.table is None else str(b.table), f"{b.first}. {b.first_name}", *scores,
                         f"{b.second}. {b.second_name}"])
        draw_table(doc, [Column("Mesa", 34, "right"), Column("Empieza", 190), Column("Puntos", 44, "right"),
                         Column("Puntos", 44, "right"), Column("Segundo", 190)], rows, size=9)
        absent = not_playing(snapshot, boards)
        if absent:
            doc.paragraph("No juegan esta ronda: " + "; ".join(absent) + ".")
        doc.save()
        written.append(path)
    return written


def _csvs(snapshot: EventSnapshot, out: Path) -> list[Path]:
    codes = list(snapshot.settings.tie_breaks)
    standings = DataTable("clasificacion", "Clasificación",
                          ("puesto", "numero", "jugador", "victorias", "derrotas", "diferencia", "a_favor", "en_contra",
                           "partidas", "empezando", *codes),
                          [(line.place, line.number, line.name, float(line.wins), float(line.losses), line.spread,
                            line.points_for, line.points_against, line.games, line.firsts,
                            *[line.tie_breaks.get(code, 0.0) for code in codes]) for line in snapshot.standings])
    boards = DataTable("emparejamientos", "Emparejamientos",
                       ("ronda", "mesa", "empieza", "jugador_1", "puntos_1", "segundo", "jugador_2", "puntos_2",
                        "incomparecencia"),
                       [(b.round, b.table, b.first, b.first_name, b.first_score, b.second or None,
                         b.second_name or None, b.second_score, b.forfeit)
                        for round_boards in snapshot.rounds_boards for b in round_boards])
    written = []
    for table in (standings, boards):
        path = out / "datos" / f"{table.name}.csv"
        write_csv(table, path)
        written.append(path)
    return written
