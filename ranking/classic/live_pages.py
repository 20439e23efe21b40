"""The live pages of a tournament's classic divisions (issue 37: «for classic events the
pairings and results of each round»), added to the duplicate live site
(``duplicate.publishing.live_pages.LiveSite``) that ``duplicada live`` serves and mirrors.

``with_classic_pages(site, service, tournament_id)`` reads every classic division of the
tournament through the classic service (``ClassicService.like(service)``: the same one
record) and returns ``site`` with, per division, in its folder (``clasica/`` for a
tournament's unnamed division, ``clasica-SLUG/`` for a named one, ``division_folders``):

===================================  ===========================================================
page                                 what
===================================  ===========================================================
``index.html``                       the standings after the rounds complete (wins, then spread,
                                     then the division's tie-breaks: the service's standings)
``ronda-N.html``                     round N's pairings by table (with the byes and who does not
                                     play), from the moment it is paired; each board's result
                                     as entered; the round's state (provisional / complete)
``clasificacion-ronda-N.html``       the standings after round N, once round N is complete
``cruces.html``                      the cross-table of the rounds complete
``jugadores/jugador-N.html``         each player's scorecard over the rounds complete
===================================  ===========================================================

and, on ``directo.html`` and the tournament's ``index.html``, a section «Modalidad
clásica» linking each division with the state of its current round.

**What is public when** (an arbiter's choice; C.06 9.b, C.04 D.7–D.10 in
``../shared/rules``): a round's pairings once the judge has paired it (C.06 9.b: made
public as soon as possible; C.04 D.10: not changed once published). A board's result once
a station has entered it, marked provisional until the round is complete, as live boards
do in FIDE practice while games finish; a Scrabble result slip is signed at the table by
both players, so an entered result is one the two agreed on, and a correction (C.04 D.8)
shows as soon as it is entered. A board where two stations typed different scores (a
conflict for the judge) shows «resultado por comprobar» and neither score, until the judge
settles it (as a claim is never shown before it is resolved). The standings, the
cross-table and the scorecards count only the rounds complete (every result in, no
conflict: what the service's ``standings`` and the next pairing count), so a standings
page never mixes a half-played round. Never shown: the judge's notes on a pairing (their
reasons), ratings, titles, federation ids, byes asked for a round not yet paired, PINs.
Names are text: autoescaped with hidden characters made visible (``published_value``).

The templates are the classic publication's (``ranking.classic.publish``), with the live
page's base: the live script (``live_script``: the server's ``/eventos`` stream) and the
``<noscript>`` refresh, and the site's one ``estilo.css``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from duplicate.publishing.live_pages import CURRENT_PAGE, LiveSite, live_script
from duplicate.publishing.venue_pages import SLUG_LIMIT, file_slugs
from duplicate.service.facade import TournamentService
from ranking.classic.publish import classic_environment, event_values, not_playing, player_card
from ranking.classic.service import ClassicService
from ranking.classic.standings import StandingLine
from ranking.classic.views import BoardView, EventSnapshot, system_name

__all__ = ["CLASSIC_FOLDER", "SECTION_END", "SECTION_START", "ClassicRound", "division_folders",
           "with_classic_pages"]

CLASSIC_FOLDER = "clasica"
"""The folder of a tournament's unnamed division; a named one's is ``clasica-SLUG``."""

SECTION_START = "<!-- modalidad clásica -->\n"
SECTION_END = "<!-- fin de la modalidad clásica -->\n"
"""The marks around the section added to ``directo.html`` and ``index.html`` (the section
is replaced, not added twice, when a page built before already holds it)."""

_PAGES_WITH_SECTION = (CURRENT_PAGE, "index.html")


@dataclass(frozen=True)
class ClassicRound:
    """The state of a paired round as its live page says it: ``complete`` (every result in,
    no conflict, and every round before it complete), boards with a result ``entered`` (a
    forfeit counts; a board in conflict does not) of its ``tables`` (the bye aside),
    ``conflicts``."""

    complete: bool
    entered: int
    tables: int
    conflicts: int


@dataclass(frozen=True)
class _DivisionLink:
    """A line of the section: the division's ``folder``, ``title``, ``system`` and ``state``
    in Spanish, and its ``current`` round (0: none paired)."""

    folder: str
    title: str
    system: str
    state: str
    current: int


def division_folders(names: list[str]) -> dict[str, str]:
    """Each division name → its folder in the live site, in the order given: ``""`` →
    ``clasica``, ``"Élite"`` → ``clasica-elite``, ``"★"`` → ``clasica-division``; distinct
    (``-2``, ``-3``… after a repeat), ASCII letters, digits and hyphens only (a name is never
    a path), at most ``SLUG_LIMIT`` characters after ``clasica-``. Never raises."""
    folders = {"": CLASSIC_FOLDER} if "" in names else {}
    return folders | file_slugs([name for name in names if name], fallback="division", prefix=f"{CLASSIC_FOLDER}-",
                                reserved=[CLASSIC_FOLDER])


def _round_state(boards: tuple[BoardView, ...], complete: bool) -> ClassicRound:
    played = [b for b in boards if b.second != 0]                  # the bye aside
    entered = [b for b in played if not b.conflict and (
        b.forfeit is not None or (b.first_score is not None and b.second_score is not None))]
    return ClassicRound(complete, len(entered), len(played), sum(1 for b in played if b.conflict))


def _shown(boards: tuple[BoardView, ...]) -> tuple[BoardView, ...]:
    """The boards as the live page shows them: a board in conflict without its scores."""
    return tuple(replace(b, first_score=None, second_score=None) if b.conflict else b for b in boards)


def _state_text(snapshot: EventSnapshot) -> tuple[str, int]:
    """The Spanish state of a division and its current round (0: none paired)."""
    paired = len(snapshot.rounds_boards)
    if paired == 0:
        return "aún sin emparejar", 0
    if snapshot.played == snapshot.rounds:
        return "terminada: clasificación final", paired
    if snapshot.played >= paired:
        return f"ronda {paired} de {snapshot.rounds} completa", paired
    state = _round_state(snapshot.rounds_boards[paired - 1], False)
    conflicts = f", {state.conflicts} por comprobar" if state.conflicts else ""
    return (f"ronda {paired} de {snapshot.rounds} en juego: {state.entered} de {state.tables} "
            f"{'partida' if state.tables == 1 else 'partidas'} con resultado{conflicts}"), paired


def _with_section(page: str, section: str, first: bool) -> str:
    """``page`` with ``section`` inside its ``<main>`` (right after the page's ``<h1>`` when
    ``first``: a tournament with no duplicate game; else before ``</main>``), any section
    added before removed first; ``page`` unchanged when it has no ``<main>``."""
    start = page.find(SECTION_START)
    if start >= 0:
        end = page.find(SECTION_END, start)
        if end >= 0:
            page = page[:start] + page[end + len(SECTION_END):]
    if not section:
        return page
    main = page.find("<main>")
    if first and main >= 0:
        heading = page.find("</h1>", main)
        if heading < 0:
            at = main + len("<main>")
        else:
            at = heading + len("</h1>")
            if page.startswith("\n", at):
                at += 1
            else:                                   # a heading with nothing after it
                section = "\n" + section
        return page[:at] + section + page[at:]
    at = page.rfind("</main>")
    return page if at < 0 else page[:at] + section + page[at:]


def with_classic_pages(site: LiveSite, service: TournamentService, tournament_id: int | None = None, *,
                       previous: LiveSite | None = None, now: datetime | None = None) -> LiveSite:
    """``site`` (the tournament's duplicate live pages, ``live_site``) with the live pages
    of the tournament's classic divisions added and the section linking them on
    ``directo.html`` and ``index.html`` (module docstring: what is public when); ``site``
    itself when the tournament has no classic division. Read now through ``service``
    (``tournament_id`` None: the newest). ``previous``: the site built before, whose
    classic pages are kept where rendered from equal values (a standings page after an
    earlier round is not computed again); ``now``: the time the footers show (default:
    now). Raises ``TournamentError`` for an unknown tournament, ``DamagedData`` for a
    damaged record."""
    classic = ClassicService.like(service)
    info = service.tournament(tournament_id)
    divisions = classic.divisions(info.id)
    if not divisions:
        return site
    environment = classic_environment()
    generated_at = now or datetime.now()
    pages = dict(site.pages)
    sources = dict(site.sources)
    before = previous.sources if previous is not None else {}
    folders = division_folders([division.name for division in divisions])
    links = []
    for division in divisions:
        snapshot = classic.snapshot(division=division.name, tournament_id=info.id)
        folder = folders[division.name]
        event = event_values(snapshot, generated_at=generated_at, live=True, site_root="../")
        header = (snapshot.name, snapshot.division, snapshot.system, len(snapshot.rounds_boards))
        unchanged = {key: value for key, value in event.items() if key != "generated_at"}

        def render(name: str, template: str, key: Any, root: str = "", values: dict[str, Any] | None = None,
                   **context: Any) -> None:
            """Page ``name`` of the division: the previous build's when rendered from a
            ``key`` equal to this one, else rendered now (``values``: ``e``, default the
            division's)."""
            path = f"{folder}/{name}"
            sources[path] = key
            if previous is not None and path in previous.pages and before.get(path, _NOTHING) == key:
                pages[path] = previous.pages[path]
                return
            pages[path] = environment.get_template(template).render(
                e=event if values is None else values, root=root, live_script=live_script("../" + root, path),
                **context)

        render("index.html", "index.html", ("index", unchanged))
        render("cruces.html", "cruces.html", ("cruces", unchanged))
        for boards in snapshot.rounds_boards:
            if not boards:
                continue
            number = boards[0].round
            shown = _shown(boards)
            absent = not_playing(snapshot, boards)
            state = _round_state(boards, number <= snapshot.played)
            render(f"ronda-{number}.html", "ronda.html", ("ronda", header, shown, absent, state), number=number,
                   boards=shown, absent=absent, state=state)
        for number in range(1, snapshot.played + 1):
            name = f"clasificacion-ronda-{number}.html"
            lines = _standings_after(classic, snapshot, number, before.get(f"{folder}/{name}"), info.id)
            inputs = _inputs(snapshot, number)
            after = {**event, "standings": lines, "played": number, "finished": number == snapshot.rounds}
            render(name, "index.html", ("clasificacion", header, inputs, lines), values=after)
        for player in snapshot.players:
            card = player_card(snapshot, player)
            render(f"jugadores/jugador-{player.number}.html", "jugador.html", ("jugador", header, card),
                   root="../", card=card)
        said, current = _state_text(snapshot)
        title = f"División {snapshot.division}" if snapshot.division else "Clasificación"
        links.append(_DivisionLink(folder, title, system_name(snapshot.system), said, current))
    section = SECTION_START + environment.get_template("directo.html").render(divisions=links) + "\n" + SECTION_END
    for name in _PAGES_WITH_SECTION:
        if name in pages:
            pages[name] = _with_section(pages[name], section, first=not info.games)
    return replace(site, pages=pages, sources=sources)


def _inputs(snapshot: EventSnapshot, number: int) -> tuple[Any, ...]:
    """What the standings after round ``number`` are computed from (the service's
    ``standings``): players, the boards of rounds 1 to ``number``, byes asked for, settings,
    players whose results are annulled (C.06 11), rounds planned and system."""
    absences = tuple(sorted(snapshot.absences.items()))
    return (snapshot.players, snapshot.rounds_boards[:number], absences, snapshot.settings, snapshot.annulled,
            snapshot.rounds, snapshot.system)


def _standings_after(classic: ClassicService, snapshot: EventSnapshot, number: int, before: Any,
                     tournament_id: int) -> tuple[StandingLine, ...]:
    """The standings after round ``number``: the snapshot's for the last round complete, the
    ones computed for the previous build when their inputs are equal, else the service's
    (``standings(played=number)``)."""
    if number == snapshot.played:
        return snapshot.standings
    inputs = _inputs(snapshot, number)
    if isinstance(before, tuple) and len(before) == 4 and before[2] == inputs:
        return tuple(before[3])
    return tuple(classic.standings(division=snapshot.division, played=number, tournament_id=tournament_id))


_NOTHING = object()
"""A value equal to no key."""
