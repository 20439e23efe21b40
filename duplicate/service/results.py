"""Closing rounds with their bonuses (III.24), standings (III.23, III.28, IV.31), publication and reopening (III.26, IV.32)."""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from duplicate.models import (
    AssistantRange,
    Claim,
    ClaimStatus,
    Conflict,
    Event,
    GameRow,
    GameStatus,
    RoundRow,
    Slip,
    Tournament,
)
from duplicate.service.corrections import Corrections
from duplicate.service.errors import TournamentError
from duplicate.service.events import EventKind
from duplicate.service.settings import TournamentSettings
from duplicate.service.slip_entry import (
    _fill_slip,
    _verdict_payload,
)
from duplicate.service.views import (
    RoundStatus,
)
from duplicate.slips import SlipStatus, mark_verdict
from duplicate.standings import (
    GameStanding,
    RoundResult,
    TournamentCriterion,
    TournamentStanding,
    game_standings,
    round_bonuses,
    tournament_standings,
)


class Results(Corrections):
    """Closing rounds with their bonuses (III.24), standings (III.23, III.28, IV.31), publication and reopening (III.26, IV.32)."""

    def close_round(self, game_number: int, round_number: int | None = None, *, tournament_id: int | None = None,
                    arbiter: str = "") -> dict[int, int]:
        """Close a round: every seated player without a slip gets ``missing`` (0 points),
        bonuses are awarded (III.24). Returns the bonuses ``{table: points}``."""
        with self.db.write() as session:
            tournament = self._tournament(session, tournament_id)
            game = self._game(session, tournament, game_number, lock=True)
            self._check_unlocked(game)
            number = round_number if round_number is not None else self._latest_round_number(session, game)
            row = self._round(session, game, number)
            if row.master is None:
                raise TournamentError(f"la ronda {number} aún no tiene jugada maestra: no se puede cerrar")
            if row.closed:
                raise TournamentError(f"la ronda {number} ya está cerrada")
            present = set(session.scalars(select(Slip.entry_id).where(Slip.game_id == game.id,
                                                                      Slip.round_number == number)))
            missing_verdict = mark_verdict(SlipStatus.MISSING)
            for seat in game.seats:
                if seat.entry_id not in present:
                    event = self._log(session, tournament.id, EventKind.SLIP_ENTERED,
                                      {"table": seat.table_number, "entry": seat.entry_id,
                                       **_verdict_payload("", missing_verdict, None)},
                                      game_id=game.id, round_number=number, arbiter=arbiter)
                    slip = Slip(game_id=game.id, round_number=number, entry_id=seat.entry_id,
                                table_number=seat.table_number)
                    _fill_slip(slip, "", missing_verdict, None, arbiter or self.station, event.id)
                    session.add(slip)
            session.flush()
            row.closed = True
            self._log(session, tournament.id, EventKind.ROUND_CLOSED, {"round": number}, game_id=game.id,
                      round_number=number, arbiter=arbiter)
            bonuses = self._bonuses(session, tournament, game, row)
            self._log(session, tournament.id, EventKind.BONUSES_AWARDED,
                      {"round": number, "bonuses": {str(entry): points for entry, points in bonuses.items()}},
                      game_id=game.id, round_number=number, arbiter=arbiter)
            tables = {seat.entry_id: seat.table_number for seat in game.seats}
            return {tables[entry]: points for entry, points in bonuses.items()}

    def round_status(self, game_number: int, round_number: int | None = None, *,
                     tournament_id: int | None = None) -> RoundStatus:
        """Slips entered versus expected, overall and per assistant range."""
        with self.db.read() as session:
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
            return RoundStatus(number, len(tables), len(tables) - len(missing), missing, per)

    def publish(self, game_number: int, *, final: bool = False, tournament_id: int | None = None,
                arbiter: str = "") -> list[GameStanding]:
        """Publish the game's results: provisional (claims may follow) or final, which
        locks the game (III.26, IV.32). Final needs every round closed and no open
        claim or conflict. Returns the standings published."""
        with self.db.write() as session:
            tournament = self._tournament(session, tournament_id)
            game = self._game(session, tournament, game_number, lock=True)
            self._check_unlocked(game)
            if game.status in (GameStatus.SETUP.value, GameStatus.PLAYING.value):
                raise TournamentError(f"la partida {game.number} no ha terminado: termínela antes de publicar")
            open_rounds = [row.number for row in game.rounds if not row.closed]
            if open_rounds:
                raise TournamentError(f"rondas sin cerrar: {', '.join(map(str, open_rounds))}")
            if final:
                open_claims = session.scalar(select(func.count()).select_from(Claim).where(
                    Claim.game_id == game.id, Claim.status == ClaimStatus.OPEN.value))
                open_conflicts = session.scalar(select(func.count()).select_from(Conflict).where(
                    Conflict.game_id == game.id, Conflict.resolution.is_(None)))
                if open_claims or open_conflicts:
                    raise TournamentError(f"quedan {open_claims} reclamaciones y {open_conflicts} conflictos "
                                          "por resolver antes de publicar los resultados definitivos")
            standings = self._game_standings(session, tournament, game)
            game.status = (GameStatus.FINAL if final else GameStatus.PROVISIONAL).value
            self._log(session, tournament.id, EventKind.RESULTS_PUBLISHED,
                      {"status": game.status,
                       "standings": [{"entry": s.player, "position": s.position, "total": s.total} for s in standings]},
                      game_id=game.id, arbiter=arbiter)
            return standings

    def reopen(self, game_number: int, *, reason: str, tournament_id: int | None = None, arbiter: str = "") -> None:
        """The judge reopens a final game (explicit and logged); it becomes provisional."""
        if not reason.strip():
            raise TournamentError("reabrir una partida con resultados definitivos exige indicar el motivo")
        with self.db.write() as session:
            tournament = self._tournament(session, tournament_id)
            game = self._game(session, tournament, game_number, lock=True)
            if game.status != GameStatus.FINAL.value:
                raise TournamentError(f"la partida {game.number} no tiene resultados definitivos")
            game.status = GameStatus.PROVISIONAL.value
            self._log(session, tournament.id, EventKind.GAME_REOPENED, {"status": game.status}, game_id=game.id,
                      arbiter=arbiter, reason=reason)

    def game_standings(self, game_number: int, tournament_id: int | None = None) -> list[GameStanding]:
        """Game standings (III.23, III.24, III.28); ``player`` is the entry id."""
        with self.db.read() as session:
            tournament = self._tournament(session, tournament_id)
            return self._game_standings(session, tournament, self._game(session, tournament, game_number))

    def tournament_standings(self, tournament_id: int | None = None) -> list[TournamentStanding]:
        """Tournament standings by the tournament's criterion (IV.31); ``player`` is the entry id."""
        with self.db.read() as session:
            return self._tournament_standings(session, self._tournament(session, tournament_id))

    def round_results(self, game_number: int, tournament_id: int | None = None) -> list[RoundResult]:
        """Per played round: master and top scores, each seated player's score and bonus."""
        with self.db.read() as session:
            tournament = self._tournament(session, tournament_id)
            return self._round_results(session, tournament, self._game(session, tournament, game_number))

    def _round_results(self, session: Session, tournament: Tournament, game: GameRow) -> list[RoundResult]:
        policy = TournamentSettings.from_dict(tournament.settings).bonus_policy
        seated = [seat.entry_id for seat in game.seats]
        scores: dict[int, dict[int, int]] = {}
        for number, entry, score in session.execute(select(Slip.round_number, Slip.entry_id, Slip.score)
                                                    .where(Slip.game_id == game.id)):
            scores.setdefault(number, {})[entry] = score
        results = []
        for row in game.rounds:
            if row.master_score is None:
                continue
            round_scores = {entry: scores.get(row.number, {}).get(entry, 0) for entry in seated}
            bonuses = round_bonuses(row.top_score, round_scores, policy) if row.closed else {}
            results.append(RoundResult(number=row.number, master_score=row.master_score, top_score=row.top_score,
                                       scores=round_scores, bonuses=bonuses))
        return results

    def _game_standings(self, session: Session, tournament: Tournament, game: GameRow) -> list[GameStanding]:
        settings = TournamentSettings.from_dict(tournament.settings)
        players = [seat.entry_id for seat in game.seats]
        return game_standings(players, self._round_results(session, tournament, game), tie_breaks=settings.tie_breaks)

    def _tournament_standings(self, session: Session, tournament: Tournament,
                              before_game: int | None = None) -> list[TournamentStanding]:
        settings = TournamentSettings.from_dict(tournament.settings)
        games = []
        for game in tournament.games:
            if before_game is not None and game.number >= before_game:
                continue
            results = self._round_results(session, tournament, game)
            seated = [seat.entry_id for seat in game.seats]
            if results and seated:     # a game nobody was seated in classifies nobody
                games.append((seated, results))
        # Classified: the players seated in at least one game played (IV.31); a late
        # registration or an absent player with no game yet is not in the standings.
        seated_anywhere = {player for members, _ in games for player in members}
        players = [entry.id for entry in tournament.entries if entry.id in seated_anywhere]
        return tournament_standings(players, games, TournamentCriterion(settings.criterion), tie_breaks=True,
                                    game_tie_breaks=settings.tie_breaks)

    def _bonuses(self, session: Session, tournament: Tournament, game: GameRow, row: RoundRow) -> dict[int, int]:
        policy = TournamentSettings.from_dict(tournament.settings).bonus_policy
        scores = {seat.entry_id: 0 for seat in game.seats}
        for entry, score in session.execute(select(Slip.entry_id, Slip.score).where(
                Slip.game_id == game.id, Slip.round_number == row.number)):
            scores[entry] = score
        return round_bonuses(row.top_score, scores, policy)

    def _refresh_bonuses(self, session: Session, tournament_id: int, game_id: int, round_number: int,
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
        bonuses = {str(entry): points for entry, points in self._bonuses(session, tournament, game, row).items()}
        last = session.scalar(select(Event).where(Event.game_id == game.id, Event.round_number == row.number,
                                                  Event.kind == EventKind.BONUSES_AWARDED.value)
                              .order_by(Event.id.desc()).limit(1))
        if last is None or last.payload.get("bonuses") != bonuses:
            self._log(session, tournament.id, EventKind.BONUSES_AWARDED, {"round": row.number, "bonuses": bonuses},
                      game_id=game.id, round_number=row.number, reason=why)

    def partial_standings(self, game_number: int, through_round: int,
                          tournament_id: int | None = None) -> list[GameStanding]:
        """The game standings counting only rounds 1..``through_round`` (the partial
        standings shown every ``partial_every`` rounds; FISE: every 3). Same ordering and
        tie-breaks as ``game_standings``; ``player`` is the entry id."""
        with self.db.read() as session:
            tournament = self._tournament(session, tournament_id)
            game = self._game(session, tournament, game_number)
            settings = TournamentSettings.from_dict(tournament.settings)
            results = [result for result in self._round_results(session, tournament, game)
                       if result.number <= through_round]
            return game_standings([seat.entry_id for seat in game.seats], results, tie_breaks=settings.tie_breaks)
