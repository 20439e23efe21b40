"""Publishing a classic division (issue 16): standings, rounds, cross-table and scorecards
in HTML (names shown as typed, never as markup), PDF for the noticeboard, CSV with no
formula, and the TRF of the whole event; the scorecards' running totals are the standings'."""

from __future__ import annotations

import csv
import random
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner

from duplicate.service.facade import TournamentService
from duplicate.storage.database import open_database
from ranking.classic.publish import publish_classic
from ranking.classic.service import ClassicService
from ranking.classic.trf import read_trf
from ranking.classic.views import DivisionSettings
from tests.credentials import JUDGE_PIN
from tui.cli.main import main

NAMES = ["=HYPERLINK(\"x\")", "<script>alert(1)</script>", "[b]Negrita[/b]", "Núñez Peña"] + \
        [f"Jugador {n}" for n in range(5, 10)]


@pytest.fixture
def event(tmp_path: Path) -> tuple[ClassicService, Path]:
    database = open_database(str(tmp_path / "clasico.db"))
    service = TournamentService(database, pin=JUDGE_PIN)
    service.create_tournament("Clásico & <Añón>")
    for name in NAMES:
        service.add_player(name, club="Club =1")
    classic = ClassicService.like(service)
    classic.create_division(rounds=4, system="dutch-2026", settings=DivisionSettings(tie_breaks=("BH",)))
    classic.request_bye(2, 2, "H")
    rng = random.Random(9)
    for _ in range(3):
        for board in classic.pair_round():
            if board.table == 1 and board.round == 2:
                classic.record_forfeit(2, 1, "second", reason="no se presentó")
            elif board.table is not None:
                classic.enter_result(board.round, board.table, rng.randint(300, 500), rng.randint(300, 500))
    return classic, tmp_path / "web"


class Texts(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []
        self.tags: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)

    def handle_data(self, data: str) -> None:
        self.texts.append(data)


def parsed(path: Path) -> Texts:
    parser = Texts()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


def test_every_document_is_written_and_names_are_shown_as_typed(event: tuple[ClassicService, Path]) -> None:
    classic, out = event
    files = {str(path.relative_to(out)) for path in publish_classic(classic.snapshot(), out)}
    assert {"index.html", "cruces.html", "ronda-1.html", "ronda-3.html", "jugadores/jugador-9.html",
            "pdf/clasificacion.pdf", "pdf/ronda-2.pdf", "datos/clasificacion.csv", "datos/emparejamientos.csv",
            "torneo.trf", "estilo.css"} <= files
    index = parsed(out / "index.html")
    assert "script" not in index.tags and any("<script>alert(1)</script>" in t for t in index.texts)
    assert any("[b]Negrita[/b]" in t for t in index.texts)
    rows = list(csv.reader((out / "datos" / "clasificacion.csv").open(encoding="utf-8-sig")))
    assert all(not cell.startswith(("=", "+", "@")) for row in rows for cell in row if not re.fullmatch(r"[-+\d.,]+", cell))
    assert any(cell == "'=HYPERLINK(\"x\")" for row in rows for cell in row)
    assert read_trf((out / "torneo.trf").read_text(encoding="utf-8")).rounds_played == 3


def test_scorecards_add_up_to_the_standings_and_the_cross_table_marks_byes(
        event: tuple[ClassicService, Path]) -> None:
    classic, out = event
    snapshot = classic.snapshot()
    publish_classic(snapshot, out)
    for line in snapshot.standings:
        card = parsed(out / "jugadores" / f"jugador-{line.number}.html").texts
        cells = [t.strip() for t in card if t.strip()]
        running = [c for c in cells if re.fullmatch(r"[+-]\d+", c)]
        assert running[-1] == f"{line.spread:+d}"          # the last running spread is the standings' spread
    cross = " ".join(parsed(out / "cruces.html").texts)
    assert "½" in cross                                    # player 2's half-point bye in round 2


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="pdftotext (poppler-utils) no está instalado")
def test_the_pdfs_hold_the_standings_and_the_pairings(event: tuple[ClassicService, Path]) -> None:
    classic, out = event
    snapshot = classic.snapshot()
    publish_classic(snapshot, out)
    text = subprocess.run(["pdftotext", "-layout", str(out / "pdf" / "clasificacion.pdf"), "-"],
                          capture_output=True, text=True, check=True).stdout
    assert "Núñez Peña" in text and "TRAS LA RONDA 3" in text
    first = snapshot.standings[0]
    assert re.search(rf"\b1\s+{first.number}\s+", text)
    round_2 = subprocess.run(["pdftotext", "-layout", str(out / "pdf" / "ronda-2.pdf"), "-"],
                             capture_output=True, text=True, check=True).stdout
    # The forfeit at table 1; player 2's bye asked for (so 8 play and nobody gets the pairing bye).
    assert "incomp." in round_2 and "descanso pedido (½)" in round_2 and "descansa" not in round_2
    round_1 = subprocess.run(["pdftotext", "-layout", str(out / "pdf" / "ronda-1.pdf"), "-"],
                             capture_output=True, text=True, check=True).stdout
    assert "descansa" in round_1                                   # 9 players: one pairing bye


def test_the_publish_command(event: tuple[ClassicService, Path], tmp_path: Path) -> None:
    classic, out = event
    result = CliRunner().invoke(main, ["classic", "publish", "--db", str(tmp_path / "clasico.db"), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "Publicado en" in result.output and (out / "index.html").exists()


def test_stored_control_characters_are_published_visible(event: tuple[ClassicService, Path], tmp_path: Path) -> None:
    # Issue 36 §5: a name another program stored with ESC, a line break or U+202E reaches no
    # page, CSV, PDF or TRF raw: each shows it as U+XXXX, as the duplicate publication does.
    import sqlite3

    _classic, out = event
    with sqlite3.connect(tmp_path / "clasico.db") as connection:
        connection.execute("UPDATE players SET name = ? WHERE name = 'Jugador 5'", ("Jug\x1b[2J\n\u202e5",))
    connection.close()
    result = CliRunner().invoke(main, ["classic", "publish", "--db", str(tmp_path / "clasico.db"), "--out", str(out)])
    assert result.exit_code == 0 and result.exception is None, result.output
    for path in [*out.rglob("*.html"), *out.rglob("*.csv"), out / "torneo.trf"]:
        text = path.read_text(encoding="utf-8-sig")
        assert "\x1b" not in text and "\u202e" not in text, path.name
    page = (out / "index.html").read_text(encoding="utf-8")
    assert "JugU+001B[2J\nU+202E5" in page                  # a line break is only a space on a page
    assert "JugU+001B[2JU+000AU+202E5" in (out / "torneo.trf").read_text(encoding="utf-8")
    if shutil.which("pdftotext"):
        text = subprocess.run(["pdftotext", "-layout", str(out / "pdf" / "clasificacion.pdf"), "-"],
                              capture_output=True, text=True, check=True).stdout
        assert "JugU+001B[2J" in text
