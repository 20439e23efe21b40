"""Publishing results (issue 6): HTML site, PDF, CSV, XLSX, slip pads, partial standings.

Two tournaments: a small one (8 players, 2 games of 4 rounds, a few seconds) for the
command, the errors and the provisional marking; and the simulated 60-player, 3-game
tournament of the issue (``simulate_tournament``, full-bag games; about 30 s to
simulate and 5 s to publish — hence ``slow``), whose every figure in the HTML, CSV and
XLSX is checked against the standings service. The browser test needs Debian's
``chromium`` and the PDF tests ``pdftotext`` (``poppler-utils``); they skip, saying so,
when the binaries are absent (``apt-get install -y chromium poppler-utils``).
"""

from __future__ import annotations

import csv
import itertools
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner

from duplicate.labels import spanish_number
from duplicate.publishing.site import Publication, publish_results
from duplicate.rules.slips import SlipStatus
from duplicate.service.errors import NotFound
from duplicate.service.facade import TournamentService
from duplicate.service.settings import TournamentSettings
from duplicate.simulate import simulate_tournament
from duplicate.storage.database import open_database
from lexicon.lexicon import Lexicon
from ranking.service import tournament_service
from tests.credentials import JUDGE_PIN
from tui.cli.publish_command import publish

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
PDFTOTEXT = shutil.which("pdftotext")
needs_chromium = pytest.mark.skipif(CHROMIUM is None, reason="Debian chromium no está instalado "
                                    "(apt-get install -y chromium): no se puede abrir el HTML en un navegador")
needs_pdftotext = pytest.mark.skipif(PDFTOTEXT is None, reason="pdftotext no está instalado "
                                     "(apt-get install -y poppler-utils): no se puede leer el PDF")
SETTINGS = TournamentSettings(bonus_mode="automatic", criterion="average_place", partial_every=3,
                              corrections_after_final=True)               # IV.32: reopening admitted


# --- helpers ---------------------------------------------------------------------------------------


class Rows(HTMLParser):
    """Rows of the tables of a page: per ``<tr>``, its attributes and its cells as
    ``(classes, text)``; ``tables`` keeps the attributes of each ``<table>`` and its rows."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[tuple[dict[str, str | None], list[tuple[dict[str, str | None], list[tuple[str, str]]]]]] = []
        self._cell: list[str] | None = None
        self._classes = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            self.tables.append((dict(attrs), []))
        elif tag == "tr" and self.tables:
            self.tables[-1][1].append((dict(attrs), []))
        elif tag in ("td", "th") and self.tables and self.tables[-1][1]:
            self._cell, self._classes = [], dict(attrs).get("class") or ""

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None:
            self.tables[-1][1][-1][1].append((self._classes, "".join(self._cell).strip()))
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def tables_of(path: Path) -> Rows:
    parser = Rows()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


def entry_rows(path: Path, table_class: str) -> dict[int, list[tuple[str, str]]]:
    """Cells of the rows with ``data-entry`` of the first table whose class has ``table_class``."""
    for attrs, rows in tables_of(path).tables:
        if table_class in (attrs.get("class") or "").split():
            return {int(row_attrs["data-entry"] or 0): cells for row_attrs, cells in rows if "data-entry" in row_attrs}
    raise AssertionError(f"{path.name}: no table of class {table_class}")


def cell(cells: list[tuple[str, str]], css: str) -> str:
    return next(text for classes, text in cells if css in classes.split())


def read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8-sig", newline="") as handle:
        return list(csv.DictReader(handle))


def pdf_text(path: Path) -> str:
    assert PDFTOTEXT is not None
    return subprocess.run([PDFTOTEXT, "-layout", "-enc", "UTF-8", str(path), "-"], check=True, capture_output=True,
                          text=True, timeout=120).stdout


def chromium(*arguments: str, profile: Path) -> subprocess.CompletedProcess[str]:
    assert CHROMIUM is not None
    return subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                           "--disable-background-networking", "--disable-component-update", "--disable-sync",
                           f"--user-data-dir={profile}", *arguments], capture_output=True, text=True, timeout=180,
                          check=False)


# --- fixtures ----------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory, spanish_lexicon: Lexicon) -> tuple[TournamentService, int, Path]:
    """8 players, 2 games of 4 rounds (published final), and its database file."""
    path = tmp_path_factory.mktemp("small") / "t.db"
    service = TournamentService(open_database(str(path)), station="pruebas", lexicon=spanish_lexicon, pin=JUDGE_PIN)
    tournament = simulate_tournament(service, players=8, games=2, seed=33, rounds=4, settings=SETTINGS,
                                     name="Torneo de Añón & <Peñíscola>")
    return service, tournament, path


@pytest.fixture(scope="module")
def large(tmp_path_factory: pytest.TempPathFactory,
          spanish_lexicon: Lexicon) -> tuple[TournamentService, int, Publication]:
    """The issue's tournament: 60 players, 3 full-bag games, published into a folder."""
    folder = tmp_path_factory.mktemp("large")
    service = TournamentService(open_database(str(folder / "t.db")), station="pruebas", lexicon=spanish_lexicon, pin=JUDGE_PIN)
    tournament = simulate_tournament(service, players=60, games=3, seed=2026, settings=SETTINGS,
                                     name="III Open Duplicado de La Coruña")
    publication = publish_results(service, folder / "web", tournament_id=tournament, workers=2)
    return service, tournament, publication


# --- the small tournament: command, errors, status ---------------------------------------------------------


def test_the_command_writes_every_format(small: tuple[TournamentService, int, Path], tmp_path: Path) -> None:
    _service, _tournament, database = small
    result = CliRunner().invoke(publish, ["--db", str(database), "--out", str(tmp_path / "web")])
    assert result.exit_code == 0, result.output
    assert "Publicado en" in result.output
    for name in ("index.html", "partida-1.html", "partida-2.html", "partida-1-parciales.html", "estilo.css",
                 "pdf/partida-1.pdf", "pdf/clasificacion-general.pdf", "pdf/hojas-seguimiento-partida-2.pdf",
                 "pdf/papeletas-partida-1.pdf", "pdf/hoja-seguimiento-en-blanco.pdf", "datos/partida-1.csv",
                 "datos/clasificacion-general.csv", "datos/resultados.xlsx"):
        assert (tmp_path / "web" / name).is_file(), name
    assert len(list((tmp_path / "web" / "jugadores").glob("jugador-*.html"))) == 8


def test_one_game_and_chosen_formats(small: tuple[TournamentService, int, Path], tmp_path: Path) -> None:
    service, tournament, _ = small
    publication = publish_results(service, tmp_path, game=2, formats=["html", "csv"], tournament_id=tournament,
                                  workers=1)
    names = {path.as_posix() for path in publication.files}
    assert "partida-2.html" in names and "partida-1.html" not in names
    assert "datos/partida-2.csv" in names and "datos/partida-1.csv" not in names
    assert publication.count(".pdf") == 0 and publication.count(".xlsx") == 0
    assert not (tmp_path / "pdf").exists()


def test_unknown_game_and_format_are_refused(small: tuple[TournamentService, int, Path], tmp_path: Path) -> None:
    service, tournament, database = small
    with pytest.raises(NotFound) as refused:
        publish_results(service, tmp_path, game=9, tournament_id=tournament)
    assert (refused.value.what, refused.value.key) == ("partida", 9)
    with pytest.raises(ValueError, match="formato desconocido: docx"):
        publish_results(service, tmp_path, formats=["html", "docx"], tournament_id=tournament)
    result = CliRunner().invoke(publish, ["--db", str(database), "--out", str(tmp_path), "--formats", "html,odt"])
    assert result.exit_code != 0 and "formato desconocido: odt" in result.output


def test_names_are_escaped_and_accents_kept(small: tuple[TournamentService, int, Path], tmp_path: Path) -> None:
    service, tournament, _ = small
    publish_results(service, tmp_path, formats=["html"], tournament_id=tournament, workers=1)
    page = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert "Torneo de Añón &amp; &lt;Peñíscola&gt;" in page
    assert "<Peñíscola>" not in page


def test_provisional_results_are_marked_on_every_format(small: tuple[TournamentService, int, Path],
                                                        tmp_path: Path) -> None:
    service, tournament, _ = small
    service.reopen(2, reason="reclamación de la mesa 3", tournament_id=tournament)
    try:
        publish_results(service, tmp_path, tournament_id=tournament, workers=1)
    finally:
        service.publish(2, final=True, tournament_id=tournament)
    assert "Resultados provisionales" in (tmp_path / "partida-2.html").read_text(encoding="utf-8")
    assert "Resultados definitivos" in (tmp_path / "partida-1.html").read_text(encoding="utf-8")
    assert "Clasificación general provisional" in (tmp_path / "index.html").read_text(encoding="utf-8")
    assert {row["estado"] for row in read_csv(tmp_path / "datos" / "partida-2.csv")} == {"provisional"}
    if PDFTOTEXT is not None:
        assert "RESULTADOS PROVISIONALES" in pdf_text(tmp_path / "pdf" / "partida-2.pdf")
        assert "RESULTADOS DEFINITIVOS" in pdf_text(tmp_path / "pdf" / "partida-1.pdf")
    # IV.32: final again, the pages say the results were reopened, by whom and why.
    publish_results(service, tmp_path / "despues", formats=["html", "pdf"], tournament_id=tournament, workers=1)
    page = (tmp_path / "despues" / "partida-2.html").read_text(encoding="utf-8")
    assert "Resultados definitivos reabiertos (IV.32)" in page and "reclamación de la mesa 3" in page
    assert "reabiertos" not in (tmp_path / "despues" / "partida-1.html").read_text(encoding="utf-8")
    if PDFTOTEXT is not None:
        assert "reclamación de la mesa 3" in pdf_text(tmp_path / "despues" / "pdf" / "partida-2.pdf")


def test_a_bonus_is_highlighted_in_the_standings_and_the_sheet(small: tuple[TournamentService, int, Path],
                                                              tmp_path: Path) -> None:
    service, tournament, _ = small
    awarded = [(result.number, entry, points) for result in service.round_results(1, tournament)
               for entry, points in result.bonuses.items() if points]
    assert awarded, "seed 33 gives a bonus in game 1 (III.24)"
    publish_results(service, tmp_path, formats=["html", "pdf"], tournament_id=tournament, workers=1)
    rows = entry_rows(tmp_path / "partida-1.html", "partida")
    for number, entry, points in awarded:
        classes, text = [item for item in rows[entry] if "r" in item[0].split()][number - 1]
        assert "bono" in classes.split() and text.endswith(f"+{points}")
        sheet = (tmp_path / "jugadores" / f"jugador-{entry}.html").read_text(encoding="utf-8")
        assert f"bonificación de {points} puntos (III.24)" in sheet
    if PDFTOTEXT is not None:
        assert re.search(rf"\b\d+\+{awarded[0][2]}\b", pdf_text(tmp_path / "pdf" / "partida-1.pdf"))


def test_a_game_not_played_yet_gets_its_slip_pads(small: tuple[TournamentService, int, Path],
                                                  tmp_path: Path) -> None:
    service, tournament, _ = small
    number = service.create_game(tournament_id=tournament, rounds=4, seed=5)
    publication = publish_results(service, tmp_path, game=number, formats=["pdf", "html"], tournament_id=tournament,
                                  workers=1)
    names = {path.as_posix() for path in publication.files}
    assert f"pdf/papeletas-partida-{number}.pdf" in names
    assert f"partida-{number}.html" not in names
    if PDFTOTEXT is not None:
        text = pdf_text(tmp_path / "pdf" / f"papeletas-partida-{number}.pdf")
        for _table, _entry, person in service.seats(number, tournament):
            assert text.count(person.name) == 30


# --- the tournament: every figure against the service ---------------------------------------------


@pytest.mark.slow
def test_game_pages_match_the_game_standings(large: tuple[TournamentService, int, Publication]) -> None:
    service, tournament, publication = large
    for game in (1, 2, 3):
        standings = service.game_standings(game, tournament)
        rows = entry_rows(publication.out / f"partida-{game}.html", "partida")
        assert len(rows) == len(standings) == 60
        for line in standings:
            cells = rows[line.player]
            assert cell(cells, "pos") == str(line.position)
            assert cell(cells, "total") == str(line.total)
            assert cell(cells, "pct") == f"{spanish_number(line.percentage)} %"
            rounds = [text for classes, text in cells if "r" in classes.split()]
            assert [int(re.match(r"\d+", text).group()) for text in rounds] == list(line.per_round)  # type: ignore[union-attr]
            bonuses = [int(text.split("+")[1]) if "bono" in classes.split() else 0
                       for classes, text in cells if "r" in classes.split()]
            assert bonuses == list(line.bonuses_per_round)


@pytest.mark.slow
def test_bonuses_are_highlighted_and_every_zero_has_its_reason(
        large: tuple[TournamentService, int, Publication]) -> None:
    service, tournament, publication = large
    # The simulator's 60 players rarely leave a round's top to one player: bonuses may be 0 here
    # (the small tournament's test checks a real one).
    awarded = sum(1 for game in (1, 2, 3) for line in service.game_standings(game, tournament)
                  for points in line.bonuses_per_round if points)
    highlighted = 0
    for game in (1, 2, 3):
        page = publication.out / f"partida-{game}.html"
        highlighted += sum(1 for cells in entry_rows(page, "partida").values()
                           for classes, _ in cells if "bono" in classes.split())
        zeros = [slip for slip in service.slips(game, tournament_id=tournament) if slip.status != SlipStatus.VALID]
        listed = next(rows for attrs, rows in tables_of(page).tables if attrs.get("class") == "penalizaciones")
        assert len(listed) - 1 == len(zeros) > 0  # minus the heading row
        reasons = {cells[4][1] for _, cells in listed[1:]}
        assert all(reasons) and {slip.reason for slip in zeros if slip.reason} <= reasons
    assert highlighted == awarded


@pytest.mark.slow
def test_partial_standings_every_three_rounds(large: tuple[TournamentService, int, Publication]) -> None:
    service, tournament, publication = large
    standings = {line.player: line for line in service.game_standings(1, tournament)}
    played = len(service.rounds(1, tournament))
    tables = [(attrs, rows) for attrs, rows in tables_of(publication.out / "partida-1-parciales.html").tables]
    assert [int(attrs["data-after"] or 0) for attrs, _ in tables] == list(range(3, played, 3))
    for attrs, rows in tables:
        after = int(attrs["data-after"] or 0)
        for row_attrs, cells in rows[1:]:
            line = standings[int(row_attrs["data-entry"] or 0)]
            assert cell(cells, "total") == str(sum(line.per_round[:after]) + sum(line.bonuses_per_round[:after]))


@pytest.mark.slow
def test_overall_standings_match_the_service(large: tuple[TournamentService, int, Publication]) -> None:
    service, tournament, publication = large
    overall = service.tournament_standings(tournament)
    rows = entry_rows(publication.out / "index.html", "general")
    csv_rows = {row["jugador"]: row for row in read_csv(publication.out / "datos" / "clasificacion-general.csv")}
    names = {entry.id: person.name for entry, person in service.entries(tournament)}
    assert len(rows) == len(csv_rows) == len(overall) == 60
    for line in overall:
        cells = rows[line.player]
        assert cell(cells, "pos") == str(line.position)
        assert cell(cells, "total") == str(line.total)
        assert cell(cells, "valor") == spanish_number(line.value)  # criterion 1: average of places (IV.31)
        row = csv_rows[names[line.player]]
        assert int(row["posicion"]) == line.position and int(row["total"]) == line.total
        assert float(row["valor_average_place"]) == pytest.approx(line.value, abs=1e-4)
        assert [int(row[f"puesto_partida_{game}"]) for game in (1, 2, 3)] == list(line.places)


@pytest.mark.slow
def test_game_csv_matches_the_service(large: tuple[TournamentService, int, Publication]) -> None:
    service, tournament, publication = large
    names = {entry.id: person.name for entry, person in service.entries(tournament)}
    for game in (1, 2, 3):
        rows = {row["jugador"]: row for row in read_csv(publication.out / "datos" / f"partida-{game}.csv")}
        for line in service.game_standings(game, tournament):
            row = rows[names[line.player]]
            assert int(row["posicion"]) == line.position and int(row["total"]) == line.total
            assert float(row["porcentaje_maestra"]) == pytest.approx(line.percentage, abs=0.005)
            assert [int(row[f"ronda_{n}"]) for n in range(1, len(line.per_round) + 1)] == list(line.per_round)
        masters = read_csv(publication.out / "datos" / f"partida-{game}-maestras.csv")
        assert [(row["jugada_maestra"], int(row["puntos"])) for row in masters] == [
            (view.master, view.master_score) for view in service.rounds(game, tournament)]


@pytest.mark.slow
def test_follow_up_sheets_on_the_player_pages(large: tuple[TournamentService, int, Publication]) -> None:
    service, tournament, publication = large
    line = service.game_standings(2, tournament)[7]
    rounds = service.rounds(2, tournament)
    page = publication.out / "jugadores" / f"jugador-{line.player}.html"
    sheet = next(rows for attrs, rows in tables_of(page).tables if attrs.get("data-game") == "2")[2:]
    assert len(sheet) == len(rounds)
    assert [int(cells[3][1].split("+")[0]) for _, cells in sheet] == list(line.per_round)
    assert int(sheet[-1][1][4][1]) == line.round_total
    assert [(f"{cells[5][1]}-{cells[6][1]}", int(cells[7][1]), int(cells[8][1])) for _, cells in sheet] == [
        (view.master, view.master_score, view.cumulative) for view in rounds]


@pytest.mark.slow
def test_no_javascript_and_every_link_resolves(large: tuple[TournamentService, int, Publication]) -> None:
    _service, _tournament, publication = large
    pages = [publication.out / path for path in publication.files if path.suffix == ".html"]
    assert len(pages) == 1 + 3 + 3 + 3 + 60     # index, games, partials, replays (issue 27 §3), players
    for page in pages:
        text = page.read_text(encoding="utf-8")
        assert "<script" not in text.lower() and "javascript:" not in text.lower()
        assert not re.search(r"\son[a-z]+=", text), page.name
        for link in filter(None, re.findall(r'(?:href|src)="([^"#]*)', text)):  # "#…": a place in the page
            assert not link.startswith(("/", "http:", "https:")), (page.name, link)
            assert (page.parent / link).resolve().is_file(), (page.name, link)


@pytest.mark.slow
def test_the_workbook_reads_back(large: tuple[TournamentService, int, Publication]) -> None:
    openpyxl = pytest.importorskip("openpyxl")
    service, tournament, publication = large
    workbook = openpyxl.load_workbook(publication.out / "datos" / "resultados.xlsx", read_only=True)
    assert workbook.sheetnames == ["General", "Partida 1", "Partida 1 maestras", "Partida 2", "Partida 2 maestras",
                                   "Partida 3", "Partida 3 maestras"]
    rows = list(workbook["Partida 3"].iter_rows(values_only=True))
    heading, body = rows[0], rows[1:]
    standings = service.game_standings(3, tournament)
    assert len(body) == len(standings)
    for values, line in zip(body, standings, strict=True):
        record = dict(zip(heading, values, strict=True))
        assert (record["posicion"], record["total"]) == (line.position, line.total)
        assert record["porcentaje_maestra"] == pytest.approx(line.percentage, abs=0.005)
    workbook.close()


@pytest.mark.slow
@needs_pdftotext
def test_the_pdfs_read_back_with_pdftotext(large: tuple[TournamentService, int, Publication]) -> None:
    service, tournament, publication = large
    pdf = publication.out / "pdf"
    standings = service.game_standings(1, tournament)
    names = {entry.id: person.name for entry, person in service.entries(tournament)}
    text = pdf_text(pdf / "partida-1.pdf")
    assert "RESULTADOS DEFINITIVOS" in text and "Clasificación de la partida 1" in text
    assert "Tablero final" in text and "Jugadas puntuadas con cero" in text
    for line in standings[:10]:
        assert re.search(rf"\b{line.position}\s+\d+\s+{re.escape(names[line.player])}\s.*\b{line.total}\s+"
                         rf"{re.escape(spanish_number(line.percentage))} %", text), names[line.player]
    assert any(ch in text for ch in "áéíóúñÁÉÍÓÚÑ")
    overall = pdf_text(pdf / "clasificacion-general.pdf")
    assert all(names[line.player] in overall for line in service.tournament_standings(tournament))
    sheets = pdf_text(pdf / "hojas-seguimiento-partida-1.pdf")
    assert sheets.count("\f") >= 60 and "Coord. maestra" in sheets
    slips = pdf_text(pdf / "papeletas-partida-1.pdf")
    for _table, _entry, person in service.seats(1, tournament)[:5]:
        assert slips.count(person.name) == 30
    assert slips.count("RONDA") == slips.count("NOMBRE") == 60 * 30
    assert "Hoja de seguimiento de la partida" in pdf_text(pdf / "hoja-seguimiento-en-blanco.pdf")


@pytest.mark.slow
@needs_chromium
def test_the_site_opens_in_a_headless_browser(large: tuple[TournamentService, int, Publication],
                                              tmp_path: Path) -> None:
    service, tournament, publication = large
    page = publication.out / "partida-1.html"
    result = chromium("--dump-dom", page.as_uri(), profile=tmp_path / "perfil")
    assert result.returncode == 0, result.stderr[-2000:]
    dom = result.stdout
    assert "Clasificación de la partida 1" in dom and "<script" not in dom
    assert len(re.findall(r"<tr data-entry=", dom.split('class="maestras"')[0])) == 60
    assert dom.count('class="tablero"') == 1
    printed = tmp_path / "indice.pdf"
    result = chromium(f"--print-to-pdf={printed}", "--no-pdf-header-footer", (publication.out / "index.html").as_uri(),
                      profile=tmp_path / "perfil")
    assert printed.is_file() and printed.stat().st_size > 1000, result.stderr[-2000:]
    if PDFTOTEXT is not None:
        text = pdf_text(printed)
        assert "III Open Duplicado de La Coruña" in text
        leader = service.tournament_standings(tournament)[0]
        assert {entry.id: person.name for entry, person in service.entries(tournament)}[leader.player] in text


def test_elodi_changes_are_published_once_the_game_is_rated(tmp_path: Path, spanish_lexicon: Lexicon) -> None:
    ratings = pytest.importorskip("ranking.ratings", reason="ranking.ratings (EloDI, section V) is not installed")
    database = open_database(str(tmp_path / "t.db"))
    service = TournamentService(database, station="pruebas", lexicon=spanish_lexicon, pin=JUDGE_PIN)
    tournament = simulate_tournament(service, players=6, games=1, rounds=12, seed=4, settings=SETTINGS)
    # The simulator published without the EloDI hooks: the game is final but not rated.
    service = tournament_service(database, station="pruebas", lexicon=spanish_lexicon, pin=JUDGE_PIN)
    publish_results(service, tmp_path / "antes", formats=["html"], tournament_id=tournament, workers=1)
    assert "Sin valoración EloDI" in (tmp_path / "antes" / "partida-1.html").read_text(encoding="utf-8")

    rating_service = ratings.RatingService(service.context)
    rating_service.update()
    report = rating_service.game_report(rating_service.game_ref(1, tournament))
    publish_results(service, tmp_path / "despues", formats=["html"], tournament_id=tournament, workers=1)
    rows = next(rows for attrs, rows in tables_of(tmp_path / "despues" / "partida-1.html").tables
                if attrs.get("class") == "elodi")[1:]
    assert [(cells[0][1], cells[2][1], cells[3][1]) for _, cells in rows] == [
        (line.name, f"{line.change:+d}", str(line.rating_after)) for line in report]


@needs_pdftotext
def test_no_cell_of_a_pdf_table_overprints_the_next(tmp_path: Path) -> None:
    # Issue 13 §3: a round cell with a bonus («39+10» in a 22-point column) used to run
    # into the next column. pdftotext gives every word's box: on a line, boxes do not overlap.
    from duplicate.publishing.pdf_pages import Column, Document as _Document, draw_table as _draw_table

    doc = _Document(tmp_path / "t.pdf", "prueba", wide=True)
    columns = [Column("Jugador", 80), *[Column(f"R{number}", 22, "right") for number in range(1, 4)]]
    _draw_table(doc, columns, [["Ana", "25", ("39+10", "bonus"), "12"], ["Beto", ("105+25", "bonus"), "0p", "7"]],
                size=7.5)
    doc.save()
    assert PDFTOTEXT is not None
    page = subprocess.run([PDFTOTEXT, "-bbox", str(tmp_path / "t.pdf"), "-"], check=True, capture_output=True,
                          text=True, timeout=120).stdout
    words = [(float(x0), float(y0), float(x1), text) for x0, y0, x1, text in re.findall(
        r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="[\d.]+">([^<]*)</word>', page)]
    assert {"39+10", "105+25"} <= {text for *_, text in words}
    lines: dict[int, list[tuple[float, float, str]]] = {}
    for x0, y0, x1, text in words:
        lines.setdefault(round(y0), []).append((x0, x1, text))
    for boxes in lines.values():
        boxes.sort()
        for (_, right, text), (left, _, following) in itertools.pairwise(boxes):
            assert right <= left + 0.5, f"«{text}» se monta sobre «{following}»"


FORMULAS = ['=HYPERLINK("http://ejemplo.invalid","clic")', "@SUM(A1:A9)", "+34 600 000 000", "-Ana"]


def test_no_typed_text_becomes_a_formula_in_csv_or_xlsx(tmp_path: Path, spanish_lexicon: Lexicon) -> None:
    # Issue 14 §2 (OWASP CSV injection): names, clubs and slips starting with = + - @ are
    # text in every export — a leading ' in CSV, a string cell in XLSX — and numbers stay numbers.
    openpyxl = pytest.importorskip("openpyxl")
    service = TournamentService(open_database(str(tmp_path / "f.db")), station="pruebas", lexicon=spanish_lexicon,
                                pin=JUDGE_PIN)
    service.create_tournament("Fórmulas")
    for index, name in enumerate(FORMULAS):
        service.add_player(name, club="=1+1" if index == 0 else "Club")
    service.create_game(rounds=1, seed=5)
    service.set_rack(1, "CASAMOS")
    master = service.choose_master(1).master
    assert master is not None
    service.enter_slip(1, 1, master)
    service.enter_slip(1, 2, "=2+2")                              # unreadable, stored as typed
    service.close_round(1, 1)
    service.publish(1, final=True)
    publication = publish_results(service, tmp_path / "web", formats=["csv", "xlsx"], workers=1)
    overall = (publication.out / "datos" / "clasificacion-general.csv").read_text(encoding="utf-8-sig")
    slips = (publication.out / "datos" / "partida-1-jugadas.csv").read_text(encoding="utf-8-sig")
    rows = list(csv.reader(overall.splitlines()))
    cells = [value for row in rows[1:] for value in row]
    for name in FORMULAS:
        assert "'" + name in cells and name not in cells
    assert "'=1+1" in cells
    assert "'=2+2" in slips and ",=2+2" not in slips
    assert all(row[0].isdigit() for row in rows[1:])                 # positions still plain numbers
    workbook = openpyxl.load_workbook(publication.out / "datos" / "resultados.xlsx")
    sheet = workbook["General"]
    values = [cell for row in sheet.iter_rows(min_row=2) for cell in row]
    texts = {cell.value for cell in values if cell.data_type == "s"}
    assert set(FORMULAS) <= texts and "=1+1" in texts
    assert not [cell.coordinate for cell in values if cell.data_type == "f"]
    assert all(isinstance(row[0].value, int) for row in sheet.iter_rows(min_row=2))


HIDDEN = {"name": ("Ana\x1b[2J\x07", "AnaU+001B[2JU+0007"), "club": ("C\u202eX\x00\ufffe", "CU+202EXU+0000U+FFFE")}
"""Stored text another program wrote past the service's checks (issue 36 §5): as stored, as published."""


def test_stored_control_characters_are_published_visible(tmp_path: Path, spanish_lexicon: Lexicon) -> None:
    # Issue 36 §5: an ESC in a name stopped «publish» (openpyxl IllegalCharacterError) with no
    # workbook; NUL, U+202E and U+FFFE reached the HTML, CSV and PDF raw. Every format shows them
    # as U+XXXX (duplicate.texts.visible), as the terminal listings do.
    import sqlite3

    openpyxl = pytest.importorskip("openpyxl")
    path = tmp_path / "t.db"
    service = TournamentService(open_database(str(path)), station="pruebas", lexicon=spanish_lexicon, pin=JUDGE_PIN)
    service.create_tournament("Controles")
    service.add_player("Ana", club="Club")
    service.add_player("Blas")
    service.create_game(rounds=1, seed=5)
    service.set_rack(1, "CASAMOS")
    master = service.choose_master(1).master
    assert master is not None
    service.enter_slip(1, 1, master)
    service.close_round(1, 1)
    service.publish(1, final=True)
    with sqlite3.connect(path) as connection:                     # another program, past the checks
        connection.execute("UPDATE players SET name = ?, club = ? WHERE name = 'Ana'",
                           (HIDDEN["name"][0], HIDDEN["club"][0]))
    connection.close()
    out = tmp_path / "web"
    result = CliRunner().invoke(publish, ["--db", str(path), "--out", str(out)])
    assert result.exit_code == 0 and result.exception is None, (result.output, result.exception)
    assert "Traceback" not in result.output
    workbook = openpyxl.load_workbook(out / "datos" / "resultados.xlsx")
    names = {row[1].value: row[2].value for row in workbook["General"].iter_rows(min_row=2)}
    assert names[HIDDEN["name"][1]] == HIDDEN["club"][1]
    texts = {file: file.read_text(encoding="utf-8-sig") for file in
             [out / "index.html", out / "partida-1.html", out / "jugadores" / "jugador-1.html",
              *sorted((out / "datos").glob("*.csv"))]}
    for file, text in texts.items():
        assert not any(char in text for char in "\x1b\x07\x00\u202e\ufffe"), file.name
    for name in ("index.html", "partida-1.html", "datos/clasificacion-general.csv", "datos/partida-1.csv"):
        assert HIDDEN["name"][1] in texts[out / name], name
    if PDFTOTEXT is not None:
        assert HIDDEN["name"][1] in pdf_text(out / "pdf" / "clasificacion-general.pdf")
