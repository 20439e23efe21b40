"""The results of a classic division's boards: entered at a station (a second station
typing the same scores confirms them, other scores leave a conflict), forfeits, and the
judge's settling of a board (a reason when it changes a result). A task module of
``ranking.classic.service``."""

from __future__ import annotations

from typing import Literal

from sqlalchemy.orm import Session

from duplicate.record.events_ranking import ResultConflict, ResultEntered, ResultResolved
from duplicate.service.access import Action, Actor, Role
from duplicate.service.errors import InvalidInput, InvalidNumber
from duplicate.storage.classic_models import ClassicBoard, ClassicDivision
from duplicate.storage.models import Tournament
from ranking.classic.base import ClassicTask
from ranking.classic.errors import PlayerWithdrawn, ReasonRequired
from ranking.classic.views import SCORE_RANGE, ResultOutcome

__all__ = ["Results"]


def _need_reason(reason: str, board: ClassicBoard, what: str) -> None:
    """``ReasonRequired`` unless the judge gave a reason for ``what`` on ``board``."""
    if not reason.strip():
        raise ReasonRequired(f"ronda {board.round}, mesa {board.table}: el juez árbitro {what}; indique el motivo",
                             round_number=board.round, table=board.table or 0)


def _check_scores(*scores: int) -> None:
    """``InvalidNumber`` for a score no game can have (``SCORE_RANGE``)."""
    for score in scores:
        if score not in SCORE_RANGE:
            raise InvalidNumber(f"puntuación {score} fuera de lo posible (de -500 a 2000)",
                                what="la puntuación", value=score)


class Results(ClassicTask):
    """The results of the boards of a classic division."""

    def enter_result(self, round_number: int, table: int, first_score: int, second_score: int, *,
                     division: str = "", reason: str = "", tournament_id: int | None = None) -> ResultOutcome:
        """Both scores of a board (judge, or an assistant for its tables). A second station
        typing the same scores confirms them; other scores leave a conflict for the judge
        (``conflict``), unless the judge types them (a correction, ``corrected``), which needs
        ``reason`` (``ReasonRequired`` otherwise; the log keeps it). A board of a withdrawn
        player's round is refused (``PlayerWithdrawn``)."""
        _check_scores(first_score, second_score)
        with self._write() as session:
            tournament = self._tournament(session, tournament_id)
            actor = self._authorise(session, tournament.id, Action.ENTER_RESULT, tables=[table])
            row = self._division_row(session, tournament, division)
            board = self._board(session, row, round_number, table)
            self._check_not_withdrawn(board)
            counted = (board.first_score, board.second_score)
            outcome: ResultOutcome
            if board.forfeit is None and counted == (None, None):
                outcome = "stored"
            elif counted == (first_score, second_score) and board.forfeit is None:
                outcome = "confirmed"
            elif actor.role is Role.JUDGE:
                outcome = "corrected"
                _need_reason(reason, board, "cambia el resultado anotado")
            else:
                outcome = "conflict"
            if outcome == "conflict":
                self._log(session, tournament.id, ResultConflict(row.name, round_number, table, first_score,
                                                                 second_score, counted[0] or 0, counted[1] or 0),
                          actor=actor, round_number=round_number, reason=reason.strip())
                return "conflict"
            self._log(session, tournament.id, ResultEntered(row.name, round_number, table, first_score, second_score),
                      actor=actor, round_number=round_number, reason=reason.strip())
            return outcome

    def record_forfeit(self, round_number: int, table: int, loser: Literal["first", "second", "both"], *,
                       division: str = "", reason: str = "", tournament_id: int | None = None) -> None:
        """The judge records a game lost by forfeit by ``loser`` (the side that did not play;
        ``both``: neither came, both lose — C.06 11: "—" for both). Over a result already
        counted it needs ``reason`` (``ReasonRequired``)."""
        if loser not in ("first", "second", "both"):
            raise InvalidInput("la incomparecencia es de «first» (quien empieza), de «second» o de «both» "
                               "(los dos)", what="la incomparecencia", value=loser)
        with self._write() as session:
            tournament, actor, row, board = self._judged_board(session, division, tournament_id, round_number, table)
            if board.forfeit != loser and (board.forfeit is not None or board.first_score is not None):
                _need_reason(reason, board, "cambia el resultado anotado por una incomparecencia")
            self._log(session, tournament.id, ResultEntered(row.name, round_number, table, 0, 0, forfeit=loser),
                      actor=actor, round_number=round_number, reason=reason.strip())

    def resolve_result(self, round_number: int, table: int, first_score: int, second_score: int, *,
                       division: str = "", reason: str = "", tournament_id: int | None = None) -> None:
        """The judge settles a board's scores (a conflict, a claim); over a result already
        counted it needs ``reason`` (``ReasonRequired``), which the log keeps."""
        _check_scores(first_score, second_score)
        with self._write() as session:
            tournament, actor, row, board = self._judged_board(session, division, tournament_id, round_number, table)
            self._check_not_withdrawn(board)
            if board.forfeit is not None or board.first_score is not None or board.conflict:
                _need_reason(reason, board, "fija el resultado de una mesa que ya tiene uno")
            self._log(session, tournament.id, ResultResolved(row.name, round_number, table, first_score, second_score),
                      actor=actor, round_number=round_number, reason=reason.strip())

    @staticmethod
    def _check_not_withdrawn(board: ClassicBoard) -> None:
        """Refuse a result on a board of a round from which one of its players had withdrawn."""
        for seed in (board.first, board.second):
            if seed is not None and seed.withdrawn_round is not None and seed.withdrawn_round <= board.round:
                raise PlayerWithdrawn(f"el jugador {seed.number} está retirado desde la ronda {seed.withdrawn_round}: "
                                      f"su partida de la ronda {board.round} no se juega", number=seed.number)

    def _judged_board(self, session: Session, division: str, tournament_id: int | None, round_number: int,
                      table: int) -> tuple[Tournament, Actor, ClassicDivision, ClassicBoard]:
        """The board a judge's decision is about, after checking it is the judge's to take."""
        tournament = self._tournament(session, tournament_id)
        actor = self._authorise(session, tournament.id, Action.RESOLVE_RESULT)
        row = self._division_row(session, tournament, division)
        return tournament, actor, row, self._board(session, row, round_number, table)
