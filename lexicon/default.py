"""The default lexicon: the shipped word list, compiled once and cached.

The word list ``data/lexicon-es.txt.xz`` (built from RLA-ES 2.9 — the lists of every
country —, COES and wspanish with the FISE admission rules by
``scripts/build_default_wordlist.py``; **not** the official FISE lexicon, see
``data/LICENSE-lexicon-es.txt``) is compiled on first use into the user's cache
directory (``platformdirs.user_cache_dir("duplicada")``) under a name that
includes the hash of the shipped file, so an updated list is recompiled and a
stale cache is never used. The environment variable ``DUPLICADA_LEXICON``
names a compiled lexicon to use instead (for example the official one, built
by ``duplicada lexicon build``).
"""

from __future__ import annotations

import hashlib
import lzma
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import platformdirs

import data

# ``lexicon.gaddag`` and ``lexicon.lexicon`` (numpy) are imported where a list is read or
# compiled: finding the default's path loads neither (issue 38: read-only commands start faster).

WORD_LIST = "lexicon-es.txt.xz"
ENVIRONMENT_VARIABLE = "DUPLICADA_LEXICON"

#: Earlier default word lists, still shipped so that a tournament or game recorded with one
#: resumes and verifies (issue 15): the compiled lexicon's content hash → the file in ``data/``.
#: ``lexicon-es-rlaes26.txt.xz``: the default until issue 15 (hunspell-es 7.5.0, RLA-ES 2.6;
#: 543,934 words). ``lexicon-es-rlaes29-spain.txt.xz``: the default from issue 15 to issue 28
#: (RLA-ES 2.9's common and Spain lists, COES, wspanish; 576,104 words).
EARLIER_DEFAULTS = {
    "9e47958ad0a258d2dcafe6193e354a3aa64c4a1a1ff561f453547d8d4fc5d181": "lexicon-es-rlaes26.txt.xz",
    "c05715cbbbb6f47165ec0eb3cb0cfa2368d1eee4127b6fbff010f62eca487745": "lexicon-es-rlaes29-spain.txt.xz",
}


def read_lines(path: Path) -> Iterator[str]:
    """Lines of a word list, UTF-8, plain or compressed (``.xz``, ``.gz``, ``.bz2``).

    Raises ``LexiconError`` naming the file when it cannot be read or decompressed."""
    if path.suffix == ".xz":
        opener: Callable[..., Any] = lzma.open
    elif path.suffix == ".gz":
        import gzip

        opener = gzip.open
    elif path.suffix == ".bz2":
        import bz2

        opener = bz2.open
    else:
        opener = open
    try:
        with opener(path, "rt", encoding="utf-8", errors="replace") as handle:
            yield from handle
    except (OSError, EOFError, lzma.LZMAError) as error:
        from lexicon.lexicon import LexiconError

        # A damaged or cut compressed file (issue 14 §1): its name and what to do, never a traceback.
        raise LexiconError(f"{path}: no se puede leer la lista de palabras ({type(error).__name__}: {error}); "
                           f"¿está dañada o incompleta? Descárguela o comprímala de nuevo") from None


def default_lexicon_path(announce: Callable[[str], None] | None = None) -> Path:
    """Path of the compiled default lexicon, compiling it first if it is not cached.

    ``announce`` receives a Spanish message before a (slow, ~10 s) compilation.
    Honors ``DUPLICADA_LEXICON``.
    """
    chosen = os.environ.get(ENVIRONMENT_VARIABLE)
    if chosen:
        return Path(chosen)
    return shipped_lexicon_path(WORD_LIST, announce)


def earlier_default_path(content_hash: str, announce: Callable[[str], None] | None = None) -> Path | None:
    """Path of the compiled earlier default whose content hash is ``content_hash`` (compiled
    first if not cached), or None when no shipped list has that hash (``EARLIER_DEFAULTS``)."""
    word_list = EARLIER_DEFAULTS.get(content_hash)
    return None if word_list is None else shipped_lexicon_path(word_list, announce)


def shipped_lexicon_path(word_list: str, announce: Callable[[str], None] | None = None) -> Path:
    """Path of the compiled form of ``word_list`` (a file in ``data/``), compiled first into
    the user's cache if it is not there; the cached name carries the file's SHA-256 and the
    compiled form (with or without the GADDAG), so a changed file is compiled again. ``announce`` receives a Spanish message before compiling."""
    source = data.path(word_list)
    digest = hashlib.sha256(source.read_bytes()).hexdigest()[:16]
    cache_dir = Path(platformdirs.user_cache_dir("duplicada"))
    stem = word_list.removesuffix(".txt.xz")
    # The compiled format is in the name too: a file compiled by an earlier version (no
    # GADDAG, issue 17) is compiled again rather than loaded and completed in every process.
    from lexicon.gaddag import available as gaddag_available

    kind = "gaddag" if gaddag_available() else "dawg"
    target = cache_dir / f"{stem}-{digest}-{kind}.lex"
    if not target.exists():
        cache_dir.mkdir(parents=True, exist_ok=True)
        if announce:
            announce(f"Compilando el léxico {word_list} en {target} (solo la primera vez)…")
        from lexicon.lexicon import build

        build(read_lines(source), target, source=word_list)
    return target
