"""``TournamentService.may``: what a handle may do, the same table the service applies
when it acts (II.4.a: the judge everything; II.4.c: an assistant the slips of its tables;
a read-only station nothing)."""

from __future__ import annotations

from pathlib import Path

import pytest

from duplicate.service.access import ALLOWED, Action, Actor, Role, authorise, permits
from duplicate.service.errors import NotAuthorised
from duplicate.service.facade import TournamentService
from duplicate.storage.database import open_database
from lexicon.lexicon import Lexicon
from tests.credentials import ASSISTANT_PINS, JUDGE_PIN


def test_permits_answers_as_authorise_refuses() -> None:
    actors = [Actor(Role.JUDGE, "juez"), Actor(Role.ASSISTANT, "aux1", 1, (1, 4)), Actor(Role.ASSISTANT, "sin"),
              Actor(Role.VIEWER, "")]
    for actor in actors:
        for action in Action:
            for table in (None, 2, 9):
                try:
                    authorise(actor, action, tables=() if table is None else (table,))
                    refused = False
                except NotAuthorised:
                    refused = True
                assert permits(actor, action, table) is not refused, (actor, action, table)
    assert len(ALLOWED[Role.JUDGE]) == len(Action)


@pytest.fixture
def database(tmp_path: Path, spanish_lexicon: Lexicon) -> Path:
    path = tmp_path / "t.db"
    judge = TournamentService(open_database(str(path)), lexicon=spanish_lexicon, pin=JUDGE_PIN)
    judge.create_tournament("Permisos")
    judge.set_assistant_range("aux1", 1, 4)
    judge.set_pin("assistant", ASSISTANT_PINS["aux1"], name="aux1")
    return path


def handle(database: Path, pin: str | None) -> TournamentService:
    return TournamentService(open_database(str(database)), pin=pin)


def test_each_station_may_what_its_credential_opens(database: Path) -> None:
    judge, assistant = handle(database, JUDGE_PIN), handle(database, ASSISTANT_PINS["aux1"])
    viewer, stranger = handle(database, None), handle(database, "no-es-un-pin")
    assert all(judge.may(action) for action in Action)
    assert judge.may("resolve_conflict") and judge.may(Action.ENTER_SLIP, 40)
    assert assistant.may(Action.ENTER_SLIP, 4) and not assistant.may(Action.ENTER_SLIP, 5)
    assert assistant.may(Action.CORRECT_SLIP) and not assistant.may(Action.CLOSE_ROUND)
    assert not assistant.may(Action.CHANGE_SETTINGS) and not assistant.may(Action.RESOLVE_CONFLICT)
    assert not any(viewer.may(action) for action in Action)
    assert not stranger.may(Action.ENTER_SLIP, 1)
    with pytest.raises(ValueError):
        judge.may("fly")
