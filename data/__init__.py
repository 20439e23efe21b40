"""Data files shipped with duplicada: tile set, board layout, default word list.

The files live beside this module so that they are installed with the package;
``path(name)`` returns the location of one of them.
"""

from __future__ import annotations

from pathlib import Path

_HERE = Path(__file__).resolve().parent


def path(name: str) -> Path:
    """Return the path of the shipped data file ``name``.

    Raises ``FileNotFoundError`` naming the file when it is not shipped.
    """
    candidate = _HERE / name
    if not candidate.is_file():
        raise FileNotFoundError(f"archivo de datos no encontrado: {candidate}")
    return candidate
