"""Closing rounds with their bonuses (III.24), standings (III.23, III.28, IV.31), publication and reopening (III.26, IV.32)."""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from duplicate.labels import SLIP_STATUS, label
from duplicate.plurals import counted
from duplicate.record.event_kinds import TournamentEvent
from duplicate.record.events_slips import (
    BonusesAwarded,
    GameReopened,
    ResultsPublished,
    RoundClosed as RoundClosedEvent,
    SlipEntered,
)
from duplicate.rules.game_standings import GameStanding
from duplicate.rules.slips import SlipStatus, judge_slip, mark_verdict
from duplicate.rules.statuses import ClaimStatus, GameStatus
from duplicate.service.access import Action
from duplicate.service.base import TaskModule
from duplicate.service.context import ServiceContext
from duplicate.service.errors import LockedGameError, MissingReason, RoundClosed, RoundHasConflicts, StateConflict
from duplicate.service.settings import TournamentSettings
from duplicate.service.slip_context import stored_board, stored_rack, verdict_payload
from duplicate.service.standings import Standings
from duplicate.service.views import (
    ClosedRound,
    PendingSlip,
    RoundStatus,
    pending_line,
)
from duplicate.storage.models import AssistantRange, Claim, Conflict, GameRow, Seat, Slip, Tournament


class Results(TaskModule):
    """Closing rounds with their bonuses (III.24), standings (III.23, III.28, IV.31), publication and reopening (III.26, IV.32)."""

    def __init__(self, context: ServiceContext, standings: Standings) -> None:
        super().__init__(context)
        self.standings = standings

    def close_round(self, game_number: int, round_number: int | None = None,
                    *, tournament_id: int | None = None) -> ClosedRound:
        """Close a round: every seated player without a slip gets ``missing`` (0 points),
        bonuses are awarded (III.24). Returns a ``ClosedRound``: the round, the tables
        marked missing and the bonuses ``{table: points}``. ``round_number`` defaults to
        the round waiting to be closed: the newest with its master placed and not closed
        (``StateConflict`` when there is none). Refused (``RoundHasConflicts``) while the
        round has conflicts the judge has not resolved.

        Decided in its one write transaction, on what it reads once ``_authorise`` holds
        the tournament (issue 34 §1): a slip committed before is counted (never marked
        missing), a slip arriving after is refused (``RoundClosed``, ``SlipEntry.held_context``)."""
        with self._write() as session:
            tournament = self._tournament(session, tournament_id)
            actor = self._authorise(session, tournament.id, Action.CLOSE_ROUND)
            session.refresh(tournament)       # read again now the tournament is held (its bonus settings, III.24)
            game = self._game(session, tournament, game_number, lock=True)
            self._check_unlocked(game)
            number = round_number if round_number is not None else self._round_to_close(game)
            row = self._round(session, game, number)
            if row.master is None:
                raise StateConflict(f"la ronda {number} aún no tiene jugada maestra: no se puede cerrar",
                                    what=f"ronda {number}", state="no_master")
            if row.closed:
                raise RoundClosed(f"la ronda {number} ya está cerrada", game=game.number, round=number)
            pending = self._pending_slips(session, tournament, game, number)
            if pending:
                raise RoundHasConflicts(f"la ronda {number} tiene conflictos sin resolver: "
                                        + "; ".join(pending_line(item) for item in pending)
                                        + ": resuélvalos antes de cerrarla",
                                        tables=tuple(sorted({item.table for item in pending})))
            present = set(session.scalars(select(Slip.entry_id).where(Slip.game_id == game.id,
                                                                      Slip.round_number == number)))
            missing_verdict = mark_verdict(SlipStatus.MISSING)
            missing = []
            closing: list[TournamentEvent] = []
            seated = session.execute(select(Seat.table_number, Seat.entry_id).where(Seat.game_id == game.id)
                                     .order_by(Seat.table_number)).all()      # no object per seat (issue 38)
            for table, entry in seated:
                if entry not in present:
                    missing.append(table)
                    closing.append(SlipEntered(table, entry, **verdict_payload("", missing_verdict, None)))
            # III.24 on the slips stored and the missing ones (0 points, as ``bonuses_in`` counts a
            # seat without a slip); then the projector stores the missing slips and closes the
            # round, the three kinds of events appended at once.
            bonuses = self.standings.bonuses_in(session, tournament, game, row)
            closing.append(RoundClosedEvent(number))
            closing.append(BonusesAwarded(number, {str(entry): points for entry, points in bonuses.items()}))
            self.context.log_all(session, tournament.id, closing, actor=actor, game_id=game.id, round_number=number)
            tables = {entry: table for table, entry in seated}
            return ClosedRound(number, tuple(missing), {tables[entry]: points for entry, points in bonuses.items()})

    @staticmethod
    def _round_to_close(game: GameRow) -> int:
        """The round ``close_round`` closes when none is named: the newest whose master is
        placed and that is still open (III.24: closed once its slips are in). A newer round
        with its rack drawn but no master yet is not it."""
        waiting = [row.number for row in game.rounds if row.master is not None and not row.closed]
        if not waiting:
            raise StateConflict(f"la partida {game.number} no tiene ninguna ronda con jugada maestra sin cerrar",
                                what=f"partida {game.number}", state="nothing_to_close")
        return max(waiting)

    def round_status(self, game_number: int, round_number: int | None = None, *,
                     tournament_id: int | None = None) -> RoundStatus:
        """Slips entered versus expected, overall and per assistant range."""
        with self._read() as session:
            tournament = self._tournament(session, tournament_id)
            game = self._game(session, tournament, game_number)
            number = round_number if round_number is not None else self._latest_round_number(session, game)
            entered = set(session.scalars(select(Slip.table_number).where(Slip.game_id == game.id,
                                                                          Slip.round_number == number)))
            tables = [seat.table_number for seat in game.seats]
            missing = tuple(table for table in tables if table not in entered)
            ranges = session.scalars(select(AssistantRange).where(AssistantRange.tournament_id == tournament.id))
            per = {}
            for assistant in ranges:
                mine = [table for table in tables if assistant.first_table <= table <= assistant.last_table]
                per[assistant.assistant] = (len(mine), sum(1 for table in mine if table in entered),
                                            tuple(table for table in mine if table not in entered))
            return RoundStatus(number, len(tables), len(tables) - len(missing), missing, per,
                               self._pending_slips(session, tournament, game, number))

    def _pending_slips(self, session: Session, tournament: Tournament, game: GameRow,
                       number: int) -> tuple[PendingSlip, ...]:
        """The round's unresolved conflicts, each new entry judged as it would be stored."""
        conflicts = list(session.scalars(select(Conflict).where(
            Conflict.game_id == game.id, Conflict.round_number == number, Conflict.resolution.is_(None))
            .order_by(Conflict.table_number, Conflict.id)))
        if not conflicts:
            return ()
        row = self._round(session, game, number)
        lexicon = self.lexicon_for(tournament)
        board, rack = stored_board(row.board_before, lexicon), stored_rack(row.rack, lexicon)
        oriented = TournamentSettings.from_dict(tournament.settings).oriented_notation
        stored = {slip.entry_id: slip for slip in session.scalars(select(Slip).where(
            Slip.game_id == game.id, Slip.round_number == number))}
        names = {seat.entry_id: seat.entry.player.name for seat in game.seats}
        items = []
        for conflict in conflicts:
            slip = stored.get(conflict.entry_id)
            if conflict.mark:
                new, new_score = label(SLIP_STATUS, conflict.mark), 0
            else:
                new = conflict.text
                new_score = judge_slip(board, rack, conflict.text, lexicon, oriented=oriented).score
            items.append(PendingSlip(conflict.id, conflict.table_number, names.get(conflict.entry_id, ''), conflict.kind,
                                     (slip.text or label(SLIP_STATUS, slip.status)) if slip else "",
                                     slip.score if slip else 0, new, new_score, conflict.entered_by))
        return tuple(items)

    def publish(self, game_number: int,
                *, final: bool = False, tournament_id: int | None = None) -> list[GameStanding[int]]:
        """Publish the game's results: provisional (claims may follow) or final, which
        locks the game (III.26, IV.32). Final needs every round closed and no open
        claim or conflict. Returns the standings published.

        Final publication then calls the ``results_final`` hook once (EloDI, V), whoever
        publishes; so does a final re-publication after ``reopen`` (EloDI recomputed)."""
        with self._write() as session:
            tournament = self._tournament(session, tournament_id)
            actor = self._authorise(session, tournament.id, Action.PUBLISH_RESULTS)
            game = self._game(session, tournament, game_number, lock=True)
            self._check_unlocked(game)
            if game.status in (GameStatus.SETUP.value, GameStatus.PLAYING.value):
                raise StateConflict(f"la partida {game.number} no ha terminado: termínela antes de publicar",
                                    what=f"partida {game.number}", state="playing")
            open_rounds = [row.number for row in game.rounds if not row.closed]
            if open_rounds:
                raise StateConflict(f"rondas sin cerrar: {', '.join(map(str, open_rounds))}",
                                    what=f"partida {game.number}", state="open_rounds")
            if final:
                open_claims = session.scalar(select(func.count()).select_from(Claim).where(
                    Claim.game_id == game.id, Claim.status == ClaimStatus.OPEN.value))
                open_conflicts = session.scalar(select(func.count()).select_from(Conflict).where(
                    Conflict.game_id == game.id, Conflict.resolution.is_(None)))
                if open_claims or open_conflicts:
                    raise StateConflict(f"quedan {counted(open_claims or 0, 'reclamación')} y {counted(open_conflicts or 0, 'conflicto')} "
                                          "por resolver antes de publicar los resultados definitivos",
                                          what=f"partida {game.number}", state="open_claims")
            standings = self.standings.game_standings_in(session, tournament, game)
            status = (GameStatus.FINAL if final else GameStatus.PROVISIONAL).value
            self._log(session, tournament.id, ResultsPublished(status, [{"entry": s.player, "position": s.position, "total": s.total}
                                                     for s in standings]),
                      game_id=game.id, actor=actor)
            tournament_id = tournament.id
        if final and self.hooks.results_final is not None:
            self.hooks.results_final(self.context, tournament_id, game_number)
        return standings

    def reopen(self, game_number: int, *, reason: str, tournament_id: int | None = None) -> None:
        """The judge reopens a final game (explicit and logged, ``reason`` in the event); it
        becomes provisional. IV.32: final results are not modified, so only a tournament
        whose organiser admits corrections after final results (``corrections_after_final``)
        may; otherwise ``LockedGameError``, nothing logged.
        A rated game reopened is stale for EloDI (``ranking.ratings.RatingService.stale_games``)
        and its next final publication recomputes the ratings."""
        if not reason.strip():
            raise MissingReason("reabrir una partida con resultados definitivos exige indicar el motivo",
                                action="reopen_results")
        with self._write() as session:
            tournament = self._tournament(session, tournament_id)
            actor = self._authorise(session, tournament.id, Action.REOPEN_RESULTS)
            game = self._game(session, tournament, game_number, lock=True)
            if game.status != GameStatus.FINAL.value:
                raise StateConflict(f"la partida {game.number} no tiene resultados definitivos",
                                    what=f"partida {game.number}", state="not_final")
            if not TournamentSettings.from_dict(tournament.settings).corrections_after_final:
                raise LockedGameError(f"la partida {game.number} tiene resultados definitivos, que no pueden "
                                      "modificarse (IV.32): el torneo no admite correcciones tras los resultados "
                                      "definitivos, y no se reabre", game=game.number)
            self._log(session, tournament.id, GameReopened(GameStatus.PROVISIONAL.value), game_id=game.id,
                      actor=actor, reason=reason)









