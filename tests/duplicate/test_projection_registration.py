"""The projector's registration handlers (issue 34 §1): each event kind applied on a state
gives exactly the rows expected; the projected tables refuse any other writer.

The events are applied into an empty database (as a restore replays a record): the rows
take their ids from the events, whatever ids the database would have given."""

from __future__ import annotations

from datetime import date
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import select

from duplicate.record.events_registration import (
    AssistantRangeSet,
    EntryStatusChanged,
    PinChanged,
    PlayerAdded,
    PlayerUpdated,
    SettingsChanged,
    TournamentCreated,
)
from duplicate.storage.database import Database
from duplicate.storage.models import AssistantRange, Entry, Event, Player, Tournament
from duplicate.storage.projector import ProjectionBypassed
from tests.duplicate.projection_steps import MOMENT, apply, database_at, rows

SETTINGS = {"bonus_mode": "automatic", "criterion": "points"}


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Database]:
    with database_at(request.param, tmp_path) as database:
        yield database


def created(database: Database, tournament_id: int = 7) -> int:
    apply(database, tournament_id, TournamentCreated("Open de Valencia", SETTINGS, "a" * 64))
    return tournament_id


def test_tournament_created_makes_the_tournament_with_the_events_id(database: Database) -> None:
    apply(database, 7, TournamentCreated("Open de Valencia", SETTINGS, "a" * 64, venue="Valencia",
                                         start_date="2026-03-14", end_date="2026-03-15", lexicon_path="/l/fise.lex"))
    with database.read() as session:
        assert rows(session, Tournament, "id", "name", "venue", "start_date", "end_date", "lexicon_hash",
                    "lexicon_path", "settings", "created_at") == [
            (7, "Open de Valencia", "Valencia", date(2026, 3, 14), date(2026, 3, 15), "a" * 64, "/l/fise.lex",
             SETTINGS, MOMENT.replace(tzinfo=None))]
        assert session.scalars(select(Event.tournament_id)).all() == [7]


def test_a_tournament_created_before_its_details_were_recorded_has_none(database: Database) -> None:
    apply(database, 3, TournamentCreated("Antiguo", SETTINGS, "b" * 64))
    with database.read() as session:
        assert rows(session, Tournament, "id", "venue", "start_date", "end_date", "lexicon_path") == [
            (3, "", None, None, None)]


def test_settings_changed_replaces_them_and_keeps_the_old_access_key(database: Database) -> None:
    tournament = created(database)
    with database.write() as session:       # a tournament from before credentials (raw, as a migration left it)
        session.connection().exec_driver_sql(
            "UPDATE tournaments SET settings = '{\"criterion\": \"points\", \"access\": {\"judge\": \"d\"}}'")
    apply(database, tournament, SettingsChanged({"criterion": "points"}, {"criterion": "average_place"}))
    with database.read() as session:
        assert rows(session, Tournament, "settings") == [({"criterion": "average_place", "access": {"judge": "d"}},)]


def test_pin_changed_changes_no_projected_table(database: Database) -> None:
    tournament = created(database)
    with database.read() as session:
        before = rows(session, Tournament, "id", "name", "settings")
    apply(database, tournament, PinChanged("assistant", True, "aux1"))
    with database.read() as session:
        assert rows(session, Tournament, "id", "name", "settings") == before
        assert rows(session, Entry, "id") == [] and rows(session, AssistantRange, "id") == []


def test_player_added_makes_the_player_and_its_active_entry(database: Database) -> None:
    tournament = created(database)
    apply(database, tournament, PlayerAdded(40, 12, "Ana Pérez", "Club Alfil", "España", "F7", "Bilbao"))
    with database.read() as session:
        assert rows(session, Player, "id", "name", "club", "country", "federation_id") == [
            (12, "Ana Pérez", "Club Alfil", "España", "F7")]
        assert rows(session, Entry, "id", "tournament_id", "player_id", "status", "venue") == [
            (40, tournament, 12, "active", "Bilbao")]


def test_player_added_reuses_a_stored_player(database: Database) -> None:
    first = created(database, 7)
    second = created(database, 8)
    apply(database, first, PlayerAdded(40, 12, "Ana Pérez", "Club Alfil", "", "F7"))
    apply(database, second, PlayerAdded(41, 12, "Ana Pérez", "Club Alfil", "", "F7"))
    with database.read() as session:
        assert rows(session, Player, "id") == [(12,)]
        assert rows(session, Entry, "id", "tournament_id", "player_id", "venue") == [
            (40, first, 12, None), (41, second, 12, None)]


def test_entry_status_changed_sets_the_new_status(database: Database) -> None:
    tournament = created(database)
    apply(database, tournament, PlayerAdded(40, 12, "Ana Pérez", "", "", None))
    apply(database, tournament, EntryStatusChanged(40, "active", "withdrawn"))
    with database.read() as session:
        assert rows(session, Entry, "id", "status") == [(40, "withdrawn")]


def test_assistant_range_set_makes_then_changes_the_assistants_tables(database: Database) -> None:
    tournament = created(database)
    apply(database, tournament, AssistantRangeSet("aux1", 1, 10))
    apply(database, tournament, AssistantRangeSet("aux2", 11, 20))
    apply(database, tournament, AssistantRangeSet("aux1", 5, 8))
    with database.read() as session:
        assert rows(session, AssistantRange, "tournament_id", "assistant", "first_table", "last_table") == [
            (tournament, "aux1", 5, 8), (tournament, "aux2", 11, 20)]


def test_player_updated_changes_the_player_and_moves_the_entry(database: Database) -> None:
    tournament = created(database)
    apply(database, tournament, PlayerAdded(40, 12, "Ana Perez", "", "", None))
    before = {"name": "Ana Perez", "club": "", "country": "", "federation_id": None}
    apply(database, tournament, PlayerUpdated(40, 12, before, {"name": "Ana Pérez", "club": "Alfil",
                                                              "country": "España", "federation_id": "F9"}))
    with database.read() as session:
        assert rows(session, Player, "id", "name", "club", "country", "federation_id") == [
            (12, "Ana Pérez", "Alfil", "España", "F9")]
        assert rows(session, Entry, "venue") == [(None,)]
    apply(database, tournament, PlayerUpdated(40, 12, {**before, "venue": None},
                                              {"name": "Ana Pérez", "club": "Alfil", "country": "España",
                                               "federation_id": None, "venue": "Bilbao"}))
    with database.read() as session:
        assert rows(session, Player, "federation_id") == [(None,)]
        assert rows(session, Entry, "venue") == [("Bilbao",)]


@pytest.mark.parametrize("model", ["tournament", "entry", "assistant_range"])
def test_the_registration_tables_refuse_any_writer_but_the_projector(database: Database, model: str) -> None:
    tournament = created(database)
    apply(database, tournament, PlayerAdded(40, 12, "Ana Pérez", "", "", None))
    with pytest.raises(ProjectionBypassed), database.write() as session:
        if model == "tournament":
            stored = session.get(Tournament, tournament)
            assert stored is not None
            stored.name = "Otro"
        elif model == "entry":
            session.add(Entry(tournament_id=tournament, player_id=12, status="active"))
        else:
            session.add(AssistantRange(tournament_id=tournament, assistant="aux", first_table=1, last_table=2))
    with database.read() as session:
        assert rows(session, Tournament, "name") == [("Open de Valencia",)]
        assert rows(session, Entry, "id") == [(40,)] and rows(session, AssistantRange, "id") == []
