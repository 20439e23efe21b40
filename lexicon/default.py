"""The default lexicon: the shipped word list, compiled once and cached.

The word list ``data/lexicon-es.txt.xz`` (free hunspell-es forms filtered to
the FISE alphabet; **not** the official FISE lexicon, see
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
from lexicon.lexicon import LexiconError, build

WORD_LIST = "lexicon-es.txt.xz"
ENVIRONMENT_VARIABLE = "DUPLICADA_LEXICON"


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
    source = data.path(WORD_LIST)
    digest = hashlib.sha256(source.read_bytes()).hexdigest()[:16]
    cache_dir = Path(platformdirs.user_cache_dir("duplicada"))
    target = cache_dir / f"lexicon-es-{digest}.lex"
    if not target.exists():
        cache_dir.mkdir(parents=True, exist_ok=True)
        if announce:
            announce(f"Compilando el léxico por defecto en {target} (solo la primera vez)…")
        build(read_lines(source), target, source=WORD_LIST)
    return target
