"""EloDI algorithm (rules V; ``elodi.md``): tests derived from the formulas.

``reference_rate`` below is a slow, obviously-correct transcription of ``elodi.md`` —
plain loops, ``math.erf`` and ``statistics.NormalDist``, one formula per line, numbered
as in the spec — and the vectorised ``ranking.elodi.rate_game`` is cross-checked against
it. The other tests compute their expected values from the formulas by hand.
"""

from __future__ import annotations

import math
import random
from statistics import NormalDist

import pytest
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from ranking.elodi import (
    Contestant,
    EloDIError,
    EloDISettings,
    Phase,
    PhaseTwoValues,
    average_ranks,
    rate_game,
    round_half_up,
)

PHI_INV = NormalDist().inv_cdf


# --- the reference: elodi.md, step by step, with loops ----------------------------------------------
def reference_update(field: list[tuple[float, float, int, float]]) -> list[tuple[float, float, float, float, bool]]:
    """``field``: (R, V, n, ARank) per player. Returns (R', V', ERank, ARank, cap bound), unrounded."""
    count = len(field)
    mean = sum(r for r, _, _, _ in field) / count                                            # (1)
    cf = math.sqrt(sum(v * v for _, v, _, _ in field) / count
                   + sum((r - mean) ** 2 for r, _, _, _ in field) / (count - 1))            # (2)
    result = []
    for r_i, v_i, n_i, arank in field:
        erank = 0.5
        for r_j, v_j, _, _ in field:                                                         # (3), (4): j includes i
            erank += 0.5 * (1 + math.erf((r_j - r_i) / math.sqrt(2 * (v_i ** 2 + v_j ** 2))))
        eperf = -PHI_INV((erank - 0.5) / count)                                              # (6)
        aperf = -PHI_INV((arank - 0.5) / count)
        perf_as = r_i + cf * (aperf - eperf)                                                 # (7)
        b = 0.42 / (n_i + 1) + 0.18                                                          # (8)
        w = b / (1 - b)
        if 2000 <= r_i < 2500:
            w *= 0.9
        elif r_i >= 2500:
            w *= 0.8
        cap = 150 + 1500 / (n_i + 2)                                                         # (9)
        new = (r_i + w * perf_as) / (1 + w)                                                  # (10)
        clamped = min(max(new, r_i - cap), r_i + cap)
        bound = clamped != new
        clamped = max(clamped, 1)
        if n_i >= 1:                                                                         # (11)
            vol = math.sqrt((clamped - r_i) ** 2 / w + v_i ** 2 / (1 + w))
        else:
            vol = 385.0
        result.append((clamped, vol, erank, arank, bound))
    return result


def reference_ranks(positions: list[float]) -> list[float]:
    """(5): 1 + players strictly above + half of the others tied with the player."""
    return [1 + sum(1 for q in positions if q < p) + (sum(1 for q in positions if q == p) - 1) / 2 for p in positions]


def reference_rate(players: list[Contestant[int]]) -> dict[int, tuple[int, int, int, float | None, bool]]:
    """Both phases; returns key → (R', V', n', ERank, cap bound) with R', V' rounded half up."""
    out: dict[int, tuple[int, int, int, float | None, bool]] = {}
    rated = [p for p in players if p.rating is not None]
    if len(rated) >= 2:
        ranks = reference_ranks([p.position for p in rated])                                 # virtual classification
        results = reference_update([(p.rating, p.volatility, p.games, rank)  # type: ignore[misc]
                                    for p, rank in zip(rated, ranks, strict=True)])
        for p, (r, v, erank, _, bound) in zip(rated, results, strict=True):
            out[p.key] = (math.floor(r + 0.5), math.floor(v + 0.5), p.games + 1, erank, bound)
    else:
        for p in rated:
            out[p.key] = (p.rating, p.volatility, p.games, None, False)  # type: ignore[assignment]
    if any(p.rating is None for p in players) and len(players) >= 2:
        ranks = reference_ranks([p.position for p in players])
        results = reference_update([(p.rating if p.rating is not None else 1200.0,
                                     p.volatility if p.volatility is not None else 535.0,
                                     p.games, rank) for p, rank in zip(players, ranks, strict=True)])
        for p, (r, v, erank, _, bound) in zip(players, results, strict=True):
            if p.rating is None:
                out[p.key] = (math.floor(r + 0.5), math.floor(v + 0.5), 1, erank, bound)
    for p in players:
        if p.rating is None and p.key not in out:                                           # a lone new player
            out[p.key] = (1200, 535, 0, None, False)
    return out


def outcome_tuple(outcome) -> tuple[int, int, int, float | None, bool]:  # type: ignore[no-untyped-def]
    return (outcome.rating_after, outcome.volatility_after, outcome.games_after, outcome.target_position,
            outcome.cap_bound)


def random_field(rng: random.Random, size: int, new_share: float = 0.3, ties: bool = True) -> list[Contestant[int]]:
    players = []
    for key in range(size):
        position = float(rng.randint(1, size // 2 + 1) if ties else key + 1)
        if rng.random() < new_share:
            players.append(Contestant(key, position))
        else:
            players.append(Contestant(key, position, rng.randint(600, 2900), rng.randint(60, 535), rng.randint(1, 60)))
    return players


# --- the closed form of elodi.md ------------------------------------------------------------------
def test_first_game_of_five_new_players_is_the_closed_form_of_elodi_md() -> None:
    """elodi.md "A check you can do by hand": all at 1200/535, CF = 535, target 3, EPerf = 0,
    so R' = 1200 + 0.6·535·APerf with APerf = −Φ⁻¹((ARank − ½)/5) (6)–(10), and V' = 385 (11)."""
    outcomes = rate_game([Contestant(name, float(place)) for place, name in enumerate("ABCDE", start=1)])
    for place, outcome in enumerate(outcomes, start=1):
        aperf = -NormalDist().inv_cdf((place - 0.5) / 5)
        assert outcome.phase is Phase.NEW
        assert outcome.target_position == pytest.approx(3.0)
        assert outcome.actual_position == place
        assert outcome.rating_after == math.floor(1200 + 0.6 * 535 * aperf + 0.5)
        assert outcome.volatility_after == 385
        assert outcome.games_after == 1
        assert outcome.change == outcome.rating_after - 1200
    ratings = [outcome.rating_after for outcome in outcomes]
    assert ratings == [1611, 1368, 1200, 1032, 789]
    assert [r - 1200 for r in ratings] == [-(r - 1200) for r in reversed(ratings)]   # symmetric around 1200


# --- properties stated by rules V ------------------------------------------------------------------
def test_a_player_finishing_exactly_at_the_target_keeps_the_rating() -> None:
    """Rules V: "Si el jugador queda en esa posición, su EloDI no se ve afectado." With three
    rated players equal in rating and volatility, every target (4) is 2; the one in 2nd keeps
    1500 (APerf = EPerf, (7) PerfAs = R, (10) R' = R)."""
    players = [Contestant(key, float(position), 1500, 200, 10) for key, position in (("a", 1), ("b", 2), ("c", 3))]
    by_key = {outcome.key: outcome for outcome in rate_game(players)}
    assert by_key["b"].target_position == pytest.approx(2.0)
    assert by_key["b"].rating_after == 1500 and by_key["b"].change == 0
    assert by_key["a"].change > 0 > by_key["c"].change      # above the target rises, below falls


def test_above_target_rises_below_target_falls_and_irregular_results_raise_volatility() -> None:
    """Rules V and (11): the favourite finishing last loses rating and gains volatility; the
    underdog who wins gains rating."""
    players = [Contestant("fav", 3.0, 1800, 100, 20), Contestant("mid", 2.0, 1500, 100, 20),
               Contestant("dog", 1.0, 1200, 100, 20)]
    by_key = {outcome.key: outcome for outcome in rate_game(players)}
    assert by_key["fav"].target_position < 2 and by_key["fav"].change < 0
    assert by_key["dog"].target_position > 2 and by_key["dog"].change > 0
    assert by_key["fav"].volatility_after > 100


def test_symmetric_fields_give_symmetric_changes() -> None:
    """Ratings mirrored around a centre and the order reversed: by (3)–(7) the changes are
    opposite (R' − R of the i-th best equals R − R' of the i-th worst)."""
    ratings = [1700, 1450, 1300, 1100, 850]
    mirrored = [2 * 1300 - r for r in ratings]
    players = [Contestant(k, float(k + 1), r, 150, 8) for k, r in enumerate(ratings)]
    field = [Contestant(k, float(5 - k), r, 150, 8) for k, r in enumerate(mirrored)]
    changes = [o.change for o in rate_game(players)]
    mirrored_changes = [o.change for o in rate_game(field)]
    assert changes == [-c for c in mirrored_changes]
    plain = [Contestant(k, float(k + 1), 1300, 150, 8) for k in range(6)]
    equal = [o.change for o in rate_game(plain)]
    assert equal == [-c for c in reversed(equal)]


@hypothesis_settings(max_examples=40, deadline=None)
@given(st.integers(min_value=0, max_value=10**6), st.integers(min_value=2, max_value=30))
def test_the_order_of_the_input_does_not_matter(seed: int, size: int) -> None:
    rng = random.Random(seed)
    players = random_field(rng, size)
    shuffled = players[:]
    rng.shuffle(shuffled)
    first = {o.key: o for o in rate_game(players)}
    second = {o.key: o for o in rate_game(shuffled)}
    assert first == second


# --- steps (8)–(10): weight bands and the cap ----------------------------------------------------
def change_for(rating: int, games: int = 5) -> float:
    """A rated player winning against an equal field, unrounded: (R' − R) from (10)."""
    opponents = [Contestant(k, float(k + 2), rating, 150, games) for k in range(5)]
    player = Contestant("x", 1.0, rating, 150, games)
    count = 6
    cf = 150.0
    aperf = -NormalDist().inv_cdf(0.5 / count)
    b = 0.42 / (games + 1) + 0.18
    w = b / (1 - b)
    w *= 0.9 if 2000 <= rating < 2500 else 0.8 if rating >= 2500 else 1.0
    expected = w * cf * aperf / (1 + w)                    # EPerf = 0: target 3.5 = (N + 1)/2
    outcome = {o.key: o for o in rate_game([player, *opponents])}["x"]
    assert outcome.change == round_half_up(rating + expected) - rating
    return expected


@pytest.mark.parametrize("rating, factor", [(1999, 1.0), (2000, 0.9), (2499, 0.9), (2500, 0.8), (2800, 0.8)])
def test_weight_bands_at_2000_and_2500(rating: int, factor: float) -> None:
    """(8): W × 0.9 when 2000 ≤ R < 2500, × 0.8 when R ≥ 2500 — the same win moves the rating less."""
    b = 0.42 / 6 + 0.18
    w = b / (1 - b) * factor
    assert change_for(rating) == pytest.approx(w / (1 + w) * 150 * -NormalDist().inv_cdf(0.5 / 6))


def test_bands_reduce_the_change() -> None:
    assert change_for(1999) > change_for(2000) > change_for(2500)


def test_the_cap_binds_an_exceptional_result() -> None:
    """(9)–(10): Cap = 150 + 1500/(n + 2). A 900-rated player with 98 games and a large
    volatility who wins against a strong field would gain more than 150 + 1500/100 = 165."""
    field = [Contestant("outsider", 1.0, 900, 500, 98)] + [Contestant(k, float(k + 2), 2400, 500, 98) for k in range(20)]
    outcome = rate_game(field)[0]
    assert outcome.cap_bound
    assert outcome.rating_after == 900 + 165


def test_the_cap_on_a_first_game_is_900() -> None:
    """(9): n = 0 → 150 + 1500/2 = 900. Five new players stay within it; the winner of a
    first game of 200 new players would gain 0.6·535·(−Φ⁻¹(0.5/200)) ≈ 901 and is held at 2100."""
    assert not any(o.cap_bound for o in rate_game([Contestant(k, float(k + 1)) for k in range(5)]))
    assert 0.6 * 535 * -NormalDist().inv_cdf(0.5 / 200) > 900
    outcomes = rate_game([Contestant(k, float(k + 1)) for k in range(200)])
    assert outcomes[0].cap_bound and outcomes[0].rating_after == 2100
    assert outcomes[-1].cap_bound and outcomes[-1].rating_after == 300
    assert not any(o.cap_bound for o in outcomes[1:-1])


def test_a_rating_never_drops_below_1() -> None:
    """(10): clamped to at least 1."""
    field = [Contestant("low", 30.0, 50, 535, 1)] + [Contestant(k, float(k + 1), 2600, 535, 1) for k in range(29)]
    assert rate_game(field)[0].rating_after >= 1


def test_volatility_on_a_first_game_is_385_and_later_follows_formula_11() -> None:
    """(11): V' = 385 for n = 0; for n ≥ 1, V' = √((R' − R)²/W + V²/(1 + W)) with the unrounded R'."""
    players = [Contestant("a", 1.0, 1400, 300, 3), Contestant("b", 2.0, 1400, 300, 3), Contestant("new", 3.0)]
    outcomes = {o.key: o for o in rate_game(players)}
    assert outcomes["new"].volatility_after == 385
    # a and b: phase 1 on a field of two equal players: CF = 300, EPerf = 0, APerf(a) = −Φ⁻¹(0.25)
    b = 0.42 / 4 + 0.18
    w = b / (1 - b)
    gain = w / (1 + w) * 300 * -NormalDist().inv_cdf(0.25)
    assert outcomes["a"].rating_after == round_half_up(1400 + gain)
    assert outcomes["a"].volatility_after == round_half_up(math.sqrt(gain ** 2 / w + 300 ** 2 / (1 + w)))


# --- ties (step 5) and the two phases ---------------------------------------------------------------
def test_ties_share_the_average_of_the_places_they_cover() -> None:
    """elodi.md: two tied for 3rd both get 3.5."""
    assert average_ranks([1, 2, 3, 3, 5]) == [1.0, 2.0, 3.5, 3.5, 5.0]
    assert average_ranks([4, 1, 1, 1]) == [4.0, 2.0, 2.0, 2.0]
    outcomes = rate_game([Contestant(k, float(p)) for k, p in enumerate([1, 2, 3, 3, 5])])
    assert outcomes[2].actual_position == outcomes[3].actual_position == 3.5
    assert outcomes[2].rating_after == outcomes[3].rating_after
    aperf = -NormalDist().inv_cdf((3.5 - 0.5) / 5)
    assert outcomes[2].rating_after == round_half_up(1200 + 0.6 * 535 * aperf)


def test_only_the_order_of_positions_matters() -> None:
    """1, 2, 2, 4 (competition ranking) and 1, 2, 2, 3 (dense) are the same classification."""
    first = rate_game([Contestant(k, float(p)) for k, p in enumerate([1, 2, 2, 4])])
    second = rate_game([Contestant(k, float(p)) for k, p in enumerate([1, 2, 2, 3])])
    assert first == second


def test_phase_one_rates_the_rated_players_on_the_virtual_classification() -> None:
    """elodi.md phase 1: new players removed and the rest renumbered — a rated player 3rd
    behind two new players is 1st of the virtual classification."""
    mixed = [Contestant("n1", 1.0), Contestant("n2", 2.0), Contestant("a", 3.0, 1500, 200, 5),
             Contestant("b", 4.0, 1500, 200, 5)]
    alone = [Contestant("a", 1.0, 1500, 200, 5), Contestant("b", 2.0, 1500, 200, 5)]
    by_key = {o.key: o for o in rate_game(mixed)}
    assert by_key["a"].actual_position == 1.0 and by_key["a"].phase is Phase.RATED
    assert by_key["a"] == rate_game(alone)[0]
    assert by_key["b"] == rate_game(alone)[1]


def test_phase_two_rates_new_players_on_the_whole_field_against_pre_game_values() -> None:
    """elodi.md phase 2 (Decision): the whole field, rated players at their pre-game values."""
    mixed = [Contestant("a", 1.0, 1900, 120, 30), Contestant("b", 2.0, 1700, 120, 30), Contestant("n", 3.0)]
    by_key = {o.key: o for o in rate_game(mixed)}
    expected = reference_update([(1900, 120, 30, 1.0), (1700, 120, 30, 2.0), (1200, 535, 0, 3.0)])[2]
    assert by_key["n"].phase is Phase.NEW
    assert by_key["n"].actual_position == 3.0
    assert by_key["n"].target_position == pytest.approx(expected[2])
    assert by_key["n"].rating_after == round_half_up(expected[0])
    after = rate_game(mixed, EloDISettings(phase_two_rated_values=PhaseTwoValues.AFTER_PHASE_ONE))
    assert after[0] == by_key["a"]                      # the setting changes phase 2 only
    assert after[2].target_position != by_key["n"].target_position


def test_fewer_than_two_rated_players_change_nothing_in_phase_one() -> None:
    """elodi.md (Decision): with one rated player, phase 1 changes nobody; the new players
    are still rated in phase 2 against the whole field."""
    outcomes = rate_game([Contestant("veteran", 3.0, 1600, 150, 12), Contestant("n1", 1.0), Contestant("n2", 2.0)])
    veteran = outcomes[0]
    assert veteran.phase is Phase.UNCHANGED
    assert (veteran.rating_after, veteran.volatility_after, veteran.games_after, veteran.change) == (1600, 150, 12, 0)
    assert outcomes[1].phase is Phase.NEW and outcomes[1].games_after == 1
    lone = rate_game([Contestant("solo", 1.0)])[0]
    assert lone.phase is Phase.UNCHANGED and lone.games_after == 0


def test_rounding_is_half_up() -> None:
    """(12): stored values rounded half up."""
    assert [round_half_up(x) for x in (1234.5, 1234.49, 1235.5, 0.5, 1.4999)] == [1235, 1234, 1236, 1, 1]


def test_bad_input_is_refused_naming_the_player() -> None:
    with pytest.raises(EloDIError, match="'x'"):
        rate_game([Contestant("x", 1.0, None, 200, 0), Contestant("y", 2.0)])
    with pytest.raises(EloDIError, match="dos veces"):
        rate_game([Contestant("x", 1.0), Contestant("x", 2.0)])
    with pytest.raises(EloDIError, match="posición"):
        rate_game([Contestant("x", 0.0), Contestant("y", 2.0)])
    with pytest.raises(EloDIError, match="al menos una"):
        rate_game([Contestant("x", 1.0, 1500, 200, 0), Contestant("y", 2.0)])
    with pytest.raises(EloDIError):
        EloDISettings(min_rated_players=1)


def test_default_settings_are_the_documented_decisions() -> None:
    settings = EloDISettings()
    assert (settings.start_rating, settings.start_volatility, settings.first_game_volatility) == (1200, 535, 385)
    assert settings.min_rounds == 12 and settings.min_rated_players == 2 and not settings.use_tie_breaks
    assert settings.phase_two_rated_values is PhaseTwoValues.PRE_GAME
    assert settings.weight_bands == ((2000, 0.9), (2500, 0.8))
    assert EloDISettings.from_dict(settings.to_dict()) == settings


# --- the cross-check against the reference -----------------------------------------------------------
@hypothesis_settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=10**6), st.integers(min_value=1, max_value=40),
       st.sampled_from([0.0, 0.3, 1.0]))
def test_vectorised_rating_matches_the_scalar_reference(seed: int, size: int, new_share: float) -> None:
    players = random_field(random.Random(seed), size, new_share)
    reference = reference_rate(players)
    for outcome in rate_game(players):
        rating, volatility, games, erank, bound = reference[outcome.key]
        assert (outcome.rating_after, outcome.volatility_after, outcome.games_after, outcome.cap_bound) == \
            (rating, volatility, games, bound)
        if erank is None:
            assert outcome.target_position is None
        else:
            assert outcome.target_position == pytest.approx(erank, abs=1e-9)


def test_a_large_field_matches_the_reference() -> None:
    players = random_field(random.Random(5), 300, new_share=0.2)
    reference = reference_rate(players)
    assert {o.key: outcome_tuple(o)[:3] for o in rate_game(players)} == {k: v[:3] for k, v in reference.items()}
