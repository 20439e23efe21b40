"""Bonuses, game standings and tournament standings (rules III.23, III.24, III.28, IV.31).

Pure functions over plain values: a game is a sequence of ``RoundResult`` (the
master's score, the best score the program found, every player's points and the
bonuses already awarded); players are opaque hashable keys (ids).

* ``round_bonuses`` awards the bonuses of one round under a ``BonusPolicy`` (III.24);
  ``bonus_warnings`` says, in Spanish, when a policy goes against III.24's advice.
* ``game_standings`` classifies one game (III.23, III.26), optionally breaking ties
  with the three criteria of III.28.
* ``tournament_standings`` classifies a tournament by one of the criteria of IV.31;
  only when asked (``tie_breaks``: "en caso de que exista la necesidad de deshacer los
  empates … debido a que se entreguen premios que no puedan ser compartidos") it breaks
  the ties that remain with III.28 over all its rounds as if one game.

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

import math
from collections import Counter
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Generic, TypeVar

from data.rules import AUTOMATIC_BEST_BONUS, AUTOMATIC_MASTER_BONUS, BONUS_LIMIT, FEW_PLAYERS, MANUAL_BONUS_VALUES

__all__ = [
    "AUTOMATIC_BEST_BONUS",
    "AUTOMATIC_MASTER_BONUS",
    "BonusMode",
    "BonusPolicy",
    "GameStanding",
    "RoundResult",
    "TournamentCriterion",
    "TournamentStanding",
    "bonus_warnings",
    "game_standings",
    "partial_standings",
    "round_bonuses",
    "running_totals",
    "tied_on_total",
    "tournament_standings",
]

K = TypeVar("K", bound=Hashable)



# --- bonuses (III.24) -----------------------------------------------------------------


class BonusMode(StrEnum):
    """How bonuses are awarded (III.24); the values are stable storage codes."""

    AUTOMATIC = "automatic"
    MANUAL = "manual"
    OFF = "off"


@dataclass(frozen=True)
class BonusPolicy:
    """The bonus rules the judge announced before the game (III.24).

    ``mode``; ``manual_value``: points of the manual bonus (the rules say 5 or 10;
    other positive values are accepted and warned about by ``bonus_warnings``);
    ``master_value`` / ``best_value``: the automatic bonuses (10 and 5 by default).
    Raises ``ValueError`` for a value below 1.
    """

    mode: BonusMode = BonusMode.OFF
    manual_value: int = 10
    master_value: int = AUTOMATIC_MASTER_BONUS
    best_value: int = AUTOMATIC_BEST_BONUS

    def __post_init__(self) -> None:
        object.__setattr__(self, "mode", BonusMode(self.mode))
        for name in ("manual_value", "master_value", "best_value"):
            if getattr(self, name) < 1:
                raise ValueError(f"el valor de la bonificación ({name}) debe ser positivo: {getattr(self, name)}")

    @property
    def largest_value(self) -> int:
        """The largest bonus a player can get in one round under this policy (0 if off)."""
        if self.mode is BonusMode.AUTOMATIC:
            return max(self.master_value, self.best_value)
        if self.mode is BonusMode.MANUAL:
            return self.manual_value
        return 0


def round_bonuses(top_score: int, scores: Mapping[K, int], policy: BonusPolicy) -> dict[K, int]:
    """The bonuses of one round (III.24): ``{player: points}``, empty when none.

    ``top_score``: the best score the program found this round (the score of the
    "jugada o jugadas maestras generadas por el programa"); ``scores``: every player's
    points this round (0 for invalid, late, null or missing slips).

    * ``AUTOMATIC``: ``master_value`` (10) to the only player whose points reach
      ``top_score`` (above 0: a round where the program found no move, III.29, gives
      no bonus); if two or more reach it, nobody gets a bonus (and no 5 either:
      somebody did equal it). If nobody reaches it, ``best_value`` (5) to the only
      player with the best points, provided they are above 0; a shared best gets none.
    * ``MANUAL``: ``manual_value`` to the only player with the best points of the
      round, above 0 (``top_score`` is not used: III.24 "la máxima puntuación en una
      jugada").
    * ``OFF``: no bonuses.
    """
    if policy.mode is BonusMode.OFF or not scores:
        return {}
    if policy.mode is BonusMode.AUTOMATIC and top_score <= 0:
        return {}
    if policy.mode is BonusMode.AUTOMATIC:
        at_top = [player for player, points in scores.items() if points >= top_score]
        if len(at_top) == 1:
            return {at_top[0]: policy.master_value}
        if at_top:
            return {}
        value = policy.best_value
    else:
        value = policy.manual_value
    best = max(scores.values())
    if best <= 0:
        return {}
    leaders = [player for player, points in scores.items() if points == best]
    return {leaders[0]: value} if len(leaders) == 1 else {}


def bonus_warnings(player_count: int, policy: BonusPolicy, rounds: int | None = None) -> list[str]:
    """Spanish warnings when bonuses go against the advice of III.24 (empty when fine
    or when bonuses are off).

    * ``player_count`` of 10 or fewer;
    * a bonus **value** above 25 points — read per bonus, as the value the judge
      announces (III.24 "que las bonificaciones no excedan el valor de 25 puntos"),
      not as a player's possible total; with ``rounds`` given the warning also states
      the most one player could gain in the game (``rounds`` × the largest value);
    * values other than the recommended ones (manual 5 or 10, automatic 10 and 5).

    Raises ``ValueError`` for a negative ``player_count`` or ``rounds``.
    """
    if player_count < 0 or (rounds is not None and rounds < 0):
        raise ValueError(f"número de jugadores o de rondas negativo: {player_count}, {rounds}")
    if policy.mode is BonusMode.OFF:
        return []
    warnings = []
    if player_count <= FEW_PLAYERS:
        warnings.append(
            f"se desaconsejan las bonificaciones en partidas de {FEW_PLAYERS} jugadores o menos "
            f"(hay {player_count}; III.24)"
        )
    largest = policy.largest_value
    if largest > BONUS_LIMIT:
        text = f"una bonificación de {largest} puntos excede el valor de {BONUS_LIMIT} que recomienda III.24"
        if rounds is not None:
            text += f"; en {rounds} rondas un jugador podría sumar hasta {rounds * largest} puntos de bonificación"
        warnings.append(text)
    if policy.mode is BonusMode.MANUAL and policy.manual_value not in MANUAL_BONUS_VALUES:
        warnings.append(
            f"en la gestión manual III.24 prevé una bonificación de 5 o 10 puntos, no de {policy.manual_value}"
        )
    if policy.mode is BonusMode.AUTOMATIC and (policy.master_value, policy.best_value) != (
        AUTOMATIC_MASTER_BONUS, AUTOMATIC_BEST_BONUS
    ):
        warnings.append(
            f"en la gestión automática III.24 recomienda {AUTOMATIC_MASTER_BONUS} puntos al único que iguala la "
            f"maestra y {AUTOMATIC_BEST_BONUS} al único mejor si nadie la iguala, no {policy.master_value} y "
            f"{policy.best_value}"
        )
    return warnings


# --- one game (III.23, III.28) --------------------------------------------------------


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


# --- tournaments (IV.31) --------------------------------------------------------------


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
