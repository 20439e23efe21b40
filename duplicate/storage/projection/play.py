"""The projector's handlers for games, seating, racks, masters, the clock, prepared games,
venues (events_play).

Events of this family that change no table: ``PreparedLoaded`` and ``PreparedLeft`` (the
plan is read from the log, ``duplicate.service.prepared_play``), ``VenueImported`` (the
imports are read from the log, ``duplicate.service.venues``) and ``TimerChanged`` (the
clock is read from the log).

A round's board before it (``RoundRow.board_before``, CGP) is derived here: the board of
the round before with its master placed (the empty board for the first round). What
needs the move generator (the rack's top moves, their count, the leftover as read) comes
in the rack's event.
"""

from __future__ import annotations

from sqlalchemy import Table, delete, insert, select
from sqlalchemy.orm import Session

from duplicate.record.event_kinds import EventKind
from duplicate.record.events_play import (
    GameCreated,
    GameEnded,
    MasterChosen,
    MasterUndone,
    RackDrawn,
    RackSet,
    RackWithdrawn,
    SlipsSetAside,
    TablesAssigned,
    VenueAdded,
)
from duplicate.rules.notation import parse_move
from duplicate.rules.statuses import GameStatus
from duplicate.storage.models import Base, Conflict, Event, GameRow, OnlineVenue, RoundRow, Seat, Slip
from duplicate.storage.projection.handler import Handler
from lexicon.alphabet import spanish
from lexicon.board import Board
from lexicon.move import placed_tiles

__all__ = ["HANDLERS", "MODELS", "SET_ASIDE"]

SET_ASIDE = "set_aside"
"""A conflict's resolution when its round's rack was withdrawn with its slips (III.29)."""


def _game(session: Session, row: Event) -> GameRow:
    game = session.get(GameRow, row.game_id)
    assert game is not None, f"el evento {row.id} no nombra ninguna partida"
    return game


def _round(session: Session, game_id: int | None, number: int) -> RoundRow:
    found = session.scalar(select(RoundRow).where(RoundRow.game_id == game_id, RoundRow.number == number))
    assert found is not None, f"la partida {game_id} no tiene ronda {number}"
    return found


def _game_created(session: Session, row: Event, event: GameCreated) -> None:
    """A new game, in set-up, with the event's game id (allocated by the action)."""
    session.add(GameRow(id=row.game_id, tournament_id=row.tournament_id, number=event.number,
                        planned_rounds=event.planned_rounds, seconds_per_round=event.seconds_per_round,
                        seed=event.seed, status=GameStatus.SETUP.value))


def _tables_assigned(session: Session, row: Event, event: TablesAssigned) -> None:
    """II.6: the game's seats become ``tables`` (entry → table); ``seating`` the method."""
    game = _game(session, row)
    session.execute(delete(Seat).where(Seat.game_id == game.id))
    seats = Seat.__table__
    assert isinstance(seats, Table)
    if event.tables:                          # in one statement, by table (no object per seat; issue 38)
        session.execute(insert(seats), [{"game_id": game.id, "entry_id": int(entry), "table_number": table}
                                        for entry, table in sorted(event.tables.items(), key=lambda item: item[1])])
    game.seating = event.method
    session.flush()
    session.expire(game, ["seats"])


def board_before(session: Session, game_id: int, number: int) -> str:
    """The board (CGP) before round ``number`` of the game: the board before the latest
    earlier round with that round's master placed; the empty board before the first.
    Raises ``ValueError`` (a ``SlipError`` or ``BoardError``) for a stored master that does
    not fit its board (a damaged table)."""
    alphabet = spanish()        # every compiled lexicon uses the FISE tile set
    previous = session.scalar(select(RoundRow).where(RoundRow.game_id == game_id, RoundRow.number < number)
                              .order_by(RoundRow.number.desc()).limit(1))
    if previous is None:
        return Board(alphabet).to_cgp()
    board = Board.from_cgp(previous.board_before, alphabet)
    if previous.master is not None:
        board.place(placed_tiles(board, parse_move(previous.master, alphabet, oriented=False)))
    return board.to_cgp()


def _rack(session: Session, row: Event, event: RackDrawn | RackSet) -> None:
    """III.12, III.17, III.19: the round's row, with the rack, the redraws, the board
    before it and the generator's findings the event carries; the game is in play."""
    game = _game(session, row)
    session.add(RoundRow(game_id=game.id, number=event.round, rack=event.rack, leftover=event.leftover or "",
                         redraws=list(event.redraws), arbiter_rack=isinstance(event, RackSet),
                         board_before=board_before(session, game.id, event.round),
                         top_score=event.top_score or 0, top_moves=list(event.tops or []),
                         move_count=event.moves or 0, annulled=False, closed=False))
    if game.status == GameStatus.SETUP.value:
        game.status = GameStatus.PLAYING.value
    session.flush()
    session.expire(game, ["rounds"])


def _rack_withdrawn(session: Session, row: Event, event: RackWithdrawn) -> None:
    """III.29: the round of the withdrawn rack goes (its slips went with ``SlipsSetAside``)."""
    game = _game(session, row)
    session.delete(_round(session, game.id, event.round))
    session.flush()
    session.expire(game, ["rounds"])


def _slips_set_aside(session: Session, row: Event, event: SlipsSetAside) -> None:
    """III.29: the round's slips leave the table of slips that count; its ``conflicts``
    are resolved ``SET_ASIDE`` by the judge who acted."""
    for conflict in session.scalars(select(Conflict).where(Conflict.id.in_(event.conflicts))):
        conflict.resolution, conflict.resolved_by = SET_ASIDE, row.arbiter
    session.execute(delete(Slip).where(Slip.game_id == row.game_id, Slip.round_number == event.round)
                    .execution_options(synchronize_session="fetch"))


def _master_chosen(session: Session, row: Event, event: MasterChosen) -> None:
    """III.15: the round's master, its score, why the rules place it and the cumulative score."""
    target = _round(session, row.game_id, event.round)
    target.master = event.master
    target.master_score = event.score
    target.master_reason = event.master_reason if event.master_reason is not None else row.reason
    target.cumulative = event.cumulative


def _master_undone(session: Session, row: Event, event: MasterUndone) -> None:
    """The round waits again for its master; a game its master ended is in play again."""
    target = _round(session, row.game_id, event.round)
    target.master = target.master_score = target.master_reason = target.cumulative = None
    game = _game(session, row)
    if game.status == GameStatus.ENDED.value:
        game.status, game.end_reason = GameStatus.PLAYING.value, None


def _game_ended(session: Session, row: Event, event: GameEnded) -> None:
    """III.22: the game is over, with its reason; a rack in play (a round without master)
    is not played and its round goes (its slips went with ``SlipsSetAside``)."""
    game = _game(session, row)
    session.execute(delete(RoundRow).where(RoundRow.game_id == game.id, RoundRow.master.is_(None))
                    .execution_options(synchronize_session="fetch"))
    game.status = GameStatus.ENDED.value
    game.end_reason = event.reason
    session.flush()
    session.expire(game, ["rounds"])


def _venue_added(session: Session, row: Event, event: VenueAdded) -> None:
    """Issue 27 §2: the tournament names the online venue."""
    session.add(OnlineVenue(tournament_id=row.tournament_id, name=event.venue, created_at=row.created_at))


HANDLERS: dict[EventKind, Handler] = {
    EventKind.GAME_CREATED: _game_created,
    EventKind.TABLES_ASSIGNED: _tables_assigned,
    EventKind.RACK_DRAWN: _rack,
    EventKind.RACK_SET: _rack,
    EventKind.RACK_WITHDRAWN: _rack_withdrawn,
    EventKind.SLIPS_SET_ASIDE: _slips_set_aside,
    EventKind.MASTER_CHOSEN: _master_chosen,
    EventKind.MASTER_UNDONE: _master_undone,
    EventKind.GAME_ENDED: _game_ended,
    EventKind.VENUE_ADDED: _venue_added,
}
MODELS: tuple[type[Base], ...] = (GameRow, RoundRow, Seat, OnlineVenue)
"""The models these handlers create; ``GameRow`` and ``RoundRow`` are changed by the slips
family's handlers too (publication, closing and annulling rounds), never by other code."""
