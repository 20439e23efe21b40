"""The shipped default word list (issues 15 and 28) is what the script builds from the shared
sources (``shared/lexicon-sources``), byte for byte; run where the sources are (skipped
elsewhere, saying so). The build rules: ``test_default_wordlist_rules.py``."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import data
from lexicon.alphabet import spanish
from lexicon.default import WORD_LIST
from scripts.build_default_wordlist import DEFAULT_SOURCES, compressed
from scripts.default_lexicon.build import build


@pytest.mark.slow
@pytest.mark.skipif(not (Path(os.environ.get("DUPLICADA_LEXICON_SOURCES", DEFAULT_SOURCES)) / "README.md").exists(),
                    reason="las fuentes (shared/lexicon-sources) no están en esta máquina")
def test_the_shipped_list_is_what_the_script_builds() -> None:
    words, steps, _ = build(Path(os.environ.get("DUPLICADA_LEXICON_SOURCES", DEFAULT_SOURCES)))
    assert compressed(words) == data.path(WORD_LIST).read_bytes()
    # Every word is written as the alphabet writes its tiles (the build writes them faster).
    alphabet = spanish()
    assert words == sorted(set(words))
    assert all(2 <= len(codes := alphabet.word_codes(w)) <= 15 and alphabet.format(codes) == w for w in words)
    assert steps[0].added > len(words)
