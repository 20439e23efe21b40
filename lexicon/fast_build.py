"""Compiling a lexicon fast: the word list read in bulk, the word graph built in C.

``lexicon.lexicon.build`` reads a word list line by line (``read_word_list``: each line
tokenized, errors reported by line) and builds its graphs in Python; for the default list
(576,104 words) that was 5–7 s. Here, when the whole list is plain (letters of the
alphabet only, one word a line, any case, no accents, comments or stray characters — the
shipped lists are), it is read with a few whole-text string operations, and the word
graph (``graph.bin``) and the GADDAG are built by the C extension (``lexicon/gaddag_build.c``):
about 2 s in all. Any other list takes the line-by-line path; the tests check that both
give the same words, hash and graph.

Words are handled here as **keys**: one character per tile, ``chr(0x41 + code)`` (the
form the word DAWG, ``dawg2``, stores); sorting keys sorts by tile codes.
"""

from __future__ import annotations

import re
from functools import cache

import numpy as np

from lexicon.alphabet import Alphabet
from lexicon.gaddag import WORD_END
from lexicon.word_limits import MAX_TILES, MIN_TILES

KEY_BASE = 0x41
"""A tile code ``c`` is the character ``chr(KEY_BASE + c)`` in a key."""

FINAL_BIT = 1 << 31


_TO_CODES = bytes(value - KEY_BASE if KEY_BASE <= value < 128 else WORD_END if value == ord("\n") else value
                  for value in range(256))
"""Bytes of keys joined by newlines → the C builder's buffer (codes, ``WORD_END`` after each)."""


@cache
def _reading(alphabet: Alphabet) -> tuple[re.Pattern[str], list[tuple[str, str]], bytes, re.Pattern[str]] | None:
    """What the bulk read needs for ``alphabet``: the pattern of what a plain list may not
    hold (anything but the letters of the tiles, either case, and newlines); the replaces
    that make every digraph and every non-ASCII letter one ASCII control character; the
    byte table from there to keys; and the pattern of anything left that is not a key.
    None when the multi-letter tiles could overlap (greedy reading would not be a sequence
    of replaces) or a tile is not written in capitals."""
    symbols = [letter.symbol for letter in alphabet.letters]
    multi = [symbol for symbol in symbols if len(symbol) > 1]
    if any(len(symbol) != 2 for symbol in multi) or any(
            a != b and a[1] == b[0] for a in multi for b in multi) or any(not s.isupper() for s in symbols):
        return None
    special = [symbol for symbol in symbols if len(symbol) > 1 or not symbol.isascii()]
    controls = [code for code in range(1, 32) if code != ord("\n")]
    if len(special) > len(controls):
        return None
    replaces = [(symbol, chr(control)) for symbol, control in zip(special, controls)]
    table = bytearray(range(256))
    for code, symbol in enumerate(symbols):
        table[ord(dict(replaces).get(symbol, symbol))] = KEY_BASE + code
    characters = sorted({ch for symbol in symbols for ch in symbol + symbol.lower()})
    plain = re.compile("[^" + "".join(re.escape(ch) for ch in characters) + "\n]")
    keys = "".join(re.escape(chr(KEY_BASE + code)) for code in range(len(symbols)))
    return plain, replaces, bytes(table), re.compile(f"[^{keys}\n]")


def bulk_keys(text: str, alphabet: Alphabet) -> tuple[list[str], int, int, list[tuple[int, str]]] | None:
    """The words of a plain word list (``text``: the whole list, one word a line) as sorted
    distinct keys, or None when the list is not plain (the caller then reads it line by line).

    Returns ``(keys, lines, duplicates, wrong_length)``: the non-empty lines read, the
    repeated words, and the ``(line number, text)`` of words outside 2–15 tiles (skipped).
    Digraphs are read greedily, as ``Alphabet.tokenize`` reads them (``CHORRILLOS`` is
    CH-O-RR-I-LL-O-S).
    """
    reading = _reading(alphabet)
    if reading is None:
        return None
    plain, replaces, table, stray = reading
    text = text.replace("\r\n", "\n")
    if not text.endswith("\n"):
        text += "\n"
    if plain.search(text):
        return None
    original = text
    text = text.upper()
    for symbol, key in replaces:
        text = text.replace(symbol, key)
    try:
        text = text.encode("ascii").translate(table).decode("ascii")
    except UnicodeError:            # a letter whose capital is another (ß → SS is caught later)
        return None
    if stray.search(text):          # a letter that is only part of a digraph, alone
        return None
    keyed = text.split("\n")[:-1]
    del text
    seen = set(keyed)
    seen.discard("")
    read = len(keyed) - keyed.count("")
    duplicates = read - len(seen)
    wrong_keys = {key for key in seen if not MIN_TILES <= len(key) <= MAX_TILES}
    wrong: list[tuple[int, str]] = []
    if wrong_keys:
        seen -= wrong_keys
        lines = original.split("\n")
        wrong = [(number, lines[number - 1]) for number, key in enumerate(keyed, start=1) if key in wrong_keys]
        duplicates -= len(wrong) - len(wrong_keys)     # a wrong word given twice is two skipped lines
    del keyed
    return sorted(seen), read, duplicates, wrong


def keys_text(keys: list[str], alphabet: Alphabet) -> str:
    """The sorted canonical word list (one word a line, each word as ``Alphabet.format``
    writes it) of keys read by ``bulk_keys`` — the text ``content_hash`` hashes. (Keys of a
    list read greedily never hold two one-letter tiles that join into a digraph.)"""
    table = {KEY_BASE + code: letter.symbol for code, letter in enumerate(alphabet.letters)}
    return ("\n".join(keys) + "\n").translate(table)


def codes_buffer(keys: list[str]) -> bytes:
    """The words as the C builder reads them: each word's tile codes, then ``WORD_END``."""
    return ("\n".join(keys) + "\n").encode("ascii").translate(_TO_CODES)


def word_graph_bytes(mask: np.ndarray, first: np.ndarray, target: np.ndarray, root: int, letter_count: int) -> bytes:
    """``graph.bin`` (see ``lexicon.word_graph.graph_to_bytes``) of the minimised DAWG the C
    builder returns (``build(words, letters, plain=True)``: nodes numbered children first,
    the root last): nodes renumbered from the root (0) down, edges in letter order, the
    reach masks computed level by level."""
    count = len(mask)
    if root != count - 1:
        raise ValueError("el grafo compilado no acaba en la raíz")
    order = np.arange(count - 1, -1, -1)          # new node i is old node order[i]
    new_of_old = order.copy()                      # the reversal is its own inverse
    letters_mask = (mask & ((1 << letter_count) - 1)).astype(np.uint32)
    bits = np.unpackbits(letters_mask.view(np.uint8).reshape(count, 4), axis=1, bitorder="little")[:, :letter_count]
    degree = bits.sum(axis=1).astype(np.int64)
    # Edges of the new order: each old node's edges (contiguous from ``first``, letter order).
    new_degree = degree[order]
    new_first = np.zeros(count + 1, dtype=np.int64)
    np.cumsum(new_degree, out=new_first[1:])
    edges = int(new_first[-1])
    owner = np.repeat(order, new_degree)           # old node of each new edge
    within = np.arange(edges) - np.repeat(new_first[:-1], new_degree)
    old_edge = first.astype(np.int64)[owner] + within
    targets = new_of_old[target.astype(np.int64)[old_edge]]
    edge_letters = np.nonzero(bits[order])[1]      # row-major: per node, letters ascending
    finals = ((mask[order] & FINAL_BIT) != 0).astype(np.uint8)
    reach = np.zeros((count, MAX_TILES), dtype=np.uint32)
    reach[:, 0] = letters_mask[order]
    has_edges = new_degree > 0
    starts = new_first[:-1][has_edges]
    for depth in range(1, MAX_TILES):
        below = reach[targets, depth - 1] if edges else np.zeros(0, dtype=np.uint32)
        if edges:
            reach[has_edges, depth] = np.bitwise_or.reduceat(below, starts)
    header = np.array([count, edges], dtype="<u4")
    parts = (header, new_first.astype("<u4"), finals, edge_letters.astype(np.uint8), targets.astype("<u4"),
             reach.astype("<u4"))
    return b"".join(part.tobytes() for part in parts)
