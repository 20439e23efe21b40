"""Guessing credentials (issue 26 §1, issue 36 §1): wrong PINs count against where they
come from and against the tournament, no success clears them, the lock falls on the
guessing source only; above a tournament-wide ceiling nothing is refused before comparison
but wrong PINs' answers are held, one release slot at a time, while a right PIN gets in at
once; and the limits hold with many processes and threads guessing at once, on SQLite
and PostgreSQL.

The expectations come from the issues and the documented policy (docs/robustness.md):
five wrong tries from one source lock it; above ten wrong tries tournament-wide each wrong
answer waits for its slot (1 s, 2 s, 4 s… apart, at most a minute); an honest station
signs in within 2 s during a rotating guesser's attack (issue 36 §1).
"""

from __future__ import annotations

import math
import multiprocessing
import sqlite3
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import create_engine, select, text
from sqlalchemy.exc import OperationalError

from duplicate.service import lockout
from duplicate.service.access import MAX_FAILURES
from duplicate.service.errors import CredentialRefused, SignInLocked
from duplicate.service.facade import TournamentService
from duplicate.storage.database import Database, open_database
from duplicate.storage.models import SignInSource, TournamentAccess
from tests.credentials import ASSISTANT_PINS, JUDGE_PIN
from tests.duplicate.guessing import RotatingGuesser, guess_at_once, honest_sign_in
from tests.duplicate.test_stations import database_url  # noqa: F401 - the SQLite/PostgreSQL fixture

WRONG = [f"adivina{index:03d}" for index in range(200)]


class Clock:
    """``lockout.now``, moved by the test instead of waited for; the held answers
    (``lockout.hold_answer``) recorded in ``holds`` instead of slept."""

    def __init__(self) -> None:
        self.moment = datetime(2026, 11, 27, 10, 0, tzinfo=UTC)
        self.holds: list[float] = []

    def __call__(self) -> datetime:
        return self.moment

    def advance(self, seconds: float) -> None:
        self.moment += timedelta(seconds=seconds)

    def hold(self, seconds: float) -> None:
        self.holds.append(seconds)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    moved = Clock()
    monkeypatch.setattr(lockout, "now", moved)
    monkeypatch.setattr(lockout, "hold_answer", moved.hold)
    return moved


@pytest.fixture
def judge(tmp_path: Path) -> Iterator[TournamentService]:
    """A tournament with its judge (station «mesa-juez») and assistant aux1."""
    service = TournamentService(open_database(str(tmp_path / "t.db")), station="mesa-juez", pin=JUDGE_PIN)
    service.create_tournament("Adivinanzas")
    service.set_pin("assistant", ASSISTANT_PINS["aux1"], name="aux1")
    yield service
    service.db.dispose()


def at(judge: TournamentService, station: str, pin: str | None) -> TournamentService:
    return TournamentService(judge.db, station=station, pin=pin)


def test_a_success_by_another_credential_never_clears_the_wrong_tries(judge: TournamentService,
                                                                      clock: Clock) -> None:
    # The reported attack: an assistant alternates 4 guesses at the judge's PIN with its own
    # correct PIN; on the earlier main the success reset the count and it was never locked.
    guesses = iter(WRONG)
    refusals: list[CredentialRefused] = []
    own: list[object] = []
    for _ in range(3):
        for _ in range(4):
            with pytest.raises(CredentialRefused) as refused:
                at(judge, "aux-portatil", next(guesses)).add_player("X")
            refusals.append(refused.value)
        try:
            own.append(at(judge, "aux-portatil", ASSISTANT_PINS["aux1"]).sign_in().name)
        except SignInLocked as locked:
            own.append(locked.scope)
    compared = [error for error in refusals if not isinstance(error, SignInLocked)]
    assert len(compared) == MAX_FAILURES and compared[-1].retry_after > 0      # the fifth wrong try locks
    assert all(isinstance(error, SignInLocked) and error.scope == "source" for error in refusals[MAX_FAILURES:])
    assert own == ["aux1", "source", "source"]                      # its own PIN waits out the lock too
    assert judge.entries() == []


def test_the_lock_falls_on_the_guessing_source_not_the_judges_station(judge: TournamentService,
                                                                      clock: Clock) -> None:
    for pin in WRONG[:5]:
        with pytest.raises(CredentialRefused):
            at(judge, "aux-portatil", pin).sign_in()
    with pytest.raises(SignInLocked) as locked:
        at(judge, "aux-portatil", JUDGE_PIN).sign_in()
    assert locked.value.scope == "source" and locked.value.retry_after > 0
    # The judge at a station that has not guessed, and the assistant elsewhere, sign in.
    assert at(judge, "mesa-juez", JUDGE_PIN).sign_in().role.value == "judge"
    assert at(judge, "mesa-3", ASSISTANT_PINS["aux1"]).sign_in().name == "aux1"


def test_the_source_lock_grows_and_wrong_tries_are_forgotten_only_with_time(judge: TournamentService,
                                                                            clock: Clock) -> None:
    waits = []
    for pin in WRONG[:7]:
        with pytest.raises(CredentialRefused) as refused:
            at(judge, "aux-portatil", pin).sign_in()
        assert not isinstance(refused.value, SignInLocked)
        waits.append(refused.value.retry_after)
        clock.advance(refused.value.retry_after + 0.5)                # waits out each lock
    assert waits[:4] == [0, 0, 0, 0] and 0 < waits[4] < waits[5] < waits[6]
    # Successes do not forgive; an hour without a wrong try from there does.
    at(judge, "aux-portatil", ASSISTANT_PINS["aux1"]).sign_in()
    with pytest.raises(CredentialRefused) as refused:
        at(judge, "aux-portatil", WRONG[7]).sign_in()
    assert refused.value.retry_after > waits[6]
    clock.advance(lockout.FAILURE_MEMORY_SECONDS + refused.value.retry_after + 1)
    with pytest.raises(CredentialRefused) as refused:
        at(judge, "aux-portatil", WRONG[8]).sign_in()
    assert refused.value.retry_after == 0


def test_spread_out_guessing_is_held_but_a_right_pin_gets_in_at_once(judge: TournamentService,
                                                                     clock: Clock) -> None:
    # One wrong try from each of many stations: no source reaches its own limit; every one
    # is compared (none refused before), and above the ceiling each answer is held.
    for index, pin in enumerate(WRONG[:14]):
        with pytest.raises(CredentialRefused) as refused:
            at(judge, f"falso-{index}", pin).sign_in()
        assert not isinstance(refused.value, SignInLocked) and str(refused.value).startswith("PIN incorrecto")
    # The ceiling (10) answered at once; then the release slots, the clock standing still:
    # now, 1 s later, 2 s after that, 4 s after that (the pace doubles with the level).
    assert clock.holds == [0.0, 1.0, 3.0, 7.0]
    # Meanwhile a right PIN is never held: the judge at a new station, the assistant at its own.
    assert at(judge, "puesto-nuevo", JUDGE_PIN).sign_in().role.value == "judge"
    assert at(judge, "mesa-3", ASSISTANT_PINS["aux1"]).sign_in().name == "aux1"
    assert len(clock.holds) == 4
    # The next wrong one takes the next slot (8 s after the last), whoever makes it.
    clock.advance(2.0)
    with pytest.raises(CredentialRefused):
        at(judge, "mesa-juez", WRONG[20]).sign_in()
    assert clock.holds[-1] == 15.0 - 2.0
    # The level leaks away: a quarter of an hour later wrong answers come at once again.
    clock.advance(lockout.LEAK_SECONDS * 6)
    with pytest.raises(CredentialRefused):
        at(judge, "otro-falso", WRONG[21]).sign_in()
    assert len(clock.holds) == 5


def test_release_slots_are_at_most_a_minute_apart_and_ahead(judge: TournamentService, clock: Clock) -> None:
    for index, pin in enumerate(WRONG[:40]):
        with pytest.raises(CredentialRefused):
            at(judge, f"falso-{index}", pin).sign_in()
        clock.advance(0.5)
    holds = clock.holds
    assert len(holds) == 40 - lockout.TOURNAMENT_CEILING and max(holds) == lockout.LONGEST_PACE_SECONDS
    # Slot by slot, with the clock moving half a second each try: each answer waits for its
    # slot, the slots spaced by the pace (1, 2, 4… 60 s), none more than a minute ahead.
    slots = [index * 0.5 + hold for index, hold in enumerate(holds)]
    gaps = [later - earlier for earlier, later in zip(slots, slots[1:])]
    assert gaps[:6] == [1.0, 2.0, 4.0, 8.0, 16.0, 32.0]
    assert all(gap == 0.5 for gap in gaps[7:])            # a minute ahead of each try: the cap
    # The level stops where the pace is longest: the attack over, 10.5 min clear it.
    with judge.db.read() as session:
        level = session.scalar(select(TournamentAccess.guess_level))
    assert level == lockout.GUESS_LEVEL_MAX
    clock.advance(lockout.LEAK_SECONDS * (lockout.GUESS_LEVEL_MAX - lockout.TOURNAMENT_CEILING + 1))
    with pytest.raises(CredentialRefused):
        at(judge, "otro-falso", WRONG[100]).sign_in()
    assert len(clock.holds) == len(holds)


@pytest.mark.parametrize("late", [False, True], ids=["counted-in-the-action", "counted-after-rollback"])
def test_a_held_answer_waits_with_no_transaction_open(database_url: str, late: bool,  # noqa: F811
                                                      monkeypatch: pytest.MonkeyPatch, clock: Clock) -> None:
    # While an answer is held, another connection takes the database's write lock (SQLite)
    # or the tournament's sign-in row (PostgreSQL) at once: the held station holds neither.
    judge = TournamentService(open_database(database_url), station="mesa-juez", pin=JUDGE_PIN)
    tournament = judge.create_tournament("Retenidas")
    for index, pin in enumerate(WRONG[:int(lockout.TOURNAMENT_CEILING)]):
        with pytest.raises(CredentialRefused):
            at(judge, f"falso-{index}", pin).sign_in()
    free: list[bool] = []
    monkeypatch.setattr(lockout, "hold_answer", lambda seconds: free.append(lock_is_free(database_url)))
    guesser = at(judge, "otro-falso", WRONG[50])
    with pytest.raises(CredentialRefused):
        if late:        # an action that changed something before asking who acts (rolled back)
            from duplicate.service.access import Action

            with guesser.context.write() as session:
                session.add(SignInSource(tournament_id=tournament, source="un-cambio", failures=0))
                session.flush()
                guesser.context.authorise(session, tournament, Action.ADD_PLAYER)
        else:
            guesser.sign_in()
    assert free == [True]
    judge.db.dispose()


def lock_is_free(url: str) -> bool:
    """Whether another connection takes, without waiting, the write lock (SQLite) or the
    ``tournament_access`` rows (PostgreSQL) of the database at ``url``."""
    if url.startswith("sqlite:///"):
        raw = sqlite3.connect(url.removeprefix("sqlite:///"), timeout=0, isolation_level=None)
        try:
            raw.execute("BEGIN IMMEDIATE")
            raw.execute("ROLLBACK")
            return True
        except sqlite3.OperationalError:
            return False
        finally:
            raw.close()
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            connection.execute(text("SELECT 1 FROM tournament_access FOR UPDATE NOWAIT"))
            connection.rollback()
        return True
    except OperationalError:
        return False
    finally:
        engine.dispose()


def test_a_refusal_before_comparison_is_not_counted(judge: TournamentService, clock: Clock) -> None:
    for pin in WRONG[:5]:
        with pytest.raises(CredentialRefused):
            at(judge, "aux-portatil", pin).sign_in()
    for pin in WRONG[5:40]:                                    # hammering a locked source
        with pytest.raises(SignInLocked):
            at(judge, "aux-portatil", pin).sign_in()
    assert at(judge, "mesa-3", ASSISTANT_PINS["aux1"]).sign_in().name == "aux1"
    assert guess_level(judge.db, judge.tournaments()[-1].id) == MAX_FAILURES and clock.holds == []


def test_a_wrong_pin_changes_nothing_but_the_count(judge: TournamentService, clock: Clock) -> None:
    # The count is committed with the refused action's transaction: nothing of the action is.
    with pytest.raises(CredentialRefused):
        at(judge, "aux-portatil", WRONG[0]).add_player("Intruso")
    with pytest.raises(CredentialRefused):
        at(judge, "aux-portatil", WRONG[1]).set_pin("assistant", "nuevo-pin-123", name="aux9")
    assert judge.entries() == [] and [event.kind for event in judge.history()].count("player_added") == 0


@pytest.mark.parametrize("processes, threads", [(4, 8)])
def test_parallel_guesses_never_pass_the_limit(database_url: str, processes: int,  # noqa: F811
                                               threads: int, clock: Clock, monkeypatch: pytest.MonkeyPatch) -> None:
    # Earlier main: 62 of 64 guesses compared before the lock on PostgreSQL, 9 on SQLite.
    # The clock stands still (the forked processes inherit it): no lock nor turn runs out.
    judge = TournamentService(open_database(database_url), station="mesa-juez", pin=JUDGE_PIN)
    tournament = judge.create_tournament("Concurrencia de PIN")
    judge.db.dispose()
    guesses = iter(WRONG)
    plans = [[("aux-portatil", next(guesses)) for _ in range(threads)] for _ in range(processes)]
    outcomes = guess_at_once(database_url, tournament, plans)
    assert outcomes["accepted"] == 0
    assert outcomes["compared"] == MAX_FAILURES and outcomes["refused"] == processes * threads - MAX_FAILURES
    # Spread over as many stations as guesses: every one is compared, and the answers above
    # the tournament's ceiling each take their own release slot under the row lock — with
    # the clock standing still: now, 1, 3, 7, 15, 31 s, then a minute ahead (the cap).
    holds = multiprocessing.get_context("fork").SimpleQueue()
    monkeypatch.setattr(lockout, "hold_answer", holds.put)           # inherited by the forked guessers
    plans = [[(f"falso-{p}-{t}", next(guesses)) for t in range(threads)] for p in range(processes)]
    outcomes = guess_at_once(database_url, tournament, plans)
    assert outcomes == {"compared": processes * threads}
    held = sorted(holds.get() for _ in range(processes * threads - int(lockout.TOURNAMENT_CEILING - MAX_FAILURES)))
    assert holds.empty()
    assert held == [0.0, 1.0, 3.0, 7.0, 15.0, 31.0] + [lockout.LONGEST_PACE_SECONDS] * (len(held) - 6)


def test_a_wrong_pin_after_a_change_is_counted_once_the_change_is_rolled_back(judge: TournamentService,
                                                                             clock: Clock) -> None:
    # An action that changed something before asking who acts (an event appended, so a
    # player stored by the projector): its change must not be committed with the count, so
    # the count is made after the rollback instead.
    from duplicate.record.events_registration import PlayerAdded
    from duplicate.service.access import Action, Actor, Role
    from duplicate.storage.models import Entry, Event, Player
    from duplicate.storage.projector import next_id

    tournament = judge.tournaments()[-1].id
    with judge.db.read() as session:
        events_before = session.query(Event).count()
    for pin in WRONG[:MAX_FAILURES]:
        guesser = at(judge, "aux-portatil", pin)
        with pytest.raises(CredentialRefused) as refused:
            with guesser.context.write() as session:
                added = PlayerAdded(next_id(session, Entry), next_id(session, Player), "Intruso", "", "", None)
                guesser.context.log(session, tournament, added, actor=Actor(Role.JUDGE, "juez"))
                assert session.query(Player).filter_by(name="Intruso").count() == 1    # changed, not committed
                guesser.context.authorise(session, tournament, Action.ADD_PLAYER)
    assert not isinstance(refused.value, SignInLocked) and refused.value.retry_after > 0   # counted: locked
    with pytest.raises(SignInLocked):
        at(judge, "aux-portatil", ASSISTANT_PINS["aux1"]).sign_in()
    with judge.db.read() as session:
        assert session.query(Player).count() == 0 and session.query(Event).count() == events_before


def guess_level(database: Database, tournament_id: int) -> float:
    """The tournament's level of wrong tries as stored (``lockout``)."""
    with database.read() as session:
        return float(session.scalar(select(TournamentAccess.guess_level)
                                    .where(TournamentAccess.tournament_id == tournament_id)) or 0.0)


def wait_for(condition: Callable[[], bool], what: str, cap: float = 60.0) -> None:
    deadline = time.monotonic() + cap
    while not condition():
        assert time.monotonic() < deadline, f"still not: {what}"
        time.sleep(0.05)


HONEST_BOUND_SECONDS = 2.0
"""Issue 36 §1: every honest sign-in during the attack succeeds within 2 s."""


def test_honest_stations_sign_in_at_once_while_a_rotating_guesser_attacks(database_url: str) -> None:  # noqa: F811
    # Issue 36 §1: a guesser giving a new station name with every wrong PIN (2 processes ×
    # 3 threads, waiting for its answers) grabbed every paced turn on main: the assistant
    # with its right PIN got in 0 of 54 times, the judge at a new station 0 of 21.
    judge = TournamentService(open_database(database_url), station="mesa-juez", pin=JUDGE_PIN)
    tournament = judge.create_tournament("Ataque repartido")
    judge.set_pin("assistant", ASSISTANT_PINS["aux1"], name="aux1")
    judge.db.dispose()                              # no connection shared with the forked guessers
    guesser = RotatingGuesser(database_url, tournament, processes=2, threads=3)
    database = open_database(database_url, migrate=False)
    signed = []
    guesser.start()
    try:
        wait_for(lambda: guess_level(database, tournament) > lockout.TOURNAMENT_CEILING,
                 "the guesses above the tournament's ceiling")
        for round_ in range(6):                     # spread over a few seconds of the attack
            signed.append(honest_sign_in(database, tournament, "mesa-aux1", ASSISTANT_PINS["aux1"]))
            signed.append(honest_sign_in(database, tournament, f"puesto-nuevo-{round_}", JUDGE_PIN))
            time.sleep(0.4)
    finally:
        outcomes, elapsed = guesser.stop()
        database.dispose()
    assert [sign.role for sign in signed] == ["assistant", "judge"] * 6, [sign.refusal for sign in signed]
    assert max(sign.seconds for sign in signed) < HONEST_BOUND_SECONDS, signed
    # Every guess was compared (none refused unchecked) and none got in; the wrong PINs
    # compared stay within the design's bound: the ceiling (plus what leaked meanwhile),
    # one held answer released per pace interval, and the attempts still in flight.
    assert outcomes["accepted"] == 0 and set(outcomes) <= {"compared", "accepted"}, outcomes
    bound = (math.ceil(lockout.TOURNAMENT_CEILING + elapsed / lockout.LEAK_SECONDS) + 1
             + elapsed / lockout.FIRST_PACE_SECONDS + guesser.in_flight)
    assert lockout.TOURNAMENT_CEILING < outcomes["compared"] <= bound, (outcomes, elapsed)


def test_the_pin_digest_is_derived_before_the_write_lock(judge: TournamentService, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 36 §1: the scrypt derivation (~50 ms at the production cost) runs before the
    attempt takes SQLite's write lock, so a guesser's attempts never make honest stations
    queue behind their key derivations. Each derivation made while signing in checks that
    another connection can take the write lock at that moment."""
    import hashlib
    import sqlite3

    derive = hashlib.scrypt
    under_lock: list[str] = []

    def watched(*args: object, **kwargs: object) -> bytes:
        other = sqlite3.connect(tmp_path / "t.db", timeout=0)
        try:
            other.execute("BEGIN IMMEDIATE")
            other.execute("ROLLBACK")
        except sqlite3.OperationalError as error:
            under_lock.append(str(error))
        finally:
            other.close()
        return derive(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(hashlib, "scrypt", watched)
    tournament = judge.tournament().id
    assistant = at(judge, "mesa-3", ASSISTANT_PINS["aux1"])
    assert assistant.sign_in(tournament).name == "aux1"                    # sign_in: derived ahead
    at(judge, "portátil", JUDGE_PIN).add_player("Ana Ruiz")                   # a first action (newest)
    with pytest.raises(CredentialRefused):
        at(judge, "intruso", WRONG[0]).sign_in(tournament)
    assert under_lock == []
