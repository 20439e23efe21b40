"""The judge's decisions on the standings screen (III.26, III.27): publish a game's
results provisional or final, reopen a final game, file and resolve players' claims.

``StandingsActions`` is the base of ``StandingsScreen`` (``tui.app.screens.standings``),
which reads and shows the standings: each decision here asks what it must (a dialog) and
runs the service call in a worker; an assistant is told who may.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from textual import work
from textual.widgets import DataTable

from duplicate.labels import CLAIM_STATUS, label
from duplicate.rules.statuses import ClaimStatus, GameStatus
from duplicate.service.access import Action
from duplicate.service.errors import TournamentError
from tui.app.screens.game_dialogs import ConfirmScreen
from tui.app.screens.standings_presenter import claim_summary
from tui.app.station import StationScreen
from tui.app.widgets.judge_dialogs import ClaimDecision, ClaimDialog, ClaimResolutionDialog, NewClaim, ReasonDialog

JUDGE_KEYS: dict[str, tuple[Action, str]] = {
    "publish": (Action.PUBLISH_RESULTS, "publicar los resultados"),
    "publish_results": (Action.PUBLISH_RESULTS, "publicar los resultados"),
    "reopen": (Action.REOPEN_RESULTS, "reabrir una partida"),
    # The claims desk (III.27) is the judge's: who may resolve claims registers them here.
    "file_claim": (Action.RESOLVE_CLAIM, "anotar reclamaciones"),
    "resolve_claim": (Action.RESOLVE_CLAIM, "resolver reclamaciones"),
}
"""The judge's keys of the screen: the service's action each needs and how a refusal names it."""


class StandingsActions(StationScreen[None]):
    """The judge's decisions (see the module doc) on the game shown (``game``)."""

    game: int | None
    _names: dict[int, str]
    _tables: dict[int, int]
    corrections_after_final: bool

    def refresh_data(self) -> object:
        """Read the standings again (``StandingsScreen``, in a worker)."""
        raise NotImplementedError

    def action_tab(self, tab: str) -> None:
        """Show the tab ``tab`` (``StandingsScreen``)."""
        raise NotImplementedError

    def _judge_only(self, action: Action, what: str) -> bool:
        """True when this station may do ``action``; else it is told (in Spanish) that the
        judge may ``what``."""
        if self.may(action):
            return True
        self.notify(f"Solo el juez árbitro puede {what}.", severity="warning")
        return False

    def follow_status(self) -> None:
        """A game's status changed (III.26): rewrite the publication (``StandingsScreen``)."""
        raise NotImplementedError

    @work(thread=True, group="judge", exit_on_error=False)
    def _judge_call(self, call: Callable[[], object], done: str, *, status: bool = False) -> None:
        """Run the service ``call`` in a worker thread; notify ``done`` or the refusal, then
        refresh; ``status``: the call changes a game's status, so the publication follows
        it (``follow_status``) once it went through."""
        try:
            call()
        except TournamentError as error:
            self.app.call_from_thread(self.notify, f"No se pudo: {error}", severity="error", timeout=10)
        except Exception as error:  # noqa: BLE001 - shown to the judge, never a traceback
            self.app.call_from_thread(self.notify, f"Error inesperado ({type(error).__name__}): {error}",
                                      severity="error", timeout=10)
        else:
            self.app.call_from_thread(self.notify, done)
            if status:
                self.app.call_from_thread(self.follow_status)
        self.app.call_from_thread(self.refresh_data)

    def _game_status(self) -> str | None:
        service, tournament_id = self.station.service, self.station.state.tournament_id
        return next((game.status for game in service.tournament(tournament_id).games if game.number == self.game),
                    None)

    def action_publish_results(self, final: bool) -> None:
        """Publish the game shown: provisional or final results (III.26)."""
        if not self._judge_only(Action.PUBLISH_RESULTS, "publicar los resultados") or self.game is None:
            return
        service, state, game = self.station.service, self.station.state, self.game
        kind = "definitivos" if final else "provisionales"

        def publish(confirmed: bool | None = True) -> None:
            if confirmed:
                self._judge_call(partial(service.publish, game, final=final, tournament_id=state.tournament_id),
                                 f"Partida {game}: resultados {kind} publicados", status=True)

        if not final:
            publish()
            return
        # Final results are not modified afterwards (IV.32): the judge confirms them.
        self.app.push_screen(ConfirmScreen(
            f"¿Publicar los resultados DEFINITIVOS de la partida {game} (III.26)? Después solo se cambian "
            "reabriendo la partida, con un motivo. (s: sí · n: no)"), publish)

    def action_reopen(self) -> None:
        """Reopen the final game shown; asks for the reason (logged)."""
        if not self._judge_only(Action.REOPEN_RESULTS, "reabrir una partida") or self.game is None:
            return
        if self._game_status() != GameStatus.FINAL.value:
            self.notify(f"La partida {self.game} no tiene resultados definitivos: no hay nada que reabrir.",
                        severity="warning")
            return
        if not self.corrections_after_final:
            self.notify(f"La partida {self.game} tiene resultados definitivos, que no pueden modificarse (IV.32): "
                        "el torneo no admite correcciones tras los resultados definitivos.", severity="warning")
            return
        game = self.game
        service, state = self.station.service, self.station.state

        def reopen(reason: object) -> None:
            if isinstance(reason, str):
                self._judge_call(partial(service.reopen, game, reason=reason, tournament_id=state.tournament_id),
                                 f"Partida {game} reabierta: resultados provisionales", status=True)

        self.app.push_screen(ReasonDialog(f"Reabrir la partida {game} (resultados definitivos)",
                                          "Motivo de la reapertura:"), reopen)

    def action_file_claim(self) -> None:
        """File a player's claim (III.27) in the game shown."""
        if not self._judge_only(Action.RESOLVE_CLAIM, "registrar reclamaciones") or self.game is None:
            return
        game = self.game
        service, state = self.station.service, self.station.state

        def filed(claim: object) -> None:
            if isinstance(claim, NewClaim):
                self._judge_call(partial(service.file_claim, game, claim.round_number, claim.table, claim.text,
                                         tournament_id=state.tournament_id),
                                 f"Reclamación registrada: ronda {claim.round_number}, mesa {claim.table}")

        self.app.push_screen(ClaimDialog(game), filed)

    def action_resolve_claim(self) -> None:
        """Resolve the claim selected in the Reclamaciones tab: upheld or rejected (III.27)."""
        if not self._judge_only(Action.RESOLVE_CLAIM, "resolver reclamaciones") or self.game is None:
            return
        service, state = self.station.service, self.station.state
        table = self.query_one("#claims-table", DataTable)
        key = (table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value if table.row_count else None)
        claims = {claim.id: claim for claim in service.claims(self.game, tournament_id=state.tournament_id)}
        claim = claims.get(int(key)) if key is not None and key.isdigit() else None
        if claim is None:
            self.action_tab("claims")
            self.notify("Elija una reclamación en la pestaña Reclamaciones (F5) y pulse R.", severity="warning")
            return
        if claim.status != ClaimStatus.OPEN.value:
            self.notify(f"La reclamación nº {claim.id} ya está {label(CLAIM_STATUS, claim.status)}.",
                        severity="warning")
            return
        seat = self._tables.get(claim.entry_id)
        if seat is not None and not service.may(Action.RESOLVE_CLAIM, seat, tournament_id=state.tournament_id,
                                                game_number=self.game):
            # A venue's judge (issue 27 §2): another venue's claim is not offered to it.
            self.notify(f"La reclamación nº {claim.id} es de la mesa {seat}, de otra sede: la resuelve el juez de "
                        "esa sede o el juez árbitro del torneo.", severity="warning")
            return
        slip = next((slip for slip in service.slips(self.game, claim.round_number, tournament_id=state.tournament_id)
                     if slip.entry_id == claim.entry_id), None)
        summary = claim_summary(claim, slip, self._tables.get(claim.entry_id),
                                self._names.get(claim.entry_id, str(claim.entry_id)))
        claim_id = claim.id

        def resolved(decision: object) -> None:
            if isinstance(decision, ClaimDecision):
                verdict = "aceptada" if decision.upheld else "rechazada"
                self._judge_call(partial(service.resolve_claim, claim_id, upheld=decision.upheld,
                                         resolution=decision.resolution, corrected_text=decision.corrected_text,
                                         corrected_status=decision.corrected_status),
                                 f"Reclamación nº {claim_id} {verdict}")

        self.app.push_screen(ClaimResolutionDialog(claim_id, summary), resolved)
