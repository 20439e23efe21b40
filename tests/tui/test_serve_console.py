"""What ``duplicada serve`` writes on the judge's console (issue 36 §2): a browser that knows
the venue password and sends malformed websocket messages gets each one refused with one
line naming its address — no traceback, no local variables, no ``Authorization`` header —
while its session and the others go on; the access log names the method and the path,
never a query string; an unexpected error in a handler is one line too; and without a
certificate on a non-loopback address the judge is warned at start-up that the password
and the PINs cross the network in clear.

The server is the real aiohttp application on a free port, its logging set up as
``serve`` sets it up; each browser's app process is ``echo_app_process.py``, which sends
back what reaches it.
"""

from __future__ import annotations

import asyncio
import base64
import io
import logging
import shlex
import socket
import ssl
import sys
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import pytest
from rich.console import Console

from tests.tui.waiting import CAP
from tui.cli.venue_server import REFUSED_PER_SESSION, VenueServer, clear_text_warning

PASSWORD = "sala-de-juego-2026"
CREDENTIALS = base64.b64encode(f"auxiliar:{PASSWORD}".encode()).decode()
AUTH = {"Authorization": f"Basic {CREDENTIALS}"}
ECHO_APP = f"{shlex.quote(sys.executable)} {shlex.quote(str(Path(__file__).with_name('echo_app_process.py')))}"

MALFORMED: list[str | bytes] = [
    "esto no es json",
    '["resize",{"width":"x"}]',
    '["resize",{"width":80}]',
    '["resize",{"width":"x","height":24}]',
    '["resize",{"width":true,"height":24}]',
    '["resize",{"width":1e999,"height":24}]',
    '["resize",{"width":NaN,"height":24}]',
    '["resize",{"width":80.5,"height":24}]',
    '["resize",{"width":99999999999999999999,"height":24}]',
    '["resize",{"width":' + "9" * 5000 + ',"height":24}]',
    '["resize",{"width":-3,"height":24}]',
    '["resize",[80,24]]',
    '["resize"]',
    '["stdin",5]',
    '["stdin"]',
    '["stdin","a","b"]',
    '["stdin","\\ud800"]',
    '["ping",{"t":1}]',
    '["ping"]',
    '["focus",1]',
    '["nada"]',
    "[]",
    "[5]",
    '{"stdin":"x"}',
    '"stdin"',
    "42",
    "null",
    "[" * 100_000 + "]" * 100_000,
    b"\x00\xff binario",
]
"""Messages a browser never sends: not JSON, not a list, a wrong type, a missing or extra
field, a number too big for a terminal or for Python, a lone surrogate, a binary frame."""

VALID = ['["stdin","hola"]', '["resize",{"width":100,"height":30}]', '["ping","1767225600000"]', '["focus"]',
         '["blur"]']


@pytest.fixture
def judges_console(capsys: pytest.CaptureFixture[str]) -> Iterator[None]:
    """The root logger's handlers and level restored after the test (``venue_server`` sets
    them as ``serve`` does in its own process)."""
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    yield
    root.handlers[:] = handlers
    root.setLevel(level)


def venue_server(host: str = "127.0.0.1", **options: object) -> VenueServer:
    server = VenueServer(ECHO_APP, password=PASSWORD, max_sessions=4, idle_seconds=600, host=host, port=0,
                         **options)  # type: ignore[arg-type]
    server.console = Console(file=io.StringIO(), width=200)
    logging.getLogger().handlers.clear()          # as in «serve»'s own process, before it sets its logging
    server.initialize_logging()
    return server


def console_text(server: VenueServer, captured: pytest.CaptureFixture[str]) -> str:
    """Everything the server wrote: its Rich console, stdout and stderr."""
    streams = captured.readouterr()
    console = server.console.file
    assert isinstance(console, io.StringIO)
    return console.getvalue() + streams.out + streams.err


def assert_no_secret(text: str) -> None:
    for secret in ("Traceback", "Authorization", "Basic ", CREDENTIALS, PASSWORD,
                   base64.b64encode(PASSWORD.encode()).decode()):
        assert secret not in text, text[:3000]
    assert all(len(line) < 300 for line in text.splitlines()), text[:3000]     # no dump of locals


async def received_until(websocket: aiohttp.ClientWebSocketResponse, last: bytes) -> tuple[list[bytes], list[str]]:
    """The binary and text messages the server sends until ``last`` (or until it closes)."""
    binary: list[bytes] = []
    text: list[str] = []
    while True:
        message = await websocket.receive(timeout=CAP)
        if message.type == aiohttp.WSMsgType.BINARY:
            binary.append(message.data)
            if message.data == last:
                return binary, text
        elif message.type == aiohttp.WSMsgType.TEXT:
            text.append(message.data)
        else:
            return binary, text


def test_malformed_messages_are_refused_in_one_line_each_and_the_sessions_go_on(
        judges_console: None, capsys: pytest.CaptureFixture[str]) -> None:
    server = venue_server()

    async def browse() -> tuple[list[bytes], list[str], list[bytes]]:
        runner = await server.start_site()
        try:
            url = f"ws://127.0.0.1:{runner.addresses[0][1]}/ws?width=80&height=24"
            async with aiohttp.ClientSession() as client, client.ws_connect(url, headers=AUTH) as first, \
                    client.ws_connect(url, headers=AUTH) as other:
                for index, message in enumerate(MALFORMED):
                    if isinstance(message, bytes):
                        await first.send_bytes(message)
                    else:
                        await first.send_str(message)
                    if index < len(VALID):
                        await first.send_str(VALID[index])
                await first.send_str('["stdin","fin"]')
                binary, text = await received_until(first, b"fin")
                await other.send_str('["stdin","otra"]')
                others, _ = await received_until(other, b"otra")
                return binary, text, others
        finally:
            await runner.cleanup()

    assert len(MALFORMED) < REFUSED_PER_SESSION
    binary, text, others = asyncio.run(browse())
    assert sorted(binary) == sorted([b"hola", b'{"type": "resize", "width": 100, "height": 30}', b'{"type": "focus"}',
                                     b'{"type": "blur"}', b"fin"])              # only the valid ones reached the app
    assert text == ['["pong", "1767225600000"]'] and others == [b"otra"]
    output = console_text(server, capsys)
    assert_no_secret(output)
    refused = [line for line in output.splitlines() if "mal formado" in line]
    assert len(refused) == len(MALFORMED), output[:3000]
    assert all("127.0.0.1" in line and "rechazado" in line for line in refused)


def test_a_session_sending_only_garbage_is_closed_after_a_bounded_number_of_lines(
        judges_console: None, capsys: pytest.CaptureFixture[str]) -> None:
    server = venue_server()

    async def browse() -> aiohttp.WSMsgType:
        runner = await server.start_site()
        try:
            url = f"ws://127.0.0.1:{runner.addresses[0][1]}/ws"
            async with aiohttp.ClientSession() as client, client.ws_connect(url, headers=AUTH) as browser:
                for index in range(REFUSED_PER_SESSION + 10):
                    if browser.closed:
                        break
                    await browser.send_str(f"basura {index}")
                while (message := await browser.receive(timeout=CAP)).type == aiohttp.WSMsgType.BINARY:
                    pass
                return message.type
        finally:
            await runner.cleanup()

    assert asyncio.run(browse()) in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
    output = console_text(server, capsys)
    assert_no_secret(output)
    refused = [line for line in output.splitlines() if "mal formado" in line]
    assert len(refused) == REFUSED_PER_SESSION and "sesión cerrada" in refused[-1], output


def test_a_frame_breaking_the_websocket_protocol_ends_its_session_in_one_line(
        judges_console: None, capsys: pytest.CaptureFixture[str]) -> None:
    server = venue_server()

    async def browse() -> list[int]:
        runner = await server.start_site()
        try:
            url = f"ws://127.0.0.1:{runner.addresses[0][1]}/ws"
            codes = []
            async with aiohttp.ClientSession() as client:
                async with client.ws_connect(url, headers=AUTH) as browser:      # text that is not UTF-8
                    await browser._writer.send_frame(b"\xff\xfe", aiohttp.WSMsgType.TEXT)
                    codes.append((await browser.receive(timeout=CAP)).data)
                async with client.ws_connect(url, headers=AUTH) as browser:      # beyond aiohttp's 4 MiB
                    await browser.send_str('["stdin","' + "x" * (5 * 2**20) + '"]')
                    codes.append((await browser.receive(timeout=CAP)).data)
            return codes
        finally:
            await runner.cleanup()

    assert asyncio.run(browse()) == [1007, 1009]               # invalid data, message too big: closed
    output = console_text(server, capsys)
    assert_no_secret(output)
    cut = [line for line in output.splitlines() if "no cumple el protocolo websocket" in line]
    assert len(cut) == 2 and all("127.0.0.1" in line for line in cut), output


def test_the_access_log_names_method_and_path_never_the_query(
        judges_console: None, capsys: pytest.CaptureFixture[str]) -> None:
    server = venue_server()

    async def visit() -> list[int]:
        runner = await server.start_site()
        try:
            base = f"http://127.0.0.1:{runner.addresses[0][1]}"
            statuses = []
            async with aiohttp.ClientSession() as client:
                for path in ("/?password=secreto-uno&token=ficha-dos&fontsize=20",
                             "/static/js/textual.js?token=ficha-tres",
                             "/no-hay%0Afalsa%20l%C3%ADnea?password=secreto-cuatro"):
                    async with client.get(base + path, headers=AUTH) as answer:
                        statuses.append(answer.status)
            return statuses
        finally:
            await runner.cleanup()

    assert asyncio.run(visit()) == [200, 200, 404]
    output = console_text(server, capsys)
    assert_no_secret(output)
    for secret in ("secreto-", "ficha-", "token", "password", "?"):
        assert secret not in output, output
    lines = output.splitlines()
    assert any(line.startswith("127.0.0.1 GET / 200") for line in lines), output
    assert any(line.startswith("127.0.0.1 GET /static/js/textual.js 200") for line in lines), output
    assert not any(line.startswith("falsa") for line in lines), output        # no line forged from the path


def test_an_unexpected_error_in_a_handler_is_one_line_without_locals(
        judges_console: None, capsys: pytest.CaptureFixture[str]) -> None:
    server = venue_server()

    async def broken(request: object) -> None:
        header = AUTH["Authorization"]                          # a local a traceback would show
        raise RuntimeError(f"fallo con {header}")

    server.handle_index = broken  # type: ignore[assignment,method-assign]

    async def visit() -> tuple[int, str]:
        runner = await server.start_site()
        try:
            async with aiohttp.ClientSession() as client:
                async with client.get(f"http://127.0.0.1:{runner.addresses[0][1]}/", headers=AUTH) as answer:
                    return answer.status, await answer.text()
        finally:
            await runner.cleanup()

    status, text = asyncio.run(visit())
    assert status == 500 and "error inesperado" in text and "Traceback" not in text
    output = console_text(server, capsys)
    assert_no_secret(output)
    assert len([line for line in output.splitlines() if "error inesperado" in line]) == 1, output


def test_without_a_certificate_beyond_this_machine_the_judge_is_warned_at_start_up(
        judges_console: None, capsys: pytest.CaptureFixture[str]) -> None:
    with_tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    assert clear_text_warning("127.0.0.1", None) is None and clear_text_warning("::1", None) is None
    assert clear_text_warning("localhost", None) is None and clear_text_warning("0.0.0.0", with_tls) is None
    warning = clear_text_warning("192.168.1.10", None)
    assert warning is not None and "--certfile" in warning and "sin cifrar" in warning and "PIN" in warning

    async def start(server: VenueServer) -> None:
        runner = await server.start_site()
        await runner.cleanup()

    asyncio.run(start(venue_server(host="0.0.0.0")))
    streams = capsys.readouterr()
    said = " ".join(streams.err.split())                 # wrapped at the terminal's width
    assert "sin cifrar" in said and "--certfile" in said and "sin cifrar" not in streams.out
    asyncio.run(start(venue_server(host="127.0.0.1")))
    assert "sin cifrar" not in capsys.readouterr().err


def test_a_port_in_use_is_one_spanish_line_not_a_traceback(judges_console: None,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    from click.testing import CliRunner

    from tui.cli.main import main

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        monkeypatch.setenv("DUPLICADA_DB", "sqlite:///ninguna.db")
        result = CliRunner().invoke(main, ["serve", "--host", "127.0.0.1", "--port", str(port)])
    assert result.exit_code == 1 and "Traceback" not in result.output, result.output
    assert f"no se pudo escuchar en 127.0.0.1, puerto {port}" in result.output


def test_an_idle_session_is_still_closed_with_a_spanish_reason(judges_console: None) -> None:
    server = venue_server()
    server.idle_seconds = 0.2

    async def browse() -> tuple[aiohttp.WSMsgType, str]:
        runner = await server.start_site()
        try:
            url = f"ws://127.0.0.1:{runner.addresses[0][1]}/ws"
            async with aiohttp.ClientSession() as client, client.ws_connect(url, headers=AUTH) as browser:
                while (message := await browser.receive(timeout=CAP)).type == aiohttp.WSMsgType.BINARY:
                    pass
                return message.type, str(message.extra)
        finally:
            await runner.cleanup()

    kind, reason = asyncio.run(browse())
    assert kind == aiohttp.WSMsgType.CLOSE and "sesión inactiva" in reason


@pytest.mark.parametrize(("text", "shown"), [
    ("/partida-1.html", "/partida-1.html"), ("", ""), ("a\nb", "a\\nb"), ("a\u202eb", "a\\u202eb"),
    ("\x1b[31mrojo", "\\x1b[31mrojo"), ("ñandú", "ñandú")])
def test_a_console_line_shows_every_hidden_character_and_printable_text_as_it_is(text: str, shown: str) -> None:
    from tui.cli.venue_console import printable
    assert printable(text) == shown
    assert printable("x" * 400) == "x" * 299 + "…"
