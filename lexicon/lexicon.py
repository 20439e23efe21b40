"""The compiled lexicon: the word set (rules I.2) stored with ``dawg2``, plus the
letter graph the move generator walks.

A compiled lexicon file is a zip archive (stored, not compressed, so it loads
fast) holding:

* ``meta.json`` — format version, alphabet letters, word count, content hash;
* ``words.dawg`` — the words in a ``dawg2.DAWG`` (each tile one character),
  used for membership tests and listings;
* ``graph.bin`` — the same words as a minimised DAWG in flat arrays (node
  edge offsets, edge letters, edge targets, final flags, reach masks). ``dawg2``
  has no public edge-by-edge walk, so the move generators walk this graph: the
  compiled one as numpy arrays read straight from the file (``graph_arrays``),
  the pure-Python one as one ``dict`` per node (``{letter: child_node}``, plus
  the key ``FINAL`` on nodes that end a word), built on first use (``root``).
  See ``docs/lexicon.md`` for the measurements behind this choice.

The content hash is the SHA-256 of the sorted canonical word list (one word a
line, UTF-8): the same words give the same hash whatever file they came from.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import sys
import zipfile
from array import array
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import dawg
import numpy as np

from lexicon.alphabet import Alphabet, AlphabetError, spanish

FORMAT = "duplicada-lexicon-1"
FINAL = -1
"""Key present in a graph node (with value ``True``) when the path to it spells a word."""

MIN_TILES, MAX_TILES = 2, 15
"""Word lengths kept, in tiles."""

REACH = -2
"""Key of a graph node's reach masks: a tuple of ``MAX_TILES`` ints, bit ``L`` of
item ``d`` set when letter ``L`` can stand ``d`` letters below the node on the
way to a word (item 0: the node's own edges). The move generator prunes with it."""

Node = dict[int, Any]
"""A graph node: ``{letter_code: child_node, FINAL: True?, REACH: masks}``;
negative keys are not letters."""

_KEY_BASE = 0x41


class LexiconError(ValueError):
    """A compiled lexicon file that cannot be read; the message names the file."""


@dataclass
class BuildReport:
    """What ``build`` did: words kept, lines skipped (with reasons and examples)."""

    lines: int = 0
    words: int = 0
    duplicates: int = 0
    skipped: int = 0
    skipped_examples: list[str] = field(default_factory=list)

    def skip(self, line_number: int, line: str, reason: str) -> None:
        self.skipped += 1
        if len(self.skipped_examples) < 10:
            self.skipped_examples.append(f"línea {line_number}: «{line}» ({reason})")


class Lexicon:
    """A loaded lexicon: ``codes in lexicon`` tests a word (tuple of letter codes).

    Attributes: ``alphabet``, ``root`` (graph root node), ``word_count``,
    ``content_hash`` (hex SHA-256), ``name`` (source file name).
    """

    def __init__(self, alphabet: Alphabet, words: dawg.DAWG, root: Node | None, word_count: int, content_hash: str,
                 name: str, *, graph: _GraphFile | None = None) -> None:
        if root is None and graph is None:
            raise ValueError("hace falta el grafo del léxico")
        self.alphabet = alphabet
        self.word_count = word_count
        self.content_hash = content_hash
        self.name = name
        self._words = words
        self._root = root
        self._graph = graph
        self._arrays: GraphArrays | None = None

    @property
    def root(self) -> Node:
        """The letter graph's root node (``Node``), built from the file on first use."""
        if self._root is None:
            assert self._graph is not None
            self._root = _graph_from_file(self._graph)
        return self._root

    def __contains__(self, codes: object) -> bool:
        if not isinstance(codes, (tuple, list)):
            return False
        try:
            return _key(codes) in self._words
        except (ValueError, TypeError):
            return False

    def __len__(self) -> int:
        return self.word_count

    def contains_text(self, word: str) -> bool:
        """True if ``word`` (text, case and accents ignored) is in the lexicon."""
        try:
            return self.alphabet.word_codes(word) in self
        except AlphabetError:
            return False

    def words(self, prefix: str = "") -> Iterator[str]:
        """The words starting with ``prefix`` (text), as canonical text, in tile order."""
        codes = self.alphabet.word_codes(prefix) if prefix else ()
        node: Node | None = self.root
        for code in codes:
            node = node.get(code) if node is not None else None
        if node is None:
            return
        yield from (self.alphabet.format(word) for word in _walk(node, list(codes)))

    def graph_arrays(self) -> GraphArrays:
        """The letter graph (``root``) as flat numpy arrays, for the compiled move
        generator; built on first call — from the file's arrays when the lexicon was
        loaded (a few milliseconds; 8.1 MB for the default lexicon's 33,636 nodes),
        else from ``root`` — and kept on the object."""
        if self._arrays is None:
            if self._graph is not None:
                self._arrays = _arrays_from_file(self._graph, self.alphabet.size)
            else:
                self._arrays = graph_arrays(self.root, self.alphabet.size)
        return self._arrays

    @classmethod
    def load(cls, path: Path) -> Lexicon:
        """Load a compiled lexicon file.

        Raises ``LexiconError`` naming the file when it is missing, is not a
        compiled lexicon, or is corrupt — including when its words are not the ones its
        declared ``content_hash`` stands for (issue 14 §5: the hash is the word list's,
        recomputed from the graph and the word DAWG the first time this machine sees the
        file, about 2 s for 600,000 words; then remembered by the files' own digest).
        """
        alphabet = spanish()
        try:
            with zipfile.ZipFile(path) as archive:
                meta = json.loads(archive.read("meta.json"))
                if not isinstance(meta, dict) or meta.get("format") != FORMAT:
                    found = meta.get("format") if isinstance(meta, dict) else type(meta).__name__
                    raise LexiconError(f"{path}: formato de léxico desconocido {found!r} (se esperaba {FORMAT})")
                if meta.get("letters") != [letter.symbol for letter in alphabet.letters]:
                    raise LexiconError(f"{path}: el léxico usa otro alfabeto ({meta.get('alphabet')})")
                word_count, digest = int(meta["word_count"]), str(meta["content_hash"])
                words_bytes, graph_bytes = archive.read("words.dawg"), archive.read("graph.bin")
                words = dawg.DAWG().frombytes(words_bytes)
                graph = _read_graph(graph_bytes, alphabet.size)
                files = _files_digest(words_bytes, graph_bytes)
                if _verified().get(files) != digest:
                    found = _recomputed(graph, words_bytes, alphabet)
                    if found is None or found != (word_count, digest):
                        raise LexiconError(
                            f"{path}: sus palabras no son las de la huella que declara ({digest[:12]}…): el "
                            "archivo se ha modificado o está dañado; compílelo de nuevo desde la lista de palabras")
                    _remember(files, digest)
        except FileNotFoundError:
            raise LexiconError(f"{path}: no existe el archivo de léxico") from None
        except LexiconError:
            raise
        except (zipfile.BadZipFile, KeyError, TypeError, json.JSONDecodeError, UnicodeDecodeError, ValueError,
                IndexError, OSError) as error:
            raise LexiconError(f"{path}: no es un léxico compilado válido ({type(error).__name__}: {error})") from None
        return cls(alphabet, words, None, word_count, digest, str(meta.get("source") or path.name), graph=graph)


def read_word_list(lines: Iterable[str], alphabet: Alphabet, report: BuildReport) -> list[tuple[int, ...]]:
    """Words of a word list as sorted, distinct code tuples; bad lines go to ``report``.

    A line is skipped (never an error) when it holds anything outside the
    alphabet (digits, hyphens, K, W, Ç…) or is not 2–15 tiles long.
    """
    seen: set[tuple[int, ...]] = set()
    for number, raw in enumerate(lines, start=1):
        report.lines += 1
        line = raw.strip().lstrip("\ufeff")
        if not line or line.startswith("#"):
            report.lines -= 1
            continue
        try:
            codes = alphabet.word_codes(line)
        except AlphabetError as error:
            report.skip(number, line, str(error).split(": ", 1)[-1])
            continue
        if not MIN_TILES <= len(codes) <= MAX_TILES:
            report.skip(number, line, f"{len(codes)} fichas; se admiten de {MIN_TILES} a {MAX_TILES}")
            continue
        if codes in seen:
            report.duplicates += 1
            continue
        seen.add(codes)
    words = sorted(seen)
    report.words = len(words)
    return words


def content_hash(words: list[tuple[int, ...]], alphabet: Alphabet) -> str:
    """SHA-256 (hex) of the sorted canonical word list, one word a line (each word as
    ``alphabet.format`` writes it; the common case — no two one-letter tiles that would
    join into a digraph — is joined directly, which gives the same text faster)."""
    symbols = [letter.symbol for letter in alphabet.letters]
    digraphs = {symbol for symbol in symbols if len(symbol) > 1}
    joining = {(first, second) for first, left in enumerate(symbols) if len(left) == 1
               for second, right in enumerate(symbols) if (left + right[0]).upper() in digraphs}
    digest = hashlib.sha256()
    for word in words:
        if any(pair in joining for pair in zip(word, word[1:])):
            text = alphabet.format(word)
        else:
            text = "".join([symbols[code] for code in word])
        digest.update(text.encode("utf-8"))
        digest.update(b"\n")
    return digest.hexdigest()


def build(lines: Iterable[str], output: Path, source: str = "", alphabet: Alphabet | None = None) -> BuildReport:
    """Compile a word list (one word a line, UTF-8, any case, accents allowed) to ``output``.

    Returns the ``BuildReport``; lines that are not words of the alphabet are
    skipped and counted there, never an error. The file is written to a
    temporary name first and renamed, so an existing lexicon is never left
    half-written. Raises ``LexiconError`` if no word is left.
    """
    alphabet = alphabet or spanish()
    report = BuildReport()
    words = read_word_list(lines, alphabet, report)
    if not words:
        raise LexiconError(f"{source or output}: ninguna palabra válida en la lista ({report.skipped} líneas descartadas)")
    root = build_graph(words)
    meta = {
        "format": FORMAT,
        "alphabet": alphabet.name,
        "letters": [letter.symbol for letter in alphabet.letters],
        "word_count": len(words),
        "content_hash": content_hash(words, alphabet),
        "source": source,
    }
    dawg_bytes = dawg.DAWG(_key(word) for word in words).tobytes()
    graph_bytes = _graph_to_bytes(root)
    temporary = output.with_name(output.name + ".tmp")
    with zipfile.ZipFile(temporary, "w", compression=zipfile.ZIP_STORED) as archive:
        archive.writestr("meta.json", json.dumps(meta, ensure_ascii=False, indent=1))
        archive.writestr("words.dawg", dawg_bytes)
        archive.writestr("graph.bin", graph_bytes)
    temporary.replace(output)
    _remember(_files_digest(dawg_bytes, graph_bytes), str(meta["content_hash"]))   # built here: its words are known
    return report


# --- the content hash, checked (issue 14 §5) ----------------------------------------
VERIFIED_FILE = "lexicons-verified.json"
"""In the user's cache folder: the digests of compiled files whose words were checked
against their declared ``content_hash`` (files digest → content hash)."""


VISITS_MAX = 30_000_000
"""Prefixes walked at most when checking a file (the default list walks about 2.5 million)."""


def _graph_words(graph: _GraphFile, visits: int | None = None) -> Iterator[tuple[int, ...]]:
    """The words the graph spells, in code order; ``OverflowError`` after ``visits``
    prefixes (a bound for files not built here)."""
    first, finals = graph.first.tolist(), graph.finals.tolist()
    letters, targets = graph.letters.tolist(), graph.targets.tolist()
    stack: list[tuple[int, tuple[int, ...]]] = [(0, ())]
    walked = 0
    while stack:
        node, prefix = stack.pop()
        walked += 1
        if visits is not None and walked > visits:
            raise OverflowError(f"más de {visits} prefijos")
        if finals[node] and prefix:
            yield prefix
        if len(prefix) < MAX_TILES:
            stack.extend((targets[edge], prefix + (letters[edge],))
                         for edge in range(first[node + 1] - 1, first[node] - 1, -1))


def _files_digest(words_bytes: bytes, graph_bytes: bytes) -> str:
    digest = hashlib.sha256(words_bytes)
    digest.update(b"\0graph\0")
    digest.update(graph_bytes)
    return digest.hexdigest()


def _verified_path() -> Path:
    import platformdirs

    return Path(platformdirs.user_cache_dir("duplicada")) / VERIFIED_FILE


def _verified() -> dict[str, str]:
    try:
        known = json.loads(_verified_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return known if isinstance(known, dict) else {}


def _remember(files: str, digest: str) -> None:
    """Record a checked file (best effort: an unwritable cache only means checking again)."""
    path = _verified_path()
    known = _verified()
    if known.get(files) == digest:
        return
    known[files] = digest
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        temporary.write_text(json.dumps(known), encoding="utf-8")
        temporary.replace(path)
    except OSError:
        pass


def _recomputed(graph: _GraphFile, words_bytes: bytes, alphabet: Alphabet) -> tuple[int, str] | None:
    """``(word count, content hash)`` of the words the graph spells, or None when the word
    DAWG does not hold exactly those words (the two parts of the file disagree)."""
    try:
        words = sorted(_graph_words(graph, VISITS_MAX))
    except OverflowError:                # a forged graph that spells far too many words
        return None
    if dawg.DAWG(_key(word) for word in words).tobytes() != words_bytes:
        return None
    return len(words), content_hash(words, alphabet)


# --- the graph ---------------------------------------------------------------------
def build_graph(words: list[tuple[int, ...]]) -> Node:
    """A minimised DAWG of ``words`` (sorted, distinct) — Daciuk et al. (2000),
    incremental construction from sorted data. Returns the root node."""
    root: Node = {}
    register: dict[tuple[tuple[int, int], ...], Node] = {}
    unchecked: list[tuple[Node, int, Node]] = []
    previous: tuple[int, ...] = ()

    def minimise(down_to: int) -> None:
        while len(unchecked) > down_to:
            parent, letter, child = unchecked.pop()
            signature = tuple((key, id(value)) for key, value in child.items())
            existing = register.get(signature)
            if existing is None:
                register[signature] = child
            else:
                parent[letter] = existing

    for word in words:
        common = 0
        limit = min(len(word), len(previous))
        while common < limit and word[common] == previous[common]:
            common += 1
        minimise(common)
        node = unchecked[-1][2] if unchecked else root
        for letter in word[common:]:
            child: Node = {}
            node[letter] = child
            unchecked.append((node, letter, child))
            node = child
        node[FINAL] = True
        previous = word
    minimise(0)
    return root


@dataclass(frozen=True)
class GraphArrays:
    """A letter graph in flat arrays; node 0 is the root.

    * ``child``: int32, shape ``(nodes, letters)``; ``child[n, L]`` the node
      reached from ``n`` by letter ``L``, -1 when there is no such edge;
    * ``final``: bool, shape ``(nodes,)``; True when the path to the node spells a word;
    * ``reach``: int64, shape ``(nodes, MAX_TILES + 1)``; the node's ``REACH``
      masks, plus a last column of zeros so that an index one past the longest
      word reads "nothing reachable" instead of failing.
    """

    child: np.ndarray
    final: np.ndarray
    reach: np.ndarray


def graph_arrays(root: Node, letter_count: int) -> GraphArrays:
    """``root``'s graph (nodes as built by ``build_graph`` or loaded) as ``GraphArrays``."""
    index: dict[int, int] = {id(root): 0}
    order: list[Node] = [root]
    # Nodes are numbered breadth first, in the order they are first reached.
    for node in order:
        for letter, next_node in node.items():
            if letter >= 0 and id(next_node) not in index:
                index[id(next_node)] = len(order)
                order.append(next_node)
    computed = None if REACH in root else _reach_masks(root)  # a graph straight from build_graph
    sources: list[int] = []
    letters: list[int] = []
    targets: list[int] = []
    for number, node in enumerate(order):
        for letter, next_node in node.items():
            if letter >= 0:
                sources.append(number)
                letters.append(letter)
                targets.append(index[id(next_node)])
    child = np.full((len(order), letter_count), -1, dtype=np.int32)
    child[sources, letters] = targets
    final = np.array([FINAL in node for node in order], dtype=np.bool_)
    reach = np.zeros((len(order), MAX_TILES + 1), dtype=np.int64)
    reach[:, :MAX_TILES] = [node[REACH] if computed is None else computed[id(node)] for node in order]
    return GraphArrays(child, final, reach)


def _walk(node: Node, prefix: list[int]) -> Iterator[tuple[int, ...]]:
    if FINAL in node:
        yield tuple(prefix)
    for letter, child in node.items():
        if letter < 0:
            continue
        prefix.append(letter)
        yield from _walk(child, prefix)
        prefix.pop()


def _graph_to_bytes(root: Node) -> bytes:
    order: list[Node] = []
    index: dict[int, int] = {}
    stack = [root]
    index[id(root)] = 0
    while stack:
        node = stack.pop()
        order.append(node)
        for letter, child in node.items():
            if letter >= 0 and id(child) not in index:
                index[id(child)] = -1
                stack.append(child)
    for position, node in enumerate(order):
        index[id(node)] = position
    first = array("I", [0])
    letters = array("B")
    targets = array("I")
    finals = array("B")
    reach_of = _reach_masks(root)
    reach = array("I")
    for node in order:
        reach.extend(reach_of[id(node)])
        finals.append(1 if FINAL in node else 0)
        for letter, child in node.items():
            if letter < 0:
                continue
            letters.append(letter)
            targets.append(index[id(child)])
        first.append(len(letters))
    if sys.byteorder != "little":
        first.byteswap()
        targets.byteswap()
        reach.byteswap()
    buffer = io.BytesIO()
    header = array("I", [len(order), len(letters)])
    if sys.byteorder != "little":
        header.byteswap()
    for part in (header, first, finals, letters, targets, reach):
        buffer.write(part.tobytes())
    return buffer.getvalue()


@dataclass(frozen=True)
class _GraphFile:
    """``graph.bin`` read into numpy arrays (little-endian, checked): ``first`` edge of
    each node (``nodes + 1``), ``finals`` (``nodes``), edge ``letters`` and ``targets``,
    ``reach`` masks (``nodes × MAX_TILES``). Node 0 is the root."""

    first: np.ndarray
    finals: np.ndarray
    letters: np.ndarray
    targets: np.ndarray
    reach: np.ndarray


def _read_graph(blob: bytes, letter_count: int) -> _GraphFile:
    """Read ``_graph_to_bytes`` output; ``ValueError`` if it is inconsistent."""
    if len(blob) < 8:
        raise ValueError("grafo truncado")
    node_count, edge_count = (int(value) for value in np.frombuffer(blob, dtype="<u4", count=2))
    sizes = [("first", "<u4", node_count + 1), ("finals", "u1", node_count), ("letters", "u1", edge_count),
             ("targets", "<u4", edge_count), ("reach", "<u4", MAX_TILES * node_count)]
    if 8 + sum(np.dtype(kind).itemsize * count for _, kind, count in sizes) != len(blob):
        raise ValueError("tamaño del grafo incoherente")
    parts: dict[str, np.ndarray] = {}
    offset = 8
    for name, kind, count in sizes:
        parts[name] = np.frombuffer(blob, dtype=kind, count=count, offset=offset)
        offset += np.dtype(kind).itemsize * count
    first = parts["first"]
    if node_count < 1 or first[0] != 0 or first[-1] != edge_count or bool(np.any(np.diff(first.astype(np.int64)) < 0)):
        raise ValueError("desplazamientos de aristas incoherentes")
    if edge_count and (int(parts["targets"].max()) >= node_count or int(parts["letters"].max()) >= letter_count):
        raise ValueError("arista hacia un nodo o letra inexistente")
    return _GraphFile(first, parts["finals"], parts["letters"], parts["targets"],
                      parts["reach"].reshape(node_count, MAX_TILES))


def _graph_from_file(graph: _GraphFile) -> Node:
    """The graph as one ``dict`` per node (for the pure-Python walker and listings)."""
    reach = [tuple(row) for row in graph.reach.tolist()]
    nodes: list[Node] = [{FINAL: True, REACH: masks} if final else {REACH: masks}
                         for final, masks in zip(graph.finals.tolist(), reach)]
    letters, targets, first = graph.letters.tolist(), graph.targets.tolist(), graph.first.tolist()
    start = 0
    for node, end in zip(nodes, first[1:]):
        for edge in range(start, end):
            node[letters[edge]] = nodes[targets[edge]]
        start = end
    return nodes[0]


def _arrays_from_file(graph: _GraphFile, letter_count: int) -> GraphArrays:
    """The graph as ``GraphArrays`` straight from the file's arrays (node numbers as stored)."""
    node_count = len(graph.finals)
    child = np.full((node_count, letter_count), -1, dtype=np.int32)
    degrees: np.ndarray = np.diff(graph.first.astype(np.int64))
    sources = np.repeat(np.arange(node_count, dtype=np.int64), degrees)
    child[sources, graph.letters.astype(np.int64)] = graph.targets.astype(np.int32)
    reach = np.zeros((node_count, MAX_TILES + 1), dtype=np.int64)
    reach[:, :MAX_TILES] = graph.reach
    return GraphArrays(child, graph.finals.astype(np.bool_), reach)


def _reach_masks(root: Node) -> dict[int, tuple[int, ...]]:
    """Reach masks (see ``REACH``) of every node, by ``id``."""
    masks: dict[int, tuple[int, ...]] = {}

    def visit(node: Node) -> tuple[int, ...]:
        known = masks.get(id(node))
        if known is not None:
            return known
        here = [0] * MAX_TILES
        for letter, child in node.items():
            if letter < 0:
                continue
            here[0] |= 1 << letter
            below = visit(child)
            for depth in range(1, MAX_TILES):
                here[depth] |= below[depth - 1]
        result = tuple(here)
        masks[id(node)] = result
        return result

    visit(root)
    return masks


def _key(codes: Iterable[int]) -> str:
    return "".join(chr(_KEY_BASE + code) for code in codes)
