"""The rule settings of a tournament, fixed before play (III.24, III.28, IV.31, II.8)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from data.rules import PARTIAL_STANDINGS_EVERY, ROUND_SECONDS
from duplicate.bounds import BONUS_MAX, ROUND_SECONDS_MAX, NumberError, checked_int
from duplicate.rules.bonuses import BonusMode, BonusPolicy
from duplicate.rules.tournament_standings import TournamentCriterion
from duplicate.service.errors import DamagedData, InvalidInput, InvalidNumber, TournamentError


class DamagedSettings(DamagedData):
    """The settings stored with a tournament cannot be read back (not a JSON object, a value
    of the wrong kind or out of range): the database was damaged or edited by hand."""


_STORED_BEFORE: dict[str, Any] = {"oriented_notation": True}
"""Settings whose default changed: the value a tournament stored without the key was played
with (II.8: oriented notation accepted by default until issue 35 §5)."""


@dataclass(frozen=True)
class TournamentSettings:
    """Rule settings fixed before the event (III.24, III.28, IV.31, III.20.1.b, II.8).

    ``bonus_mode``/``bonus_value``: III.24 (value used in manual mode; 5 or 10 advised,
    ``bonus_warnings`` says so otherwise);
    ``criterion``: IV.31 ranking of the tournament; ``tie_breaks``: III.28 in game
    standings (and, IV.31, in the tournament's: prizes that cannot be shared);
    ``oriented_notation``: slips in oriented notation (III.20.1.b) accepted — II.8: only
    when the organiser admits it, as an addition to the canonical notation; off by default
    (issue 35 §5); ``from_dict`` reads settings stored without the key as they were played,
    with it on (``_STORED_BEFORE``);
    ``board_notation``: slips written on a paper board accepted (II.8: only when the
    organiser admits it, as an addition to the canonical notation; III.20.1.c–d; off by
    default, and off for tournaments stored before the setting existed);
    ``partial_every``: rounds between partial standings (FISE: 3);
    ``seconds_per_round``: default round time (III.13: 180);
    ``venue_bonuses``: in an event played in several venues (issue 27 §2,
    ``duplicate.service.venues``), each venue's bonuses (III.24) awarded among its own
    players instead of over the whole field (the default);
    ``corrections_after_final``: IV.32 says final results «no podrán ser modificados»: off
    (the default, also for tournaments stored before the setting), a final game is never
    reopened nor its slips, claims or masters changed; on, the organiser admits corrections
    after final results: the judge may reopen a final game, with a reason kept in the log.
    """

    bonus_mode: str = BonusMode.OFF.value
    bonus_value: int = 10
    criterion: str = TournamentCriterion.TOTAL.value
    tie_breaks: bool = False
    oriented_notation: bool = False
    board_notation: bool = False
    partial_every: int = PARTIAL_STANDINGS_EVERY
    seconds_per_round: int = ROUND_SECONDS
    venue_bonuses: bool = False
    corrections_after_final: bool = False

    def __post_init__(self) -> None:
        try:
            BonusMode(self.bonus_mode)
        except ValueError as error:
            raise InvalidInput(f"bonificación {self.bonus_mode!r} desconocida: se espera "
                                  f"{', '.join(mode.value for mode in BonusMode)}",
                                  what="la bonificación", value=self.bonus_mode) from error
        try:
            checked_int(self.bonus_value, "el valor de la bonificación", maximum=BONUS_MAX)
            checked_int(self.partial_every, "las rondas entre clasificaciones parciales")
            checked_int(self.seconds_per_round, "los segundos por ronda", maximum=ROUND_SECONDS_MAX)
        except NumberError as error:
            raise InvalidNumber(str(error), what=error.what, value=None) from error
        try:
            TournamentCriterion(self.criterion)
        except ValueError as error:
            raise InvalidInput(f"criterio de clasificación {self.criterion!r} desconocido: se espera "
                                  f"{', '.join(c.value for c in TournamentCriterion)}",
                                  what="el criterio de clasificación", value=self.criterion) from error

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TournamentSettings:
        """The settings stored as ``data`` (unknown keys ignored); ``DamagedSettings`` when
        they are not an object or a value is not of its kind or range (a damaged database)."""
        if not isinstance(data, dict):
            raise DamagedSettings(f"los criterios guardados del torneo están dañados (se esperaba un objeto JSON, "
                                  f"no {type(data).__name__}): restaure una copia de la base de datos")
        known = {name: data[name] for name in cls.__dataclass_fields__ if name in data}
        known.update({name: value for name, value in _STORED_BEFORE.items() if name not in data})
        try:
            return cls(**known)
        except (TournamentError, TypeError) as error:
            raise DamagedSettings(f"los criterios guardados del torneo están dañados ({error}): restaure una copia "
                                  "de la base de datos") from None

    @property
    def bonus_policy(self) -> BonusPolicy:
        return BonusPolicy(BonusMode(self.bonus_mode), self.bonus_value)
