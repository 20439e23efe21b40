"""The package as shipped (issue 24 §1): what the wheel and the sdist carry, what is declared.

An editable install reads the source tree and hides a package or a data file left out of the
wheel; these tests read the built archives instead. They build a wheel and an sdist once
(``python -m build``, about 15 s) unless ``$DUPLICADA_TEST_DIST`` names a folder holding
both (``.ci/run`` passes the ones it smoke-tests).
"""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from importlib.metadata import packages_distributions, version
from pathlib import Path

import pytest
from click.testing import CliRunner

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("data", "lexicon", "duplicate", "ranking", "tui")
NOT_SHIPPED = {".pyc", ".pyo", ".so", ".pyd", ".c", ".h"}
"""Suffixes of tree files the wheel does not carry: bytecode, built extensions (the wheel
has its own), the C sources (compiled into ``lexicon._gaddag``; the sdist carries them)."""

@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    given = os.environ.get("DUPLICADA_TEST_DIST")
    if given:
        return Path(given)
    out = tmp_path_factory.mktemp("dist")
    result = subprocess.run([sys.executable, "-m", "build", "--outdir", str(out), str(ROOT)],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    return out


def single(folder: Path, pattern: str) -> Path:
    found = sorted(folder.glob(pattern))
    assert len(found) == 1, (pattern, found)
    return found[0]


def tree_files() -> list[str]:
    """Every file under the five packages, relative to the root, except bytecode, caches,
    built extensions and C sources; in a git checkout, only the files git tracks (a
    developer's stray, ignored file is no part of the package)."""
    tracked = None
    if shutil.which("git"):
        listed = subprocess.run(["git", "ls-files", *PACKAGES], cwd=ROOT, capture_output=True, text=True)
        tracked = set(listed.stdout.splitlines()) if listed.returncode == 0 and listed.stdout else None
    files = []
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*"):
            relative = path.relative_to(ROOT)
            if (path.is_file() and "__pycache__" not in relative.parts and path.suffix not in NOT_SHIPPED
                    and (tracked is None or relative.as_posix() in tracked)):
                files.append(relative.as_posix())
    assert len(files) > 100, files                       # the walk did find the packages
    return sorted(files)


@pytest.mark.slow             # builds the sdist and the wheel (unless DUPLICADA_TEST_DIST names them)
def test_the_wheel_carries_every_module_and_data_file_of_the_tree(dist: Path) -> None:
    with zipfile.ZipFile(single(dist, "duplicada-*.whl")) as wheel:
        shipped = set(wheel.namelist())
    missing = [name for name in tree_files() if name not in shipped]
    assert missing == []
    assert any(re.fullmatch(r"lexicon/_gaddag\..*(so|pyd)", name) for name in shipped), "no compiled generator"
    assert not any(name.startswith(("tests/", "bench/", "scripts/", "docs/")) for name in shipped)


def test_the_sdist_carries_the_c_sources_and_headers(dist: Path) -> None:
    with tarfile.open(single(dist, "duplicada-*.tar.gz")) as sdist:
        shipped = {name.split("/", 1)[1] for name in sdist.getnames() if "/" in name}
    sources = sorted(path.relative_to(ROOT).as_posix() for path in (ROOT / "lexicon").glob("*.[ch]"))
    assert any(name.endswith(".h") for name in sources) and any(name.endswith(".c") for name in sources)
    assert [name for name in sources if name not in shipped] == []
    assert [name for name in tree_files() if name not in shipped] == []


def third_party_imports() -> dict[str, list[str]]:
    """Top-level names imported by the five packages that are neither the standard
    library nor the project's own, each with the files importing it."""
    found: dict[str, list[str]] = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Import):
                    names = [alias.name for alias in node.names]
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    names = [node.module]
                else:
                    continue
                for name in names:
                    top = name.split(".")[0]
                    if top not in sys.stdlib_module_names and top not in PACKAGES:
                        found.setdefault(top, []).append(path.relative_to(ROOT).as_posix())
    return found


def normalised(requirement: str) -> str:
    return re.sub(r"[-_.]+", "-", re.match(r"[A-Za-z0-9_.-]+", requirement.strip())[0]).lower()  # type: ignore[index]


def test_every_third_party_import_is_a_declared_dependency() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    declared = {normalised(requirement) for requirement in project["dependencies"]}
    distributions = packages_distributions()
    undeclared = {}
    for module, files in sorted(third_party_imports().items()):
        providers = {normalised(name) for name in distributions.get(module, [module])}
        if not providers & declared:
            undeclared[module] = (sorted(providers), files[:3])
    assert undeclared == {}
    assert {"aiohttp", "textual", "sqlalchemy", "click"} <= set(third_party_imports())   # the walk sees them


def test_the_version_is_shown_in_spanish() -> None:
    from tui.cli.main import main

    result = CliRunner().invoke(main, ["--version"])
    assert result.exit_code == 0
    assert result.output == f"duplicada, versión {version('duplicada')}\n"
