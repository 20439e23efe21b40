"""The fast lexicon build (``lexicon.fast_build`` and the C word graph) against the plain one.

The bulk reading of a plain word list must give the words, counts and content hash the
line-by-line reading gives (rules I.2: the digraphs CH, LL, RR are single tiles, read
greedily), and the word graph built in C must spell the same words, with the same reach
masks, as the Python ``build_graph``.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from lexicon.alphabet import spanish
from lexicon.fast_build import bulk_keys, keys_text
from lexicon.gaddag import available
from lexicon.lexicon import BuildReport, Lexicon, _graph_words, build, content_hash, read_word_list
from lexicon.word_graph import (
    REACH,
    graph_from_file as _graph_from_file,
    reach_masks as _reach_masks,
    read_graph as _read_graph,
)

A = spanish()
compiled_only = pytest.mark.skipif(not available(), reason="lexicon._gaddag not built")


def line_by_line(lines: list[str]) -> tuple[list[tuple[int, ...]], BuildReport]:
    report = BuildReport()
    return read_word_list(lines, A, report), report


def keys_of(words: list[tuple[int, ...]]) -> list[str]:
    return ["".join(chr(0x41 + code) for code in word) for word in words]


@pytest.mark.parametrize("lines", [
    ["CHORRILLOS", "chorrillos", "LLAVE", "perro", "CARRO", "CASA", "casa", "AÑO", "año"],
    ["ccHH", "CCH", "LLL", "RRR", "CHH", "HC", "LLLL", "NIÑO"],
    ["A", "ES", "CABALLEROSIDADES", "ELECTROENCEFALOGRAFISTA", "SE", "", "OS"],
])
def test_bulk_reading_gives_what_reading_line_by_line_gives(lines: list[str]) -> None:
    bulk = bulk_keys("\n".join(lines) + "\n", A)
    assert bulk is not None
    keys, read, duplicates, wrong = bulk
    words, report = line_by_line(lines)
    assert keys == keys_of(words)
    assert (read, duplicates, len(wrong)) == (report.lines, report.duplicates, report.skipped)
    assert keys_text(keys, A) == "".join(A.format(word) + "\n" for word in words)
    assert [number for number, _line in wrong] == [int(example.split(":")[0].split()[1])
                                                   for example in report.skipped_examples]


@pytest.mark.parametrize("text", ["CASA\nMESA K\n", "CASA\n#comentario\n", "\ufeffCASA\n", "CAFÉ\n", "CASA \n",
                                  "PINGÜINO\n", "ÇA\n", "WATT\n", "CASA\tMESA\n"])
def test_lists_that_are_not_plain_are_left_to_the_line_by_line_reading(text: str) -> None:
    assert bulk_keys(text, A) is None


def test_a_build_from_a_list_that_is_not_plain_gives_the_same_lexicon(tmp_path: Path) -> None:
    plain = ["CASA", "CHORRO", "LLAVE", "PERRO", "AÑO"]
    accented = ["# comentario", "Casa", "CHORRO", "llave", "PERRO", "año", "CAFÉ?"]
    first, second = tmp_path / "plain.lex", tmp_path / "accented.lex"
    build(plain, first)
    report = build(accented, second)
    assert report.skipped == 1
    assert Lexicon.load(first).content_hash == Lexicon.load(second).content_hash


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(alphabet="ACEHILLNORRSÑ", min_size=1, max_size=17), min_size=1, max_size=40))
def test_bulk_reading_agrees_on_random_lists(lines: list[str]) -> None:
    bulk = bulk_keys("\n".join(lines) + "\n", A)
    assert bulk is not None
    words, report = line_by_line(lines)
    assert bulk[0] == keys_of(words)
    assert (bulk[1], bulk[2], len(bulk[3])) == (report.lines, report.duplicates, report.skipped)


@compiled_only
@settings(max_examples=40, deadline=None)
@given(st.sets(st.text(alphabet="ACEHILLNORRSÑ", min_size=2, max_size=9), min_size=1, max_size=60)
       .filter(lambda words: line_by_line(sorted(words))[0]))   # {"RR"} alone is one tile: no word to build
def test_the_c_word_graph_spells_the_words_with_the_python_reach_masks(words: set[str]) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "test.lex"
        build(sorted(words), path)
        blob = zipfile.ZipFile(path).read("graph.bin")
    graph = _read_graph(blob, A.size)
    expected, _report = line_by_line(sorted(words))
    assert sorted(_graph_words(graph)) == expected
    root = _graph_from_file(graph)
    recomputed = _reach_masks(root)
    stack, seen = [root], set()
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        assert tuple(node[REACH]) == recomputed[id(node)]
        stack.extend(child for letter, child in node.items() if letter >= 0)


#: The content hash of the shipped default (issue 28; README, docs/lexicon.md).
SHIPPED_DEFAULT_HASH = "f1365e2ed541099e0fe9198cbfb5b0a181437aa831fcd3d32cc61b8d23d9a87e"


@pytest.mark.slow
def test_the_default_list_read_in_bulk_is_the_list_read_line_by_line() -> None:
    import data
    from lexicon.default import WORD_LIST, read_lines

    lines = list(read_lines(data.path(WORD_LIST)))
    bulk = bulk_keys("".join(lines), A)
    assert bulk is not None
    words, report = line_by_line(lines)
    assert bulk[0] == keys_of(words)
    assert content_hash(words, A) == SHIPPED_DEFAULT_HASH
