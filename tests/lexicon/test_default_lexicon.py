"""The shipped default lexicon (issue 2, §3): compiles, holds the expected forms, plays a game.

These tests compile the shipped word list (~7 s); they are marked ``slow`` and run in CI.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

import data
from duplicate.rules.game import Game
from duplicate.rules.notation import parse_move
from lexicon.default import ENVIRONMENT_VARIABLE, WORD_LIST, read_lines
from lexicon.lexicon import Lexicon, build
from lexicon.move import placed_tiles, score_move
from tui.cli.main import main

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def default_lexicon(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("default") / "default.lex"
    report = build(read_lines(data.path(WORD_LIST)), path, source=WORD_LIST)
    assert report.skipped == 0, report.skipped_examples  # the shipped list is already clean
    return path


def test_size_is_in_the_expected_range(default_lexicon: Path) -> None:
    # Issue 2: "Expect roughly 550–600k forms"; the official FISE lexicon has 639,293.
    assert 500_000 <= Lexicon.load(default_lexicon).word_count <= 650_000


@pytest.mark.parametrize("word", ["CASA", "CASAS", "COMIERON", "HABLÁBAMOS", "CHORIZO", "LLAVE", "PERRO", "AÑO", "XI"])
def test_common_forms_are_in(default_lexicon: Path, word: str) -> None:
    assert Lexicon.load(default_lexicon).contains_text(word)


@pytest.mark.parametrize("word", ["DÁMELO", "DECIRLO", "COMIÉNDOSELO", "HABLARTE", "MADRID", "ONU"])
def test_enclitics_and_proper_nouns_are_out(default_lexicon: Path, word: str) -> None:
    # FISE lexicon rules: no verb forms with attached pronouns, no proper nouns or acronyms.
    assert not Lexicon.load(default_lexicon).contains_text(word)


def test_a_full_bag_game_is_consistent(default_lexicon: Path) -> None:
    lexicon = Lexicon.load(default_lexicon)
    game = Game(lexicon, seed=2026)
    record = game.play_all()
    assert record.end_reason is not None and len(record.rounds) >= 15
    assert sum(round_.score for round_ in record.rounds) == record.total
    # Replay every master on a fresh board: each scores what was recorded (I.2).
    replay = Game(lexicon, seed=2026).board
    for round_ in record.rounds:
        move = parse_move(round_.master, lexicon.alphabet)
        assert score_move(replay, move) == round_.score
        replay.place(placed_tiles(replay, move))
    assert replay == game.board


def test_play_command_on_the_default_lexicon(default_lexicon: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENVIRONMENT_VARIABLE, str(default_lexicon))
    result = CliRunner().invoke(main, ["play", "--seed", "7"])
    assert result.exit_code == 0, result.output
    assert "Fin de la partida" in result.output and "semilla 7" in result.output


@pytest.mark.parametrize("word", ["ÑU", "FI", "OX", "ABORRASCARSE", "AULLADO", "ABALAR"])
def test_issue_15_additions_are_in(default_lexicon: Path, word: str) -> None:
    # Issue 15: two-tile words the official list has, pronominal -RSE headwords, intransitive
    # -DO participles, verbs listed only for Spain (infinitive).
    assert Lexicon.load(default_lexicon).contains_text(word)


@pytest.mark.parametrize("word", ["AULLADA", "ABALAMOS", "HABLARSE", "AD"])
def test_issue_15_exclusions_are_out(default_lexicon: Path, word: str) -> None:
    assert not Lexicon.load(default_lexicon).contains_text(word)


@pytest.mark.parametrize("word", ["ACOTEJÁBAMOS", "EMPANIZARA", "ENCERRÁS", "MORDÉ", "COLGÁ", "INTRODUCÍ",
                                  "REGRESADA", "CUYES", "ALTÍSIMO"])
def test_issue_28_additions_are_in(default_lexicon: Path, word: str) -> None:
    # Issue 28: the verbs of every country's lists, the forms of vos, the participles of verbs
    # transitive in some country, the plurals the American lists leave open.
    assert Lexicon.load(default_lexicon).contains_text(word)


@pytest.mark.parametrize("word", ["DECIME", "ABUSANTE", "DIFICILÍSIMO", "ABORRASCARSES", "ABALARES"])
def test_issue_28_exclusions_are_out(default_lexicon: Path, word: str) -> None:
    # Enclitic vos imperatives, active participles and superlatives the DLE-based lists lack,
    # plurals of infinitives.
    assert not Lexicon.load(default_lexicon).contains_text(word)


@pytest.mark.parametrize(("word_list", "word_count"), [
    ("lexicon-es-rlaes26.txt.xz", 543_934),          # the default until issue 15
    ("lexicon-es-rlaes29-spain.txt.xz", 576_104),    # the default from issue 15 to issue 28
])
def test_a_tournament_made_with_an_earlier_default_resumes_and_verifies(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, word_list: str, word_count: int) -> None:
    """Issues 15 and 28: the default changed its hash; a tournament recorded with a previous
    default (shipped under its own name) still opens and verifies with no lexicon named."""
    from duplicate.service.facade import TournamentService
    from duplicate.service.opening import open_service
    from lexicon.default import EARLIER_DEFAULTS, WORD_LIST, earlier_default_path, shipped_lexicon_path
    from tests.credentials import JUDGE_PIN

    monkeypatch.delenv(ENVIRONMENT_VARIABLE, raising=False)
    # The earlier default is compiled into the user's cache, as the app does (and as the
    # session's default lexicon is): once per machine, not on every run (about 8 s of CPU
    # each; an empty cache still compiles it here, first).
    earlier = Lexicon.load(shipped_lexicon_path(word_list))
    assert EARLIER_DEFAULTS[earlier.content_hash] == word_list   # the hash is the file's
    assert earlier.word_count == word_count
    assert earlier_default_path("0" * 64) is None
    assert WORD_LIST not in EARLIER_DEFAULTS.values()

    database = tmp_path / "t.db"
    service = open_service(str(database), lexicon=earlier, pin=JUDGE_PIN)
    assert isinstance(service, TournamentService)
    service.create_tournament("Con el léxico anterior")
    for index in range(3):
        service.add_player(f"Jugador {index}")
    game = service.create_game(rounds=3, seed=15)
    for _ in range(3):
        service.draw_rack(game)
        view = service.choose_master(game)
        assert view is not None and view.master is not None
        service.enter_slip(game, 1, view.master)
        service.close_round(game)
    reopened = open_service(str(database), pin=JUDGE_PIN)                  # no lexicon named
    assert reopened.lexicon_for(reopened.tournament()).content_hash == earlier.content_hash
    runner = CliRunner()
    record = tmp_path / "record.json"
    result = runner.invoke(main, ["export", "--db", str(database), str(record)])
    assert result.exit_code == 0, result.output
    result = runner.invoke(main, ["verify", str(record)])
    assert result.exit_code == 0, result.output
    assert "sin diferencias" in result.output
