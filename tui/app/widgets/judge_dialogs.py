"""The judge's dialogs (issue 4): reopen a final game (its reason), file a player's claim,
resolve a claim (III.27) and resolve a conflict between two slips of one player.

Like the slip dialogs, they only collect what the judge types; the screens pass it to the
service. Keyboard only: in a choice, ↑/↓ and Intro (the focus moves on to the next
field); Intro in a field goes to the next one, and in the last one accepts; Esc cancels.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar, Generic, TypeVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, RadioSet, Static

from duplicate.rules.notation import LOWERCASE_HINT
from duplicate.rules.slips import read_mark
from duplicate.service.errors import TournamentError
from tui.app.widgets.toggles import MarkedRadioButton


@dataclass(frozen=True)
class NewClaim:
    """A player's claim to file: ``round_number``, ``table`` and what the player says."""

    round_number: int
    table: int
    text: str


@dataclass(frozen=True)
class ClaimDecision:
    """The resolution of a claim: ``upheld`` or not, why, and an optional corrected slip
    (a move in ``corrected_text`` or a mark in ``corrected_status``)."""

    upheld: bool
    resolution: str
    corrected_text: str | None = None
    corrected_status: str | None = None


@dataclass(frozen=True)
class ConflictDecision:
    """The resolution of a conflict: ``use_new`` replaces the stored slip; ``reason`` may be empty."""

    use_new: bool
    reason: str


ResultT = TypeVar("ResultT")


class _JudgeDialog(ModalScreen[ResultT | None], Generic[ResultT]):
    """A judge's form: Escape cancels (None), Intro moves on then accepts (a ``ResultT``)."""

    DEFAULT_CSS = """
    ReasonDialog, CheckedReasonDialog, ClaimDialog, ClaimResolutionDialog, ConflictDialog, FolderDialog {
        align: center middle;
    }
    #judge-dialog {
        width: 76; max-width: 100%; height: auto;
        border: thick $accent; background: $panel; padding: 0 1;
    }
    #judge-dialog .title { text-style: bold; }
    #judge-dialog Input { width: 100%; }
    #judge-dialog RadioSet { width: 100%; }
    #judge-dialog Label { padding: 0 0 0 1; width: 100%; }   /* a long label wraps (80 columns) */
    #dialog-error { color: $error; text-style: bold; height: auto; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancelar")]

    FIELDS: ClassVar[tuple[str, ...]] = ()
    """The ids of the inputs, in order (Intro moves from one to the next)."""

    def action_cancel(self) -> None:
        self.dismiss(None)

    def _error(self, message: str) -> None:
        self.query_one("#dialog-error", Static).update(Text(message))    # may quote what was typed: never markup

    def _value(self, name: str) -> str:
        return self.query_one(f"#{name}", Input).value.strip()

    def on_radio_set_changed(self, event: RadioSet.Changed) -> None:
        """A choice made: on to the first field."""
        event.stop()
        if self.FIELDS:
            self.query_one(f"#{self.FIELDS[0]}", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        name = event.input.id or ""
        if name in self.FIELDS and name != self.FIELDS[-1]:
            self.query_one(f"#{self.FIELDS[self.FIELDS.index(name) + 1]}", Input).focus()
            return
        self.accept()

    def accept(self) -> None:  # pragma: no cover - every dialog defines it
        raise NotImplementedError


class ReasonDialog(_JudgeDialog[str]):
    """Ask for a reason (required); returns it, or None."""

    FIELDS = ("reason",)

    def __init__(self, title: str, prompt: str = "Motivo:") -> None:
        super().__init__()
        self.title_text, self.prompt = title, prompt

    def compose(self) -> ComposeResult:
        with Vertical(id="judge-dialog"):
            yield Static(Text(self.title_text), classes="title")
            yield Label(Text(self.prompt))
            yield Input(id="reason", placeholder="queda registrado")
            yield Static("", id="dialog-error")
            yield Static("Intro: aceptar · Esc: cancelar", classes="hint")

    def accept(self) -> None:
        reason = self._value("reason")
        if not reason:
            self._error("Falta el motivo: queda registrado en el historial.")
            return
        self.dismiss(reason)


class CheckedReasonDialog(ReasonDialog):
    """A ``ReasonDialog`` for an action whose subject the service checks first: ``check``
    (a service call, run in a worker thread as the dialog opens) raises a
    ``TournamentError`` saying why the action cannot be done. The
    refusal shows at once, above the reason being typed, and the reason is then never
    accepted (Esc goes back to correct it); a reason given before the answer is accepted
    when it comes, if the check passed. The keys typed meanwhile go to the reason, in
    order. ``refused`` says what went wrong ("" while unknown or once passed)."""

    def __init__(self, title: str, check: Callable[[], object], prompt: str = "Motivo:") -> None:
        super().__init__(title, prompt)
        self._check = check
        self.checked = False
        self.refused = ""
        self._accept_wanted = False

    def on_mount(self) -> None:
        self._run_check()

    @work(thread=True, exclusive=True, group="dialog-check", exit_on_error=False)
    def _run_check(self) -> None:
        try:
            self._check()
            refused = ""
        except TournamentError as error:
            refused = str(error) or type(error).__name__
        try:
            self.app.call_from_thread(self._checked, refused)
        except RuntimeError:                            # the app is closing
            pass

    def _checked(self, refused: str) -> None:
        self.checked, self.refused = True, refused
        if refused:
            self.query_one("#dialog-error", Static).update(Text(f"{refused}. Esc: volver a corregirlo; no cambia nada."))
        elif self._accept_wanted:
            self.accept()

    def accept(self) -> None:
        if self.refused:
            return                                      # said in the dialog: Esc goes back
        if not self.checked:
            self._accept_wanted = True
            self.query_one("#dialog-error", Static).update("Comprobando…")
            return
        super().accept()


class FolderDialog(_JudgeDialog[Path]):
    """Ask where to write the publication (the default folder shown and editable); a
    folder that already holds files is accepted only after a second Intro, saying that
    the publication's files there are replaced. Returns the ``Path``, or None."""

    FIELDS = ("folder",)

    def __init__(self, default: Path) -> None:
        super().__init__()
        self.default = default
        self._warned: Path | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="judge-dialog"):
            yield Static("Publicar los resultados (HTML, PDF, CSV, XLSX; IV.32)", classes="title")
            yield Label("Carpeta:")
            yield Input(str(self.default), id="folder")
            yield Static("", id="dialog-error")
            yield Static("Intro: publicar · Esc: cancelar", classes="hint")

    def accept(self) -> None:
        text = self._value("folder")
        if not text:
            self._error("Escriba la carpeta donde publicar.")
            return
        folder = Path(text).expanduser()
        if folder.exists() and not folder.is_dir():
            self._error(f"«{folder}» es un archivo, no una carpeta.")
            return
        if folder.is_dir() and any(folder.iterdir()) and self._warned != folder:
            self._warned = folder
            self._error(f"«{folder}» ya tiene archivos: los de la publicación se sustituirán (los demás se "
                        "dejan). Intro otra vez para publicar, o cambie la carpeta.")
            return
        self.dismiss(folder)


class ClaimDialog(_JudgeDialog[NewClaim]):
    """Ask for the round, the table and the claim's text; returns a ``NewClaim`` or None."""

    FIELDS = ("claim-round", "claim-table", "claim-text")

    def __init__(self, game: int, round_number: int | None = None, table: int | None = None) -> None:
        super().__init__()
        self.game, self.round_number, self.table = game, round_number, table

    def compose(self) -> ComposeResult:
        with Vertical(id="judge-dialog"):
            yield Static(f"Nueva reclamación en la partida {self.game} (III.27)", classes="title")
            yield Label("Ronda:")
            yield Input(str(self.round_number or ""), id="claim-round", restrict=r"\d*", max_length=3)
            yield Label("Mesa del jugador:")
            yield Input(str(self.table or ""), id="claim-table", restrict=r"\d*", max_length=4)
            yield Label("Qué reclama el jugador:")
            yield Input(id="claim-text", placeholder="p. ej. anoté H8-CASAS, no H8-CASA")
            yield Static("", id="dialog-error")
            yield Static("Intro: siguiente campo / registrar · Esc: cancelar", classes="hint")

    def on_mount(self) -> None:
        first = "#claim-round" if not self.round_number else "#claim-table" if not self.table else "#claim-text"
        self.query_one(first, Input).focus()

    def accept(self) -> None:
        names = {"claim-round": "la ronda", "claim-table": "la mesa", "claim-text": "el texto de la reclamación"}
        missing = next((name for name in self.FIELDS if not self._value(name)), None)
        if missing is not None:
            self._error(f"Falta {names[missing]}.")
            self.query_one(f"#{missing}", Input).focus()
            return
        self.dismiss(NewClaim(int(self._value("claim-round")), int(self._value("claim-table")),
                              self._value("claim-text")))


class ClaimResolutionDialog(_JudgeDialog[ClaimDecision]):
    """Uphold or reject a claim, with the resolution and, when upheld, an optional
    corrected slip (a move, or «tarde», «nula», «falta»); returns a ``ClaimDecision`` or None."""

    FIELDS = ("claim-resolution", "claim-corrected")

    def __init__(self, claim_id: int, summary: str) -> None:
        super().__init__()
        self.claim_id, self.summary = claim_id, summary

    def compose(self) -> ComposeResult:
        with Vertical(id="judge-dialog"):
            yield Static(f"Resolver la reclamación nº {self.claim_id} (III.27)", classes="title")
            yield Static(Text(self.summary))                  # names and claim text as typed
            with RadioSet(id="claim-decision"):
                yield MarkedRadioButton("Aceptada", id="upheld")
                yield MarkedRadioButton("Rechazada", id="rejected")
            yield Label("Resolución:")
            yield Input(id="claim-resolution", placeholder="p. ej. error de entrada")
            yield Label("Papeleta corregida (opcional, si se acepta; jugada o «tarde», «nula», «falta»):")
            yield Input(id="claim-corrected", placeholder=f"H8-CASAS · {LOWERCASE_HINT}")
            yield Static("", id="dialog-error")
            yield Static("↑/↓ e Intro: decisión · Intro: siguiente campo / resolver · Esc: cancelar",
                         classes="hint")

    def accept(self) -> None:
        pressed = self.query_one(RadioSet).pressed_button
        if pressed is None:
            self._error("Elija si la reclamación se acepta o se rechaza.")
            self.query_one(RadioSet).focus()
            return
        resolution = self._value("claim-resolution")
        if not resolution:
            self._error("Falta la resolución: queda registrada con la reclamación.")
            self.query_one("#claim-resolution", Input).focus()
            return
        upheld = pressed.id == "upheld"
        corrected = self._value("claim-corrected")
        if corrected and not upheld:
            self._error("Una reclamación rechazada no corrige la papeleta: borre la papeleta corregida.")
            self.query_one("#claim-corrected", Input).focus()
            return
        mark = read_mark(corrected) if corrected else None
        self.dismiss(ClaimDecision(upheld, resolution, None if mark or not corrected else corrected,
                                   mark.value if mark else None))


class ConflictDialog(_JudgeDialog[ConflictDecision]):
    """Show the stored slip and the conflicting one; keep or replace, with an optional
    reason. Returns a ``ConflictDecision`` or None."""

    FIELDS = ("conflict-reason",)

    def __init__(self, title: str, stored: str, new: str) -> None:
        super().__init__()
        self.title_text, self.stored, self.new = title, stored, new

    def compose(self) -> ComposeResult:
        with Vertical(id="judge-dialog"):
            yield Static(Text(self.title_text), classes="title")
            yield Static(Text(f"Papeleta anotada: {self.stored}"), id="conflict-stored")     # as typed, never markup
            yield Static(Text(f"Papeleta en conflicto: {self.new}"), id="conflict-new")
            with RadioSet(id="conflict-decision"):
                yield MarkedRadioButton("Mantener la anotada", id="keep")
                yield MarkedRadioButton("Sustituirla por la nueva", id="replace")
            yield Label("Motivo (opcional):")
            yield Input(id="conflict-reason", placeholder="queda registrado")
            yield Static("", id="dialog-error")
            yield Static("↑/↓ e Intro: decisión · Intro en el motivo: resolver · Esc: cancelar", classes="hint")

    def accept(self) -> None:
        pressed = self.query_one(RadioSet).pressed_button
        if pressed is None:
            self._error("Elija si se mantiene la papeleta anotada o se sustituye por la nueva.")
            self.query_one(RadioSet).focus()
            return
        self.dismiss(ConflictDecision(pressed.id == "replace", self._value("conflict-reason")))
