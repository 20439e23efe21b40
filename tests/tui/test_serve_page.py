"""``duplicada serve``'s page on the venue network (issue 35 §4): served with ``--host
0.0.0.0``, the page names the address the browser used (its ``Host``), never ``0.0.0.0``;
it speaks Spanish and asks nothing of another host (the font is the server's own); at
start-up the judge's terminal lists this machine's addresses, each one reaching the server.
"""

from __future__ import annotations

import asyncio
import base64
import io
import re
import socket
from urllib.parse import urlsplit

import aiohttp
from rich.console import Console

from tui.cli.venue_server import VenueServer

PASSWORD = "sala-de-juego-2026"
AUTH = {"Authorization": "Basic " + base64.b64encode(f"auxiliar:{PASSWORD}".encode()).decode()}
URL = re.compile(r"(?:https?|wss?)://([^/\"'\s)]+)")
LINKS = re.compile(r"""(?:href|src)="([^"]+)\"""")
CSS_COMMENT = re.compile(r"/\*.*?\*/", re.S)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def venue_server(**options: object) -> VenueServer:
    server = VenueServer("true", password=PASSWORD, max_sessions=2, idle_seconds=60, host="0.0.0.0",
                         port=free_port(), **options)  # type: ignore[arg-type]
    server.console = Console(file=io.StringIO(), width=200)
    return server


def test_the_page_names_the_address_the_browser_used_speaks_spanish_and_stays_in_the_venue() -> None:
    server = venue_server()

    async def visit() -> tuple[str, dict[str, str], int]:
        runner = await server.start_site()
        try:
            async with aiohttp.ClientSession() as client:
                local = f"http://127.0.0.1:{server.port}"
                headers = {**AUTH, "Host": f"10.20.30.40:{server.port}"}
                async with client.get(f"{local}/", headers=headers) as page:
                    assert page.status == 200
                    text = await page.text()
                styles = {}
                for link in LINKS.findall(text):          # each file the page loads, fetched from here
                    async with client.get(local + urlsplit(link).path, headers=AUTH) as answer:
                        assert answer.status == 200, link
                        if link.endswith(".css"):
                            styles[link] = await answer.text()
                async with client.get(f"{local}/", headers={**AUTH, "Host": 'x"><script>'}) as bad:
                    return text, styles, bad.status
        finally:
            await runner.cleanup()

    page, styles, bad = asyncio.run(visit())
    assert "0.0.0.0" not in page
    assert set(URL.findall(page)) == {f"10.20.30.40:{server.port}"}          # nothing from another host
    assert f'src="http://10.20.30.40:{server.port}/static/js/textual.js"' in page
    assert f'data-session-websocket-url="ws://10.20.30.40:{server.port}/ws"' in page
    assert styles and all(not URL.findall(CSS_COMMENT.sub("", css)) and "@import" not in css
                          for css in styles.values())                     # the style asks no other host
    assert '<html lang="es">' in page
    for spanish in (">Entrar<", "Sesión terminada.", ">Volver a entrar<"):
        assert spanish in page
    for english in (">Start<", "Session ended", ">Restart<", "Textual Application"):
        assert english not in page
    assert bad == 400                                                       # a Host that is no address


def test_a_public_url_given_is_the_one_the_page_names() -> None:
    server = venue_server(public_url="https://sala.example.org")

    async def visit() -> str:
        runner = await server.start_site()
        try:
            async with aiohttp.ClientSession() as client:
                async with client.get(f"http://127.0.0.1:{server.port}/", headers=AUTH) as page:
                    return await page.text()
        finally:
            await runner.cleanup()

    page = asyncio.run(visit())
    assert set(URL.findall(page)) == {"sala.example.org"} and "wss://sala.example.org/ws" in page


def test_at_start_up_the_judge_reads_this_machines_addresses_each_reaching_the_server() -> None:
    server = venue_server()

    async def start() -> tuple[str, list[int]]:
        runner = await server.start_site()
        try:
            banner = server.console.file.getvalue()  # type: ignore[attr-defined]
            statuses = []
            async with aiohttp.ClientSession() as client:
                for url in re.findall(r"http://\S+?/", banner):
                    async with client.get(url, headers=AUTH) as page:
                        statuses.append(page.status)
                        assert urlsplit(url).netloc in await page.text()
            return banner, statuses
        finally:
            await runner.cleanup()

    banner, statuses = asyncio.run(start())
    assert "0.0.0.0" not in banner and "Los puestos abren" in banner
    assert statuses and set(statuses) == {200}, banner
