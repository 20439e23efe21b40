"""Rack rules (III.12), completing racks with redraws (III.17, III.19), arbiter racks."""

from __future__ import annotations

from collections import Counter

import pytest

from duplicate.rules.bag import Bag
from duplicate.rules.rack import (
    NoValidRackError,
    RackError,
    RackRule,
    RedrawLimitError,
    can_form_valid_rack,
    check_arbiter_rack,
    complete_rack,
    is_valid_rack,
    no_valid_rack_reason,
    one_and_one_due,
    parse_rack_text,
    rack_problem,
    rack_text,
    rule_for_round,
)
from lexicon.alphabet import Alphabet

UNDER_SIX, ONE_AND_ONE = RackRule.UNDER_SIX, RackRule.ONE_AND_ONE


def codes(alphabet: Alphabet, text: str) -> list[int]:
    return parse_rack_text(text, alphabet)


def valid(alphabet: Alphabet, text: str, round_number: int) -> bool:
    rule = rule_for_round(round_number, alphabet.full_bag(), alphabet)
    return is_valid_rack(codes(alphabet, text), rule, alphabet)


# --- III.12: the composition rules ---------------------------------------------------
def test_III_12_five_vowels_valid_through_round_15(alphabet: Alphabet) -> None:
    assert valid(alphabet, "AEIOUBC", 1)
    assert valid(alphabet, "AEIOUBC", 15)


def test_III_12_six_vowels_invalid_in_round_15(alphabet: Alphabet) -> None:
    assert not valid(alphabet, "AEIOUAB", 15)
    problem = rack_problem(codes(alphabet, "AEIOUAB"), UNDER_SIX, alphabet)
    assert problem is not None and "6 vocales" in problem and "III.12" in problem


def test_III_12_six_vowels_fine_in_round_16(alphabet: Alphabet) -> None:
    assert rule_for_round(16, alphabet.full_bag(), alphabet) is ONE_AND_ONE
    assert valid(alphabet, "AEIOUAB", 16)


def test_III_12_six_consonants_invalid_through_round_15_fine_from_16(alphabet: Alphabet) -> None:
    assert valid(alphabet, "BCDFGAE", 15)
    assert not valid(alphabet, "BCDFGHA", 15)
    assert "6 consonantes" in (rack_problem(codes(alphabet, "BCDFGHA"), UNDER_SIX, alphabet) or "")
    assert valid(alphabet, "BCDFGHA", 16)


def test_III_12_round_16_needs_a_vowel_and_a_consonant(alphabet: Alphabet) -> None:
    assert not valid(alphabet, "AEIOUAE", 16)
    assert not valid(alphabet, "BCDFGHJ", 16)
    assert valid(alphabet, "AEIOUAB", 16)
    assert "ninguna consonante" in (rack_problem(codes(alphabet, "AEIOUAE"), ONE_AND_ONE, alphabet) or "")
    assert "ninguna vocal" in (rack_problem(codes(alphabet, "BCDFGHJ"), ONE_AND_ONE, alphabet) or "")
    assert "ni vocales ni consonantes" in (rack_problem(codes(alphabet, "??"), ONE_AND_ONE, alphabet) or "")


def test_III_12_blank_never_makes_a_rack_invalid_through_round_15(alphabet: Alphabet) -> None:
    assert valid(alphabet, "AEIOU??", 15)
    assert valid(alphabet, "BCDFG??", 15)
    assert valid(alphabet, "AEIOUB?", 15)
    assert not valid(alphabet, "AEIOUA?", 15)  # six natural vowels whatever the blank is


def test_III_12_blanks_do_not_count_for_one_and_one(alphabet: Alphabet) -> None:
    assert not valid(alphabet, "AEIOU??", 16)
    assert not valid(alphabet, "BCDFG??", 16)
    assert valid(alphabet, "A?B", 16)


def test_III_12_y_is_a_consonant(alphabet: Alphabet) -> None:
    assert not valid(alphabet, "BCDFGYA", 15)  # six consonants counting Y
    assert "la Y cuenta como consonante" in (rack_problem(codes(alphabet, "BCDFGYA"), UNDER_SIX, alphabet) or "")
    assert valid(alphabet, "AEIOUEY", 16)  # Y is the consonant 1+1 needs
    assert not valid(alphabet, "BCDFGHY", 16)


def test_III_12_switch_to_one_and_one_before_16_when_vowels_run_out_but_one(alphabet: Alphabet) -> None:
    one_vowel_left = codes(alphabet, "A") + codes(alphabet, "BCDFGHJLMNPQRST")
    two_vowels_left = codes(alphabet, "AE") + codes(alphabet, "BCDFGHJLMNPQRST")
    assert one_and_one_due(one_vowel_left, alphabet)
    assert rule_for_round(9, one_vowel_left, alphabet) is ONE_AND_ONE
    assert rule_for_round(9, two_vowels_left, alphabet) is UNDER_SIX


def test_III_12_switch_when_consonants_run_out_but_one(alphabet: Alphabet) -> None:
    assert rule_for_round(12, codes(alphabet, "AEIOUAEIOUB??"), alphabet) is ONE_AND_ONE
    assert rule_for_round(12, codes(alphabet, "AEIOUAEIOUBC"), alphabet) is UNDER_SIX


def test_III_12_one_and_one_stays_once_switched(alphabet: Alphabet) -> None:
    assert rule_for_round(10, alphabet.full_bag(), alphabet, switched=True) is ONE_AND_ONE


def test_III_12_no_valid_rack_when_vowels_are_used_up(alphabet: Alphabet) -> None:
    pool = codes(alphabet, "BCDFG??")
    reason = no_valid_rack_reason(pool, ONE_AND_ONE, alphabet)
    assert reason is not None and "vocales" in reason and "III.22" in reason
    assert "consonantes" in (no_valid_rack_reason(codes(alphabet, "AEI"), ONE_AND_ONE, alphabet) or "")
    assert no_valid_rack_reason([], UNDER_SIX, alphabet) == "no quedan fichas"
    assert can_form_valid_rack(codes(alphabet, "AB"), ONE_AND_ONE, alphabet)


def test_III_12_no_valid_rack_under_six_when_too_few_consonants(alphabet: Alphabet) -> None:
    # 8 vowels and 1 consonant: every 7-tile rack has at least 6 vowels.
    assert not can_form_valid_rack(codes(alphabet, "AEIOUAEIB"), UNDER_SIX, alphabet)
    # A blank makes 5 vowels + B + blank possible.
    assert can_form_valid_rack(codes(alphabet, "AEIOUAEIB?"), UNDER_SIX, alphabet)
    assert can_form_valid_rack(alphabet.full_bag(), UNDER_SIX, alphabet)


# --- completing a rack -----------------------------------------------------------------
def test_III_17_leftovers_stay_and_the_rack_is_filled_to_7(alphabet: Alphabet) -> None:
    bag = Bag(alphabet, seed=11)
    bag.remove(codes(alphabet, "SEA"))
    completion = complete_rack(codes(alphabet, "SEA"), bag, UNDER_SIX)
    rack = completion.rack
    assert completion.redraws == ()
    assert rack.leftover == tuple(sorted(codes(alphabet, "SEA")))
    assert len(rack.drawn) == 4 and len(rack) == 7
    assert rack.text.startswith("AES")
    assert len(bag) == 100 - 7


def test_III_17_short_bag_gives_the_tiles_left(alphabet: Alphabet) -> None:
    bag = Bag(alphabet, seed=1, tiles=codes(alphabet, "OR"))
    completion = complete_rack(codes(alphabet, "ST"), bag, ONE_AND_ONE)
    assert sorted(completion.rack.tiles) == sorted(codes(alphabet, "STOR"))
    assert len(bag) == 0


def test_III_19_invalid_rack_is_redrawn_whole_and_recorded(alphabet: Alphabet) -> None:
    leftover = codes(alphabet, "BCDFGH")  # six consonants: no completion is valid before round 16
    bag = Bag(alphabet, seed=3, tiles=codes(alphabet, "AEIOUAEIOSTR"))
    pool = Counter(leftover) + Counter(bag.tiles)
    completion = complete_rack(leftover, bag, UNDER_SIX)
    assert completion.redraws
    first = completion.redraws[0]
    assert first.rack.startswith("BCDFGH") and "6 consonantes" in first.reason
    assert completion.rack.leftover == ()  # leftovers went back to the bag too
    assert len(completion.rack) == 7
    assert is_valid_rack(completion.rack.tiles, UNDER_SIX, alphabet)
    assert Counter(completion.rack.tiles) + Counter(bag.tiles) == pool
    assert str(first) == first.rack


def test_III_19_redraws_are_reproducible_with_the_seed(alphabet: Alphabet) -> None:
    results = []
    for _ in range(2):
        bag = Bag(alphabet, seed=8, tiles=codes(alphabet, "AEIOUAEIOSTR"))
        results.append(complete_rack(codes(alphabet, "BCDFGH"), bag, UNDER_SIX))
    assert results[0] == results[1]


def test_III_12_no_valid_rack_raises_and_leaves_the_bag_alone(alphabet: Alphabet) -> None:
    bag = Bag(alphabet, seed=1, tiles=codes(alphabet, "BCDFGHLMN"))
    with pytest.raises(NoValidRackError, match="vocales"):
        complete_rack(codes(alphabet, "ST"), bag, ONE_AND_ONE)
    assert len(bag) == 9


def test_III_19_redraw_limit_restores_the_bag(alphabet: Alphabet) -> None:
    leftover = codes(alphabet, "BCDFGH")
    bag = Bag(alphabet, seed=3, tiles=codes(alphabet, "AEIOUAEIOSTR"))
    before = bag.tiles
    with pytest.raises(RedrawLimitError, match="III.19"):
        complete_rack(leftover, bag, UNDER_SIX, max_redraws=0)
    assert bag.tiles == before


def test_full_bag_racks_are_always_valid(alphabet: Alphabet) -> None:
    for seed in range(50):
        completion = complete_rack([], Bag(alphabet, seed=seed), UNDER_SIX)
        assert is_valid_rack(completion.rack.tiles, UNDER_SIX, alphabet)
        for redraw in completion.redraws:
            assert not is_valid_rack(codes(alphabet, redraw.rack), UNDER_SIX, alphabet)


# --- rack text ---------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["CASA?OL", "[R]R", "[R]RR", "RRR", "[C]H", "[L]LL", "CHLLRRÑ", "AE?"])
def test_rack_text_round_trip(alphabet: Alphabet, text: str) -> None:
    tiles = codes(alphabet, text)
    assert rack_text(tiles, alphabet) == text
    assert codes(alphabet, rack_text(tiles, alphabet)) == tiles


def test_typed_rack_accepts_spaces_and_plus(alphabet: Alphabet) -> None:
    assert codes(alphabet, "R R") == [alphabet.code("R")] * 2
    assert codes(alphabet, "AE+RST") == codes(alphabet, "AERST")


def test_typed_rack_rejects_lowercase_and_unknown_letters(alphabet: Alphabet) -> None:
    with pytest.raises(RackError, match="«?»"):
        parse_rack_text("CASa", alphabet)
    with pytest.raises(RackError, match="«K»"):
        parse_rack_text("KASA", alphabet)
    with pytest.raises(RackError, match="vacío"):
        parse_rack_text("  ", alphabet)


# --- arbiter racks --------------------------------------------------------------------------
def test_arbiter_rack_accepted_with_leftovers_first(alphabet: Alphabet) -> None:
    bag = Bag(alphabet, seed=1)
    rack = check_arbiter_rack("SOLCASA", alphabet, codes(alphabet, "OS"), bag.tiles, UNDER_SIX)
    assert rack.leftover == tuple(sorted(codes(alphabet, "OS")))
    assert rack.drawn == tuple(codes(alphabet, "LCASA"))
    assert rack.text == "OSLCASA"
    assert len(bag) == 100  # checking does not touch the bag


def test_arbiter_rack_tile_not_in_bag_is_named(alphabet: Alphabet) -> None:
    bag = Bag(alphabet, seed=1)
    bag.remove(codes(alphabet, "Z"))
    with pytest.raises(RackError, match="«Z» no está disponible, no queda ninguna en la bolsa"):
        check_arbiter_rack("ZORRAS?", alphabet, (), bag.tiles, UNDER_SIX)
    with pytest.raises(RackError, match="«X» no está disponible, solo queda 1"):
        check_arbiter_rack("XXAEIOS", alphabet, (), Bag(alphabet, seed=1).tiles, UNDER_SIX)
    with pytest.raises(RackError, match="comodín no está disponible"):
        check_arbiter_rack("???AEIS", alphabet, (), Bag(alphabet, seed=1).tiles, UNDER_SIX)


def test_arbiter_rack_must_hold_the_leftovers(alphabet: Alphabet) -> None:
    with pytest.raises(RackError, match="falta «Ñ», que quedó en el atril"):
        check_arbiter_rack("CASAMOS", alphabet, codes(alphabet, "Ñ"), Bag(alphabet, seed=1).tiles, UNDER_SIX)


def test_arbiter_rack_at_most_7_and_full(alphabet: Alphabet) -> None:
    tiles = Bag(alphabet, seed=1).tiles
    with pytest.raises(RackError, match="8 fichas; un atril tiene como máximo 7"):
        check_arbiter_rack("CASAMOSA", alphabet, (), tiles, UNDER_SIX)
    with pytest.raises(RackError, match="5 fichas; el atril debe tener 7"):
        check_arbiter_rack("CASAS", alphabet, (), tiles, UNDER_SIX)


def test_arbiter_rack_with_fewer_tiles_left_than_7(alphabet: Alphabet) -> None:
    rack = check_arbiter_rack("ESO", alphabet, codes(alphabet, "E"), codes(alphabet, "SO"), ONE_AND_ONE)
    assert sorted(rack.tiles) == sorted(codes(alphabet, "ESO"))
    with pytest.raises(RackError, match="2 fichas; el atril debe tener 3"):
        check_arbiter_rack("ES", alphabet, codes(alphabet, "E"), codes(alphabet, "SO"), ONE_AND_ONE)


def test_arbiter_rack_must_be_valid_under_III_12(alphabet: Alphabet) -> None:
    tiles = Bag(alphabet, seed=1).tiles
    with pytest.raises(RackError, match="no válido: 6 vocales"):
        check_arbiter_rack("AEIOUAB", alphabet, (), tiles, UNDER_SIX)
    with pytest.raises(RackError, match="ninguna vocal"):
        check_arbiter_rack("BCDFG??", alphabet, (), tiles, ONE_AND_ONE)
