"""What the assistant reads after entering a slip: the score, or why the slip scores 0
and what the player probably meant (III.20, III.23, III.25), a repeated entry, a
conflict left to the judge, or an error — plus the Spanish names of the slip statuses.

``SlipFeedback`` is a plain view: the screen sets its ``feedback`` attribute to a
``Feedback`` built by ``entry_feedback``/``master_feedback``/``error_feedback``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from duplicate.labels import SLIP_STATUS, label
from duplicate.rules.notation import LOWERCASE_HINT
from duplicate.rules.slips import MARKED_STATUSES
from duplicate.service.views import EntryResult, SetAsideSlipView


def status_name(status: str) -> str:
    """The Spanish name of a stored slip status (the code itself if unknown)."""
    return label(SLIP_STATUS, status)


@dataclass(frozen=True)
class Feedback:
    """One message for the assistant: ``kind`` is ``ok`` (points scored), ``zero`` (a
    slip scoring 0), ``repeated``, ``conflict``, ``error`` or ``info``; ``headline``
    the first line; ``details`` further lines (reason, hint)."""

    kind: str
    headline: str
    details: tuple[str, ...] = field(default=())


KIND_STYLES = {
    "ok": "bold green",
    "zero": "bold yellow",
    "repeated": "bold cyan",
    "conflict": "bold white on dark_red",
    "error": "bold red",
    "info": "bold",
}


def entry_feedback(result: EntryResult) -> Feedback:
    """The feedback for one slip entered, marked or corrected."""
    verdict = result.verdict
    who = f"Mesa {result.table} · {result.player} · ronda {result.round_number}"
    if result.outcome == "conflict":
        detail = (f"Ya hay otra papeleta anotada para este jugador en esta ronda: la nueva ({_what(result)}) "
                  "queda pendiente para el juez árbitro; no se ha cambiado nada.")
        return Feedback("conflict", f"CONFLICTO nº {result.conflict_id} — {who}", (detail,))
    if result.outcome == "repeated":
        return Feedback("repeated", f"{who}: ya estaba anotada igual ({_what(result)}); sin cambios")
    if result.outcome == "checked":
        return Feedback("ok", f"Comprobada: {who} · coincide con la anotada ({_what(result)})")
    prefix = "Corregida: " if result.outcome == "corrected" else ""
    if verdict.valid:
        return Feedback("ok", f"{prefix}{who} · {verdict.canonical} → {verdict.score} puntos")
    details = [verdict.reason] if verdict.reason else []
    if verdict.hint:
        details.append(f"Sugerencia: {verdict.hint}")
    why = "" if verdict.status in MARKED_STATUSES else f" ({status_name(verdict.status.value)})"
    return Feedback("zero", f"{prefix}{who} · {_what(result)} → 0 puntos{why}", tuple(details))


def master_feedback(master: str, results: Sequence[EntryResult]) -> Feedback:
    """The feedback for the master entered for several tables at once."""
    accepted = [result.table for result in results if result.outcome == "accepted"]
    repeated = [result.table for result in results if result.outcome == "repeated"]
    conflicts = [result for result in results if result.outcome == "conflict"]
    score = results[0].verdict.score if results else 0
    details = []
    if repeated:
        details.append(f"Ya estaban anotadas igual: mesas {_tables(repeated)}.")
    if conflicts:
        details.append("CONFLICTO (para el juez árbitro): " + "; ".join(
            f"mesa {result.table} (nº {result.conflict_id})" for result in conflicts))
    kind = "conflict" if conflicts else "ok"
    return Feedback(kind, f"Maestra {master} ({score} puntos) anotada en {len(accepted)} "
                          f"{'mesa' if len(accepted) == 1 else 'mesas'}: {_tables(accepted) or '—'}", tuple(details))


def set_aside_feedback(round_number: int, slips: Sequence[SetAsideSlipView]) -> Feedback | None:
    """The judge withdrew the rack of ``round_number`` (III.29) and ``slips`` (of one
    ``slips_set_aside`` event) were set aside: they no longer count and must be entered
    again with the new rack. None without slips."""
    if not slips:
        return None
    tables = sorted({slip.table_number for slip in slips})
    count = len(slips)
    return Feedback("conflict", f"ATRIL CAMBIADO — ronda {round_number}: el juez árbitro ha retirado el atril "
                                f"{slips[0].rack} (III.29)",
                    (f"Motivo: {slips[0].reason}",
                     f"{count} papeleta{'s' if count != 1 else ''} anotada{'s' if count != 1 else ''} con ese atril "
                     f"(mesas {_tables(tables)}) ya no cuenta{'n' if count != 1 else ''}: anote de nuevo las papeletas "
                     "de esta ronda, escritas con el atril nuevo."))


def error_feedback(message: str) -> Feedback:
    """An action refused (a ``TournamentError`` message, already in Spanish)."""
    return Feedback("error", f"No anotada: {message}")


def _what(result: EntryResult) -> str:
    verdict = result.verdict
    if verdict.status in MARKED_STATUSES:
        return status_name(verdict.status.value) + (f" «{verdict.slip}»" if verdict.slip else "")
    return f"«{verdict.slip}»"


def _tables(tables: Sequence[int]) -> str:
    return ", ".join(str(table) for table in tables)


class SlipFeedback(Widget):
    """Shows ``feedback`` (nothing before the first entry)."""

    DEFAULT_CSS = """
    SlipFeedback {
        height: 6;
        border: round $primary;
        padding: 0 1;
    }
    SlipFeedback.-conflict { border: heavy $error; }
    SlipFeedback.-error { border: round $error; }
    SlipFeedback.-zero { border: round $warning; }
    SlipFeedback.-ok { border: round $success; }
    """

    feedback: reactive[Feedback | None] = reactive(None)
    """Fixed height (four lines): a new feedback repaints this widget only, no layout pass."""

    def watch_feedback(self, feedback: Feedback | None) -> None:
        for kind in KIND_STYLES:
            self.set_class(feedback is not None and feedback.kind == kind, f"-{kind}")

    def render(self) -> Text:
        if self.feedback is None:
            return Text(f"Escriba la mesa, Intro, la jugada, Intro.\n{LOWERCASE_HINT}.", style="dim")
        text = Text(self.feedback.headline, style=KIND_STYLES.get(self.feedback.kind, ""))
        for line in self.feedback.details:
            text.append("\n")
            text.append(line, style="bold yellow" if line.startswith("Sugerencia") else "")
        return text
