"""Bonuses (III.24), game standings and tie-breaks (III.23, III.28), tournament
standings (IV.31); the fast code is cross-checked against a slow version written here."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from duplicate.rules.bonuses import BonusMode, BonusPolicy, bonus_warnings, round_bonuses
from duplicate.rules.game_standings import GameStanding, RoundResult, game_standings
from duplicate.rules.tournament_standings import TournamentCriterion, tournament_standings

AUTO = BonusPolicy(BonusMode.AUTOMATIC)
A, B, C, D = "Ana", "Bea", "Carlos", "Dani"


# --- bonuses (III.24) ------------------------------------------------------------------


def test_automatic_sole_player_at_the_master_score_gets_10_III24():
    assert round_bonuses(30, {A: 30, B: 20, C: 0}, AUTO) == {A: 10}


def test_automatic_two_players_at_the_master_score_get_nothing_III24():
    assert round_bonuses(30, {A: 30, B: 30, C: 20}, AUTO) == {}


def test_automatic_nobody_at_the_master_sole_best_gets_5_III24():
    assert round_bonuses(30, {A: 25, B: 20, C: 0}, AUTO) == {A: 5}


def test_automatic_nobody_at_the_master_shared_best_gets_nothing_III24():
    assert round_bonuses(30, {A: 25, B: 25, C: 0}, AUTO) == {}


def test_automatic_best_of_0_gets_nothing_III24():
    assert round_bonuses(30, {A: 0, B: 0}, AUTO) == {}
    assert round_bonuses(30, {A: 0}, AUTO) == {}


def test_automatic_round_with_a_top_of_0_gets_nothing_III24_III29():
    assert round_bonuses(0, {A: 0, B: 0}, AUTO) == {}
    assert round_bonuses(0, {A: 0}, AUTO) == {}


def test_automatic_uses_the_programs_top_not_the_players_best_III24():
    # The program's top is 40: A's 30 is the players' best, not the master score.
    assert round_bonuses(40, {A: 30, B: 20}, AUTO) == {A: 5}


@pytest.mark.parametrize("value", [5, 10])
def test_manual_bonus_to_the_sole_top_scorer_III24(value):
    policy = BonusPolicy(BonusMode.MANUAL, manual_value=value)
    assert round_bonuses(50, {A: 30, B: 20}, policy) == {A: value}  # the top_score is not used
    assert round_bonuses(50, {A: 30, B: 30}, policy) == {}
    assert round_bonuses(50, {A: 0, B: 0}, policy) == {}


def test_bonuses_off_III24():
    assert round_bonuses(30, {A: 30, B: 20}, BonusPolicy()) == {}
    assert round_bonuses(30, {A: 30}, BonusPolicy(BonusMode.OFF)) == {}


def test_no_players_no_bonus():
    assert round_bonuses(30, {}, AUTO) == {}


def test_bonus_policy_reads_storage_codes_and_refuses_non_positive_values():
    assert BonusPolicy("automatic").mode is BonusMode.AUTOMATIC  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        BonusPolicy(BonusMode.MANUAL, manual_value=0)


def test_warning_with_10_players_or_fewer_III24():
    (warning,) = bonus_warnings(10, AUTO)
    assert "10 jugadores o menos" in warning and "III.24" in warning
    assert bonus_warnings(11, AUTO) == []


def test_no_warnings_when_bonuses_are_off_III24():
    assert bonus_warnings(3, BonusPolicy()) == []


def test_warning_for_a_bonus_value_above_25_III24():
    """Read per bonus value: 30 points per bonus exceeds 25; with 20 rounds the warning
    also says a player could gain 600."""
    warnings = bonus_warnings(40, BonusPolicy(BonusMode.MANUAL, manual_value=30), rounds=20)
    assert any("30 puntos excede el valor de 25" in warning and "600 puntos" in warning for warning in warnings)
    assert any("5 o 10" in warning for warning in warnings)


def test_a_bonus_of_25_does_not_exceed_25_III24():
    (warning,) = bonus_warnings(40, BonusPolicy(BonusMode.MANUAL, manual_value=25))
    assert "5 o 10" in warning  # only the unusual manual value


def test_recommended_values_give_no_warning_whatever_the_rounds_III24():
    assert bonus_warnings(40, AUTO, rounds=30) == []
    assert bonus_warnings(40, BonusPolicy(BonusMode.MANUAL, manual_value=5), rounds=30) == []


def test_warning_for_unusual_automatic_values_III24():
    (warning,) = bonus_warnings(40, BonusPolicy(BonusMode.AUTOMATIC, master_value=20, best_value=5))
    assert "recomienda 10" in warning


# --- game standings (III.23, III.26) ----------------------------------------------------


def test_total_is_points_plus_bonuses_and_orders_the_game_III23_III24():
    rounds = [
        RoundResult(1, master_score=20, top_score=20, scores={A: 20, B: 10, C: 0}, bonuses={A: 10}),
        RoundResult(2, master_score=30, top_score=30, scores={A: 0, B: 25, C: 12}, bonuses={B: 5}),
    ]
    lines = game_standings([A, B, C], rounds)
    assert [(line.player, line.position, line.total) for line in lines] == [(B, 1, 40), (A, 2, 30), (C, 3, 12)]
    b = lines[0]
    assert (b.round_total, b.bonus_total, b.master_total) == (35, 5, 50)
    assert b.per_round == (10, 25) and b.bonuses_per_round == (0, 5)
    assert b.percentage == pytest.approx(70.0)  # 35 / 50, bonuses excluded


def test_tied_players_share_a_position_and_the_next_skips_III26():
    rounds = [RoundResult(1, 30, 30, {A: 20, B: 30, C: 20, D: 10})]
    lines = game_standings([A, B, C, D], rounds)
    assert [(line.player, line.position) for line in lines] == [(B, 1), (A, 2), (C, 2), (D, 4)]


def test_a_player_missing_from_the_scores_scored_0_III23():
    (_line_b, line_a) = game_standings([A, B], [RoundResult(1, 30, 30, {B: 12})])
    assert (line_a.player, line_a.total, line_a.per_round, line_a.position) == (A, 0, (0,), 2)


def test_game_without_rounds():
    lines = game_standings([A, B], [])
    assert [(line.position, line.total, line.percentage, line.max_deficit) for line in lines] == [
        (1, 0, 0.0, 0), (1, 0, 0.0, 0)]


def test_repeated_player_or_a_stranger_is_a_programming_error():
    with pytest.raises(ValueError, match="repetidos"):
        game_standings([A, A], [])
    with pytest.raises(ValueError, match="no juegan"):
        game_standings([A], [RoundResult(1, 10, 10, {A: 5, B: 10})])
    with pytest.raises(ValueError, match="no juegan"):
        game_standings([A], [RoundResult(1, 10, 10, {A: 5}, bonuses={B: 10})])


# --- tie-breaks (III.28) ----------------------------------------------------------------


def test_tie_break_1_more_times_equal_to_the_master_III28():
    # A: 20 + 10 + 0 = 30, equals the master once; B: 15 + 15 + 0 = 30, never.
    rounds = [RoundResult(1, 20, 20, {A: 20, B: 15}), RoundResult(2, 20, 20, {A: 10, B: 15}),
              RoundResult(3, 10, 10, {A: 0, B: 0})]
    untied = game_standings([B, A], rounds)
    assert [(line.player, line.position) for line in untied] == [(B, 1), (A, 1)]
    tied = game_standings([B, A], rounds, tie_breaks=True)
    assert [(line.player, line.position, line.equal_master) for line in tied] == [(A, 1, 1), (B, 2, 0)]


def test_tie_break_2_more_times_sole_top_not_necessarily_the_master_III28():
    # Nobody equals a master (30). Round 1: A alone has the best (25). Round 2: B and C
    # share the best (25). A and B both total 40.
    rounds = [RoundResult(1, 30, 30, {A: 25, B: 15, C: 0}), RoundResult(2, 30, 30, {A: 15, B: 25, C: 25})]
    lines = game_standings([B, A, C], rounds, tie_breaks=True)
    assert [(line.player, line.position, line.equal_master, line.sole_top) for line in lines] == [
        (A, 1, 0, 1), (B, 2, 0, 0), (C, 3, 0, 0)]


def test_tie_break_3_smaller_largest_deficit_III28():
    # A: 10 + 10, largest deficit 10; B: 5 + 15, largest 15; C is sole top twice.
    rounds = [RoundResult(1, 20, 20, {A: 10, B: 5, C: 20}), RoundResult(2, 20, 20, {A: 10, B: 15, C: 20})]
    lines = game_standings([B, A, C], rounds, tie_breaks=True)
    assert [(line.player, line.position, line.max_deficit) for line in lines] == [(C, 1, 0), (A, 2, 10), (B, 3, 15)]
    assert (lines[1].equal_master, lines[1].sole_top) == (lines[2].equal_master, lines[2].sole_top) == (0, 0)


def test_players_equal_on_every_tie_break_still_share_the_position_III28():
    rounds = [RoundResult(1, 20, 20, {A: 10, B: 20}), RoundResult(2, 20, 20, {A: 20, B: 10})]
    lines = game_standings([A, B], rounds, tie_breaks=True)
    assert [(line.player, line.position) for line in lines] == [(A, 1), (B, 1)]


def test_beating_a_lower_announced_master_counts_as_equal_and_no_deficit_III29():
    # The judge announced a 20-point master; the program's top was 24 and A found it.
    (line,) = game_standings([A], [RoundResult(1, master_score=20, top_score=24, scores={A: 24})])
    assert (line.equal_master, line.max_deficit, line.percentage) == (1, 0, pytest.approx(120.0))


# --- tournament standings (IV.31) -------------------------------------------------------
#
# Hand-worked tournament. Game 1 (A, B, C):   round 1, master 20: A 20, B 10, C 0
#                                             round 2, master 30: A 15, B 30, C 30
#   totals A 35, B 40, C 30 → places B 1, A 2, C 3.
# Game 2 (A, B; C missed):                    round 1, master 10: A 10, B 5
#                                             round 2, master 40: A 40, B 0
#   totals A 50, B 5 → places A 1, B 2; C gets the last place, 2.

GAME_1 = ([A, B, C], [RoundResult(1, 20, 20, {A: 20, B: 10, C: 0}), RoundResult(2, 30, 30, {A: 15, B: 30, C: 30})])
GAME_2 = ([A, B], [RoundResult(1, 10, 10, {A: 10, B: 5}), RoundResult(2, 40, 40, {A: 40, B: 0})])
HAND = ([A, B, C], [GAME_1, GAME_2])


def summary(lines):
    return [(line.player, line.position, round(line.value, 4)) for line in lines]


def test_total_criterion_on_the_hand_worked_tournament():
    # A 35 + 50 = 85, B 40 + 5 = 45, C 30 + 0 (missed) = 30.
    lines = tournament_standings(*HAND, TournamentCriterion.TOTAL)
    assert summary(lines) == [(A, 1, 85), (B, 2, 45), (C, 3, 30)]
    a, b, c = lines
    assert (a.places, b.places, c.places) == ((2, 1), (1, 2), (3, None))
    assert (a.games_played, c.games_played) == (2, 1)
    assert a.master_total == 100 and a.percentage == pytest.approx(85.0)


def test_average_place_criterion_1_missed_game_is_its_last_place_IV31():
    # A (2 + 1) / 2 = 1.5, B (1 + 2) / 2 = 1.5, C (3 + 2) / 2 = 2.5 (2: last of game 2's 2 players).
    lines = tournament_standings(*HAND, TournamentCriterion.AVERAGE_PLACE, tie_breaks=False)
    assert summary(lines) == [(A, 1, 1.5), (B, 1, 1.5), (C, 3, 2.5)]


def test_average_place_tie_broken_by_III28_over_all_rounds_IV31():
    # Over the 4 rounds A equals the master 3 times (20, 10, 40), B once (30).
    lines = tournament_standings(*HAND, TournamentCriterion.AVERAGE_PLACE, tie_breaks=True)
    assert summary(lines) == [(A, 1, 1.5), (B, 2, 1.5), (C, 3, 2.5)]
    assert [line.equal_master for line in lines] == [3, 1, 1]


def test_average_percentage_criterion_2_is_per_round_IV31():
    # A: (20/20 + 15/30 + 10/10 + 40/40) / 4 = 3.5 / 4 = 87.5 %
    # B: (10/20 + 30/30 + 5/10 + 0/40) / 4 = 2 / 4 = 50 %
    # C: (0/20 + 30/30 + 0 + 0) / 4 = 25 % (missed game: 0 in its rounds)
    lines = tournament_standings(*HAND, TournamentCriterion.AVERAGE_PERCENTAGE)
    assert summary(lines) == [(A, 1, 87.5), (B, 2, 50.0), (C, 3, 25.0)]


def test_average_percentage_leaves_out_rounds_with_a_master_of_0_IV31():
    game = ([A, B], [RoundResult(1, 0, 0, {}), RoundResult(2, 40, 40, {A: 40, B: 10})])
    lines = tournament_standings([A, B], [game], TournamentCriterion.AVERAGE_PERCENTAGE)
    assert summary(lines) == [(A, 1, 100.0), (B, 2, 25.0)]


def test_deviation_criterion_3_IV31():
    # A: √(0² + 15² + 0² + 0²) / 4 = 15 / 4 = 3.75
    # B: √(10² + 0² + 5² + 40²) / 4 = √1725 / 4 ≈ 10.3833
    # C: √(20² + 0² + 10² + 40²) / 4 = √2100 / 4 ≈ 11.4564 (missed game: deviations 10 and 40)
    lines = tournament_standings(*HAND, TournamentCriterion.DEVIATION)
    assert summary(lines) == [(A, 1, 3.75), (B, 2, round(math.sqrt(1725) / 4, 4)), (C, 3, round(math.sqrt(2100) / 4, 4))]


def test_criteria_can_disagree_IV31():
    # Game 1: A scores 50 of 100 in round 1, B scores 0; round 2 (master 10): B 10, A 0.
    # Total: A 50 > B 10.  Average percentage: A (50 % + 0) / 2 = 25 %, B (0 + 100 %) / 2 = 50 %.
    game = ([A, B], [RoundResult(1, 100, 100, {A: 50, B: 0}), RoundResult(2, 10, 10, {A: 0, B: 10})])
    assert [line.player for line in tournament_standings([A, B], [game], TournamentCriterion.TOTAL)] == [A, B]
    by_percentage = tournament_standings([A, B], [game], TournamentCriterion.AVERAGE_PERCENTAGE)
    assert summary(by_percentage) == [(B, 1, 50.0), (A, 2, 25.0)]
    # Deviation: A √(50² + 10²) = √2600, B √(100²) = 100 > √2600 ≈ 51 → A first.
    by_deviation = tournament_standings([A, B], [game], TournamentCriterion.DEVIATION)
    assert [line.player for line in by_deviation] == [A, B]


@pytest.mark.parametrize("criterion", list(TournamentCriterion))
def test_a_player_who_missed_every_game_is_last_under_each_criterion_IV31(criterion):
    lines = tournament_standings([D, A, B, C], HAND[1], criterion)
    # Last, or sharing the last place (average place: C has 3 + 2 as well; IV.31 breaks
    # that tie only when asked, issue 25 §5).
    d = next(line for line in lines if line.player == D)
    assert d.position == max(line.position for line in lines)
    assert d.places == (None, None) and d.games_played == 0 and d.total == 0
    assert tournament_standings([D, A, B, C], HAND[1], criterion, tie_breaks=True)[-1].player == D


def test_missed_game_counts_0_in_the_tie_break_counts_IV31():
    # C missed game 2 (masters 10 and 40): 0 points there, so its largest deficit is 40.
    c = next(line for line in tournament_standings(*HAND, TournamentCriterion.TOTAL) if line.player == C)
    assert (c.equal_master, c.sole_top, c.max_deficit) == (1, 0, 40)


def test_game_tie_breaks_never_reach_the_tournament_places_IV31():
    # Issue 25 §5: a game's III.28 tie-breaks decide that game's prizes; the places the
    # tournament averages are the places by total, shared by tied players.
    game = ([A, B], [RoundResult(1, 20, 20, {A: 20, B: 10}), RoundResult(2, 20, 20, {A: 0, B: 10})])
    assert [line.position for line in game_standings(*game, tie_breaks=True)] == [1, 2]
    lines = tournament_standings([A, B], [game], TournamentCriterion.AVERAGE_PLACE)
    assert [(line.places, line.position) for line in lines] == [((1,), 1), ((1,), 1)]
    # Announced for the tournament (IV.31), III.28 over all the rounds decides the tie there.
    lines = tournament_standings([A, B], [game], TournamentCriterion.AVERAGE_PLACE, tie_breaks=True)
    assert [(line.player, line.places, line.position) for line in lines] == [(A, (1,), 1), (B, (1,), 2)]


# Issue 25 §5 — tie-break data that would reorder untied players if misapplied.
# Game 1: round 1 (master 20) A 20, B 10, C 0; round 2 (master 20) A 0, B 10, C 10:
#   A and B tie on 20 (III.28 would put A first: one master equalled, B none), C 10.
# Game 2: one round (master 30): C 30, B 20, A 10.
TIE_GAME_1 = ([A, B, C], [RoundResult(1, 20, 20, {A: 20, B: 10, C: 0}), RoundResult(2, 20, 20, {A: 0, B: 10, C: 10})])
TIE_GAME_2 = ([A, B, C], [RoundResult(1, 30, 30, {A: 10, B: 20, C: 30})])
TIED = ([A, B, C], [TIE_GAME_1, TIE_GAME_2])


@pytest.mark.parametrize("tie_breaks", [False, True])
def test_tie_break_data_does_not_reorder_untied_players_IV31(tie_breaks):
    # Places by total: A 1 + 3 = 4, B 1 + 2 = 3, C 3 + 1 = 4: B alone in front, A and C
    # tied. Had game 1's tie-break places (A 1, B 2) been averaged, all three would have 4
    # and III.28 over all the rounds would put B (no master equalled) last.
    lines = tournament_standings(*TIED, TournamentCriterion.AVERAGE_PLACE, tie_breaks=tie_breaks)
    assert [(line.player, line.position, line.value) for line in lines][0] == (B, 1, 1.5)
    # A and C: one master equalled each, one sole top each, largest deficit 20 each: III.28
    # leaves them tied, with or without it, and they share the place.
    assert sorted((line.player, line.position) for line in lines[1:]) == [(A, 2), (C, 2)]


def test_total_ties_are_shared_unless_the_need_is_announced_IV31():
    # Game 1 alone: A and B 20, C 10. IV.31: tie-breaks only "en caso de que exista la
    # necesidad" (prizes that cannot be shared): by default A and B share the first place.
    lines = tournament_standings([A, B, C], [TIE_GAME_1], TournamentCriterion.TOTAL)
    assert [(line.player, line.position) for line in lines] == [(A, 1), (B, 1), (C, 3)]
    broken = tournament_standings([A, B, C], [TIE_GAME_1], TournamentCriterion.TOTAL, tie_breaks=True)
    # III.28 over all the rounds: A equalled the master once, B never; C stays third.
    assert [(line.player, line.position) for line in broken] == [(A, 1), (B, 2), (C, 3)]


def test_tournament_refuses_inconsistent_input():
    with pytest.raises(ValueError, match="no están en el torneo"):
        tournament_standings([A], [([A, B], [])], TournamentCriterion.TOTAL)
    with pytest.raises(ValueError, match="nadie"):
        tournament_standings([A], [([], [])], TournamentCriterion.TOTAL)
    with pytest.raises(ValueError, match="repetidos"):
        tournament_standings([A, A], [], TournamentCriterion.TOTAL)


def test_criterion_codes_are_stable():
    assert [criterion.value for criterion in TournamentCriterion] == [
        "total", "average_place", "average_percentage", "deviation"]
    assert tournament_standings([A], [], "deviation")[0].value == 0.0  # type: ignore[arg-type]


# --- slow, obviously correct versions ---------------------------------------------------


def slow_sole_top(result: RoundResult, members) -> object:
    points = {player: result.scores.get(player, 0) for player in members}
    best = max(points.values(), default=0)
    leaders = [player for player, value in points.items() if value == best]
    return leaders[0] if best > 0 and len(leaders) == 1 else None


def slow_counts(player, games) -> tuple[int, int, int]:
    """III.28 counts over every round of ``games`` as one game (absent: 0 points)."""
    equal = sole = deficit = 0
    for members, rounds in games:
        for result in rounds:
            points = result.scores.get(player, 0) if player in members else 0
            equal += points >= result.master_score
            sole += slow_sole_top(result, members) == player
            deficit = max(deficit, result.master_score - points)
    return equal, sole, deficit


def slow_game(players, rounds, tie_breaks):
    """{player: (position, total)} by counting the players strictly ahead."""
    keys = {}
    for player in players:
        total = sum(r.scores.get(player, 0) + r.bonuses.get(player, 0) for r in rounds)
        equal, sole, deficit = slow_counts(player, [(players, rounds)])
        keys[player] = (-total, -equal, -sole, deficit) if tie_breaks else (-total,)
    return {p: (1 + sum(keys[q] < keys[p] for q in players), -keys[p][0]) for p in players}


def slow_tournament(players, games, criterion, tie_breaks):
    """{player: (position, exact value)} with fractions, straight from IV.31's formulas
    (the places averaged are the places by total, issue 25 §5)."""
    places = [slow_game(members, rounds, False) for members, rounds in games]
    all_rounds = [(members, r) for members, rounds in games for r in rounds]
    exact = {}
    for player in players:
        points = [r.scores.get(player, 0) if player in members else 0 for members, r in all_rounds]
        masters = [r.master_score for _members, r in all_rounds]
        if criterion is TournamentCriterion.TOTAL:
            value = Fraction(sum(points) + sum(r.bonuses.get(player, 0) for _m, r in all_rounds))
            key = -value
        elif criterion is TournamentCriterion.AVERAGE_PLACE:
            value = Fraction(sum(table[player][0] if player in table else len(members)
                                 for table, (members, _rounds) in zip(places, games)), max(1, len(games)))
            key = value
        elif criterion is TournamentCriterion.AVERAGE_PERCENTAGE:
            kept = [(p, m) for p, m in zip(points, masters) if m > 0]
            value = 100 * sum((Fraction(p, m) for p, m in kept), Fraction(0)) / max(1, len(kept))
            key = -value
        else:
            squares = sum((m - p) ** 2 for p, m in zip(points, masters))
            value = Fraction(squares)  # compared as the square: √ and / n keep the order
            key = value
        equal, sole, deficit = slow_counts(player, games)
        exact[player] = ((key, -equal, -sole, deficit) if tie_breaks else (key,), value)
    return {p: (1 + sum(exact[q][0] < exact[p][0] for q in players), exact[p][1]) for p in players}


# --- properties --------------------------------------------------------------------------

PLAYERS = list(range(1, 9))


@st.composite
def rounds_for(draw, members, number_of_rounds=None):
    count = draw(st.integers(0, 5)) if number_of_rounds is None else number_of_rounds
    policy = draw(st.sampled_from([BonusPolicy(), AUTO, BonusPolicy(BonusMode.MANUAL, manual_value=5)]))
    rounds = []
    for number in range(1, count + 1):
        master = draw(st.integers(0, 12))
        top = master + draw(st.sampled_from([0, 0, 0, 3]))
        scores = {player: draw(st.integers(0, top)) for player in members if draw(st.integers(0, 5))}  # absent = 0
        rounds.append(RoundResult(number, master, top, scores, round_bonuses(top, scores, policy)))
    return rounds


@st.composite
def games_for(draw):
    players = PLAYERS[:draw(st.integers(1, len(PLAYERS)))]
    games = []
    for _ in range(draw(st.integers(0, 4))):
        members = draw(st.lists(st.sampled_from(players), min_size=1, unique=True))
        games.append((members, draw(rounds_for(members))))
    return players, games


@settings(max_examples=200, deadline=None)
@given(data=st.data(), tie_breaks=st.booleans())
def test_game_standings_match_the_slow_version_III23_III28(data, tie_breaks):
    members = PLAYERS[:data.draw(st.integers(1, len(PLAYERS)))]
    rounds = data.draw(rounds_for(members))
    lines = game_standings(members, rounds, tie_breaks=tie_breaks)
    assert {line.player: (line.position, line.total) for line in lines} == slow_game(members, rounds, tie_breaks)
    assert [line.position for line in lines] == sorted(line.position for line in lines)


@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_total_is_the_sum_of_the_rounds_plus_bonuses_III23_III24(data):
    members = PLAYERS[:data.draw(st.integers(1, len(PLAYERS)))]
    rounds = data.draw(rounds_for(members))
    for line in game_standings(members, rounds):
        assert line.per_round == tuple(r.scores.get(line.player, 0) for r in rounds)
        assert line.total == sum(line.per_round) + sum(line.bonuses_per_round) == line.round_total + line.bonus_total
        assert line.master_total == sum(r.master_score for r in rounds)


@settings(max_examples=150, deadline=None)
@given(data=st.data(), tie_breaks=st.booleans())
def test_input_order_does_not_change_the_game_standings(data, tie_breaks):
    members = PLAYERS[:data.draw(st.integers(1, len(PLAYERS)))]
    rounds = data.draw(rounds_for(members))
    shuffled = data.draw(st.permutations(members))
    shuffled_rounds = [RoundResult(r.number, r.master_score, r.top_score,
                                   dict(reversed(list(r.scores.items()))), r.bonuses) for r in rounds]
    first = {line.player: line for line in game_standings(members, rounds, tie_breaks=tie_breaks)}
    second = {line.player: line for line in game_standings(shuffled, shuffled_rounds, tie_breaks=tie_breaks)}
    assert first == second


@settings(max_examples=200, deadline=None)
@given(setup=games_for(), criterion=st.sampled_from(list(TournamentCriterion)), tie_breaks=st.booleans())
def test_tournament_standings_match_the_slow_version_IV31(setup, criterion, tie_breaks):
    players, games = setup
    lines = tournament_standings(players, games, criterion, tie_breaks=tie_breaks)
    slow = slow_tournament(players, games, criterion, tie_breaks)
    assert {line.player: line.position for line in lines} == {player: slow[player][0] for player in players}
    round_count = sum(len(rounds) for _members, rounds in games)
    for line in lines:
        value = slow[line.player][1]
        if criterion is TournamentCriterion.DEVIATION:
            value = math.sqrt(value) / round_count if round_count else 0
        assert line.value == pytest.approx(float(value))


@settings(max_examples=150, deadline=None)
@given(setup=games_for(), criterion=st.sampled_from(list(TournamentCriterion)), data=st.data())
def test_input_order_does_not_change_the_tournament_standings_IV31(setup, criterion, data):
    players, games = setup
    shuffled_players = data.draw(st.permutations(players))
    shuffled_games = [(data.draw(st.permutations(members)), rounds) for members, rounds in games]
    first = {line.player: line for line in tournament_standings(players, games, criterion)}
    second = {line.player: line for line in tournament_standings(shuffled_players, shuffled_games, criterion)}
    assert first == second


def test_large_tournament_matches_the_slow_version():
    """300 players would make the slow version slow; 60 players × 4 games × 12 rounds with
    absences and every criterion, random but fixed."""
    rng = random.Random(7)
    players = list(range(60))
    games = []
    for _ in range(4):
        members = [p for p in players if rng.random() > 0.1]
        rounds = []
        for number in range(1, 13):
            master = rng.randint(5, 60)
            scores = {p: master if rng.random() < 0.2 else rng.randint(0, master) for p in members}
            rounds.append(RoundResult(number, master, master, scores, round_bonuses(master, scores, AUTO)))
        games.append((members, rounds))
    for criterion in TournamentCriterion:
        lines = tournament_standings(players, games, criterion, tie_breaks=True)
        slow = slow_tournament(players, games, criterion, tie_breaks=True)
        assert {line.player: line.position for line in lines} == {p: slow[p][0] for p in players}


def test_game_standing_is_a_frozen_value():
    (line,) = game_standings([A], [])
    assert isinstance(line, GameStanding)
    with pytest.raises(AttributeError):
        line.total = 3  # type: ignore[misc]
