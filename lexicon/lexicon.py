"""The compiled lexicon: the word set (rules I.2) stored with ``dawg2``, plus the
letter graph the move generator walks.

A compiled lexicon file is a zip archive (stored, not compressed, so it loads
fast) holding:

* ``meta.json`` — format version, alphabet letters, word count, content hash;
* ``words.dawg`` — the words in a ``dawg2.DAWG`` (each tile one character),
  used for membership tests and listings;
* ``graph.bin`` — the same words as a minimised DAWG in flat arrays (node
  edge offsets, edge letters, edge targets, final flags, reach masks). ``dawg2``
  has no public edge-by-edge walk, so the pure-Python move generator (the
  reference) walks this graph, as one ``dict`` per node (``{letter: child_node}``,
  plus the key ``FINAL`` on nodes that end a word), built on first use (``root``);
* ``gaddag.bin`` — the same words as a minimised GADDAG (``lexicon.gaddag``), which
  the compiled move generator walks (format 2; a format-1 file, without it, is still
  read, and its GADDAG built from its words when first needed, about 2 s).
  See ``docs/lexicon.md`` for the measurements behind these choices.

The content hash is the SHA-256 of the sorted canonical word list (one word a
line, UTF-8): the same words give the same hash whatever file they came from.

The letter graph itself (built from the words, its flat form in ``graph.bin``) is
``lexicon.word_graph``'s.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import stat
import threading
import zipfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import dawg
import numpy as np

from lexicon.alphabet import Alphabet, AlphabetError, spanish
from lexicon.fast_build import bulk_keys, codes_buffer, keys_text, word_graph_bytes
from lexicon.gaddag import (
    Gaddag,
    available as gaddag_available,
    build_gaddag,
    build_gaddag_from_buffer,
    extension as gaddag_extension,
)
from lexicon.kept import KEPT_MAX_BYTES, KeptFiles
from lexicon.word_graph import GraphFile, Node, build_graph, graph_from_file, graph_to_bytes, read_graph, walk
from lexicon.word_limits import MAX_TILES, MIN_TILES

FORMAT = "duplicada-lexicon-2"
READABLE_FORMATS = ("duplicada-lexicon-1", FORMAT)
"""Formats ``Lexicon.load`` reads: 1 has no ``gaddag.bin``."""
MEMBER_MAX_BYTES = 256 * 2**20
"""The largest part of a compiled lexicon read (the default's largest is 8 MB): a file
claiming more is refused before it is unpacked."""

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
                 name: str, *, graph: GraphFile | None = None, gaddag: Gaddag | None = None) -> None:
        if root is None and graph is None:
            raise ValueError("hace falta el grafo del léxico")
        self.alphabet = alphabet
        self.word_count = word_count
        self.content_hash = content_hash
        self.name = name
        self._words = words
        self._root = root
        self._graph = graph
        self._gaddag = gaddag
        self._gaddag_lock = threading.Lock()

    @property
    def root(self) -> Node:
        """The letter graph's root node (``Node``), built from the file on first use."""
        if self._root is None:
            assert self._graph is not None
            self._root = graph_from_file(self._graph)
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
        yield from (self.alphabet.format(word) for word in walk(node, list(codes)))

    def gaddag(self) -> Gaddag:
        """The lexicon's GADDAG, for the compiled move generator: read from the file, or
        built from the words when the file has none (format 1, about 2 s) and kept.
        Raises ``RuntimeError`` when the C extension is not built."""
        with self._gaddag_lock:
            if self._gaddag is None:
                words = list(walk(self.root, [])) if self._graph is None else list(_graph_words(self._graph))
                self._gaddag = build_gaddag(words, self.alphabet.size)
            return self._gaddag

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
            status = path.stat()
            if not stat.S_ISREG(status.st_mode):      # a FIFO would block, /dev/zero never end
                raise LexiconError(f"{path}: no es un archivo normal (se espera un léxico compilado .lex)")
            data = path.read_bytes() if status.st_size <= KEPT_MAX_BYTES else None
            if data is not None and (kept := _loaded.get(str(path), data)) is not None:
                return kept
            with zipfile.ZipFile(path if data is None else io.BytesIO(data)) as archive:
                for member in archive.infolist():
                    if member.file_size > MEMBER_MAX_BYTES:
                        raise LexiconError(f"{path}: «{member.filename}» ocupa {member.file_size} bytes "
                                           f"descomprimido; un léxico compilado no pasa de {MEMBER_MAX_BYTES}")
                meta = json.loads(archive.read("meta.json"))
                if not isinstance(meta, dict) or meta.get("format") not in READABLE_FORMATS:
                    found = meta.get("format") if isinstance(meta, dict) else type(meta).__name__
                    raise LexiconError(f"{path}: formato de léxico desconocido {found!r} (se esperaba {FORMAT})")
                if meta.get("letters") != [letter.symbol for letter in alphabet.letters]:
                    raise LexiconError(f"{path}: el léxico usa otro alfabeto ({meta.get('alphabet')})")
                word_count, digest = int(meta["word_count"]), str(meta["content_hash"])
                words_bytes, graph_bytes = archive.read("words.dawg"), archive.read("graph.bin")
                gaddag_bytes = archive.read("gaddag.bin") if meta["format"] == FORMAT else b""
                words = dawg.DAWG().frombytes(words_bytes)
                graph = read_graph(graph_bytes, alphabet.size)
                gaddag = Gaddag.from_bytes(gaddag_bytes, alphabet.size) if meta["format"] == FORMAT else None
                files = _files_digest(words_bytes, graph_bytes, gaddag_bytes)
                if _verified().get(files) != digest:
                    found = _recomputed(graph, words_bytes, gaddag_bytes, alphabet)
                    if found is None or found != (word_count, digest):
                        raise LexiconError(
                            f"{path}: sus palabras no son las de la huella que declara ({digest[:12]}…): el "
                            "archivo se ha modificado o está dañado; compílelo de nuevo desde la lista de palabras")
                    if not gaddag_bytes or gaddag_available():   # its GADDAG checked too, or none
                        _remember(files, digest)
        except FileNotFoundError:
            raise LexiconError(f"{path}: no existe el archivo de léxico") from None
        except LexiconError:
            raise
        except (zipfile.BadZipFile, KeyError, TypeError, json.JSONDecodeError, UnicodeDecodeError, ValueError,
                IndexError, OSError) as error:
            raise LexiconError(f"{path}: no es un léxico compilado válido ({type(error).__name__}: {error})") from None
        lexicon = cls(alphabet, words, None, word_count, digest, str(meta.get("source") or path.name), graph=graph,
                      gaddag=gaddag)
        if data is not None:
            _loaded.keep(str(path), data, lexicon)
        return lexicon



_loaded: KeptFiles[Lexicon] = KeptFiles(2)
"""The last two lexicons loaded, with their files' bytes (``Lexicon.load``)."""

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


def _read_keys(lines: Iterable[str], alphabet: Alphabet, report: BuildReport) -> list[str]:
    """The words of a word list as sorted distinct keys (``lexicon.fast_build``): read in
    bulk when the list is plain, else line by line (``read_word_list``)."""
    text = "".join(line if line.endswith("\n") else line + "\n" for line in lines)
    bulk = bulk_keys(text, alphabet)
    if bulk is None:
        return [_key(word) for word in read_word_list(text.splitlines(), alphabet, report)]
    keys, report.lines, report.duplicates, wrong = bulk
    for number, line in wrong:
        report.skip(number, line, f"{len(alphabet.word_codes(line))} fichas; se admiten de {MIN_TILES} a {MAX_TILES}")
    report.words = len(keys)
    return keys


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
    keys = _read_keys(lines, alphabet, report)
    if not keys:
        raise LexiconError(f"{source or output}: ninguna palabra válida en la lista ({report.skipped} líneas descartadas)")
    meta = {
        "format": FORMAT,
        "alphabet": alphabet.name,
        "letters": [letter.symbol for letter in alphabet.letters],
        "word_count": len(keys),
        "content_hash": hashlib.sha256(keys_text(keys, alphabet).encode("utf-8")).hexdigest(),
        "source": source,
    }
    dawg_bytes = dawg.DAWG(keys).tobytes()
    module = gaddag_extension()
    if module is not None:
        # The C builder (lexicon/gaddag_build.c): the word graph and the GADDAG of the same buffer.
        buffer = codes_buffer(keys)
        del keys                                # 40 MB of strings not needed any more
        mask, first, target, root = module.build(buffer, alphabet.size, True)
        mask_array, first_array, target_array = (np.frombuffer(part, dtype=np.uint32) for part in (mask, first, target))
        graph_bytes = word_graph_bytes(mask_array, first_array, target_array, root, alphabet.size)
        gaddag_bytes = build_gaddag_from_buffer(buffer, alphabet.size).to_bytes()
    else:
        graph_bytes = graph_to_bytes(build_graph([tuple(ord(ch) - _KEY_BASE for ch in key) for key in keys]))
        gaddag_bytes = b""
        meta["format"] = READABLE_FORMATS[0]   # no C extension here: the GADDAG is built where it is used
    # Per process: two stations (or test workers) compiling the same lexicon at once each
    # write their own file; the last rename wins, both complete.
    temporary = output.with_name(f"{output.stem}.{os.getpid()}{output.suffix}.tmp")
    with zipfile.ZipFile(temporary, "w", compression=zipfile.ZIP_STORED) as archive:
        archive.writestr("meta.json", json.dumps(meta, ensure_ascii=False, indent=1))
        archive.writestr("words.dawg", dawg_bytes)
        archive.writestr("graph.bin", graph_bytes)
        if gaddag_bytes:
            archive.writestr("gaddag.bin", gaddag_bytes)
    temporary.replace(output)
    _remember(_files_digest(dawg_bytes, graph_bytes, gaddag_bytes), str(meta["content_hash"]))   # built here: its words are known
    return report


# --- the content hash, checked (issue 14 §5) ----------------------------------------
VERIFIED_FILE = "lexicons-verified.json"
"""In the user's cache folder: the digests of compiled files whose words were checked
against their declared ``content_hash`` (files digest → content hash)."""


VISITS_MAX = 30_000_000
"""Prefixes walked at most when checking a file (the default list walks about 2.5 million)."""


def _graph_words(graph: GraphFile, visits: int | None = None) -> Iterator[tuple[int, ...]]:
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


def _files_digest(words_bytes: bytes, graph_bytes: bytes, gaddag_bytes: bytes = b"") -> str:
    digest = hashlib.sha256(words_bytes)
    digest.update(b"\0graph\0")
    digest.update(graph_bytes)
    if gaddag_bytes:
        digest.update(b"\0gaddag\0")
        digest.update(gaddag_bytes)
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


def _recomputed(graph: GraphFile, words_bytes: bytes, gaddag_bytes: bytes, alphabet: Alphabet) -> tuple[int, str] | None:
    """``(word count, content hash)`` of the words the graph spells, or None when the word
    DAWG or the GADDAG does not hold exactly those words (the parts of the file disagree;
    the GADDAG is built again from the words and compared, about 1.5 s more)."""
    try:
        words = sorted(_graph_words(graph, VISITS_MAX))
    except OverflowError:                # a forged graph that spells far too many words
        return None
    if dawg.DAWG(_key(word) for word in words).tobytes() != words_bytes:
        return None
    if gaddag_bytes and gaddag_available() and build_gaddag(words, alphabet.size).to_bytes() != gaddag_bytes:
        return None
    return len(words), content_hash(words, alphabet)


def _key(codes: Iterable[int]) -> str:
    return "".join(chr(_KEY_BASE + code) for code in codes)

