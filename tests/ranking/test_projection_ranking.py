"""The projector's handlers of the classic and EloDI events (issue 34 §1;
``duplicate.storage.projection.ranking``): applying one event to a state gives the rows
expected, those tables are written by nothing else, and a division run through the
service, its events applied again to the same tournament in an empty database, gives the
same classic rows; so does the EloDI history."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from duplicate.record.event_kinds import TournamentEvent
from duplicate.record.events import read_event
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
from duplicate.service.facade import TournamentService
from duplicate.storage.classic_models import (
    ClassicAbsence,
    ClassicBoard,
    ClassicDivision,
    ClassicScoreEntry,
    ClassicSeed,
)
from duplicate.storage.database import Database, open_database
from duplicate.storage.models import Base, Entry, Event, GameRow, Player
from duplicate.storage.projection import ranking as family
from duplicate.storage.projector import PROJECTED_MODELS, ProjectionBypassed, project
from duplicate.storage.rating_models import RatedGame, Rating, RatingChange, RatingVersion
from lexicon.lexicon import Lexicon
from ranking.classic.engines import py4swiss_installed
from ranking.classic.service import ClassicService
from ranking.classic.views import DivisionSettings
from ranking.elodi import EloDISettings
from ranking.ratings import RatingService
from tests.credentials import ASSISTANT_PINS, JUDGE_PIN
from tests.duplicate.test_stations import database_url  # noqa: F401 — the fixture: SQLite, PostgreSQL
from tests.ranking.finished_games import write_game
from tests.ranking.test_ratings import (  # noqa: F401 — the fixtures lexicon and db_path
    GAME_ONE,
    GAME_TWO,
    db_path,
    lexicon,
    new_tournament,
)

MOMENT = datetime(2099, 5, 2, 10, 30, tzinfo=UTC)
"""Later than the fixtures' events (each event's time is no earlier than the one before)."""
SETTINGS = EloDISettings().to_dict()


@pytest.fixture
def tournament(tmp_path: Path) -> Iterator[TournamentService]:
    """A tournament of four players (ids 1–4, entries 1–4: Ana, Bea, Carlos, Dani)."""
    service = TournamentService(open_database(str(tmp_path / "proy.db")), station="mesa", pin=JUDGE_PIN)
    service.create_tournament("Open de proyección")
    for name in ("Ana", "Bea", "Carlos", "Dani"):
        service.add_player(name)
    yield service


def apply(db: Database, typed: TournamentEvent, *, tournament_id: int = 1, reason: str = "",
          station: str = "mesa-3", arbiter: str = "juez") -> Event:
    """Append ``typed`` as an event of the judge's and project it (as ``ServiceContext.log`` does)."""
    with db.write() as session:
        row = Event(tournament_id=tournament_id, kind=typed.KIND.value, payload=typed.payload(), station=station,
                    arbiter=arbiter, role="judge", reason=reason, created_at=MOMENT)
        session.add(row)
        session.flush()
        project(session, row, typed)
        session.expunge(row)
        return row


def plain(value: Any) -> Any:
    """A time as UTC without its zone (SQLite gives none back, PostgreSQL its own)."""
    if isinstance(value, datetime) and value.tzinfo is not None:
        return value.astimezone(UTC).replace(tzinfo=None)
    return value


def rows(db: Database, model: type[Base], *columns: str) -> list[tuple[Any, ...]]:
    with db.read() as session:
        found = session.scalars(select(model)).all()
        return sorted(tuple(plain(getattr(item, column)) for column in columns) for item in found)


def seeded(db: Database) -> list[tuple[Any, ...]]:
    return rows(db, ClassicSeed, "id", "division_id", "entry_id", "number", "rating", "title", "first_round",
                "withdrawn_round")


def boards(db: Database) -> list[tuple[Any, ...]]:
    return rows(db, ClassicBoard, "id", "round", "table", "first_id", "second_id", "first_score", "second_score",
                "forfeit", "method", "conflict")


def division_of_four(db: Database) -> None:
    """Division «A» (id 5) with seeds 11–14, entries 1–4, numbers 1–4."""
    apply(db, DivisionCreated("A", "dutch", 3, {"first_colour": "w"}, id=5))
    for number, (seed, entry) in enumerate(((11, 1), (12, 2), (13, 3), (14, 4)), start=1):
        apply(db, ClassicEntryChanged("A", number, "entered", 1, seed=seed, entry=entry, rating=2000 - number,
                                      title=""))


# --- one test per event kind ----------------------------------------------------------------


def test_division_created_inserts_the_division_with_the_id_it_names(tournament: TournamentService) -> None:
    apply(tournament.db, DivisionCreated("Élite", "round-robin", 5, {"first_colour": "b", "club_rounds": 2}, id=41))
    assert rows(tournament.db, ClassicDivision, "id", "tournament_id", "name", "system", "rounds", "settings") == [
        (41, 1, "Élite", "round-robin", 5, {"first_colour": "b", "club_rounds": 2})]


def test_entered_players_get_the_next_numbers_until_the_order_renumbers_them(tournament: TournamentService) -> None:
    db = tournament.db
    apply(db, DivisionCreated("A", "dutch", 3, {}, id=5))
    apply(db, ClassicEntryChanged("A", 1, "entered", 1, seed=21, entry=3, rating=1500, title=""))
    apply(db, ClassicEntryChanged("A", 2, "entered", 1, seed=22, entry=1, rating=1500, title="FM"))
    assert seeded(db) == [(21, 5, 3, 1, 1500, "", 1, None), (22, 5, 1, 2, 1500, "FM", 1, None)]
    apply(db, ClassicEntryChanged("A", 1, "entered", 1, seed=23, entry=2, rating=2100, title="", order=[23, 22, 21]))
    assert seeded(db) == [(21, 5, 3, 3, 1500, "", 1, None), (22, 5, 1, 2, 1500, "FM", 1, None),
                          (23, 5, 2, 1, 2100, "", 1, None)]
    apply(db, ClassicEntryChanged("A", 4, "joined", 2, seed=24, entry=4, rating=0, title=""))
    assert seeded(db)[-1] == (24, 5, 4, 4, 0, "", 2, None)


def test_other_entry_changes_correct_withdraw_and_give_byes(tournament: TournamentService) -> None:
    db = tournament.db
    division_of_four(db)
    apply(db, ClassicEntryChanged("A", 1, "rating", 1, seed=14, rating=2500, title="GM", order=[14, 11, 12, 13]))
    apply(db, ClassicEntryChanged("A", 2, "rating", 1, seed=11, rating=1990))        # the title kept
    apply(db, ClassicEntryChanged("A", 3, "withdrawn", 2))
    apply(db, ClassicEntryChanged("A", 4, "half-bye", 2))
    apply(db, ClassicEntryChanged("A", 1, "zero-bye", 3))
    assert seeded(db) == [(11, 5, 1, 2, 1990, "", 1, None), (12, 5, 2, 3, 1998, "", 1, 2),
                          (13, 5, 3, 4, 1997, "", 1, None), (14, 5, 4, 1, 2500, "GM", 1, None)]
    assert rows(db, ClassicAbsence, "seed_id", "round", "kind") == [(13, 2, "H"), (14, 3, "Z")]


def test_round_paired_inserts_the_boards_with_their_ids_the_bye_and_the_gibson_board(
        tournament: TournamentService) -> None:
    db = tournament.db
    division_of_four(db)
    apply(db, RoundPaired("A", 1, "dutch", [[1, 1, 3], [2, 4, 2]], ids=[70, 71], gibson=2, club_waived=True))
    apply(db, RoundPaired("A", 2, "round-robin", [[1, 2, 1], [0, 3, 0], [0, 4, 3]], ids=[72, 73, 74],
                          forfeits=["first"]))
    assert boards(db) == [(70, 1, 1, 11, 13, None, None, None, "dutch", False),
                          (71, 1, 2, 14, 12, None, None, None, "gibson", False),
                          (72, 2, 1, 12, 11, None, None, None, "round-robin", False),
                          (73, 2, None, 13, None, None, None, None, "round-robin", False),
                          (74, 2, None, 14, 13, None, None, "first", "round-robin", False)]
    assert rows(db, ClassicDivision, "settings") == [({"first_colour": "w", "club_waived": [1]},)]


def paired(db: Database) -> None:
    division_of_four(db)
    apply(db, RoundPaired("A", 1, "manual", [[1, 1, 2], [2, 3, 4]], ids=[80, 81]))


def test_result_entered_stores_the_scores_and_the_entry_typed_or_the_judges_forfeit(
        tournament: TournamentService) -> None:
    db = tournament.db
    paired(db)
    apply(db, ResultEntered("A", 1, 1, 410, 390), station="mesa-7", arbiter="aux1")
    apply(db, ResultEntered("A", 1, 2, 300, 350))
    apply(db, ResultEntered("A", 1, 2, 0, 0, forfeit="both"), reason="no vino nadie")
    assert boards(db) == [(80, 1, 1, 11, 12, 410, 390, None, "manual", False),
                          (81, 1, 2, 13, 14, None, None, "both", "manual", False)]
    assert rows(db, ClassicScoreEntry, "board_id", "first_score", "second_score", "station", "arbiter", "note",
                "entered_at") == [(80, 410, 390, "mesa-7", "aux1", "", MOMENT.replace(tzinfo=None)),
                                  (81, 300, 350, "mesa-3", "juez", "", MOMENT.replace(tzinfo=None))]


def test_result_conflict_marks_the_board_and_keeps_the_counted_scores(tournament: TournamentService) -> None:
    db = tournament.db
    paired(db)
    apply(db, ResultEntered("A", 1, 1, 410, 390))
    apply(db, ResultConflict("A", 1, 1, 390, 410, 410, 390), station="mesa-9", arbiter="aux2", reason="al revés")
    assert boards(db)[0] == (80, 1, 1, 11, 12, 410, 390, None, "manual", True)
    assert rows(db, ClassicScoreEntry, "board_id", "first_score", "second_score", "station", "arbiter", "note") == [
        (80, 390, 410, "mesa-9", "aux2", "al revés"), (80, 410, 390, "mesa-3", "juez", "")]
    # A station typing the counted scores again confirms them: the conflict stays for the judge.
    apply(db, ResultEntered("A", 1, 1, 410, 390))
    assert boards(db)[0][-1] is True
    # The judge typing other scores corrects the board, which settles the conflict.
    apply(db, ResultEntered("A", 1, 1, 390, 410), reason="acta firmada")
    assert boards(db)[0] == (80, 1, 1, 11, 12, 390, 410, None, "manual", False)


def test_result_resolved_sets_the_scores_and_settles_the_board(tournament: TournamentService) -> None:
    db = tournament.db
    paired(db)
    apply(db, ResultEntered("A", 1, 2, 0, 0, forfeit="first"))
    apply(db, ResultEntered("A", 1, 1, 410, 390))
    apply(db, ResultConflict("A", 1, 1, 390, 410, 410, 390))
    apply(db, ResultResolved("A", 1, 1, 400, 400), reason="empate según el acta")
    apply(db, ResultResolved("A", 1, 2, 333, 222), reason="sí jugaron")
    assert boards(db) == [(80, 1, 1, 11, 12, 400, 400, None, "manual", False),
                          (81, 1, 2, 13, 14, 333, 222, None, "manual", False)]
    assert len(rows(db, ClassicScoreEntry, "id")) == 2                  # the judge's decisions type no score


def rated_tournament(db_path: Path, lexicon: Lexicon) -> tuple[TournamentService, int, int, tuple[int, int]]:
    """Six players (ids 1–6) and games 1 and 2 published final; their game ids and the
    ids of their final publications (the events ``results_published``)."""
    service = TournamentService(open_database(str(db_path)), station="mesa", lexicon=lexicon, pin=JUDGE_PIN)
    tournament_id = new_tournament(service)
    write_game(service, tournament_id, GAME_ONE)
    write_game(service, tournament_id, GAME_TWO)
    with service.db.read() as session:
        one, two = session.scalars(select(GameRow.id).order_by(GameRow.number)).all()
        first, second = session.scalars(select(Event.id).where(Event.kind == "results_published")
                                        .order_by(Event.id)).all()
    return service, one, two, (first, second)


def changes(db: Database) -> list[tuple[Any, ...]]:
    with db.read() as session:
        found = session.execute(select(RatedGame.version, RatedGame.sequence, RatingChange.player_id,
                                       RatingChange.phase, RatingChange.total, RatingChange.position,
                                       RatingChange.rating_before, RatingChange.volatility_before,
                                       RatingChange.games_before, RatingChange.target_position,
                                       RatingChange.actual_position, RatingChange.rating_after,
                                       RatingChange.volatility_after, RatingChange.games_after, RatingChange.cap_bound)
                                .join(RatedGame, RatingChange.rated_game_id == RatedGame.id)).all()
        return sorted(tuple(line) for line in found)


def test_ratings_updated_stores_the_version_the_games_the_history_and_the_ratings(
        db_path: Path, lexicon: Lexicon) -> None:
    service, one, two, (_, published_two) = rated_tournament(db_path, lexicon)
    db = service.db
    game = {"tournament": 1, "game": 1, "published": None, "rounds": 12,
            "players": [[1, 900, 1.0, 1350, 385, 2.5, 1.0, True], [2, 850, 2.0, 1180, 385, 2.5, 2.0, False],
                        [3, 300, 3.0]]}
    apply(db, RatingsUpdated(1, [game], SETTINGS), station="elodi", tournament_id=1)
    later = {"tournament": 1, "game": 2, "published": published_two, "rounds": 12,
             "players": [[1, 450, 2.0, 1300, 300, 1.2, 2.0, False], [2, 500, 1.0, 1230, 310, 1.8, 1.0, False]]}
    apply(db, RatingsUpdated(1, [later], SETTINGS), station="elodi", tournament_id=1)
    assert rows(db, RatingVersion, "number", "kind", "created_at", "station", "arbiter", "tournament_id") == [
        (1, "update", MOMENT.replace(tzinfo=None), "elodi", "", None)]
    assert rows(db, RatedGame, "version", "game_id", "sequence", "published_event_id", "rounds", "rated_at") == [
        (1, one, 1, None, 12, MOMENT.replace(tzinfo=None)), (1, two, 2, published_two, 12, MOMENT.replace(tzinfo=None))]
    assert changes(db) == [
        (1, 1, 1, "new", 900, 1.0, None, None, 0, 2.5, 1.0, 1350, 385, 1, True),
        (1, 1, 2, "new", 850, 2.0, None, None, 0, 2.5, 2.0, 1180, 385, 1, False),
        (1, 1, 3, "unchanged", 300, 3.0, None, None, 0, None, None, 1200, 535, 0, False),
        (1, 2, 1, "rated", 450, 2.0, 1350, 385, 1, 1.2, 2.0, 1300, 300, 2, False),
        (1, 2, 2, "rated", 500, 1.0, 1180, 385, 1, 1.8, 1.0, 1230, 310, 2, False)]
    assert rows(db, Rating, "player_id", "rating", "volatility", "games", "last_game_id") == [
        (1, 1300, 300, 2, two), (2, 1230, 310, 2, two)]


def test_ratings_recomputed_adds_a_version_and_rebuilds_the_ratings_from_it(db_path: Path, lexicon: Lexicon) -> None:
    service, one, two, (published_one, published_two) = rated_tournament(db_path, lexicon)
    db = service.db
    apply(db, RatingsUpdated(1, [{"tournament": 1, "game": 1, "published": None, "rounds": 12,
                                  "players": [[1, 900, 1.0, 1350, 385, 2.5, 1.0, False],
                                              [2, 850, 2.0, 1180, 385, 2.5, 2.0, False]]}], SETTINGS))
    before = changes(db)
    venue_person = [77, "Sede Uno", "Club Sede", "Andorra", "sede:1:0123456789ab:4"]
    apply(db, RatingsRecomputed(2, 1, 2, rated=[
        {"tournament": 1, "game": 2, "published": published_two, "rounds": 12,
         "players": [[2, 500, 1.0, 1250, 385, 1.5, 1.0, False], [77, 450, 2.0, 1150, 385, 1.5, 2.0, False]]},
        {"tournament": 1, "game": 1, "published": published_one, "rounds": 12,
         "players": [[2, 850, 1.0, 1260, 350, 1.5, 1.0, True], [3, 700, 2.0]]}],
        settings=SETTINGS, persons=[venue_person]), station="elodi", arbiter="juez", tournament_id=1)
    assert rows(db, Player, "id", "name", "club", "country", "federation_id")[-1] == tuple(venue_person)
    assert rows(db, RatingVersion, "number", "kind", "arbiter", "tournament_id") == [
        (1, "update", "", None), (2, "recompute", "juez", 1)]
    assert rows(db, RatedGame, "version", "sequence", "game_id", "published_event_id") == [
        (1, 1, one, None), (2, 1, two, published_two), (2, 2, one, published_one)]
    assert [line for line in changes(db) if line[0] == 1] == before               # the older version kept
    assert [line for line in changes(db) if line[0] == 2] == [
        (2, 1, 2, "new", 500, 1.0, None, None, 0, 1.5, 1.0, 1250, 385, 1, False),
        (2, 1, 77, "new", 450, 2.0, None, None, 0, 1.5, 2.0, 1150, 385, 1, False),
        (2, 2, 2, "rated", 850, 1.0, 1250, 385, 1, 1.5, 1.0, 1260, 350, 2, True),
        (2, 2, 3, "unchanged", 700, 2.0, None, None, 0, None, None, 1200, 535, 0, False)]
    assert rows(db, Rating, "player_id", "rating", "volatility", "games", "last_game_id") == [
        (2, 1260, 350, 2, one), (77, 1150, 385, 1, two)]                 # player 1 is not in the new version


@pytest.mark.parametrize("typed", [
    ClassicEntryChanged("A", 1, "entered", 1),
    RatingsUpdated(1, [{"tournament": 1, "game": 1}]),
    RatingsRecomputed(2, 1, 1),
], ids=["entered", "updated", "recomputed"])
def test_an_event_of_an_earlier_record_without_what_the_rows_need_is_refused(tournament: TournamentService,
                                                                             typed: TournamentEvent) -> None:
    """Readable (``read_event``), but its rows cannot be made: ``ValueError`` and nothing written."""
    apply(tournament.db, DivisionCreated("A", "dutch", 3, {}, id=5))
    assert read_event(typed.KIND.value, typed.payload()) == typed
    with pytest.raises(ValueError, match="anterior"):
        apply(tournament.db, typed)
    assert seeded(tournament.db) == [] and rows(tournament.db, RatingVersion, "number") == []


# --- nothing else writes these tables ----------------------------------------------------------


def test_the_family_s_tables_are_projected_and_refused_outside_the_projector(tournament: TournamentService) -> None:
    assert set(family.MODELS) <= PROJECTED_MODELS
    assert {ClassicDivision, ClassicSeed, ClassicBoard, ClassicAbsence, ClassicScoreEntry,
            Rating, RatingVersion, RatedGame, RatingChange} == set(family.MODELS)
    with pytest.raises(ProjectionBypassed), tournament.db.write() as session:
        session.add(ClassicDivision(tournament_id=1, name="B", system="dutch", rounds=3, settings={}))
    with pytest.raises(ProjectionBypassed), tournament.db.write() as session:
        session.add(RatingVersion(number=1, kind="update", created_at=MOMENT))
    division_of_four(tournament.db)
    with pytest.raises(ProjectionBypassed), tournament.db.write() as session:
        seed = session.get(ClassicSeed, 11)
        assert seed is not None
        seed.rating = 1
    assert seeded(tournament.db)[0][4] == 1999


# --- the service's events, applied again, give the same rows --------------------------------------


def replay_family(source: Database, target: Database, tournament_id: int | None = None) -> None:
    """Apply to ``target`` the classic and EloDI events of ``source``'s log (only
    ``tournament_id``'s when given), in order."""
    with source.read() as session:
        stored = [(row.tournament_id, row.kind, row.payload, row.station, row.arbiter, row.role, row.reason,
                   row.created_at, row.round_number) for row in session.scalars(select(Event).order_by(Event.id))]
    with target.write() as session:
        for tournament, kind, payload, station, arbiter, role, reason, created_at, round_number in stored:
            typed = read_event(kind, payload)
            if typed.KIND not in family.HANDLERS or tournament_id not in (None, tournament):
                continue
            row = Event(tournament_id=tournament, kind=kind, payload=payload, station=station, arbiter=arbiter,
                        role=role, reason=reason, created_at=created_at, round_number=round_number)
            session.add(row)
            session.flush()
            project(session, row, typed)


def classic_tables(db: Database, tournament_id: int) -> dict[str, list[tuple[Any, ...]]]:
    divisions = rows(db, ClassicDivision, "id", "tournament_id", "name", "system", "rounds", "settings")
    return {"divisions": [line for line in divisions if line[1] == tournament_id],
            "seeds": seeded(db), "boards": boards(db),
            "absences": rows(db, ClassicAbsence, "seed_id", "round", "kind"),
            "entries": rows(db, ClassicScoreEntry, "board_id", "first_score", "second_score", "station", "arbiter",
                            "note", "entered_at")}


NAMES = ("Úrsula", "Ana", "Ñoño", "Nadia", "Bea", "Zoe", "Carlos", "Eloy")


def run_division(url: str) -> Database:
    """An earlier tournament with a division of its own, then a tournament of eight players
    (and a ninth later) whose division is run through the service: players entered by
    hand, the rest seeded when a bye is asked for, a rating corrected, same-club pairs
    that cannot be kept apart, a conflict, a correction, a forfeit, a withdrawal, a late
    entry and a second round."""
    db = open_database(url)
    service = TournamentService(db, station="mesa", pin=JUDGE_PIN)
    service.create_tournament("Anterior")
    ClassicService(db, station="mesa", pin=JUDGE_PIN).create_division(rounds=2, name="Vieja", tournament_id=1)
    service.create_tournament("Open")
    for name in NAMES:
        service.add_player(name, club="Club")
    service.set_assistant_range("aux1", 1, 4)
    service.set_pin("assistant", ASSISTANT_PINS["aux1"], name="aux1")
    classic = ClassicService(db, station="mesa", pin=JUDGE_PIN)
    classic.create_division(rounds=4, system="dutch", name="A", settings=DivisionSettings(club_rounds=1))
    classic.enter_player("Zoe", division="A", rating=1700, title="FM")
    classic.enter_player("Ana", division="A", rating=1800)
    classic.enter_player("Ñoño", division="A", rating=1600)
    classic.enter_player("Nadia", division="A")
    classic.set_rating(3, 1900, division="A")
    classic.request_bye(2, 2, "H", division="A")              # seeds the other four first
    classic.pair_round("A")
    for board in classic.boards(division="A"):
        if board.table is not None:
            classic.enter_result(board.round, board.table, 400 + board.table, 300, division="A")
    ClassicService(db, station="aux", pin=ASSISTANT_PINS["aux1"]).enter_result(1, 4, 1, 2, division="A",
                                                                                reason="según la planilla")
    classic.enter_result(1, 1, 300, 401, division="A", reason="acta")
    classic.resolve_result(1, 2, 350, 350, division="A", reason="empate")
    classic.record_forfeit(1, 3, "second", division="A", reason="no se presentó")
    classic.resolve_result(1, 4, 2, 1, division="A", reason="la planilla manda")
    classic.withdraw(4, division="A", reason="enfermo")
    service.add_player("Ulises", club="Otro")
    classic.pair_round("A")                                   # Ulises joins, late
    return db


@pytest.mark.skipif(not py4swiss_installed(), reason="py4swiss (the FIDE Dutch system) is not installed")
def test_a_division_run_through_the_service_is_its_events_applied_again(tmp_path: Path, database_url: str) -> None:
    """On SQLite and on PostgreSQL (the ids allocated by the server's sequences)."""
    target = open_database(str(tmp_path / "copia.db"))      # made first: the events replayed come later
    service = TournamentService(target, station="mesa", pin=JUDGE_PIN)
    service.create_tournament("Anterior")                     # with no division: the ids come from the events
    service.create_tournament("Open")
    for name in (*NAMES, "Ulises"):
        service.add_player(name, club="Club")
    source = run_division(database_url)
    replay_family(source, target, tournament_id=2)
    original = classic_tables(source, 2)
    assert original["divisions"][0][0] == 2 and original["divisions"][0][5]["club_waived"] == [1]
    assert len(original["seeds"]) == 9 and [line[6] for line in original["seeds"]].count(2) == 1
    assert original["absences"] and any(line[-1] for line in original["seeds"])
    assert {line[3] for line in original["entries"]} == {"mesa", "aux"}
    assert classic_tables(target, 2) == original


def test_the_ratings_written_by_the_service_are_its_events_applied_again(tmp_path: Path, lexicon: Lexicon) -> None:
    copy, *_ = rated_tournament(tmp_path / "copia.db", lexicon)   # made first: the events replayed come later
    service, *_ = rated_tournament(tmp_path / "origen.db", lexicon)
    ratings = RatingService(service.context)
    ratings.update()
    ratings.recompute()
    replay_family(service.db, copy.db)

    def tables(db: Database) -> tuple[list[tuple[Any, ...]], ...]:
        return (changes(db), rows(db, Rating, "player_id", "rating", "volatility", "games", "last_game_id"),
                rows(db, RatedGame, "id", "version", "game_id", "sequence", "published_event_id", "rounds",
                     "settings", "rated_at"),
                rows(db, RatingVersion, "number", "kind", "created_at", "station", "arbiter", "tournament_id"))

    original = tables(service.db)
    assert len(original[0]) == 6 * 2 * 2 and len(original[3]) == 2
    assert tables(copy.db) == original
