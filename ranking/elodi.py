"""EloDI: the rating of duplicate play (FISE rules, section V), as a pure function.

``rate_game(contestants, settings)`` takes the players of one EloDI-valid game — each
with the rating, volatility and rated games held before it (``rating=None`` for a new
player) and the place reached in the game's final classification — and returns, per
player, the values after the game. No database, no input/output.

The algorithm is ``docs/elodi.md`` of the shared documentation, formula by formula:
the rating system of programming contests (TopCoder, "Algorithm Competition Rating
System"), as adopted by the Spanish association AJS for its duplicate rating "EloD", from
which FISE's start values 1200/535 (rules V) come. The numbers (1)–(12) in the docstrings
below are the steps of "The update, for a field of N players" in ``elodi.md``.

Two phases (``elodi.md``, "Two phases"):

1. *Rated players* (at least one earlier rated game) are updated on the **virtual
   classification**: everybody else removed, the rest renumbered in their relative order.
   With fewer than ``EloDISettings.min_rated_players`` of them nobody changes in this phase.
2. *New players* are updated on the **whole field** with the real classification, the
   rated players at their pre-game values (``EloDISettings.phase_two_rated_values``) and
   the new players at 1200/535; only the new players' results are kept.

Every choice the sources leave open (a **Decision** of ``elodi.md``) is a field of
``EloDISettings`` whose default is the documented one.

The pairwise step (3)–(4) is vectorised with numpy (``math.erf`` applied element-wise,
the same function as a scalar implementation uses); a 1,000-player game rates in well
under a second (``bench/elodi.py``).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import asdict, dataclass
from enum import StrEnum
from functools import cache
from statistics import NormalDist
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from data.rules import RATED_GAME_MIN_ROUNDS

if TYPE_CHECKING:
    # numpy is imported where a game is rated (issue 38: a read-only command such as
    # «standings» never loads it).
    import numpy as np

__all__ = [
    "Contestant",
    "EloDIError",
    "EloDISettings",
    "Outcome",
    "Phase",
    "PhaseTwoValues",
    "average_ranks",
    "rate_game",
    "round_half_up",
]

K = TypeVar("K", bound=Hashable)

START_RATING = 1200
"""Rules V: every player's EloDI before the first valid game."""
START_VOLATILITY = 535
"""Rules V: every player's volatility before the first valid game."""

_NORMAL = NormalDist()


@cache
def _erf() -> Any:
    """``math.erf`` as a numpy ufunc (made once, on first use)."""
    import numpy as np

    return np.frompyfunc(math.erf, 1, 1)


_BLOCK_ELEMENTS = 1 << 21
"""Pairwise matrix cells computed at once (bounds memory for very large fields)."""


class EloDIError(ValueError):
    """Input that cannot be rated; the message (Spanish) names the player and the value."""


class PhaseTwoValues(StrEnum):
    """Which values the rated players have when the new players are rated (phase 2)."""

    PRE_GAME = "pre_game"      # elodi.md Decision: their values before this game
    AFTER_PHASE_ONE = "after_phase_one"


class Phase(StrEnum):
    """How a player was treated in one game."""

    RATED = "rated"            # phase 1: a rated player, on the virtual classification
    NEW = "new"                # phase 2: a new player, on the whole field
    UNCHANGED = "unchanged"    # too few rated players (or players) to rate: nothing changes


@dataclass(frozen=True)
class EloDISettings:
    """The constants and the **Decisions** of ``elodi.md``; defaults are the documented ones.

    * ``start_rating`` / ``start_volatility``: 1200 / 535 (rules V);
    * ``first_game_volatility``: V' after a player's first rated game, 385 (step 11);
    * ``min_rounds``: rounds a game needs to count, 12 (AJS rule; **Decision**) — used by
      the storage service (``ranking.ratings``), not by ``rate_game``;
    * ``use_tie_breaks``: ``False`` = positions by total score, ties sharing the average
      of the places they cover; tie-break criteria decide prizes, not ratings
      (**Decision**) — used by the storage service;
    * ``min_rated_players``: with fewer rated players nobody changes in phase 1, 2
      (**Decision**); the same minimum applies to the whole field in phase 2;
    * ``phase_two_rated_values``: the rated players' values seen by the new players,
      pre-game (**Decision**);
    * ``weight_scale`` / ``weight_floor``: b = 0.42/(n + 1) + 0.18 (step 8);
    * ``weight_bands``: ``(rating threshold, factor)`` pairs, the factor of the highest
      threshold ≤ R multiplies W: ((2000, 0.9), (2500, 0.8)) (step 8);
    * ``cap_base`` / ``cap_scale``: Cap = 150 + 1500/(n + 2) (step 9);
    * ``minimum_rating``: R' is at least 1 (step 10).

    Raises ``EloDIError`` for values that make the formulas meaningless.
    """

    start_rating: int = START_RATING
    start_volatility: int = START_VOLATILITY
    first_game_volatility: int = 385
    min_rounds: int = RATED_GAME_MIN_ROUNDS
    use_tie_breaks: bool = False
    min_rated_players: int = 2
    phase_two_rated_values: PhaseTwoValues = PhaseTwoValues.PRE_GAME
    weight_scale: float = 0.42
    weight_floor: float = 0.18
    weight_bands: tuple[tuple[int, float], ...] = ((2000, 0.9), (2500, 0.8))
    cap_base: float = 150.0
    cap_scale: float = 1500.0
    minimum_rating: int = 1

    def __post_init__(self) -> None:
        object.__setattr__(self, "phase_two_rated_values", PhaseTwoValues(self.phase_two_rated_values))
        object.__setattr__(self, "weight_bands",
                           tuple(sorted((int(threshold), float(factor)) for threshold, factor in self.weight_bands)))
        if self.min_rated_players < 2:
            raise EloDIError(f"min_rated_players debe ser al menos 2 (CF divide por N − 1), no {self.min_rated_players}")
        if self.start_volatility <= 0 or self.first_game_volatility <= 0:
            raise EloDIError("las volatilidades iniciales deben ser positivas")
        if not 0 < self.weight_floor < 1 or not 0 < self.weight_scale + self.weight_floor < 1:
            raise EloDIError("el peso b = weight_scale/(n + 1) + weight_floor debe quedar entre 0 y 1")
        if self.min_rounds < 0 or self.cap_base < 0 or self.cap_scale < 0:
            raise EloDIError("min_rounds, cap_base y cap_scale no pueden ser negativos")

    def to_dict(self) -> dict[str, Any]:
        """The settings as JSON-ready values (stored with every rated game)."""
        data = asdict(self)
        data["phase_two_rated_values"] = self.phase_two_rated_values.value
        data["weight_bands"] = [list(band) for band in self.weight_bands]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> EloDISettings:
        """Settings from ``to_dict`` output; unknown keys are ignored."""
        known = {name: data[name] for name in cls.__dataclass_fields__ if name in data}
        if "weight_bands" in known:
            known["weight_bands"] = tuple(tuple(band) for band in known["weight_bands"])
        return cls(**known)


@dataclass(frozen=True)
class Contestant(Generic[K]):
    """One player of a rated game, before it.

    ``key``: any hashable identifier, unique in the game; ``position``: the place in the
    game's final classification, 1 = best, **equal for tied players** (only the order and
    the equalities matter: 1, 2, 2, 4 and 1, 2, 2, 3 rate alike); ``rating`` /
    ``volatility``: pre-game values, both ``None`` for a new player; ``games``: rated
    games before this one (0 for a new player).
    """

    key: K
    position: float
    rating: int | None = None
    volatility: int | None = None
    games: int = 0

    @property
    def is_new(self) -> bool:
        """No earlier rated game (``elodi.md``, phase 2)."""
        return self.rating is None


@dataclass(frozen=True)
class Outcome(Generic[K]):
    """One player's result of ``rate_game``.

    ``rating_before`` / ``volatility_before``: ``None`` for a new player (who starts at
    1200/535); ``target_position``: ERank (4), ``actual_position``: ARank (5), both in the
    field the player was rated in (the virtual classification for a rated player, the
    whole field for a new one; ``None`` when unchanged); ``rating_after`` /
    ``volatility_after``: rounded half up (12); ``games_after``: ``games_before + 1`` when
    rated; ``change``: ``rating_after`` minus the pre-game rating (minus the start
    rating for a new player); ``cap_bound``: the cap (9)–(10) limited the change.
    """

    key: K
    phase: Phase
    rating_before: int | None
    volatility_before: int | None
    games_before: int
    target_position: float | None
    actual_position: float | None
    rating_after: int
    volatility_after: int
    games_after: int
    change: int
    cap_bound: bool = False


def round_half_up(value: float) -> int:
    """Nearest integer, halves upwards (step 12): 1234.5 → 1235, 1234.49 → 1234."""
    return math.floor(value + 0.5)


def average_ranks(positions: Sequence[float]) -> list[float]:
    """Ranks 1..N in the order of ``positions`` (smaller is better), tied players sharing
    the average of the places they cover (``elodi.md``, "Which games count", step 5):
    ``[1, 3, 3, 4]`` → ``[1.0, 2.5, 2.5, 4.0]``."""
    order = sorted(range(len(positions)), key=lambda index: positions[index])
    ranks = [0.0] * len(positions)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and positions[order[end + 1]] == positions[order[start]]:
            end += 1
        shared = (start + 1 + end + 1) / 2
        for index in order[start:end + 1]:
            ranks[index] = shared
        start = end + 1
    return ranks


@dataclass(frozen=True)
class _Update:
    """Unrounded results of one run of the update over a field (arrays in field order)."""

    rating: np.ndarray
    volatility: np.ndarray
    expected_rank: np.ndarray
    actual_rank: np.ndarray
    cap_bound: np.ndarray


def _expected_ranks(ratings: np.ndarray, volatilities: np.ndarray) -> np.ndarray:
    """(3)–(4): ERankᵢ = ½ + Σⱼ P(j,i), P(j,i) = ½(1 + erf((Rⱼ − Rᵢ)/√(2(Vᵢ² + Vⱼ²)))), j over
    the whole field including i (P(i,i) = ½). Computed in column blocks of the N×N matrix."""
    import numpy as np

    count = len(ratings)
    squares = volatilities ** 2
    ranks = np.empty(count)
    block = max(1, _BLOCK_ELEMENTS // max(count, 1))
    for start in range(0, count, block):
        stop = min(count, start + block)
        scaled = (ratings[:, None] - ratings[None, start:stop]) / np.sqrt(2.0 * (squares[:, None] + squares[None, start:stop]))
        probabilities = 0.5 * (1.0 + _erf()(scaled).astype(float))
        ranks[start:stop] = 0.5 + probabilities.sum(axis=0)
    return ranks


def _update(ratings: np.ndarray, volatilities: np.ndarray, games: np.ndarray, positions: Sequence[float],
            settings: EloDISettings) -> _Update:
    """Steps (1)–(11) of ``elodi.md`` for one field of N ≥ 2 players (unrounded)."""
    import numpy as np

    count = len(ratings)
    mean = ratings.mean()                                                                    # (1)
    competition = math.sqrt(float((volatilities ** 2).sum()) / count
                            + float(((ratings - mean) ** 2).sum()) / (count - 1))            # (2)
    expected_rank = _expected_ranks(ratings, volatilities)                                   # (3)–(4)
    actual_rank = np.array(average_ranks(positions))                                         # (5)
    expected_perf = np.array([-_NORMAL.inv_cdf((rank - 0.5) / count) for rank in expected_rank])   # (6)
    actual_perf = np.array([-_NORMAL.inv_cdf((rank - 0.5) / count) for rank in actual_rank])
    performed_as = ratings + competition * (actual_perf - expected_perf)                    # (7)
    base = settings.weight_scale / (games + 1) + settings.weight_floor                       # (8)
    weight = base / (1 - base)
    for threshold, factor in settings.weight_bands:
        weight = np.where(ratings >= threshold, base / (1 - base) * factor, weight)
    cap = settings.cap_base + settings.cap_scale / (games + 2)                               # (9)
    unclamped = (ratings + weight * performed_as) / (1 + weight)                             # (10)
    new_rating = np.clip(unclamped, ratings - cap, ratings + cap)
    cap_bound = new_rating != unclamped
    new_rating = np.maximum(new_rating, settings.minimum_rating)
    new_volatility = np.where(games >= 1,                                                    # (11)
                              np.sqrt((new_rating - ratings) ** 2 / weight + volatilities ** 2 / (1 + weight)),
                              float(settings.first_game_volatility))
    return _Update(new_rating, new_volatility, expected_rank, actual_rank, cap_bound)


def _check(contestants: Sequence[Contestant[K]]) -> None:
    seen: set[K] = set()
    for player in contestants:
        if player.key in seen:
            raise EloDIError(f"el jugador {player.key!r} aparece dos veces en la partida")
        seen.add(player.key)
        if not isinstance(player.position, int | float) or not math.isfinite(player.position) or player.position < 1:
            raise EloDIError(f"{player.key!r}: la posición debe ser un número ≥ 1, no {player.position!r}")
        if player.games < 0:
            raise EloDIError(f"{player.key!r}: las partidas valoradas no pueden ser negativas ({player.games})")
        if player.rating is None:
            if player.volatility is not None or player.games != 0:
                raise EloDIError(f"{player.key!r}: un jugador nuevo (sin EloDI) no puede tener volatilidad "
                                 f"({player.volatility!r}) ni partidas valoradas ({player.games})")
        else:
            if player.volatility is None or player.volatility <= 0:
                raise EloDIError(f"{player.key!r}: un jugador con EloDI necesita una volatilidad positiva, "
                                 f"no {player.volatility!r}")
            if player.games < 1:
                raise EloDIError(f"{player.key!r}: un jugador con EloDI {player.rating} debe tener al menos una "
                                 "partida valorada (sin partidas, EloDI y volatilidad son nulos)")
            if player.rating < 1:
                raise EloDIError(f"{player.key!r}: el EloDI debe ser positivo, no {player.rating}")


def _canonical(contestants: Sequence[Contestant[K]]) -> list[int]:
    """Indices of ``contestants`` in an order that depends only on their values, so that
    the floating-point sums, and so the results, do not depend on the input order."""
    def value(index: int) -> tuple[float, int, int, int, int]:
        player = contestants[index]
        return (player.position, 0 if player.is_new else 1, player.rating or 0, player.volatility or 0, player.games)
    return sorted(range(len(contestants)), key=value)


def rate_game(contestants: Sequence[Contestant[K]], settings: EloDISettings | None = None) -> list[Outcome[K]]:
    """Rate one EloDI-valid game (``elodi.md``: two phases, steps (1)–(12)).

    ``contestants``: every player rated in the game (withdrawn, absent or disqualified
    players already left out), in any order. Returns one ``Outcome`` per contestant, in
    the input order. The result does not depend on the input order.

    Raises ``EloDIError`` (a ``ValueError``) for a repeated key, a position below 1, a
    new player with a volatility or rated games, or a rated player without a positive
    rating, a positive volatility and at least one rated game.
    """
    import numpy as np

    settings = settings or EloDISettings()
    _check(contestants)
    order = _canonical(contestants)
    players = [contestants[index] for index in order]
    outcomes: dict[int, Outcome[K]] = {}

    rated = [index for index, player in enumerate(players) if not player.is_new]
    after_phase_one: dict[int, tuple[int, int]] = {}
    if len(rated) >= settings.min_rated_players:
        field_players = [players[index] for index in rated]
        result = _update(np.array([float(p.rating or 0) for p in field_players]),
                         np.array([float(p.volatility or 0) for p in field_players]),
                         np.array([p.games for p in field_players], dtype=float),
                         [p.position for p in field_players], settings)
        for slot, index in enumerate(rated):
            player = players[index]
            rating, volatility = round_half_up(result.rating[slot]), round_half_up(result.volatility[slot])
            after_phase_one[index] = (rating, volatility)
            outcomes[index] = Outcome(player.key, Phase.RATED, player.rating, player.volatility, player.games,
                                      float(result.expected_rank[slot]), float(result.actual_rank[slot]),
                                      rating, volatility, player.games + 1, rating - int(player.rating or 0),
                                      bool(result.cap_bound[slot]))
    for index in rated:
        if index not in outcomes:
            player = players[index]
            outcomes[index] = Outcome(player.key, Phase.UNCHANGED, player.rating, player.volatility, player.games,
                                      None, None, int(player.rating or 0), int(player.volatility or 0), player.games, 0)

    new = [index for index, player in enumerate(players) if player.is_new]
    if new and len(players) >= settings.min_rated_players:
        ratings, volatilities = [], []
        for index, player in enumerate(players):
            if player.is_new:
                ratings.append(float(settings.start_rating))
                volatilities.append(float(settings.start_volatility))
            elif settings.phase_two_rated_values is PhaseTwoValues.AFTER_PHASE_ONE and index in after_phase_one:
                ratings.append(float(after_phase_one[index][0]))
                volatilities.append(float(after_phase_one[index][1]))
            else:
                ratings.append(float(player.rating or 0))
                volatilities.append(float(player.volatility or 0))
        games = np.array([0.0 if player.is_new else float(player.games) for player in players])
        result = _update(np.array(ratings), np.array(volatilities), games, [p.position for p in players], settings)
        for index in new:
            rating = round_half_up(result.rating[index])
            outcomes[index] = Outcome(players[index].key, Phase.NEW, None, None, 0, float(result.expected_rank[index]),
                                      float(result.actual_rank[index]), rating, round_half_up(result.volatility[index]),
                                      1, rating - settings.start_rating, bool(result.cap_bound[index]))
    for index in new:
        if index not in outcomes:
            outcomes[index] = Outcome(players[index].key, Phase.UNCHANGED, None, None, 0, None, None,
                                      settings.start_rating, settings.start_volatility, 0, 0)

    by_input = {original: outcomes[slot] for slot, original in enumerate(order)}
    return [by_input[index] for index in range(len(contestants))]
