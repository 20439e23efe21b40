"""A publication rewrites only what changed, and says how far it has got (issue 38).

``publish_results`` reports every file to its ``progress`` callback; a second
publication into the same folder with nothing changed writes no file (same inode, same
modification time); after a change (a game reopened, III.26, IV.32) it draws again the
documents that show it and leaves the others alone — and what it leaves in the folder is
what a fresh publication writes. The command draws its bars in Spanish on a terminal
only (``ProgressBars``, tried on a rich console that is one) and, piped, prints its
summary alone.
"""

from __future__ import annotations

import io
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.console import Console

from duplicate.publishing.site import FORMATS, MANIFEST, Progress, publish_results
from duplicate.service.facade import TournamentService
from duplicate.service.settings import TournamentSettings
from duplicate.simulate import simulate_tournament
from duplicate.storage.database import open_database
from lexicon.lexicon import Lexicon
from tests.credentials import JUDGE_PIN
from tui.cli.publish_command import ProgressBars, publish

PDFTOTEXT = shutil.which("pdftotext")
SETTINGS = TournamentSettings(bonus_mode="automatic", criterion="average_place", partial_every=2,
                              corrections_after_final=True)
FOOTER = re.compile(rb"Publicado el [^<]* a las \d\d:\d\d")
"""The publication time of a page (``base.html``): a page left unchanged keeps its own."""


@pytest.fixture()
def event(tmp_path: Path, spanish_lexicon: Lexicon) -> tuple[TournamentService, int, Path]:
    """6 players, 2 games of 4 rounds (final), and its database file."""
    path = tmp_path / "t.db"
    service = TournamentService(open_database(str(path)), station="pruebas", lexicon=spanish_lexicon, pin=JUDGE_PIN)
    tournament = simulate_tournament(service, players=6, games=2, seed=38, rounds=4, settings=SETTINGS,
                                     name="Torneo de Añón")
    return service, tournament, path


def stamps(folder: Path) -> dict[str, tuple[int, int]]:
    """Every file of the folder (the manifest aside): (inode, modification time in ns)."""
    return {path.relative_to(folder).as_posix(): (path.stat().st_ino, path.stat().st_mtime_ns)
            for path in sorted(folder.rglob("*")) if path.is_file() and path.name != MANIFEST}


def shown(path: Path) -> bytes | str:
    """What a file shows: a PDF's text (``pdftotext``; its bytes hold the time it was
    drawn), a page without its publication time, any other file's bytes."""
    if path.suffix == ".pdf":
        assert PDFTOTEXT is not None
        return subprocess.run([PDFTOTEXT, "-layout", "-enc", "UTF-8", str(path), "-"], check=True,
                              capture_output=True, text=True, timeout=120).stdout
    if path.suffix == ".xlsx":
        from openpyxl import load_workbook

        workbook = load_workbook(path, read_only=True)
        return repr([(sheet.title, list(sheet.iter_rows(values_only=True))) for sheet in workbook.worksheets])
    return FOOTER.sub(b"", path.read_bytes())


def test_the_progress_callback_reports_every_file_by_format(event: tuple[TournamentService, int, Path],
                                                            tmp_path: Path) -> None:
    service, tournament, _ = event
    steps: list[Progress] = []
    publication = publish_results(service, tmp_path / "web", tournament_id=tournament, workers=1,
                                  progress=steps.append)
    files = {path.as_posix() for path in publication.files}
    suffixes = {"html": (".html", ".css"), "pdf": (".pdf",), "csv": (".csv",), "xlsx": (".xlsx",)}
    assert [step.format for step in steps if step.file is None] == list(FORMATS)      # each announced first
    for kind, ending in suffixes.items():
        mine = [step for step in steps if step.format == kind]
        total = sum(1 for name in files if name.endswith(ending))
        assert mine[0] == Progress(kind, 0, total)
        assert [step.done for step in mine] == list(range(total + 1))
        assert {step.total for step in mine} == {total}
    assert sorted(step.file.as_posix() for step in steps if step.file is not None) == sorted(files)
    assert all(step.written for step in steps if step.file is not None)               # a new folder: all written
    assert set(publication.written) == set(publication.files)


def test_a_second_publication_with_nothing_changed_writes_no_file(event: tuple[TournamentService, int, Path],
                                                                  tmp_path: Path) -> None:
    service, tournament, _ = event
    out = tmp_path / "web"
    first = publish_results(service, out, tournament_id=tournament, workers=2)
    before = stamps(out)
    steps: list[Progress] = []
    again = publish_results(service, out, tournament_id=tournament, workers=2, progress=steps.append)
    assert stamps(out) == before
    assert again.files == first.files and again.written == ()
    assert len([step for step in steps if step.file is not None]) == len(first.files)
    assert not any(step.written for step in steps if step.file is not None)


def test_a_file_changed_or_removed_by_hand_is_written_again(event: tuple[TournamentService, int, Path],
                                                            tmp_path: Path) -> None:
    service, tournament, _ = event
    out = tmp_path / "web"
    publish_results(service, out, tournament_id=tournament, workers=1)
    original = (out / "partida-1.html").read_bytes()
    (out / "partida-1.html").write_text("otra cosa", encoding="utf-8")
    (out / "pdf" / "partida-2.pdf").unlink()
    again = publish_results(service, out, tournament_id=tournament, workers=1)
    assert {path.as_posix() for path in again.written} == {"partida-1.html", "pdf/partida-2.pdf"}
    assert FOOTER.sub(b"", (out / "partida-1.html").read_bytes()) == FOOTER.sub(b"", original)
    assert (out / "pdf" / "partida-2.pdf").is_file()


def test_after_a_change_only_what_shows_it_is_written_and_the_folder_is_a_fresh_publication(
        event: tuple[TournamentService, int, Path], tmp_path: Path) -> None:
    service, tournament, _ = event
    out = tmp_path / "web"
    publish_results(service, out, tournament_id=tournament, workers=2)
    before = stamps(out)
    service.reopen(2, reason="reclamación de la mesa 3", tournament_id=tournament)    # game 2 provisional again
    again = publish_results(service, out, tournament_id=tournament, workers=2)
    after = stamps(out)
    written = {path.as_posix() for path in again.written}
    assert written == {name for name in after if after[name] != before.get(name)}      # what it says it wrote
    game_one = {"partida-1.html", "partida-1-repeticion.html", "partida-1-parciales.html", "pdf/partida-1.pdf",
                "pdf/hojas-seguimiento-partida-1.pdf", "pdf/papeletas-partida-1.pdf", "datos/partida-1.csv",
                "datos/partida-1-maestras.csv", "datos/partida-1-jugadas.csv", "pdf/papeletas-partida-2.pdf",
                "pdf/hoja-seguimiento-en-blanco.pdf", "estilo.css"}
    assert game_one <= set(after) and not game_one & written                              # nothing of game 1 moved
    assert {"partida-2.html", "pdf/partida-2.pdf", "pdf/hojas-seguimiento-partida-2.pdf", "datos/partida-2.csv",
            "index.html", "pdf/clasificacion-general.pdf", "datos/resultados.xlsx"} <= written
    assert "Resultados provisionales" in (out / "partida-2.html").read_text(encoding="utf-8")
    fresh = publish_results(service, tmp_path / "nueva", tournament_id=tournament, workers=1)
    assert fresh.files == again.files
    for path in fresh.files:
        if path.suffix == ".pdf" and PDFTOTEXT is None:
            continue
        assert shown(out / path) == shown(tmp_path / "nueva" / path), path


def test_a_new_version_of_a_template_draws_its_pages_again(event: tuple[TournamentService, int, Path],
                                                           tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from duplicate.publishing import site

    service, tournament, _ = event
    out = tmp_path / "web"
    publish_results(service, out, formats=["csv"], tournament_id=tournament, workers=1)
    monkeypatch.setattr(site, "_code_digest", lambda: "otra versión")
    again = publish_results(service, out, formats=["csv"], tournament_id=tournament, workers=1)
    assert again.written == ()              # drawn again (a new digest), but the same bytes: left alone
    manifest = (out / MANIFEST).read_text(encoding="utf-8")
    assert "datos/partida-1.csv" in manifest


def test_the_bars_are_drawn_in_spanish_on_a_terminal() -> None:
    screen = io.StringIO()
    console = Console(file=screen, force_terminal=True, width=100, color_system=None)
    with ProgressBars(console) as bars:
        assert "Leyendo el torneo…" in screen.getvalue()          # before the first file
        bars(Progress("html", 0, 3))
        bars(Progress("pdf", 0, 2))
        for done in (1, 2, 3):
            bars(Progress("html", done, 3, Path(f"p{done}.html")))
        bars(Progress("pdf", 1, 2, Path("pdf/a.pdf")))
    text = screen.getvalue()
    assert "Sitio web" in text and "3/3" in text
    assert "Documentos PDF" in text and "1/2" in text
    screen = io.StringIO()
    console = Console(file=screen, force_terminal=True, width=100, color_system=None)
    with ProgressBars(console, formats=("csv",)) as bars:      # the stylesheet of a CSV-only publication
        bars(Progress("html", 0, 1))
        bars(Progress("csv", 0, 1))
        bars(Progress("html", 1, 1, Path("estilo.css")))
        bars(Progress("csv", 1, 1, Path("datos/clasificacion-general.csv")))
    assert "Tablas CSV" in screen.getvalue() and "Sitio web" not in screen.getvalue()


def test_piped_the_command_prints_its_summary_only(event: tuple[TournamentService, int, Path],
                                                   tmp_path: Path) -> None:
    _service, _tournament, database = event
    arguments = ["--db", str(database), "--out", str(tmp_path / "web"), "--formats", "html,csv"]
    first = CliRunner().invoke(publish, arguments)
    assert first.exit_code == 0, first.output
    assert first.output.splitlines()[0].startswith(f"Publicado en {tmp_path / 'web'}: ")
    assert len(first.output.splitlines()) == 2 and "\x1b" not in first.output and "Sitio web" not in first.output
    second = CliRunner().invoke(publish, arguments)
    assert second.exit_code == 0, second.output
    files = sum(1 for path in (tmp_path / "web").rglob("*") if path.is_file() and path.name != MANIFEST)
    assert f"Reescritos 0 de {files} archivos; {files} siguen como en la publicación anterior" in second.output
