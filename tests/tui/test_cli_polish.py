"""What the judge reads on the command line, polished (issue 25 §3): Click's own texts
and the serve banner in Spanish, marks in Spanish, counts in agreement, the right round
closed, homonyms, PINs, claims and racks as the judge reads them."""

from __future__ import annotations

import ast
import asyncio
import importlib
import inspect
import io

from click.testing import CliRunner
from rich.console import Console

from tui.cli import main
from tui.cli.spanish import _CLICK_MODULES, DECLARATION_ERRORS, SPANISH, SPANISH_PLURALS


def _click_messages() -> set[tuple[str, str]]:
    """Every message Click passes through ``_``/``ngettext``, read from its source."""
    found = set()
    for name in _CLICK_MODULES:
        tree = ast.parse(inspect.getsource(importlib.import_module(f"click.{name}")))
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("_", "ngettext")
                    and node.args and isinstance(node.args[0], ast.Constant)):
                found.add((node.func.id, node.args[0].value))
    return found


def test_every_message_of_click_a_user_can_see_is_spanish() -> None:
    untranslated = {message for kind, message in _click_messages()
                    if message not in (SPANISH if kind == "_" else SPANISH_PLURALS)
                    and message not in DECLARATION_ERRORS}
    assert not untranslated
    shown = CliRunner().invoke(main, ["claim", "resolve", "--help"], prog_name="duplicada").output
    assert "[obligatoria]" in shown and "required" not in shown


def test_the_serve_banner_is_spanish() -> None:
    from tui.cli.venue_server import VenueServer

    server = VenueServer("python -m tui.cli tui --remote", password="sala-de-juego", max_sessions=5,
                         idle_seconds=60, host="0.0.0.0", port=8123)
    out = io.StringIO()
    server.console = Console(file=out, width=100)
    asyncio.run(server.on_startup(None))  # type: ignore[arg-type]
    banner = out.getvalue()
    assert "http://0.0.0.0:8123" in banner and "contraseña de la sala" in banner and "Ctrl+C" in banner
    assert "Serving" not in banner and "Press" not in banner and "--remote" not in banner
