"""The live public pages of a tournament (issue 37): one more projection of the event log.

``live_site(service, tournament_id=None)`` reads the tournament through the service (the
one authority) and renders, in memory, the pages a public web server (``duplicada live``)
or a static mirror serves:

==============================  ====================================================================
page                            what
==============================  ====================================================================
``directo.html``                the current game: round, the rack once the judge has drawn or set it
                                (the projection shows it then, III.12, III.17), the shared clock
                                (III.13) as last recorded, the board with the last master once it is
                                placed (III.16)
``index.html``                  the tournament standings (IV.31) of the closed rounds
``partida-N.html``              a game's closed rounds: every player's points, bonuses (III.24),
                                rounds scored 0 and why (III.23, III.25), round and cumulative
                                standings; ``partida-N-parciales.html`` (III.26) and
                                ``partida-N-repeticion.html`` (every player's move of each round)
``jugadores/jugador-ID.html``   each player's page (II.9), every closed round of every game
``sedes.html``, ``sede-*.html``  with venues (issue 27 §2): the whole field and each venue
``estilo.css``                  the stylesheet
==============================  ====================================================================

**Never early** (issue 37): a rack appears once drawn (``game_view``: a rack in play),
never the tops the generator found; a master once placed; a slip, a score, a bonus or a
standing only once its round is closed (``field_standings(closed_only=True)``,
``collect_results(closed_only=True)``: the same standings functions over the closed
rounds); claims are never shown (a resolved claim shows only through the slip it
corrected); no PIN is read; no federation id is shown. Names are text: the templates
autoescape them and show hidden characters visibly (``published_value``).

The templates, macros and styles are those of the published site
(``duplicate.publishing.site``); every page links ``estilo.css`` and nothing outside. Each
page carries a small inline script that follows the server's ``/eventos`` stream
(server-sent events) and replaces the page's ``<main>`` when the record moves, and, for
browsers without JavaScript, a ``<noscript>`` refresh every ``NOSCRIPT_REFRESH`` seconds.
``live_version(service, tournament_id)`` is the cheap check (one query: the log's last
event id) a server polls to know when to call ``live_site`` again; ``live_changed`` (one
query) tells whether the events since the pages were built may show at all (a slip entered
in an open round, a claim filed, a PIN set do not: ``shows_change``), so that a server
rebuilds nothing for them; ``changed_pages`` says which pages' ``<main>`` moved (what the
stream names); ``write_mirror`` writes the pages into a folder, each file atomically, leaves
unchanged files alone and deletes the pages it wrote before that are gone (its manifest
``MIRROR_MANIFEST``; nothing else).

**Costs that grow with what changed** (issue 37: 2 s from the event to the browser):
``live_site(previous=…)`` keeps each game's results read before while the game's newest
event and the tournament's are the same (``TournamentService.last_event_ids``: every
change of the record is an event), so a round closed reads that game again, not the
others; and it keeps every page whose values are equal to those it was rendered from.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from jinja2 import Environment

from data.rules import ROUND_SECONDS
from duplicate.publishing.file_writes import holds, write_atomically
from duplicate.publishing.live_clock import CLOCK_SCRIPT, LiveClock, live_clock
from duplicate.publishing.replay_pages import ReplayRound, replay_of_results, replay_page_name
from duplicate.publishing.result_values import GAME_STATUS_LABELS, BoardCell, GameResults
from duplicate.publishing.results import collect_results
from duplicate.publishing.site import PLAYER_FOLDER, TEMPLATES, refuse_links, render_environment
from duplicate.publishing.venue_pages import ALL_VENUES_PAGE, collect_venue_pages
from duplicate.record.event_kinds import EventKind
from duplicate.rules.statuses import GameStatus
from duplicate.service.facade import TournamentService
from duplicate.service.field_standings import FieldStandings
from duplicate.service.views import BoardCells, GameInfo, GameView, LoggedChange, TournamentInfo
from lexicon.alphabet import spanish

__all__ = ["CATCH_UP_MILLISECONDS", "CLOCK_PAGES", "CURRENT_PAGE", "EVENTS_PATH", "MIRROR_MANIFEST", "NOSCRIPT_REFRESH",
           "PRIVATE_KINDS", "PRIVATE_WHILE_OPEN", "PROJECTION_PAGE", "PROJECTION_STYLE", "KeptGame", "LiveSite",
           "changed_pages", "live_changed", "live_script", "live_site", "live_version", "main_of", "shows_change",
           "write_mirror"]

CURRENT_PAGE = "directo.html"
"""The page of the game being played."""

EVENTS_PATH = "eventos"
"""The server-sent events stream, relative to the site's root (``event: cambio``)."""

NOSCRIPT_REFRESH = 30
"""Seconds between refreshes of a page in a browser without JavaScript."""

PROJECTION_PAGE = "proyeccion.html"
"""The page for the venue's projector (what the terminal projection shows), full screen."""

PROJECTION_STYLE = "proyeccion.css"
"""The projection page's own stylesheet (viewport units: it fills any screen)."""

CLOCK_PAGES = (CURRENT_PAGE, PROJECTION_PAGE)
"""The pages whose script ticks the round clock (``live_clock.CLOCK_SCRIPT``)."""

CATCH_UP_MILLISECONDS = 1000
"""A page requested less than this after the pages in memory were built (server time, as
the browser estimates it) is fetched once more when its stream opens (``live_script``):
the margin covers the estimate's error (the network's delay)."""


@dataclass(frozen=True)
class LiveSite:
    """The live pages at one point of the log: ``version`` the tournament's last event id
    when they were read (``live_version``), ``pages`` relative path (``"index.html"``,
    ``"jugadores/jugador-3.html"``…) → the page's text (HTML or CSS)."""

    version: int
    pages: dict[str, str]
    sources: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)
    """Page → the values it was rendered from (a game's pages: its ``GameResults`` and what
    their header shows; a player's page: the player's lines): ``live_site(previous=…)``
    reuses a page whose values are equal."""
    games: dict[int, KeptGame] = field(default_factory=dict, compare=False, repr=False)
    """Game number → its results as read and under which key: ``live_site(previous=…)``
    keeps them (and the players' sections rendered from them) instead of reading the game
    again when its key is equal (``_game_key``: the game's newest event and the
    tournament's, which move with every change of its data)."""
    replays: dict[tuple[int, int], tuple[Any, Any]] = field(default_factory=dict, compare=False, repr=False)
    """(game, round) → the values a round's section of the replay page was rendered from
    and the section (``_round_sections``)."""


@dataclass(frozen=True)
class KeptGame:
    """A game's results kept between two builds (``LiveSite.games``): the ``key`` they were
    read under (``_game_key``), the ``results`` and ``sections``: entry id → that player's
    section of the game on the player's page (the ``hoja`` macro), filled as rendered."""

    key: Any
    results: GameResults
    sections: dict[int, Any] = field(default_factory=dict)


def live_version(service: TournamentService, tournament_id: int | None = None) -> int:
    """The tournament's last event id (0 before any event): it moves whenever the record
    does, so the pages are rebuilt only then. One query (two with ``tournament_id=None``:
    the newest tournament is looked up first). Raises ``TournamentError`` for an unknown
    tournament."""
    return service.last_event_id(tournament_id)


PRIVATE_KINDS = frozenset({EventKind.CLAIM_FILED, EventKind.PIN_CHANGED, EventKind.ASSISTANT_RANGE,
                           EventKind.SIGNING_KEY_MADE, EventKind.VENUE_KEY_REGISTERED})
"""Kinds of event that change no live page (never early: no claim before it is resolved,
no PIN, no assistant's tables, no key)."""

PRIVATE_WHILE_OPEN = frozenset({EventKind.SLIP_ENTERED, EventKind.SLIP_CONFLICT, EventKind.SLIP_CHECKED,
                                EventKind.SLIP_CORRECTED, EventKind.CONFLICT_RESOLVED})
"""Kinds of event that change no live page while their round is open (no slip before its
round is closed); in a closed round (the judge correcting it, III.27) they do."""


def shows_change(changes: Iterable[LoggedChange]) -> bool:
    """Whether some of ``changes`` (``TournamentService.changes_after``) may change a live
    page: every kind but ``PRIVATE_KINDS``, and ``PRIVATE_WHILE_OPEN`` in a round closed
    now (or with no round). An unknown kind does (a rebuild too many is harmless; a
    rebuild too few would keep a public change from the browsers)."""
    return any(change.kind not in PRIVATE_KINDS
               and not (change.kind in PRIVATE_WHILE_OPEN and change.round is not None and not change.round_closed)
               for change in changes)


def live_changed(service: TournamentService, tournament_id: int | None, since: int, upto: int) -> bool:
    """Whether the events after ``since`` up to ``upto`` (versions, ``live_version``) may
    change a live page (``shows_change``); one query. When not, the pages built at
    ``since`` are those of ``upto``. Raises ``TournamentError`` for an unknown tournament."""
    return shows_change(service.changes_after(since, upto, tournament_id))


def live_script(root: str, page: str) -> str:
    """The inline script of the live page ``page`` (its path in the site, e.g.
    ``"jugadores/jugador-3.html"``) whose site root is ``root`` (``""`` or ``"../"``): it
    listens to ``root + EVENTS_PATH`` and, on each ``cambio`` whose ``paginas`` name this
    page, fetches the page again and replaces its ``<main>`` (no full reload).

    The stream's first event (``version``: ``{"version", "hora", "hecho"}``, server times
    in ms) gives the offset of the browser's clock (``hora``, for the round clock) and
    catches up a change the page could have missed: on the first connection, when the
    pages in memory were built (``hecho``) less than ``CATCH_UP_MILLISECONDS`` before this
    page was requested, or after (the page may predate them: the stream opens only once
    the page has loaded); on a reconnection after a cut, when the version moved. Then the
    page is fetched once more. EventSource reconnects by itself after a network cut. Where
    there is no stream (a static mirror: the connection fails for good), the page reloads
    itself every ``NOSCRIPT_REFRESH`` seconds. On ``CLOCK_PAGES`` it also ticks the round
    clock (``live_clock.CLOCK_SCRIPT``). Does nothing in a browser without EventSource or
    fetch."""
    url, name = json.dumps(root + EVENTS_PATH), json.dumps(page)
    return ("(function () {\n"
            "  if (!window.EventSource || !window.fetch || !window.DOMParser) { return; }\n"
            f"  var source = new EventSource({url}), page = {name}, known = null, offset = 0;\n"
            "  var refreshed = function () {};\n"
            + (CLOCK_SCRIPT + "  refreshed = tick;\n" if page in CLOCK_PAGES else "") +
            "  function load() {\n"
            "    fetch(window.location.pathname, {cache: \"no-store\"}).then(function (answer) {\n"
            "      return answer.ok ? answer.text() : null;\n"
            "    }).then(function (text) {\n"
            "      if (text === null) { return; }\n"
            "      var fresh = new DOMParser().parseFromString(text, \"text/html\");\n"
            "      var main = fresh.querySelector(\"main\"), shown = document.querySelector(\"main\");\n"
            "      if (main && shown) { shown.replaceWith(main); document.title = fresh.title; refreshed(); }\n"
            "    }).catch(function () {});\n"
            "  }\n"
            "  source.addEventListener(\"version\", function (event) {\n"
            "    var data = JSON.parse(event.data), asked = window.performance && performance.timeOrigin;\n"
            "    if (typeof data.hora === \"number\") { offset = data.hora - Date.now(); refreshed(); }\n"
            "    var missed = known !== null ? data.version !== known\n"
            f"      : typeof data.hecho === \"number\" && !!asked && data.hecho + {CATCH_UP_MILLISECONDS} >= asked + offset;\n"
            "    known = data.version;\n"
            "    if (missed) { load(); }\n"
            "  });\n"
            "  source.addEventListener(\"cambio\", function (event) {\n"
            "    var change = JSON.parse(event.data);\n"
            "    known = change.version;\n"
            "    if ((change.paginas || []).indexOf(page) >= 0) { load(); }\n"
            "  });\n"
            "  source.onerror = function () {\n"
            "    if (source.readyState === 2) {\n"
            f"      window.setTimeout(function () {{ window.location.reload(); }}, {NOSCRIPT_REFRESH * 1000});\n"
            "    }\n"
            "  };\n"
            "})();")


def main_of(page: str) -> str:
    """The ``<main>`` of a live page's text (what the script replaces); the whole text for
    a page without one (the stylesheet)."""
    start, end = page.find("<main>"), page.rfind("</main>")
    return page[start:end] if 0 <= start < end else page


def changed_pages(before: LiveSite | None, after: LiveSite) -> list[str]:
    """The pages of ``after`` whose ``main_of`` differs from ``before``'s (or that are
    new), sorted; every page when ``before`` is None."""
    if before is None:
        return sorted(after.pages)
    return sorted(name for name, text in after.pages.items()
                  if name not in before.pages or main_of(before.pages[name]) != main_of(text))


MIRROR_MANIFEST = ".directo-paginas"
"""The file, in a mirror folder, listing the pages ``write_mirror`` wrote there (one
relative path a line, after a ``#`` comment line): the only files it ever deletes."""

MANIFEST_LIMIT = 16 * 1024 * 1024
"""Bytes of a manifest read at most (a bigger one is not ours: read as empty)."""

_MANIFEST_HEADER = "# duplicada live: páginas escritas en esta carpeta (se borran cuando dejan de existir)\n"


def write_mirror(site: LiveSite, folder: Path) -> list[Path]:
    """Make ``folder`` (created if needed) hold the pages of ``site`` (issue 37 «static
    mirror»), ready for rsync:

    * each page whose file differs is written atomically — a temporary file beside it, then
      ``os.replace``: a reader (a web server, rsync) sees the old page or the new one, never
      half of one; a file whose content is already the page's is left alone (its
      modification time kept, so rsync sends only what changed);
    * the pages it wrote before (listed in ``MIRROR_MANIFEST``) that are no longer in the
      site (a player removed, a venue renamed) are deleted, and the folders they leave
      empty. Nothing else is ever deleted: a file the club put in the folder stays, and a
      manifest line that is not a plain relative path inside the folder (``..``, an absolute
      path, a path through a link, not a regular file) is ignored, as is a manifest that
      cannot be read (nothing is deleted then). The manifest is written (atomically) with
      the old and the new pages before any page is, and with the new ones only after the
      deletions, so a write cut halfway still lists every page written.

    A ``folder`` that is, or holds, a symbolic link or a hard-linked file is refused as
    ``publish`` refuses it (``InvalidFile``, Spanish, naming it); ``OSError`` when it cannot
    be written (no temporary file is left behind). Returns the pages written this time
    (relative to ``folder``; not those left unchanged)."""
    refuse_links(folder)
    folder.mkdir(parents=True, exist_ok=True)
    manifest = folder / MIRROR_MANIFEST
    before = _read_manifest(manifest)
    names = set(site.pages)
    if not names <= before:                 # pages about to be written: listed first
        write_atomically(manifest, _manifest_text(before | names))
    written = []
    for name, text in sorted(site.pages.items()):
        target = folder / name
        data = text.encode("utf-8")
        if holds(target, data):
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(target, data)
        written.append(Path(name))
    for name in sorted(before - names):
        _remove_page(folder, name)
    listing = _manifest_text(names)
    if not holds(manifest, listing):
        write_atomically(manifest, listing)
    return written


def _manifest_text(names: set[str]) -> bytes:
    return (_MANIFEST_HEADER + "".join(f"{name}\n" for name in sorted(names))).encode("utf-8")


def _safe_page_name(line: str) -> str | None:
    """``line`` when it is a page path ``write_mirror`` could have written (relative, POSIX,
    no empty, ``.`` or ``..`` part, no control character, not the manifest or a temporary
    file), else None."""
    if not line or len(line) > 1000 or line.startswith("/") or any(ord(c) < 32 or c == "\x7f" for c in line):
        return None
    parts = line.split("/")
    if any(part in ("", ".", "..") or part.startswith(".directo-") for part in parts):
        return None
    return line


def _read_manifest(manifest: Path) -> set[str]:
    """The pages the manifest lists (its safe lines only, ``_safe_page_name``); empty when
    there is none or it cannot be read (not a regular file, too big, not UTF-8)."""
    try:
        status = manifest.lstat()
        if not stat.S_ISREG(status.st_mode) or status.st_size > MANIFEST_LIMIT:
            return set()
        text = manifest.read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return set()
    names = (_safe_page_name(line) for line in text.splitlines() if not line.startswith("#"))
    return {name for name in names if name is not None}


def _remove_page(folder: Path, name: str) -> None:
    """Delete the page ``name`` (a safe relative path) from ``folder`` when it is a regular
    file reached through real folders only, inside ``folder``; then the folders it leaves
    empty, up to ``folder`` (excluded). Anything else — missing, a link on the way, a
    folder, outside — is left alone; an error deleting is ignored (the page stays)."""
    parts = name.split("/")
    current = folder
    try:
        for part in parts[:-1]:
            current = current / part
            if not stat.S_ISDIR(current.lstat().st_mode):
                return
        target = current / parts[-1]
        if not stat.S_ISREG(target.lstat().st_mode):
            return
        root = os.path.realpath(folder)
        if os.path.commonpath([root, os.path.realpath(target)]) != root:
            return
        target.unlink()
    except OSError:
        return
    parent = target.parent
    while parent != folder:
        try:
            parent.rmdir()                  # only when empty
        except OSError:
            return
        parent = parent.parent


@dataclass(frozen=True)
class _Now:
    """What ``directo.html`` and ``proyeccion.html`` show of the current game (module
    docstring: never early). ``tiles``: the rack in play as ``(text, blank, kept)``, the
    tiles kept from the last round first (III.17); ``clock`` the judge's clock of the rack
    in play, ``projection_clock`` the same or, before the judge starts it, the whole round
    stopped (``live_clock``); ``master_letters`` the last master's word as ``(character,
    blank)`` and ``master_square`` its coordinate."""

    game: int
    over: bool
    end_reason: str
    rack_number: int | None
    rack: str
    next_round: int
    clock: LiveClock | None
    master_round: int | None
    master: str
    master_score: int
    master_cumulative: int
    board: tuple[tuple[BoardCell, ...], ...]
    tiles: tuple[tuple[str, bool, bool], ...] = ()
    projection_clock: LiveClock | None = None
    master_square: str = ""
    master_letters: tuple[tuple[str, bool], ...] = ()


def _board_rows(board: BoardCells, new: frozenset[tuple[int, int]]) -> tuple[tuple[BoardCell, ...], ...]:
    """A board of the service's view as the ``tablero`` macro's rows."""
    rows = []
    for r, line in enumerate(board.rows):
        cells = []
        for c, square in enumerate(line):
            premium = ("tp" if square.word_premium == 3 else "dp" if square.word_premium == 2
                       else "tl" if square.letter_premium == 3 else "dl" if square.letter_premium == 2 else "")
            shown = square.shown or ""
            cells.append(BoardCell(shown, square.blank, premium, (r, c) in new, len(shown) > 1))
        rows.append(tuple(cells))
    return tuple(rows)


def _seconds_per_round(info: TournamentInfo, number: int) -> int:
    """Game ``number``'s round length (III.13; ``ROUND_SECONDS`` if not found)."""
    return next((game.seconds_per_round for game in info.games if game.number == number), ROUND_SECONDS)


def _current_game(info: TournamentInfo) -> int | None:
    """The game being played: the first in play, else the last one with rounds, else the last."""
    playing = [game.number for game in info.games if game.status == GameStatus.PLAYING.value]
    if playing:
        return playing[0]
    started = [game.number for game in info.games if game.rounds]
    if started:
        return started[-1]
    return info.games[-1].number if info.games else None


def _now(view: GameView, seconds_per_round: float) -> _Now:
    """The current game's ``view`` (``tops=None``) as the live pages show it;
    ``seconds_per_round`` the game's round length (III.13)."""
    rack = view.rack
    last = view.last
    number = rack.number if rack is not None else None
    square, _dash, word = last.master.partition("-") if last is not None else ("", "", "")
    return _Now(view.number, view.over, view.end_reason, number,
                "".join(tile.text for tile in rack.tiles) if rack is not None else "", view.round_number,
                live_clock(view.clock, number, seconds_per_round),
                last.number if last is not None else None, last.master if last is not None else "",
                last.score if last is not None else 0, last.cumulative if last is not None else 0,
                _board_rows(view.board, last.squares if last is not None else frozenset()),
                tuple((tile.text, tile.blank, True) for tile in rack.leftover)
                + tuple((tile.text, tile.blank, False) for tile in rack.drawn) if rack is not None else (),
                live_clock(view.clock, number, seconds_per_round, full_time=True),
                square if word else "", tuple((char, char.islower()) for char in (word or square)))


def live_site(service: TournamentService, tournament_id: int | None = None, *,
              previous: LiveSite | None = None) -> LiveSite:
    """Every live page of the tournament (``tournament_id``; None: the newest), read now
    through ``service`` (module docstring: what each page shows, never early). ``version``
    is read first, so the pages are at least as new as it. ``previous``: the pages built
    before: a game whose newest event and the tournament's are those of then
    (``_game_key``) is not read again (its results are kept, ``LiveSite.games``), and a
    page whose values are those of then is not rendered again (``LiveSite.sources``): a
    game finished earlier costs nothing at each event. The pages are the same, byte for
    byte, as without ``previous`` (the footer's time aside: a page kept keeps the time it
    was rendered at). Raises ``TournamentError`` for an unknown tournament, ``DamagedData`` for a
    damaged record."""
    info = service.tournament(tournament_id)
    version = live_version(service, info.id)
    marks = service.last_event_ids(info.id)
    standings = service.field_standings(info.id, closed_only=True)
    keys = {game.number: _game_key(game, marks, standings) for game in info.games}
    kept = previous.games if previous is not None else {}
    reuse = {number: kept[number].results for number, key in keys.items() if number in kept and kept[number].key == key}
    results = collect_results(service, info.id, field=standings, closed_only=True, federation_ids=False, reuse=reuse)
    collected = {game.number: KeptGame(keys[game.number], game, kept[game.number].sections if game.number in reuse
                                       else {}) for game in results.games}
    environment = _environment()
    pages: dict[str, str] = {"estilo.css": (TEMPLATES / "estilo.css").read_text(encoding="utf-8")}

    def render(name: str, template: str, root: str = "", **context: Any) -> None:
        pages[name] = environment.get_template(template).render(t=results, root=root, live=True,
                                                                 live_script=live_script(root, name), **context)

    numbers = [game.number for game in info.games]
    venue_pages = collect_venue_pages(service, info.id, numbers, standings)
    venue_links = venue_pages.links if venue_pages is not None else ()
    shown = {game.number for game in results.games if game.masters}
    render("index.html", "index.html", games_info=info.games, published=shown, status_labels=GAME_STATUS_LABELS,
           documents={}, general_documents=[], venue_links=venue_links)
    current = _current_game(info)
    now = (_now(service.game_view(current, info.id, tops=None), _seconds_per_round(info, current))
           if current is not None else None)
    render(CURRENT_PAGE, "live.html", now=now)
    render(PROJECTION_PAGE, "projection.html", now=now)
    pages[PROJECTION_STYLE] = (TEMPLATES / PROJECTION_STYLE).read_text(encoding="utf-8")
    alphabet = spanish()
    replays = dict(previous.replays) if previous is not None else {}
    header = (results.name, results.venue, results.start_date, results.end_date, results.all_games, results.settings)
    sources: dict[str, Any] = {}

    def reused(name: str, key: Any) -> bool:
        """Whether page ``name`` was rendered before from values equal to ``key`` (then kept)."""
        sources[name] = key
        if previous is None or name not in previous.pages or previous.sources.get(name, _NOTHING) != key:
            return False
        pages[name] = previous.pages[name]
        return True

    for game in results.games:
        key = (game, header, venue_pages is not None)
        name = f"partida-{game.number}.html"
        if not reused(name, key):
            render(name, "game.html", g=game, documents=[], replay=replay_page_name(game.number),
                   venue_link=f"{ALL_VENUES_PAGE}#partida-{game.number}" if venue_pages is not None else "")
        name = replay_page_name(game.number)
        if not reused(name, key):
            rounds = replay_of_results(game, service.rounds(game.number, info.id), alphabet)
            render(name, "replay.html", standalone=False, heading=f"Partida {game.number}",
                   game_link=f"partida-{game.number}.html", players=True, rounds=rounds,
                   sections=_round_sections(environment, game.number, rounds, replays),
                   summary=f"{len(game.masters)} rondas cerradas · jugada maestra {game.master_total} puntos")
        name = f"partida-{game.number}-parciales.html"
        if game.partials and not reused(name, key):
            render(name, "partials.html", g=game)
    overall = {line.player.entry_id: line for line in results.overall}
    lines = {game.number: {line.player.entry_id: line for line in game.standings} for game in results.games}
    hoja = environment.get_template("macros.html").module.hoja     # type: ignore[attr-defined]

    def section(game: GameResults, entry: int, line: Any, sheet: Any) -> Any:
        """The player's section of ``game`` (``hoja``), rendered once per results kept."""
        sections = collected[game.number].sections
        if entry not in sections:
            sections[entry] = hoja(game, line, sheet)
        return sections[entry]

    for entry, player in (results.players.items() if info.games else ()):   # no duplicate game: no page
        games = [(game, lines[game.number].get(entry), game.sheets.get(entry, ())) for game in results.games]
        name = f"{PLAYER_FOLDER}/{player.slug}.html"
        figures = [(game.number, game.status, game.master_total, line, sheet) for game, line, sheet in games]
        if not reused(name, (player, overall.get(entry), figures, header)):
            render(name, "player.html", root="../", p=player, overall=overall.get(entry), games=games,
                   sections=[section(game, entry, line, sheet) for game, line, sheet in games])
    if venue_pages is not None:
        for page in venue_pages.pages:
            player_pages = {key: slug for key, slug in venue_pages.player_pages.items() if key[1] in results.players}
            render(page.name, "venues.html", page=page, players=venue_pages.players, player_pages=player_pages,
                   links=venue_pages.links)
    return LiveSite(version, pages, sources, collected, replays)


def _round_sections(environment: Environment, number: int, rounds: Sequence[ReplayRound],
                    replays: dict[tuple[int, int], tuple[Any, Any]]) -> list[Any]:
    """Each round's section of game ``number``'s replay page (the ``ronda`` macro), kept in
    ``replays`` ((game, round) → (the values rendered, the section)): rendered again only
    when the round or its neighbours' numbers (the page's «anterior»/«siguiente») changed."""
    ronda = environment.get_template("macros.html").module.ronda       # type: ignore[attr-defined]
    sections = []
    for index, item in enumerate(rounds):
        previous = rounds[index - 1].number if index else None
        following = rounds[index + 1].number if index + 1 < len(rounds) else None
        key = (item, previous, following)
        kept = replays.get((number, item.number))
        if kept is None or kept[0] != key:
            kept = replays[(number, item.number)] = (key, ronda(item, previous, following, True))
        sections.append(kept[1])
    return sections


def _game_key(game: GameInfo, marks: dict[int | None, int], standings: FieldStandings) -> Any:
    """What a game's results (``collect_results``) are read from, as cheap values: the id
    of its newest event and of the tournament's newest event of no game
    (``last_event_ids``; every change of the record is an event: of the game when it
    touches only the game — its rounds, slips, seats, status, history —, of no game when
    it touches the tournament — players, settings, venues), its status and its lines of
    the whole field's standings (closed rounds). Equal keys: equal results (only the
    EloDI lines, read from the ratings, are read again)."""
    return (marks.get(game.number, 0), marks.get(None, 0), game.status, game.end_reason,
            standings.entry_game_standings(game.number), standings.entry_rounds(game.number))


@cache
def _environment() -> Environment:
    """The templates' environment, made once: each template is compiled once per process
    (``render_environment`` makes a new one, which compiles them again)."""
    return render_environment()


_NOTHING = object()
"""A value equal to no key (``reused``)."""
