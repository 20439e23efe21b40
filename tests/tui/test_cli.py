"""The console script (issue 4 §1, §3): no arguments opens the app; ``serve`` publishes it
to browsers with textual-serve, each browser session running ``duplicada tui`` on the
same database."""

from __future__ import annotations

import os
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

import tui.cli.app_commands
from tui.cli.main import main


def test_no_arguments_opens_the_app_on_the_default_database(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    monkeypatch.setattr(tui.cli.app_commands, "run_app",
                        lambda db, station, remote=False, tournament_id=None: calls.append((db, station)))
    result = CliRunner().invoke(main, [])
    assert result.exit_code == 0, result.output
    assert calls == [(None, None)]
    result = CliRunner().invoke(main, ["tui", "--db", "torneo.db", "--station", "aux2"])
    assert calls[-1] == ("torneo.db", "aux2")


def test_serve_runs_the_app_for_each_browser_on_the_same_database(monkeypatch: pytest.MonkeyPatch,
                                                                   tmp_path: Path) -> None:

    served = {}

    class FakeServer:
        def __init__(self, command: str, **options: object) -> None:
            served["command"], served["options"] = command, options

        def serve(self) -> None:
            served["served"] = True

    import tui.cli.venue_server

    monkeypatch.setattr(tui.cli.venue_server, "VenueServer", FakeServer)
    monkeypatch.setenv("DUPLICADA_DB", "otra.db")                 # replaced by --db, restored after the test
    database = tmp_path / "torneo.db"
    result = CliRunner().invoke(main, ["serve", "--db", str(database), "--port", "9001"])
    assert result.exit_code == 0, result.output
    assert served["served"] and served["options"]["port"] == 9001
    # Each browser's app: «tui --remote» on the same database, handed over by environment.
    assert served["command"].endswith("-m tui.cli tui --remote") and str(database) not in served["command"]
    assert os.environ["DUPLICADA_DB"] == str(database)


def test_every_core_command_is_there() -> None:
    names = set(main.list_commands(click.Context(main)))
    assert {"play", "analyze", "lexicon", "tournament", "slip", "standings", "export", "verify", "simulate",
            "publish", "elodi", "tui", "serve"} <= names


def test_click_speaks_spanish() -> None:
    # Issue 13 §4: Click's own usage lines, help and errors are in Spanish.
    runner = CliRunner()
    shown = runner.invoke(main, ["--help"], prog_name="duplicada").output
    assert shown.startswith("Uso: duplicada [OPCIONES] [ORDEN] [ARGUMENTOS]...")
    assert "Opciones:" in shown and "Muestra esta ayuda y termina." in shown and "Muestra la versión" in shown
    missing = runner.invoke(main, ["slip", "enter"], prog_name="duplicada")
    assert missing.exit_code == 2
    assert "Falta el argumento 'MESA'" in missing.output and "Pruebe «duplicada slip enter --help»" in missing.output
    unknown = runner.invoke(main, ["nosuch"])
    assert "No existe la orden «nosuch»." in unknown.output
    bad = runner.invoke(main, ["play", "--seed", "x"])
    assert "Valor no válido para '--seed': «x» no es un número válido." in bad.output
    for output in (shown, missing.output, unknown.output, bad.output):
        for english in ("Usage", "Options", "Show this", "Missing", "No such", "Try '", "Invalid value"):
            assert english not in output


def test_option_placeholders_are_spanish() -> None:
    shown = CliRunner().invoke(main, ["standings", "--help"], prog_name="duplicada").output
    assert "--game ENTERO" in shown and "--station TEXTO" in shown and "--pin-file ARCHIVO" in shown
    assert "INTEGER" not in shown and " TEXT " not in shown and "FILE" not in shown


def test_tables_are_shown_in_spanish_and_names_as_typed() -> None:
    # Issue 13 §4: accented headings, integers without «.0», decimals with a comma; a
    # name holding Rich markup is text. CSV and JSON keep the keys programs read.
    from tui.cli.listing import emit_rows

    rows = [{"puesto": 1, "jugador": "[red]Eva[/] [/x]", "porcentaje": 98.5, "valor": 2.0, "unico_maximo": 1}]
    table = CliRunner().invoke(click.Command("t", callback=lambda: emit_rows(rows, "table"))).output
    assert "único máximo" in table and "98,5" in table and "[red]Eva[/] [/x]" in table
    assert "2.0" not in table and "98.5" not in table
    csv_text = CliRunner().invoke(click.Command("t", callback=lambda: emit_rows(rows, "csv"))).output
    assert csv_text.splitlines()[0] == "puesto,jugador,porcentaje,valor,unico_maximo" and "98.5" in csv_text


def test_plain_tables_are_drawn_as_rich_draws_them() -> None:
    # Issue 38: a table written to a pipe or a file (or longer than the terminal) is laid out
    # by ``plain_table``, not Rich; the text must be what Rich drew: widths in terminal
    # cells (a wide character counts two), numbers right-aligned, the rule under the headings.
    import io

    from rich import box
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from tui.cli.listing import emit_rows, plain_table

    cases = [(["puesto", "jugador", "total"], [True, False, True],
              [["1", "Íñigo Núñez", "386"], ["12", "中村 ハナ 😀", "7"], ["300", "", "1234567"]]),
             (["mesa", "nota"], [True, False], [["1", "trailing  "], ["2", "  leading"], ["3", " "]]),
             (["único máximo"], [False], [["x"]])]
    for headings, right, cells in cases:
        table = Table(box=box.SIMPLE_HEAD, show_edge=False)
        for text, flush in zip(headings, right, strict=True):
            table.add_column(text, justify="right" if flush else "left")
        for row in cells:
            table.add_row(*(Text(text) for text in row))
        drawn = io.StringIO()
        Console(file=drawn, width=250, highlight=False).print(table)
        assert plain_table(headings, right, cells) == drawn.getvalue()
    # emit_rows on a pipe: the plain table, never cut (a 300-column row stays one line).
    rows = [{"puesto": place, "jugador": f"Jugador {place:03d}", "puestos": " ".join(["99"] * 100)}
            for place in range(1, 301)]
    shown = CliRunner().invoke(click.Command("t", callback=lambda: emit_rows(rows, "table"))).output.splitlines()
    assert len(shown) == 302 and shown[0].startswith(" puesto   jugador ") and set(shown[1]) == {"─"}
    assert shown[2] == "      1   Jugador 001   " + " ".join(["99"] * 100) + " " and len(shown[-1]) == len(shown[2])


def test_help_and_the_engine_commands_start_without_the_database() -> None:
    # Issue 12 §3: start-up time. `--help` and `analyze` never open a tournament database,
    # so they must not import SQLAlchemy (0.2-0.3 s at every start, docs/performance.md).
    import subprocess
    import sys

    script = ("import sys\nfrom tui.cli.main import main\n"
              "for args in (['--help'], ['analyze']):\n"
              "    try:\n        main(args, standalone_mode=False)\n    except SystemExit:\n        pass\n"
              "print('sqlalchemy' in sys.modules, 'duplicate.storage.models' in sys.modules)\n")
    result = subprocess.run([sys.executable, "-c", script], input="15/15/15/15/15/15/15/7CASA4/15/15/15/15/15/15/15 "
                            "ERRE?LO\n", capture_output=True, text=True, timeout=120, check=True)
    assert result.stdout.strip().splitlines()[-1] == "False False", result.stdout[-500:]


def test_the_venue_door_checks_the_password_and_the_host() -> None:
    # Issue 14 §3: Basic authentication with any user name; beyond loopback a password is asked.
    import base64

    from tui.cli.venue_server import is_loopback, password_matches

    def header(user_and_password: bytes) -> str:
        return "Basic " + base64.b64encode(user_and_password).decode()

    assert password_matches(header(b"aux:sala-de-juego"), "sala-de-juego")
    assert password_matches(header(b":sala-de-juego"), "sala-de-juego")
    assert not password_matches(header(b"aux:sala-de-jueg"), "sala-de-juego")
    assert not password_matches("Basic no-es-base64!", "sala-de-juego")
    assert not password_matches(None, "sala-de-juego") and not password_matches("Bearer x", "sala-de-juego")
    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.20") and not is_loopback("sala.local")


def test_serving_the_venue_network_asks_for_a_password(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from click.testing import CliRunner

    import tui.cli.venue_server as venue_server
    from tui.cli.main import main

    started: list[dict[str, object]] = []

    class Recorder:
        def __init__(self, command: str, **options: object) -> None:
            started.append({"command": command, **options})

        def serve(self) -> None:
            pass

    monkeypatch.setattr(venue_server, "VenueServer", Recorder)
    monkeypatch.delenv("DUPLICADA_VENUE_PASSWORD", raising=False)
    monkeypatch.setenv("DUPLICADA_DB", "sqlite:///ninguna.db")
    short = CliRunner().invoke(main, ["serve", "--host", "0.0.0.0"], input="corta\ncorta\n")
    assert short.exit_code != 0 and "al menos 8 caracteres" in short.output and not started
    result = CliRunner().invoke(main, ["serve", "--host", "0.0.0.0"], input="sala-de-juego\nsala-de-juego\n")
    assert result.exit_code == 0, result.output
    assert started[-1]["password"] == "sala-de-juego" and started[-1]["host"] == "0.0.0.0"
    assert "sala-de-juego" not in str(started[-1]["command"]) and "--remote" in str(started[-1]["command"])
    local = CliRunner().invoke(main, ["serve"])
    assert local.exit_code == 0 and started[-1]["password"] is None and started[-1]["host"] == "127.0.0.1"


def test_an_idle_browser_session_is_closed() -> None:
    # Issue 14 §3: a session with no key, click or resize for idle_seconds is closed; one
    # that keeps typing is not.
    import asyncio

    from tui.cli.venue_server import VenueServer

    class Socket:
        def __init__(self, messages: int) -> None:
            self.messages, self.closed, self.done = messages, False, asyncio.Event()

        async def close(self, message: bytes = b"") -> None:
            self.closed = True
            self.done.set()

        async def __aiter__(self):  # type: ignore[no-untyped-def]
            for _ in range(self.messages):              # a key every 0.05 s …
                await asyncio.sleep(0.05)
                yield type("Message", (), {"type": None})()
            await self.done.wait()                      # … then nothing until closed

    async def session(messages: int) -> tuple[bool, float]:
        # Idle after 0.5 s: ten times the gap between keys, so a busy machine's late wake-ups
        # are not taken for an idle session.
        server = VenueServer("true", password=None, max_sessions=2, idle_seconds=0.5, host="127.0.0.1", port=1)
        socket, began = Socket(messages), asyncio.get_running_loop().time()
        await asyncio.wait_for(server._process_messages(socket, None), timeout=60)
        return socket.closed, asyncio.get_running_loop().time() - began

    closed, lasted = asyncio.run(session(0))
    assert closed and lasted < 30
    closed, lasted = asyncio.run(session(20))               # busy for 1 s, twice the idle time: not dropped
    assert closed and lasted >= 1.0
