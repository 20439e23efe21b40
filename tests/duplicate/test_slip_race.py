"""Slips racing ``round close`` (issue 34 §1, "decide, then apply"), on SQLite and on the
real PostgreSQL server.

Each station is its own service handle with its own database engine, on its own thread.
What a write decides on it reads in its write transaction: a slip judged while its round
was open but stored after the judge closed it is refused (``RoundClosed``), never stored
as a slip or as a conflict on the closed round; a slip judged before the master was
annulled (III.29) is judged again on the round as it is.

* ``held back``: a station's write transaction is made to start only once the judge has
  closed the round (its database's ``write`` waits for the close — a state, not a time):
  the interleaving that stored conflicts on closed rounds before, for every write path
  (one slip, a mark, a batch, the master for many tables, double entry, an import).
* ``free race``: many stations and the judge released together by a barrier, rounds
  after rounds; whatever the interleaving, nothing is stored for a round after its
  ``round_closed`` event, no conflict is left open on a closed round, and every slip
  whose call returned is in the record.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from duplicate.service.errors import RoundClosed
from duplicate.service.facade import TournamentService
from duplicate.storage.database import open_database
from lexicon.lexicon import Lexicon
from tests.credentials import JUDGE_PIN
from tests.duplicate.test_stations import _postgres_url

LIMIT = 300
"""Seconds a thread may wait for the state it waits for before the test fails (a safety
net against a hang, never the condition tested)."""

SLIP_KINDS = ("slip_entered", "slip_conflict", "slip_checked")
WRONG = "H8-ZZZZ"


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'race.db'}"
    else:
        yield from _postgres_url()


def _handle(url: str, lexicon: Lexicon, station: str) -> TournamentService:
    """A station: its own service handle, its own engine, the judge's credential."""
    return TournamentService(open_database(url), station=station, lexicon=lexicon, pin=JUDGE_PIN)


def _prepare(url: str, lexicon: Lexicon, players: int, rounds: int) -> tuple[TournamentService, int]:
    judge = _handle(url, lexicon, "juez")
    judge.create_tournament("Carrera")
    for index in range(players):
        judge.add_player(f"Jugador {index:03d}")
    return judge, judge.create_game(seed=34, rounds=rounds)


def _next_round(judge: TournamentService, game: int) -> tuple[int, str]:
    judge.draw_rack(game)
    view = judge.choose_master(game)
    assert view.master is not None
    return view.number, view.master


class HeldBack:
    """Runs ``action`` on its own thread; the write transaction number ``skip`` + 1 of
    ``station`` starts only after ``release()``: what the action read and judged before
    may be stale by then. ``arrived`` is set when that write is about to start (or the
    action ended before it)."""

    def __init__(self, station: TournamentService, action: Callable[[], Any], *, skip: int = 0) -> None:
        self.arrived = threading.Event()
        self._go = threading.Event()
        self.result: Any = None
        self.error: BaseException | None = None
        database = station.db
        original = database.write
        calls = [0]

        @contextmanager
        def write() -> Iterator[Any]:
            calls[0] += 1
            if calls[0] == skip + 1:
                self.arrived.set()
                assert self._go.wait(LIMIT)
            with original() as session:
                yield session

        database.write = write  # type: ignore[method-assign]
        self._thread = threading.Thread(target=self._run, args=(action,))
        self._thread.start()

    def _run(self, action: Callable[[], Any]) -> None:
        try:
            self.result = action()
        except BaseException as error:  # noqa: BLE001 — kept for the test to look at
            self.error = error
        finally:
            self.arrived.set()

    def wait_arrived(self) -> None:
        assert self.arrived.wait(LIMIT), "the station never reached its write"

    def release(self) -> None:
        self._go.set()
        self._thread.join(LIMIT)
        assert not self._thread.is_alive()


def _assert_record_holds(judge: TournamentService, game: int, succeeded: set[tuple[int, int, str]]) -> None:
    """The three figures of issue 34: nothing for a round after its ``round_closed``, no
    open conflict on a closed round, every ``(round, table, text)`` of a call that
    returned in a slip event."""
    events = judge.history(game_number=game)
    closed_at = {event.round_number: event.id for event in events if event.kind == "round_closed"}
    after = [(event.kind, event.round_number, event.payload.get("table"), event.payload.get("text"))
             for event in events if event.kind in SLIP_KINDS and event.round_number in closed_at
             and event.id > closed_at[event.round_number]]
    assert after == []
    open_on_closed = [(conflict.round_number, conflict.table_number, conflict.text)
                      for conflict, _ in judge.conflicts(game) if conflict.round_number in closed_at]
    assert open_on_closed == []
    recorded = {(event.round_number, event.payload["table"], event.payload["text"])
                for event in events if event.kind in SLIP_KINDS}
    assert succeeded - recorded == set()


def test_every_write_path_judged_open_then_stored_after_the_close_is_refused(
        database_url: str, spanish_lexicon: Lexicon, tmp_path: Path) -> None:
    judge, game = _prepare(database_url, spanish_lexicon, players=9, rounds=1)
    number, master = _next_round(judge, game)
    judge.enter_slip(game, 9, master)                   # stored before: double entry re-types it
    import_file = tmp_path / "papeletas.csv"
    import_file.write_text(f"mesa,jugada,ronda\n7,{master},{number}\n", encoding="utf-8")
    actions: dict[str, tuple[Callable[[TournamentService], Any], int]] = {
        "enter_slip": (lambda station: station.enter_slip(game, 1, WRONG), 0),
        "enter_slip_master": (lambda station: station.enter_slip(game, 2, master), 0),
        "mark_slip": (lambda station: station.mark_slip(game, 3, "tarde"), 0),
        "enter_slips": (lambda station: station.enter_slips(game, [(4, WRONG), (5, master)]), 0),
        "enter_master_slips": (lambda station: station.enter_master_slips(game, [6]), 0),
        "import_slips": (lambda station: station.import_slips(game, import_file), 1),
        "double_check": (lambda station: station.double_check(game, 9, WRONG), 0),
    }
    held: dict[str, HeldBack] = {}
    for name, (action, skip) in actions.items():
        station = _handle(database_url, spanish_lexicon, f"puesto-{name}")
        held[name] = HeldBack(station, lambda action=action, station=station: action(station), skip=skip)
    for item in held.values():
        item.wait_arrived()                             # every station judged the round open
    closed = judge.close_round(game, number)
    assert set(closed.missing_tables) == set(range(1, 9))      # none of the held-back slips is in
    for item in held.values():
        item.release()
    refused = {name: type(item.error).__name__ for name, item in held.items()}
    assert refused == {name: "RoundClosed" for name in actions}
    assert all("está cerrada" in str(item.error) for item in held.values())
    _assert_record_holds(judge, game, {(number, 9, master)})
    assert {slip.table_number: slip.status for slip in judge.slips(game, number)} == {
        **{table: "missing" for table in range(1, 9)}, 9: "valid"}


def test_a_slip_judged_before_the_master_was_annulled_is_judged_again(
        database_url: str, spanish_lexicon: Lexicon) -> None:
    judge, game = _prepare(database_url, spanish_lexicon, players=3, rounds=1)
    number, master = _next_round(judge, game)
    stations = [_handle(database_url, spanish_lexicon, f"puesto{table}") for table in (1, 2)]
    judge.enter_slip(game, 3, master)
    entering = HeldBack(stations[0], lambda: stations[0].enter_slip(game, 1, master))
    batch = HeldBack(stations[1], lambda: stations[1].enter_slips(game, [(2, master)]))
    entering.wait_arrived()
    batch.wait_arrived()
    assert judge.annul_master(game, number, reason="la maestra no era válida") == 1     # table 3's
    entering.release()
    batch.release()
    assert entering.error is None and batch.error is None
    assert entering.result.outcome == "accepted"
    slips = {slip.table_number: (slip.status, slip.score) for slip in judge.slips(game, number)}
    assert slips == {1: ("annulled", 0), 2: ("annulled", 0), 3: ("annulled", 0)}      # III.29


def test_a_correction_judged_before_the_master_was_annulled_is_judged_again(
        database_url: str, spanish_lexicon: Lexicon) -> None:
    judge, game = _prepare(database_url, spanish_lexicon, players=2, rounds=1)
    number, master = _next_round(judge, game)
    judge.enter_slip(game, 1, WRONG)
    judge.enter_slip(game, 2, WRONG)
    judge.close_round(game, number)
    station = _handle(database_url, spanish_lexicon, "puesto-juez-2")
    correcting = HeldBack(station, lambda: station.correct_slip(game, 1, master, reason="reclamación aceptada"))
    correcting.wait_arrived()
    judge.annul_master(game, number, reason="la maestra no era válida")
    correcting.release()
    assert correcting.error is None
    slip = next(slip for slip in judge.slips(game, number) if slip.table_number == 1)
    assert (slip.text, slip.status, slip.score) == (master, "annulled", 0)


def test_many_stations_racing_round_close_leave_nothing_after_it(database_url: str,
                                                                 spanish_lexicon: Lexicon) -> None:
    tables, rounds = 24, 3
    judge, game = _prepare(database_url, spanish_lexicon, players=tables, rounds=rounds)
    stations = [_handle(database_url, spanish_lexicon, f"puesto{table}") for table in range(1, tables + 1)]
    succeeded: set[tuple[int, int, str]] = set()
    refused: list[tuple[int, int]] = []
    failures: list[BaseException] = []
    lock = threading.Lock()
    for _ in range(rounds):
        number, master = _next_round(judge, game)
        start = threading.Barrier(tables + 1)
        texts = {table: master if table % 2 == 0 else WRONG for table in range(1, tables + 1)}

        def enter(table: int, station: TournamentService) -> None:
            start.wait(LIMIT)
            try:
                station.enter_slip(game, table, texts[table], round_number=number)
            except RoundClosed:
                with lock:
                    refused.append((number, table))
            except BaseException as error:  # noqa: BLE001 — reported below
                with lock:
                    failures.append(error)
            else:
                with lock:
                    succeeded.add((number, table, texts[table]))

        threads = [threading.Thread(target=enter, args=(table, station))
                   for table, station in enumerate(stations, start=1)]
        for thread in threads:
            thread.start()
        start.wait(LIMIT)
        closed = judge.close_round(game, number)        # racing the stations' slips
        for thread in threads:
            thread.join(LIMIT)
        assert not any(thread.is_alive() for thread in threads)
        assert failures == []
        # A table is missing exactly when its slip was refused: none lost, none twice.
        assert sorted(closed.missing_tables) == sorted(table for round_, table in refused if round_ == number)
    assert len(succeeded) + len(refused) == tables * rounds
    _assert_record_holds(judge, game, succeeded)
