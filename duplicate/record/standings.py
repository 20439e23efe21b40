"""The checker's own bonuses and standings (III.23, III.24, III.28, IV.31), for ``duplicada verify``.

Recomputed here with small, separate code — not with ``duplicate.rules.game_standings``, the
service's — so that a fault in the one is caught by the other: ``round_bonuses``
(III.24), ``game_standings`` (III.23, III.28) and ``tournament_standings`` (IV.31), on the
``RoundResult`` of each round. Usable to *build* a consistent record too (the benchmark
does). Ranking keys are exact (integers and fractions); stored floats are compared with
the recomputed ones within ``TOLERANCE``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import Any

from duplicate.record.reading import BONUS_MODES, CRITERIA

__all__ = ["TOLERANCE", "GameStanding", "RoundResult", "TournamentStanding", "game_standings", "round_bonuses",
           "tournament_standings"]

TOLERANCE = 1e-6
"""Largest accepted difference between a stored float and the recomputed one."""


def round_bonuses(scores: Mapping[int, int], top_score: int, mode: str, value: int = 10) -> dict[int, int]:
    """Bonuses of one round (III.24): player id → points (only players who get one).

    ``scores``: round score of every seated player; ``top_score``: the best score
    the program found; ``mode``: ``"automatic"`` — 10 to the only player scoring
    ``top_score``, or else 5 to the only player with the best score if it is > 0;
    ``"manual"`` — ``value`` to the only player with the best score if it is > 0;
    ``"off"`` — none. Raises ``ValueError`` for another mode.
    """
    if mode not in BONUS_MODES:
        raise ValueError(f"modo de bonificación desconocido: {mode!r}")
    if mode == "off" or not scores:
        return {}
    best = max(scores.values())
    leaders = [player for player, score in scores.items() if score == best]
    if mode == "automatic":
        at_top = [player for player, score in scores.items() if score == top_score]
        if at_top:
            return {at_top[0]: 10} if len(at_top) == 1 else {}
        return {leaders[0]: 5} if len(leaders) == 1 and best > 0 else {}
    return {leaders[0]: value} if len(leaders) == 1 and best > 0 else {}


@dataclass(frozen=True)
class RoundResult:
    """What standings need of one round: ``master_score`` and ``top_score`` (points),
    ``scores`` (seated player id → round score, points) and ``bonuses`` (player id →
    bonus points, III.24)."""

    master_score: int
    top_score: int
    scores: Mapping[int, int]
    bonuses: Mapping[int, int]

    @cached_property
    def sole_top(self) -> int | None:
        """The only player with the round's best score, if it is above 0, or None (III.28,
        second criterion)."""
        if not self.scores:
            return None
        best = max(self.scores.values())
        leaders = [player for player, score in self.scores.items() if score == best]
        return leaders[0] if len(leaders) == 1 and best > 0 else None


@dataclass(frozen=True)
class GameStanding:
    """A player's line in a game's standings (III.23): ``position`` (1-based, shared
    by tied players), ``total`` (round scores + bonuses, points), ``bonus`` (points),
    ``percentage`` (100 × round scores / master total, 0 when that total is 0)."""

    position: int
    total: int
    bonus: int
    percentage: float


@dataclass(frozen=True)
class TournamentStanding:
    """A player's line in the tournament standings (IV.31): ``position`` (1-based,
    shared by tied players), ``value`` (the criterion's value) and ``total`` (sum of
    game totals, points)."""

    position: int
    value: float
    total: int


def _tie_break_key(player: int, rounds: Iterable[RoundResult]) -> tuple[int, int, int]:
    """III.28 as a sort key (smaller is better) over ``rounds``: more rounds scoring at
    least the master, more rounds as sole top scorer, smaller largest gap to the
    master. A round where the player is not in ``scores`` counts 0 points."""
    at_master = sole = worst_gap = 0
    for result in rounds:
        score = result.scores.get(player, 0)
        at_master += score >= result.master_score
        sole += result.sole_top == player
        worst_gap = max(worst_gap, result.master_score - score)
    return (-at_master, -sole, worst_gap)


def _competition_positions(keys: Mapping[int, Any]) -> dict[int, int]:
    """Standard competition ranking (1, 1, 3) of players by ascending key."""
    ordered = sorted(keys.values())
    positions: dict[int, int] = {}
    for player, key in keys.items():
        positions[player] = 1 + _count_less(ordered, key)
    return positions


def _count_less(ordered: list[Any], key: Any) -> int:
    low, high = 0, len(ordered)
    while low < high:
        middle = (low + high) // 2
        if ordered[middle] < key:
            low = middle + 1
        else:
            high = middle
    return low


def game_standings(rounds: Sequence[RoundResult], players: Iterable[int], tie_breaks: bool) -> dict[int, GameStanding]:
    """Standings of one game (III.23, III.24, III.28): player id → ``GameStanding``.

    ``players``: the seated players (a player missing from a round's ``scores``
    counts 0 there). Positions by descending total; with ``tie_breaks`` ties are
    broken by III.28 (see ``_tie_break_key``); players still equal share it.
    """
    players = list(players)
    master_total = sum(result.master_score for result in rounds)
    keys: dict[int, Any] = {}
    lines: dict[int, tuple[int, int, float]] = {}
    for player in players:
        points = sum(result.scores.get(player, 0) for result in rounds)
        bonus = sum(result.bonuses.get(player, 0) for result in rounds)
        percentage = 100 * points / master_total if master_total else 0.0
        lines[player] = (points + bonus, bonus, percentage)
        key: tuple[int, ...] = (-(points + bonus),)
        if tie_breaks:
            key += _tie_break_key(player, rounds)
        keys[player] = key
    positions = _competition_positions(keys)
    return {player: GameStanding(positions[player], *lines[player]) for player in players}


def tournament_standings(games: Sequence[tuple[Sequence[RoundResult], Mapping[int, GameStanding]]],
                         criterion: str, tie_breaks: bool = False) -> dict[int, TournamentStanding]:
    """Tournament standings (IV.31): player id → ``TournamentStanding``.

    ``games``: per game, its rounds and its standings (the seated players are the
    standings' keys). Players: everyone seated in at least one game; a missed game
    counts as the last place of that game (its number of seated players), 0 points
    and 0 in each of its rounds. ``criterion``:

    * ``"total"`` — sum of game totals, descending;
    * ``"average_place"`` — mean game position by total (tied players sharing it:
      a game's III.28 tie-breaks are for that game's prizes), ascending;
    * ``"average_percentage"`` — 100 × mean over all rounds with master > 0 of
      score/master, descending;
    * ``"deviation"`` — sqrt(sum over all rounds of (master − score)²) / number of
      rounds, ascending.

    Remaining ties: with ``tie_breaks`` (IV.31: announced because prizes cannot be
    shared) III.28 over all rounds; then, or without it, the position is shared. Ranking
    keys are exact (integers and fractions), so float rounding never splits a tie.
    Raises ``ValueError`` for an unknown criterion.
    """
    if criterion not in CRITERIA:
        raise ValueError(f"criterio de clasificación desconocido: {criterion!r}")
    players = sorted({player for _rounds, standings in games for player in standings})
    all_rounds = [result for rounds, _standings in games for result in rounds]
    counted = [result for result in all_rounds if result.master_score > 0]
    keys: dict[int, Any] = {}
    values: dict[int, tuple[float, int]] = {}
    places = [game_standings(rounds, standings, tie_breaks=False) for rounds, standings in games]
    for player in players:
        total = sum(standings[player].total for _rounds, standings in games if player in standings)
        place_sum = sum(by_total[player].position if player in by_total else len(by_total) for by_total in places)
        share = sum((Fraction(result.scores.get(player, 0), result.master_score) for result in counted), Fraction(0))
        squares = sum((result.master_score - result.scores.get(player, 0)) ** 2 for result in all_rounds)
        key: Any
        if criterion == "total":
            key, value = -total, float(total)
        elif criterion == "average_place":
            key, value = place_sum, place_sum / len(games) if games else 0.0
        elif criterion == "average_percentage":
            key, value = -share, float(100 * share / len(counted)) if counted else 0.0
        else:
            key, value = squares, math.sqrt(squares) / len(all_rounds) if all_rounds else 0.0
        keys[player] = (key, *_tie_break_key(player, all_rounds)) if tie_breaks else (key,)
        values[player] = (value, total)
    positions = _competition_positions(keys)
    return {player: TournamentStanding(positions[player], *values[player]) for player in players}
