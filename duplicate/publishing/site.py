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
the other. Figures:
``bench/publish.py``.

The command is ``publish`` (``duplicada publish --db URL --out DIR [--game N]
[--formats html,pdf,csv,xlsx]``).
"""

from __future__ import annotations

import multiprocessing
import os
import shutil
import stat
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

from duplicate.labels import spanish_number
from duplicate.prepared.file import PreparedGame
from duplicate.publishing import spreadsheets
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

__all__ = ["FORMATS", "PREPARED_REPLAY_PAGE", "Publication", "publish_prepared", "publish_results", "published_value",
           "render_environment"]

FORMATS = ("html", "pdf", "csv", "xlsx")
"""Every output format, in the order ``--formats`` lists them."""

TEMPLATES = Path(__file__).resolve().parent / "templates"
PLAYER_FOLDER = "jugadores"
PDF_FOLDER = "pdf"
DATA_FOLDER = "datos"


@dataclass(frozen=True)
class Publication:
    """What ``publish_results`` wrote: the folder, every file (relative to it, sorted), seconds taken."""

    out: Path
    files: tuple[Path, ...]
    seconds: float

    def count(self, suffix: str) -> int:
        """Number of files with this suffix (``".html"``, ``".pdf"``…)."""
        return sum(1 for path in self.files if path.suffix == suffix)


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

    @property
    def venue_links(self) -> tuple[tuple[str, str], ...]:
        """(label, file) of the venue pages; empty without venues."""
        return self.venue_pages.links if self.venue_pages is not None else ()


_PLAN: _Plan | None = None
Job = tuple[str, Any]


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


def _write_html(plan: _Plan, name: str, template: str, **context: Any) -> Path:
    environment = render_environment()
    path = plan.out / name
    path.write_text(environment.get_template(template).render(t=plan.results, **context), encoding="utf-8")
    return Path(name)


def _job_index(plan: _Plan, _arg: None) -> list[Path]:
    return [_write_html(plan, "index.html", "index.html", root="", games_info=plan.games_info,
                        published=set(plan.detailed), status_labels=GAME_STATUS_LABELS,
                        documents={game.number: _documents(plan, game.number) for game in plan.games_info},
                        general_documents=_general_documents(plan), venue_links=plan.venue_links)]


def _job_game_html(plan: _Plan, number: int) -> list[Path]:
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


def _job_players_html(plan: _Plan, entries: Sequence[int]) -> list[Path]:
    environment = render_environment()
    template = environment.get_template("player.html")
    results = plan.results
    overall = {line.player.entry_id: line for line in results.overall}
    lines: dict[int, dict[int, StandingLine]] = {
        game.number: {line.player.entry_id: line for line in game.standings} for game in results.games}
    written = []
    for entry in entries:
        player = results.players[entry]
        games = [(game, lines[game.number].get(entry), game.sheets.get(entry, ())) for game in results.games]
        name = f"{PLAYER_FOLDER}/{player.slug}.html"
        (plan.out / name).write_text(template.render(t=results, root="../", p=player, overall=overall.get(entry),
                                                     games=games), encoding="utf-8")
        written.append(Path(name))
    return written


def _job_game_pdf(plan: _Plan, number: int) -> list[Path]:
    name = Path(PDF_FOLDER) / f"partida-{number}.pdf"
    write_game_pdf(plan.results, _game(plan, number), plan.out / name)
    return [name]


def _job_sheets_pdf(plan: _Plan, number: int) -> list[Path]:
    name = Path(PDF_FOLDER) / f"hojas-seguimiento-partida-{number}.pdf"
    write_follow_up_sheets_pdf(plan.results, _game(plan, number), plan.out / name)
    return [name]


def _job_slips_pdf(plan: _Plan, number: int) -> list[Path]:
    name = Path(PDF_FOLDER) / f"papeletas-partida-{number}.pdf"
    write_slip_pads_pdf(plan.results, number, plan.seats[number], plan.out / name,
                                 per_pad=plan.slips_per_pad)
    return [name]


def _job_general_pdf(plan: _Plan, _arg: None) -> list[Path]:
    overall = Path(PDF_FOLDER) / "clasificacion-general.pdf"
    blank = Path(PDF_FOLDER) / "hoja-seguimiento-en-blanco.pdf"
    write_overall_pdf(plan.results, plan.out / overall)
    rounds = max((len(game.masters) for game in plan.results.games), default=0)
    write_blank_follow_up_pdf(plan.results, plan.out / blank,
                                       game=plan.detailed[0] if len(plan.detailed) == 1 else None,
                                       rows=max(rounds, 25))
    return [overall, blank]


def _job_tables(plan: _Plan, _arg: None) -> list[Path]:
    tables = [spreadsheets.overall_table(plan.results)]
    for number in plan.detailed:
        tables += spreadsheets.game_tables(_game(plan, number))
    written = []
    if "csv" in plan.formats:
        for table in tables:
            name = Path(DATA_FOLDER) / f"{table.name}.csv"
            spreadsheets.write_csv(table, plan.out / name)
            written.append(name)
    if "xlsx" in plan.formats:
        name = Path(DATA_FOLDER) / "resultados.xlsx"
        spreadsheets.write_xlsx(tables, plan.out / name, title=plan.results.name)
        written.append(name)
    return written


def _job_venues_html(plan: _Plan, _arg: None) -> list[Path]:
    assert plan.venue_pages is not None
    return write_venue_pages(render_environment(), plan.results, plan.out, plan.venue_pages)


_JOBS: dict[str, Callable[[_Plan, Any], list[Path]]] = {
    "venues_html": _job_venues_html, "index": _job_index, "game_html": _job_game_html, "players_html": _job_players_html,
    "game_pdf": _job_game_pdf, "sheets_pdf": _job_sheets_pdf, "slips_pdf": _job_slips_pdf,
    "general_pdf": _job_general_pdf, "tables": _job_tables,
}


def _run(job: Job) -> list[Path]:
    assert _PLAN is not None
    kind, argument = job
    return _JOBS[kind](_PLAN, argument)


def _jobs(plan: _Plan) -> list[Job]:
    """The jobs, the longest first (so that the pool ends together)."""
    jobs: list[Job] = []
    if "pdf" in plan.formats:
        jobs += [("sheets_pdf", number) for number in plan.detailed]
        jobs += [("slips_pdf", number) for number in sorted(plan.seats)]
        jobs += [("game_pdf", number) for number in plan.detailed]
        jobs.append(("general_pdf", None))
    if "html" in plan.formats:
        entries = sorted(plan.results.players)
        chunk = max(1, len(entries) // 8 + 1)
        jobs += [("players_html", entries[start:start + chunk]) for start in range(0, len(entries), chunk)]
        jobs += [("game_html", number) for number in plan.detailed]
        jobs.append(("index", None))
        if plan.venue_pages is not None:
            jobs.append(("venues_html", None))
    if "csv" in plan.formats or "xlsx" in plan.formats:
        jobs.append(("tables", None))
    return jobs


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
                    slips_per_pad: int = SLIPS_PER_PAD) -> Publication:
    """Write the publication of a tournament (or of one game) into the folder ``out``.

    ``game``: a game number, or None for every game; ``formats``: any of ``FORMATS``;
    ``tournament_id``: None for the newest tournament; ``workers``: processes (default:
    CPUs; 1 = in this process); ``slips_per_pad``: slips per player in the pads (II.8: 30).
    Existing files of the same names are replaced; others in ``out`` are left alone.
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
    field = service.field_standings(info.id)        # every figure of every page and file reads these (issue 35)
    results = collect_results(service, info.id, field=field)
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
    shutil.copyfile(TEMPLATES / "estilo.css", out / "estilo.css")
    alphabet = spanish()     # the tile set of the boards, as collect_results (I.2)
    replays = {number: replay_of_results(_game_of(results, number), service.rounds(number, info.id), alphabet)
               for number in detailed} if "html" in chosen else {}
    venue_pages = collect_venue_pages(service, info.id, numbers, field) if "html" in chosen else None
    plan = _Plan(out, results, info.games, detailed, chosen, seats, slips_per_pad, replays, venue_pages)
    jobs = _jobs(plan)
    _PLAN = plan
    try:
        files = [Path("estilo.css")]
        # Default: one process per CPU — but never fork a process that runs other threads (a TUI
        # worker, a server): a child could inherit a lock held by one of them.
        count = workers if workers is not None else (os.cpu_count() or 1) if threading.active_count() == 1 else 1
        if count > 1 and len(jobs) > 1 and "fork" in multiprocessing.get_all_start_methods():
            with multiprocessing.get_context("fork").Pool(min(count, len(jobs))) as pool:
                for written in pool.imap_unordered(_run, jobs):
                    files += written
        else:
            for job in jobs:
                files += _run(job)
    finally:
        _PLAN = None
    for folder in (PLAYER_FOLDER, PDF_FOLDER, DATA_FOLDER):
        if not any((out / folder).iterdir()):
            (out / folder).rmdir()
    return Publication(out, tuple(sorted(files)), time.perf_counter() - started)


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
