"""The GADDAG the compiled move generator walks, and how it is stored.

A GADDAG (Gordon 1994) holds, for each word ``w`` of ``n`` letters and each split
``k = 1..n``, the string ``rev(w[:k]) + (SEP + w[k:] if k < n)``: a move is read leftwards
from an anchor square, then, after the separator ``SEP``, rightwards. Ours is minimised
(Daciuk et al. 2000 on the sorted strings) and kept in one array of 8-byte arcs, built and
walked by the C extension ``lexicon._gaddag`` (``lexicon/gaddag.h``, which documents the
layout): for the default lexicon (576,104 words) 409,366 nodes and 1,032,184 arcs, 8.3 MB,
built in about 0.8 s.

The arrays are stored in the compiled lexicon (``gaddag.bin``) beside the word DAWG, so a
lexicon is built once per word list and loaded in milliseconds. When the extension is not
built (no C compiler when installing), ``available()`` is False and the move generator
uses its pure-Python walker.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from types import ModuleType

import numpy as np

WORD_END = 255
"""Byte after each word in the buffer ``build`` reads."""


@cache
def extension() -> ModuleType | None:
    """The C extension ``lexicon._gaddag``, or None when it was not built."""
    import importlib

    try:
        return importlib.import_module("lexicon._gaddag")
    except ImportError:
        return None


def available() -> bool:
    """True when the compiled move generator can be used."""
    return extension() is not None


@dataclass(frozen=True)
class Gaddag:
    """The minimised GADDAG as ``lexicon/gaddag_walk.c`` walks it: ``arcs`` (uint32, shape
    ``(arcs, 2)``; each arc the ``(mask, first)`` pair of the node it leads to), the root's
    pair ``root_mask``, ``root_first``, and the ``separator`` symbol (the alphabet's size).
    In a node's ``mask`` bit ``L`` means an edge for symbol ``L``, bit 31 that the node
    accepts; the edge for ``L`` is arc ``first + (bits of mask below L)``. ``nodes`` is the
    number of distinct nodes (for the figures). ``arguments`` is what the extension's
    functions take."""

    arcs: np.ndarray
    root_mask: int
    root_first: int
    separator: int
    nodes: int = 0

    @property
    def arguments(self) -> tuple[np.ndarray, int, int, int]:
        return (self.arcs, self.root_mask, self.root_first, self.separator)

    def to_bytes(self) -> bytes:
        """``gaddag.bin``: ``arcs, root_mask, root_first, separator, nodes`` (``uint32``
        little-endian), then the arcs."""
        header = np.array([len(self.arcs), self.root_mask, self.root_first, self.separator, self.nodes], dtype="<u4")
        return header.tobytes() + self.arcs.astype("<u4").tobytes()

    @classmethod
    def from_bytes(cls, blob: bytes, letter_count: int) -> Gaddag:
        """Read ``to_bytes`` output; ``ValueError`` if it is inconsistent (every arc checked
        when the extension is built, so that the walk can trust them)."""
        if len(blob) < 20:
            raise ValueError("GADDAG truncado")
        count, root_mask, root_first, separator, nodes = (int(value) for value in np.frombuffer(blob, dtype="<u4", count=5))
        if len(blob) != 20 + 8 * count or separator != letter_count:
            raise ValueError("tamaño del GADDAG incoherente")
        arcs = np.frombuffer(blob, dtype="<u4", count=2 * count, offset=20).reshape(count, 2)
        if sys.byteorder != "little":
            arcs = arcs.astype(np.uint32)
        gaddag = cls(arcs, root_mask, root_first, separator, nodes)
        module = extension()
        if module is not None:
            module.check(gaddag.arguments)
        return gaddag


def build_gaddag(words: Sequence[Sequence[int]], letter_count: int) -> Gaddag:
    """The minimised GADDAG of ``words`` (letter-code sequences of 2–15 letters).

    Raises ``RuntimeError`` when the C extension is not built, ``ValueError`` for a letter
    outside the alphabet or a word longer than 15 tiles.
    """
    terminator = bytes([WORD_END])
    return build_gaddag_from_buffer(terminator.join(bytes(word) for word in words) + terminator if words else b"",
                                    letter_count)


def build_gaddag_from_buffer(buffer: bytes, letter_count: int) -> Gaddag:
    """``build_gaddag`` of words given as one buffer: each word's codes, then ``WORD_END``."""
    module = extension()
    if module is None:
        raise RuntimeError("el generador de jugadas compilado (lexicon._gaddag) no está instalado")
    arcs, root_mask, root_first, nodes = module.build(buffer, letter_count)
    return Gaddag(np.frombuffer(arcs, dtype=np.uint32).reshape(-1, 2), root_mask, root_first, letter_count, nodes)
