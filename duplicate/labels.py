"""The Spanish names the users read, in one place for the app, the command line and the
published sheets (issue 12 §2): statuses, roles, criteria, actions; and the one format of a
decimal number shown to people (``spanish_number``, issue 35 §1).

Each table maps a code (the value stored and exported) to its Spanish name; an unknown
code is shown as it is (``label``).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime

from duplicate.rules.bonuses import BonusMode
from duplicate.rules.slips import SlipStatus
from duplicate.rules.statuses import ClaimStatus, ConflictKind, EntryStatus, GameStatus
from duplicate.rules.tournament_standings import TournamentCriterion

ANNULLED = "annulled"
"""Slip status of a move equal to a master found wrong later (III.29)."""

SLIP_STATUS: Mapping[str, str] = {
    SlipStatus.VALID.value: "válida",
    SlipStatus.SYNTAX.value: "notación ilegible",
    SlipStatus.OFF_BOARD.value: "fuera del tablero",
    SlipStatus.MISPLACED.value: "mal colocada",
    SlipStatus.NOT_CONNECTED.value: "no conectada",
    SlipStatus.NOT_IN_RACK.value: "fichas que no están en el atril",
    SlipStatus.UNMARKED_BLANK.value: "comodín sin marcar",
    SlipStatus.INVALID_WORD.value: "palabra no válida",
    SlipStatus.LATE.value: "fuera de tiempo",
    SlipStatus.NULL.value: "papeleta nula",
    SlipStatus.MISSING.value: "sin papeleta",
    ANNULLED: "maestra anulada",
}
"""Slip statuses (III.20, III.23, III.25, III.29)."""

GAME_STATUS: Mapping[str, str] = {
    GameStatus.SETUP.value: "en preparación",
    GameStatus.PLAYING.value: "en juego",
    GameStatus.ENDED.value: "terminada, sin publicar",
    GameStatus.PROVISIONAL.value: "resultados provisionales",
    GameStatus.FINAL.value: "resultados definitivos",
}
"""Game statuses (III.26, IV.32)."""

ENTRY_STATUS: Mapping[str, str] = {
    EntryStatus.ACTIVE.value: "activo",
    EntryStatus.WITHDRAWN.value: "retirado",
    EntryStatus.ABSENT.value: "ausente",
    EntryStatus.DISQUALIFIED.value: "descalificado",
}
"""A player's status in a tournament."""

CONFLICT_KIND: Mapping[str, str] = {
    ConflictKind.DUPLICATE.value: "papeleta repetida",
    ConflictKind.DOUBLE_ENTRY.value: "doble entrada distinta",
}
"""Kinds of slip conflict: a second, different slip for a table and round; the re-typed
slip of double entry not matching the first."""

CLAIM_STATUS: Mapping[str, str] = {
    ClaimStatus.OPEN.value: "abierta",
    ClaimStatus.UPHELD.value: "aceptada",
    ClaimStatus.REJECTED.value: "rechazada",
}
"""Claim statuses (III.27)."""

CRITERION_NAMES: Mapping[str, str] = {
    TournamentCriterion.TOTAL.value: "Suma de puntos",
    TournamentCriterion.AVERAGE_PLACE.value: "Promedio de plazas (IV.31, criterio uno)",
    TournamentCriterion.AVERAGE_PERCENTAGE.value: "Promedio de porcentajes sobre la maestra (IV.31, criterio dos)",
    TournamentCriterion.DEVIATION.value: "Desviación estándar respecto a la maestra (IV.31, criterio tres)",
}
"""Tournament criteria (IV.31)."""

CRITERION_HEADINGS: Mapping[str, str] = {
    TournamentCriterion.TOTAL.value: "Total",
    TournamentCriterion.AVERAGE_PLACE.value: "Prom. plazas",
    TournamentCriterion.AVERAGE_PERCENTAGE.value: "Prom. %",
    TournamentCriterion.DEVIATION.value: "Desviación",
}
"""The heading of the value column of each tournament criterion (IV.31). The headings of
every table (issue 35 §1): «Puntos» the moves' points, bonuses apart; «Bonif.» the bonuses
(III.24); «Total» the points with the bonuses — so the sum of points criterion's value is
the «Total» column itself, shown once."""

BONUS_MODES: Mapping[str, str] = {
    BonusMode.OFF.value: "sin bonificaciones",
    BonusMode.AUTOMATIC.value: "automáticas (+10 / +5)",
    BonusMode.MANUAL.value: "manuales",
}
"""Bonus management (III.24)."""


def label(table: Mapping[str, str], code: str) -> str:
    """The Spanish name of ``code`` in ``table`` (the code itself when unknown)."""
    return table.get(code, code)




def local_time(iso: str) -> str:
    """An event's ISO time (UTC when it names no zone) as the local «dd/mm/aaaa hh:mm» a
    user reads; empty when ``iso`` is empty or not an ISO time."""
    try:
        moment = datetime.fromisoformat(iso)
    except ValueError:
        return ""
    return (moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)).astimezone().strftime(
        "%d/%m/%Y %H:%M")


def spanish_number(value: float, digits: int = 2) -> str:
    """``value`` with ``digits`` decimals and a decimal comma (Spanish): ``87,25``. The one
    format of a decimal quantity shown to people — a percentage of the master, a
    criterion's value (IV.31) — on every screen, command, page, sheet and PDF: always
    ``digits`` decimals (``43,60``, never ``43,6`` beside it; issue 35 §1)."""
    return f"{value:.{digits}f}".replace(".", ",")
