"""``duplicada live`` in a real browser (issue 37): the pages change by themselves, come
back after a cut, the projection fills the screen, the clock ticks.

The browser is Debian's Chromium driven by Playwright (no browser download); the module is
skipped, saying so, where either is missing. One live server (a ``LiveServer`` on a free
port of the loopback, in a thread of its own with its event loop; it looks at the log every
50 ms) and one browser serve every test of the module; the record changes through the
service as the judge's console changes it (rack, master, slips, close, clock). A page is
marked (``window.__marca``) before the change and the mark is checked after it: the page
changed without a reload. Waits are Playwright's (for the text, the state), with a generous
cap; none is a length of time. The projection's screenshots go to the test's ``tmp_path``.
"""

from __future__ import annotations

import asyncio
import re
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web

from duplicate.publishing.live_pages import CURRENT_PAGE, PROJECTION_PAGE
from duplicate.service.facade import TournamentService
from duplicate.storage.database import open_database
from lexicon.lexicon import Lexicon
from tests.credentials import JUDGE_PIN
from tui.cli.live_server import LiveServer

pytestmark = pytest.mark.slow

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright no está instalado")
if CHROMIUM is None:
    pytest.skip("no hay chromium en esta máquina: la prueba en el navegador se omite", allow_module_level=True)

WAIT = 60_000
"""Milliseconds a wait may take at most (the issue's bound is 2 s; this is a busy machine)."""

PLAYERS = ("Ana Pérez", "Luis <b>Gil</b>", "Eva Sanz")

SIZES = ((1920, 1080), (1280, 720))
"""The projector sizes of the issue: full HD, and 720p where it must stay readable."""


class Served:
    """A ``LiveServer`` of ``service``'s tournament on ``port`` of the loopback, run by an
    event loop in a thread of its own; ``stop`` and ``start`` cut it and bring it back on
    the same port (a network cut, a restart)."""

    def __init__(self, service: TournamentService, tournament: int, port: int) -> None:
        self.service, self.tournament, self.port = service, tournament, port
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="directo-prueba", daemon=True)
        self.thread.start()
        self.runner: web.AppRunner | None = None
        self.server: LiveServer | None = None

    def _call(self, coroutine: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout=WAIT / 1000)

    def start(self) -> None:
        self.server = LiveServer(self.service.with_pin(None), self.tournament, host="127.0.0.1", port=self.port,
                                 poll_seconds=0.05)
        self.runner = self._call(self.server.start_site())

    def stop(self) -> None:
        if self.runner is not None:
            self._call(self.runner.cleanup())
            self.runner = None

    def close(self) -> None:
        self.stop()
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)
        self.loop.close()

    def url(self, page: str) -> str:
        return f"http://127.0.0.1:{self.port}/{page}"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory, spanish_lexicon: Lexicon) -> TournamentService:
    """The judge's service on a tournament of three players and a game of 12 rounds."""
    path = tmp_path_factory.mktemp("directo") / "t.db"
    judge = TournamentService(open_database(str(path)), station="mesa", lexicon=spanish_lexicon, pin=JUDGE_PIN)
    judge.create_tournament("Torneo en directo", venue="Valencia")
    for name in PLAYERS:
        judge.add_player(name, club="Club")
    judge.create_game(rounds=12, seed=5)
    return judge


@pytest.fixture(scope="module")
def served(service: TournamentService) -> Iterator[Served]:
    running = Served(service, service.tournament(None).id, free_port())
    running.start()
    try:
        yield running
    finally:
        running.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def context(browser: Any) -> Iterator[Any]:
    """A browser context of its own for a test (its pages closed after it)."""
    opened = browser.new_context(viewport={"width": 1280, "height": 900}, locale="es-ES")
    opened.set_default_timeout(WAIT)
    try:
        yield opened
    finally:
        opened.close()


def caught_up(served: Served, service: TournamentService) -> None:
    """Wait until the server's pages are those of the record's last event (a page opened
    just before a rebuild could miss its change: the stream opens after the page)."""
    deadline = time.monotonic() + WAIT / 1000
    while served.server is None or served.server.site is None \
            or served.server.site.version != service.last_event_id(served.tournament):
        assert time.monotonic() < deadline, "el servidor en directo no alcanzó el último evento"
        time.sleep(0.02)


def opened(context: Any, served: Served, page: str) -> Any:
    """``page`` of the live site, as of the record's last event, open in a new tab, the
    tab marked."""
    caught_up(served, served.service)
    tab = context.new_page()
    tab.goto(served.url(page))
    tab.evaluate("window.__marca = 1")
    return tab


def marked(tab: Any) -> bool:
    """Whether the tab still holds the mark set when it was opened (never reloaded)."""
    return bool(tab.evaluate("window.__marca === 1"))


def drawn(service: TournamentService) -> int:
    """The round whose rack is in play, drawn now if none is."""
    view = service.game_view(1, tops=None)
    if view.rack is None:
        service.draw_rack(1)
        view = service.game_view(1, tops=None)
    assert view.rack is not None
    return view.rack.number


def play_round(service: TournamentService, *, close: bool = True) -> tuple[int, str, int]:
    """A round played as the judge plays it: the rack drawn, the master chosen, Ana's slip
    (the master) entered, the round closed; ``(round, master, Ana's total)``."""
    number = drawn(service)
    placed = service.choose_master(1)
    assert placed.master is not None
    table = next(table for table, _entry, player in service.seats(1) if player.name == "Ana Pérez")
    service.enter_slip(1, table, placed.master)
    if close:
        service.close_round(1)
    view = service.game_view(1, tops=None)
    assert view.last is not None and view.last.number == number
    return number, placed.master, view.last.cumulative


def seconds_of(text: str) -> int:
    minutes, seconds = text.strip().split(":")
    return int(minutes) * 60 + int(seconds)


def test_a_closed_round_reaches_the_open_pages_without_a_reload(
        served: Served, service: TournamentService, context: Any) -> None:
    drawn(service)
    now, game, standings = (opened(context, served, page) for page in (CURRENT_PAGE, "partida-1.html", "index.html"))
    assert "Jugada maestra" not in now.locator("main").inner_text()
    number, master, total = play_round(service, close=False)
    word = master.split("-", 1)[1]
    now.locator("main strong.palabra", has_text=word).wait_for()          # the master, once placed
    assert f"Jugada maestra de la ronda {number}" in now.locator("main").inner_text()
    assert f">R{number}<" not in game.content()                            # no slip before the close
    service.close_round(1)
    game.locator("main th", has_text=f"R{number}").first.wait_for()
    ana = standings.locator("main tr", has_text="Ana Pérez")
    sync_api.expect(ana.locator("td.total")).to_have_text(str(total), timeout=WAIT)
    assert "Luis <b>Gil</b>" in standings.locator("main").inner_text()      # a name is text, never markup
    assert all(marked(tab) for tab in (now, game, standings))


def test_a_change_made_while_the_page_loads_is_caught_up(
        served: Served, service: TournamentService, context: Any) -> None:
    """The stream opens only once the page has loaded: a change made in between (here: the
    stream held back until the server has rebuilt) is not lost."""
    if service.game_view(1, tops=None).rack is not None:
        play_round(service)
    held: list[Any] = []
    tab = context.new_page()
    tab.route("**/eventos", lambda route: held.append(route))
    caught_up(served, service)
    tab.goto(served.url(CURRENT_PAGE))
    tab.evaluate("window.__marca = 1")
    assert "Esperando el atril" in tab.locator("main").inner_text()
    deadline = time.monotonic() + WAIT / 1000
    while not held:                                                        # the stream asked for, not yet open
        assert time.monotonic() < deadline, "la página no abrió su flujo de eventos"
        tab.wait_for_timeout(20)                                           # lets Playwright hand over the route
    number = drawn(service)                                                # the rack drawn meanwhile
    caught_up(served, service)
    held[0].continue_()
    tab.locator("main strong.atril").wait_for()
    assert f"Atril de la ronda {number}" in tab.locator("main").inner_text()
    assert marked(tab)


def test_the_page_comes_back_by_itself_after_a_cut(served: Served, service: TournamentService, context: Any) -> None:
    standings = opened(context, served, "index.html")
    ana = standings.locator("main tr", has_text="Ana Pérez").locator("td.total")
    before = int(ana.inner_text()) if ana.count() else 0
    served.stop()                                                          # the server goes away…
    _number, _master, during = play_round(service)                         # …a round closes meanwhile…
    assert during > before
    served.start()                                                         # …and it is back on the same port
    sync_api.expect(ana).to_have_text(str(during), timeout=WAIT)           # the change missed is caught up
    _number, _master, after = play_round(service)                          # and the new stream follows
    sync_api.expect(ana).to_have_text(str(after), timeout=WAIT)
    assert marked(standings)


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_the_projection_fills_the_screen_and_is_readable(
        served: Served, service: TournamentService, browser: Any, tmp_path: Path, width: int, height: int) -> None:
    if service.game_view(1, tops=None).last is None:
        play_round(service)
    number = drawn(service)
    view = service.game_view(1, tops=None)
    assert view.rack is not None and view.last is not None
    rack = [tile.text for tile in view.rack.tiles]
    square, word = view.last.master.split("-", 1)
    caught_up(served, service)
    page = browser.new_page(viewport={"width": width, "height": height})
    try:
        page.set_default_timeout(WAIT)
        page.goto(served.url(PROJECTION_PAGE))
        page.locator(".atril-sala .ficha").first.wait_for()
        page.screenshot(path=str(tmp_path / f"proyeccion-{width}x{height}.png"))
        seen = page.evaluate("""() => {
            const box = (selector) => { const r = document.querySelector(selector).getBoundingClientRect();
                                        return [r.left, r.top, r.right, r.bottom]; };
            const root = document.documentElement;
            return {scroll: [root.scrollWidth, root.scrollHeight, window.innerWidth, window.innerHeight],
                    board: box(".tablero-sala"), rack: box(".atril-sala"), clock: box(".crono .tiempo"),
                    master: box(".maestra-sala"),
                    letter: parseFloat(getComputedStyle(document.querySelector(".atril-sala .ficha")).fontSize),
                    cell: document.querySelector(".tablero-sala tbody td").getBoundingClientRect().height,
                    tiles: [...document.querySelectorAll(".atril-sala .ficha")].map(
                        (tile) => [tile.textContent, tile.classList.contains("resto")]),
                    word: document.querySelector(".maestra-sala .palabra").textContent,
                    square: document.querySelector(".maestra-sala .casilla").textContent,
                    heading: document.querySelector("h1 .ronda").textContent};
        }""")
    finally:
        page.close()
    scroll_width, scroll_height, inner_width, inner_height = seen["scroll"]
    assert (inner_width, inner_height) == (width, height)
    assert scroll_width <= width and scroll_height <= height                # no scroll bar either way
    for part in ("board", "rack", "clock", "master"):
        left, top, right, bottom = seen[part]
        assert 0 <= left < right <= width and 0 <= top < bottom <= height, (part, seen[part])
    board_left, board_top, board_right, board_bottom = seen["board"]
    assert board_bottom - board_top >= 0.8 * height                         # the board is large…
    assert seen["cell"] >= 0.045 * height
    assert seen["letter"] >= 0.05 * height                                  # …the rack's letters huge
    assert [text for text, _kept in seen["tiles"]] == rack
    assert [kept for _text, kept in seen["tiles"]] == [True] * len(view.rack.leftover) + [False] * len(view.rack.drawn)
    assert (seen["square"], seen["word"]) == (square, word)
    assert seen["heading"] == f"Partida 1 · ronda {number}"


def test_the_clock_ticks_down_without_a_reload(served: Served, service: TournamentService, context: Any) -> None:
    drawn(service)
    service.record_timer(1, "reset", 180.0)
    now = opened(context, served, CURRENT_PAGE)
    shown = now.locator("main .crono .tiempo")
    sync_api.expect(shown).to_have_text("3:00", timeout=WAIT)
    assert now.locator("main .crono .situacion").inner_text() == "parado"
    service.record_timer(1, "start", 180.0)                                  # the judge starts the clock
    now.wait_for_function("() => { const t = document.querySelector('main .crono .tiempo');"
                          " return t && t.textContent !== '3:00'; }", timeout=WAIT)
    first = seconds_of(shown.inner_text())
    assert 170 < first < 180
    now.wait_for_function(f"() => {{ const [m, s] = document.querySelector('main .crono .tiempo').textContent"
                          f".split(':'); return 60 * +m + +s < {first}; }}", timeout=WAIT)     # it moves by itself
    assert now.locator("main .crono .situacion").inner_text() == "en marcha"
    assert marked(now)


def test_a_browser_clock_off_by_an_hour_is_corrected_and_a_paused_clock_stays(
        served: Served, service: TournamentService, context: Any) -> None:
    """The browser's clock an hour ahead of the server's: the page corrects it by the
    server's time (the stream's first event). Then the browser's time is held and moved
    by hand (Playwright's clock): a paused clock stays, a running one loses what passed,
    and the III.13 calls come at their moments."""
    drawn(service)
    service.record_timer(1, "start", 180.0)
    caught_up(served, service)
    skewed = context.new_page()
    skewed.clock.install(time=datetime.now() + timedelta(hours=1))
    skewed.goto(served.url(PROJECTION_PAGE))
    skewed.evaluate("window.__marca = 1")
    clock, call = skewed.locator("main .crono .tiempo"), skewed.locator("main .crono .llamada")
    # Before the stream's first event the page ticks on the browser's own clock (0:00, an hour
    # late); once corrected it shows 3:00 until a second has passed, then 2:59…: wait for that.
    skewed.wait_for_function("() => { const t = document.querySelector('main .crono .tiempo');"
                             " return t && t.textContent.startsWith('2:'); }", timeout=WAIT)
    assert 150 < seconds_of(clock.inner_text()) < 180                      # not 0:00: the hour is corrected
    service.record_timer(1, "pause", 50.0)                                   # the judge pauses at 0:50
    sync_api.expect(clock).to_have_text("0:50", timeout=WAIT)
    skewed.clock.pause_at(datetime.now() + timedelta(hours=1, seconds=2))
    skewed.clock.fast_forward(10_000)
    assert clock.inner_text() == "0:50" and skewed.locator("main .crono .situacion").inner_text() == "parado"
    assert call.text_content() == "queda 1 minuto" and skewed.locator("main .crono").get_attribute("data-aviso") == "3"
    service.record_timer(1, "start", 50.0)                                   # running again
    skewed.wait_for_function("() => document.querySelector('main .crono[data-limite]') !== null", timeout=WAIT)
    held = seconds_of(clock.inner_text())       # less the 12 s the browser's clock was moved ahead meanwhile
    assert 25 < held <= 50
    skewed.clock.fast_forward(20_000)
    assert held - 21 <= seconds_of(clock.inner_text()) <= held - 19          # 20 s of the browser's time
    skewed.clock.fast_forward((seconds_of(clock.inner_text()) - 3) * 1000)
    assert seconds_of(clock.inner_text()) in (3, 4) and call.text_content() == "ALCEN"
    skewed.clock.fast_forward(5_000)
    assert clock.inner_text() == "0:00" and call.text_content() == "TIEMPO"
    assert skewed.locator("main .crono").get_attribute("data-aviso") == "0"
    assert skewed.locator("main .crono .situacion").inner_text() == "terminado"
    assert marked(skewed)
