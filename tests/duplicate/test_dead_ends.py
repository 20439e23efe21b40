"""No dead end for the judge (issue 25 §1, III.22, III.29): a rack is replaced whatever
slips exist until the master is placed — its slips set aside, kept in the log and the
export, counted nowhere — and an unplayable rack with a slip entered never leaves the
tournament stuck: the master is refused with a clear message, the rack is replaced, the
game ends, the next game starts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy import select

from duplicate.record.event_kinds import EventKind
from duplicate.record.verify import verify_record
from duplicate.service.errors import InvalidRack
from duplicate.service.facade import TournamentService
from duplicate.storage.database import open_database
from duplicate.storage.models import Event
from lexicon.lexicon import Lexicon
from tests.credentials import ASSISTANT_PINS, JUDGE_PIN

UNPLAYABLE = "QXZVGUU"
"""A valid rack (III.12: 2 vowels, 5 consonants) with no legal move on the empty board."""


@pytest.fixture
def service(tmp_path: Path, spanish_lexicon: Lexicon) -> TournamentService:
    service = TournamentService(open_database(str(tmp_path / "t.db")), station="mesa-arbitral",
                                lexicon=spanish_lexicon, pin=JUDGE_PIN)
    service.create_tournament("Callejones", venue="Valencia")
    for index in range(4):
        service.add_player(f"Jugador {index}", federation_id=f"D{index}")
    return service


def assistant(service: TournamentService) -> TournamentService:
    service.set_assistant_range("aux1", 1, 30)
    service.set_pin("assistant", ASSISTANT_PINS["aux1"], name="aux1")
    return service.with_pin(ASSISTANT_PINS["aux1"])


def test_III_29_a_rack_with_slips_is_replaced_its_slips_set_aside_and_the_record_verifies(
        service: TournamentService, spanish_lexicon: Lexicon) -> None:
    game = service.create_game(rounds=1, seed=5)
    first = service.draw_rack(game)
    assert first is not None
    aux = assistant(service)
    aux.enter_slip(game, 1, "H8-QQ", round_number=1)
    aux.enter_slip(game, 2, "H8-ZZZ", round_number=1)
    service.enter_slip(game, 2, "H8-XX", round_number=1)             # a second slip: a conflict
    assert len(service.conflicts(game)) == 1
    new = service.replace_rack(game, "CASAMOS", reason="atril mal tecleado: las papeletas no cuadran")
    assert new is not None and new.rack == "CASAMOS" and new.number == 1
    # The slips of the withdrawn rack count nowhere now: not stored, not in conflicts.
    assert service.slips(game, 1) == [] and service.conflicts(game) == []
    aside = service.set_aside_slips(game, 1)
    assert [(slip.table_number, slip.text, slip.entered_by, slip.rack) for slip in aside] == [
        (1, "H8-QQ", "aux1", first.rack), (2, "H8-ZZZ", "aux1", first.rack)]
    assert {slip.reason for slip in aside} == {"atril mal tecleado: las papeletas no cuadran"}
    # Never deleted: their slip_entered events stay, and the set-aside event copies them.
    with service.db.read() as session:
        kinds = [event.kind for event in session.scalars(select(Event).where(Event.round_number == 1)
                                                          .order_by(Event.id))]
    assert kinds.count(EventKind.SLIP_ENTERED.value) == 2
    assert kinds.index(EventKind.SLIPS_SET_ASIDE.value) < kinds.index(EventKind.RACK_SET.value)
    # The stations enter the round again, for the new rack; the master is placed; the round closes.
    view = service.choose_master(game)
    assert view.master is not None
    aux.enter_slip(game, 1, view.master, round_number=1)
    aux.enter_slip(game, 2, "H8-QQ", round_number=1)                 # same text as before: a new slip, no repeat
    service.close_round(game, 1)
    slips = {slip.table_number: slip for slip in service.slips(game, 1)}
    assert slips[1].score == view.master_score and slips[2].score == 0
    assert slips[3].status == slips[4].status == "missing"
    service.end_game(game)
    record = json.loads(json.dumps(service.export()))
    [round_] = record["games"][0]["rounds"]
    assert [(slip["table"], slip["text"], slip["rack"]) for slip in round_["set_aside"]] == [
        (1, "H8-QQ", first.rack), (2, "H8-ZZZ", first.rack)]
    assert verify_record(record, spanish_lexicon) == []


def test_an_unplayable_rack_with_a_slip_entered_leaves_no_dead_end(service: TournamentService) -> None:
    game = service.create_game(rounds=3, seed=7)
    pending = service.set_rack(game, UNPLAYABLE)
    assert pending.move_count == 0
    service.enter_slip(game, 1, "H8-GUZ", round_number=1)
    with pytest.raises(InvalidRack) as refused:
        service.choose_master(game)
    assert "no hay ninguna jugada válida" in str(refused.value) and "cambie el atril (III.29)" in str(refused.value)
    replaced = service.replace_rack(game, reason="nadie puede jugar (III.29)")
    assert replaced is not None and replaced.rack != UNPLAYABLE
    assert service.slips(game) == [] and len(service.set_aside_slips(game)) == 1
    # The same dead end at the end of a game: the judge ends it with the unplayable rack in play.
    service.replace_rack(game, UNPLAYABLE, reason="vuelve el atril dictado")
    service.enter_slip(game, 2, "H8-VUG", round_number=1)
    assert service.end_game(game, reason="nadie puede jugar y se acaba el tiempo") == \
        "nadie puede jugar y se acaba el tiempo"
    assert service.rounds(game) == [] and service.slips(game) == []
    assert [slip.table_number for slip in service.set_aside_slips(game)] == [1, 2]
    service.publish(game)
    second = service.create_game(rounds=1, seed=8)
    assert service.draw_rack(second) is not None


@pytest.mark.parametrize("state", ["setup", "between_rounds", "rack_pending", "rack_with_slips"])
def test_game_end_with_a_reason_works_in_every_state(service: TournamentService, state: str) -> None:
    game = service.create_game(rounds=3, seed=9)
    if state != "setup":
        service.draw_rack(game)
    if state == "between_rounds":
        service.choose_master(game)
    if state == "rack_with_slips":
        service.enter_slip(game, 3, "H8-QQ", round_number=1)
    assert service.end_game(game, reason="se va la luz") == "se va la luz"
    assert service.engine(game).over
    assert service.end_game(game, reason="otra vez") == "se va la luz"          # already over: unchanged


def test_III_29_a_replaced_rack_is_in_the_published_round_notes(service: TournamentService, tmp_path: Path) -> None:
    from duplicate.publishing.site import publish_results

    game = service.create_game(rounds=1, seed=5)
    first = service.draw_rack(game)
    assert first is not None
    service.replace_rack(game, "CASAMOS", reason="atril mal tecleado")
    service.choose_master(game)
    service.close_round(game, 1)
    service.publish(game)
    publish_results(service, tmp_path, formats=["html"], workers=1)
    page = (tmp_path / f"partida-{game}.html").read_text(encoding="utf-8")
    assert f"atril {first.rack_shown} cambiado por el juez (III.29): atril mal tecleado" in page


def test_an_unplayable_rack_with_digraph_tiles_is_named_with_them_in_brackets(service: TournamentService) -> None:
    # Issue 35 §4: «con el atril UUQVZLLRR»: the LL and RR tiles written as racks show them.
    game = service.create_game(rounds=3, seed=7)
    assert service.set_rack(game, "UUQVZLLRR").move_count == 0
    with pytest.raises(InvalidRack) as refused:
        service.choose_master(game)
    assert "con el atril UUQVZ[LL][RR] no hay ninguna jugada válida" in str(refused.value)
