"""Issue 35 §5: the organiser admits oriented notation (II.8) and corrections after final
results (IV.32); neither is admitted by default. Tournaments stored before keep what they had."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlalchemy import text

from duplicate.record.event_kinds import EventKind
from duplicate.service.errors import LockedGameError
from duplicate.service.facade import TournamentService
from duplicate.service.settings import TournamentSettings
from duplicate.storage.database import open_database
from lexicon.lexicon import Lexicon
from tests.credentials import JUDGE_PIN
from tests.duplicate.test_tournament import play_round, setup_tournament
from tui.cli.main import main


@pytest.fixture
def service(tmp_path: Path, spanish_lexicon: Lexicon) -> TournamentService:
    return TournamentService(open_database(str(tmp_path / "t.db")), station="mesa-arbitral", lexicon=spanish_lexicon,
                             pin=JUDGE_PIN)


def _arrowed(master: str) -> str:
    coordinate = master.split("-")[0]
    return f"{master} {'→' if coordinate[0].isalpha() else '↓'}"


# --- II.8: oriented notation, only when the organiser admits it --------------------------


def test_II8_a_new_tournament_refuses_oriented_notation_saying_the_organiser_has_not_admitted_it(
        service: TournamentService) -> None:
    setup_tournament(service)
    assert service.settings().oriented_notation is False
    game = service.create_game(rounds=1, seed=2)
    _, master, score = play_round(service, game)
    refused = service.enter_slip(game, 1, _arrowed(master))
    assert refused.verdict.score == 0 and refused.verdict.status.value == "syntax"
    assert "organizador no la ha admitido" in refused.verdict.reason and "II.8" in refused.verdict.reason
    assert service.enter_slip(game, 2, master).verdict.score == score


def test_II8_a_tournament_stored_before_the_setting_changed_keeps_accepting_oriented_notation(
        service: TournamentService) -> None:
    # A tournament stored while oriented notation was accepted by default: its settings
    # written without the key (as a hand-edited or older database could) are read as it was played.
    tournament = setup_tournament(service, TournamentSettings(oriented_notation=True))
    stored = {key: value for key, value in service.tournament().settings.items() if key != "oriented_notation"}
    with service.db.write() as session:                     # the stored row as an older database holds it
        session.execute(text("UPDATE tournaments SET settings = :settings WHERE id = :id"),
                        {"settings": json.dumps(stored), "id": tournament})
    assert "oriented_notation" not in service.tournament().settings
    assert TournamentSettings().oriented_notation is False
    assert service.settings().oriented_notation is True
    game = service.create_game(rounds=1, seed=2)
    _, master, score = play_round(service, game)
    assert service.enter_slip(game, 1, _arrowed(master)).verdict.score == score


def test_II8_the_command_line_creates_without_oriented_notation_and_shows_it(tmp_path: Path,
                                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DUPLICADA_DB", str(tmp_path / "torneo.db"))
    monkeypatch.setenv("DUPLICADA_PIN", JUDGE_PIN)
    runner = CliRunner()
    assert runner.invoke(main, ["tournament", "create", "Sin flechas"]).exit_code == 0
    shown = runner.invoke(main, ["tournament", "show"]).output
    assert "notación orientada (II.8): no" in shown
    assert "correcciones tras los resultados definitivos (IV.32): no" in shown
    assert runner.invoke(main, ["tournament", "create", "Con flechas", "--oriented",
                                "--corrections-after-final"]).exit_code == 0
    shown = runner.invoke(main, ["tournament", "show"]).output
    assert "notación orientada (II.8): sí" in shown
    assert "correcciones tras los resultados definitivos (IV.32): sí" in shown


# --- IV.32: final results are not modified -------------------------------------------------


def _final_game(service: TournamentService, settings: TournamentSettings | None = None) -> tuple[int, int, str]:
    setup_tournament(service, settings)
    game = service.create_game(rounds=1, seed=2)
    number, master, _ = play_round(service, game)
    service.enter_slip(game, 1, "H8-QZQZ")
    service.close_round(game)
    service.end_game(game)
    service.publish(game, final=True)
    return game, number, master


def test_IV32_a_final_game_is_not_reopened_nor_corrected_by_default(service: TournamentService) -> None:
    game, number, master = _final_game(service)
    before = service.last_event_id()
    with pytest.raises(LockedGameError, match=r"no pueden modificarse \(IV\.32\)") as refused:
        service.reopen(game, reason="error de introducción")
    assert "no admite correcciones" in str(refused.value)
    with pytest.raises(LockedGameError, match=r"IV\.32") as corrected:
        service.correct_slip(game, 1, master, round_number=number, reason="mal tecleada")
    assert "reabrirla" not in str(corrected.value)               # no advice the rules forbid
    with pytest.raises(LockedGameError, match=r"IV\.32"):
        service.file_claim(game, number, 1, "mi papeleta decía la maestra")
    assert service.last_event_id() == before
    assert service.tournament().games[0].status == "final"


def test_IV32_admitted_corrections_reopen_with_the_reason_logged(service: TournamentService) -> None:
    game, number, master = _final_game(service, TournamentSettings(corrections_after_final=True))
    with pytest.raises(LockedGameError, match="reabrirla"):
        service.correct_slip(game, 1, master, round_number=number, reason="mal tecleada")
    service.reopen(game, reason="papeleta mal tecleada")
    reopened = [event for event in service.history(game_number=game) if event.kind == EventKind.GAME_REOPENED]
    assert [event.reason for event in reopened] == ["papeleta mal tecleada"]
    service.correct_slip(game, 1, master, round_number=number, reason="mal tecleada")
    assert service.slips(game)[0].score > 0


def test_the_organiser_admits_oriented_notation_and_corrections_from_the_command_line_before_play(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DUPLICADA_DB", str(tmp_path / "torneo.db"))
    monkeypatch.setenv("DUPLICADA_PIN", JUDGE_PIN)
    runner = CliRunner()
    assert runner.invoke(main, ["tournament", "create", "Ajustes"]).exit_code == 0
    changed = runner.invoke(main, ["tournament", "settings", "--oriented", "--corrections-after-final",
                                   "--reason", "lo decide el organizador"])
    assert changed.exit_code == 0, changed.output
    assert "Notación orientada (II.8): sí" in changed.output
    shown = runner.invoke(main, ["tournament", "show"]).output
    assert "notación orientada (II.8): sí" in shown and "(IV.32): sí" in shown
    assert runner.invoke(main, ["tournament", "settings", "--no-oriented"]).exit_code == 0
    shown = runner.invoke(main, ["tournament", "show"]).output
    assert "notación orientada (II.8): no" in shown and "(IV.32): sí" in shown
