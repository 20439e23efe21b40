"""Slip entry through ``duplicada serve`` in a real browser (issue 13 §2): an assistant
signs in from Chromium and types 100 slips — table, Enter, move, Enter — as fast as the
browser sends keys, never waiting for the app; every slip ends stored for its own table,
in the order typed.

The browser is Debian's Chromium driven by Playwright (no browser download); the test
is skipped, saying so, where either is missing. What the app shows is read from the
terminal stream the server sends to the page (the screen is drawn on a canvas).
"""

from __future__ import annotations

import base64
import os
import re
import shutil
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from duplicate.service.facade import TournamentService
from duplicate.storage.database import open_database
from lexicon.lexicon import Lexicon
from tests.credentials import JUDGE_PIN, pin_of
from tests.tui.waiting import CAP

pytestmark = pytest.mark.slow

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright no está instalado")
if CHROMIUM is None:
    pytest.skip("no hay chromium en esta máquina: la prueba en el navegador se omite", allow_module_level=True)

SLIPS = 100
ESCAPES = re.compile(r"\x1b(\[[0-9;?$]*[A-Za-z~]|\][^\x07\x1b]*(\x07|\x1b\\)|[()][A-Z0-9]|.)")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def seeded(path: Path, lexicon: Lexicon) -> str:
    """A tournament of 100 players whose round 1 has its master; returns the master."""
    database = open_database(f"sqlite:///{path}")
    service = TournamentService(database, station="mesa-arbitral", lexicon=lexicon, pin=JUDGE_PIN)
    service.create_tournament("Navegador", judge_name="Lucía")
    for index in range(SLIPS):
        service.add_player(f"Jugador {index + 1:03d}")
    service.create_game(rounds=2, seed=7)
    service.set_assistant_range("Marta", 1, SLIPS)
    service.set_pin("assistant", pin_of("assistant", "Marta") or "", name="Marta")
    service.set_rack(1, "CASAMO?")
    master = service.choose_master(1).master
    assert master is not None
    database.dispose()
    return master


@contextmanager
def serving(path: Path, *options: str, env: dict[str, str] | None = None, host: str = "127.0.0.1",
            reached_at: str = "127.0.0.1") -> Iterator[str]:
    """``duplicada serve --host host`` on a free port for the database at ``path``;
    yields the page's address at ``reached_at``."""
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "tui.cli", "serve", "--db", f"sqlite:///{path}",
                               "--host", host, "--port", str(port), *options],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              env={**os.environ, **(env or {})})
    try:
        deadline = time.monotonic() + 300
        while True:
            try:
                socket.create_connection((reached_at, port), timeout=1).close()
                break
            except OSError:
                assert server.poll() is None and time.monotonic() < deadline, "duplicada serve no arrancó"
                time.sleep(0.1)
        yield f"http://{reached_at}:{port}/"
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()


@pytest.fixture
def served(tmp_path: Path, spanish_lexicon: Lexicon) -> Iterator[tuple[str, Path, str]]:
    """The seeded tournament served: ``(page address, database file, the master move)``."""
    path = tmp_path / "navegador.db"
    master = seeded(path, spanish_lexicon)
    with serving(path) as address:
        yield address, path, master


class Screen:
    """What the app has drawn so far, as plain text from the page's terminal stream."""

    def __init__(self, page) -> None:  # type: ignore[no-untyped-def]
        self.page = page
        self.frames: list[str] = []
        page.on("websocket", lambda ws: ws.on("framereceived", self._received))

    def _received(self, payload: str | bytes) -> None:
        text = payload if isinstance(payload, str) else payload.decode("utf-8", "replace")
        self.frames.append(ESCAPES.sub("", text))

    def wait_for(self, text: str, since: int = 0, timeout: float = CAP) -> int:
        """Wait until ``text`` has been drawn after frame ``since``; the frame count then."""
        deadline = time.monotonic() + timeout
        while text not in "".join(self.frames[since:]):
            assert time.monotonic() < deadline, f"la aplicación no mostró «{text}»"
            self.page.wait_for_timeout(50)
        return len(self.frames)

    def until(self, condition: Callable[[], bool], what: str, timeout: float = CAP) -> None:
        deadline = time.monotonic() + timeout
        while not condition():
            assert time.monotonic() < deadline, what
            self.page.wait_for_timeout(100)


def stored_slips(path: Path) -> list[tuple[int, str]]:
    """``(table, text)`` of round 1's slips in the order they were stored (read-only)."""
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as connection:
        return [(int(table), str(text)) for table, text in connection.execute(
            "SELECT table_number, text FROM slips ORDER BY id")]


def test_a_hundred_slips_typed_ahead_in_the_browser_through_serve(served: tuple[str, Path, str]) -> None:
    address, path, master = served
    wrong = master[:-1] + "Z"
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport={"width": 1100, "height": 700})
            screen = Screen(page)
            page.goto(address)
            mark = screen.wait_for("Identifíquese")                       # the PIN first (issue 26 §1)
            page.locator(".xterm-helper-textarea").focus()                 # the terminal takes the keys
            page.keyboard.type(pin_of("assistant", "Marta") or "")
            page.keyboard.press("Enter")
            mark = screen.wait_for("Entrada de papeletas", since=mark)
            page.keyboard.press("Enter")                                   # the assistant's first screen
            screen.wait_for("Faltan", since=mark)                         # the round, read in a worker, shown
            expected = [(table, master if table % 3 else wrong) for table in range(1, SLIPS + 1)]
            for table, text in expected:                                   # no waiting between keys
                page.keyboard.type(str(table))
                page.keyboard.press("Enter")
                page.keyboard.type(text)
                page.keyboard.press("Enter")
            screen.until(lambda: len(stored_slips(path)) >= SLIPS, "no se guardaron las 100 papeletas")
            screen.wait_for(f"Todas las papeletas de la ronda 1 están anotadas ({SLIPS} de {SLIPS})")
            assert stored_slips(path) == expected
        finally:
            browser.close()


VENUE_PASSWORD = "sala-de-juego-2026"


def test_a_browser_needs_the_venue_password_then_a_pin(tmp_path: Path, spanish_lexicon: Lexicon) -> None:
    # Issue 14 §3: the venue password before the page; in the page, a PIN before any
    # screen — no read-only entry without one and no tournament created from a browser.
    path = tmp_path / "sala.db"
    seeded(path, spanish_lexicon)
    with serving(path, env={"DUPLICADA_VENUE_PASSWORD": VENUE_PASSWORD}) as address:
        for headers in ({}, {"Authorization": "Basic " + base64.b64encode(b"x:otra-clave").decode()}):
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(urllib.request.Request(address, headers=headers), timeout=10)
            assert refused.value.code == 401
        with sync_api.sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            try:
                context = browser.new_context(viewport={"width": 1100, "height": 700},
                                              http_credentials={"username": "auxiliar", "password": VENUE_PASSWORD})
                page = context.new_page()
                screen = Screen(page)
                page.goto(address)
                mark = screen.wait_for("Identifíquese")
                page.locator(".xterm-helper-textarea").focus()
                page.keyboard.type(pin_of("assistant", "Marta") or "")
                before = "".join(screen.frames)             # nothing of the tournament before a PIN (issue 26 §1)
                page.keyboard.press("Enter")
                screen.wait_for("Entrada de papeletas", since=mark)
                assert not any(text in before for text in ("Nuevo torneo", "Solo consulta", "Navegador", "jugador"))
            finally:
                browser.close()


def test_on_the_venue_network_the_page_loads_from_the_address_typed_and_nowhere_else(
        tmp_path: Path, spanish_lexicon: Lexicon) -> None:
    # Issue 35 §4: with --host 0.0.0.0 the page named http://0.0.0.0:PORT for its script,
    # style and websocket (no other machine reaches it) and loaded its font from Google.
    from tui.cli.machine_addresses import machine_addresses

    addresses = machine_addresses(socket.AF_INET)
    if not addresses:
        pytest.skip("esta máquina no tiene ninguna dirección de red fuera de 127.0.0.1")
    path = tmp_path / "red.db"
    seeded(path, spanish_lexicon)
    with serving(path, env={"DUPLICADA_VENUE_PASSWORD": VENUE_PASSWORD}, host="0.0.0.0",
                 reached_at=addresses[0]) as address:
        with sync_api.sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            try:
                context = browser.new_context(http_credentials={"username": "auxiliar", "password": VENUE_PASSWORD})
                page = context.new_page()
                asked: list[str] = []
                page.on("request", lambda request: asked.append(request.url))
                screen = Screen(page)
                origin = address.rstrip("/")

                def elsewhere() -> list[str]:
                    return [url for url in asked if not url.startswith((origin + "/", origin.replace("http", "ws", 1)))]

                page.goto(address)                                           # the page, its script, style, font
                assert not elsewhere() and any(url.endswith("/static/js/textual.js") for url in asked)
                assert "0.0.0.0" not in page.content()
                screen.wait_for("Identifíquese")                           # the websocket reached the app
                assert not elsewhere()
            finally:
                browser.close()


def test_beyond_the_session_limit_the_room_is_full(tmp_path: Path, spanish_lexicon: Lexicon) -> None:
    path = tmp_path / "llena.db"
    seeded(path, spanish_lexicon)
    with serving(path, "--max-sessions", "1") as address:
        with sync_api.sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            try:
                first = browser.new_page()
                screen = Screen(first)
                first.goto(address)
                screen.wait_for("Identifíquese")
                second = browser.new_page()
                response = second.goto(address)
                assert response is not None and response.status == 503
                assert "Sala completa" in second.content()
            finally:
                browser.close()


def test_editing_keys_typed_in_a_burst_in_the_browser_apply_in_order(served: tuple[str, Path, str]) -> None:
    # Issue 25 §2: «8⏎3H-ACALLAES ←← R⏎» stored «3H-ACALLAESR»: in a burst, arrows,
    # Home/End, Backspace after a move and Ctrl+U were applied after the letters typed
    # after them. Every slip here is the master, typed with a correction on the way.
    address, path, master = served
    head, tail = master[:3], master[3:]
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport={"width": 1100, "height": 700})
            screen = Screen(page)
            page.goto(address)
            mark = screen.wait_for("Identifíquese")                       # the PIN first (issue 26 §1)
            page.locator(".xterm-helper-textarea").focus()
            page.keyboard.type(pin_of("assistant", "Marta") or "")
            page.keyboard.press("Enter")
            mark = screen.wait_for("Entrada de papeletas", since=mark)
            page.keyboard.press("Enter")
            screen.wait_for("Faltan", since=mark)                         # the round, read in a worker, shown
            keyboard = page.keyboard
            keyboard.type("1")                                             # no waiting between keys
            keyboard.press("Enter")
            keyboard.type(master[:-2] + master[-1])
            keyboard.press("ArrowLeft")
            keyboard.type(master[-2])
            keyboard.press("Enter")
            keyboard.type("2")
            keyboard.press("Enter")
            keyboard.type(master[1:])
            keyboard.press("Home")
            keyboard.type(master[0])
            keyboard.press("End")
            keyboard.press("Enter")
            keyboard.type("3")
            keyboard.press("Enter")
            keyboard.type(head + "X" + tail)
            for _ in tail:
                keyboard.press("ArrowLeft")
            keyboard.press("Backspace")
            keyboard.press("Enter")
            keyboard.type("4")
            keyboard.press("Enter")
            keyboard.type("ZZZ")
            keyboard.press("Control+u")
            keyboard.type(master)
            keyboard.press("Enter")
            screen.until(lambda: len(stored_slips(path)) >= 4, "no se guardaron las 4 papeletas")
            screen.wait_for(f"Faltan {SLIPS - 4} de")                     # every key applied, the list read again
            assert stored_slips(path) == [(table, master) for table in (1, 2, 3, 4)]
        finally:
            browser.close()
