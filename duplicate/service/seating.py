"""Games and table assignment (II.6)."""

from __future__ import annotations

import random
import unicodedata
from collections.abc import Sequence
from typing import TYPE_CHECKING

from sqlalchemy import func, select
from sqlalchemy.orm import Session, selectinload

from duplicate.bounds import ROUND_SECONDS_MAX, SEED_MAX
from duplicate.rules.statuses import EntryStatus, GameStatus, SeatingMethod
from duplicate.service.access import Action
from duplicate.service.base import TaskModule
from duplicate.service.context import ServiceContext
from duplicate.service.errors import NotFound, ResultsUnpublished, StateConflict
from duplicate.service.online_venues import venue_names
from duplicate.service.settings import TournamentSettings
from duplicate.service.standings import Standings
from duplicate.storage.models import Entry, GameRow, Player, Seat, Tournament

if TYPE_CHECKING:   # loaded by the methods that use them, not by a reading command (issue 38)
    from duplicate.prepared.file import PreparedGame
    from duplicate.service.views import EntryView, PlayerView, SeatView


def _collation_key(name: str) -> str:
    """Spanish alphabetical order, ignoring accents and case (Ñ after N)."""
    folded = []
    for char in name.casefold():
        if char == "ñ":
            folded.append("n\uffff")
            continue
        folded.append("".join(c for c in unicodedata.normalize("NFD", char) if not unicodedata.combining(c)))
    return "".join(folded)


class Seating(TaskModule):
    """Games and table assignment (II.6)."""

    def __init__(self, context: ServiceContext, standings: Standings) -> None:
        super().__init__(context)
        self.standings = standings

    def create_game(self, *, tournament_id: int | None = None, rounds: int | None = None,
                    seconds_per_round: int | None = None, seed: int | None = None,
                    seating: SeatingMethod | None = None, seating_seed: int | None = None,
                    unpublished_reason: str = "", prepared: PreparedGame | None = None) -> int:
        """Create the next game (number = previous + 1) and seat the active players
        (``assign_tables``); returns the game number. ``rounds`` None = full bag (III.21).

        IV.32: the previous game must be over, its rounds closed and its results published
        (provisional or final: the game's and the updated tournament standings). The judge
        may start anyway with ``unpublished_reason``, recorded with the new game's event.
        ``prepared``: the game plays this prepared game (III.15, «duplicada maestra»; its
        seed and agreed rounds, ``duplicate.service.prepared_play``): it must be sealed by
        its digest and made with the tournament's lexicon; ``seed`` and ``rounds``, if
        given, must be its own. Raises ``TournamentError`` saying what is missing."""
        from duplicate.record.events_play import GameCreated, PreparedLoaded
        from duplicate.service.prepared_play import checked_for
        from duplicate.storage.projector import next_id     # the projector: loaded by a write (issue 38)

        if rounds is not None:
            self._number(rounds, "las rondas pactadas")
        if seconds_per_round is not None:
            self._number(seconds_per_round, "los segundos por ronda", minimum=1, maximum=ROUND_SECONDS_MAX)
        for value, what in ((seed, "la semilla del sorteo de fichas"), (seating_seed, "la semilla del sorteo de mesas")):
            if value is not None:
                self._number(value, what, minimum=0, maximum=SEED_MAX)
        with self._write() as session:
            tournament = self._tournament(session, tournament_id)
            actor = self._authorise(session, tournament.id, Action.CREATE_GAME)
            settings = TournamentSettings.from_dict(tournament.settings)
            if prepared is not None:
                checked_for(prepared, tournament, self.lexicon_for(tournament), seed, rounds)
                seed, rounds = prepared.seed, prepared.agreed_rounds
            for previous in tournament.games:
                # One game at a time, and its last round closed first: otherwise its slips
                # could no longer be entered from the stations, which follow the newest game.
                if previous.status in (GameStatus.SETUP.value, GameStatus.PLAYING.value):
                    raise StateConflict(f"la partida {previous.number} sigue en juego: termínela antes de crear "
                                          "la siguiente", what=f"partida {previous.number}", state="playing")
                open_rounds = [row.number for row in previous.rounds if row.master is not None and not row.closed]
                if open_rounds:
                    raise StateConflict(f"cierre antes la ronda {open_rounds[0]} de la partida {previous.number} "
                                          "(faltan papeletas por anotar o las bonificaciones)",
                                          what=f"partida {previous.number}", state="open_rounds")
                if previous.status == GameStatus.ENDED.value and not unpublished_reason.strip():
                    raise ResultsUnpublished(f"la partida {previous.number} no tiene publicados sus resultados ni la "
                                             "clasificación del torneo (IV.32): publíquelos antes, o indique el "
                                             "motivo para empezar la siguiente igualmente", game=previous.number)
            number = (session.scalar(select(func.max(GameRow.number)).where(GameRow.tournament_id == tournament.id))
                      or 0) + 1
            if seed is None:
                seed = random.SystemRandom().randrange(10**9)
            unpublished = [previous.number for previous in tournament.games if previous.status == GameStatus.ENDED.value]
            game_id = next_id(session, GameRow)
            self._log(session, tournament.id,
                      GameCreated(number, rounds, seconds_per_round or settings.seconds_per_round, seed),
                      game_id=game_id, actor=actor, reason=(f"IV.32: empieza sin publicar la partida {unpublished[-1]}: "
                                                            f"{unpublished_reason.strip()}") if unpublished else "")
            if prepared is not None:
                self._log(session, tournament.id, PreparedLoaded(prepared.digest, prepared.to_dict()),
                          game_id=game_id, actor=actor, reason="duplicada maestra: partida preparada (III.15)")
            tournament_id = tournament.id
        self.assign_tables(number, tournament_id=tournament_id, method=seating, seed=seating_seed)
        return number

    def assign_tables(self, game_number: int, *, tournament_id: int | None = None,
                      method: SeatingMethod | None = None, seed: int | None = None) -> list[SeatView]:
        """Seat the active players at tables 1..N (II.6): by partial tournament
        standings when a game has results, else by rating (when ratings exist), else
        alphabetically; ``random`` on request. Never free choice. Only before the
        first rack is drawn. With online venues (issue 27 §2) each room's players sit at a
        block of consecutive tables: the organiser's room first, then each venue in the
        order they were named."""
        from duplicate.record.events_play import TablesAssigned
        from duplicate.service.views import SeatView, view_of

        if seed is not None:
            self._number(seed, "la semilla del sorteo de mesas", minimum=0, maximum=SEED_MAX)
        with self._write() as session:
            tournament = self._tournament(session, tournament_id)
            actor = self._authorise(session, tournament.id, Action.ASSIGN_TABLES)
            game = self._game(session, tournament, game_number)
            if game.rounds:
                raise StateConflict(f"la partida {game.number} ya ha empezado: las mesas no se cambian",
                                    what=f"partida {game.number}", state="started")
            active = [entry for entry in tournament.entries if entry.status == EntryStatus.ACTIVE.value]
            previous = [other for other in tournament.games if other.number < game.number and other.rounds]
            if method is None:
                if previous:
                    method = SeatingMethod.STANDINGS
                elif self._ratings(active):
                    method = SeatingMethod.RATING
                else:
                    method = SeatingMethod.ALPHABETICAL
            ordered = self._seating_order(session, tournament, active, method, seed, game.number)
            # Online venues (issue 27 §2): each room's players at a block of consecutive tables,
            # the organiser's room first, then the venues as they were named; the order
            # within each room is the method's.
            rank = {name: index for index, name in enumerate(venue_names(session, tournament.id), start=1)}
            ordered.sort(key=lambda entry: 0 if entry.venue is None else rank.get(entry.venue, len(rank) + 1))
            tables = {str(entry.id): index for index, entry in enumerate(ordered, start=1)}
            self._log(session, tournament.id, TablesAssigned(method.value, seed, tables), game_id=game.id, actor=actor)
            return [view_of(SeatView, seat) for seat in session.scalars(
                select(Seat).where(Seat.game_id == game.id).order_by(Seat.table_number))]

    def _ratings(self, entries: Sequence[Entry]) -> dict[int, int]:
        """EloDI ratings of the entries' players (``player id → rating``), those that have
        one, from the ``ratings`` hook (none without it)."""
        players = [entry.player_id for entry in entries]
        if not players or self.hooks.ratings is None:
            return {}
        return self.hooks.ratings(players)

    def _seating_order(self, session: Session, tournament: Tournament, active: list[Entry], method: SeatingMethod,
                       seed: int | None, game_number: int) -> list[Entry]:
        def by_name(entry: Entry) -> tuple[str, int]:
            return (_collation_key(entry.player.name), entry.id)

        # Every entry's player read in one query (each ``entry.player`` then found in the
        # session, not read alone: 300 queries for 300 players; issue 38).
        session.scalars(select(Player).where(Player.id.in_([entry.player_id for entry in active]))).all()

        if method is SeatingMethod.RANDOM:
            ordered = sorted(active, key=lambda entry: entry.id)
            random.Random(seed).shuffle(ordered)
            return ordered
        if method is SeatingMethod.STANDINGS:
            standings = self.standings.tournament_standings_in(session, tournament, before_game=game_number)
            place = {standing.player: standing.position for standing in standings}
            last = len(place) + 1
            return sorted(active, key=lambda entry: (place.get(entry.id, last), *by_name(entry)))
        if method is SeatingMethod.RATING:
            # II.6: the rating in play (EloDI, section V), highest first; players without
            # a rating yet after them, alphabetically.
            ratings = self._ratings(active)
            return sorted(active, key=lambda entry: (entry.player_id not in ratings,
                                                     -ratings.get(entry.player_id, 0), *by_name(entry)))
        return sorted(active, key=by_name)

    def seats(self, game_number: int, tournament_id: int | None = None) -> list[tuple[int, EntryView, PlayerView]]:
        """``(table, entry, player)`` for a game, by table."""
        from duplicate.service.views import EntryView, PlayerView, view_of

        with self._read() as session:
            tournament = self._tournament(session, tournament_id)
            game = self._game(session, tournament, game_number)
            seats = session.scalars(select(Seat).where(Seat.game_id == game.id).order_by(Seat.table_number)
                                    .options(selectinload(Seat.entry).selectinload(Entry.player)))
            return [(seat.table_number, view_of(EntryView, seat.entry), view_of(PlayerView, seat.entry.player))
                    for seat in seats]

    def current_game(self, tournament_id: int | None = None) -> int:
        """The number of the game in play (the newest not ended), else the newest game."""
        with self._read() as session:
            tournament = self._tournament(session, tournament_id)
            if not tournament.games:
                raise NotFound(f"el torneo «{tournament.name}» no tiene partidas: créela con «game start»",
                               what="partida", key=None)
            open_games = [game for game in tournament.games
                          if game.status in (GameStatus.SETUP.value, GameStatus.PLAYING.value)]
            return (open_games or tournament.games)[-1].number
