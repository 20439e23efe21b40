"""Which games count for EloDI and the field each is rated in (rules V; ``elodi.md``,
"Which games count"): a game published final with enough rounds; its players active when
it was published final, by total score (or the published positions with
``use_tie_breaks``); with imported venues the whole field's (``ranking.venue_field``).
Also which rated games are stale (reopened, published again, a venue imported again) and
the classifications stored with the rated games, reused when nothing changed. Read only:
a part of ``ranking.ratings.RatingService``."""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from duplicate.record.event_kinds import EventKind
from duplicate.rules.statuses import EntryStatus, GameStatus
from duplicate.service.context import ServiceContext
from duplicate.service.facade import TournamentService
from duplicate.storage.models import Entry, Event, GameRow, RoundRow, Tournament, find_tournament
from duplicate.storage.rating_models import RatedGame, RatingChange
from ranking.elodi import EloDISettings
from ranking.rating_views import (
    GameRef,
    RatingError,
    RatingInput,
    VenuePerson,
    current_version_in,
    dated_ref,
    game_refs,
)
from ranking.venue_field import field_totals, venue_marker, venue_markers

__all__ = ["RatingField"]


class RatingField:
    """The games that count and their fields, on ``context`` with the algorithm's
    ``settings`` (``min_rounds``, ``use_tie_breaks``)."""

    def __init__(self, context: ServiceContext, settings: EloDISettings) -> None:
        self.context = context
        self.settings = settings
        self._tournaments = TournamentService(context.db, station=context.station)

    def game_ref(self, game_number: int, tournament_id: int | None = None) -> GameRef:
        """The game ``game_number`` of the tournament (default: the newest tournament)."""
        with self.context.read() as session:
            tournament = self._tournament(session, tournament_id)
            game = session.scalar(select(GameRow).where(GameRow.tournament_id == tournament.id,
                                                        GameRow.number == game_number))
            if game is None:
                raise RatingError(f"el torneo «{tournament.name}» no tiene partida {game_number}",
                                  what="partida", value=game_number)
            return dated_ref(game, tournament)

    def why_not_rated(self, ref: GameRef) -> str | None:
        """``None`` when the game counts for EloDI, else the reason in Spanish."""
        with self.context.read() as session:
            game = session.get(GameRow, ref.game_id)
            if game is None:
                return "la partida no existe"
            return self.why_not(session, game)

    def why_not(self, session: Session, game: GameRow) -> str | None:
        """``why_not_rated`` inside a transaction."""
        if game.status != GameStatus.FINAL.value:
            return "sus resultados no son definitivos"
        rounds = self._rounds_of(session, game)
        if rounds < self.settings.min_rounds:
            return f"solo tiene {rounds} rondas (el mínimo para EloDI es {self.settings.min_rounds})"
        return None

    @staticmethod
    def _rounds(session: Session, game_id: int) -> int:
        return session.scalar(select(func.count()).select_from(RoundRow).where(
            RoundRow.game_id == game_id, RoundRow.master_score.is_not(None))) or 0

    def _rounds_of(self, session: Session, game: GameRow) -> int:
        """The rounds a game played: its own, or with imported venues the most any room
        played of it (an organiser may have no room of its own, ``ranking.venue_field``)."""
        rounds = self._rounds(session, game.id)
        if venue_marker(session, game.tournament_id) is None:
            return rounds
        lines = self._tournaments.venue_game_standings(game.number, None, game.tournament_id)
        return max(rounds, max((len(line.per_round) for line in lines), default=0))

    def valid_games(self) -> list[GameRef]:
        """Every game that counts for EloDI now, in date order."""
        with self.context.read() as session:
            rounds = dict(session.execute(select(RoundRow.game_id, func.count()).where(
                RoundRow.master_score.is_not(None)).group_by(RoundRow.game_id)).all())
            with_venues = venue_markers(session)
            rows = session.execute(select(GameRow, Tournament).join(Tournament)
                                   .where(GameRow.status == GameStatus.FINAL.value)).all()
            return sorted(dated_ref(game, tournament) for game, tournament in rows
                          if (self._rounds_of(session, game) if tournament.id in with_venues
                              else rounds.get(game.id, 0)) >= self.settings.min_rounds)

    def rated_games(self) -> list[GameRef]:
        """The games rated so far, in date order."""
        with self.context.read() as session:
            rows = session.execute(select(GameRow, Tournament).join(Tournament)
                                   .join(RatedGame, RatedGame.game_id == GameRow.id)
                                   .where(RatedGame.version == current_version_in(session))).all()
            return sorted(dated_ref(game, tournament) for game, tournament in rows)

    def stale_games(self) -> list[GameRef]:
        """Rated games that changed since: no longer final, or published final again."""
        stale = []
        with self.context.read() as session:
            for rated, game, tournament in session.execute(
                    select(RatedGame, GameRow, Tournament).join(GameRow, RatedGame.game_id == GameRow.id)
                    .join(Tournament).where(RatedGame.version == current_version_in(session))).all():
                if game.status != GameStatus.FINAL.value or \
                        self.marker(session, game.id, tournament.id) != rated.published_event_id:
                    stale.append(dated_ref(game, tournament))
        return sorted(stale)

    @staticmethod
    def _final_publication(session: Session, game_id: int) -> int | None:
        events = session.execute(select(Event.id, Event.payload).where(
            Event.game_id == game_id, Event.kind == EventKind.RESULTS_PUBLISHED.value).order_by(Event.id.desc()))
        for event_id, payload in events:
            if payload.get("status") == GameStatus.FINAL.value:
                return int(event_id)
        return None

    @classmethod
    def marker(cls, session: Session, game_id: int, tournament_id: int) -> int | None:
        """The event a game's rating is of: its final publication, or the tournament's
        latest venue import when later (``ranking.venue_field``); None if not published final."""
        published = cls._final_publication(session, game_id)
        imported = venue_marker(session, tournament_id)
        return published if published is None or imported is None else max(published, imported)

    def prepare(self, ref: GameRef) -> RatingInput:
        """Read a valid game's standings and the players active at its final publication;
        with imported venues, the whole field's (``ranking.venue_field``)."""
        with self.context.read() as session:
            venues = venue_marker(session, ref.tournament_id) is not None
        standings = [] if venues else self._tournaments.game_standings(ref.number, ref.tournament_id)
        with self.context.read() as session:
            published = self.marker(session, ref.game_id, ref.tournament_id)
            game_row = session.get(GameRow, ref.game_id)
            rounds = self._rounds_of(session, game_row) if game_row is not None else 0
            entries = {entry.id: entry for entry in session.scalars(
                select(Entry).where(Entry.tournament_id == ref.tournament_id))}
            status = {entry_id: EntryStatus.ACTIVE.value for entry_id in entries}
            if published is None:            # written without a publication event: current statuses
                status = {entry_id: entry.status for entry_id, entry in entries.items()}
            else:
                for (payload,) in session.execute(select(Event.payload).where(
                        Event.tournament_id == ref.tournament_id, Event.kind == EventKind.ENTRY_STATUS.value,
                        Event.id < published).order_by(Event.id)):
                    status[int(payload["entry"])] = str(payload["after"])
        field = [line for line in standings if status.get(line.player) == EntryStatus.ACTIVE.value]
        totals = {entries[line.player].player_id: line.total for line in field}
        persons: tuple[VenuePerson, ...] = ()
        if venues:    # every venue's players ranked together, by total (``use_tie_breaks`` is not applied)
            totals, persons = field_totals(self._tournaments, self.context, ref.tournament_id, ref.number,
                                  {entry_id: entry.player_id for entry_id, entry in entries.items()
                                   if status.get(entry_id) == EntryStatus.ACTIVE.value})
        if self.settings.use_tie_breaks and not venues:
            positions = {entries[line.player].player_id: float(line.position) for line in field}
        else:
            ordered = sorted(totals.values(), reverse=True)
            first_place = {total: float(index) for index, total in reversed(list(enumerate(ordered, start=1)))}
            positions = {player: first_place[total] for player, total in totals.items()}
        return RatingInput(ref, published, rounds, totals, positions, persons)

    def stored_inputs(self, session: Session) -> dict[int, RatingInput]:
        """The classification each rated game was rated with, by game id, when it can be
        reused: the game's final publication is still the one rated (a final game cannot
        change without being reopened and published again) and the positions were taken
        the same way (``use_tie_breaks``)."""
        published: dict[int, int] = {}
        for event_id, game_id, payload in session.execute(
                select(Event.id, Event.game_id, Event.payload).where(Event.kind == EventKind.RESULTS_PUBLISHED.value)
                .order_by(Event.id)):
            if payload.get("status") == GameStatus.FINAL.value:
                published[game_id] = event_id
        refs = game_refs(session)
        imported = venue_markers(session)
        for game_id, event_id in list(published.items()):
            if game_id in refs and refs[game_id].tournament_id in imported:
                published[game_id] = max(event_id, imported[refs[game_id].tournament_id])
        cached: dict[int, RatingInput] = {}
        current = current_version_in(session)
        games = {rated.id: rated for rated in session.scalars(select(RatedGame).where(RatedGame.version == current))}
        inputs: dict[int, tuple[dict[int, int], dict[int, float]]] = {}
        for rated_game_id, player, total, position in session.execute(
                select(RatingChange.rated_game_id, RatingChange.player_id, RatingChange.total, RatingChange.position)
                .join(RatedGame, RatingChange.rated_game_id == RatedGame.id).where(RatedGame.version == current)):
            totals, positions = inputs.setdefault(rated_game_id, ({}, {}))
            totals[player], positions[player] = total, position
        for rated in games.values():
            if rated.published_event_id is None or published.get(rated.game_id) != rated.published_event_id:
                continue
            if bool(rated.settings.get("use_tie_breaks")) != self.settings.use_tie_breaks:
                continue
            totals, positions = inputs.get(rated.id, ({}, {}))
            cached[rated.game_id] = RatingInput(refs[rated.game_id], rated.published_event_id, rated.rounds,
                                                totals, positions)
        return cached

    @staticmethod
    def _tournament(session: Session, tournament_id: int | None) -> Tournament:
        tournament = find_tournament(session, tournament_id)
        if tournament is None:
            raise RatingError("no hay ningún torneo en la base de datos" if tournament_id is None
                              else f"no existe el torneo {tournament_id}", what="torneo", value=tournament_id)
        return tournament
