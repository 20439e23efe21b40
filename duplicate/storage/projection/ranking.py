"""The projector's handlers for classic events and EloDI (events_ranking).

**Classic divisions** (``ranking.classic``). Each event names its division by name in
its tournament and its players by starting number, as the tables stand when it applies;
the rows later rows refer to get the ids the event names (the division, each player's
seed, each board), so a replay into an empty database gives the same ids. A starting
list put in the initial order again (C.04.2 B.3: the order is a rule of ``ranking``,
not of storage) comes as the ``order`` of the rows; a score typed at a station is
kept with the event's station, arbiter, reason and time.

**EloDI** (rules V). The ratings are figures computed by ``ranking.elodi`` (numpy, a
rule of ``ranking``, which storage never imports), but their history is a record: the
list a federation keeps, each figure signed for by a judge. So the rating events carry
what the rating *computed* and what it was computed *from*, and nothing the tables
already hold: per game the players' totals and positions (the classification rated),
and per rated player the values after the game, ERank, ARank and whether the cap bound;
the values before, the phase, the games counted, the sequence in the version and the
time are the tables' and the event row's. The current ``Rating`` of each player is the
last ``after`` of their history: after a recomputation it is rebuilt from the new
version alone. So the four rating tables are a projection of the logs holding the
rating events, read in the order of the events (a database's rating list spans its
tournaments: restoring one tournament's record restores its games' ratings only when
the games it rated are those of that tournament).

An event of a record older than this (issue 34) lacks what the rows need (the seeds
entered without an event, the rating figures): applying it raises ``ValueError``.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from duplicate.record.event_kinds import EventKind
from duplicate.record.events_ranking import (
    ClassicEntryChanged,
    DivisionCreated,
    RatingsRecomputed,
    RatingsUpdated,
    ResultConflict,
    ResultEntered,
    ResultResolved,
    RoundPaired,
)
from duplicate.storage.classic_models import (
    ClassicAbsence,
    ClassicBoard,
    ClassicDivision,
    ClassicScoreEntry,
    ClassicSeed,
)
from duplicate.storage.models import Base, Event, GameRow, Player
from duplicate.storage.projection.handler import Handler
from duplicate.storage.rating_models import RatedGame, Rating, RatingChange, RatingVersion

__all__ = ["HANDLERS", "MODELS"]

_BYES = {"half-bye": "H", "zero-bye": "Z"}
"""``ClassicEntryChanged.change`` of a bye asked for → ``ClassicAbsence.kind``."""


def _lacking(row: Event, *names: str) -> ValueError:
    """The error for an event stored before its kind carried what the tables need (a
    record older than issue 34: its rows cannot be made from it)."""
    return ValueError(f"el evento {row.kind!r} no trae {', '.join(names)}: es de un registro anterior a que las "
                      "tablas se hicieran desde el registro, y no se puede aplicar")


# --- classic divisions -------------------------------------------------------------------------


def _division(session: Session, row: Event, name: str) -> ClassicDivision:
    return session.scalars(select(ClassicDivision).where(ClassicDivision.tournament_id == row.tournament_id,
                                                         ClassicDivision.name == name)).one()


def _seed(session: Session, division: ClassicDivision, number: int) -> ClassicSeed:
    return session.scalars(select(ClassicSeed).where(ClassicSeed.division_id == division.id,
                                                     ClassicSeed.number == number)).one()


def _board(session: Session, row: Event, name: str, round_number: int, table: int) -> ClassicBoard:
    division = _division(session, row, name)
    return session.scalars(select(ClassicBoard).where(ClassicBoard.division_id == division.id,
                                                      ClassicBoard.round == round_number,
                                                      ClassicBoard.table == table)).one()


def _division_created(session: Session, row: Event, event: DivisionCreated) -> None:
    session.add(ClassicDivision(id=event.id, tournament_id=row.tournament_id, name=event.division,
                                system=event.system, rounds=event.rounds, settings=dict(event.settings)))


def _renumber(session: Session, division: ClassicDivision, order: list[int]) -> None:
    """Starting numbers 1… in ``order`` (seed ids); two steps, (division, number) being unique."""
    seeds = {seed.id: seed for seed in
             session.scalars(select(ClassicSeed).where(ClassicSeed.division_id == division.id))}
    for index, seed_id in enumerate(order, start=1):
        seeds[seed_id].number = -index
    session.flush()
    for seed_id in order:
        seeds[seed_id].number = -seeds[seed_id].number
    session.flush()


def _entry_changed(session: Session, row: Event, event: ClassicEntryChanged) -> None:
    division = _division(session, row, event.division)
    if event.change in ("entered", "joined"):
        if event.entry is None:
            raise _lacking(row, "seed", "entry")
        last = session.scalar(select(func.max(ClassicSeed.number)).where(ClassicSeed.division_id == division.id))
        session.add(ClassicSeed(id=event.seed, division_id=division.id, entry_id=event.entry, number=(last or 0) + 1,
                                rating=event.rating or 0, title=event.title or "", first_round=event.round))
        session.flush()
    elif event.change == "rating":
        seed = (session.get(ClassicSeed, event.seed) if event.seed is not None
                else _seed(session, division, event.number))
        if seed is None or event.rating is None:
            raise _lacking(row, "seed", "rating")
        seed.rating = event.rating
        if event.title is not None:
            seed.title = event.title
        session.flush()
    elif event.change == "withdrawn":
        _seed(session, division, event.number).withdrawn_round = event.round
    elif event.change in _BYES:
        session.add(ClassicAbsence(seed_id=_seed(session, division, event.number).id, round=event.round,
                                   kind=_BYES[event.change]))
    if event.order:
        _renumber(session, division, event.order)


def _round_paired(session: Session, row: Event, event: RoundPaired) -> None:
    division = _division(session, row, event.division)
    seeds = {seed.number: seed.id for seed in
             session.scalars(select(ClassicSeed).where(ClassicSeed.division_id == division.id))}
    ids: list[int | None] = list(event.ids) if event.ids else [None] * len(event.boards)
    forfeits = iter(event.forfeits or ())
    for board_id, (table, first, second) in zip(ids, event.boards, strict=True):
        forfeit = next(forfeits, None) if table == 0 and second else None
        method = "gibson" if event.gibson is not None and table == event.gibson else event.method
        session.add(ClassicBoard(id=board_id, division_id=division.id, round=event.round, table=table or None,
                                 first_id=seeds[first], second_id=seeds[second] if second else None,
                                 forfeit=forfeit, method=method))
    if event.club_waived:
        waived = sorted({*division.settings.get("club_waived", []), event.round})
        division.settings = {**division.settings, "club_waived": waived}
    if event.system_pairs is not None:          # a manual Swiss round unlike the system's (C.04.2 A.4/A.5)
        manual = {**division.settings.get("manual_rounds", {}), str(event.round): row.reason or ""}
        division.settings = {**division.settings, "manual_rounds": manual}


def _score_entry(session: Session, row: Event, board: ClassicBoard, first: int, second: int) -> None:
    """A score typed at a station (confirmation or conflict are told by the board's state)."""
    session.add(ClassicScoreEntry(board_id=board.id, first_score=first, second_score=second, station=row.station,
                                  arbiter=row.arbiter, note=row.reason, entered_at=row.created_at))


def _result_entered(session: Session, row: Event, event: ResultEntered) -> None:
    board = _board(session, row, event.division, event.round, event.table)
    if event.forfeit is not None:                     # the judge's: no score typed
        board.first_score = board.second_score = None
        board.forfeit, board.conflict = event.forfeit, False
        return
    _score_entry(session, row, board, event.first_score, event.second_score)
    counted = (board.first_score, board.second_score)
    stored_or_confirmed = board.forfeit is None and counted in ((None, None), (event.first_score, event.second_score))
    board.first_score, board.second_score, board.forfeit = event.first_score, event.second_score, None
    if not stored_or_confirmed:                       # the judge's correction settles a conflict
        board.conflict = False


def _result_conflict(session: Session, row: Event, event: ResultConflict) -> None:
    board = _board(session, row, event.division, event.round, event.table)
    _score_entry(session, row, board, event.first_score, event.second_score)
    board.conflict = True


def _result_resolved(session: Session, row: Event, event: ResultResolved) -> None:
    board = _board(session, row, event.division, event.round, event.table)
    board.first_score, board.second_score, board.forfeit, board.conflict = (event.first_score, event.second_score,
                                                                            None, False)


# --- EloDI ---------------------------------------------------------------------------------------

_State = dict[int, tuple[int, int, int, int | None]]
"""Player id → rating, volatility, rated games, last rated game's id."""


def _rate(session: Session, row: Event, version: int, sequence: int, game: dict[str, Any],
          settings: dict[str, Any], state: _State) -> None:
    """Store one rated ``game`` of an event (``RATED_GAME_KEYS``) into ``version`` at
    ``sequence``, from the players' values in ``state``, which it updates."""
    game_id = session.scalars(select(GameRow.id).where(GameRow.tournament_id == game["tournament"],
                                                       GameRow.number == game["game"])).one()
    rated = RatedGame(version=version, game_id=game_id, sequence=sequence, published_event_id=game["published"],
                      rounds=game["rounds"], settings=dict(settings), rated_at=row.created_at)
    session.add(rated)
    session.flush()
    for line in game["players"]:
        player, total, position = int(line[0]), int(line[1]), float(line[2])
        before = state.get(player)
        values: dict[str, Any] = {
            "rated_game_id": rated.id, "player_id": player, "total": total, "position": position,
            "rating_before": before[0] if before else None, "volatility_before": before[1] if before else None,
            "games_before": before[2] if before else 0}
        if len(line) == 3:                            # unchanged: too few rated players
            values.update(phase="unchanged", target_position=None, actual_position=None,
                          rating_after=before[0] if before else int(settings["start_rating"]),
                          volatility_after=before[1] if before else int(settings["start_volatility"]),
                          games_after=values["games_before"], cap_bound=False)
        else:
            rating, volatility, target, actual, cap = line[3:8]
            values.update(phase="rated" if before else "new", target_position=float(target),
                          actual_position=float(actual), rating_after=int(rating), volatility_after=int(volatility),
                          games_after=values["games_before"] + 1, cap_bound=bool(cap))
            state[player] = (int(rating), int(volatility), values["games_after"], game_id)
        session.add(RatingChange(**values))


def _make_persons(session: Session, persons: list[list[Any]] | None) -> None:
    """The persons made for imported venues' players: ``[id, name, club, country, federation number]``."""
    for person_id, name, club, country, federation_id in persons or ():
        session.add(Player(id=person_id, name=name, club=club, country=country, federation_id=federation_id))
    if persons:
        session.flush()


def _ratings_updated(session: Session, row: Event, event: RatingsUpdated) -> None:
    if event.settings is None or any("players" not in game for game in event.games):
        raise _lacking(row, "settings", "players")
    _make_persons(session, event.persons)
    if session.get(RatingVersion, event.version) is None:    # the first history: made by an update
        session.add(RatingVersion(number=event.version, kind="update", created_at=row.created_at,
                                  station=row.station, arbiter="", tournament_id=None))
        session.flush()
    sequence = session.scalar(select(func.max(RatedGame.sequence)).where(RatedGame.version == event.version)) or 0
    ratings = {rating.player_id: rating for rating in session.scalars(select(Rating))}
    state: _State = {player: (r.rating, r.volatility, r.games, r.last_game_id) for player, r in ratings.items()}
    for offset, game in enumerate(event.games, start=1):
        _rate(session, row, event.version, sequence + offset, game, event.settings, state)
    for player, (rating, volatility, games, last) in state.items():
        current = ratings.get(player)
        if current is None:
            session.add(Rating(player_id=player, rating=rating, volatility=volatility, games=games, last_game_id=last))
        elif (current.rating, current.volatility, current.games, current.last_game_id) != (rating, volatility, games,
                                                                                           last):
            current.rating, current.volatility, current.games, current.last_game_id = rating, volatility, games, last


def _ratings_recomputed(session: Session, row: Event, event: RatingsRecomputed) -> None:
    if event.rated is None or event.settings is None:
        raise _lacking(row, "rated", "settings")
    _make_persons(session, event.persons)
    session.add(RatingVersion(number=event.version, kind="recompute", created_at=row.created_at,
                              station=row.station, arbiter=row.arbiter, tournament_id=row.tournament_id))
    session.flush()
    session.execute(delete(Rating))
    state: _State = {}
    for sequence, game in enumerate(event.rated, start=1):
        _rate(session, row, event.version, sequence, game, event.settings, state)
    session.add_all(Rating(player_id=player, rating=rating, volatility=volatility, games=games, last_game_id=last)
                    for player, (rating, volatility, games, last) in sorted(state.items()))


HANDLERS: dict[EventKind, Handler] = {
    EventKind.DIVISION_CREATED: _division_created,
    EventKind.CLASSIC_ENTRY: _entry_changed,
    EventKind.ROUND_PAIRED: _round_paired,
    EventKind.RESULT_ENTERED: _result_entered,
    EventKind.RESULT_CONFLICT: _result_conflict,
    EventKind.RESULT_RESOLVED: _result_resolved,
    EventKind.RATINGS_UPDATED: _ratings_updated,
    EventKind.RATINGS_RECOMPUTED: _ratings_recomputed,
}
MODELS: tuple[type[Base], ...] = (ClassicDivision, ClassicSeed, ClassicBoard, ClassicAbsence, ClassicScoreEntry,
                                  RatedGame, Rating, RatingChange, RatingVersion)
