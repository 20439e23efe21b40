"""The projector's play handlers (issue 34 §1): each event kind applied on a state gives
exactly the rows expected; seats and online venues refuse any other writer; a round's
board before it is the engine's; the engine cache forgets what a failed write played.

The events are applied into an empty database (as a restore replays a record). Expected
boards are written out square by square (CGP), never computed by the code under test."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from duplicate.record.event_kinds import TournamentEvent
from duplicate.record.events_play import (
    GameCreated,
    GameEnded,
    MasterChosen,
    MasterUndone,
    PreparedLeft,
    PreparedLoaded,
    RackDrawn,
    RackSet,
    RackWithdrawn,
    SlipsSetAside,
    TablesAssigned,
    TimerChanged,
    VenueAdded,
    VenueImported,
)
from duplicate.record.events_registration import PlayerAdded, TournamentCreated
from duplicate.record.events_slips import SlipConflict, SlipEntered
from duplicate.rules.statuses import SeatingMethod
from duplicate.service.facade import TournamentService
from duplicate.storage.database import Database, open_database
from duplicate.storage.models import Base, Conflict, GameRow, OnlineVenue, RoundRow, Seat, Slip
from duplicate.storage.projector import ProjectionBypassed
from lexicon.lexicon import Lexicon
from tests.credentials import JUDGE_PIN
from tests.duplicate.projection_steps import MOMENT, apply, database_at, rows

TOURNAMENT, GAME = 7, 21
EMPTY = "/".join(["15"] * 15)
CASA = "/".join(["15"] * 7 + ["7CASA4"] + ["15"] * 7)      # H8-CASA: row H, columns 8–11
TOPS = [["H8-CASA", 12, "la primera en el orden de III.15"], ["8H-CASA", 12, ""]]


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Database]:
    with database_at(request.param, tmp_path) as database:
        yield started(database)


def started(database: Database) -> Database:
    """A tournament of three players (entries 40–42) and its first game (id ``GAME``)."""
    apply(database, TOURNAMENT, TournamentCreated("Open", {}, "a" * 64))
    for entry, name in ((40, "Ana"), (41, "Bea"), (42, "Carla")):
        apply(database, TOURNAMENT, PlayerAdded(entry, entry - 30, name, "", "", None))
    apply(database, TOURNAMENT, GameCreated(1, 5, 180, 1234), game_id=GAME)
    return database


def on_game(database: Database, typed: TournamentEvent, round_number: int | None = None, **options: Any) -> int:
    return apply(database, TOURNAMENT, typed, game_id=GAME, round_number=round_number, **options)


def drawn(number: int, rack: str = "CASAXYZ") -> RackDrawn:
    return RackDrawn(number, rack, [], None, "", 12, TOPS, 40)


def every_row(session: Session) -> dict[str, list[tuple[Any, ...]]]:
    """Every projected row of every table of this family, column by column."""
    found: dict[str, list[tuple[Any, ...]]] = {}
    for model in Base.__subclasses__():
        table = model.__table__
        if table.name in ("events", "alembic_version"):
            continue
        found[table.name] = [tuple(row) for row in session.execute(select(table)).all()]   # type: ignore[arg-type]
    return found


def test_game_created_makes_the_game_in_set_up_with_the_events_id(database: Database) -> None:
    with database.read() as session:
        assert rows(session, GameRow, "id", "tournament_id", "number", "planned_rounds", "seconds_per_round", "seed",
                    "status", "seating", "end_reason") == [(GAME, TOURNAMENT, 1, 5, 180, 1234, "setup", None, None)]


def test_tables_assigned_seats_the_players_and_a_new_assignment_replaces_it(database: Database) -> None:
    on_game(database, TablesAssigned("alphabetical", None, {"40": 1, "41": 2, "42": 3}))
    on_game(database, TablesAssigned("random", 5, {"42": 1, "40": 2, "41": 3}))
    with database.read() as session:
        seats = session.execute(select(Seat.game_id, Seat.table_number, Seat.entry_id).order_by(Seat.table_number))
        assert [tuple(seat) for seat in seats] == [(GAME, 1, 42), (GAME, 2, 40), (GAME, 3, 41)]
        assert rows(session, GameRow, "seating", "status") == [("random", "setup")]


def test_rack_drawn_opens_the_round_on_the_empty_board_and_the_game_plays(database: Database) -> None:
    on_game(database, RackDrawn(1, "CASAXYZ", [{"rack": "AAAAEEE", "reason": "III.12"}], None, "", 12, TOPS, 40), 1)
    with database.read() as session:
        assert rows(session, RoundRow, "game_id", "number", "rack", "leftover", "redraws", "arbiter_rack",
                    "board_before", "top_score", "top_moves", "move_count", "master", "annulled", "closed") == [
            (GAME, 1, "CASAXYZ", "", [{"rack": "AAAAEEE", "reason": "III.12"}], False, EMPTY, 12, TOPS, 40, None,
             False, False)]
        assert rows(session, GameRow, "status") == [("playing",)]


def test_a_rack_from_an_older_history_opens_the_round_without_the_generators_findings(database: Database) -> None:
    on_game(database, RackDrawn(1, "CASAXYZ", []), 1)
    with database.read() as session:
        assert rows(session, RoundRow, "leftover", "top_score", "top_moves", "move_count", "board_before") == [
            ("", 0, [], 0, EMPTY)]


def test_rack_set_opens_the_next_round_on_the_board_with_the_last_master(database: Database) -> None:
    on_game(database, drawn(1), 1)
    on_game(database, MasterChosen(1, "H8-CASA", 12, 0, 12, 2), 1, reason="la primera en el orden de III.15")
    on_game(database, RackSet(2, "XYZLOTE", [], "LOTE", False, None, "XYZ", 9, [["I7-LOTE", 9, "r"]], 3), 2)
    with database.read() as session:
        assert rows(session, RoundRow, "number", "rack", "leftover", "arbiter_rack", "board_before", "top_score",
                    "top_moves", "move_count") == [
            (1, "CASAXYZ", "", False, EMPTY, 12, TOPS, 40),
            (2, "XYZLOTE", "XYZ", True, CASA, 9, [["I7-LOTE", 9, "r"]], 3)]


def test_a_down_master_with_a_blank_is_on_the_board_of_the_next_round(database: Database) -> None:
    on_game(database, drawn(1), 1)
    on_game(database, MasterChosen(1, "8H-CaSA", 10, 0, 10, 1), 1, reason="r")
    on_game(database, drawn(2), 2)
    column = ["15"] * 7 + ["7C7", "7a7", "7S7", "7A7"] + ["15"] * 4     # column 8, rows H–K
    with database.read() as session:
        assert rows(session, RoundRow, "number", "board_before") == [(1, EMPTY), (2, "/".join(column))]


def test_rack_withdrawn_removes_its_round(database: Database) -> None:
    on_game(database, drawn(1), 1)
    on_game(database, MasterChosen(1, "H8-CASA", 12, 0, 12, 2), 1)
    on_game(database, drawn(2), 2)
    on_game(database, RackWithdrawn(2, "CASAXYZ"), 2, reason="atril mal tecleado")
    with database.read() as session:
        assert rows(session, RoundRow, "number", "master") == [(1, "H8-CASA")]


def slip(entry: int, table: int) -> SlipEntered:
    return SlipEntered(table, entry, "H8-CASA", "valid", 12, "H8-CASA", "")


def conflict(number: int, entry: int, table: int) -> SlipConflict:
    return SlipConflict(number, "duplicate", table, entry, "H8-CAS", None, "H8-CASA", "aux1")


def test_slips_set_aside_leave_the_round_and_its_conflicts_are_set_aside(database: Database) -> None:
    on_game(database, drawn(1), 1)
    on_game(database, MasterChosen(1, "H8-CASA", 12, 0, 12, 2), 1)
    on_game(database, drawn(2), 2)
    # What the slips' events left: slips of both rounds, conflicts of both rounds.
    on_game(database, slip(40, 1), 1, arbiter="aux1")
    on_game(database, conflict(4, 41, 2), 1, arbiter="aux2")
    for event in (slip(40, 1), slip(41, 2), conflict(5, 42, 3), conflict(6, 40, 1)):
        on_game(database, event, 2, arbiter="aux1" if isinstance(event, SlipEntered) else "aux2")
    on_game(database, SlipsSetAside(2, "CASAXYZ", [], [5, 6]), 2, arbiter="Marta", reason="atril mal tecleado")
    with database.read() as session:
        assert rows(session, Slip, "round_number", "entry_id") == [(1, 40)]
        assert rows(session, Conflict, "id", "round_number", "resolution", "resolved_by") == [
            (4, 1, None, None), (5, 2, "set_aside", "Marta"), (6, 2, "set_aside", "Marta")]


def test_master_chosen_places_the_master_with_the_rules_reason(database: Database) -> None:
    on_game(database, drawn(1), 1)
    on_game(database, MasterChosen(1, "H8-CASA", 12, 0, 12, 2), 1, reason="la primera en el orden de III.15")
    with database.read() as session:
        assert rows(session, RoundRow, "master", "master_score", "master_reason", "cumulative") == [
            ("H8-CASA", 12, "la primera en el orden de III.15", 12)]


def test_a_master_the_judge_gave_a_reason_for_keeps_the_rules_reason(database: Database) -> None:
    on_game(database, drawn(1), 1)
    on_game(database, MasterChosen(1, "8H-CASA", 12, 1, 12, 2, "elegida por el juez árbitro"), 1,
            reason="la del público")
    with database.read() as session:
        assert rows(session, RoundRow, "master", "master_reason") == [("8H-CASA", "elegida por el juez árbitro")]


def test_master_undone_empties_the_master_and_plays_an_ended_game_again(database: Database) -> None:
    on_game(database, drawn(1), 1)
    on_game(database, MasterChosen(1, "H8-CASA", 12, 0, 12, 2), 1)
    on_game(database, GameEnded("se han jugado las rondas pactadas (III.22)"))
    on_game(database, MasterUndone(1, "H8-CASA"), 1, reason="maestra equivocada")
    with database.read() as session:
        assert rows(session, RoundRow, "number", "master", "master_score", "master_reason", "cumulative") == [
            (1, None, None, None, None)]
        assert rows(session, GameRow, "status", "end_reason") == [("playing", None)]


def test_game_ended_ends_the_game_and_drops_the_rack_not_played(database: Database) -> None:
    on_game(database, drawn(1), 1)
    on_game(database, MasterChosen(1, "H8-CASA", 12, 0, 12, 2), 1)
    on_game(database, drawn(2), 2)
    on_game(database, GameEnded("el juez árbitro da por terminada la partida (III.22)"))
    with database.read() as session:
        assert rows(session, RoundRow, "number", "master") == [(1, "H8-CASA")]
        assert rows(session, GameRow, "status", "end_reason") == [
            ("ended", "el juez árbitro da por terminada la partida (III.22)")]


def test_venue_added_names_the_venue(database: Database) -> None:
    apply(database, TOURNAMENT, VenueAdded("Bilbao"))
    apply(database, TOURNAMENT, VenueAdded("Alicante"))
    with database.read() as session:
        assert rows(session, OnlineVenue, "tournament_id", "name", "created_at") == [
            (TOURNAMENT, "Bilbao", MOMENT.replace(tzinfo=None)), (TOURNAMENT, "Alicante", MOMENT.replace(tzinfo=None))]


@pytest.mark.parametrize("typed", [
    PreparedLoaded("d" * 64, {"seed": 1, "rounds": []}),
    PreparedLeft(1, "d" * 64),
    VenueImported("Bilbao", "e" * 64, {"players": []}),
    TimerChanged("start", 180.0, MOMENT.isoformat()),
], ids=lambda typed: typed.KIND.value)
def test_events_read_from_the_log_change_no_table(database: Database, typed: TournamentEvent) -> None:
    on_game(database, drawn(1), 1)
    with database.read() as session:
        before = every_row(session)
    on_game(database, typed, 1)
    with database.read() as session:
        assert every_row(session) == before


@pytest.mark.parametrize("model", ["seat", "online_venue"])
def test_seats_and_venues_refuse_any_writer_but_the_projector(database: Database, model: str) -> None:
    on_game(database, TablesAssigned("alphabetical", None, {"40": 1}))
    with pytest.raises(ProjectionBypassed), database.write() as session:
        if model == "seat":
            session.add(Seat(game_id=GAME, entry_id=41, table_number=2))
        else:
            session.add(OnlineVenue(tournament_id=TOURNAMENT, name="Bilbao", created_at=MOMENT))
    with database.read() as session:
        assert rows(session, Seat, "entry_id") == [(40,)] and rows(session, OnlineVenue, "id") == []


# --- through the service ---------------------------------------------------------------------

@pytest.fixture
def service(tmp_path: Path, spanish_lexicon: Lexicon) -> TournamentService:
    service = TournamentService(open_database(str(tmp_path / "s.db")), station="mesa", lexicon=spanish_lexicon,
                                pin=JUDGE_PIN)
    service.create_tournament("Torneo")
    for name in ("Ana", "Bea"):
        service.add_player(name)
    service.create_game(seed=7)
    return service


def test_each_rounds_board_before_is_the_engines_board_after_the_master_before(service: TournamentService) -> None:
    boards = []
    for _ in range(3):
        boards.append(service.engine(1).board.to_cgp())
        assert service.draw_rack(1) is not None
        service.choose_master(1)
    assert [row.board_before for row in service.rounds(1)] == boards
    assert boards[0] == EMPTY and len(set(boards)) == 3


def test_a_write_that_fails_after_playing_on_the_engine_leaves_no_trace_in_its_cache(
        service: TournamentService, monkeypatch: pytest.MonkeyPatch) -> None:
    import duplicate.storage.projector as projector     # ``ServiceContext.log`` finds ``project`` there when it writes

    assert service.draw_rack(1) is not None
    service.choose_master(1)
    real = projector.project

    def refuse_racks(session: Session, row: Any, typed: TournamentEvent | None = None) -> None:
        if isinstance(typed, RackDrawn):
            raise RuntimeError("disco lleno")
        real(session, row, typed)

    monkeypatch.setattr(projector, "project", refuse_racks)
    with pytest.raises(RuntimeError, match="disco lleno"):
        service.draw_rack(1)            # the engine drew, the transaction rolled back
    monkeypatch.setattr(projector, "project", real)
    assert service.engine(1).pending is None
    assert [row.number for row in service.rounds(1)] == [1]
    view = service.draw_rack(1)
    assert view is not None and view.number == 2


def test_a_refused_action_that_did_not_play_on_the_engine_keeps_it_cached(service: TournamentService) -> None:
    from duplicate.service.errors import InvalidRack

    assert service.draw_rack(1) is not None
    engine = service.engine(1)
    with pytest.raises(InvalidRack):
        service.check_rack(1, "QQQQQQQ")
    assert service.engine(1) is engine


def test_the_log_replayed_into_an_empty_database_gives_the_same_tables_and_chain(
        service: TournamentService, tmp_path: Path) -> None:
    from duplicate.storage.models import AssistantRange, Entry, Event, Player, Tournament
    from duplicate.storage.projector import replay_log

    service.add_venue("Bilbao")
    service.add_player("Carla", club="Alfil", federation_id="F1", venue="Bilbao")
    service.update_player(3, name="Carla Gil", reason="errata")
    service.set_assistant_range("aux1", 1, 2)
    service.assign_tables(1, method=SeatingMethod.RANDOM, seed=4)
    assert service.draw_rack(1) is not None
    service.choose_master(1)
    service.undo_master(1, reason="maestra equivocada")
    service.choose_master(1)
    assert service.draw_rack(1) is not None
    service.replace_rack(1, reason="atril mal tecleado")
    service.end_game(1, reason="fin")
    models = (Tournament, Player, Entry, AssistantRange, OnlineVenue, GameRow, Seat, RoundRow)
    other = open_database(str(tmp_path / "restored.db"))
    with service.db.read() as session:
        expected = {model.__tablename__: [tuple(row) for row in session.execute(select(model.__table__))]
                    for model in models}
        chain = [(event.id, event.previous_hash) for event in session.scalars(select(Event).order_by(Event.id))]
        with other.write() as restored:
            replay_log(restored, session.scalars(select(Event).order_by(Event.id)))
    with other.read() as session:
        assert {model.__tablename__: [tuple(row) for row in session.execute(select(model.__table__))]
                for model in models} == expected
        assert [(event.id, event.previous_hash) for event in session.scalars(select(Event).order_by(Event.id))] == chain
    assert len(expected["rounds"]) == 1 and expected["online_venues"] and expected["seats"]
