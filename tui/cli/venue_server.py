"""``duplicada serve``'s web server: textual-serve with the venue's door (issue 14 §3).

textual-serve runs one app process per browser and knows nothing of who is at the
other end. ``VenueServer`` adds, around it:

* a **venue password** (HTTP Basic authentication: every browser asks for it once; any
  user name) — required whenever the server listens beyond this machine; compared in
  constant time; never logged;
* a **limit of sessions** at once (each costs an app process, about 93 MiB): beyond it
  the page says, in Spanish, that the room is full;
* **idle sessions dropped** after ``idle_seconds`` without a key, click or resize;
* **wrong passwords counted per client address** and the address locked after five
  (``venue_door.DoorGuard``; issue 26 §1);
* **TLS** when given a certificate and its key (``ssl_context``): then browsers reach it
  with ``https://`` and ``wss://``, and neither the password nor the PINs cross the
  network in clear;
* each app process told its browser's address (``$DUPLICADA_SOURCE``), the key its wrong
  PINs count against in the service (``duplicate.service.lockout``);
* **its own page** (``serve_page/app_index.html``, in place of textual-serve's): Spanish
  texts, the font from the server's own files (no request leaves the venue), and the
  script, style and websocket addresses written from the address the browser used (its
  ``Host`` header), or from ``--public-url`` when given — never from ``--host``, which is
  ``0.0.0.0`` on a venue network and reachable from no other machine (issue 35 §4). At
  start-up the judge's terminal lists this machine's addresses
  (``machine_addresses.browser_urls``).

Inside each session the app itself asks for the station's PIN before any screen
(``tui.app``): the password lets a browser into the venue's server, the PIN says which
station it is.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import hmac
import ipaddress
import math
import re
import ssl
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any, cast

import aiohttp_jinja2
from aiohttp import web
from textual_serve.app_service import AppService
from textual_serve.server import Server

from duplicate.service.lockout import address_source
from tui.cli.machine_addresses import browser_urls
from tui.cli.venue_door import DoorGuard

SOURCE_ENV = "DUPLICADA_SOURCE"
"""Environment variable through which a browser's app process learns its source key."""

PAGE_FOLDER = Path(__file__).with_name("serve_page")
"""duplicada's page template for the browsers (textual-serve's static files stay its own)."""

HOST_HEADER = re.compile(r"(?:[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?")
"""A ``Host`` header the page may name: a name or IPv4 address, or a bracketed IPv6
address, and an optional port — nothing that could break out of an address."""


def is_loopback(host: str) -> bool:
    """True when ``host`` is reachable only from this machine (``127.0.0.1``, ``::1``,
    ``localhost``)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def password_matches(header: str | None, password: str) -> bool:
    """Whether an ``Authorization: Basic …`` header carries ``password`` (any user)."""
    if not header or not header.startswith("Basic "):
        return False
    try:
        _user, _, given = base64.b64decode(header[6:], validate=True).decode("utf-8").partition(":")
    except (binascii.Error, UnicodeDecodeError):
        return False
    return hmac.compare_digest(given.encode("utf-8"), password.encode("utf-8"))


class _Watched:
    """A websocket whose incoming messages are timed (the idle check reads ``last``)."""

    def __init__(self, websocket: web.WebSocketResponse) -> None:
        self.websocket = websocket
        self.last = time.monotonic()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.websocket, name)

    async def __aiter__(self) -> AsyncIterator[Any]:
        async for message in self.websocket:
            self.last = time.monotonic()
            yield message


class _AddressedAppService(AppService):
    """textual-serve's app process, with its browser's source key in the environment."""

    def __init__(self, command: str, *, source: str, **options: Any) -> None:
        super().__init__(command, **options)
        self.source = source

    def _build_environment(self, width: int = 80, height: int = 24) -> dict[str, str]:
        environment = super()._build_environment(width=width, height=height)
        environment[SOURCE_ENV] = self.source
        return environment


def _size(text: str | None, default: int) -> int:
    """A terminal dimension from the page's query (1 to 1000), else ``default``."""
    return int(text) if text is not None and text.isdigit() and 1 <= int(text) <= 1000 else default


class VenueServer(Server):
    """textual-serve's ``Server`` with a venue password (rate-limited per address), a
    session limit, idle drop and, given ``ssl_context``, TLS."""

    def __init__(self, command: str, *, password: str | None, max_sessions: int, idle_seconds: float,
                 ssl_context: ssl.SSLContext | None = None, **options: Any) -> None:
        super().__init__(command, templates_path=PAGE_FOLDER, **options)
        self.given_url: str | None = options.get("public_url")
        self.password = password
        self.max_sessions = max_sessions
        self.idle_seconds = idle_seconds
        self.ssl_context = ssl_context
        self.sessions = 0
        self.door = DoorGuard()

    def serve(self, debug: bool = False) -> None:
        """Listen until interrupted (Ctrl+C), over TLS when given a certificate."""
        self.debug = debug
        self.initialize_logging()
        web.run_app(self._make_app(), host=self.host, port=self.port, ssl_context=self.ssl_context, print=None)

    async def start_site(self) -> web.AppRunner:
        """Listen without blocking (for the tests): the runner, to ``cleanup()`` at the end."""
        runner = web.AppRunner(await self._make_app())
        await runner.setup()
        await web.TCPSite(runner, self.host, self.port, ssl_context=self.ssl_context).start()
        return runner

    def browser_urls(self) -> list[str]:
        """The addresses the venue's browsers open: ``--public-url`` when given, else this
        machine's addresses when listening on every interface, else ``--host``."""
        if self.given_url:
            return [self.given_url]
        return browser_urls(self.host, self.port, "https" if self.ssl_context else "http")

    def page_url(self, request: web.Request) -> str | None:
        """The server's address as the page names it (no final slash): ``--public-url``
        when given, else the scheme this server speaks and the request's ``Host``; None for
        a ``Host`` that is not a plain address."""
        if self.given_url:
            return self.given_url.rstrip("/")
        host = request.host
        if not HOST_HEADER.fullmatch(host):
            return None
        return f"{'https' if self.ssl_context else 'http'}://{host}"

    async def handle_index(self, request: web.Request) -> web.Response:
        """The page: textual-serve's terminal in duplicada's Spanish template, every address
        in it derived from ``page_url`` (400 for a ``Host`` that is not an address)."""
        base = self.page_url(request)
        if base is None:
            return web.Response(status=400, content_type="text/plain", charset="utf-8",
                                text="La dirección pedida (cabecera Host) no es válida.")
        scheme, rest = base.split(":", 1)
        context = {
            "title": self.title,
            "font_size": _size(request.query.get("fontsize"), 16),
            "static_url": f"{base}/static/",
            "websocket_url": f"{'wss' if scheme == 'https' else 'ws'}:{rest}/ws",
        }
        return aiohttp_jinja2.render_template("app_index.html", request, context)

    async def on_startup(self, app: web.Application) -> None:
        """The banner on the judge's terminal, in Spanish (textual-serve's own is English and
        shows the app's command line): where the browsers go and how to stop."""
        self.console.print("duplicada: aplicación de arbitraje para los navegadores de la sala", highlight=False,
                           markup=False)
        urls = self.browser_urls()
        self.console.print(f"Los puestos abren {' o '.join(urls)} en su navegador"
                           + (" (con la contraseña de la sala)." if self.password else "."),
                           highlight=False, markup=False)
        self.console.print(f"Hasta {self.max_sessions} puestos a la vez. Pulse Ctrl+C para terminar.",
                           highlight=False, markup=False)

    async def _make_app(self) -> web.Application:
        app = await super()._make_app()
        app.middlewares.append(self._door)
        return app

    @web.middleware
    async def _door(self, request: web.Request,
                    handler: Callable[[web.Request], Awaitable[web.StreamResponse]]) -> web.StreamResponse:
        if self.password:
            address = request.remote or "desconocida"
            wait = self.door.wait(address)
            given = request.headers.get("Authorization")
            if not wait and given is not None and not password_matches(given, self.password):
                wait = self.door.failed(address)
                if not wait:
                    return self._ask_password("Contraseña de la sala incorrecta.")
            if wait:
                seconds = max(1, math.ceil(wait))
                return web.Response(status=429, content_type="text/plain", charset="utf-8",
                                    headers={"Retry-After": str(seconds)},
                                    text=f"Demasiadas contraseñas incorrectas desde esta dirección: espere {seconds} s "
                                         "y vuelva a intentarlo.")
            if given is None:
                return self._ask_password("Falta la contraseña de la sala (la da el juez árbitro).")
        if request.path in ("/", "/ws") and self.sessions >= self.max_sessions:
            return web.Response(status=503, content_type="text/plain", charset="utf-8",
                                text=f"Sala completa: ya hay {self.sessions} puestos conectados (máximo "
                                     f"{self.max_sessions}). Cierre uno que no se use y vuelva a intentarlo.")
        return await handler(request)

    @staticmethod
    def _ask_password(text: str) -> web.Response:
        return web.Response(status=401, text=text,
                            headers={"WWW-Authenticate": 'Basic realm="duplicada", charset="UTF-8"'})

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        """One browser's session: an app process told its browser's address, fed the
        browser's keys until either side closes."""
        self.sessions += 1
        websocket = web.WebSocketResponse(heartbeat=15)
        app_service: AppService | None = None
        try:
            await websocket.prepare(request)
            app_service = _AddressedAppService(
                self.command, source=address_source(request.remote or "desconocida"),
                write_bytes=websocket.send_bytes, write_str=websocket.send_str, close=websocket.close,
                download_manager=self.download_manager, debug=self.debug)
            await app_service.start(_size(request.query.get("width"), 80), _size(request.query.get("height"), 24))
            await self._process_messages(websocket, app_service)
        except asyncio.CancelledError:
            await websocket.close()
        finally:
            if app_service is not None:
                await app_service.stop()
            self.sessions -= 1
        return websocket

    async def _process_messages(self, websocket: web.WebSocketResponse, app_service: Any) -> None:
        watched = _Watched(websocket)

        async def drop_when_idle() -> None:
            while not websocket.closed:
                await asyncio.sleep(min(60.0, self.idle_seconds / 4))
                if time.monotonic() - watched.last > self.idle_seconds:
                    await websocket.close(message="sesión inactiva: vuelva a abrir la página".encode())
                    return

        watchdog = asyncio.create_task(drop_when_idle())
        try:
            # ``_Watched`` forwards every attribute to the websocket (a proxy that notes activity).
            await super()._process_messages(cast(web.WebSocketResponse, watched), app_service)
        finally:
            watchdog.cancel()
