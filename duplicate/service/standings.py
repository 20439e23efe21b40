"""A room's standings read from the store (III.23, III.24, III.28, IV.31): round results, bonuses,
game and tournament standings of this database's seated players, each computed by one function of
``duplicate.rules.game_standings`` — what the room's own record holds (the export, ``verify``),
the bonuses logged when a round closes, II.6's seating. What the front ends and the
publications show is the whole field's (``duplicate.service.venues.Venues.game_standings``…,
built on these: one room's figures when there is no other venue)."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from duplicate.record.event_kinds import EventKind
from duplicate.rules.bonuses import round_bonuses
from duplicate.rules.game_standings import GameStanding, RoundResult, game_standings
from duplicate.rules.tournament_standings import TournamentCriterion, TournamentStanding, tournament_standings
from duplicate.service.access import Actor
from duplicate.service.base import TaskModule
from duplicate.service.errors import DamagedData
from duplicate.service.settings import TournamentSettings
from duplicate.storage.models import (
    Event,
    GameRow,
    RoundRow,
    Seat,
    Slip,
    Tournament,
)


class Standings(TaskModule):
    """Standings and bonuses of the games of a tournament, from the stored slips."""

    # The reads below take only the columns they need (no ORM objects: a 300-player game
    # has 300 seats and 6,000 slips, and a round row carries its board and moves), through
    # ``session.execute`` so that pending changes of a write transaction are flushed first.
    @staticmethod
    def seated_in(session: Session, game: GameRow) -> list[int]:
        """The entry ids seated in ``game``, by table number (II.6)."""
        return list(session.scalars(select(Seat.entry_id).where(Seat.game_id == game.id)
                                    .order_by(Seat.table_number)))

    @staticmethod
    def round_figures_in(session: Session, game: GameRow) -> list[tuple[int, int | None, int, bool]]:
        """Per round of ``game``, in round order: ``(number, master score or None before the
        master is chosen, top score, closed)``."""
        return [(number, master, top, bool(closed)) for number, master, top, closed in session.execute(
            select(RoundRow.number, RoundRow.master_score, RoundRow.top_score, RoundRow.closed)
            .where(RoundRow.game_id == game.id).order_by(RoundRow.number))]

    def round_results_in(self, session: Session, tournament: Tournament, game: GameRow) -> list[RoundResult[int]]:
        policy = TournamentSettings.from_dict(tournament.settings).bonus_policy
        seated = self.seated_in(session, game)
        scores: dict[int, dict[int, int]] = {}
        # The slips on the session's connection (SQLAlchemy Core: no ORM result rows); the
        # ``seated_in`` query above has flushed a write transaction's pending changes.
        slips = select(Slip.round_number, Slip.entry_id, Slip.score).where(Slip.game_id == game.id)
        for number, entry, score in session.connection().execute(slips).all():
            if type(score) is not int:          # a bool or a text where a number is stored
                raise DamagedData(f"los puntos guardados de la ronda {number} no son un número ({type(score).__name__}): "
                                  "la base de datos está dañada; restaure una copia")
            round_scores = scores.get(number)
            if round_scores is None:
                round_scores = scores[number] = {}
            round_scores[entry] = score
        results = []
        for number, master_score, top_score, closed in self.round_figures_in(session, game):
            if master_score is None:
                continue
            played = scores.get(number, {})
            round_scores = {entry: played.get(entry, 0) for entry in seated}
            bonuses = round_bonuses(top_score, round_scores, policy) if closed else {}
            results.append(RoundResult(number=number, master_score=master_score, top_score=top_score,
                                       scores=round_scores, bonuses=bonuses))
        return results

    def game_standings_in(self, session: Session, tournament: Tournament, game: GameRow) -> list[GameStanding[int]]:
        settings = TournamentSettings.from_dict(tournament.settings)
        players = self.seated_in(session, game)
        return game_standings(players, self.round_results_in(session, tournament, game), tie_breaks=settings.tie_breaks)

    def tournament_standings_in(self, session: Session, tournament: Tournament,
                              before_game: int | None = None) -> list[TournamentStanding[int]]:
        settings = TournamentSettings.from_dict(tournament.settings)
        games = []
        for game in tournament.games:
            if before_game is not None and game.number >= before_game:
                continue
            results = self.round_results_in(session, tournament, game)
            seated = self.seated_in(session, game)
            if results and seated:     # a game nobody was seated in classifies nobody
                games.append((seated, results))
        # Classified: the players seated in at least one game played (IV.31); a late
        # registration or an absent player with no game yet is not in the standings.
        seated_anywhere = {player for members, _ in games for player in members}
        players = [entry.id for entry in tournament.entries if entry.id in seated_anywhere]
        try:
            # IV.31: III.28 over all the rounds only when the organiser announced tie-breaks
            # (prizes that cannot be shared); otherwise tied players share the position.
            return tournament_standings(players, games, TournamentCriterion(settings.criterion),
                                        tie_breaks=settings.tie_breaks)
        except ValueError as error:     # seats of entries that are gone: the stored rows disagree
            raise DamagedData(f"las mesas guardadas no casan con las inscripciones ({error}): la base de datos "
                              "está dañada; restaure una copia") from None

    def bonuses_in(self, session: Session, tournament: Tournament, game: GameRow, row: RoundRow) -> dict[int, int]:
        policy = TournamentSettings.from_dict(tournament.settings).bonus_policy
        scores = dict.fromkeys(session.scalars(select(Seat.entry_id).where(Seat.game_id == game.id)
                                               .order_by(Seat.table_number)), 0)      # as ``game.seats``
        for entry, score in session.execute(select(Slip.entry_id, Slip.score).where(
                Slip.game_id == game.id, Slip.round_number == row.number)):
            scores[entry] = score
        return round_bonuses(row.top_score, scores, policy)

    def refresh_bonuses(self, session: Session, tournament_id: int, game_id: int, round_number: int, actor: Actor,
                         why: str = "recalculadas tras una corrección") -> None:
        """After a change in a closed round: log the bonuses if they changed (III.24)."""
        game = session.get(GameRow, game_id)
        assert game is not None
        row = self._round(session, game, round_number)
        if not row.closed:
            return
        tournament = session.get(Tournament, tournament_id)
        assert tournament is not None
        session.flush()
        bonuses = {str(entry): points for entry, points in self.bonuses_in(session, tournament, game, row).items()}
        last = session.scalar(select(Event).where(Event.game_id == game.id, Event.round_number == row.number,
                                                  Event.kind == EventKind.BONUSES_AWARDED.value)
                              .order_by(Event.id.desc()).limit(1))
        if last is None or last.payload.get("bonuses") != bonuses:
            from duplicate.record.events_slips import BonusesAwarded     # a write's alone (issue 38)

            self._log(session, tournament.id, BonusesAwarded(row.number, bonuses),
                      game_id=game.id, round_number=row.number, actor=actor, reason=why)
