"""The server of ``duplicada live`` (issue 37): the live public pages, pushed to every browser.

A read-only aiohttp server, apart from the stations: no password, no PIN, nothing that
acts (only ``GET``/``HEAD``; any other method gets 405). It keeps the pages of
``duplicate.publishing.live_pages.live_site`` in memory and serves them from there; a
background task asks ``live_version`` (one query) every ``POLL_SECONDS`` and, when the
log moved with an event that may show (``live_pages.live_changed``, one query: a slip
entered in an open round, a claim filed, a PIN set do not), rebuilds the pages (off the
event loop, in one worker thread; the games and pages whose values did not change are
kept, ``live_site(previous=…)``) and tells every browser over server-sent events; right
after a rebuild it looks again without waiting, and a rebuild reads the newest state, so
events that came during one (a round closed while the rack drawn before it was being
built) wait for one rebuild more at most (an error while rebuilding is one console line,
said again only when it changes; the pages served stay the last good ones):

* ``GET /eventos``: ``text/event-stream``; first ``event: version`` with the version
  served, the server's time and when those pages were built (``{"version": N, "hora": ms,
  "hecho": ms}``, since the epoch: a page corrects the browser's clock by ``hora`` and
  catches up a change it could have missed by ``hecho``, ``live_pages.live_script``),
  then one ``event: cambio`` per change that some page shows, ``data: {"version": N,
  "paginas": [...]}`` (the pages whose ``<main>`` changed, ``live_pages.changed_pages``; a
  rebuild that changed no page is not sent); a comment every ``KEEPALIVE_SECONDS`` keeps
  proxies from closing an idle stream. The page's inline
  script fetches its page again and replaces its ``<main>``; EventSource reconnects by
  itself after a network cut (``retry:`` ``RETRY_MILLISECONDS``).
* ``GET /`` redirects to ``directo.html``; ``GET /PATH`` serves a page, 404 otherwise.

**Many viewers** (the issue's 500 on a 2-core machine, ``bench/live_viewers.py``): a change
is encoded once and the same bytes are queued for every stream (``tell``: no per-stream
work but a ``put``); each stream's handler only waits on its queue and writes (one task
for the keep-alive comments of all streams, no timer per stream); a stream that does not
read is never waited for: its queue holds at most ``QUEUED_CHANGES`` changes, then one
naming every page. A page is served as bytes encoded once per version of its text, gzip
compressed (once) for a browser that accepts it, with an ``ETag`` (a refresh of a page
that did not change is a 304). The listening socket's backlog is ``LISTEN_BACKLOG`` (every
browser reconnecting at once after a restart), and ``serve`` raises the process's limit of
open files to the system's hard limit (each viewer holds two connections) and says so when
it stays too low for ``VIEWERS_PLANNED`` viewers.

With ``mirror``, the pages are also written into that folder after each change
(those whose text changed, ``live_pages.write_mirror``: each file atomically). The console gets one line per
request (path without its query string) and one line per error (``venue_console``, as
``serve``).
"""

from __future__ import annotations

import asyncio
import gzip
import hashlib
import json
import logging
import resource
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from aiohttp import web

from duplicate.publishing.live_pages import (
    CURRENT_PAGE,
    EVENTS_PATH,
    LiveSite,
    changed_pages,
    live_changed,
    live_site,
    live_version,
    write_mirror,
)
from duplicate.service.errors import InvalidFile, TournamentError
from duplicate.service.facade import TournamentService
from ranking.classic.live_pages import with_classic_pages
from tui.cli.machine_addresses import browser_urls
from tui.cli.venue_console import PathAccessLogger, install_console_logging, printable, unexpected_error

__all__ = ["KEEPALIVE_SECONDS", "POLL_SECONDS", "LiveServer", "raise_file_limit"]

POLL_SECONDS = 0.25
"""Seconds between two looks at the log's last event id (one indexed query: cheap; half of it is
the mean wait it adds between an event and its rebuild)."""

KEEPALIVE_SECONDS = 15.0
"""Seconds of silence after which the stream sends a comment line."""

RETRY_MILLISECONDS = 2000
"""What a browser waits before reconnecting a stream that was cut (``retry:``)."""

QUEUED_CHANGES = 16
"""Changes held for a slow browser; beyond, its queue is replaced by one change naming every page."""

KEEPALIVE = b": sigue\n\n"
"""The comment line that keeps an idle stream open."""

LISTEN_BACKLOG = 2048
"""Connections the system queues before the server accepts them (aiohttp's default, 128,
makes browsers wait a second or more when hundreds reconnect at once)."""

VIEWERS_PLANNED = 500
"""Viewers at once the server is sized for (the issue's figure): ``serve`` warns when the
open-files limit leaves fewer."""

FILES_PER_VIEWER = 2
"""Open files (sockets) a browser holds: its stream and one connection kept for fetches."""

FILES_SPARE = 64
"""Open files the server needs besides the viewers' (the database, the log, the modules)."""

CONTENT_TYPES = {".html": "text/html", ".css": "text/css"}

log = logging.getLogger("duplicada.live")


def raise_file_limit() -> int:
    """Raise this process's soft limit of open files to its hard limit (the most it may
    have without privileges); the limit in force afterwards, in files."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard and soft != resource.RLIM_INFINITY:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        except (ValueError, OSError):
            pass                                  # the limit stays; serve says what it allows
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def event_bytes(kind: str, data: dict[str, Any]) -> bytes:
    """One server-sent event, ``event: KIND`` and its ``data:`` line of JSON, encoded."""
    return f"event: {kind}\ndata: {json.dumps(data)}\n\n".encode()


@dataclass(frozen=True)
class EncodedPage:
    """A page's text as served: ``text`` what it was encoded from, ``body`` its UTF-8
    bytes, ``gzipped`` those compressed, ``etag`` a weak entity tag of them."""

    text: str
    body: bytes
    gzipped: bytes
    etag: str

    @classmethod
    def of(cls, text: str) -> EncodedPage:
        body = text.encode("utf-8")
        return cls(text, body, gzip.compress(body, mtime=0),
                   f'W/"{hashlib.blake2b(body, digest_size=12).hexdigest()}"')


def accepts_gzip(header: str) -> bool:
    """Whether an ``Accept-Encoding`` value accepts gzip: named (or ``*`` when gzip is
    not named) with a quality above 0 (RFC 9110 §12.5.3)."""
    qualities: dict[str, float] = {}
    for item in header.split(","):
        name, *parameters = (part.strip().lower() for part in item.split(";"))
        quality = 1.0
        for parameter in parameters:
            key, _, value = parameter.partition("=")
            if key.strip() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if name:
            qualities[name] = quality
    return qualities.get("gzip", qualities.get("*", 0.0)) > 0


class LiveServer:
    """The live pages of tournament ``tournament_id`` (None: the newest) read through
    ``service`` (a read-only handle), served on ``host``:``port``; ``public_url`` the
    address announced instead of the listening one; ``mirror`` a folder rewritten after
    each change (None: none). ``poll_seconds``: see ``POLL_SECONDS``."""

    def __init__(self, service: TournamentService, tournament_id: int | None = None, *, host: str = "127.0.0.1",
                 port: int = 8080, public_url: str | None = None, mirror: Path | None = None,
                 poll_seconds: float = POLL_SECONDS) -> None:
        self.service = service
        self.tournament_id = tournament_id
        self.host = host
        self.port = port
        self.public_url = public_url
        self.mirror = mirror
        self.poll_seconds = poll_seconds
        self.site: LiveSite | None = None
        self.built_at = 0.0
        """When ``site`` was put in place (``time.time()``, seconds): told to each stream."""
        self.listeners: set[asyncio.Queue[bytes | None]] = set()
        self._reader = ThreadPoolExecutor(max_workers=1, thread_name_prefix="directo")
        self._watcher: asyncio.Task[None] | None = None
        self._keeper: asyncio.Task[None] | None = None
        self._encoded: dict[str, EncodedPage] = {}

    # --- the pages -------------------------------------------------------------------------------------
    def build(self) -> LiveSite:
        """Read the pages now (blocking: the database) — the duplicate live pages and those of
        the tournament's classic divisions (``ranking.classic.live_pages``) — and, with a
        mirror, write there the pages that changed (``InvalidFile``, Spanish, when the folder
        is refused or cannot be written)."""
        site = live_site(self.service, self.tournament_id, previous=self.site)
        site = with_classic_pages(site, self.service, self.tournament_id, previous=self.site)
        if self.mirror is not None:
            try:
                write_mirror(site, self.mirror)
            except OSError as error:
                raise InvalidFile(f"no se pudo escribir la copia estática en {self.mirror}: "
                                  f"{error.strerror or type(error).__name__}", path=self.mirror,
                                  what="la carpeta") from None
        return site

    async def _run(self, function: Callable[[], Any]) -> Any:
        return await asyncio.get_running_loop().run_in_executor(self._reader, function)

    async def refresh(self) -> bool:
        """Rebuild the pages when the log moved since they were built and tell every
        browser which changed; True when they were rebuilt. Events that change no public
        page (``live_pages.live_changed``: slips of an open round, a claim filed, a PIN…)
        only move the version the pages stand for: no rebuild, no ``cambio``."""
        before = self.site
        version = await self._run(lambda: live_version(self.service, self.tournament_id))
        if before is not None and version == before.version:
            return False
        if before is not None and not await self._run(
                lambda: live_changed(self.service, self.tournament_id, before.version, version)):
            self.site = replace(before, version=version)
            return False
        site: LiveSite = await self._run(self.build)
        self.site, self.built_at = site, time.time()
        self.tell(site, changed_pages(before, site))
        return True

    def tell(self, site: LiveSite, pages: list[str]) -> None:
        """Queue ``event: cambio`` naming ``pages`` (at ``site.version``) for every stream,
        encoded once; nothing when no page changed. A stream whose queue is full (a browser
        that does not read) gets instead one change naming every page of ``site``. Pages
        no longer served, or whose text changed, lose their encoded bytes."""
        for path, encoded in list(self._encoded.items()):
            text = site.pages.get(path)
            if text is None or (text is not encoded.text and text != encoded.text):
                del self._encoded[path]
        if not pages:
            return
        message = event_bytes("cambio", {"version": site.version, "paginas": pages})
        everything: bytes | None = None
        for queue in list(self.listeners):
            if queue.full():                        # a slow browser: one change naming every page
                while not queue.empty():
                    queue.get_nowait()
                everything = everything or event_bytes("cambio", {"version": site.version,
                                                                  "paginas": sorted(site.pages)})
                queue.put_nowait(everything)
            else:
                queue.put_nowait(message)

    async def _keep_alive(self) -> None:
        """Every ``KEEPALIVE_SECONDS``, a comment for each stream with nothing queued."""
        while True:
            await asyncio.sleep(KEEPALIVE_SECONDS)
            for queue in list(self.listeners):
                if queue.empty():
                    queue.put_nowait(KEEPALIVE)

    async def _watch(self) -> None:
        said = ""                                   # the last error logged: said once, not every look
        rebuilt = False
        while True:
            if not rebuilt:                         # after a rebuild, look again at once: an event that
                await asyncio.sleep(self.poll_seconds)  # came during it (a close) does not wait a poll more
            rebuilt = False
            try:
                rebuilt = await self.refresh()
                said = ""
            except TournamentError as error:      # a busy or damaged database, a mirror not writable
                line = f"No se pudieron actualizar las páginas: {printable(str(error))}"
            except Exception as error:            # never the end of the watch: the next look may succeed
                line = f"No se pudieron actualizar las páginas: error inesperado ({type(error).__name__})"
            else:
                continue
            if line != said:
                log.error("%s", line)
                said = line

    # --- the application -------------------------------------------------------------------------------
    async def make_app(self) -> web.Application:
        """The aiohttp application, with the pages built once (raises ``TournamentError``
        for an unknown tournament, ``InvalidFile`` for a mirror folder refused)."""
        if self.tournament_id is None:         # the newest now: a tournament created later is not followed
            self.tournament_id = int(await self._run(lambda: self.service.tournament(None).id))
        if self.site is None:
            self.site, self.built_at = await self._run(self.build), time.time()
        app = web.Application(middlewares=[self._quiet_errors])
        app.router.add_get("/", self.handle_root)
        app.router.add_get(f"/{EVENTS_PATH}", self.handle_events)
        app.router.add_get("/{path:.+}", self.handle_page)
        app.on_startup.append(self._start_watching)
        app.on_shutdown.append(self._end_streams)
        app.on_cleanup.append(self._stop_watching)
        return app

    async def _start_watching(self, _app: web.Application) -> None:
        self._watcher = asyncio.get_running_loop().create_task(self._watch())
        self._keeper = asyncio.get_running_loop().create_task(self._keep_alive())

    async def _end_streams(self, _app: web.Application) -> None:
        """Every stream ends (the server stops): its handler returns at once."""
        for queue in list(self.listeners):
            while not queue.empty():
                queue.get_nowait()
            queue.put_nowait(None)

    async def _stop_watching(self, _app: web.Application) -> None:
        for task in (self._watcher, self._keeper):
            if task is not None:
                task.cancel()
                try:
                    await task
                except asyncio.CancelledError:
                    pass
        self._reader.shutdown(wait=False)

    async def handle_root(self, _request: web.Request) -> web.StreamResponse:
        raise web.HTTPFound(f"/{CURRENT_PAGE}")

    def encoded(self, path: str, text: str) -> EncodedPage:
        """The page ``path`` whose text is ``text``, encoded (once per text: kept until
        ``tell`` sees the page change)."""
        page = self._encoded.get(path)
        if page is None or (page.text is not text and page.text != text):
            page = self._encoded[path] = EncodedPage.of(text)
        return page

    async def handle_page(self, request: web.Request) -> web.StreamResponse:
        """A page: its bytes, gzip compressed when the browser accepts it, with an ``ETag``;
        304 when ``If-None-Match`` names it; 404 in Spanish for a page that does not exist."""
        path = request.match_info["path"]
        site = self.site
        text = site.pages.get(path) if site is not None else None
        if text is None:
            return web.Response(status=404, content_type="text/plain", charset="utf-8",
                                text=f"No existe la página {path}. Vuelva a «{CURRENT_PAGE}».")
        page = self.encoded(path, text)
        headers = {"Cache-Control": "no-cache", "ETag": page.etag, "Vary": "Accept-Encoding"}
        if {page.etag, "*"} & {tag.strip() for tag in request.headers.get("If-None-Match", "").split(",")}:
            return web.Response(status=304, headers=headers)
        body = page.body
        if accepts_gzip(request.headers.get("Accept-Encoding", "")):
            body = page.gzipped
            headers["Content-Encoding"] = "gzip"
        suffix = path[path.rfind("."):]
        return web.Response(body=body, content_type=CONTENT_TYPES.get(suffix, "text/plain"), charset="utf-8",
                            headers=headers)

    async def handle_events(self, request: web.Request) -> web.StreamResponse:
        """The stream of changes (module docstring)."""
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream; charset=utf-8",
                                               "Cache-Control": "no-store", "X-Accel-Buffering": "no"})
        await response.prepare(request)
        queue: asyncio.Queue[bytes | None] = asyncio.Queue(maxsize=QUEUED_CHANGES)
        self.listeners.add(queue)
        try:
            version = self.site.version if self.site is not None else 0
            hello = {"version": version, "hora": round(time.time() * 1000), "hecho": round(self.built_at * 1000)}
            await response.write(f"retry: {RETRY_MILLISECONDS}\n".encode() + event_bytes("version", hello))
            while (message := await queue.get()) is not None:      # None: the server stops
                await response.write(message)
        except (ConnectionResetError, ConnectionError):
            pass                                    # the browser left
        finally:
            self.listeners.discard(queue)
        return response

    @web.middleware
    async def _quiet_errors(self, request: web.Request,
                            handler: Callable[[web.Request], Awaitable[web.StreamResponse]]) -> web.StreamResponse:
        """405 in Spanish for anything but reading; any unexpected error one console line and
        a Spanish 500, never a traceback."""
        try:
            return await handler(request)
        except web.HTTPMethodNotAllowed:
            return web.Response(status=405, content_type="text/plain", charset="utf-8", headers={"Allow": "GET, HEAD"},
                                text="Estas páginas solo se leen: no admiten ninguna acción.")
        except web.HTTPException:
            raise
        except Exception as error:
            return unexpected_error(log, request, error,
                                    "Ha habido un error inesperado en el servidor: vuelva a intentarlo.")

    # --- running ---------------------------------------------------------------------------------------
    def urls(self) -> list[str]:
        """The addresses viewers open: ``public_url`` when given, else this machine's."""
        return [self.public_url] if self.public_url else browser_urls(self.host, self.port, "http")

    async def start_site(self) -> web.AppRunner:
        """Listen without blocking (for the tests and the bench): the runner, to ``cleanup()``;
        with port 0, the port chosen is in ``self.port`` afterwards."""
        runner = web.AppRunner(await self.make_app(), access_log_class=PathAccessLogger)
        await runner.setup()
        await web.TCPSite(runner, self.host, self.port, backlog=LISTEN_BACKLOG).start()
        if self.port == 0 and runner.addresses:
            self.port = int(runner.addresses[0][1])
        return runner

    def serve(self, announce: Callable[[str], None]) -> None:
        """Listen until interrupted (Ctrl+C); ``announce`` gets the Spanish banner lines.
        Raises ``OSError`` when the address cannot be listened on, ``TournamentError`` for
        an unknown tournament or a refused mirror folder."""
        install_console_logging()
        files = raise_file_limit()
        viewers = (files - FILES_SPARE) // FILES_PER_VIEWER

        async def application() -> web.Application:
            app = await self.make_app()
            for line in (f"duplicada en directo: páginas públicas de solo lectura en {' o '.join(self.urls())}",
                         *([f"Copia estática en {self.mirror} tras cada cambio."] if self.mirror else []),
                         *([f"Aviso: el sistema deja a este proceso {files} ficheros abiertos, para unos "
                            f"{max(viewers, 0)} espectadores a la vez; para {VIEWERS_PLANNED}, súbalo antes de "
                            f"empezar (p. ej. «ulimit -n {FILES_PER_VIEWER * VIEWERS_PLANNED + FILES_SPARE * 4}»)."]
                           if viewers < VIEWERS_PLANNED else []),
                         "Pulse Ctrl+C para terminar."):
                announce(line)
            return app

        web.run_app(application(), host=self.host, port=self.port, print=None, access_log_class=PathAccessLogger,
                    backlog=LISTEN_BACKLOG)
