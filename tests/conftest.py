"""Shared fixtures: a small compiled lexicon built from a word list in the test."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest

from lexicon.alphabet import Alphabet, spanish
from lexicon.lexicon import Lexicon, build

# Issue 24 §3: the suite's tournaments hash their PINs at a low scrypt cost (kept with each
# salt; duplicate.service.access.TEST_SCRYPT_N_VARIABLE): thousands of sign-ins at the full
# cost (~50 ms each) took minutes. Set before any test runs, so the command-line tests'
# subprocesses inherit it; export the variable to run the suite at another cost.
os.environ.setdefault("DUPLICADA_TEST_SCRYPT_N", "16")


@pytest.fixture(scope="session")
def alphabet() -> Alphabet:
    return spanish()


@pytest.fixture(scope="session")
def make_lexicon(tmp_path_factory: pytest.TempPathFactory) -> Callable[[Iterable[str]], Lexicon]:
    """Compile a word list into a lexicon (cached per distinct list)."""
    cache: dict[tuple[str, ...], Lexicon] = {}

    def make(words: Iterable[str]) -> Lexicon:
        key = tuple(sorted(words))
        if key not in cache:
            path = Path(tmp_path_factory.mktemp("lexicon")) / "test.lex"
            build(key, path, source="test")
            cache[key] = Lexicon.load(path)
        return cache[key]

    return make


@pytest.fixture(scope="session")
def spanish_lexicon() -> Lexicon:
    """The built-in default lexicon (compiled into the user cache on first use, ~8 s once)."""
    from lexicon.default import default_lexicon_path

    return Lexicon.load(default_lexicon_path(None))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Files holding a ``slow`` test run first, the app's (``tests/tui``, the longest) before
    the others; every file keeps its tests in their order (a stable sort). Under xdist
    (``--dist loadfile --no-loadscope-reorder``: files handed out in this order, not by
    their number of tests) the longest files then start at once instead of last, and the
    workers finish together (issue 24 §3); a serial run only changes the order of files."""
    slow = {item.path for item in items if item.get_closest_marker("slow")}
    app = Path(__file__).resolve().parent / "tui"
    items.sort(key=lambda item: (item.path not in slow, app not in item.path.parents))


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto`` (pyproject's addopts): two workers per core, at most 16. The app's tests
    spend much of their time waiting (Pilot's idle checks, the app's worker threads), which a
    second worker per core fills: on this 2-core machine 4 workers ran the suite in 278 s
    where 2 took 354 s (docs/performance.md, "Suite"). ``-n N`` or
    ``$PYTEST_XDIST_AUTO_NUM_WORKERS`` choose another number."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return min(2 * cores, 16)
