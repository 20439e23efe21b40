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
stream names); ``write_mirror`` writes the pages into a folder, each file atomically.

**Costs that grow with what changed** (issue 37: 2 s from the event to the browser):
``live_site(previous=…)`` keeps each game's results read before while the game's newest
event and the tournament's are the same (``TournamentService.last_event_ids``: every
change of the record is an event), so a round closed reads that game again, not the
others; and it keeps every page whose values are equal to those it was rendered from.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from jinja2 import Environment

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

__all__ = ["CURRENT_PAGE", "EVENTS_PATH", "NOSCRIPT_REFRESH", "PRIVATE_KINDS", "PRIVATE_WHILE_OPEN", "KeptGame",
           "LiveSite", "changed_pages", "live_changed", "live_script", "live_site", "live_version", "main_of",
           "shows_change", "write_mirror"]

CURRENT_PAGE = "directo.html"
"""The page of the game being played."""

EVENTS_PATH = "eventos"
"""The server-sent events stream, relative to the site's root (``event: cambio``)."""

NOSCRIPT_REFRESH = 30
"""Seconds between refreshes of a page in a browser without JavaScript."""


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
    page, fetches the page again and replaces its ``<main>`` (no full reload). EventSource
    reconnects by itself after a network cut; where there is no stream (a static mirror:
    the connection fails for good), the page reloads itself every ``NOSCRIPT_REFRESH``
    seconds. Does nothing in a browser without EventSource or fetch."""
    url, name = json.dumps(root + EVENTS_PATH), json.dumps(page)
    return ("(function () {\n"
            "  if (!window.EventSource || !window.fetch || !window.DOMParser) { return; }\n"
            f"  var source = new EventSource({url}), page = {name};\n"
            "  source.addEventListener(\"cambio\", function (event) {\n"
            "    var changed = JSON.parse(event.data).paginas || [];\n"
            "    if (changed.indexOf(page) < 0) { return; }\n"
            "    fetch(window.location.pathname, {cache: \"no-store\"}).then(function (answer) {\n"
            "      return answer.ok ? answer.text() : null;\n"
            "    }).then(function (text) {\n"
            "      if (text === null) { return; }\n"
            "      var fresh = new DOMParser().parseFromString(text, \"text/html\");\n"
            "      var main = fresh.querySelector(\"main\"), shown = document.querySelector(\"main\");\n"
            "      if (main && shown) { shown.replaceWith(main); document.title = fresh.title; }\n"
            "    }).catch(function () {});\n"
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


def write_mirror(site: LiveSite, folder: Path, previous: LiveSite | None = None) -> list[Path]:
    """Write every page of ``site`` into ``folder`` (created if needed; with ``previous``,
    the pages written before into it, only those whose text changed), each atomically: a
    temporary file beside it, then ``os.replace`` — a reader (a web server, rsync) sees the
    old page or the new one, never half of one (issue 37 «static mirror»). A ``folder`` that
    is, or holds, a symbolic link or a hard-linked file is refused as ``publish`` refuses
    it (``InvalidFile``, Spanish, naming it); ``OSError`` when it cannot be written (no
    temporary file is left behind). Returns the paths written (relative to ``folder``)."""
    refuse_links(folder)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in sorted(site.pages.items()):
        if previous is not None and previous.pages.get(name) == text:
            continue
        target = folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=".directo-", suffix=".tmp")
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as stream:
                stream.write(text)
            os.replace(temporary, target)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
        written.append(Path(name))
    return written


@dataclass(frozen=True)
class _Now:
    """What ``directo.html`` shows of the current game (module docstring: never early)."""

    game: int
    over: bool
    end_reason: str
    rack_number: int | None
    rack: str
    next_round: int
    clock: str
    clock_seconds: int
    clock_running: bool
    master_round: int | None
    master: str
    master_score: int
    master_cumulative: int
    board: tuple[tuple[BoardCell, ...], ...]


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


def _clock_text(seconds: float) -> str:
    whole = max(0, int(seconds))
    return f"{whole // 60}:{whole % 60:02d}"


def _current_game(info: TournamentInfo) -> int | None:
    """The game being played: the first in play, else the last one with rounds, else the last."""
    playing = [game.number for game in info.games if game.status == GameStatus.PLAYING.value]
    if playing:
        return playing[0]
    started = [game.number for game in info.games if game.rounds]
    if started:
        return started[-1]
    return info.games[-1].number if info.games else None


def _now(view: GameView) -> _Now:
    rack = view.rack
    last = view.last
    clock = view.clock
    return _Now(view.number, view.over, view.end_reason, rack.number if rack is not None else None,
                "".join(tile.text for tile in rack.tiles) if rack is not None else "", view.round_number,
                _clock_text(clock.remaining) if clock is not None else "",
                int(clock.remaining) if clock is not None else 0, bool(clock is not None and clock.running),
                last.number if last is not None else None, last.master if last is not None else "",
                last.score if last is not None else 0, last.cumulative if last is not None else 0,
                _board_rows(view.board, last.squares if last is not None else frozenset()))


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
    render(CURRENT_PAGE, "live.html",
           now=_now(service.game_view(current, info.id, tops=None)) if current is not None else None)
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

    for entry, player in results.players.items():
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
