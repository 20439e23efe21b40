"""The FISE tile set and the text forms of tiles (rules I.2, III.12)."""

from __future__ import annotations

import re
from itertools import pairwise
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lexicon.alphabet import BLANK_FLAG, Alphabet, AlphabetError, load_alphabet, spanish

# Rules I.2 (the FISE table), written out here rather than read from data/tiles-es.tsv.
EXPECTED = [
    ("A", 12, 1), ("B", 2, 3), ("C", 4, 3), ("CH", 1, 5), ("D", 5, 2), ("E", 12, 1), ("F", 1, 4),
    ("G", 2, 2), ("H", 2, 4), ("I", 6, 1), ("J", 1, 8), ("L", 4, 1), ("LL", 1, 8), ("M", 2, 3),
    ("N", 5, 1), ("Ñ", 1, 8), ("O", 9, 1), ("P", 2, 3), ("Q", 1, 5), ("R", 5, 1), ("RR", 1, 8),
    ("S", 6, 1), ("T", 4, 1), ("U", 5, 1), ("V", 1, 4), ("X", 1, 8), ("Y", 1, 4), ("Z", 1, 10),
]
BLANKS, BLANK_POINTS = 2, 0


@pytest.fixture(scope="module")
def A() -> Alphabet:
    return spanish()


def code(alphabet: Alphabet, symbol: str) -> int:
    return alphabet.code(symbol)


# --- the tile set -----------------------------------------------------------------------
def test_tile_set_matches_the_fise_table(A: Alphabet) -> None:
    assert [(letter.symbol, letter.count, letter.points) for letter in A.letters] == EXPECTED
    assert (A.blank_count, A.blank_points) == (BLANKS, BLANK_POINTS)
    assert A.size == 28 and A.blank == 28
    assert A.tile_total == 100
    bag = A.full_bag()
    assert len(bag) == 100 and bag.count(A.blank) == 2
    for index, (symbol, count, points) in enumerate(EXPECTED):
        assert A.code(symbol) == index
        assert bag.count(index) == count
        assert A.points(index) == points
        assert A.points(index | BLANK_FLAG) == 0  # a blank is worth 0 whatever it stands for
    assert A.points(A.blank) == 0


def test_vowels_and_y(A: Alphabet) -> None:
    vowels = {letter.symbol for letter in A.letters if letter.vowel}
    assert vowels == set("AEIOU")
    assert not A.is_vowel(A.code("Y"))  # III.12: Y counts as a consonant
    for symbol in "AEIOU":
        assert A.is_vowel(A.code(symbol))
        assert not A.is_vowel(A.code(symbol) | BLANK_FLAG)  # a blank is neither
    assert not A.is_vowel(A.blank)
    assert sum(1 for tile in A.full_bag() if A.is_vowel(tile)) == 12 + 12 + 6 + 9 + 5


def test_code_of_an_unknown_letter(A: Alphabet) -> None:
    with pytest.raises(AlphabetError, match="«K»"):
        A.code("K")


# --- reading text -------------------------------------------------------------------------
def symbols(A: Alphabet, tiles: list[int]) -> list[str]:
    return [A.symbol(tile) for tile in tiles]


def test_digraphs_are_read_greedily(A: Alphabet) -> None:
    assert symbols(A, A.tokenize("CHORRILLOS")) == ["CH", "O", "RR", "I", "LL", "O", "S"]
    assert symbols(A, A.tokenize("LLL")) == ["LL", "L"]
    assert symbols(A, A.tokenize("RRR")) == ["RR", "R"]
    assert symbols(A, A.tokenize("CCH")) == ["C", "CH"]
    assert symbols(A, A.tokenize("CHH")) == ["CH", "H"]
    assert A.word_codes("chorrillos") == A.word_codes("CHORRILLOS") == tuple(A.tokenize("CHORRILLOS"))
    assert len(A.word_codes("CHORRILLOS")) == 7


def test_bracket_forms(A: Alphabet) -> None:
    assert A.tokenize("[CH]O[RR]I[LL]OS") == A.tokenize("CHORRILLOS")
    assert A.tokenize("[A]") == [A.code("A")]
    # C[H] is not a form of CH: the two letters C and H.
    assert A.tokenize("C[H]") == [A.code("C"), A.code("H")]
    assert A.word_codes("[ch]e") == (A.code("CH"), A.code("E"))


def test_accents_are_dropped_but_enye_is_kept(A: Alphabet) -> None:
    assert A.tokenize("ÁÉÍÓÚÜ") == A.tokenize("AEIOUU")
    assert A.tokenize("A\u0301") == [A.code("A")]  # decomposed accent
    assert A.tokenize("Ñ") == [A.code("Ñ")]
    assert A.tokenize("N\u0303") == [A.code("Ñ")]  # decomposed Ñ
    assert A.tokenize("AÑO") != A.tokenize("ANO")
    assert A.word_codes("pingüino") == A.word_codes("PINGUINO")
    assert A.word_codes("Camión") == A.word_codes("CAMION")
    assert A.word_codes("ñandú") == (A.code("Ñ"), A.code("A"), A.code("N"), A.code("D"), A.code("U"))


def test_lowercase_is_a_blank(A: Alphabet) -> None:
    ch = A.code("CH") | BLANK_FLAG
    assert A.tokenize("ch") == [ch]
    assert A.tokenize("[ch]") == [ch]
    assert A.tokenize("ll") == [A.code("LL") | BLANK_FLAG]
    assert A.tokenize("rr") == [A.code("RR") | BLANK_FLAG]
    assert A.tokenize("chE") == [ch, A.code("E")]
    assert A.tokenize("ñ") == [A.code("Ñ") | BLANK_FLAG]
    assert A.tokenize("á") == [A.code("A") | BLANK_FLAG]
    assert A.tokenize("[LL]ave") == [A.code("LL")] + [A.code(s) | BLANK_FLAG for s in "AVE"]
    assert A.symbol(ch) == "ch" and A.format([ch, A.code("E")]) == "chE"
    # Word lists ignore case: no blanks there.
    assert A.word_codes("che") == (A.code("CH"), A.code("E"))


def test_question_mark_only_when_allowed(A: Alphabet) -> None:
    assert A.tokenize("A?", allow_unknown_blank=True) == [A.code("A"), A.blank]
    assert A.symbol(A.blank) == "?"
    with pytest.raises(AlphabetError, match="A\\?"):
        A.tokenize("A?")
    with pytest.raises(AlphabetError, match="c\\?sa"):
        A.word_codes("c?sa")


@pytest.mark.parametrize("text, offending", [("K", "K"), ("KIWI", "K"), ("WEB", "W"), ("HOLA1", "1"),
                                             ("PORTA-AVIONES", "-"), ("[Ch]", "Ch"), ("[?]", "?")])
def test_errors_name_the_input(A: Alphabet, text: str, offending: str) -> None:
    with pytest.raises(AlphabetError) as error:
        A.tokenize(text, allow_unknown_blank=True)
    assert f"«{text}»" in str(error.value) and offending in str(error.value)


@pytest.mark.parametrize("text", ["[CH", "[]", "A B"])
def test_malformed_forms(A: Alphabet, text: str) -> None:
    with pytest.raises(AlphabetError, match=re.escape(f"«{text}»")):
        A.tokenize(text)


def test_empty_word_list_entry(A: Alphabet) -> None:
    with pytest.raises(AlphabetError):
        A.word_codes("   ")


def test_cedilla_is_not_an_accent(A: Alphabet) -> None:
    """Ç is outside the alphabet (``word_codes`` doc: "digits, hyphens, K, W, Ç…"), not a C
    with an accent: ``ÇA`` must not read as ``CA``."""
    with pytest.raises(AlphabetError, match="Ç"):
        A.word_codes("ÇA")


# --- writing text ----------------------------------------------------------------------------
def test_format(A: Alphabet) -> None:
    tiles = A.tokenize("CHORRILLOS")
    assert A.format(tiles) == "CHORRILLOS"
    assert A.format(tiles, brackets=True) == "[CH]O[RR]I[LL]OS"
    assert A.format(A.tokenize("[ch]e?", allow_unknown_blank=True), brackets=True) == "[ch]e?"


def test_display_brackets_digraph_tiles_only(A: Alphabet) -> None:
    """Racks as people read them (issue 13 §3): ``LAADDE[CH]``, never ``[L]``."""
    assert A.display(A.tokenize("LAADDECH")) == "LAADDE[CH]"
    assert A.display(A.tokenize("[L]LLA")) == "L[LL]A"        # an L tile, the LL tile, an A
    assert A.display(A.tokenize("[L]L")) == "LL"              # two L tiles: no brackets at all
    assert A.display(A.tokenize("[ch]e?", allow_unknown_blank=True)) == "[ch]e?"


tile_codes = st.sampled_from(range(28)).flatmap(lambda letter: st.sampled_from([letter, letter | BLANK_FLAG]))


@settings(max_examples=300, deadline=None)
@given(st.lists(tile_codes, max_size=12))
def test_bracket_form_reads_back_when_no_single_letters_spell_a_digraph(tiles: list[int]) -> None:
    A = spanish()
    text = A.format(tiles, brackets=True)
    plain = [A.symbol(tile).upper() for tile in tiles]
    if not any(a + b in ("CH", "LL", "RR") for a, b in pairwise(plain)):
        assert A.tokenize(text) == tiles


@settings(max_examples=300, deadline=None)
@given(st.lists(tile_codes, max_size=9))
def test_display_is_each_tile_with_brackets_on_digraphs_only(tiles: list[int]) -> None:
    A = spanish()
    expected = "".join(f"[{A.symbol(t)}]" if len(A.symbol(t)) == 2 else A.symbol(t) for t in tiles)
    assert A.display(tiles) == expected
    assert all(len(inside) == 2 for inside in re.findall(r"\[([^\]]*)\]", A.display(tiles)))


def test_bracket_form_reads_back_whatever_the_neighbours(A: Alphabet) -> None:
    """``format(brackets=True)`` promises text that "reads back unambiguously whatever
    the neighbouring tiles": a C tile next to an H tile must not read back as CH."""
    for pair in (["C", "H"], ["L", "L"], ["R", "R"]):
        tiles = [A.code(symbol) for symbol in pair]
        assert A.tokenize(A.format(tiles, brackets=True)) == tiles


# --- the tile file --------------------------------------------------------------------------------
def test_tile_file_errors_name_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "tiles.tsv"
    path.write_text("# comment\nA\t12\t1\tV\nB\tdos\t3\tC\n", encoding="utf-8")
    with pytest.raises(AlphabetError, match=r"tiles\.tsv:3"):
        load_alphabet(path)
    path.write_text("A\t12\t1\n", encoding="utf-8")
    with pytest.raises(AlphabetError, match=r"tiles\.tsv:1"):
        load_alphabet(path)
    path.write_text("A\t12\t1\tV\nA\t1\t1\tV\n", encoding="utf-8")
    with pytest.raises(AlphabetError):
        load_alphabet(path)
