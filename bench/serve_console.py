"""What the judge's console shows when browsers misbehave under ``duplicada serve`` (issue 36 §2).

Starts the real ``duplicada serve`` (a venue password, a fresh SQLite file, the real app
for each browser) on a free port of 127.0.0.1, then, with the right password: the
malformed websocket messages of the issue and a few more (``MALFORMED`` of
``tests/tui/test_serve_console.py``) in one session, a request whose query holds
``password=`` and ``token=``, and wrong passwords from ``--guessers`` loopback addresses
(127.0.0.N). Prints what the server wrote on stdout and stderr: tracebacks, lines naming
the ``Authorization`` header or holding the password (or its base64), query strings, lines
refusing a malformed message, and the statuses the guessers got. Usage:
``python bench/serve_console.py [--guessers 40]``. Figures are quoted in
``docs/robustness.md``.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import aiohttp

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.tui.test_serve_console import MALFORMED  # noqa: E402

PASSWORD = "sala-de-juego-2026"


def basic(password: str) -> dict[str, str]:
    return {"Authorization": "Basic " + base64.b64encode(f"auxiliar:{password}".encode()).decode()}


async def misbehave(port: int, guessers: int) -> Counter[int]:
    base = f"http://127.0.0.1:{port}"
    async with aiohttp.ClientSession() as client:
        async with client.ws_connect(f"ws://127.0.0.1:{port}/ws", headers=basic(PASSWORD)) as browser:
            for message in MALFORMED:
                await (browser.send_bytes(message) if isinstance(message, bytes) else browser.send_str(message))
            await browser.send_str('["ping","fin"]')
            while (reply := await browser.receive(timeout=300)).type != aiohttp.WSMsgType.TEXT \
                    or "fin" not in reply.data:
                if reply.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED):
                    break
        async with client.get(f"{base}/?password={PASSWORD}&token=ficha-secreta", headers=basic(PASSWORD)):
            pass
    statuses: Counter[int] = Counter()
    for index in range(guessers):
        connector = aiohttp.TCPConnector(local_addr=(f"127.0.0.{10 + index}", 0))
        async with aiohttp.ClientSession(connector=connector) as guesser:
            async with guesser.get(f"{base}/", headers=basic(f"intento-{index}")) as answer:
                statuses[answer.status] += 1
    return statuses


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--guessers", type=int, default=40)
    options = parser.parse_args()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    folder = tempfile.mkdtemp()
    environment = {**os.environ, "DUPLICADA_VENUE_PASSWORD": PASSWORD, "PYTHONPATH": str(ROOT)}
    with open(Path(folder) / "out.txt", "w+") as out, open(Path(folder) / "err.txt", "w+") as err:
        server = subprocess.Popen([sys.executable, "-m", "tui.cli", "serve", "--db", f"sqlite:///{folder}/sala.db",
                                   "--host", "127.0.0.1", "--port", str(port)], stdout=out, stderr=err,
                                  env=environment)
        try:
            while True:
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                    break
                except OSError:
                    assert server.poll() is None, "duplicada serve no arrancó"
                    time.sleep(0.1)
            statuses = asyncio.run(misbehave(port, options.guessers))
        finally:
            server.terminate()
            server.wait(timeout=30)
        out.seek(0)
        err.seek(0)
        text = out.read() + err.read()
    encoded = (base64.b64encode(f"auxiliar:{PASSWORD}".encode()).decode(), base64.b64encode(PASSWORD.encode()).decode())
    lines = text.splitlines()
    print(f"malformed messages sent: {len(MALFORMED)}")
    print(f"lines refusing a malformed message: {sum('mal formado' in line for line in lines)}")
    print(f"tracebacks: {text.count('Traceback')}")
    print(f"lines with Authorization / the password / its base64: "
          f"{sum('Authorization' in line or PASSWORD in line or any(e in line for e in encoded) for line in lines)}")
    print(f"lines with a query string: {sum('?' in line and ('token' in line or 'password' in line) for line in lines)}")
    print(f"longest line: {max(map(len, lines), default=0)} characters; lines in all: {len(lines)}")
    print(f"{options.guessers} guessers, one wrong password each: {dict(sorted(statuses.items()))}")


if __name__ == "__main__":
    main()
