"""The tournament's standings (IV.31): ``TournamentCriterion`` (total, average place,
average percentage, deviation), ``TournamentStanding`` and
``tournament_standings`` (each game's places by total; only when asked, III.28 over all
its rounds as one game breaks the ties the criterion leaves). Criterion values are
compared exactly (integer arithmetic). The conventions (positions, what tie-breaks may
decide) are ``duplicate.rules.game_standings``'.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Generic, TypeVar

from duplicate.rules.game_standings import RoundResult, _check_players, _percentage, _ranked, game_standings

__all__ = ["GameInput", "TournamentCriterion", "TournamentStanding", "tournament_standings"]

K = TypeVar("K", bound=Hashable)


class TournamentCriterion(StrEnum):
    """How the tournament is classified (IV.31); the values are stable storage codes.

    * ``TOTAL``: points plus bonuses of every game, descending (the natural sum, III.23).
    * ``AVERAGE_PLACE`` (criterion 1): the average of the places in each game,
      ascending, over all the tournament's games; a missed game counts as the last
      place of that game, read as **N for a game of N players** (the last place of
      its table), not N + 1.
    * ``AVERAGE_PERCENTAGE`` (criterion 2): the formula as written, the average over
      **all the rounds** of the tournament of ``p_x / M_x`` (as a percentage),
      descending — although the text says "per game", the formula is per round;
      rounds with ``M_x = 0`` are left out of the sum and of ``n``.
    * ``DEVIATION`` (criterion 3): ``sqrt(sum (M_x - p_x)^2) / n`` over all the rounds
      (``n`` the number of rounds), ascending.

    ``p_x`` is the player's points in round x without bonuses (0 in a missed game);
    ``M_x`` the master's points (``RoundResult.master_score``, the move placed on the
    board; the text's "máster máquina", equal to the program's top score unless the
    judge announced a lower move, III.29).
    """

    TOTAL = "total"
    AVERAGE_PLACE = "average_place"
    AVERAGE_PERCENTAGE = "average_percentage"
    DEVIATION = "deviation"


@dataclass(frozen=True)
class TournamentStanding(Generic[K]):
    """One player's line in the tournament standings (IV.31, IV.32).

    ``position``: 1-based, shared by tied players; ``value``: the criterion's value
    (points for ``TOTAL``, a place for ``AVERAGE_PLACE``, a percentage 0–100+ for
    ``AVERAGE_PERCENTAGE``, points for ``DEVIATION``); ``total`` (points plus
    bonuses), ``round_total``, ``bonus_total``, ``master_total``: points over all
    games, a missed game counting 0; ``percentage``: ``100 * round_total /
    master_total``; ``games_played``; ``places``: the place in each game, None for a
    missed one; ``equal_master``, ``sole_top``, ``max_deficit``: the III.28 counts
    over all the rounds as one game, a missed game's rounds counting 0 points (so
    its masters are deficits).
    """

    player: K
    position: int
    value: float
    total: int
    round_total: int
    bonus_total: int
    master_total: int
    percentage: float
    games_played: int
    places: tuple[int | None, ...]
    equal_master: int
    sole_top: int
    max_deficit: int


GameInput = tuple[Sequence[K], Sequence[RoundResult[K]]]
"""One game of a tournament: the players who played it and its rounds."""


@dataclass
class _Tally:
    """One player's running sums over the games of a tournament."""

    round_total: int = 0
    bonus_total: int = 0
    equal_master: int = 0
    sole_top: int = 0
    max_deficit: int = 0
    games_played: int = 0
    place_sum: int = 0        # a missed game counted as its last place
    squares: int = 0          # sum of (M - p)^2
    ratios: int = 0           # sum of p * (L // M) over the rounds with M > 0, L the lcm of those M
    places: list[int | None] = field(default_factory=list)


def tournament_standings(players: Sequence[K], games: Sequence[GameInput[K]], criterion: TournamentCriterion, *,
                         tie_breaks: bool = False) -> list[TournamentStanding[K]]:
    """Tournament standings by ``criterion`` (IV.31), best first.

    ``players``: everybody classified; ``games``: per game, ``(players who played it,
    its rounds)``, in game order. Each game's places are its places by total
    (``game_standings`` without III.28: tied players share the place; a game's
    tie-breaks decide that game's prizes, not the tournament's, module doc).
    Only with ``tie_breaks`` — the organiser announced that prizes cannot be shared
    (IV.31, "en caso de que exista la necesidad") — players equal on the criterion are
    separated by III.28 over all the rounds as one game; a player not tied on the
    criterion keeps the position the criterion gives. Players still equal share a
    position and keep the order of ``players``. Criterion values are compared exactly (integer
    arithmetic), so equal values tie although their floats may print alike or not.

    Raises ``ValueError`` for a repeated player, a game player not in ``players``,
    a game with no players, or points for someone outside a game's players.
    """
    criterion = TournamentCriterion(criterion)
    _check_players(players)
    tallies = {player: _Tally() for player in players}
    positive = [result.master_score for _members, rounds in games for result in rounds if result.master_score > 0]
    common = math.lcm(*positive) if positive else 1
    master_total = round_count = 0

    for number, (members, rounds) in enumerate(games, start=1):
        strangers = [player for player in members if player not in tallies]
        if strangers:
            raise ValueError(f"partida {number}: jugadores que no están en el torneo: {strangers!r}")
        if not members:
            raise ValueError(f"partida {number}: no la jugó nadie")
        masters = [result.master_score for result in rounds]
        weights = [common // master if master > 0 else 0 for master in masters]
        master_total += sum(masters)
        round_count += len(rounds)
        for line in game_standings(members, rounds):
            tally = tallies[line.player]
            tally.round_total += line.round_total
            tally.bonus_total += line.bonus_total
            tally.equal_master += line.equal_master
            tally.sole_top += line.sole_top
            tally.max_deficit = max(tally.max_deficit, line.max_deficit)
            tally.games_played += 1
            tally.place_sum += line.position
            tally.places.append(line.position)
            tally.squares += sum((master - points) ** 2 for master, points in zip(masters, line.per_round))
            tally.ratios += sum(points * weight for points, weight in zip(line.per_round, weights))
        if len(members) < len(tallies):
            _count_absence(tallies, set(members), masters, last_place=len(members))

    values = _criterion_values(tallies, criterion, len(games), round_count, len(positive), common)
    rows = list(tallies.items())

    def key(row: tuple[K, _Tally]) -> tuple[int, ...]:
        player, tally = row
        exact = values[player][0]
        return (exact, -tally.equal_master, -tally.sole_top, tally.max_deficit) if tie_breaks else (exact,)

    return [
        TournamentStanding(
            player=player,
            position=position,
            value=values[player][1],
            total=tally.round_total + tally.bonus_total,
            round_total=tally.round_total,
            bonus_total=tally.bonus_total,
            master_total=master_total,
            percentage=_percentage(tally.round_total, master_total),
            games_played=tally.games_played,
            places=tuple(tally.places),
            equal_master=tally.equal_master,
            sole_top=tally.sole_top,
            max_deficit=tally.max_deficit,
        )
        for position, (player, tally) in _ranked(rows, key)
    ]


def _count_absence(tallies: Mapping[K, _Tally], present: set[K], masters: Sequence[int], last_place: int) -> None:
    """Add a missed game (0 points in each of its rounds, its last place) to the absent players."""
    equal = sum(1 for master in masters if master <= 0)
    deficit = max((master for master in masters if master > 0), default=0)
    squares = sum(master * master for master in masters)
    for player, tally in tallies.items():
        if player in present:
            continue
        tally.equal_master += equal
        tally.max_deficit = max(tally.max_deficit, deficit)
        tally.squares += squares
        tally.place_sum += last_place
        tally.places.append(None)


def _criterion_values(tallies: Mapping[K, _Tally], criterion: TournamentCriterion, game_count: int,
                      round_count: int, counted_rounds: int, common: int) -> dict[K, tuple[int, float]]:
    """Per player ``(exact sort key, ascending; the criterion's value)``."""
    values = {}
    for player, tally in tallies.items():
        if criterion is TournamentCriterion.TOTAL:
            total = tally.round_total + tally.bonus_total
            values[player] = (-total, float(total))
        elif criterion is TournamentCriterion.AVERAGE_PLACE:
            values[player] = (tally.place_sum, tally.place_sum / game_count if game_count else 0.0)
        elif criterion is TournamentCriterion.AVERAGE_PERCENTAGE:
            average = 100.0 * (tally.ratios / common) / counted_rounds if counted_rounds else 0.0
            values[player] = (-tally.ratios, average)
        else:
            values[player] = (tally.squares, math.sqrt(tally.squares) / round_count if round_count else 0.0)
    return values
