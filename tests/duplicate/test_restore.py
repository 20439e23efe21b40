"""``duplicada restore`` (issue 34 §2): a new database from a tournament record.

Re-exported, a restored tournament gives the same events, the same chain of hashes and the
same standings; a record that does not verify, an older format and a database that already
holds a tournament are refused with nothing stored. Run on SQLite and on the real PostgreSQL
server (whose sequences must move past the restored ids: a new slip after the restore gets a
new id).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from duplicate.record.verify import verify_record
from duplicate.service.errors import InvalidFile, StateConflict
from duplicate.service.facade import TournamentService
from duplicate.service.settings import TournamentSettings
from duplicate.simulate import simulate_tournament
from duplicate.storage.database import open_database
from lexicon.lexicon import Lexicon
from tests.credentials import ASSISTANT_PINS, JUDGE_PIN
from tests.duplicate.test_stations import _postgres_url
from tui.cli.main import main

NEW_JUDGE_PIN = "nuevo-juez-4821"


@pytest.fixture(params=["sqlite", "postgresql"])
def target_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'restaurada.db'}"
    else:
        yield from _postgres_url()


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory, spanish_lexicon: Lexicon) -> dict[str, Any]:
    """A tournament played through the service: two games simulated, then a conflict, a
    claim, a correction and a reopening (the record's every kind of row)."""
    folder = tmp_path_factory.mktemp("original")
    service = TournamentService(open_database(f"sqlite:///{folder / 'original.db'}"), station="juez",
                                lexicon=spanish_lexicon, pin=JUDGE_PIN)
    simulate_tournament(service, players=8, games=1, seed=5, rounds=4,
                        settings=TournamentSettings(corrections_after_final=True))     # IV.32: reopening admitted
    service.set_pin("assistant", ASSISTANT_PINS["aux1"], name="aux1")
    service.set_assistant_range("aux1", 1, 4)
    game = service.create_game(rounds=3, seed=9)
    service.draw_rack(game)
    master = service.choose_master(game).master
    assert master is not None
    service.enter_slip(game, 1, master)
    service.enter_slip(game, 1, "H8-ZZZZ")                      # a second slip: a conflict
    service.enter_slip(game, 2, "tarde")
    claim = service.file_claim(game, 1, 2, "entregué a tiempo")
    service.resolve_conflict(service.conflicts(game)[0][0].id, use_new=False, reason="la primera vale")
    service.resolve_claim(claim, upheld=True, resolution="llegó a tiempo", corrected_text=master)
    service.close_round(game)
    service.end_game(game, reason="fin de la prueba")
    service.publish(game, final=True)
    service.reopen(game, reason="reclamación tardía")
    service.correct_slip(game, 3, master, reason="mal tecleada", round_number=1)
    service.publish(game, final=True)
    return service.export()


def _without_export_time(record: dict[str, Any]) -> dict[str, Any]:
    """The record but its time of export and its signature (which signs that time too)."""
    return {key: value for key, value in record.items() if key not in ("exported_at", "signature")}


def test_a_restored_tournament_exports_the_same_record(played: dict[str, Any], target_url: str,
                                                       spanish_lexicon: Lexicon) -> None:
    restored = TournamentService(open_database(target_url), station="sala", lexicon=spanish_lexicon,
                                 pin=NEW_JUDGE_PIN)
    result = restored.restore(copy.deepcopy(played), path="registro.json")
    assert (result.games, result.events) == (2, len(played["events"]))
    assert result.events_head == played["events_head"]
    again = restored.export(result.tournament_id)
    assert [event["previous_hash"] for event in again["events"]] == \
        [event["previous_hash"] for event in played["events"]]
    assert again["events"] == played["events"]
    assert again["standings"] == played["standings"]
    assert _without_export_time(again) == _without_export_time(played)


def test_a_restored_tournament_keeps_the_public_key_and_signs_with_a_new_one(played: dict[str, Any], tmp_path: Path,
                                                                          spanish_lexicon: Lexicon) -> None:
    # Issue 35 §2: the log keeps the tournament's public key; its private key never travels in a
    # record, so the restored tournament exports unsigned until the judge makes a new key
    # (logged with its reason), which then signs.
    restored = TournamentService(open_database(f"sqlite:///{tmp_path / 'r.db'}"), station="sala",
                                 lexicon=spanish_lexicon, pin=NEW_JUDGE_PIN)
    tournament = restored.restore(copy.deepcopy(played), path="registro.json").tournament_id
    original = played["signature"]["public_key"]
    made = [event for event in restored.history(tournament) if event.kind == "signing_key_made"]
    assert [event.payload["public_key"] for event in made] == [original]
    assert "signature" not in restored.export(tournament)
    key = restored.tournament_key(tournament)
    assert key.made and key.fingerprint != played["signature"]["fingerprint"]
    newest = restored.history(tournament)[-1]
    assert newest.kind == "signing_key_made" and "no viaja en el registro" in newest.reason
    again = restored.export(tournament)
    assert again["signature"]["fingerprint"] == key.fingerprint
    assert verify_record(again, spanish_lexicon) == []


def test_the_restored_tournament_goes_on_with_the_new_judge_pin(played: dict[str, Any], target_url: str,
                                                               spanish_lexicon: Lexicon) -> None:
    database = open_database(target_url)
    judge = TournamentService(database, station="sala", lexicon=spanish_lexicon, pin=NEW_JUDGE_PIN)
    tournament = judge.restore(copy.deepcopy(played), path="registro.json").tournament_id
    # The assistants' PINs are not in the record: aux1's old PIN is refused until set again.
    assistant = TournamentService(database, station="aux", lexicon=spanish_lexicon, pin=ASSISTANT_PINS["aux1"])
    assert not assistant.may("enter_slip", 1, tournament_id=tournament)
    # The judge goes on: a new player and a new game, whose rows get new ids (PostgreSQL's
    # sequences moved past the restored ones).
    entry = judge.add_player("Nueva Jugadora", tournament_id=tournament)
    assert entry > max(player["id"] for player in played["players"])
    game = judge.create_game(tournament_id=tournament, rounds=2, seed=4)
    assert game == 3
    judge.draw_rack(game, tournament_id=tournament)
    master = judge.choose_master(game, tournament_id=tournament).master
    assert master is not None
    assert judge.enter_slip(game, 1, master, tournament_id=tournament).outcome == "accepted"


def test_a_database_with_a_tournament_is_refused_and_left_as_it_was(played: dict[str, Any], tmp_path: Path,
                                                                  spanish_lexicon: Lexicon) -> None:
    service = TournamentService(open_database(f"sqlite:///{tmp_path / 'ocupada.db'}"), station="sala",
                                lexicon=spanish_lexicon, pin=NEW_JUDGE_PIN)
    service.create_tournament("Ya había uno")
    before = service.export()
    with pytest.raises(StateConflict, match="ya tiene torneos"):
        service.restore(copy.deepcopy(played), path="registro.json")
    assert len(service.tournaments()) == 1
    assert _without_export_time(service.export()) == _without_export_time(before)


def _empty(service: TournamentService) -> bool:
    return service.tournaments() == []


def test_a_record_that_does_not_verify_stores_nothing(played: dict[str, Any], tmp_path: Path,
                                                      spanish_lexicon: Lexicon) -> None:
    service = TournamentService(open_database(f"sqlite:///{tmp_path / 'nueva.db'}"), station="sala",
                                lexicon=spanish_lexicon, pin=NEW_JUDGE_PIN)
    tampered = copy.deepcopy(played)
    tampered["games"][0]["rounds"][0]["slips"][0]["score"] += 33          # a score edited by hand
    with pytest.raises(InvalidFile, match="no pasa la comprobación"):
        service.restore(tampered, path="retocado.json")
    assert _empty(service)


def test_a_record_before_format_13_is_refused(played: dict[str, Any], tmp_path: Path,
                                               spanish_lexicon: Lexicon) -> None:
    service = TournamentService(open_database(f"sqlite:///{tmp_path / 'nueva.db'}"), station="sala",
                                lexicon=spanish_lexicon, pin=NEW_JUDGE_PIN)
    old = {**copy.deepcopy(played), "format_version": 12}
    with pytest.raises(InvalidFile, match="formato 12"):
        service.restore(old, path="antiguo.json")
    assert _empty(service)


def test_the_command_restores_and_says_what_to_do_next(played: dict[str, Any], tmp_path: Path) -> None:
    record = tmp_path / "registro.json"
    record.write_text(json.dumps(played, ensure_ascii=False), encoding="utf-8")
    pin_file = tmp_path / "pin"
    pin_file.write_text(NEW_JUDGE_PIN + "\n", encoding="utf-8")
    url = f"sqlite:///{tmp_path / 'cli.db'}"
    runner = CliRunner()
    result = runner.invoke(main, ["restore", str(record), "--db", url, "--pin-file", str(pin_file)])
    assert result.exit_code == 0, result.output
    assert f"{len(played['events'])} eventos" in result.output
    assert played["events_head"] in result.output
    assert "tournament pin assistant" in result.output
    assert NEW_JUDGE_PIN not in result.output
    again = tmp_path / "otra-vez.json"
    exported = runner.invoke(main, ["export", str(again), "--db", url])
    assert exported.exit_code == 0, exported.output
    assert json.loads(again.read_text(encoding="utf-8"))["events"] == played["events"]
    # A second restore into the same database is refused (exit 1, Spanish), nothing added.
    second = runner.invoke(main, ["restore", str(record), "--db", url, "--pin-file", str(pin_file)])
    assert second.exit_code == 1 and "ya tiene torneos" in second.output
