"""A record that verifies must be the record (issue 26 §2): each class of tampering of a real
exported record (``tests/fuzz/tamperings.py``) makes ``duplicada verify`` exit 1 and name
the part that was changed; the chain of event hashes holds under concurrent appends
(8 stations, SQLite and PostgreSQL) and is filled for events stored before it; a record of
an earlier format still verifies, saying it has no chain."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from duplicate.record.chain import GENESIS, event_hash
from duplicate.record.log_check import log_differences
from duplicate.record.verify import verify_record
from duplicate.service.facade import TournamentService
from duplicate.storage.database import open_database
from lexicon.lexicon import Lexicon
from tests.duplicate.record_versions import as_format
from tests.duplicate.test_stations import database_url  # the fixture: SQLite and PostgreSQL
from tests.fuzz import tamperings
from tests.fuzz.tamperings import JUDGE, TAMPERINGS, Tampering, play_tournament, tamper
from tui.cli.main import main

Record = dict[str, Any]


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory, spanish_lexicon: Lexicon) -> tuple[Path, Record]:
    folder = tmp_path_factory.mktemp("tamper")
    service = TournamentService(open_database(str(folder / "t.db")), lexicon=spanish_lexicon, pin=JUDGE)
    play_tournament(service)
    tamperings.POLISH_LEXICON[:] = [spanish_lexicon]
    path = folder / "record.json"
    result = CliRunner().invoke(main, ["export", "--db", str(folder / "t.db"), str(path)])
    assert result.exit_code == 0, result.output
    return folder, json.loads(path.read_text(encoding="utf-8"))


def by_name(name: str) -> Tampering:
    return next(tampering for tampering in TAMPERINGS if tampering.change.__name__ == name)


def verify_file(folder: Path, record: Record) -> tuple[int, str]:
    path = folder / "forged.json"
    path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    result = CliRunner().invoke(main, ["verify", str(path)])
    return result.exit_code, result.output


def found(record: Record, lexicon: Lexicon) -> set[tuple[str, str]]:
    return {(difference.where, difference.field) for difference in verify_record(record, lexicon)}


def test_the_honest_record_verifies_with_its_chain(exported: tuple[Path, Record], spanish_lexicon: Lexicon) -> None:
    folder, record = exported
    assert record["format_version"] >= 7
    assert verify_record(record, spanish_lexicon) == []
    assert verify_file(folder, record)[0] == 0
    previous = GENESIS                                   # the chain recomputed here, slowly and plainly
    for event in record["events"]:
        assert event["previous_hash"] == previous
        previous = event_hash(previous, event)
    assert record["events_head"] == previous


@pytest.mark.parametrize("tampering", TAMPERINGS, ids=lambda tampering: tampering.change.__name__)
def test_every_tampering_of_the_corpus_is_caught(exported: tuple[Path, Record], spanish_lexicon: Lexicon,
                                                 tampering: Tampering) -> None:
    assert verify_record(tamper(exported[1], tampering), spanish_lexicon) != []


# --- one per class, through the command, with the difference named ------------------------

def test_players_swapped_in_record_and_log_exit_1_and_break_the_chain(exported: tuple[Path, Record],
                                                                      spanish_lexicon: Lexicon) -> None:
    folder, record = exported
    forged = tamper(record, by_name("swap_names_and_log"))
    assert verify_file(folder, forged)[0] == 1
    assert {field for _, field in found(forged, spanish_lexicon)} == {"previous_hash"}
    only_players = tamper(record, by_name("swap_names"))
    winner = min(record["standings"], key=lambda line: line["position"])["player"]
    assert (f"jugadores, jugador {winner}", "name") in found(only_players, spanish_lexicon)
    assert verify_file(folder, only_players)[0] == 1


def test_removed_game_and_last_round_are_named(exported: tuple[Path, Record], spanish_lexicon: Lexicon) -> None:
    folder, record = exported
    forged = tamper(record, by_name("remove_game"))
    assert ("partida 2", "games") in found(forged, spanish_lexicon)
    assert verify_file(folder, forged)[0] == 1
    forged = tamper(record, by_name("remove_last_round_and_events"))
    assert ("historial, evento", "previous_hash") in {(where[:17], field) for where, field in found(forged, spanish_lexicon)}
    forged = tamper(record, by_name("remove_last_round"))
    assert ("partida 1, ronda 3", "rounds") in found(forged, spanish_lexicon)


@pytest.mark.parametrize("name", ["duplicate_event", "reorder_events", "gap_in_ids", "remove_middle_event",
                                  "remove_last_event", "reorder_events_keep_ids"])
def test_log_tamperings_break_the_order_or_the_chain(exported: tuple[Path, Record], spanish_lexicon: Lexicon,
                                                     name: str) -> None:
    folder, record = exported
    forged = tamper(record, by_name(name))
    fields = {field for _, field in found(forged, spanish_lexicon)}
    assert fields & {"id", "previous_hash", "events_head"}
    assert verify_file(folder, forged)[0] == 1


@pytest.mark.parametrize("name", ["earlier_timestamp", "shifted_timestamp", "change_role", "change_arbiter",
                                  "change_station", "change_reason", "change_kind", "change_player_payload"])
def test_an_edited_event_breaks_the_chain_at_that_event(exported: tuple[Path, Record], spanish_lexicon: Lexicon,
                                                        name: str) -> None:
    _, record = exported
    forged = tamper(record, by_name(name))
    edited = next(index for index, (before, after) in enumerate(zip(record["events"], forged["events"], strict=True))
                  if before != after)
    differences = [d for d in log_differences(forged) if d.field in ("previous_hash", "events_head")]
    assert len(differences) == 1
    following = forged["events"][edited + 1]["id"] if edited + 1 < len(forged["events"]) else None
    assert differences[0].where == (f"historial, evento {following}" if following is not None else "historial")


def test_consistent_slip_forgery_is_caught_only_by_the_chain(exported: tuple[Path, Record],
                                                             spanish_lexicon: Lexicon) -> None:
    folder, record = exported
    forged = tamper(record, by_name("edit_score_and_log"))
    assert {field for _, field in found(forged, spanish_lexicon)} == {"previous_hash"}
    assert verify_file(folder, forged)[0] == 1


def test_tournament_settings_against_the_log(exported: tuple[Path, Record], spanish_lexicon: Lexicon) -> None:
    _, record = exported
    assert ("torneo", "settings.criterion") in found(tamper(record, by_name("change_criterion")), spanish_lexicon)
    assert ("torneo", "name") in found(tamper(record, by_name("rename_tournament")), spanish_lexicon)


def test_game_fields_against_the_log(exported: tuple[Path, Record], spanish_lexicon: Lexicon) -> None:
    _, record = exported
    assert ("partida 2", "status") in found(tamper(record, by_name("change_game_status")), spanish_lexicon)
    assert ("partida 1", "seconds_per_round") in found(tamper(record, by_name("change_seconds")), spanish_lexicon)
    assert ("partida 1", "tables") in found(tamper(record, by_name("swap_tables")), spanish_lexicon)


def test_a_record_without_the_chain_verifies_as_before_and_says_so(exported: tuple[Path, Record]) -> None:
    folder, record = exported
    older = as_format(record, 5)             # no chain, no field of a later format (issue 36 §5)
    assert "events_head" not in older and "set_aside" not in older["games"][0]["rounds"][0]
    code, output = verify_file(folder, older)
    assert code == 0
    assert "cadena" in output           # the report says the chain is absent (wording not asserted)
    assert "sin firmar (formato 5, anterior a la firma)" in output      # issue 35 §2: unsigned, and why
    assert "cadena" in verify_file(folder, record)[1]


# --- storage: the chain under concurrency and after the migration -------------------------

def test_eight_stations_appending_at_once_keep_one_chain(database_url: str, spanish_lexicon: Lexicon) -> None:
    judge = TournamentService(open_database(database_url), lexicon=spanish_lexicon, pin=JUDGE)
    judge.create_tournament("Cadena")
    errors: list[BaseException] = []

    def station(number: int) -> None:
        service = TournamentService(open_database(database_url), station=f"puesto-{number}",
                                    lexicon=spanish_lexicon, pin=JUDGE)
        try:
            for index in range(6):
                service.add_player(f"Jugador {number}-{index}")
        except BaseException as error:  # noqa: BLE001 — reported by the assertion below
            errors.append(error)
        finally:
            service.db.dispose()

    threads = [threading.Thread(target=station, args=(number,)) for number in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    record = json.loads(json.dumps(judge.export()))
    judge.db.dispose()
    assert len(record["events"]) == 2 + 8 * 6          # tournament_created, signing_key_made, the players
    previous = GENESIS
    for event in record["events"]:
        assert event["previous_hash"] == previous
        previous = event_hash(previous, event)
    assert record["events_head"] == previous
    assert log_differences(record) == []


def test_the_migration_chains_the_events_stored_before_it(tmp_path: Path, spanish_lexicon: Lexicon) -> None:
    from alembic import command
    from alembic.script import ScriptDirectory

    from duplicate.storage.database import _alembic_config

    url = f"sqlite:///{tmp_path / 'old.db'}"
    service = TournamentService(open_database(url), lexicon=spanish_lexicon, pin=JUDGE)
    service.create_tournament("Antiguo")
    for index in range(3):
        service.add_player(f"Jugador {index}")
    engine = service.db.engine
    with engine.begin() as connection:              # back to the schema before the chain
        config = _alembic_config(engine)
        config.attributes["connection"] = connection
        before = ScriptDirectory.from_config(config).get_revision("0007").down_revision
        assert isinstance(before, str)
        command.downgrade(config, before)
    service.db.dispose()
    reopened = TournamentService(open_database(url), lexicon=spanish_lexicon, pin=JUDGE)
    reopened.add_player("Después")
    record = json.loads(json.dumps(reopened.export()))
    reopened.db.dispose()
    assert [event["previous_hash"] is not None for event in record["events"]] == [True] * 6     # with signing_key_made
    assert log_differences(record) == []


@pytest.mark.parametrize("value", [None, [], {}, "x", 1.5, True, -1, "\ud800", [[1]], {"a": {"b": []}}])
def test_hostile_values_in_the_log_are_reported_never_raised(exported: tuple[Path, Record], value: object,
                                                            spanish_lexicon: Lexicon) -> None:
    _, record = exported
    keys = ("id", "kind", "game", "round", "station", "role", "created_at", "payload", "previous_hash")
    for key in keys:
        forged = json.loads(json.dumps(record))
        for event in forged["events"][::7]:
            event[key] = value
        for kind_payload in ("player_added", "game_created", "tournament_created", "tables_assigned"):
            index = next(i for i, event in enumerate(record["events"]) if event["kind"] == kind_payload)
            event = forged["events"][index]
            if isinstance(event.get("payload"), dict):
                for field in list(event["payload"]):
                    event["payload"][field] = value
        forged["events_head"] = value
        assert log_differences(forged) != []
        assert verify_record(forged, spanish_lexicon) != []


def test_a_log_rewritten_whole_verifies_only_without_the_noted_head(exported: tuple[Path, Record],
                                                                     spanish_lexicon: Lexicon) -> None:
    # The chain is no signature: a forger who recomputes every hash from the changed event on
    # gets a record that verifies, with another head; --head (noted at export) catches it.
    # (An event's station: the one field nothing else in the record repeats — an arbiter is
    # also the slip's «entered_by», issue 36 §5.)
    folder, record = exported
    forged = tamper(record, by_name("change_station"))
    previous = GENESIS
    for event in forged["events"]:
        event["previous_hash"] = previous
        previous = event_hash(previous, event)
    forged["events_head"] = previous
    assert verify_record(forged, spanish_lexicon) == []
    path = folder / "rewritten.json"
    path.write_text(json.dumps(forged, ensure_ascii=False), encoding="utf-8")
    noted = record["events_head"]
    rewritten = CliRunner().invoke(main, ["verify", "--head", noted, str(path)])
    assert rewritten.exit_code == 1 and "events_head" in rewritten.output
    (folder / "honest.json").write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    assert CliRunner().invoke(main, ["verify", "--head", noted.upper(), str(folder / "honest.json")]).exit_code == 0
    assert CliRunner().invoke(main, ["verify", "--head", "xyz", str(folder / "honest.json")]).exit_code == 2


def test_a_correction_in_a_later_tournament_leaves_an_earlier_record_as_it_was(tmp_path: Path,
                                                                               spanish_lexicon: Lexicon) -> None:
    # A player is shared by tournaments (one federation id): the record of the first
    # tournament keeps the name it registered and still verifies; the second shows the new.
    service = TournamentService(open_database(str(tmp_path / "t.db")), lexicon=spanish_lexicon, pin=JUDGE)
    first = service.create_tournament("Primero")
    service.add_player("Ana Pérez", federation_id="F1")
    second = service.create_tournament("Segundo")
    entry = service.add_player("Ana Pérez", federation_id="F1", tournament_id=second)
    service.update_player(entry, name="Ana Pérez Gil", reason="apellido completo")
    earlier = json.loads(json.dumps(service.export(first)))
    later = json.loads(json.dumps(service.export(second)))
    assert [player["name"] for player in earlier["players"]] == ["Ana Pérez"]
    assert [player["name"] for player in later["players"]] == ["Ana Pérez Gil"]
    assert log_differences(earlier) == [] and log_differences(later) == []
