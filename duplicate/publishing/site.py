"""Publishing a tournament's results: static HTML site, PDF, CSV and XLSX (III.26, IV.32, II.8, II.9).

``publish_results(service, out, game=None, formats=FORMATS)`` writes into the folder
``out``, for the whole tournament or one game:

==============================================  ==============================================================
file                                            what
==============================================  ==============================================================
``index.html``                                  overall standings by the tournament's criterion (IV.31, IV.32),
                                                the games with their status, links to every document
``partida-N.html``                              a game: standings with every round's points, bonuses highlighted
                                                (III.24), rounds scored 0 marked and their reasons listed (III.23,
                                                III.25), % of the master, provisional/final (III.26); racks and
                                                master moves; the final board (an HTML table); EloDI changes
``partida-N-parciales.html``                    partial standings every ``partial_every`` rounds (FISE: 3)
``partida-N-repeticion.html``                   the game round by round (``duplicate.publishing.replay_pages``): each round's board
                                                after the master, rack, master, points, equal tops, every move
``sedes.html``, ``sede-SLUG.html``              with imported venues (issue 27 §2): the whole field's standings with a
                                                venue column, and each venue's (``duplicate.publishing.venue_pages``)
``jugadores/jugador-ID.html``                   a player: overall line and one follow-up sheet per game (II.9)
``estilo.css``                                  the one stylesheet (screen and print; no JavaScript anywhere)
``pdf/partida-N.pdf``                           the game for the noticeboard (standings, partials, record, board)
``pdf/clasificacion-general.pdf``               the overall standings for the noticeboard
``pdf/hojas-seguimiento-partida-N.pdf``         every player's filled follow-up sheet (II.9), one page each
``pdf/papeletas-partida-N.pdf``                 pre-filled slip pads (II.8): 30 slips per player
``pdf/hoja-seguimiento-en-blanco.pdf``          a blank follow-up sheet (II.9)
``datos/*.csv``, ``datos/resultados.xlsx``      tables for federations (``duplicate.publishing.spreadsheets``)
==============================================  ==============================================================

With ``game``: the documents of that game only (its page, partials, PDFs, CSV; slip pads
even before it is played, once its tables are assigned), plus the index, the overall
standings and the player pages, which always cover every game played (IV.32: «la
clasificación global actualizada»). Links are relative, so the folder works from a USB
stick (``file://``) or any web server.

**Libraries.** Jinja2 for the HTML (templates in ``duplicate/publishing/templates/``, autoescaped);
ReportLab for the PDF (why: ``duplicate.publishing.pdf_pages``; the font is Bitstream Vera, shipped
in ReportLab's wheel); openpyxl for the XLSX; the standard ``csv`` module. All install
from PyPI wheels with no system library. ``rl_accel`` (ReportLab's optional C
accelerator, an abi3 wheel) roughly halves the PDF time; ReportLab works without it.

**Speed.** The documents are independent, so they are written by a pool of worker
processes (``workers``; default: the number of CPUs) where the platform can *fork*
(Linux) and the caller runs no other thread; elsewhere, and with ``workers=1``, one after
the other. Each process compiles the templates once. A publication into a folder that
holds an earlier one draws only the documents whose values changed (``MANIFEST``: a
digest of what each document shows; see ``publish_results``) and rewrites a page only when
its bytes changed; ``progress`` reports every file (the command line draws bars from it).
Figures: ``bench/publish.py``.

The command is ``publish`` (``duplicada publish --db URL --out DIR [--game N]
[--formats html,pdf,csv,xlsx]``).
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import pickle
import shutil
import stat
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import cache
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

from duplicate.labels import spanish_number
from duplicate.prepared.file import PreparedGame
from duplicate.publishing import spreadsheets
from duplicate.publishing.file_writes import write_if_changed
from duplicate.publishing.pdf_noticeboard import write_game_pdf, write_overall_pdf
from duplicate.publishing.pdf_sheets import (
    SLIPS_PER_PAD,
    write_blank_follow_up_pdf,
    write_follow_up_sheets_pdf,
    write_slip_pads_pdf,
)
from duplicate.publishing.replay_pages import ReplayRound, replay_of_prepared, replay_of_results, replay_page_name
from duplicate.publishing.result_values import (
    GAME_STATUS_LABELS,
    GameResults,
    StandingLine,
    TournamentResults,
    spanish_date,
)
from duplicate.publishing.results import collect_results
from duplicate.publishing.venue_pages import ALL_VENUES_PAGE, VenuePages, collect_venue_pages, write_venue_pages
from duplicate.service.errors import InvalidFile, NotFound, StateConflict
from duplicate.service.facade import TournamentService
from duplicate.service.views import GameInfo
from duplicate.texts import visible
from lexicon.alphabet import Alphabet, spanish

__all__ = ["FORMATS", "MANIFEST", "PREPARED_REPLAY_PAGE", "Progress", "Publication", "publish_prepared",
           "publish_results", "published_value", "render_environment"]

FORMATS = ("html", "pdf", "csv", "xlsx")
"""Every output format, in the order ``--formats`` lists them."""

TEMPLATES = Path(__file__).resolve().parent / "templates"
PLAYER_FOLDER = "jugadores"
PDF_FOLDER = "pdf"
DATA_FOLDER = "datos"


@dataclass(frozen=True)
class Publication:
    """What ``publish_results`` published: the folder, every file of the publication
    (relative to it, sorted, whether written this time or left unchanged), seconds taken."""

    out: Path
    files: tuple[Path, ...]
    seconds: float
    written: tuple[Path, ...] = ()
    """The files written this time (sorted); the others were left as they were, unchanged."""

    def count(self, suffix: str) -> int:
        """Number of files with this suffix (``".html"``, ``".pdf"``…)."""
        return sum(1 for path in self.files if path.suffix == suffix)


@dataclass(frozen=True)
class Progress:
    """One step of ``publish_results``, for a progress display (plain values: the command
    line draws them). ``format``: ``html`` (the stylesheet counted with the pages), ``pdf``,
    ``csv`` or ``xlsx``; ``done`` of the ``total`` files of that format; ``file``: the
    file just done (relative to the folder), None in the first report of each format
    (``done`` 0, announcing ``total``); ``written``: False when the file was left as it
    was (nothing it shows changed since the last publication in that folder)."""

    format: str
    done: int
    total: int
    file: Path | None = None
    written: bool = True


def published_value(value: Any) -> Any:
    """What a page shows of a template's value (Jinja2's ``finalize``, before autoescaping):
    a text with its hidden characters ``visible`` (line breaks and tabs kept) — a name
    stored with ESC, NUL or U+202E by another program shows them as ``U+XXXX`` and never
    reaches a page raw (issue 36 §5); any other value unchanged."""
    if not isinstance(value, str):
        return value
    shown = visible(value, lines=True)
    return value if shown is value else type(value)(shown)


def render_environment() -> Environment:
    """The Jinja2 environment of the templates (autoescape; ``published_value`` on every
    value shown; filters ``num``: decimal comma, ``fecha``: Spanish date)."""
    environment = Environment(loader=FileSystemLoader(str(TEMPLATES)), autoescape=select_autoescape(["html"]),
                              undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                              finalize=published_value)
    environment.filters["num"] = spanish_number
    environment.filters["fecha"] = spanish_date
    return environment


# --- the jobs --------------------------------------------------------------------------------------

@dataclass(frozen=True)
class _Plan:
    """Everything the jobs need; module-global in the worker processes (inherited by fork)."""

    out: Path
    results: TournamentResults
    games_info: tuple[GameInfo, ...]
    detailed: tuple[int, ...]
    formats: tuple[str, ...]
    seats: dict[int, tuple[tuple[int, str], ...]]
    slips_per_pad: int
    replays: dict[int, tuple[ReplayRound, ...]]
    venue_pages: VenuePages | None = None
    lines: dict[int, dict[int, StandingLine]] = field(default_factory=dict)
    """Game number → its standings lines by entry id."""

    @property
    def venue_links(self) -> tuple[tuple[str, str], ...]:
        """(label, file) of the venue pages; empty without venues."""
        return self.venue_pages.links if self.venue_pages is not None else ()


_PLAN: _Plan | None = None
Job = tuple[str, Any]
_Written = tuple[Path, bool]
"""A file of a job (relative to the folder) and whether it was written (False: its content was already that)."""


def _game(plan: _Plan, number: int) -> GameResults:
    return _game_of(plan.results, number)


def _game_of(results: TournamentResults, number: int) -> GameResults:
    return next(game for game in results.games if game.number == number)


def _documents(plan: _Plan, number: int, root: str = "") -> list[tuple[str, str]]:
    """(label, relative link) of a game's downloadable documents."""
    links = []
    if "pdf" in plan.formats:
        if number in plan.detailed:
            links.append(("Resultados (PDF)", f"{root}{PDF_FOLDER}/partida-{number}.pdf"))
            links.append(("Hojas de seguimiento (PDF)", f"{root}{PDF_FOLDER}/hojas-seguimiento-partida-{number}.pdf"))
        if number in plan.seats:
            links.append(("Papeletas (PDF)", f"{root}{PDF_FOLDER}/papeletas-partida-{number}.pdf"))
    if number in plan.detailed and "csv" in plan.formats:
        links.append(("Clasificación (CSV)", f"{root}{DATA_FOLDER}/partida-{number}.csv"))
        links.append(("Jugadas (CSV)", f"{root}{DATA_FOLDER}/partida-{number}-jugadas.csv"))
    return links


def _general_documents(plan: _Plan) -> list[tuple[str, str]]:
    links = []
    if "pdf" in plan.formats:
        links += [("Clasificación general (PDF)", f"{PDF_FOLDER}/clasificacion-general.pdf"),
                  ("Hoja de seguimiento en blanco (PDF)", f"{PDF_FOLDER}/hoja-seguimiento-en-blanco.pdf")]
    if "csv" in plan.formats:
        links.append(("Clasificación general (CSV)", f"{DATA_FOLDER}/clasificacion-general.csv"))
    if "xlsx" in plan.formats:
        links.append(("Resultados (XLSX)", f"{DATA_FOLDER}/resultados.xlsx"))
    return links


@cache
def _environment() -> Environment:
    """``render_environment`` made once per process: every page of a publication renders
    with the same compiled templates (Jinja2 caches them per environment)."""
    return render_environment()


def _write_html(plan: _Plan, name: str, template: str, **context: Any) -> _Written:
    page = _environment().get_template(template).render(t=plan.results, **context)
    return Path(name), write_if_changed(plan.out / name, page.encode("utf-8"))


def _job_index(plan: _Plan, _arg: None) -> list[_Written]:
    return [_write_html(plan, "index.html", "index.html", root="", games_info=plan.games_info,
                        published=set(plan.detailed), status_labels=GAME_STATUS_LABELS,
                        documents={game.number: _documents(plan, game.number) for game in plan.games_info},
                        general_documents=_general_documents(plan), venue_links=plan.venue_links)]


def _job_game_html(plan: _Plan, number: int) -> list[_Written]:
    game = _game(plan, number)
    written = [_write_html(plan, f"partida-{number}.html", "game.html", root="", g=game,
                           documents=_documents(plan, number), replay=replay_page_name(number),
                           venue_link=f"{ALL_VENUES_PAGE}#partida-{number}" if plan.venue_pages else "")]
    written.append(_write_html(plan, replay_page_name(number), "replay.html", root="", standalone=False,
                               heading=f"Partida {number}", game_link=f"partida-{number}.html",
                               rounds=plan.replays[number], players=True,
                               summary=f"{len(game.masters)} rondas · jugada maestra {game.master_total} puntos"))
    if game.partials:
        written.append(_write_html(plan, f"partida-{number}-parciales.html", "partials.html", root="", g=game))
    return written


def _job_players_html(plan: _Plan, entries: Sequence[int]) -> list[_Written]:
    template = _environment().get_template("player.html")
    results = plan.results
    overall = {line.player.entry_id: line for line in results.overall}
    written = []
    for entry in entries:
        player = results.players[entry]
        games = [(game, plan.lines[game.number].get(entry), game.sheets.get(entry, ())) for game in results.games]
        name = f"{PLAYER_FOLDER}/{player.slug}.html"
        page = template.render(t=results, root="../", p=player, overall=overall.get(entry), games=games)
        written.append((Path(name), write_if_changed(plan.out / name, page.encode("utf-8"))))
    return written


def _job_game_pdf(plan: _Plan, number: int) -> list[_Written]:
    name = Path(PDF_FOLDER) / f"partida-{number}.pdf"
    write_game_pdf(plan.results, _game(plan, number), plan.out / name)
    return [(name, True)]


def _job_sheets_pdf(plan: _Plan, number: int) -> list[_Written]:
    name = Path(PDF_FOLDER) / f"hojas-seguimiento-partida-{number}.pdf"
    write_follow_up_sheets_pdf(plan.results, _game(plan, number), plan.out / name)
    return [(name, True)]


def _job_slips_pdf(plan: _Plan, number: int) -> list[_Written]:
    name = Path(PDF_FOLDER) / f"papeletas-partida-{number}.pdf"
    write_slip_pads_pdf(plan.results, number, plan.seats[number], plan.out / name, per_pad=plan.slips_per_pad)
    return [(name, True)]


def _job_overall_pdf(plan: _Plan, _arg: None) -> list[_Written]:
    name = Path(PDF_FOLDER) / "clasificacion-general.pdf"
    write_overall_pdf(plan.results, plan.out / name)
    return [(name, True)]


def _job_blank_pdf(plan: _Plan, _arg: None) -> list[_Written]:
    name = Path(PDF_FOLDER) / "hoja-seguimiento-en-blanco.pdf"
    write_blank_follow_up_pdf(plan.results, plan.out / name, game=_blank_game(plan), rows=_blank_rows(plan))
    return [(name, True)]


def _blank_game(plan: _Plan) -> int | None:
    return plan.detailed[0] if len(plan.detailed) == 1 else None


def _blank_rows(plan: _Plan) -> int:
    return max(max((len(game.masters) for game in plan.results.games), default=0), 25)


def _tables(plan: _Plan, number: int | None) -> list[spreadsheets.DataTable]:
    """The overall table (``number`` None) or a game's tables."""
    return [spreadsheets.overall_table(plan.results)] if number is None else spreadsheets.game_tables(
        _game(plan, number))


def _job_csv(plan: _Plan, number: int | None) -> list[_Written]:
    written = []
    for table in _tables(plan, number):
        name = Path(DATA_FOLDER) / f"{table.name}.csv"
        written.append((name, write_if_changed(plan.out / name, spreadsheets.csv_bytes(table))))
    return written


def _job_xlsx(plan: _Plan, _arg: None) -> list[_Written]:
    tables = _tables(plan, None)
    for number in plan.detailed:
        tables += _tables(plan, number)
    name = Path(DATA_FOLDER) / "resultados.xlsx"
    spreadsheets.write_xlsx(tables, plan.out / name, title=plan.results.name)
    return [(name, True)]


def _job_venues_html(plan: _Plan, _arg: None) -> list[_Written]:
    assert plan.venue_pages is not None
    return [(path, True) for path in write_venue_pages(_environment(), plan.results, plan.out, plan.venue_pages)]


_JOBS: dict[str, Callable[[_Plan, Any], list[_Written]]] = {
    "venues_html": _job_venues_html, "index": _job_index, "game_html": _job_game_html,
    "players_html": _job_players_html,
    "game_pdf": _job_game_pdf, "sheets_pdf": _job_sheets_pdf, "slips_pdf": _job_slips_pdf,
    "overall_pdf": _job_overall_pdf, "blank_pdf": _job_blank_pdf, "csv": _job_csv, "xlsx": _job_xlsx,
}


def _run(job: Job) -> list[_Written]:
    assert _PLAN is not None
    kind, argument = job
    return _JOBS[kind](_PLAN, argument)


# --- what each document shows: its digest ---------------------------------------------------------------

MANIFEST = ".publicacion-duplicada.json"
"""The file, in a publication's folder, recording for each document the digest of what it
shows and the size and modification time of the files written for it: a document whose
digest and files are unchanged is not drawn again (issue 38)."""

MANIFEST_LIMIT = 16 * 1024 * 1024
"""Bytes of a manifest read at most (a bigger one is not ours: read as empty)."""


@dataclass(frozen=True)
class _Document:
    """One unit of a publication: the job that writes it (``kind``, ``argument``), the files
    it writes (relative POSIX paths) and the digest of everything they show."""

    kind: str
    argument: Any
    files: tuple[str, ...]
    inputs: str


def _digest(*parts: object) -> str:
    """SHA-256 of the values ``parts``, pickled: equal for equal values built the same way
    (a value built otherwise, sharing other objects, may digest differently: its document
    is then drawn again, never wrongly kept). A value that cannot be pickled gives a digest
    that matches nothing (its documents are always drawn)."""
    try:
        return hashlib.sha256(pickle.dumps(parts, protocol=5)).hexdigest()
    except (pickle.PicklingError, TypeError, AttributeError):
        return "sin resumen " + os.urandom(16).hex()


_RENDERING_MODULES = ("labels.py", "texts.py", "plurals.py")
"""The modules of ``duplicate`` outside ``publishing`` whose code formats what documents show."""


@cache
def _code_digest() -> str:
    """Digest of the code that draws the documents: this package's modules and templates,
    the formatting modules of ``duplicate`` (``_RENDERING_MODULES``) and the versions of
    Jinja2 and ReportLab (already imported; openpyxl's is not read: importing it for that
    would cost more than a workbook drawn again with new values) — another version of
    the program draws everything again."""
    import jinja2
    import reportlab

    here = Path(__file__).resolve().parent
    digest = hashlib.sha256(f"jinja2 {jinja2.__version__} reportlab {reportlab.Version}".encode())
    sources = [*here.glob("*.py"), *TEMPLATES.iterdir(), *(here.parent / name for name in _RENDERING_MODULES)]
    for path in sorted(sources):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def _documents_of(plan: _Plan) -> list[_Document]:
    """Every document of the publication with the digest of what it shows (longest first)."""
    results = plan.results
    named = _digest(_code_digest(), results.name)                       # what every document shows
    pages = _digest(named, results.venue, results.start_date, results.end_date, results.all_games, results.settings,
                    plan.formats, plan.detailed, sorted(plan.seats), plan.venue_links)  # every page's heading, links
    games = {game.number: game for game in results.games}
    game_digests = {number: _digest(game) for number, game in games.items()}
    overall = _digest(results.provisional, results.all_games, results.settings, results.overall)
    everything = _digest(pages, overall, sorted(game_digests.items()), results.players)
    documents: list[_Document] = []
    if "pdf" in plan.formats:
        documents += [_Document("sheets_pdf", number, (f"{PDF_FOLDER}/hojas-seguimiento-partida-{number}.pdf",),
                                _digest(named, game_digests[number])) for number in plan.detailed]
        documents += [_Document("slips_pdf", number, (f"{PDF_FOLDER}/papeletas-partida-{number}.pdf",),
                                _digest(named, number, plan.seats[number], plan.slips_per_pad))
                      for number in sorted(plan.seats)]
        documents += [_Document("game_pdf", number, (f"{PDF_FOLDER}/partida-{number}.pdf",),
                                _digest(named, game_digests[number])) for number in plan.detailed]
        documents.append(_Document("overall_pdf", None, (f"{PDF_FOLDER}/clasificacion-general.pdf",),
                                   _digest(named, overall)))
        documents.append(_Document("blank_pdf", None, (f"{PDF_FOLDER}/hoja-seguimiento-en-blanco.pdf",),
                                   _digest(named, _blank_game(plan), _blank_rows(plan))))
    if "xlsx" in plan.formats:
        documents.append(_Document("xlsx", None, (f"{DATA_FOLDER}/resultados.xlsx",), everything))
    if "html" in plan.formats:
        overall_lines = {line.player.entry_id: line for line in results.overall}
        for entry in sorted(results.players):
            shown = [(game.number, game.status, game.master_total, plan.lines[game.number].get(entry),
                      game.sheets.get(entry, ())) for game in results.games]
            documents.append(_Document("players_html", entry, (f"{PLAYER_FOLDER}/{results.players[entry].slug}.html",),
                                       _digest(pages, results.players[entry], overall_lines.get(entry), shown)))
        for number in plan.detailed:
            files = [f"partida-{number}.html", replay_page_name(number)]
            if games[number].partials:
                files.append(f"partida-{number}-parciales.html")
            documents.append(_Document("game_html", number, tuple(files),
                                       _digest(pages, game_digests[number], plan.replays[number])))
        documents.append(_Document("index", None, ("index.html",), _digest(everything, plan.games_info)))
        if plan.venue_pages is not None:
            documents.append(_Document("venues_html", None, tuple(page.name for page in plan.venue_pages.pages),
                                       _digest(everything, plan.venue_pages)))
    if "csv" in plan.formats:
        documents.append(_Document("csv", None, (f"{DATA_FOLDER}/clasificacion-general.csv",),
                                   _digest(named, overall)))
        documents += [_Document("csv", number, tuple(f"{DATA_FOLDER}/{name}.csv" for name in
                                                     spreadsheets.game_table_names(number)),
                                _digest(named, game_digests[number])) for number in plan.detailed]
    return documents


def _jobs(documents: Sequence[_Document]) -> list[Job]:
    """The jobs that write ``documents``, in their order; the players' pages in groups."""
    jobs: list[Job] = []
    entries = [document.argument for document in documents if document.kind == "players_html"]
    chunk = max(1, min(25, len(entries) // 8 + 1))
    grouped = False
    for document in documents:
        if document.kind != "players_html":
            jobs.append((document.kind, document.argument))
        elif not grouped:
            grouped = True
            jobs += [("players_html", tuple(entries[start:start + chunk])) for start in range(0, len(entries), chunk)]
    return jobs


def _read_manifest(path: Path) -> dict[str, Any]:
    """The documents a manifest records (file of the document → its entry); empty when it
    is missing, not a regular file, too big or not ours."""
    try:
        status = path.lstat()
        if not stat.S_ISREG(status.st_mode) or status.st_size > MANIFEST_LIMIT:
            return {}
        content = json.loads(path.read_bytes())
    except (OSError, ValueError):
        return {}
    documents = content.get("documentos") if isinstance(content, dict) and content.get("version") == 1 else None
    return documents if isinstance(documents, dict) else {}


def _file_stamp(path: Path) -> list[int] | None:
    """[size, modification time in ns] of a regular file; None for anything else."""
    try:
        status = path.lstat()
    except OSError:
        return None
    return [status.st_size, status.st_mtime_ns] if stat.S_ISREG(status.st_mode) else None


def _unchanged(out: Path, document: _Document, recorded: Any) -> bool:
    """Whether ``recorded`` (the manifest's entry) says ``document`` was written with the
    same digest and its files are still those written then."""
    if not isinstance(recorded, dict) or recorded.get("digest") != document.inputs:
        return False
    stamps = recorded.get("ficheros")
    return isinstance(stamps, dict) and all(
        stamps.get(name) is not None and stamps.get(name) == _file_stamp(out / name) for name in document.files)


def _manifest_entry(out: Path, document: _Document) -> dict[str, Any]:
    return {"digest": document.inputs, "ficheros": {name: _file_stamp(out / name) for name in document.files}}


# --- the entry point ---------------------------------------------------------------------------------
LINKS_CHECKED_MAX = 100_000
"""Entries of an existing output folder looked at for links at most (a publication has a few hundred)."""


def refuse_links(out: Path) -> None:
    """Refuse to publish into ``out`` when it, or anything under it, is a symbolic link
    or a file with another hard link: the files written there would overwrite whatever
    the link points to (issue 26 §3: three targets were overwritten). Raises
    ``TournamentError`` (Spanish) naming the link; a folder that does not exist yet passes.
    A missing ``out`` is created later by the publisher, never through a link."""
    if out.is_symlink():
        raise InvalidFile(f"{out} es un enlace simbólico: publique en una carpeta normal", path=out, what="la carpeta")
    if not out.exists():
        return
    if not out.is_dir():
        raise InvalidFile(f"{out} no es una carpeta: elija una carpeta para publicar", path=out, what="la carpeta")
    for count, (folder, folders, names) in enumerate(os.walk(out)):
        if count > LINKS_CHECKED_MAX:
            raise InvalidFile(f"{out} tiene demasiadas carpetas: publique en una carpeta nueva",
                              path=out, what="la carpeta")
        for name in (*folders, *names):
            path = Path(folder) / name
            status = path.lstat()
            if stat.S_ISLNK(status.st_mode):
                raise InvalidFile(f"{path} es un enlace simbólico: quítelo o publique en otra carpeta "
                                      "(no se escribe a través de enlaces)", path=path, what="la carpeta")
            if stat.S_ISREG(status.st_mode) and status.st_nlink > 1:
                raise InvalidFile(f"{path} tiene otro enlace duro: quítelo o publique en otra carpeta",
                                  path=path, what="la carpeta")




def publish_results(service: TournamentService, out: Path, *, game: int | None = None,
                    formats: Iterable[str] = FORMATS, tournament_id: int | None = None, workers: int | None = None,
                    slips_per_pad: int = SLIPS_PER_PAD,
                    progress: Callable[[Progress], None] | None = None) -> Publication:
    """Write the publication of a tournament (or of one game) into the folder ``out``.

    ``game``: a game number, or None for every game; ``formats``: any of ``FORMATS``;
    ``tournament_id``: None for the newest tournament; ``workers``: processes (default:
    CPUs; 1 = in this process); ``slips_per_pad``: slips per player in the pads (II.8: 30);
    ``progress``: called in this process with a ``Progress`` for each format before its
    first file (``done`` 0, the total) and after each file (written or left unchanged).
    Existing files of the same names are replaced; others in ``out`` are left alone.

    **Only what changed.** The folder's ``MANIFEST`` records, for each document, the
    digest of everything it shows (the values it is drawn from and the code that draws
    them) and the size and modification time of its files. A document whose digest and
    files are as recorded is not drawn again; a page or CSV file drawn again whose bytes
    are those on disk is not rewritten (its modification time kept; HTML and CSV are
    written through a temporary file and ``os.replace``). So a publication after one more
    round draws that game's documents, the overall ones and the pages whose figures
    moved, and a page left alone keeps the date «Publicado el …» of when it last changed.

    Returns the ``Publication``. Raises ``TournamentError`` (Spanish) for an unknown
    tournament or game, or a game with nothing to publish; ``ValueError`` for an unknown
    format.
    """
    global _PLAN
    started = time.perf_counter()
    chosen = tuple(dict.fromkeys(name.strip().lower() for name in formats if name.strip()))
    unknown = [name for name in chosen if name not in FORMATS]
    if unknown or not chosen:
        raise ValueError(f"formato desconocido: {', '.join(unknown) or '(ninguno)'}; se espera {', '.join(FORMATS)}")
    info = service.tournament(tournament_id)
    numbers = [item.number for item in info.games]
    if game is not None and game not in numbers:
        raise NotFound(f"el torneo «{info.name}» no tiene partida {game}"
                              + (f" (partidas: {', '.join(map(str, numbers))})" if numbers else ""),
                              what="partida", key=game)
    field_standings = service.field_standings(info.id)   # every figure of every page and file reads these (issue 35)
    results = collect_results(service, info.id, field=field_standings)
    played = {item.number for item in results.games}
    detailed = tuple(sorted(played if game is None else played & {game}))
    pad_games = [item.number for item in info.games if game is None or item.number == game]
    seats: dict[int, tuple[tuple[int, str], ...]] = {}
    for number in pad_games:
        known = next((item for item in results.games if item.number == number), None)
        if known is not None:  # the tables of a played game are in its results (II.6)
            rows = tuple(sorted((table, results.players[entry].name) for entry, table in known.tables.items()))
        else:
            rows = tuple((table, person.name) for table, _entry, person in service.seats(number, info.id))
        if rows:
            seats[number] = rows
    if game is not None and not detailed and game not in seats:
        raise StateConflict(f"la partida {game} no tiene jugadas ni mesas asignadas: no hay nada que publicar",
                            what=f"partida {game}", state="empty")

    refuse_links(out)
    out.mkdir(parents=True, exist_ok=True)
    for folder in (PLAYER_FOLDER, PDF_FOLDER, DATA_FOLDER):
        (out / folder).mkdir(exist_ok=True)
    alphabet = spanish()     # the tile set of the boards, as collect_results (I.2)
    replays = {number: replay_of_results(_game_of(results, number), service.rounds(number, info.id), alphabet)
               for number in detailed} if "html" in chosen else {}
    venue_pages = collect_venue_pages(service, info.id, numbers, field_standings) if "html" in chosen else None
    lines = {item.number: {line.player.entry_id: line for line in item.standings} for item in results.games}
    plan = _Plan(out, results, info.games, detailed, chosen, seats, slips_per_pad, replays, venue_pages, lines)
    documents = _documents_of(plan)
    manifest = out / MANIFEST
    recorded = _read_manifest(manifest)
    pending = [document for document in documents if not _unchanged(out, document, recorded.get(document.files[0]))]
    counter = _Counter(progress, documents)
    written: list[Path] = []
    if write_if_changed(out / "estilo.css", (TEMPLATES / "estilo.css").read_bytes()):
        written.append(Path("estilo.css"))
    counter.done(Path("estilo.css"), bool(written))
    redrawn = {id(document) for document in pending}
    for document in documents:
        if id(document) not in redrawn:
            for name in document.files:
                counter.done(Path(name), False)
    jobs = _jobs(pending)
    _PLAN = plan
    try:
        # Default: one process per CPU — but never fork a process that runs other threads (a TUI
        # worker, a server): a child could inherit a lock held by one of them.
        count = workers if workers is not None else (os.cpu_count() or 1) if threading.active_count() == 1 else 1
        if count > 1 and len(jobs) > 1 and "fork" in multiprocessing.get_all_start_methods():
            with multiprocessing.get_context("fork").Pool(min(count, len(jobs))) as pool:
                for done in pool.imap_unordered(_run, jobs):
                    written += counter.record(done)
        else:
            for job in jobs:
                written += counter.record(_run(job))
    finally:
        _PLAN = None
        entries = {name: entry for name, entry in recorded.items()
                   if not any(name == document.files[0] for document in documents)}
        entries.update((document.files[0], _manifest_entry(out, document)) for document in documents
                       if all(name in counter.finished for name in document.files))   # a job cut short: drawn again
        listing = json.dumps({"version": 1, "documentos": dict(sorted(entries.items()))}, ensure_ascii=False,
                             indent=0).encode("utf-8")
        write_if_changed(manifest, listing)
    for folder in (PLAYER_FOLDER, PDF_FOLDER, DATA_FOLDER):
        if not any((out / folder).iterdir()):
            (out / folder).rmdir()
    files = [Path("estilo.css")] + [Path(name) for document in documents for name in document.files]
    return Publication(out, tuple(sorted(files)), time.perf_counter() - started, tuple(sorted(written)))


_FORMAT_OF_SUFFIX = {".html": "html", ".css": "html", ".pdf": "pdf", ".csv": "csv", ".xlsx": "xlsx"}


class _Counter:
    """The ``Progress`` reports of one publication: totals per format, files done so far."""

    def __init__(self, progress: Callable[[Progress], None] | None, documents: Sequence[_Document]) -> None:
        self.progress = progress
        self.finished: set[str] = set()
        self.totals: dict[str, int] = {}
        for name in ["estilo.css", *(name for document in documents for name in document.files)]:
            kind = _FORMAT_OF_SUFFIX[Path(name).suffix]
            self.totals[kind] = self.totals.get(kind, 0) + 1
        self.counts = dict.fromkeys(self.totals, 0)
        if progress is not None:
            for kind in FORMATS:
                if kind in self.totals:
                    progress(Progress(kind, 0, self.totals[kind]))

    def done(self, path: Path, written: bool) -> None:
        kind = _FORMAT_OF_SUFFIX[path.suffix]
        self.counts[kind] += 1
        self.finished.add(path.as_posix())
        if self.progress is not None:
            self.progress(Progress(kind, self.counts[kind], self.totals[kind], path, written))

    def record(self, done: Sequence[_Written]) -> list[Path]:
        """Report the files of a finished job; those it wrote."""
        for path, written in done:
            self.done(path, written)
        return [path for path, written in done if written]


# --- a prepared game's replay page ---------------------------------------------------------------------
PREPARED_REPLAY_PAGE = "repeticion.html"
"""File name of a prepared game's replay page in its folder."""


@dataclass(frozen=True)
class _Heading:
    """What the page heading shows for a prepared game (the templates' ``t``)."""

    name: str
    generated_at: datetime
    venue: str = ""
    start_date: None = None
    end_date: None = None
    all_games: tuple[int, ...] = ()


def publish_prepared(prepared: PreparedGame, out: Path, alphabet: Alphabet | None = None, *,
                     title: str = "") -> Path:
    """Write the replay page of a prepared game (III.15; no players) into the folder ``out``
    (``repeticion.html``, created if needed, with ``estilo.css`` beside it); ``alphabet``:
    the tile set (default: the Spanish set, I.2). A symbolic link or hard-linked file in
    ``out`` is refused as ``publish_results`` does (``InvalidFile``); ``OSError`` when it
    cannot be written. Returns the page's path."""
    refuse_links(out)
    out.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(TEMPLATES / "estilo.css", out / "estilo.css")
    name = title or f"Partida preparada {prepared.digest[:12]}"
    page = render_environment().get_template("replay.html").render(
        t=_Heading(name, datetime.now()), root="", standalone=True, heading=name, game_link="",
        rounds=replay_of_prepared(prepared, alphabet or spanish()), players=False,
        summary=f"Semilla {prepared.seed} · {len(prepared.rounds)} rondas · {prepared.total} puntos · "
                f"{prepared.bingos} scrabbles · resumen SHA-256 {prepared.digest}")
    path = out / PREPARED_REPLAY_PAGE
    path.write_text(page, encoding="utf-8")
    return path
