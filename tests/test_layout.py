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
    # generator and the app are imported by the commands that need them. The option types
    # take their ranges from two small standard-library-only modules (issue 26 §3).
    code = ("import sys, tui.cli, tui.cli.options; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in "
            "{'sqlalchemy', 'alembic', 'numpy', 'textual', 'rich', 'duplicate', 'ranking', 'lexicon'}))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert result.stdout.strip() == "['duplicate', 'duplicate.bounds', 'duplicate.texts']"


def test_the_cycle_contract_names_every_cycle_even_a_package_and_its_own_module() -> None:
    # Issue 24 §3: `lint-imports` fails on any import cycle (scripts/import_contracts.py),
    # including the one import-linter's acyclic_siblings cannot see (p ⇄ p.a).
    import grimp

    from scripts.import_contracts import AcyclicModulesContract

    graph = grimp.ImportGraph()
    for importer, imported in [("p", "p.a"), ("p.a", "p"), ("p.b", "p.c"), ("p.c", "p.d"), ("p.d", "p.b"),
                               ("p.c", "p.e"), ("p.e", "p.a"), ("p.f", "p.b"), ("q.x", "q.y"), ("q.y", "q.x")]:
        graph.add_import(importer=importer, imported=imported, line_number=1, line_contents="import")
    contract = AcyclicModulesContract(name="ciclos", session_options={}, contract_options={"packages": ["p"]})
    check = contract.check(graph, verbose=False)
    assert not check.kept
    cycles = check.metadata["cycles"]
    assert [cycle["modules"] for cycle in cycles] == [["p", "p.a"], ["p.b", "p.c", "p.d"]]
    assert [(importer, imported) for importer, imported, _lines in cycles[1]["imports"]] == [
        ("p.b", "p.c"), ("p.c", "p.d"), ("p.d", "p.b")]

    graph.remove_import(importer="p.a", imported="p")
    graph.remove_import(importer="p.d", imported="p.b")
    assert contract.check(graph, verbose=False).kept
