"""``duplicada serve``'s door (issue 26 §1): wrong venue passwords are counted per client
address and lock it (the right password too, until the lock ends), and across all
addresses: beyond a burst, only addresses that gave the right password are compared, plus
one newcomer a minute (issue 36 §2); ``--certfile`` and
``--keyfile`` serve over TLS (a self-signed certificate made here with ``openssl``); each
browser's app process learns its address, the key its wrong PINs count against.
"""

from __future__ import annotations

import asyncio
import base64
import io
import logging
import shutil
import socket
import ssl
import subprocess
from pathlib import Path

import aiohttp
import pytest
from click.testing import CliRunner
from rich.console import Console

from duplicate.service.access import MAX_FAILURES
from tui.cli.venue_door import CROWD_BURST, CROWD_LEAK_SECONDS, FORGET_SECONDS, DoorGuard

PASSWORD = "sala-de-juego-2026"


def basic(password: str) -> dict[str, str]:
    return {"Authorization": "Basic " + base64.b64encode(f"auxiliar:{password}".encode()).decode()}


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_wrong_passwords_lock_their_address_only_and_no_success_clears_them() -> None:
    clock = Clock()
    door = DoorGuard(clock)
    waits = [door.failed("10.0.0.7") for _ in range(MAX_FAILURES)]
    assert waits[:-1] == [0.0] * (MAX_FAILURES - 1) and waits[-1] > 0
    assert door.wait("10.0.0.7") == waits[-1] and door.wait("10.0.0.8") == 0
    clock.now += waits[-1] + 0.1
    assert door.wait("10.0.0.7") == 0
    assert door.failed("10.0.0.7") > waits[-1]                     # the next wrong one locks longer
    clock.now += FORGET_SECONDS + 3600
    assert door.wait("10.0.0.7") == 0 and door.failed("10.0.0.7") == 0       # forgotten with time


def test_a_guesser_rotating_addresses_is_capped_across_all_and_known_stations_never_wait() -> None:
    clock = Clock()
    door = DoorGuard(clock)
    door.passed("10.0.0.2")                                          # a station already in
    compared = {0: 0, 1: 0}
    station_waited = 0
    for second in range(2 * 3600):                                   # two hours, a new address a second
        guesser = f"fd00::{second:x}"
        if not door.wait(guesser) and not door.crowd_wait(guesser):
            compared[second // 3600] += 1
            door.failed(guesser)
        if second % 10 == 0:
            station_waited += bool(door.wait("10.0.0.2") or door.crowd_wait("10.0.0.2"))
        clock.now += 1
    assert compared[0] <= CROWD_BURST + 3600 / CROWD_LEAK_SECONDS + 1      # 80 in the first hour
    assert compared[1] <= 3600 / CROWD_LEAK_SECONDS + 1                   # then one a minute
    assert station_waited == 0
    assert door.crowd_wait("10.9.9.9") > 0                            # a newcomer during the attack waits…
    for _ in range(MAX_FAILURES):
        door.failed("10.0.0.2")                                       # (a known address's typos add no wait)
    assert door.crowd_wait("10.9.9.9") <= CROWD_LEAK_SECONDS
    clock.now += CROWD_LEAK_SECONDS
    assert door.crowd_wait("10.9.9.9") == 0                           # …at most a minute once it stops


def loopback_alias(last: int) -> str:
    """``127.0.0.LAST``: on Linux every address of 127.0.0.0/8 reaches this machine, so one
    test can knock from many addresses (elsewhere the test is skipped)."""
    address = f"127.0.0.{last}"
    try:
        with socket.socket() as probe:
            probe.bind((address, 0))
    except OSError:
        pytest.skip(f"este sistema no deja usar {address} como origen: la prueba de muchas direcciones se omite")
    return address


def test_a_real_server_refuses_newcomers_uncompared_during_a_spread_attack_and_lets_known_ones_in(
        caplog: pytest.LogCaptureFixture) -> None:
    from tui.cli.venue_server import VenueServer

    clock = Clock()                                                   # the server's time stands still
    server = VenueServer("true", password=PASSWORD, max_sessions=2, idle_seconds=60, host="127.0.0.1", port=0)
    server.console = Console(file=io.StringIO())
    server.door = DoorGuard(clock)
    station, newcomer = loopback_alias(2), loopback_alias(3)
    guessers = [loopback_alias(10 + n) for n in range(CROWD_BURST + 3)]

    async def knock(port: int, address: str, password: str) -> tuple[int, str]:
        connector = aiohttp.TCPConnector(local_addr=(address, 0))
        async with aiohttp.ClientSession(connector=connector) as client:
            async with client.get(f"http://127.0.0.1:{port}/", headers=basic(password)) as page:
                return page.status, await page.text()

    async def attack() -> list[tuple[int, str]]:
        runner = await server.start_site()
        try:
            port = runner.addresses[0][1]
            answers = [await knock(port, station, PASSWORD)]                      # a station, in before
            answers += [await knock(port, guesser, f"intento-{n}") for n, guesser in enumerate(guessers)]
            answers.append(await knock(port, newcomer, PASSWORD))    # a newcomer, right password: held back
            answers.append(await knock(port, station, PASSWORD))     # the known station: in at once
            clock.now += CROWD_LEAK_SECONDS
            answers.append(await knock(port, newcomer, PASSWORD))    # a minute later the newcomer is in
            return answers
        finally:
            await runner.cleanup()

    with caplog.at_level(logging.INFO, logger="duplicada.serve"):
        answers = asyncio.run(attack())
    statuses = [status for status, _ in answers]
    assert statuses == [200] + [401] * CROWD_BURST + [429] * 3 + [429, 200, 200]      # the last guesses uncompared
    assert "entre todas las direcciones" in answers[-3][1]
    assert not any(server.door.wait(guesser) for guesser in guessers)         # none locked by its own count
    notices = [record for record in caplog.records if "todas las direcciones" in record.getMessage()]
    assert len(notices) == 1                                          # the judge is told once, not per request


def self_signed(folder: Path) -> tuple[Path, Path]:
    if shutil.which("openssl") is None:
        pytest.skip("no hay openssl en esta máquina: no se puede hacer un certificado de prueba")
    cert, key = folder / "sala.pem", folder / "sala.key"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                    "-nodes", "-keyout", str(key), "-out", str(cert), "-days", "1", "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1"], check=True, capture_output=True)
    return cert, key


def test_the_venue_server_speaks_tls_and_locks_a_guessing_address(tmp_path: Path) -> None:
    from tui.cli.app_commands import tls_context
    from tui.cli.venue_server import VenueServer

    cert, key = self_signed(tmp_path)
    server = VenueServer("true", password=PASSWORD, max_sessions=2, idle_seconds=60, host="127.0.0.1", port=0,
                         ssl_context=tls_context(str(cert), str(key)), public_url="https://127.0.0.1")
    trusting = ssl.create_default_context(cafile=str(cert))

    async def visit() -> tuple[list[int], list[int], str, str | None, bool]:
        runner = await server.start_site()
        try:
            port = runner.addresses[0][1]
            address = f"https://127.0.0.1:{port}/"
            async with aiohttp.ClientSession() as client:
                async with client.get(address, ssl=trusting, headers=basic(PASSWORD)) as page:
                    first = [page.status]
                    body = await page.text()
                async with client.get(address, ssl=trusting) as page:
                    first.append(page.status)                      # no password: asked, not counted
                statuses = []
                for attempt in range(MAX_FAILURES + 2):
                    async with client.get(address, ssl=trusting, headers=basic(f"otra-{attempt}")) as page:
                        statuses.append(page.status)
                async with client.get(address, ssl=trusting, headers=basic(PASSWORD)) as page:
                    statuses.append(page.status)                   # the right one waits out the lock
                    retry = page.headers.get("Retry-After")
                try:                                                # nothing in clear on that port
                    async with client.get(f"http://127.0.0.1:{port}/", headers=basic(PASSWORD)) as page:
                        plain = page.status == 200
                except aiohttp.ClientError:
                    plain = False
            return first, statuses, body, retry, plain
        finally:
            await runner.cleanup()

    first, statuses, body, retry, plain = asyncio.run(visit())
    assert first == [200, 401] and "wss://" in body                  # the page's websocket is encrypted too
    assert statuses == [401] * (MAX_FAILURES - 1) + [429] * 4       # the 5th wrong one locks; then all wait
    assert retry is not None and int(retry) >= 1 and not plain


def test_tls_files_are_checked_before_serving(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import tui.cli.venue_server as venue_server
    from tui.cli.main import main

    started: list[dict[str, object]] = []

    class Recorder:
        def __init__(self, command: str, **options: object) -> None:
            started.append({"command": command, **options})

        def serve(self) -> None:
            pass

    monkeypatch.setattr(venue_server, "VenueServer", Recorder)
    monkeypatch.setenv("DUPLICADA_DB", "sqlite:///ninguna.db")
    garbage = tmp_path / "basura.pem"
    garbage.write_text("no es un certificado\n")
    for arguments, code in ((["--keyfile", str(garbage)], 2), (["--certfile", str(tmp_path / "no-hay.pem")], 1),
                            (["--certfile", str(garbage)], 1)):
        result = CliRunner().invoke(main, ["serve", *arguments])
        assert result.exit_code == code and "Traceback" not in result.output and not started, result.output
    cert, key = self_signed(tmp_path)
    result = CliRunner().invoke(main, ["serve", "--certfile", str(cert), "--keyfile", str(key), "--tournament", "3"])
    assert result.exit_code == 0, result.output
    assert isinstance(started[-1]["ssl_context"], ssl.SSLContext)
    assert started[-1]["public_url"] is None          # the page names the address typed, https (issue 35 §4)
    assert str(started[-1]["command"]).endswith("tui --remote --tournament 3")


def test_each_browsers_app_learns_its_address_and_counts_its_wrong_pins_there(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import tui.app.application
    import tui.cli.app_commands as app_commands
    from duplicate.service.lockout import address_source
    from tui.cli.venue_server import SOURCE_ENV, _AddressedAppService

    service = _AddressedAppService("true", source=address_source("192.168.1.20"), write_bytes=None,
                                   write_str=None, close=None, download_manager=None)
    assert service._build_environment()[SOURCE_ENV] == "dirección:192.168.1.20"
    ran = []

    class App:
        def __init__(self, service: object, **options: object) -> None:
            ran.append((service, options))

        def run(self) -> None:
            pass

    monkeypatch.setattr(tui.app.application, "DuplicadaApp", App)
    monkeypatch.setenv(SOURCE_ENV, "dirección:192.168.1.20")
    app_commands.run_app(f"sqlite:///{tmp_path / 't.db'}", "sala", remote=True, tournament_id=2)
    app_commands.run_app(f"sqlite:///{tmp_path / 't.db'}", "sala")       # at a terminal: the station
    (remote, options), (local, _) = ran
    assert remote.context.source == "dirección:192.168.1.20" and options["tournament_id"] == 2  # type: ignore[attr-defined]
    assert local.context.source == "puesto:sala"  # type: ignore[attr-defined]
