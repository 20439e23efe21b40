"""Spanish alphabetical order of names, without ICU.

PyICU, the maintained Unicode collation, ships no wheels on PyPI (source only, needing the
ICU headers and a C++ compiler), so the order is this key, which follows the Spanish rules
of the RAE's *Ortografía* (2010) for names: letters compared without accents or diaeresis
(``Ú`` with ``U``, ``Ü`` with ``U``), case ignored, ``Ñ`` a letter of its own between ``N``
and ``O``; ``CH`` and ``LL`` are not letters of their own (since 1994). When two names are
equal so, the one without accent comes first (``Ramon`` before ``Ramón``), then by code
point.
"""

from __future__ import annotations

import unicodedata

_AFTER_N = "n\U0010ffff"     # sorts after every "n…" and before "o"


def spanish_sort_key(name: str) -> tuple[str, str, str]:
    """The sort key of ``name`` in Spanish alphabetical order (see the module docstring):
    (letters without accents, letters with their accents, the name as typed)."""
    primary: list[str] = []
    for char in unicodedata.normalize("NFD", name.casefold()):
        if unicodedata.combining(char):
            if char == "\u0303" and primary and primary[-1] == "n":     # ñ = n + combining tilde
                primary[-1] = _AFTER_N
            continue
        primary.append(char)
    return "".join(primary), unicodedata.normalize("NFD", name.casefold()), name
