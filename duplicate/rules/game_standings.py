"""One game's standings (III.23, III.26, III.28): ``RoundResult`` (a round's master score,
the best score found, every player's points and bonuses), ``GameStanding``,
``game_standings`` (optionally breaking ties with III.28's three criteria),
``partial_standings``, ``running_totals`` (a bonus counts in the round it was awarded,
III.24) and ``tied_on_total``; and the position rule shared with the tournament's
standings (competition ranking, 1, 2, 2, 4). Pure functions over plain values; players
are opaque hashable keys (ids). The bonuses are ``duplicate.rules.bonuses``' (III.24), the
tournament's standings ``duplicate.rules.tournament_standings``' (IV.31).

**Tie-breaks decide only what a tie leaves undecided** (III.28 "generalmente no se
utilizan"; IV.31 "en caso de que exista la necesidad"): they order players equal on the
total (a game) or on the criterion (the tournament) and never move a player who is not
tied; without them tied players share the position. A game's III.28 tie-breaks decide
that game's prizes only: the places a tournament averages (IV.31 criterion 1) are the
places by total, shared by tied players, so a game's tie-break data cannot reorder the
tournament's untied players.

**Positions.** Players equal on every criterion in use share a position and the next
position skips (1, 2, 2, 4: "competition ranking"); tied players are listed in the
order of the ``players`` argument.

**III.28 tie-break counts** (``equal_master``, ``sole_top``, ``max_deficit``), per
round of a game:

* *equal master*: the player's points are at least the master's (``score >=
  master_score``; above it only when the judge announced a lower master, III.29);
* *sole top*: the player alone has the best points of the players of the game,
  and they are above 0 (not necessarily the master's score);
* *deficit*: ``max(0, master_score - score)``; ``max_deficit`` is the largest over
  the rounds (0 with no rounds). Smaller is better.

Points here are the round scores of the slips (0 for invalid, late, null or missing
slips, III.23, III.25); bonuses are kept apart and added to ``total`` (III.24).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Generic, TypeVar

__all__ = ["GameStanding", "RoundResult", "game_standings", "partial_standings", "running_totals", "tied_on_total"]

K = TypeVar("K", bound=Hashable)


@dataclass(frozen=True)
class RoundResult(Generic[K]):
    """One round's results.

    ``number``: the round number (1-based); ``master_score``: points of the master move
    placed on the board (III.15; below ``top_score`` when the judge announced a lower
    move, III.29); ``top_score``: the best score the program found (for bonuses,
    III.24); ``scores``: every player's points — a player of the game absent from it
    scored 0; ``bonuses``: the bonuses awarded (``round_bonuses``, or as stored).
    """

    number: int
    master_score: int
    top_score: int
    scores: Mapping[K, int]
    bonuses: Mapping[K, int] = field(default_factory=dict)


@dataclass(frozen=True)
class GameStanding(Generic[K]):
    """One player's line in a game's standings (III.23, III.24, III.26, III.28).

    ``position``: 1-based, shared by tied players; ``total`` = ``round_total`` +
    ``bonus_total``, in points; ``master_total``: the masters' points summed (the
    same for every player); ``percentage``: ``100 * round_total / master_total``
    (bonuses excluded; 0.0 if ``master_total`` is 0; above 100 possible, III.29);
    ``per_round`` / ``bonuses_per_round``: points per round in round order;
    ``equal_master``, ``sole_top``, ``max_deficit``: the III.28 counts (module doc).
    """

    player: K
    position: int
    total: int
    round_total: int
    bonus_total: int
    master_total: int
    percentage: float
    per_round: tuple[int, ...]
    bonuses_per_round: tuple[int, ...]
    equal_master: int
    sole_top: int
    max_deficit: int


def running_totals(rounds: Sequence[RoundResult[K]], player: K) -> tuple[int, ...]:
    """``player``'s running total after each round of ``rounds`` (in their order), in
    points: the round's score plus the bonus awarded in that round.

    The one convention for every screen and sheet: a bonus counts in the round it was
    awarded (III.24), so the running total after the last round equals the player's
    ``total`` in the game standings (III.23: the final table is the sum of every move's
    points, with the bonuses of III.24).
    """
    totals = []
    running = 0
    for result in rounds:
        running += result.scores.get(player, 0) + result.bonuses.get(player, 0)
        totals.append(running)
    return tuple(totals)


def partial_standings(players: Sequence[K], rounds: Sequence[RoundResult[K]], through_round: int, *,
                      tie_breaks: bool = False) -> list[GameStanding[K]]:
    """The partial standings after round ``through_round`` (III.26; FISE shows them every
    3 rounds): ``game_standings`` of the rounds numbered up to it, with the same order and
    the same III.28 tie-breaks as the game standings. Every screen and sheet uses this."""
    return game_standings(players, [result for result in rounds if result.number <= through_round],
                          tie_breaks=tie_breaks)


def game_standings(players: Sequence[K], rounds: Sequence[RoundResult[K]], *,
                   tie_breaks: bool = False) -> list[GameStanding[K]]:
    """Standings of one game: every player of ``players``, best first.

    Ordered by ``total`` (points plus bonuses, III.23, III.24), descending; with
    ``tie_breaks`` (III.28, announced beforehand) ties are then broken by more
    ``equal_master``, more ``sole_top``, smaller ``max_deficit``. Players still
    equal share a position and keep the order of ``players``.

    Raises ``ValueError`` if ``players`` repeats a player, or a round has points or
    bonuses for a player not in ``players``.
    """
    _check_players(players)
    _check_rounds(set(players), rounds)
    masters = [result.master_score for result in rounds]
    master_total = sum(masters)
    sole_tops = Counter(top for result in rounds if (top := _sole_top(result.scores)) is not _NOBODY)
    lines = []
    for player in players:
        per_round = tuple(result.scores.get(player, 0) for result in rounds)
        bonuses = tuple(result.bonuses.get(player, 0) for result in rounds)
        round_total = sum(per_round)
        bonus_total = sum(bonuses)
        equal_master = 0
        max_deficit = 0
        for points, master in zip(per_round, masters):
            if points >= master:
                equal_master += 1
            elif master - points > max_deficit:
                max_deficit = master - points
        lines.append(GameStanding(
            player=player,
            position=0,
            total=round_total + bonus_total,
            round_total=round_total,
            bonus_total=bonus_total,
            master_total=master_total,
            percentage=_percentage(round_total, master_total),
            per_round=per_round,
            bonuses_per_round=bonuses,
            equal_master=equal_master,
            sole_top=sole_tops[player],
            max_deficit=max_deficit,
        ))

    def key(line: GameStanding[K]) -> tuple[int, ...]:
        if tie_breaks:
            return (-line.total, -line.equal_master, -line.sole_top, line.max_deficit)
        return (-line.total,)

    return [replace(line, position=position) for position, line in _ranked(lines, key)]


def tied_on_total(lines: Sequence[GameStanding[K]]) -> frozenset[K]:
    """The players of ``lines`` whose total another player shares: the only ones whose
    III.28 counts a tie-break can use (issue 25 §5: a screen or sheet shows the tie
    criteria for them only; an untied player's place owes them nothing)."""
    counts = Counter(line.total for line in lines)
    return frozenset(line.player for line in lines if counts[line.total] > 1)


_NOBODY = object()


def _sole_top(scores: Mapping[K, int]) -> object:
    """The only player with the best points (above 0) of a round, else ``_NOBODY``."""
    best = max(scores.values(), default=0)
    if best <= 0:
        return _NOBODY
    leaders = [player for player, points in scores.items() if points == best]
    return leaders[0] if len(leaders) == 1 else _NOBODY


def _percentage(points: int, master_points: int) -> float:
    return 100.0 * points / master_points if master_points else 0.0


def _check_players(players: Sequence[K]) -> None:
    repeated = [player for player, count in Counter(players).items() if count > 1]
    if repeated:
        raise ValueError(f"jugadores repetidos: {repeated!r}")


def _check_rounds(members: set[K], rounds: Sequence[RoundResult[K]]) -> None:
    for result in rounds:
        for mapping in (result.scores, result.bonuses):
            if not members.issuperset(mapping):
                strangers = [player for player in mapping if player not in members]
                raise ValueError(f"ronda {result.number}: puntos de jugadores que no juegan la partida: {strangers!r}")


_Row = TypeVar("_Row")


def _ranked(rows: Sequence[_Row], key: Callable[[_Row], tuple[int, ...]]) -> list[tuple[int, _Row]]:
    """``(position, row)`` best first: sorted by ``key`` ascending (stable), equal keys
    sharing the position of the first of them (1, 2, 2, 4)."""
    keyed = sorted(((key(row), index) for index, row in enumerate(rows)))
    ranked = []
    position, previous = 0, None
    for place, (current, index) in enumerate(keyed, start=1):
        if current != previous:
            position, previous = place, current
        ranked.append((position, rows[index]))
    return ranked
