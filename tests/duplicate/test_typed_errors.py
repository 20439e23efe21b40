"""Errors are caught by type (issue 34 §5): ``LexiconUnavailable``, ``DamagedData`` and
``ConcurrentChange`` reached through the service as a front end reaches them, each with
its Spanish message and its fields; the command line shows each as a message and a
non-zero status, never a traceback.

``ConcurrentChange`` is provoked for real on PostgreSQL (127.0.0.1:5432, user postgres,
skipped saying why when no server answers): another station holds the rounds table while
the judge draws a rack, then waits for the judge's game — a deadlock the server breaks by
rolling the judge's transaction back (SQLSTATE 40P01)."""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy
from click.testing import CliRunner, Result

from duplicate.service.errors import ConcurrentChange, DamagedData, LexiconUnavailable, StorageUnavailable
from duplicate.service.facade import TournamentService
from duplicate.storage.database import open_database
from lexicon.lexicon import Lexicon
from tests.credentials import JUDGE_PIN
from tests.duplicate.test_stations import _postgres_url
from tui.cli.main import main

FOREIGN_HASH = "ab" * 32
"""A lexicon hash no lexicon file has."""


def _tournament(url: str, lexicon: Lexicon) -> tuple[TournamentService, int]:
    service = TournamentService(open_database(url), station="juez", lexicon=lexicon, pin=JUDGE_PIN)
    service.create_tournament("Errores")
    for name in ("Ana", "Beto", "Carmen"):
        service.add_player(name)
    return service, service.create_game(rounds=3, seed=5)


def _sql(path: Path, *statements: str) -> None:
    """Edit the stored rows by hand, as a damaged or altered file would hold them."""
    with sqlite3.connect(path) as connection:
        connection.execute("PRAGMA foreign_keys = OFF")
        for statement in statements:
            connection.execute(statement)


def _cli(path_or_url: str, *args: str, monkeypatch: pytest.MonkeyPatch) -> Result:
    monkeypatch.setenv("DUPLICADA_DB", path_or_url)
    monkeypatch.setenv("DUPLICADA_STATION", "juez")
    monkeypatch.setenv("DUPLICADA_PIN", JUDGE_PIN)
    return CliRunner().invoke(main, list(args), prog_name="duplicada")


def _shown_as_message(result: Result, *words: str) -> None:
    """The command failed with status 1 and a Spanish message holding ``words``; no traceback."""
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output and isinstance(result.exception, SystemExit)
    assert result.output.startswith("Error: ") and all(word in result.output for word in words), result.output


# --- LexiconUnavailable ------------------------------------------------------------------------
def test_a_tournament_whose_lexicon_no_file_has_is_refused_with_lexicon_unavailable(
        tmp_path: Path, spanish_lexicon: Lexicon, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "t.db"
    _tournament(f"sqlite:///{path}", spanish_lexicon)
    _sql(path, f"UPDATE tournaments SET lexicon_hash = '{FOREIGN_HASH}'")
    station = TournamentService(open_database(f"sqlite:///{path}"), lexicon=spanish_lexicon, pin=JUDGE_PIN)
    with pytest.raises(LexiconUnavailable) as refused:
        station.draw_rack(1)
    assert refused.value.tournament == "Errores" and refused.value.lexicon_hash == FOREIGN_HASH
    assert "se creó con el léxico abababababab" in str(refused.value) and "--lexicon" in str(refused.value)
    assert station.rounds(1) == []                                       # nothing drawn
    _shown_as_message(_cli(str(path), "rack", "draw", monkeypatch=monkeypatch), "léxico", "--lexicon")


# --- DamagedData --------------------------------------------------------------------------------
def test_a_seat_pointing_to_a_missing_entry_is_damaged_data(tmp_path: Path, spanish_lexicon: Lexicon,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "t.db"
    judge, game = _tournament(f"sqlite:///{path}", spanish_lexicon)
    judge.draw_rack(game)
    judge.choose_master(game)
    _sql(path, "UPDATE seats SET entry_id = 9999 WHERE table_number = 1")
    station = TournamentService(open_database(f"sqlite:///{path}"), lexicon=spanish_lexicon, pin=JUDGE_PIN)
    with pytest.raises(DamagedData, match="mesa 1 está asignada a una inscripción que no existe"):
        station.enter_slip(game, 1, "H8-CASA")
    with pytest.raises(DamagedData, match="la base de datos está dañada"):
        station.seats(game)
    assert station.slips(game, 1) == []
    shown = _cli(str(path), "slip", "enter", "1", "H8-CASA", monkeypatch=monkeypatch)
    _shown_as_message(shown, "dañada", "restaure")
    assert str(path) in shown.output                                    # which database, named once
    assert shown.output.count("la base de datos") == 2                  # «la base de datos X: … la base de datos está dañada»


def test_a_corrupt_json_column_is_damaged_data_not_an_unavailable_database(
        tmp_path: Path, spanish_lexicon: Lexicon, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "t.db"
    _tournament(f"sqlite:///{path}", spanish_lexicon)
    _sql(path, "UPDATE tournaments SET settings = '{sin cerrar'")
    station = TournamentService(open_database(f"sqlite:///{path}"), lexicon=spanish_lexicon, pin=JUDGE_PIN)
    with pytest.raises(DamagedData) as damaged:
        station.tournament()
    assert "datos dañados" in str(damaged.value) and "restaure" in str(damaged.value)
    with pytest.raises(DamagedData):
        station.draw_rack(1)                                            # a write reads it too
    shown = _cli(str(path), "game", "board", monkeypatch=monkeypatch)
    _shown_as_message(shown, "dañados", "restaure")
    assert str(path) in shown.output and shown.output.count("la base de datos") == 1     # named once


# --- ConcurrentChange (PostgreSQL) ----------------------------------------------------------
@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A fresh PostgreSQL database (skipped, saying why, without a server)."""
    yield from _postgres_url()


def _deadlocked(url: str, game_id: int, action: Callable[[], Any]) -> Any:
    """Run ``action`` (a judge's write that locks the game, then inserts into ``rounds``) in
    a thread while another station's transaction holds ``rounds`` and, once the judge waits
    for it, asks for the judge's game: the server breaks the deadlock by rolling the judge
    back (the other station's deadlock check is set late, so the judge's fires first).
    Returns what ``action`` returned or raised."""
    other = sqlalchemy.create_engine(url)
    outcome: dict[str, Any] = {}

    def judge() -> None:
        try:
            outcome["value"] = action()
        except Exception as error:  # noqa: BLE001 — the test reads what the front end would get
            outcome["value"] = error

    with other.connect() as connection:
        transaction = connection.begin()
        connection.exec_driver_sql("SET LOCAL deadlock_timeout = '60s'")
        connection.exec_driver_sql("LOCK TABLE rounds IN SHARE MODE")
        mine = connection.exec_driver_sql("SELECT pg_backend_pid()").scalar()
        thread = threading.Thread(target=judge)
        thread.start()
        while not connection.exec_driver_sql(       # the judge's transaction waits for this one's lock
                "SELECT count(*) FROM pg_locks WHERE NOT granted AND relation = 'rounds'::regclass AND pid <> %s",
                (mine,)).scalar():
            assert thread.is_alive(), outcome
            time.sleep(0.01)
        connection.exec_driver_sql("SELECT id FROM games WHERE id = %s FOR UPDATE", (game_id,))
        transaction.rollback()
    thread.join()
    other.dispose()
    return outcome["value"]


def _game_id(url: str) -> int:
    engine = sqlalchemy.create_engine(url)
    with engine.connect() as connection:
        game_id = connection.exec_driver_sql("SELECT id FROM games").scalar()
    engine.dispose()
    assert isinstance(game_id, int)
    return game_id


def test_a_write_rolled_back_for_another_station_is_a_concurrent_change(postgres_url: str,
                                                                       spanish_lexicon: Lexicon) -> None:
    judge, game = _tournament(postgres_url, spanish_lexicon)
    refused = _deadlocked(postgres_url, _game_id(postgres_url), lambda: judge.draw_rack(game))
    assert isinstance(refused, ConcurrentChange) and refused.state == "rolled_back"
    assert "otro puesto" in str(refused) and "no se ha guardado nada" in str(refused)
    assert not isinstance(refused, StorageUnavailable)
    # Nothing of it stored, and the engine it had moved is read again: the judge repeats it.
    assert judge.rounds(game) == [] and judge.game_view(game, tops=None).rack is None
    view = judge.draw_rack(game)
    assert view is not None and view.number == 1 and [round_.number for round_ in judge.rounds(game)] == [1]


def test_the_command_line_says_a_concurrent_change_in_spanish(postgres_url: str, spanish_lexicon: Lexicon,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    _tournament(postgres_url, spanish_lexicon)
    result = _deadlocked(postgres_url, _game_id(postgres_url),
                         lambda: _cli(postgres_url, "rack", "draw", monkeypatch=monkeypatch))
    _shown_as_message(result, "otro puesto", "repítala")
