"""Roles from the front ends (issue 12 §4): every command that changes the record, run by
a station whose role may not do it, exits with status 3 and a Spanish refusal; from the
app, an assistant's and a viewer's actions are refused by the service and nothing
changes. Expectations come from II.4 (the judge decides; an assistant enters the slips of
its own tables; a viewer reads), written here, not read from the permission table.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from click.testing import CliRunner

from duplicate.service.errors import NotAuthorised
from duplicate.service.facade import TournamentService
from duplicate.storage.database import open_database
from lexicon.lexicon import Lexicon
from tests.credentials import ASSISTANT_PINS, JUDGE_PIN
from tests.tui.waiting import idle, until
from tui.app.application import DuplicadaApp
from tui.app.screens.entry import EntryScreen
from tui.cli.main import main

# Every command that changes the record, with arguments valid for the scenario below.
JUDGE_ONLY = [
    ("tournament", "pin", "assistant", "--name", "aux2", "--revoke"),
    ("player", "add", "Intruso"),
    ("player", "status", "1", "withdrawn"),
    ("assistant", "set", "aux1", "1", "3"),
    ("game", "end", "--reason", "x"),
    ("game", "publish"),
    ("game", "reopen", "--reason", "x"),
    ("game", "annul-master", "1", "--reason", "x"),
    ("tables", "assign"),
    ("rack", "draw"),
    ("rack", "set", "CASAOLE"),
    ("rack", "replace", "--reason", "x"),
    ("master", "choose"),
    ("master", "undo", "--reason", "x"),
    ("slip", "import", "papeletas.csv"),
    ("slip", "resolve", "1"),
    ("round", "close"),
    ("claim", "resolve", "1", "--rejected", "--resolution", "no"),
]
SLIP_ACTIONS = [                                      # an assistant may, for its own tables
    ("slip", "enter", "3", "H8-QZQZ"),
    ("slip", "mark", "3", "late"),
    ("slip", "check", "3", "H8-QZQZ"),
    ("slip", "correct", "3", "H8-QZQZ", "--reason", "x"),
    ("claim", "file", "1", "3", "mi papeleta"),
]


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory, spanish_lexicon: Lexicon) -> Path:
    """A judge's tournament: 3 players, round 1 of game 1 with its master and a slip on
    table 3; assistant aux1 has tables 1–2 (II.4.c)."""
    path = tmp_path_factory.mktemp("roles") / "t.db"
    judge = TournamentService(open_database(str(path)), lexicon=spanish_lexicon, pin=JUDGE_PIN)
    judge.create_tournament("Roles")
    for name in ("Ana", "Beto", "Carla"):
        judge.add_player(name)
    judge.create_game(rounds=2, seed=5)
    judge.set_assistant_range("aux1", 1, 2)
    judge.set_pin("assistant", ASSISTANT_PINS["aux1"], name="aux1")
    judge.draw_rack(1)
    view = judge.choose_master(1)
    assert view.master is not None
    judge.enter_slip(1, 3, view.master)
    judge.enter_slip(1, 3, "H8-QZQZ")                  # conflict 1, for the judge
    judge.file_claim(1, 1, 3, "no me anotaron")        # claim 1
    (path.parent / "papeletas.csv").write_text("mesa,jugada\n1,H8-QZQZ\n", encoding="utf-8")
    return path


def run_as(database: Path, pin: str | None, args: tuple[str, ...], monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    monkeypatch.chdir(database.parent)
    env = {"DUPLICADA_DB": str(database), "DUPLICADA_STATION": "puesto-2"}
    if pin is not None:
        env["DUPLICADA_PIN"] = pin
    else:
        env["DUPLICADA_PIN"] = ""
    return CliRunner().invoke(main, list(args), env=env)


def events(database: Path) -> int:
    return TournamentService(open_database(str(database))).last_event_id()


@pytest.mark.parametrize("args", JUDGE_ONLY + SLIP_ACTIONS, ids=" ".join)
def test_an_assistant_is_refused_the_judges_commands_and_other_tables(
        database: Path, args: tuple[str, ...], monkeypatch: pytest.MonkeyPatch) -> None:
    before = events(database)
    result = run_as(database, ASSISTANT_PINS["aux1"], args, monkeypatch)
    assert result.exit_code == 3, result.output
    assert "Denegado" in result.output and "aux1" in result.output
    assert events(database) == before


def test_an_app_station_signed_in_as_assistant_is_refused_by_the_service(database: Path,
                                                                          spanish_lexicon: Lexicon) -> None:
    # The app hides the judge's screens from an assistant, but the service is what
    # refuses: a judge's action asked from the assistant's station changes nothing.
    base = TournamentService(open_database(str(database)), station="puesto-3", lexicon=spanish_lexicon)
    before = base.last_event_id()

    async def scenario() -> None:
        app = DuplicadaApp(base, station="puesto-3", poll=False)
        async with app.run_test(size=(120, 40)) as pilot:
            app.state.tournament_id = base.tournament().id
            app.authenticate(ASSISTANT_PINS["aux1"])
            for action in (lambda: app.service.draw_rack(1), lambda: app.service.close_round(1),
                           lambda: app.service.publish(1), lambda: app.service.reopen(1, reason="x"),
                           lambda: app.service.set_pin("assistant", "nuevo-pin-1", name="aux9")):
                with pytest.raises(NotAuthorised, match="árbitro auxiliar «aux1»"):
                    action()
            screen = EntryScreen()
            await app.push_screen(screen)
            await idle(pilot)                        # the lists are read in workers
            await pilot.press(*"3", "enter", *"H8-QZQZ", "enter")              # table 3 is not aux1's
            await until(pilot, lambda: not screen.pending, "the slip judged")
            await pilot.pause()
            assert "mesas 1–2" in str(screen.query_one("#feedback").render())
            app.authenticate(None)                                                # a viewer
            with pytest.raises(NotAuthorised, match="solo lectura"):
                app.service.enter_slip(1, 1, "H8-QZQZ")

    asyncio.run(scenario())
    assert base.last_event_id() == before


@pytest.mark.parametrize("args", JUDGE_ONLY + SLIP_ACTIONS, ids=" ".join)
def test_a_wrong_pin_is_refused_every_command_last_as_it_locks_sign_in(database: Path, args: tuple[str, ...],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    before = events(database)
    result = run_as(database, "otro-pin-cualquiera", args, monkeypatch)
    assert result.exit_code == 3, result.output
    # Wrong, or locked after five wrong tries in a row (the lock grows with each one).
    assert "PIN incorrecto" in result.output or "demasiados intentos fallidos" in result.output
    assert events(database) == before
