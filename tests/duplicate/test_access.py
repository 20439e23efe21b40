"""Who may do what (issue 12 §1, II.4): every action that changes the record, tried with
every role that must be refused, through the real service — refused with a Spanish
message naming the role and the action, and nothing stored changes.

The expectations are written here from the reglamento (II.4.a: the judge-arbiter decides
everything; II.4.c: assistants enter the slips of their own tables), not read from the
permission table of ``duplicate.service.access``.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from duplicate.rules.statuses import SeatingMethod
from duplicate.service.access import (
    ACTION_NAMES,
    Action,
    Actor,
    Role,
    authorise,
    lock_seconds,
    pin_digest,
)
from duplicate.service.errors import CredentialRefused, NotAuthorised
from duplicate.service.facade import TournamentService
from duplicate.service.settings import TournamentSettings
from duplicate.storage.database import open_database
from lexicon.lexicon import Lexicon
from ranking.classic.service import ClassicService
from ranking.ratings import RatingService
from tests.credentials import ASSISTANT_PINS, JUDGE_PIN

Call = Callable[[TournamentService], object]

# action → a call that does it (on the scenario below), and whether an assistant of
# tables 1–2 may do it (II.4.c); the viewer may do none.
ACTIONS: dict[Action, tuple[Call, bool]] = {
    Action.CHANGE_SETTINGS: (lambda s: s.change_settings(None, TournamentSettings(bonus_mode="automatic")), False),
    Action.SET_CREDENTIAL: (lambda s: s.set_pin("assistant", "otro-pin-nuevo", name="aux2"), False),
    Action.ADD_PLAYER: (lambda s: s.add_player("Intruso"), False),
    Action.UPDATE_PLAYER: (lambda s: s.update_player(1, name="Otro nombre"), False),
    Action.SET_ENTRY_STATUS: (lambda s: s.set_entry_status(1, "withdrawn"), False),  # type: ignore[arg-type]
    Action.SET_ASSISTANT_RANGE: (lambda s: s.set_assistant_range("aux1", 1, 40), False),
    Action.CREATE_GAME: (lambda s: s.create_game(rounds=1, seed=9), False),
    Action.ASSIGN_TABLES: (lambda s: s.assign_tables(1, method=SeatingMethod.RANDOM, seed=3), False),
    Action.DRAW_RACK: (lambda s: s.draw_rack(1), False),
    Action.SET_RACK: (lambda s: s.set_rack(1, "CASAOLE"), False),
    Action.REPLACE_RACK: (lambda s: s.draw_rack(1, replace=True), False),
    Action.CHOOSE_MASTER: (lambda s: s.choose_master(1), False),
    Action.UNDO_MASTER: (lambda s: s.undo_master(1, reason="x"), False),
    Action.ANNUL_MASTER: (lambda s: s.annul_master(1, 1, reason="x"), False),
    Action.RUN_TIMER: (lambda s: s.record_timer(1, "start", 180), False),
    Action.END_GAME: (lambda s: s.end_game(1, reason="x"), False),
    Action.ENTER_SLIP: (lambda s: s.enter_slip(1, 1, "H8-QZQZ", round_number=1), True),
    Action.MARK_SLIP: (lambda s: s.mark_slip(1, 2, "late", round_number=1), True),
    Action.CHECK_SLIP: (lambda s: s.double_check(1, 3, "H8-QZQZ", round_number=1), True),
    Action.IMPORT_SLIPS: (lambda s: s.import_slips(1, Path("no-existe.csv")), False),
    Action.CORRECT_SLIP: (lambda s: s.correct_slip(1, 3, "H8-QZQZ", round_number=1, reason="x"), True),
    Action.RESOLVE_CONFLICT: (lambda s: s.resolve_conflict(1, use_new=True), False),
    Action.CLOSE_ROUND: (lambda s: s.close_round(1, 1), False),
    Action.FILE_CLAIM: (lambda s: s.file_claim(1, 1, 3, "mi papeleta"), True),
    Action.RESOLVE_CLAIM: (lambda s: s.resolve_claim(1, upheld=False, resolution="no"), False),
    Action.PUBLISH_RESULTS: (lambda s: s.publish(1), False),
    Action.REOPEN_RESULTS: (lambda s: s.reopen(1, reason="x"), False),
    # Offline venues (issue 27 §2): the organiser's judge only.
    Action.IMPORT_VENUE: (lambda s: s.import_venue({}, "Sede"), False),
    # Online venues (issue 27 §2): naming one is the organiser's judge's.
    Action.ADD_VENUE: (lambda s: s.add_venue("Sede nueva"), False),
    # Signed records (issue 35 §2): the tournament's key and the venues' keys, the judge's.
    Action.SIGN_RECORD: (lambda s: s.tournament_key(), False),
    Action.REGISTER_VENUE_KEY: (lambda s: s.register_venue_key("Sede", b"no es una clave"), False),
    # Classic events (issue 16): the same credentials through ranking.classic.service.
    Action.PAIR_ROUND: (lambda s: ClassicService.like(s).pair_round(), False),
    Action.OVERRIDE_PAIRING: (lambda s: ClassicService.like(s).pair_round(manual=[(1, 2)]), False),
    Action.ENTER_RESULT: (lambda s: ClassicService.like(s).enter_result(1, 3, 400, 300), True),
    Action.RESOLVE_RESULT: (lambda s: ClassicService.like(s).resolve_result(1, 1, 400, 300), False),
    # EloDI (V, issue 24 §2): the same credentials through ranking.ratings.
    Action.UPDATE_RATINGS: (lambda s: RatingService(s.context).update(), False),
}


@pytest.fixture(scope="module")
def scenario(tmp_path_factory: pytest.TempPathFactory, spanish_lexicon: Lexicon) -> TournamentService:
    """A judge's tournament: 4 players, game 1 with round 1 played (master placed), a
    conflict on table 3, a claim; assistant aux1 has tables 1–2."""
    path = tmp_path_factory.mktemp("access") / "t.db"
    judge = TournamentService(open_database(str(path)), station="mesa", lexicon=spanish_lexicon, pin=JUDGE_PIN)
    judge.create_tournament("Acceso")
    for name in ("Ana", "Beto", "Carla", "Dora"):
        judge.add_player(name)
    judge.create_game(rounds=3, seed=5)
    judge.set_assistant_range("aux1", 1, 2)
    judge.set_pin("assistant", ASSISTANT_PINS["aux1"], name="aux1")
    judge.draw_rack(1)
    view = judge.choose_master(1)
    assert view.master is not None
    judge.enter_slip(1, 3, view.master)
    judge.enter_slip(1, 3, "H8-QZQZ")                          # a conflict for the judge
    judge.file_claim(1, 1, 4, "no me anotaron")
    return judge


def station(judge: TournamentService, role: Role) -> TournamentService:
    return judge.with_pin({Role.JUDGE: JUDGE_PIN, Role.ASSISTANT: ASSISTANT_PINS["aux1"], Role.VIEWER: None}[role])


def test_the_table_covers_every_action() -> None:
    assert set(ACTIONS) == set(Action)


@pytest.mark.parametrize("action", list(ACTIONS), ids=str)
def test_the_viewer_is_refused_every_action_and_nothing_changes(scenario: TournamentService, action: Action) -> None:
    before = scenario.last_event_id()
    call, _ = ACTIONS[action]
    with pytest.raises(NotAuthorised) as refused:
        call(station(scenario, Role.VIEWER))
    assert ACTION_NAMES[action] in str(refused.value) and "solo lectura" in str(refused.value)
    assert scenario.last_event_id() == before


@pytest.mark.parametrize("action", [action for action, (_, allowed) in ACTIONS.items() if not allowed], ids=str)
def test_an_assistant_is_refused_the_judges_actions_II4(scenario: TournamentService, action: Action) -> None:
    before = scenario.last_event_id()
    call, _ = ACTIONS[action]
    with pytest.raises(NotAuthorised) as refused:
        call(station(scenario, Role.ASSISTANT))
    message = str(refused.value)
    assert "árbitro auxiliar «aux1»" in message and ACTION_NAMES[action] in message
    assert (refused.value.role, refused.value.action) == ("assistant", action.value)
    assert scenario.last_event_id() == before


@pytest.mark.parametrize("action", [action for action, (_, allowed) in ACTIONS.items() if allowed], ids=str)
def test_an_assistant_is_refused_tables_outside_its_range_II4c(scenario: TournamentService, action: Action) -> None:
    # Every table action of the table is on table 3 or 4, outside aux1's tables 1–2,
    # except ENTER/MARK (tables 1 and 2): those are tried on table 4 instead.
    before = scenario.last_event_id()
    outside: dict[Action, Call] = {
        Action.ENTER_SLIP: lambda s: s.enter_slip(1, 4, "H8-QZQZ", round_number=1),
        Action.MARK_SLIP: lambda s: s.mark_slip(1, 4, "late", round_number=1),
    }
    call = outside.get(action, ACTIONS[action][0])
    with pytest.raises(NotAuthorised, match=r"mesas 1–2"):
        call(station(scenario, Role.ASSISTANT))
    assert scenario.last_event_id() == before


@pytest.mark.parametrize("action", list(ACTIONS), ids=str)
def test_may_answers_what_each_station_may_do(scenario: TournamentService, action: Action) -> None:
    """``may`` agrees with the refusals above: the judge everything (II.4.a), an assistant
    its table actions on its own tables 1–2 only (II.4.c), the viewer nothing."""
    _, assistant_may = ACTIONS[action]
    assert station(scenario, Role.JUDGE).may(action) and station(scenario, Role.JUDGE).may(action, 3)
    assert not station(scenario, Role.VIEWER).may(action) and not station(scenario, Role.VIEWER).may(action.value, 1)
    aux1 = station(scenario, Role.ASSISTANT)
    assert aux1.may(action) is assistant_may and aux1.may(action.value, 2) is assistant_may
    assert not aux1.may(action, 3)


def test_may_with_a_wrong_pin_is_no(scenario: TournamentService) -> None:
    assert not scenario.with_pin("ningun-puesto-tiene-este").may(Action.ENTER_SLIP, 1)


def test_an_assistant_enters_the_slips_of_its_own_tables(scenario: TournamentService) -> None:
    aux1 = station(scenario, Role.ASSISTANT)
    result = aux1.enter_slip(1, 1, "H8-QZQZ", round_number=1)
    assert result.outcome in ("accepted", "repeated")
    [event] = [event for event in scenario.history() if event.kind == "slip_entered" and event.payload["table"] == 1]
    assert (event.arbiter, event.role) == ("aux1", "assistant")


def test_a_wrong_pin_is_refused_and_five_in_a_row_lock_sign_in(tmp_path: Path, spanish_lexicon: Lexicon) -> None:
    judge = TournamentService(open_database(str(tmp_path / "t.db")), lexicon=spanish_lexicon, pin=JUDGE_PIN)
    judge.create_tournament("Bloqueo")
    intruder = judge.with_pin("000000")
    for _ in range(4):
        with pytest.raises(CredentialRefused) as refused:
            intruder.add_player("X")
        assert refused.value.retry_after == 0
    with pytest.raises(CredentialRefused) as refused:
        intruder.add_player("X")
    assert refused.value.retry_after == pytest.approx(lock_seconds(5)) and "espere" in str(refused.value)
    with pytest.raises(CredentialRefused, match="espere"):          # even the right PIN waits out the lock
        judge.with_pin(JUDGE_PIN).sign_in()
    assert judge.entries() == []


def test_the_lock_grows_with_every_further_failure_and_is_capped() -> None:
    delays = [lock_seconds(failures) for failures in range(1, 20)]
    assert delays[:4] == [0, 0, 0, 0] and delays[4] > 0
    assert all(later >= earlier for earlier, later in zip(delays, delays[1:], strict=False))
    assert delays[5] == 2 * delays[4] and max(delays) <= 15 * 60


def test_a_digest_depends_on_the_salt_and_is_slow_kdf_output() -> None:
    salt_a, salt_b = "00" * 16, "11" * 16
    assert pin_digest("abcdef", salt_a) == pin_digest("abcdef", salt_a)
    assert pin_digest("abcdef", salt_a) != pin_digest("abcdef", salt_b) != pin_digest("abcdeg", salt_b)
    started = datetime.now(UTC)
    pin_digest("abcdef", salt_a)
    assert datetime.now(UTC) - started < timedelta(seconds=5)


def test_authorise_names_the_table_and_the_range() -> None:
    aux = Actor(Role.ASSISTANT, "aux3", 1, (10, 20))
    authorise(aux, Action.ENTER_SLIP, tables=[10, 20])
    with pytest.raises(NotAuthorised, match=r"la mesa 21 no es del árbitro auxiliar «aux3» \(mesas 10–20\)"):
        authorise(aux, Action.ENTER_SLIP, tables=[12, 21])
    with pytest.raises(NotAuthorised, match="no tiene mesas asignadas"):
        authorise(Actor(Role.ASSISTANT, "aux4", 1, None), Action.MARK_SLIP, tables=[1])
