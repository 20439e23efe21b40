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
