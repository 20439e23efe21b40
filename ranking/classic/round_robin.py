"""Round robins by the FIDE rules: Berger tables, double round robins, withdrawals, byes.

* Pairings are the Berger tables (C.06 9.d; gacrux's, ``engines.berger_schedule``). A double
  round robin plays them twice, the second cycle with the colours reversed, "adjusted when
  necessary" (C.06 9.d): when someone would have the same colour three times running where
  the cycles meet, the last two rounds of the first cycle change places (the FIDE
  recommendation, C.05 Annex 1); where that is not enough, with few rounds, the first order
  of the first cycle's rounds that avoids it. With 4 players no order can (a player must
  alternate colours within the 3-round cycle, and two who do cannot have met): the swap.
* A player who has withdrawn (C.06 11) is not paired: each of their remaining games is not
  played and is marked "-" for them, "+" for the opponent (a forfeit board without a table);
  both withdrawn: "-" for both.
* A bye asked for a round takes the player out of that round: their game is not played and
  is marked as C.06 11 marks unplayed round-robin games, "-" for them and "+" for the
  opponent the table gave them (a forfeit board without a table; both asked, or one asked
  and the other withdrawn: "-" for both). C.04.2 D.4's zero for an announced absence; a
  half-point bye is a Swiss division's only (``Divisions.request_bye``).
* C.06 11: a player who withdraws having completed less than 50 % of their games keeps their
  results in the crosstable (for rating and history), but the points won by them or against
  them are not counted in the final standings (``annulled``); from 50 % on everything counts.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from itertools import permutations

from ranking.classic.engines import berger_schedule
from ranking.classic.pairing_rules import Pair
from ranking.classic.standings import Board, Seeded


def round_robin_schedule(players: int, cycles: int = 1) -> list[list[Pair]]:
    """The rounds of a round robin of ``players`` (≥ 2) in ``cycles`` (1 or 2) cycles: one
    list of pairs per round, first moves first, ``Pair(n, 0)`` the bye of an odd number.
    Raises ``ValueError`` below 2 players or for another number of cycles."""
    if cycles not in (1, 2):
        raise ValueError("un todos contra todos se juega a una o a dos vueltas")
    first = berger_schedule(players)
    if cycles == 1:
        return first
    swapped = first[:-2] + [first[-1], first[-2]] if len(first) >= 2 else first
    orders = [first, swapped] + ([list(order) for order in permutations(first)] if len(first) <= 6 else [])
    for order in orders:
        schedule = _with_return_cycle(order)
        if not _three_running(schedule, players):
            return schedule
    return _with_return_cycle(swapped)


def _with_return_cycle(first: list[list[Pair]]) -> list[list[Pair]]:
    """The cycle ``first`` then the same rounds with the colours reversed."""
    return first + [[pair if pair.is_bye else Pair(pair.second, pair.first) for pair in pairs] for pairs in first]


def _three_running(schedule: Sequence[Sequence[Pair]], players: int) -> bool:
    """Someone moves first (or second) in three games running, byes skipped (C.04.2 D.5)."""
    for number in range(1, players + 1):
        colours = "".join("w" if pair.first == number else "b" for pairs in schedule for pair in pairs
                          if number in (pair.first, pair.second) and not pair.is_bye)
        if "www" in colours or "bbb" in colours:
            return True
    return False


@dataclass(frozen=True)
class RoundRobinRound:
    """One round of a round robin as it is stored: ``pairs`` to play (``Pair(n, 0)``: the
    bye) and ``unplayed`` games with the side that did not play (``first``, ``second``,
    ``both``)."""

    pairs: list[Pair]
    unplayed: list[tuple[Pair, str]]


def round_robin_round(scheduled: Sequence[Pair], *, withdrawn: Collection[int],
                      asked: Collection[int]) -> RoundRobinRound:
    """The round the table ``scheduled`` gives, with the ``withdrawn`` players (not paired,
    their games lost by forfeit) and those who ``asked`` for a bye this round (not paired,
    their games lost by forfeit as well, C.06 11) taken out (see the module docstring)."""
    pairs: list[Pair] = []
    unplayed: list[tuple[Pair, str]] = []
    out = set(withdrawn) | set(asked)
    for pair in scheduled:
        if pair.is_bye:
            if pair.first not in out:
                pairs.append(pair)
            continue
        first_gone, second_gone = pair.first in out, pair.second in out
        if first_gone or second_gone:
            unplayed.append((pair, "both" if first_gone and second_gone else "first" if first_gone else "second"))
        else:
            pairs.append(pair)
    return RoundRobinRound(pairs, unplayed)


def annulled(players: Sequence[Seeded], boards: Sequence[Board], *, cycles: int = 1) -> set[int]:
    """The withdrawn players whose results do not count in the final standings (C.06 11):
    fewer than half of their games (``cycles`` × (players − 1)) completed over the board."""
    games = cycles * (len(players) - 1)
    result = set()
    for player in players:
        if player.withdrawn_round is None:
            continue
        completed = sum(1 for b in boards if player.number in (b.first, b.second) and b.second
                        and b.forfeit is None and b.first_score is not None)
        if completed * 2 < games:
            result.add(player.number)
    return result


def counted_boards(boards: Sequence[Board], annulled_players: Collection[int],
                   schedule: Sequence[Sequence[Pair]] | None = None) -> list[Board]:
    """``boards`` without the games of ``annulled_players`` — played, forfeited, and the
    byes their opponents got because they were gone (found in ``schedule``)."""
    gone = set(annulled_players)
    instead: set[tuple[int, int]] = set()          # (round, player) byes given for a game with someone gone
    for number, pairs in enumerate(schedule or (), start=1):
        for pair in pairs:
            if pair.first in gone and pair.second:
                instead.add((number, pair.second))
            if pair.second in gone:
                instead.add((number, pair.first))
    return [b for b in boards if b.first not in gone and b.second not in gone
            and not (b.second == 0 and (b.round, b.first) in instead)]


def bye_requests(absences: Mapping[tuple[int, int], str], number: int) -> set[int]:
    """The players who asked for a bye in round ``number`` (``absences``: (player, round) →
    ``H``/``Z``)."""
    return {player for player, round_number in absences if round_number == number}
