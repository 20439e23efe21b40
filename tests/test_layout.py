"""The design's import contract: the core packages never import the UI (``tui``)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORE = ("lexicon", "duplicate", "ranking")


def test_no_core_module_imports_tui() -> None:
    offenders = []
    for package in CORE:
        for path in (ROOT / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                names = []
                if isinstance(node, ast.Import):
                    names = [alias.name for alias in node.names]
                elif isinstance(node, ast.ImportFrom) and node.module:
                    names = [node.module]
                offenders += [f"{path.relative_to(ROOT)}: {name}" for name in names if name.split(".")[0] == "tui"]
    assert offenders == []


def test_the_service_loads_no_ui_module() -> None:
    code = "import sys, duplicate.service, ranking.service; print(sorted(m for m in sys.modules if m.startswith(('tui', 'textual', 'click', 'rich'))))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert result.stdout.strip() == "[]"


def test_the_command_line_starts_without_heavy_libraries() -> None:
    # Issue 12 §3: `duplicada --help` must start in a blink; the database, the move
    # generator and the app are imported by the commands that need them.
    code = ("import sys, tui.cli, tui.cli.options; "
            "print(sorted({m.split('.')[0] for m in sys.modules} & "
            "{'sqlalchemy', 'alembic', 'numpy', 'textual', 'rich', 'duplicate', 'ranking', 'lexicon'}))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert result.stdout.strip() == "[]"
