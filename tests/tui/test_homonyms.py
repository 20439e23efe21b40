"""Homonyms told apart (issue 35 §4): two «Ana Pérez Núñez» of different clubs are two
rows an arbiter can tell apart in the app's standings, the command line's ``standings``
(every form) and the published pages — one function names them (``duplicate.homonyms``).

Seeded once per module: three players (two «Ana Pérez Núñez», clubs Alfil and Torre, and
Carmen Gil), one game of one round, closed.
"""

from __future__ import annotations

import asyncio
import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.text import Text
from textual.widgets import DataTable

from duplicate.homonyms import NamedPlayer, distinct_names
from duplicate.service.facade import TournamentService
from duplicate.storage.database import open_database
from lexicon.lexicon import Lexicon
from tests.credentials import JUDGE_PIN
from tests.tui.waiting import idle, until
from tui.app.application import DuplicadaApp
from tui.app.screens.standings import StandingsScreen
from tui.cli.main import main

ANA = "Ana Pérez Núñez"
TOLD_APART = {f"{ANA} (Alfil)", f"{ANA} (Torre)"}


def test_colliding_names_take_club_then_federation_then_entry() -> None:
    players = [NamedPlayer(1, "Ana Pérez", "Alfil", "F1", 1), NamedPlayer(2, "ana  perez", "Torre", None, 2),
               NamedPlayer(3, "Ana Pérez", "Torre", "F3", 3), NamedPlayer(4, "Ana Pérez", "Torre", None, 4),
               NamedPlayer(5, "Carmen Gil", "Alfil", None, 5)]
    assert distinct_names(players) == {1: "Ana Pérez (Alfil)", 2: "ana  perez (inscripción 2)",
                                       3: "Ana Pérez (federado F3)", 4: "Ana Pérez (inscripción 4)",
                                       5: "Carmen Gil"}


@pytest.fixture(scope="module")
def seeded_file(tmp_path_factory: pytest.TempPathFactory, spanish_lexicon: Lexicon) -> Path:
    path = tmp_path_factory.mktemp("homonyms") / "seeded.db"
    database = open_database(str(path))
    service = TournamentService(database, station="mesa-arbitral", lexicon=spanish_lexicon, pin=JUDGE_PIN)
    service.create_tournament("Open de Homónimos", judge_name="Lucía")
    service.add_player(ANA, club="Alfil")
    service.add_player(ANA, club="Torre")
    service.add_player("Carmen Gil", club="Alfil")
    game = service.create_game(rounds=1, seed=7)
    service.set_rack(game, "CASAMOS")
    master = service.choose_master(game).master
    assert master is not None
    service.enter_slip(game, 1, master)
    service.enter_slip(game, 2, "H8-CASAS")
    service.enter_slip(game, 3, "H8-CASA")
    service.close_round(game)
    database.dispose()
    return path


@pytest.fixture
def db(seeded_file: Path, tmp_path: Path) -> Path:
    path = tmp_path / "homonyms.db"
    shutil.copy(seeded_file, path)
    return path


def test_the_apps_standings_tell_homonyms_apart(db: Path, spanish_lexicon: Lexicon) -> None:
    service = TournamentService(open_database(str(db)), station="puesto-1", lexicon=spanish_lexicon, pin=JUDGE_PIN)

    async def main_() -> None:
        app = DuplicadaApp(service, station="puesto-1", poll=False)
        async with app.run_test(size=(80, 24)) as pilot:
            app.state.tournament_id = service.tournament().id
            await app.push_screen(StandingsScreen(1))
            await until(pilot, lambda: isinstance(app.screen, StandingsScreen) and app.screen.loaded)
            await idle(pilot)
            for table_id, column in (("#game-table", "player"), ("#tournament-table", "player")):
                table = app.screen.query_one(table_id, DataTable)
                names = list(table.get_column(column))
                plain = {name.plain if isinstance(name, Text) else str(name) for name in names}
                assert TOLD_APART <= plain, (table_id, plain)
                assert "Carmen Gil" in plain

    asyncio.run(main_())


@pytest.mark.parametrize("args", [(), ("--rounds",), ("--overall",)])
def test_the_cli_standings_tell_homonyms_apart(db: Path, args: tuple[str, ...],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DUPLICADA_PIN", JUDGE_PIN)
    result = CliRunner().invoke(main, ["standings", "--db", str(db), "--format", "json", *args])
    assert result.exit_code == 0, result.output
    names = {row["jugador"] for row in json.loads(result.output)}
    assert names == TOLD_APART | {"Carmen Gil"}


def test_the_published_standings_tell_homonyms_apart(db: Path, spanish_lexicon: Lexicon) -> None:
    from duplicate.publishing.results import collect_results

    service = TournamentService(open_database(str(db)), station="puesto-1", lexicon=spanish_lexicon, pin=JUDGE_PIN)
    results = collect_results(service)
    assert {line.player.name for line in results.overall} == TOLD_APART | {"Carmen Gil"}
