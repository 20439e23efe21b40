"""The bag: full set, seeded draws, specific removals, returns, counts (I.2, III.12, III.19)."""

from __future__ import annotations

from collections import Counter

import pytest

from duplicate.rules.bag import SEED_LIMIT, Bag, BagError, count_tiles
from lexicon.alphabet import BLANK_FLAG, Alphabet


def codes(alphabet: Alphabet, text: str) -> list[int]:
    return alphabet.tokenize(text, allow_unknown_blank=True)


def test_I_2_full_bag_has_100_tiles_and_2_blanks(alphabet: Alphabet) -> None:
    bag = Bag(alphabet, seed=1)
    assert len(bag) == 100
    assert bag.blanks == 2
    assert bag.count(alphabet.blank) == 2
    assert bag.count(alphabet.code("A")) == 12
    assert bag.count(alphabet.code("CH")) == 1


def test_III_12_counts_vowels_consonants_blanks_y_is_consonant(alphabet: Alphabet) -> None:
    bag = Bag(alphabet, seed=1)
    counts = bag.counts()
    assert (counts.vowels, counts.consonants, counts.blanks) == (44, 54, 2)
    assert (bag.vowels, bag.consonants) == (44, 54)
    assert count_tiles(codes(alphabet, "AY?"), alphabet).consonants == 1
    designated = [alphabet.code("A") | BLANK_FLAG]
    assert count_tiles(designated, alphabet).blanks == 1


def test_same_seed_draws_same_tiles(alphabet: Alphabet) -> None:
    first, second = Bag(alphabet, seed=42), Bag(alphabet, seed=42)
    assert [first.draw(7) for _ in range(5)] == [second.draw(7) for _ in range(5)]
    assert first.tiles == second.tiles


def test_different_seeds_draw_differently(alphabet: Alphabet) -> None:
    assert Bag(alphabet, seed=1).draw(14) != Bag(alphabet, seed=2).draw(14)


def test_seed_none_is_picked_and_recorded(alphabet: Alphabet) -> None:
    bag = Bag(alphabet)
    assert isinstance(bag.seed, int) and 0 <= bag.seed < SEED_LIMIT
    again = Bag(alphabet, seed=bag.seed)
    assert bag.draw(20) == again.draw(20)


def test_draws_depend_on_contents_not_on_return_order(alphabet: Alphabet) -> None:
    first, second = Bag(alphabet, seed=5), Bag(alphabet, seed=5)
    rack = first.draw(7)
    assert second.draw(7) == rack
    first.put_back(rack)
    second.put_back(list(reversed(rack)))
    assert first.draw(7) == second.draw(7)


def test_draw_removes_tiles_and_refuses_too_many(alphabet: Alphabet) -> None:
    bag = Bag(alphabet, seed=3)
    drawn = bag.draw(7)
    assert len(bag) == 93
    assert Counter(bag.tiles) + Counter(drawn) == Counter(alphabet.full_bag())
    with pytest.raises(BagError, match="quedan 93"):
        bag.draw(94)
    with pytest.raises(BagError):
        bag.draw(-1)


def test_remove_specific_tiles_for_an_arbiter_rack(alphabet: Alphabet) -> None:
    bag = Bag(alphabet, seed=3)
    bag.remove(codes(alphabet, "CASA?OL"))
    assert len(bag) == 93
    assert bag.count(alphabet.code("A")) == 10
    assert bag.blanks == 1


def test_remove_names_the_missing_tile_and_leaves_the_bag_unchanged(alphabet: Alphabet) -> None:
    bag = Bag(alphabet, seed=3)
    before = bag.tiles
    with pytest.raises(BagError, match="«Z»"):
        bag.remove(codes(alphabet, "AZZ"))
    assert bag.tiles == before
    bag.remove(codes(alphabet, "Z"))
    with pytest.raises(BagError, match="no queda ninguna «Z»"):
        bag.remove(codes(alphabet, "Z"))
    bag.remove(codes(alphabet, "??"))
    with pytest.raises(BagError, match="ningún comodín"):
        bag.remove(codes(alphabet, "?"))
    with pytest.raises(BagError, match="se piden 7 «S» pero solo quedan 6"):
        bag.remove(codes(alphabet, "SSSSSS") + codes(alphabet, "S"))


def test_put_back_returns_tiles_blanks_bare(alphabet: Alphabet) -> None:
    bag = Bag(alphabet, seed=3)
    bag.remove(codes(alphabet, "?E"))
    bag.put_back([alphabet.code("E") | BLANK_FLAG, alphabet.code("E")])
    assert bag.tiles == tuple(sorted(alphabet.full_bag()))


def test_put_back_refuses_more_than_the_full_set(alphabet: Alphabet) -> None:
    bag = Bag(alphabet, seed=3)
    with pytest.raises(BagError, match="«Z»"):
        bag.put_back(codes(alphabet, "Z"))
    with pytest.raises(BagError):
        bag.put_back([99])


def test_bag_from_given_tiles(alphabet: Alphabet) -> None:
    bag = Bag(alphabet, seed=0, tiles=codes(alphabet, "BCA"))
    assert bag.tiles == tuple(sorted(codes(alphabet, "ABC")))
    assert (bag.vowels, bag.consonants, bag.blanks) == (1, 2, 0)
