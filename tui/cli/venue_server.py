"""``duplicada serve``'s web server: textual-serve with the venue's door (issue 14 §3).

textual-serve runs one app process per browser and knows nothing of who is at the
other end. ``VenueServer`` adds, around it:

* a **venue password** (HTTP Basic authentication: every browser asks for it once; any
  user name) — required whenever the server listens beyond this machine; compared in
  constant time; never logged;
* a **limit of sessions** at once (each costs an app process, about 93 MiB): beyond it
  the page says, in Spanish, that the room is full;
* **idle sessions dropped** after ``idle_seconds`` without a key, click or resize.

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
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, cast

from aiohttp import web
from textual_serve.server import Server


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


class VenueServer(Server):
    """textual-serve's ``Server`` with a venue password, a session limit and idle drop."""

    def __init__(self, command: str, *, password: str | None, max_sessions: int, idle_seconds: float,
                 **options: Any) -> None:
        super().__init__(command, **options)
        self.password = password
        self.max_sessions = max_sessions
        self.idle_seconds = idle_seconds
        self.sessions = 0

    async def on_startup(self, app: web.Application) -> None:
        """The banner on the judge's terminal, in Spanish (textual-serve's own is English and
        shows the app's command line): where the browsers go and how to stop."""
        self.console.print("duplicada: aplicación de arbitraje para los navegadores de la sala", highlight=False,
                           markup=False)
        self.console.print(f"Los puestos abren {self.public_url} en su navegador"
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
        if self.password and not password_matches(request.headers.get("Authorization"), self.password):
            return web.Response(status=401, text="Falta la contraseña de la sala (la da el juez árbitro).",
                                headers={"WWW-Authenticate": 'Basic realm="duplicada", charset="UTF-8"'})
        if request.path in ("/", "/ws") and self.sessions >= self.max_sessions:
            return web.Response(status=503, content_type="text/plain", charset="utf-8",
                                text=f"Sala completa: ya hay {self.sessions} puestos conectados (máximo "
                                     f"{self.max_sessions}). Cierre uno que no se use y vuelva a intentarlo.")
        return await handler(request)

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        self.sessions += 1
        try:
            return await super().handle_websocket(request)
        finally:
            self.sessions -= 1

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
