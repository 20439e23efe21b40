"""The compiled lexicon: building from a word list, the content hash, loading, and the
letter graph the move generator walks."""

from __future__ import annotations

import json
import os
import random
import struct
import zipfile
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from lexicon.alphabet import spanish
from lexicon.lexicon import Lexicon, LexiconError, build, content_hash
from lexicon.word_graph import FINAL, build_graph

A = spanish()

GOOD = ["casa", "CASA", "Casa", "cása", "ÁRBOL", "arbol", "año", "ANO", "chorrillos", "\ufeffPERRO", "  llave  ",
        "CH" * 15, "A" * 15]
BAD = {"KIWI": "K", "WEB": "W", "H2O": "2", "PORTA-AVIONES": "-", "A": "1 fichas", "CH": "1 fichas", "Y": "1 fichas",
       "A" * 16: "16 fichas", "CH" * 16: "16 fichas"}
IGNORED = ["", "   ", "# comentario"]
KEPT = {"CASA", "ARBOL", "AÑO", "ANO", "CHORRILLOS", "PERRO", "LLAVE", "CH" * 15, "A" * 15}


def compile_words(tmp_path: Path, lines: list[str], name: str = "test.lex"):
    path = tmp_path / name
    report = build(lines, path, source="lista.txt")
    return report, Lexicon.load(path)


# --- building ----------------------------------------------------------------------------------
def test_build_reports_bad_lines_and_keeps_normalised_words(tmp_path: Path) -> None:
    lines = GOOD[:6] + list(BAD) + IGNORED + GOOD[6:]
    report, lexicon = compile_words(tmp_path, lines)
    assert report.lines == len(GOOD) + len(BAD)
    assert report.words == len(KEPT) == lexicon.word_count == len(lexicon)
    assert report.duplicates == 4  # CASA ×3, ARBOL ×1 (case and accents ignored)
    assert report.skipped == len(BAD)
    assert len(report.skipped_examples) == len(BAD)
    for text, reason in BAD.items():
        (example,) = [e for e in report.skipped_examples if f"«{text}»" in e]
        assert reason in example
    assert set(lexicon.words()) == KEPT
    listed = list(lexicon.words())
    assert listed == sorted(listed, key=A.word_codes)  # tile order: CH after C, Ñ after N
    for text in KEPT:
        assert A.word_codes(text) in lexicon
    assert lexicon.contains_text("Árbol") and lexicon.contains_text("año") and lexicon.contains_text("chorrillos")
    assert not lexicon.contains_text("KIWI") and not lexicon.contains_text("CAS") and not lexicon.contains_text("AÑOS")
    assert list(lexicon.words("CH")) == ["CH" * 15, "CHORRILLOS"]
    assert list(lexicon.words("C")) == ["CASA"]  # CH is its own letter


def test_build_skips_lines_with_cedilla(tmp_path: Path) -> None:
    """``read_word_list`` doc: a line holding Ç is skipped, like K or W."""
    report, lexicon = compile_words(tmp_path, ["CASA", "ÇA"])
    assert report.skipped == 1 and report.words == 1
    assert not lexicon.contains_text("CA")


def test_build_with_no_valid_word(tmp_path: Path) -> None:
    with pytest.raises(LexiconError, match="lista.txt"):
        build(["KIWI", "", "X"], tmp_path / "empty.lex", source="lista.txt")
    assert not (tmp_path / "empty.lex").exists()


def test_content_hash_ignores_order_case_and_accents(tmp_path: Path) -> None:
    words = ["CASA", "ARBOL", "AÑO", "CHORRILLOS", "PINGUINO", "LLAVE"]
    variants = [["casa", "árbol", "año", "chorrillos", "pingüino", "llave"], list(reversed(words)),
                ["Pingüino", "LLave", "Casa", "CASA", "AÑO", "Árbol", "chorrillos"]]
    _, base = compile_words(tmp_path, words, "base.lex")
    for number, variant in enumerate(variants):
        _, other = compile_words(tmp_path, variant, f"v{number}.lex")
        assert other.content_hash == base.content_hash
    assert base.content_hash == content_hash(sorted(A.word_codes(w) for w in words), A)
    _, different = compile_words(tmp_path, words + ["ANO"], "diff.lex")
    assert different.content_hash != base.content_hash


# --- loading -------------------------------------------------------------------------------------
@pytest.fixture
def compiled(tmp_path: Path) -> Path:
    path = tmp_path / "good.lex"
    build(["CASA", "CHE", "LLAVE", "PERRO", "AL", "LA"], path)
    return path


def rewrite(source: Path, target: Path, name: str, data: bytes | None) -> Path:
    """Copy the archive ``source`` to ``target`` with member ``name`` replaced (or dropped if None)."""
    with zipfile.ZipFile(source) as old, zipfile.ZipFile(target, "w") as new:
        for info in old.infolist():
            if info.filename != name:
                new.writestr(info, old.read(info.filename))
        if data is not None:
            new.writestr(name, data)
    return target


def test_load_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "missing.lex"
    with pytest.raises(LexiconError, match="missing.lex"):
        Lexicon.load(path)


def test_load_not_a_zip(tmp_path: Path) -> None:
    path = tmp_path / "words.lex"
    path.write_text("CASA\nPERRO\n", encoding="utf-8")
    with pytest.raises(LexiconError, match="words.lex"):
        Lexicon.load(path)


@pytest.mark.parametrize("member", ["meta.json", "words.dawg", "graph.bin"])
def test_load_missing_member(compiled: Path, tmp_path: Path, member: str) -> None:
    path = rewrite(compiled, tmp_path / "bad.lex", member, None)
    with pytest.raises(LexiconError, match="bad.lex"):
        Lexicon.load(path)


def _graph_layout(blob: bytes) -> dict[str, int]:
    """Offsets in graph.bin (layout of lexicon.py: header node/edge counts, edge offsets,
    final flags, edge letters, edge targets, ...)."""
    nodes, edges = struct.unpack_from("<II", blob)
    first = 8
    finals = first + 4 * (nodes + 1)
    letters = finals + nodes
    targets = letters + edges
    return {"nodes": nodes, "edges": edges, "first": first, "letters": letters, "targets": targets}


def _patch(blob: bytes, offset: int, data: bytes) -> bytes:
    return blob[:offset] + data + blob[offset + len(data):]


def _corruptions(blob: bytes) -> dict[str, bytes]:
    layout = _graph_layout(blob)
    return {
        "empty": b"",
        "truncated": blob[:-1],
        "half": blob[: len(blob) // 2],
        "one byte more": blob + b"\0",
        "garbage": bytes(random.Random(1).randrange(256) for _ in range(len(blob))),
        "no nodes": struct.pack("<III", 0, 0, 0),
        "target out of range": _patch(blob, layout["targets"], struct.pack("<I", 10**6)),
        "edge offset out of range": _patch(blob, layout["first"] + 4, struct.pack("<I", 10**6)),
        "letter outside the alphabet": _patch(blob, layout["letters"], bytes([200])),
    }


CORRUPTIONS = ["empty", "truncated", "half", "one byte more", "garbage", "no nodes", "target out of range",
               "edge offset out of range", "letter outside the alphabet"]


@pytest.mark.parametrize("corruption", CORRUPTIONS)
def test_load_corrupt_graph(compiled: Path, tmp_path: Path, corruption: str) -> None:
    with zipfile.ZipFile(compiled) as archive:
        blob = archive.read("graph.bin")
    path = rewrite(compiled, tmp_path / "corrupt.lex", "graph.bin", _corruptions(blob)[corruption])
    with pytest.raises(LexiconError, match="corrupt.lex"):
        Lexicon.load(path)


@pytest.mark.parametrize("meta", [b"not json", b"[]", b'{"format": "otro-formato"}', "without word_count"])
def test_load_corrupt_meta(compiled: Path, tmp_path: Path, meta: bytes | str) -> None:
    if meta == "without word_count":
        with zipfile.ZipFile(compiled) as archive:
            content = json.loads(archive.read("meta.json"))
        del content["word_count"]
        meta = json.dumps(content).encode()
    path = rewrite(compiled, tmp_path / "meta.lex", "meta.json", meta)
    with pytest.raises(LexiconError, match="meta.lex"):
        Lexicon.load(path)


def test_load_corrupt_word_set(compiled: Path, tmp_path: Path) -> None:
    with zipfile.ZipFile(compiled) as archive:
        blob = archive.read("words.dawg")
    path = rewrite(compiled, tmp_path / "dawg.lex", "words.dawg", blob[: len(blob) // 2])
    with pytest.raises(LexiconError, match="dawg.lex"):
        Lexicon.load(path)


# --- the graph -----------------------------------------------------------------------------------
def walk(node: dict, prefix: tuple[int, ...] = ()) -> list[tuple[int, ...]]:
    """Every word of the graph from ``node`` (letters are the non-negative keys)."""
    found = [prefix] if FINAL in node else []
    for letter, child in node.items():
        if isinstance(letter, int) and letter >= 0:
            found += walk(child, prefix + (letter,))
    return found


def distinct_nodes(root: dict) -> int:
    seen: dict[int, dict] = {}
    stack = [root]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen[id(node)] = node
        stack.extend(child for letter, child in node.items() if isinstance(letter, int) and letter >= 0)
    return len(seen)


def trie_and_minimal_sizes(words: set[tuple[int, ...]]) -> tuple[int, int]:
    """Nodes of the trie of ``words`` (one per distinct prefix) and of the minimal
    automaton (one per distinct set of suffixes leading to a word, a naive count)."""
    prefixes = {word[:i] for word in words for i in range(len(word) + 1)}
    languages = {frozenset(word[len(p):] for word in words if word[: len(p)] == p) for p in prefixes}
    return len(prefixes), len(languages)


words_over_small_alphabet = st.sets(st.lists(st.integers(0, 4), min_size=1, max_size=6).map(tuple),
                                    min_size=1, max_size=60)


@settings(max_examples=200, deadline=None)
@given(words_over_small_alphabet)
def test_graph_spells_exactly_the_words_and_is_minimal(words: set[tuple[int, ...]]) -> None:
    root = build_graph(sorted(words))
    spelled = walk(root)
    assert sorted(spelled) == sorted(words)  # each word once, nothing else
    trie, minimal = trie_and_minimal_sizes(words)
    assert distinct_nodes(root) <= trie
    assert distinct_nodes(root) == minimal


@settings(max_examples=30, deadline=None)
@given(st.sets(st.sampled_from([
    "CASA", "CASAS", "CASO", "COSA", "COSAS", "CHE", "CHA", "CHAL", "LLAVE", "LLAVES", "PERRO", "PERRA", "CARRO",
    "CHORRILLOS", "AÑO", "ANO", "AL", "LA", "LAS", "LOS", "ES", "SE", "NOCHE", "LECHE", "OCHO", "CALLE", "ELLA",
]), min_size=1))
def test_loaded_lexicon_agrees_with_a_naive_set(tmp_path_factory: pytest.TempPathFactory, words: set[str]) -> None:
    path = tmp_path_factory.mktemp("lex") / "naive.lex"
    build(sorted(words), path)
    lexicon = Lexicon.load(path)
    naive = {A.word_codes(w) for w in words}
    assert sorted(walk(lexicon.root)) == sorted(naive)
    assert set(lexicon.words()) == words
    probes = naive | {w[:-1] for w in naive} | {w + (A.code("S"),) for w in naive}
    probes.add((A.code("C"), A.code("H"), A.code("E")))  # C + H tiles are not CH
    for probe in probes:
        assert (probe in lexicon) == (probe in naive)
        node = lexicon.root
        for letter in probe:
            node = node.get(letter) if node is not None else None
        assert (node is not None and FINAL in node) == (probe in naive)
    trie, minimal = trie_and_minimal_sizes(naive)
    assert minimal <= distinct_nodes(lexicon.root) <= trie


def _rewritten(source: Path, target: Path, **replace: bytes) -> Path:
    """A copy of the compiled lexicon ``source`` with some of its members replaced."""
    with zipfile.ZipFile(source) as original, zipfile.ZipFile(target, "w") as copy:
        for name in original.namelist():
            copy.writestr(name, replace.get(name.replace(".", "_"), original.read(name)))
    return target


def test_a_lexicon_whose_words_are_not_its_hash_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Issue 14 §5: two stations with different words under one hash scored a move 0 and 86.
    # The hash is recomputed from the file's words (once per file on a machine).
    import lexicon.lexicon as module

    monkeypatch.setattr(module, "_verified_path", lambda: tmp_path / "verificados.json")
    first, second = tmp_path / "a.txt", tmp_path / "b.txt"
    first.write_text("casa\nperro\ngato\n", encoding="utf-8")
    second.write_text("casa\nperro\ngatos\n", encoding="utf-8")
    build(first.read_text(encoding="utf-8").splitlines(), tmp_path / "a.lex")
    build(second.read_text(encoding="utf-8").splitlines(), tmp_path / "b.lex")
    a, b = Lexicon.load(tmp_path / "a.lex"), Lexicon.load(tmp_path / "b.lex")
    assert a.content_hash != b.content_hash
    with zipfile.ZipFile(tmp_path / "b.lex") as archive:
        meta = json.loads(archive.read("meta.json"))
        b_words = archive.read("words.dawg")
    meta["content_hash"] = a.content_hash                     # b's words, a's hash
    forged = _rewritten(tmp_path / "b.lex", tmp_path / "forged.lex", meta_json=json.dumps(meta).encode())
    with pytest.raises(LexiconError, match="no son las de la huella"):
        Lexicon.load(forged)
    mixed = _rewritten(tmp_path / "a.lex", tmp_path / "mixed.lex", words_dawg=b_words)   # two parts disagree
    with pytest.raises(LexiconError, match="no son las de la huella"):
        Lexicon.load(mixed)

    # A file checked once is not walked again (its digest is remembered).
    copied = tmp_path / "copia.lex"
    copied.write_bytes((tmp_path / "a.lex").read_bytes())
    monkeypatch.setattr(module, "_recomputed", lambda *args: pytest.fail("checked again"))
    assert Lexicon.load(copied).content_hash == a.content_hash


def test_a_lexicon_file_changed_since_it_was_loaded_is_read_and_checked_again(tmp_path: Path) -> None:
    # Issue 24 §3: a process keeps the lexicons it loaded, with their files' bytes; a file
    # that no longer holds exactly those bytes is loaded again, whatever its size and time.
    build(["casa", "perro", "gato"], tmp_path / "a.lex")
    build(["casa", "perro", "gatos"], tmp_path / "b.lex")
    path = tmp_path / "t.lex"
    path.write_bytes((tmp_path / "a.lex").read_bytes())
    first = Lexicon.load(path)
    assert Lexicon.load(path) is first                              # the same bytes: kept
    status = path.stat()
    with zipfile.ZipFile(tmp_path / "b.lex") as archive:
        b_words = archive.read("words.dawg")
    mixed = _rewritten(tmp_path / "a.lex", tmp_path / "mixed.lex", words_dawg=b_words).read_bytes()
    path.write_bytes(mixed)
    os.utime(path, ns=(status.st_atime_ns, status.st_mtime_ns))     # same time: still read again
    with pytest.raises(LexiconError, match="no son las de la huella"):
        Lexicon.load(path)
    path.write_bytes((tmp_path / "b.lex").read_bytes())
    assert Lexicon.load(path).content_hash == Lexicon.load(tmp_path / "b.lex").content_hash != first.content_hash
