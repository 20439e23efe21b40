"""One difference between a tournament record and what its raw parts lead to.

The value both checks of ``duplicada verify`` report: the recomputation from the rules
(``duplicate.record.verify``) and the comparison with the record's own event log
(``duplicate.record.figures_check``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass

__all__ = ["Difference", "show_value"]


@dataclass(frozen=True)
class Difference:
    """One value of the record that differs from the recomputed one.

    ``where``: the place, in Spanish (``"partida 2, ronda 5, mesa 12"``,
    ``"clasificación del torneo, jugador 7"``, ``"torneo"``); ``field``: the record's
    key (``"score"``, ``"board_before"``, ...); ``recorded`` / ``expected``: the stored
    and the recomputed value (None when absent); ``message``: Spanish explanation.
    """

    where: str
    field: str
    recorded: object
    expected: object
    message: str

    def __str__(self) -> str:
        return (f"{self.where} — {self.field}: registrado {show_value(self.recorded)}, "
                f"esperado {show_value(self.expected)}. {self.message}")


def show_value(value: object) -> str:
    """``value`` as the record writes it (JSON, accents kept; anything else as its text)."""
    return json.dumps(value, ensure_ascii=False, default=str)
