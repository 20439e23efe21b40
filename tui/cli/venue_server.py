"""``duplicada serve``'s web server: textual-serve with the venue's door (issue 14 §3).

textual-serve runs one app process per browser and knows nothing of who is at the
other end. ``VenueServer`` adds, around it:

* a **venue password** (HTTP Basic authentication: every browser asks for it once; any
  user name) — required whenever the server listens beyond this machine; compared in
  constant time; never logged;
* a **limit of sessions** at once (each costs an app process, about 93 MiB): beyond it
  the page says, in Spanish, that the room is full;
* **idle sessions dropped** after ``idle_seconds`` without a key, click or resize;
* **wrong passwords counted per client address** and the address locked after five,
  and **across all addresses**: beyond 20 (then one a minute) only addresses that
  already gave the right password are compared (``venue_door.DoorGuard``; issue 26 §1,
  issue 36 §2);
* **TLS** when given a certificate and its key (``ssl_context``): then browsers reach it
  with ``https://`` and ``wss://``, and neither the password nor the PINs cross the
  network in clear; without one on an address beyond this machine, the judge is warned
  at start-up (``clear_text_warning``);
* **the browser's messages checked** (``browser_messages``): a malformed one is refused
  with one line on the judge's console and never reaches the app; after
  ``REFUSED_PER_SESSION`` the session is closed;
* **one line per event on the judge's console** (``venue_console``): no traceback, no
  local variables, no query string — an unexpected error in a handler is one line and a
  Spanish 500, never the request's headers (issue 36 §2);
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
import logging
import math
import re
import shutil
import ssl
import sys
import textwrap
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import aiohttp_jinja2
from aiohttp import WSMsgType, web
from textual_serve.app_service import AppService
from textual_serve.server import Server

from duplicate.service.lockout import address_source
from tui.cli.browser_messages import Focus, Keys, MalformedMessage, Ping, Resize, browser_message
from tui.cli.machine_addresses import browser_urls
from tui.cli.venue_console import PathAccessLogger, install_console_logging, unexpected_error
from tui.cli.venue_door import CROWD_LEAK_SECONDS, DoorGuard

SOURCE_ENV = "DUPLICADA_SOURCE"
"""Environment variable through which a browser's app process learns its source key."""

PAGE_FOLDER = Path(__file__).with_name("serve_page")
"""duplicada's page template for the browsers (textual-serve's static files stay its own)."""

HOST_HEADER = re.compile(r"(?:[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?")
"""A ``Host`` header the page may name: a name or IPv4 address, or a bracketed IPv6
address, and an optional port — nothing that could break out of an address."""

REFUSED_PER_SESSION = 32
"""Malformed messages one session may send; the last one refused closes it (a page of
ours sends none: the rest is a broken or hostile client, kept off the judge's console)."""

APP_EXIT_SECONDS = 10.0
"""Seconds a browser's app process has to end once told to quit, before it is killed."""

CROWD_NOTICE_SECONDS = 600.0
"""The judge's console says the cap across all addresses is refusing at most this often."""

log = logging.getLogger("duplicada.serve")


def is_loopback(host: str) -> bool:
    """True when ``host`` is reachable only from this machine (``127.0.0.1``, ``::1``,
    ``localhost``)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def clear_text_warning(host: str, ssl_context: ssl.SSLContext | None) -> str | None:
    """The start-up warning, in Spanish, for a server listening on ``host`` beyond this
    machine without TLS (the venue password and the PINs cross the network in clear, and
    how to give a certificate); None on a loopback host or with ``ssl_context`` (issue 36 §2)."""
    if ssl_context is not None or is_loopback(host):
        return None
    return (f"Aviso: escucha en {host} sin --certfile: la contraseña de la sala y los PIN de los puestos viajan sin "
            "cifrar por la red (http://) y cualquiera conectado a ella puede leerlos. Para cifrarlos, arranque con "
            "--certfile CERTIFICADO.pem y --keyfile CLAVE.pem (un certificado PEM y su clave sin contraseña; p. ej. "
            "«openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout CLAVE.pem "
            "-out CERTIFICADO.pem -days 30 -subj /CN=sala»); los navegadores entrarán por https://.")


def password_matches(header: str | None, password: str) -> bool:
    """Whether an ``Authorization: Basic …`` header carries ``password`` (any user)."""
    if not header or not header.startswith("Basic "):
        return False
    try:
        _user, _, given = base64.b64decode(header[6:], validate=True).decode("utf-8").partition(":")
    except (binascii.Error, UnicodeDecodeError):
        return False
    return hmac.compare_digest(given.encode("utf-8"), password.encode("utf-8"))


class _AddressedAppService(AppService):
    """textual-serve's app process, with its browser's source key in the environment."""

    def __init__(self, command: str, *, source: str, **options: Any) -> None:
        super().__init__(command, **options)
        self.source = source

    def _build_environment(self, width: int = 80, height: int = 24) -> dict[str, str]:
        environment = super()._build_environment(width=width, height=height)
        environment[SOURCE_ENV] = self.source
        return environment

    async def stop(self) -> None:
        """Stop the app process and wait until it has ended (textual-serve stops waiting
        when its output closes; the process is then reaped here, not left to a loop that
        may have closed); one that has not ended ``APP_EXIT_SECONDS`` later is killed."""
        await super().stop()
        if self._process is not None and self._process.returncode is None:
            try:
                await asyncio.wait_for(self._process.wait(), APP_EXIT_SECONDS)
            except TimeoutError:
                self._process.kill()
                await self._process.wait()


def _size(text: str | None, default: int) -> int:
    """A terminal dimension from the page's query (1 to 1000), else ``default``."""
    return int(text) if text is not None and text.isdigit() and 1 <= int(text) <= 1000 else default


class VenueServer(Server):
    """textual-serve's ``Server`` with a venue password (rate-limited per address and
    across all), a session limit, idle drop, checked browser messages, a console without
    secrets and, given ``ssl_context``, TLS."""

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
        self._crowd_noticed: float | None = None

    def initialize_logging(self) -> None:
        """One line per log record on standard error, nothing secret (``venue_console``),
        in place of textual-serve's Rich handler, whose tracebacks show local variables."""
        install_console_logging(self.debug)

    def serve(self, debug: bool = False) -> None:
        """Listen until interrupted (Ctrl+C), over TLS when given a certificate. Raises
        ``OSError`` when the address cannot be listened on (in use, not this machine's)."""
        self.debug = debug
        self.initialize_logging()
        web.run_app(self._make_app(), host=self.host, port=self.port, ssl_context=self.ssl_context, print=None,
                    access_log_class=PathAccessLogger)

    async def start_site(self) -> web.AppRunner:
        """Listen without blocking (for the tests): the runner, to ``cleanup()`` at the end."""
        runner = web.AppRunner(await self._make_app(), access_log_class=PathAccessLogger)
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
        shows the app's command line): where the browsers go and how to stop; on standard
        error, the warning of ``clear_text_warning`` when it applies."""
        self.console.print("duplicada: aplicación de arbitraje para los navegadores de la sala", highlight=False,
                           markup=False)
        urls = self.browser_urls()
        self.console.print(f"Los puestos abren {' o '.join(urls)} en su navegador"
                           + (" (con la contraseña de la sala)." if self.password else "."),
                           highlight=False, markup=False)
        self.console.print(f"Hasta {self.max_sessions} puestos a la vez. Pulse Ctrl+C para terminar.",
                           highlight=False, markup=False)
        warning = clear_text_warning(self.host, self.ssl_context)
        if warning is not None:                        # wrapped at the terminal's width, as the banner
            width = max(40, shutil.get_terminal_size().columns - 1)
            print(textwrap.fill(warning, width=width, break_long_words=False, break_on_hyphens=False),
                  file=sys.stderr, flush=True)

    async def _make_app(self) -> web.Application:
        app = await super()._make_app()
        app.middlewares.extend([self._quiet_errors, self._door])
        return app

    @web.middleware
    async def _quiet_errors(self, request: web.Request,
                            handler: Callable[[web.Request], Awaitable[web.StreamResponse]]) -> web.StreamResponse:
        """Any error a handler did not expect: one line on the console (the request's
        method, path and address, the error's class) and a Spanish 500 — never aiohttp's
        traceback, whose frames hold the request's headers."""
        try:
            return await handler(request)
        except web.HTTPException:
            raise
        except Exception as error:
            return unexpected_error(log, request, error,
                                    "Ha habido un error inesperado en el servidor de la sala: vuelva a intentarlo y, "
                                    "si se repite, avise al juez árbitro.")

    @web.middleware
    async def _door(self, request: web.Request,
                    handler: Callable[[web.Request], Awaitable[web.StreamResponse]]) -> web.StreamResponse:
        if self.password:
            address = request.remote or "desconocida"
            given = request.headers.get("Authorization")
            wait = self.door.wait(address)
            everywhere = False
            if not wait and given is not None:
                crowd = self.door.crowd_wait(address)
                if crowd:
                    wait, everywhere = crowd, True
                    self._notice_crowd()
                elif password_matches(given, self.password):
                    self.door.passed(address)
                else:
                    wait = self.door.failed(address)
                    if not wait:
                        return self._ask_password("Contraseña de la sala incorrecta.")
                    log.warning("Dirección %s bloqueada %d s: demasiadas contraseñas de la sala incorrectas.",
                                address, math.ceil(wait))
            if wait:
                seconds = max(1, math.ceil(wait))
                where = "entre todas las direcciones" if everywhere else "desde esta dirección"
                return web.Response(status=429, content_type="text/plain", charset="utf-8",
                                    headers={"Retry-After": str(seconds)},
                                    text=f"Demasiadas contraseñas incorrectas {where}: espere {seconds} s "
                                         "y vuelva a intentarlo.")
            if given is None:
                return self._ask_password("Falta la contraseña de la sala (la da el juez árbitro).")
        if request.path in ("/", "/ws") and self.sessions >= self.max_sessions:
            return web.Response(status=503, content_type="text/plain", charset="utf-8",
                                text=f"Sala completa: ya hay {self.sessions} puestos conectados (máximo "
                                     f"{self.max_sessions}). Cierre uno que no se use y vuelva a intentarlo.")
        return await handler(request)

    def _notice_crowd(self) -> None:
        """Tell the judge, at most every ``CROWD_NOTICE_SECONDS``, that the cap across all
        addresses is refusing newcomers' passwords."""
        now = time.monotonic()
        if self._crowd_noticed is None or now - self._crowd_noticed >= CROWD_NOTICE_SECONDS:
            self._crowd_noticed = now
            log.warning("Demasiadas contraseñas de la sala incorrectas entre todas las direcciones: mientras sigan, "
                        "solo se comparan las de los navegadores que ya entraron y una más cada %d s.",
                        round(CROWD_LEAK_SECONDS))

    @staticmethod
    def _ask_password(text: str) -> web.Response:
        return web.Response(status=401, text=text,
                            headers={"WWW-Authenticate": 'Basic realm="duplicada", charset="UTF-8"'})

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        """One browser's session: an app process told its browser's address, fed the
        browser's checked messages until either side closes. An unexpected error ends the
        session with one line on the console."""
        self.sessions += 1
        address = request.remote or "desconocida"
        websocket = web.WebSocketResponse(heartbeat=15)
        app_service: AppService | None = None
        try:
            await websocket.prepare(request)
            app_service = _AddressedAppService(
                self.command, source=address_source(address),
                write_bytes=websocket.send_bytes, write_str=websocket.send_str, close=websocket.close,
                download_manager=self.download_manager, debug=self.debug)
            await app_service.start(_size(request.query.get("width"), 80), _size(request.query.get("height"), 24))
            await self._process_messages(websocket, app_service, address)
        except asyncio.CancelledError:
            await websocket.close()
        except Exception as error:
            log.error("Sesión de %s cerrada por un error inesperado (%s).", address, type(error).__name__)
            await websocket.close()
        finally:
            try:
                if app_service is not None:
                    await app_service.stop()
            except Exception as error:
                log.error("La aplicación de la sesión de %s no terminó limpiamente (%s).", address,
                          type(error).__name__)
            self.sessions -= 1
        return websocket

    async def _process_messages(self, websocket: web.WebSocketResponse, app_service: AppService,
                                address: str = "desconocida") -> None:
        """The browser's messages to its app process (pings answered here), each checked
        first (``browser_message``; in place of textual-serve's loop, which indexes
        whatever arrives): a malformed one is refused with one line naming
        ``address`` and what is wrong — never its content — and the
        ``REFUSED_PER_SESSION``-th closes the session. Closes an idle session after
        ``idle_seconds`` without a message."""
        last = time.monotonic()

        async def drop_when_idle() -> None:
            while not websocket.closed:
                await asyncio.sleep(min(60.0, self.idle_seconds / 4))
                if time.monotonic() - last > self.idle_seconds:
                    await websocket.close(message="sesión inactiva: vuelva a abrir la página".encode())
                    return

        watchdog = asyncio.create_task(drop_when_idle())
        refused = 0
        try:
            async for message in websocket:
                last = time.monotonic()
                if message.type == WSMsgType.ERROR:
                    log.warning("Conexión de %s cortada: no cumple el protocolo websocket (%s).", address,
                                type(message.data).__name__)
                    return
                if message.type not in (WSMsgType.TEXT, WSMsgType.BINARY):
                    continue
                try:
                    received = browser_message(message.data)
                except MalformedMessage as error:
                    refused += 1
                    closing = refused >= REFUSED_PER_SESSION
                    log.warning("Mensaje mal formado de %s rechazado: %s%s.", address, error,
                                "; demasiados: sesión cerrada" if closing else "")
                    if closing:
                        await websocket.close(message="demasiados mensajes mal formados".encode())
                        return
                    continue
                if isinstance(received, Keys):
                    await app_service.send_bytes(received.text.encode("utf-8"))
                elif isinstance(received, Resize):
                    await app_service.set_terminal_size(received.width, received.height)
                elif isinstance(received, Ping):
                    await websocket.send_json(["pong", received.data])
                elif isinstance(received, Focus):
                    await (app_service.focus() if received.focused else app_service.blur())
        finally:
            watchdog.cancel()
