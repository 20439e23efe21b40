"""Bonuses (III.24): ``BonusMode`` and ``BonusPolicy`` (what the judge announced before the
game), ``round_bonuses`` (the bonuses of one round under a policy: automatic — to the
only player reaching the program's top score, else to the only best above 0 — or
manual, to the only best above 0) and ``bonus_warnings`` (Spanish: when a policy goes
against III.24's advice). Pure functions over plain values; players are opaque hashable
keys. Re-exported by ``duplicate.rules.game_standings``.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import TypeVar

from data.rules import AUTOMATIC_BEST_BONUS, AUTOMATIC_MASTER_BONUS, BONUS_LIMIT, FEW_PLAYERS, MANUAL_BONUS_VALUES

__all__ = ["BonusMode", "BonusPolicy", "bonus_warnings", "round_bonuses"]

K = TypeVar("K", bound=Hashable)


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
