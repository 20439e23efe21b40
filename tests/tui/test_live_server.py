"""``duplicada live`` (issue 37): the live pages served from memory, each change pushed to
the browsers over server-sent events, nothing that acts, and the static mirror.

A real server on port 0 of the loopback; the record changes through the service in a
worker thread while the test reads the stream (the server looks at the log every 50 ms
here). Waits are for the event itself, with a generous timeout.
"""

from __future__ import annotations

import asyncio
import gzip
import json
import os
import resource
import socket
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from click.testing import CliRunner

from duplicate.publishing.live_pages import CURRENT_PAGE, live_site, write_mirror
from duplicate.service.errors import InvalidFile
from duplicate.service.facade import TournamentService
from duplicate.storage.database import open_database
from lexicon.lexicon import Lexicon
from ranking.classic.service import ClassicService
from tests.credentials import JUDGE_PIN
from tui.cli import live_server
from tui.cli.live_server import QUEUED_CHANGES, LiveServer, accepts_gzip, raise_file_limit
from tui.cli.main import main

WAIT = 10.0
"""Seconds to wait for an event at most (the issue's bound is 2 s; this is a busy machine)."""


@pytest.fixture
def played(tmp_path: Path, spanish_lexicon: Lexicon) -> tuple[TournamentService, int, int, Path]:
    """A tournament whose round 1 has its master placed and a slip entered, not closed."""
    path = tmp_path / "t.db"
    service = TournamentService(open_database(str(path)), station="mesa", lexicon=spanish_lexicon, pin=JUDGE_PIN)
    tournament = service.create_tournament("Torneo en directo", venue="Valencia")
    for name in ("Ana Pérez", "Luis Gil", "<b>Eva</b>"):
        service.add_player(name, club="Club")
    game = service.create_game(rounds=3, seed=5)
    service.draw_rack(game)
    placed = service.choose_master(game)
    assert placed.master is not None
    service.enter_slip(game, 1, placed.master)
    return service, tournament, game, path


async def next_event(stream: aiohttp.ClientResponse) -> tuple[str, dict[str, Any]]:
    """The next ``event:`` of the stream and its data (comments and ``retry:`` skipped)."""
    kind, data = "", ""
    while True:
        line = (await stream.content.readline()).decode("utf-8")
        if line == "":
            raise AssertionError("the stream ended")
        line = line.rstrip("\n")
        if line.startswith("event: "):
            kind = line[len("event: "):]
        elif line.startswith("data: "):
            data = line[len("data: "):]
        elif line == "" and kind:
            return kind, json.loads(data)


def test_a_closed_round_reaches_a_connected_browser_and_nothing_acts(
        played: tuple[TournamentService, int, int, Path]) -> None:
    service, tournament, game, _path = played
    server = LiveServer(service.with_pin(None), tournament, host="127.0.0.1", port=0, poll_seconds=0.05)

    async def visit() -> dict[str, Any]:
        runner = await server.start_site()
        base = f"http://127.0.0.1:{server.port}"
        seen: dict[str, Any] = {}
        try:
            async with aiohttp.ClientSession() as client:
                async with client.get(f"{base}/", allow_redirects=False) as answer:
                    seen["root"] = (answer.status, answer.headers.get("Location"))
                async with client.get(f"{base}/{CURRENT_PAGE}") as answer:
                    seen["current"] = (answer.status, answer.content_type, await answer.text())
                async with client.get(f"{base}/partida-{game}.html") as answer:
                    seen["before"] = await answer.text()
                async with client.get(f"{base}/eventos") as stream:
                    seen["type"] = stream.content_type
                    seen["first"] = await asyncio.wait_for(next_event(stream), WAIT)
                    await asyncio.to_thread(service.close_round, game)
                    seen["change"] = await asyncio.wait_for(next_event(stream), WAIT)
                async with client.get(f"{base}/partida-{game}.html") as answer:
                    seen["after"] = await answer.text()
                async with client.get(f"{base}/eventos") as stream:      # a browser back after a cut
                    seen["again"] = await asyncio.wait_for(next_event(stream), WAIT)
                for method in ("POST", "PUT", "DELETE"):
                    async with client.request(method, f"{base}/{CURRENT_PAGE}") as answer:
                        seen[method] = (answer.status, await answer.text())
                async with client.post(f"{base}/eventos") as answer:
                    seen["post events"] = answer.status
                async with client.get(f"{base}/nada.html?pin=1234") as answer:
                    seen["missing"] = answer.status
        finally:
            await runner.cleanup()
        return seen

    seen = asyncio.run(visit())
    assert seen["root"] == (302, f"/{CURRENT_PAGE}")
    status, content_type, page = seen["current"]
    assert (status, content_type) == (200, "text/html")
    assert "Jugada maestra de la ronda 1" in page and "<noscript><meta http-equiv=\"refresh\"" in page
    assert "&lt;b&gt;Eva&lt;/b&gt;" in page or "&lt;b&gt;Eva&lt;/b&gt;" in seen["before"]
    assert ">R1<" not in seen["before"]                     # the slip is not public before the close
    assert seen["type"] == "text/event-stream"
    first_kind, first = seen["first"]
    assert first_kind == "version"
    kind, change = seen["change"]
    assert kind == "cambio" and change["version"] > first["version"]
    assert f"partida-{game}.html" in change["paginas"] and "index.html" in change["paginas"]
    assert ">R1<" in seen["after"]
    assert seen["again"][0] == "version" and seen["again"][1]["version"] == change["version"]
    assert abs(seen["again"][1]["hora"] / 1000 - time.time()) < WAIT        # the server's time, for the clock
    assert 0 < seen["again"][1]["hecho"] <= seen["again"][1]["hora"]        # when the pages served were built
    for method in ("POST", "PUT", "DELETE"):
        assert seen[method][0] == 405 and "solo se leen" in seen[method][1]
    assert seen["post events"] == 405
    assert seen["missing"] == 404


def test_the_mirror_is_rewritten_after_each_change_with_no_temporary_file(
        played: tuple[TournamentService, int, int, Path], tmp_path: Path) -> None:
    service, tournament, game, _path = played
    folder = tmp_path / "espejo"
    server = LiveServer(service.with_pin(None), tournament, mirror=folder)
    server.site = server.build()
    assert (folder / CURRENT_PAGE).is_file() and (folder / "estilo.css").is_file()
    assert len(list((folder / "jugadores").glob("jugador-*.html"))) == 3
    assert ">R1<" not in (folder / f"partida-{game}.html").read_text(encoding="utf-8")
    service.close_round(game)
    assert asyncio.run(server.refresh())
    assert ">R1<" in (folder / f"partida-{game}.html").read_text(encoding="utf-8")
    assert not asyncio.run(server.refresh())                 # nothing moved: nothing rebuilt
    leftovers = [name for _root, _dirs, names in os.walk(folder) for name in names if name.endswith(".tmp")]
    assert leftovers == []


def test_a_mirror_folder_with_a_symbolic_link_is_refused(
        played: tuple[TournamentService, int, int, Path], tmp_path: Path) -> None:
    service, tournament, _game, _path = played
    site = live_site(service, tournament)
    target = tmp_path / "fuera.html"
    target.write_text("intacto", encoding="utf-8")
    folder = tmp_path / "espejo"
    folder.mkdir()
    (folder / "index.html").symlink_to(target)
    with pytest.raises(InvalidFile, match="enlace simbólico"):
        write_mirror(site, folder)
    assert target.read_text(encoding="utf-8") == "intacto"
    link = tmp_path / "enlace"
    link.symlink_to(tmp_path / "otra", target_is_directory=True)
    with pytest.raises(InvalidFile, match="enlace simbólico"):
        write_mirror(site, link)


def test_the_command_refuses_an_unknown_tournament_in_spanish(
        played: tuple[TournamentService, int, int, Path]) -> None:
    _service, _tournament, _game, path = played
    result = CliRunner().invoke(main, ["live", "--db", str(path), "--tournament", "99", "--port", "0"])
    assert result.exit_code == 1
    assert "Error:" in result.output and "Traceback" not in result.output


def test_without_tournament_the_newest_at_start_is_followed_not_a_later_one(
        played: tuple[TournamentService, int, int, Path]) -> None:
    service, tournament, _game, _path = played
    server = LiveServer(service.with_pin(None), None)

    async def start_then_another() -> bool:
        await server.make_app()
        service.create_tournament("Otro torneo")
        return await server.refresh()

    asyncio.run(start_then_another())
    assert server.tournament_id == tournament
    assert server.site is not None and "Otro torneo" not in server.site.pages["index.html"]
    assert "Torneo en directo" in server.site.pages["index.html"]


def test_a_mirror_that_turns_bad_is_said_once_and_the_server_goes_on(
        played: tuple[TournamentService, int, int, Path], tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    service, tournament, game, _path = played
    folder = tmp_path / "espejo"
    server = LiveServer(service.with_pin(None), tournament, mirror=folder, poll_seconds=0.01)
    attempts = 0
    refresh = server.refresh

    async def counted() -> bool:
        nonlocal attempts
        attempts += 1
        return await refresh()

    server.refresh = counted        # type: ignore[method-assign]

    async def run() -> None:
        await server.make_app()
        (folder / "enlace.html").symlink_to(tmp_path / "fuera.html")
        await asyncio.to_thread(service.close_round, game)
        watcher = asyncio.get_running_loop().create_task(server._watch())
        while attempts < 6:                       # several looks, each failing
            await asyncio.sleep(0.01)
        watcher.cancel()

    with caplog.at_level("ERROR", logger="duplicada.live"):
        asyncio.run(run())
    errors = [record.getMessage() for record in caplog.records if record.name == "duplicada.live"]
    assert len(errors) == 1 and "enlace simbólico" in errors[0]
    assert server.site is not None and ">R1<" not in server.site.pages[f"partida-{game}.html"]


def test_a_classic_tournament_is_served_and_a_new_round_reaches_a_browser(tmp_path: Path) -> None:
    judge = TournamentService(open_database(str(tmp_path / "clasico.db")), station="mesa", pin=JUDGE_PIN)
    tournament = judge.create_tournament("Open clásico")
    for name in ("<b>[x]</b>", "Ana Pérez", "Luis Gil", "Eva Ruiz"):
        judge.add_player(name)
    classic = ClassicService.like(judge)
    classic.create_division(rounds=3, system="dutch-2026")
    for board in classic.pair_round():
        if board.table is not None:
            classic.enter_result(1, board.table, 420, 380)
    folder = tmp_path / "espejo"
    server = LiveServer(judge.with_pin(None), tournament, host="127.0.0.1", port=0, poll_seconds=0.05,
                        mirror=folder)

    async def visit() -> dict[str, Any]:
        runner = await server.start_site()
        base = f"http://127.0.0.1:{server.port}"
        seen: dict[str, Any] = {}
        try:
            async with aiohttp.ClientSession() as client:
                for page in (CURRENT_PAGE, "clasica/ronda-1.html", "clasica/clasificacion-ronda-1.html",
                             "clasica/ronda-2.html"):
                    async with client.get(f"{base}/{page}") as answer:
                        seen[page] = (answer.status, await answer.text())
                async with client.get(f"{base}/eventos") as stream:
                    await asyncio.wait_for(next_event(stream), WAIT)
                    seen["paired"] = await asyncio.to_thread(classic.pair_round)
                    seen["change"] = await asyncio.wait_for(next_event(stream), WAIT)
                async with client.get(f"{base}/clasica/ronda-2.html") as answer:
                    seen["after"] = (answer.status, await answer.text())
        finally:
            await runner.cleanup()
        return seen

    seen = asyncio.run(visit())
    status, current = seen[CURRENT_PAGE]
    assert status == 200 and 'href="clasica/ronda-1.html"' in current and "ronda 1 de 3 completa" in current
    status, round_one = seen["clasica/ronda-1.html"]
    assert status == 200 and "&lt;b&gt;[x]&lt;/b&gt;" in round_one and "<b>[x]" not in round_one
    assert seen["clasica/clasificacion-ronda-1.html"][0] == 200
    assert seen["clasica/ronda-2.html"][0] == 404                            # not before it is paired
    kind, change = seen["change"]
    assert kind == "cambio" and {"clasica/ronda-2.html", CURRENT_PAGE} <= set(change["paginas"])
    status, round_two = seen["after"]
    board = next(b for b in seen["paired"] if b.table is not None)
    assert status == 200 and f"{board.first}. {board.first_name}" in round_two
    assert (folder / "clasica" / "ronda-2.html").read_text(encoding="utf-8") == round_two


def test_events_that_show_nothing_rebuild_nothing_and_send_no_change(
        played: tuple[TournamentService, int, int, Path]) -> None:
    """A slip entered in the open round, a claim filed or a PIN set move the version the
    pages stand for, with no rebuild and no ``cambio``; the close rebuilds and tells."""
    service, tournament, game, _path = played
    server = LiveServer(service.with_pin(None), tournament)
    built: list[int] = []
    build = server.build

    def counted() -> Any:
        site = build()
        built.append(site.version)
        return site

    server.build = counted          # type: ignore[method-assign]

    async def run() -> list[tuple[str, bool, int, list[Any]]]:
        await server.make_app()
        queue: asyncio.Queue[bytes | None] = asyncio.Queue()
        server.listeners.add(queue)
        seen = []
        for what, action in (
                ("slip", lambda: service.mark_slip(game, 2, "tarde")),
                ("pin", lambda: service.set_pin("assistant", "auxiliar-uno-9", name="Auxiliar 1")),
                ("close", lambda: service.close_round(game)),
                ("claim", lambda: service.file_claim(game, 1, 3, "Mi papeleta")),
                ("rack", lambda: service.draw_rack(game))):
            await asyncio.to_thread(action)
            rebuilt = await server.refresh()
            assert server.site is not None
            assert server.site.version == service.last_event_id(tournament), what     # the pages stand for it
            messages = []
            while not queue.empty():
                event = queue.get_nowait()                 # b"event: cambio\ndata: {...}\n\n"
                assert event is not None and event.startswith(b"event: cambio\ndata: "), what
                messages.append(json.loads(event.split(b"data: ", 1)[1]))
            seen.append((what, rebuilt, server.site.version, messages))
        return seen

    seen = asyncio.run(run())
    assert len(built) == 3                                      # at start, the close, the rack
    for what, rebuilt, version, messages in seen:
        if what in ("slip", "pin", "claim"):
            assert not rebuilt and messages == [], what
        else:
            assert rebuilt and [message["version"] for message in messages] == [version], what
    assert [version for _what, _rebuilt, version, _messages in seen] == sorted({item[2] for item in seen})
    close = next(messages for what, _rebuilt, _version, messages in seen if what == "close")
    assert f"partida-{game}.html" in close[0]["paginas"]


def test_the_mirror_rewrites_only_the_pages_that_changed(
        played: tuple[TournamentService, int, int, Path], tmp_path: Path) -> None:
    service, tournament, game, _path = played
    folder = tmp_path / "espejo"
    server = LiveServer(service.with_pin(None), tournament, mirror=folder)
    server.site = server.build()
    files = {path.relative_to(folder).as_posix(): path.stat().st_ino for path in folder.rglob("*.html")}
    service.close_round(game)
    assert asyncio.run(server.refresh())
    assert server.site is not None
    after = {path.relative_to(folder).as_posix(): path.stat().st_ino for path in folder.rglob("*.html")}
    assert after.keys() == files.keys()
    rewritten = {name for name in after if after[name] != files[name]}       # os.replace: a new file
    assert f"partida-{game}.html" in rewritten and "index.html" in rewritten
    kept = set(after) - rewritten
    assert kept and all(server.site.pages[name] == (folder / name).read_text(encoding="utf-8") for name in after)


# --- many viewers (bench/live_viewers.py measures them): one encoding, nobody waits for a silent one ---
async def wait_until(condition: Callable[[], bool], what: str) -> None:
    """Poll ``condition`` (a state, not a time) until it holds, at most ``WAIT`` seconds."""
    deadline = asyncio.get_running_loop().time() + WAIT
    while not condition():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"still waiting for {what}")
        await asyncio.sleep(0.01)


def test_every_listener_gets_the_closed_round_and_a_slip_that_changes_no_page_is_not_sent(
        played: tuple[TournamentService, int, int, Path]) -> None:
    service, tournament, game, _path = played
    server = LiveServer(service.with_pin(None), tournament, host="127.0.0.1", port=0, poll_seconds=0.05)
    listeners = 40

    async def visit() -> tuple[int, list[tuple[str, dict[str, Any]]], int]:
        runner = await server.start_site()
        try:
            async with aiohttp.ClientSession() as client:
                streams = [await client.get(f"http://127.0.0.1:{server.port}/eventos") for _ in range(listeners)]
                firsts = [await asyncio.wait_for(next_event(stream), WAIT) for stream in streams]
                assert all(first[0] == "version" and first[1]["version"] == firsts[0][1]["version"]
                           for first in firsts)                  # each with the server's time of its own
                version = firsts[0][1]["version"]
                await asyncio.to_thread(service.enter_slip, game, 2, "H8-NADA")     # an event; no page changes
                await wait_until(lambda: server.site is not None and server.site.version > version,
                                 "the version after the slip (no rebuild)")
                await asyncio.to_thread(service.close_round, game)
                closed = service.last_event_id(tournament)
                changes = [await asyncio.wait_for(next_event(stream), WAIT) for stream in streams]
                for stream in streams:
                    stream.close()
        finally:
            await runner.cleanup()
        return version, changes, closed

    version, changes, closed = asyncio.run(visit())
    assert len(changes) == listeners and all(change == changes[0] for change in changes)
    kind, change = changes[0]
    assert kind == "cambio" and change["version"] >= closed > version       # the first change each saw: the close's
    assert f"partida-{game}.html" in change["paginas"]


def test_a_listener_that_does_not_read_holds_up_no_other_and_gets_every_page_named_later(
        played: tuple[TournamentService, int, int, Path]) -> None:
    service, tournament, _game, _path = played
    server = LiveServer(service.with_pin(None), tournament, host="127.0.0.1", port=0)
    filler = "x" * 40_000                       # changes of 40 KB, far more than the silent socket's buffers hold
    buffers = Path("/proc/sys/net/ipv4/tcp_wmem")   # the most the system buffers for a socket (Linux: 4 MB)
    most = int(buffers.read_text().split()[-1]) if buffers.exists() else 4 << 20
    changes, readers = max(200, (most + (4 << 20)) // len(filler)), 3

    async def visit() -> tuple[list[list[int]], bytes, list[int], str]:
        runner = await server.start_site()
        loop = asyncio.get_running_loop()
        silent = socket.socket()
        silent.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        silent.setblocking(False)
        await loop.sock_connect(silent, ("127.0.0.1", server.port))
        await loop.sock_sendall(silent, b"GET /eventos HTTP/1.1\r\nHost: directo\r\n\r\n")
        received: list[list[int]] = [[] for _ in range(readers)]
        try:
            async with aiohttp.ClientSession() as client:
                streams = [await client.get(f"http://127.0.0.1:{server.port}/eventos") for _ in range(readers)]
                for stream in streams:
                    await asyncio.wait_for(next_event(stream), WAIT)
                await wait_until(lambda: len(server.listeners) == readers + 1, "the silent listener")

                async def read(index: int, stream: aiohttp.ClientResponse) -> None:
                    while len(received[index]) < changes:
                        _kind, data = await next_event(stream)
                        received[index].append(int(data["paginas"][0].split("-")[0]))

                tasks = [loop.create_task(read(index, stream)) for index, stream in enumerate(streams)]
                assert server.site is not None
                for number in range(changes):          # each change reaches every reader before the next
                    server.tell(server.site, [f"{number}-{filler}"])
                    await wait_until(lambda: all(len(seen) > number for seen in received), f"change {number}")
                await asyncio.gather(*tasks)
                queued = [queue.qsize() for queue in server.listeners]
                late = b""                             # the silent one reads at last, up to the last change
                last = f'"{changes - 1}-x'.encode()
                while last not in late[-len(filler) - 4096:]:
                    late += await asyncio.wait_for(loop.sock_recv(silent, 1 << 20), WAIT)
                for stream in streams:
                    stream.close()
        finally:
            silent.close()
            await runner.cleanup()
        return received, late, queued, json.dumps(sorted(server.site.pages))

    received, late, queued, every = asyncio.run(visit())
    assert all(seen == list(range(changes)) for seen in received)     # in order, none dropped, none late
    assert max(queued) <= QUEUED_CHANGES                                 # the silent one's changes are bounded
    assert every.encode() in late and late.count(b"event: cambio") < changes    # it skipped ahead, told so


def test_a_page_is_served_compressed_once_with_an_etag_and_changes_after_the_close(
        played: tuple[TournamentService, int, int, Path]) -> None:
    service, tournament, game, _path = played
    server = LiveServer(service.with_pin(None), tournament, host="127.0.0.1", port=0, poll_seconds=0.05)
    page = f"partida-{game}.html"

    async def visit() -> dict[str, Any]:
        runner = await server.start_site()
        base = f"http://127.0.0.1:{server.port}/{page}"
        seen: dict[str, Any] = {}
        try:
            async with aiohttp.ClientSession(auto_decompress=False) as client:
                async with client.get(base, headers={"Accept-Encoding": "gzip, deflate, br"}) as answer:
                    seen["gzip"] = (answer.status, {key.lower(): value for key, value in answer.headers.items()},
                                    await answer.read())
                async with client.get(base, headers={"Accept-Encoding": "identity"}) as answer:
                    seen["plain"] = (answer.status, {key.lower(): value for key, value in answer.headers.items()},
                                     await answer.read())
                async with client.get(base, headers={"Accept-Encoding": "gzip;q=0"}) as answer:
                    seen["refused"] = answer.headers.get("Content-Encoding")
                etag = seen["gzip"][1]["etag"]
                async with client.get(base, headers={"If-None-Match": etag}) as answer:
                    seen["same"] = (answer.status, await answer.read())
                async with client.head(base, headers={"Accept-Encoding": "identity"}) as answer:
                    seen["head"] = (answer.status, answer.headers.get("Content-Length"))
                seen["before"] = server.site.pages[page] if server.site else ""
                version = server.site.version if server.site else 0
                await asyncio.to_thread(service.close_round, game)
                await wait_until(lambda: server.site is not None and server.site.version > version, "the rebuild")
                async with client.get(base, headers={"If-None-Match": etag, "Accept-Encoding": "gzip"}) as answer:
                    seen["after"] = (answer.status, answer.headers.get("ETag"), gzip.decompress(await answer.read()))
        finally:
            await runner.cleanup()
        return seen

    seen = asyncio.run(visit())
    before = seen["before"].encode("utf-8")
    status, headers, body = seen["gzip"]
    assert status == 200 and headers["content-encoding"] == "gzip" and headers["vary"] == "Accept-Encoding"
    assert headers["content-type"] == "text/html; charset=utf-8" and gzip.decompress(body) == before
    assert len(body) < len(before) / 2
    status, headers, body = seen["plain"]
    assert status == 200 and "content-encoding" not in headers and body == before
    assert headers["etag"] == seen["gzip"][1]["etag"] and headers["etag"].startswith('W/"')
    assert seen["refused"] is None
    assert seen["same"] == (304, b"")
    assert seen["head"] == (200, str(len(before)))
    status, etag, text = seen["after"]
    assert status == 200 and etag != seen["gzip"][1]["etag"]
    assert b">R1<" in text and b">R1<" not in before


def test_a_quiet_stream_gets_the_keep_alive_comment(played: tuple[TournamentService, int, int, Path],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    service, tournament, _game, _path = played
    monkeypatch.setattr(live_server, "KEEPALIVE_SECONDS", 0.05)
    server = LiveServer(service.with_pin(None), tournament, host="127.0.0.1", port=0)

    async def visit() -> list[bytes]:
        runner = await server.start_site()
        lines = []
        try:
            async with aiohttp.ClientSession() as client, \
                    client.get(f"http://127.0.0.1:{server.port}/eventos") as stream:
                while b": sigue\n" not in lines:
                    lines.append(await asyncio.wait_for(stream.content.readline(), WAIT))
        finally:
            await runner.cleanup()
        return lines

    lines = asyncio.run(visit())
    assert lines[0] == b"retry: 2000\n" and lines[1] == b"event: version\n"


@pytest.mark.parametrize(("header", "accepted"), [
    ("gzip, deflate, br", True), ("br;q=1.0, GZIP;q=0.5", True), ("*", True), ("identity", False), ("", False),
    ("gzip;q=0", False), ("deflate, gzip; q=0.0", False), ("*, gzip;q=0", False), ("gzip;q=zero", False)])
def test_accept_encoding_is_read_as_http_says(header: str, accepted: bool) -> None:
    assert accepts_gzip(header) is accepted


def test_the_open_files_limit_is_raised_to_the_hard_limit() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        if soft > 64 and hard != resource.RLIM_INFINITY:
            resource.setrlimit(resource.RLIMIT_NOFILE, (soft // 2, hard))
        assert raise_file_limit() == resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        assert hard == resource.RLIM_INFINITY or resource.getrlimit(resource.RLIMIT_NOFILE)[0] == hard
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, resource.getrlimit(resource.RLIMIT_NOFILE)[0]), hard))
