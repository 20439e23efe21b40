"""Corrections, conflict resolution, claims (III.27) and annulled masters (III.29)."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from duplicate.record.events_slips import ClaimFiled, ClaimResolved, ConflictResolved, MasterAnnulled, SlipCorrected
from duplicate.rules.slips import SlipStatus, SlipVerdict, judge_slip, mark_verdict, read_mark
from duplicate.rules.statuses import ClaimStatus
from duplicate.service.access import Action, Actor, Role
from duplicate.service.base import TaskModule, checked_mark
from duplicate.service.context import ServiceContext
from duplicate.service.errors import InvalidSlip, NotFound, RoundClosed, StateConflict
from duplicate.service.slip_context import SlipContext, slip_payload, verdict_payload
from duplicate.service.slip_entry import SlipEntry
from duplicate.service.standings import Standings
from duplicate.service.views import (
    ClaimView,
    EntryResult,
)
from duplicate.storage.models import Claim, Conflict, GameRow, RoundRow, Seat, Slip
from duplicate.storage.projector import next_id
from duplicate.texts import REASON_MAX, SLIP_MAX


class Corrections(TaskModule):
    """Corrections, conflict resolution, claims (III.27) and annulled masters (III.29)."""

    def __init__(self, context: ServiceContext, slip_entry: SlipEntry, standings: Standings) -> None:
        super().__init__(context)
        self.slip_entry = slip_entry
        self.standings = standings

    def resolve_conflict(self, conflict_id: int, *, use_new: bool, reason: str = "") -> None:
        """The judge keeps the stored slip or replaces it with the conflicting text (or
        mark), in one transaction: a second judge resolving the same conflict is refused."""
        with self._read() as session:
            conflict = session.get(Conflict, self._number(conflict_id, "el conflicto"))
            if conflict is None:
                raise NotFound(f"no existe el conflicto {conflict_id}", what="conflicto", key=conflict_id)
            game = session.get(GameRow, conflict.game_id)
            assert game is not None
            game_number, tournament_id = game.number, game.tournament_id
            table, round_number, text, mark, entry_id = (conflict.table_number, conflict.round_number, conflict.text,
                                                         conflict.mark, conflict.entry_id)
        context = self.slip_entry.slip_context(game_number, table, round_number, tournament_id, allow_closed=True)
        verdict = self._correction_verdict(context, text, mark) if use_new else None
        with self._write() as session:
            # The tournament held first (``_authorise``), the conflict's row then: every write takes them in this order.
            actor = self._authorise(session, tournament_id, Action.RESOLVE_CONFLICT, entries=[entry_id])
            conflict = session.scalar(select(Conflict).where(Conflict.id == conflict_id).with_for_update()
                                      .execution_options(populate_existing=True))
            assert conflict is not None
            if conflict.resolution is not None:
                raise StateConflict(f"el conflicto {conflict_id} ya está resuelto ({conflict.resolution}, "
                                      f"{conflict.resolved_by})", what=f"conflicto {conflict_id}", state="resolved")
            if verdict is not None:
                context, verdict = self._held(session, context, verdict, text, mark)
                self._correct_in(session, context, text, verdict, actor,
                                 reason or f"conflicto {conflict_id} resuelto a favor de la nueva papeleta")
            else:
                self._writable_game(session, conflict.game_id)
            self._log(session, tournament_id, ConflictResolved(conflict_id, "replaced" if use_new else "kept"),
                      game_id=conflict.game_id,
                      round_number=conflict.round_number, actor=actor, reason=reason)

    def correct_slip(self, game_number: int, table: int, text: str | None = None, *,
                     status: SlipStatus | str | None = None, round_number: int | None = None,
                     tournament_id: int | None = None, reason: str = "",
                     judge: bool = True) -> EntryResult:
        """A correction (a claim upheld, III.27): the player's slip becomes ``text``
        (judged again), or the mark ``status`` (``text`` then keeps what the slip said); a
        new event keeps the old values. ``judge`` False (an assistant fixing a typing
        mistake): refused once the round is closed, as for every assistant's credential
        (II.4.c: only the judge corrects closed rounds, and an assistant only its tables)."""
        if text is not None:
            text = self._typed(text, "la papeleta corregida", SLIP_MAX)
        context = self.slip_entry.slip_context(game_number, table, round_number, tournament_id, allow_closed=True)
        verdict = self._correction_verdict(context, text, status)
        with self._write() as session:
            actor = self._authorise(session, context.tournament_id, Action.CORRECT_SLIP, tables=[table],
                                    game_id=context.game_id)
            if not judge or actor.role is not Role.JUDGE:
                closed = session.scalar(select(RoundRow.closed).where(RoundRow.game_id == context.game_id,
                                                                      RoundRow.number == context.round_number))
                if closed:
                    raise RoundClosed(f"la ronda {context.round_number} está cerrada: "
                                          "solo el juez árbitro puede corregirla", round=context.round_number)
            context, verdict = self._held(session, context, verdict, text, status)
            return self._correct_in(session, context, text or "", verdict, actor, reason)

    def _correction_verdict(self, context: SlipContext, text: str | None,
                            status: SlipStatus | str | None) -> SlipVerdict:
        if status is not None:
            return mark_verdict(checked_mark(status), text or "")
        if text is None:
            raise InvalidSlip("indique el nuevo texto de la papeleta o una marca (tarde, nula, no-entregada)",
                              what="la papeleta", value=None)
        mark = read_mark(text)
        if mark is not None:                    # «tarde» as the corrected slip: the mark (issue 25 §3)
            return mark_verdict(mark)
        return judge_slip(context.board, context.rack, text, context.lexicon, oriented=context.oriented)

    def _held(self, session: Session, context: SlipContext, verdict: SlipVerdict, text: str | None,
              status: SlipStatus | str | None) -> tuple[SlipContext, SlipVerdict]:
        """Inside the correction's write transaction (after ``_authorise``, which holds the
        tournament): the round read again (``SlipEntry.held_context``, closed rounds
        allowed: a correction); the correction judged again when the round changed since
        ``context`` was read (a rack replaced, a master annulled, III.29). Raises
        ``LockedGameError`` when the game became final (III.26)."""
        held = self.slip_entry.held_context(session, context, allow_closed=True)
        if held is context:
            return context, verdict
        return held, self._correction_verdict(held, text, status)

    def _correct_in(self, session: Session, context: SlipContext, text: str, verdict: SlipVerdict, actor: Actor,
                    reason: str) -> EntryResult:
        self._writable_game(session, context.game_id)
        slip = self.slip_entry.slip_in(session, context)
        before = slip_payload(slip) if slip is not None else None
        self._log(session, context.tournament_id,
                  SlipCorrected(context.table, context.entry_id, before, verdict_payload(text, verdict, context),
                                hint=verdict.hint),
                  game_id=context.game_id, round_number=context.round_number, actor=actor, reason=reason)
        self.standings.refresh_bonuses(session, context.tournament_id, context.game_id, context.round_number, actor)
        return EntryResult("corrected", verdict, context.table, context.player, context.round_number)

    def annul_master(self, game_number: int, round_number: int, *, tournament_id: int | None = None,
                     reason: str = "") -> int:
        """III.29: the master of ``round_number`` was wrong (found later). It stays on the
        board; every player who played it gets 0. Returns how many slips were annulled."""
        with self._write() as session:
            tournament = self._tournament(session, tournament_id)
            actor = self._authorise(session, tournament.id, Action.ANNUL_MASTER)
            game = self._game(session, tournament, game_number, lock=True)
            self._check_unlocked(game)
            row = self._round(session, game, round_number)
            if row.master is None:
                raise StateConflict(f"la ronda {round_number} no tiene jugada maestra",
                                    what=f"ronda {round_number}", state="no_master")
            annulled = [{"table": slip.table_number, "entry": slip.entry_id, "score": slip.score}
                        for slip in session.scalars(select(Slip).where(
                            Slip.game_id == game.id, Slip.round_number == round_number, Slip.move == row.master,
                            Slip.status == SlipStatus.VALID.value).order_by(Slip.id))]
            # The projector marks the round annulled and these slips 0 points (III.29).
            self._log(session, tournament.id, MasterAnnulled(round_number, row.master, annulled),
                      game_id=game.id, round_number=round_number, actor=actor, reason=reason)
            self.standings.refresh_bonuses(session, tournament.id, game.id, round_number, actor,
                                  "recalculadas tras anular la maestra")
            return len(annulled)

    def file_claim(self, game_number: int, round_number: int, table: int, text: str, *,
                   tournament_id: int | None = None) -> int:
        """Record a player's claim (III.27); returns its id."""
        text = self._typed(text, "la reclamación", REASON_MAX, lines=True)
        context = self.slip_entry.slip_context(game_number, table, round_number, tournament_id, allow_closed=True)
        with self._write() as session:
            actor = self._authorise(session, context.tournament_id, Action.FILE_CLAIM, tables=[table],
                                    game_id=context.game_id)
            self._writable_game(session, context.game_id)
            claim = next_id(session, Claim)
            self._log(session, context.tournament_id, ClaimFiled(claim, table, context.entry_id, text),
                      game_id=context.game_id, round_number=context.round_number, actor=actor)
            return claim

    def resolve_claim(self, claim_id: int, *, upheld: bool, resolution: str, corrected_text: str | None = None,
                      corrected_status: str | None = None) -> None:
        """Resolve a claim (III.27) in one transaction; an upheld claim may carry the
        corrected slip. A claim already resolved (by another judge station) is refused."""
        resolution = self._typed(resolution, "la resolución", REASON_MAX, lines=True)
        if corrected_text is not None:
            corrected_text = self._typed(corrected_text, "la papeleta corregida", SLIP_MAX)
        with self._read() as session:
            claim = session.get(Claim, self._number(claim_id, "la reclamación"))
            if claim is None:
                raise NotFound(f"no existe la reclamación {claim_id}", what="reclamación", key=claim_id)
            game = session.get(GameRow, claim.game_id)
            assert game is not None
            seat = session.scalar(select(Seat).where(Seat.game_id == game.id, Seat.entry_id == claim.entry_id))
            assert seat is not None
            tournament_id, game_number, table, round_number = (game.tournament_id, game.number, seat.table_number,
                                                               claim.round_number)
            entry_id = claim.entry_id
        correcting = upheld and (corrected_text is not None or corrected_status is not None)
        context = self.slip_entry.slip_context(game_number, table, round_number, tournament_id, allow_closed=True)
        verdict = self._correction_verdict(context, corrected_text, corrected_status) if correcting else None
        with self._write() as session:
            # The tournament held first (``_authorise``), the claim's row then: every write takes them in this order.
            actor = self._authorise(session, tournament_id, Action.RESOLVE_CLAIM, entries=[entry_id])
            claim = session.scalar(select(Claim).where(Claim.id == claim_id).with_for_update()
                                   .execution_options(populate_existing=True))
            assert claim is not None
            if claim.status != ClaimStatus.OPEN.value:
                raise StateConflict(f"la reclamación {claim_id} ya está resuelta ({claim.status})",
                                    what=f"reclamación {claim_id}", state="resolved")
            if verdict is not None:
                context, verdict = self._held(session, context, verdict, corrected_text, corrected_status)
                self._correct_in(session, context, corrected_text or "", verdict, actor,
                                 f"reclamación {claim_id} aceptada: {resolution}")
            else:
                self._writable_game(session, claim.game_id)
            status = (ClaimStatus.UPHELD if upheld else ClaimStatus.REJECTED).value
            self._log(session, tournament_id, ClaimResolved(claim_id, status, resolution),
                      game_id=claim.game_id, round_number=claim.round_number, actor=actor, reason=resolution)

    def claims(self, game_number: int, *, tournament_id: int | None = None) -> list[ClaimView]:
        """The claims of a game (III.27), oldest first."""
        with self._read() as session:
            tournament = self._tournament(session, tournament_id)
            game = self._game(session, tournament, game_number)
            seats = {seat.entry_id: (seat.table_number, seat.entry.player.name if seat.entry and seat.entry.player
                                     else "") for seat in game.seats}
            return [ClaimView(claim.id, claim.game_id, claim.round_number, claim.entry_id, claim.text, claim.status,
                              claim.resolution, claim.created_at, *seats.get(claim.entry_id, (0, "")))
                    for claim in session.scalars(select(Claim).where(Claim.game_id == game.id).order_by(Claim.id))]
