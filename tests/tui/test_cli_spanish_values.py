"""What the command line prints and takes, in Spanish (issue 35 §4): option values
(Spanish words shown in ``--help``, the English ones kept as aliases), the kind of a slip
conflict, and one Spanish line per event in ``history`` — every kind of event described.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from duplicate.record.event_lines import DESCRIBERS, describe
from duplicate.record.events import EVENT_TYPES
from duplicate.rules.bonuses import BonusMode
from duplicate.rules.statuses import EntryStatus, SeatingMethod
from duplicate.rules.tournament_standings import TournamentCriterion
from tests.command_line import judge_command_line
from tui.cli.options import BONUS_MODE, CRITERION, ENTRY_STATUS_WORDS, SEATING


@pytest.fixture
def run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    return judge_command_line(monkeypatch, tmp_path / "torneo.db", prog_name="duplicada")


def test_the_spanish_words_stand_for_every_value_the_service_keeps() -> None:
    for choice, kept in ((BONUS_MODE, BonusMode), (CRITERION, TournamentCriterion),
                         (ENTRY_STATUS_WORDS, EntryStatus), (SEATING, SeatingMethod)):
        assert sorted(choice.words.values()) == sorted(item.value for item in kept)


@pytest.mark.parametrize(("command", "spanish", "english"), [
    (("tournament", "create"), "[sin|automáticas|manuales]", "automatic"),
    (("tournament", "create"), "[suma|promedio-plazas|promedio-porcentajes|desviación]", "average_place"),
    (("player", "status"), "[activo|retirado|ausente|descalificado]", "withdrawn"),
    (("tournament", "pin"), "[juez|auxiliar]", "judge|assistant"),
    (("standings",), "[tabla|csv|json]", "table"),
])
def test_help_shows_the_spanish_values(run, command: tuple[str, ...], spanish: str, english: str) -> None:
    shown = run(*command, "--help").output
    assert spanish in " ".join(shown.split()) and english not in shown


def test_spanish_values_are_taken_and_the_english_ones_still_are(run) -> None:
    run("tournament", "create", "T", "--bonus", "Automáticas", "--criterion", "promedio-plazas")
    shown = run("tournament", "show").output
    assert "automáticas (+10 / +5)" in shown and "Promedio de plazas" in shown
    run("tournament", "create", "U", "--bonus", "automatic", "--criterion", "average_place")   # aliases
    run("player", "add", "Ana", "--tournament", "2")
    assert "retirado" in run("player", "status", "1", "retirado", "--tournament", "2").output
    assert "activo" in run("player", "status", "1", "active", "--tournament", "2").output
    refused = run("player", "status", "1", "jubilado", "--tournament", "2", code=2).output
    assert "«jubilado» no es una de: activo, retirado, ausente, descalificado" in refused


def test_slip_conflicts_and_history_speak_spanish(run) -> None:
    run("tournament", "create", "T")
    for name in ("Ana", "Blas"):
        run("player", "add", name)
    run("game", "start", "--rounds", "2", "--seed", "3")
    run("rack", "draw")
    run("master", "choose")
    run("slip", "enter", "1", "H8-CASA")
    run("slip", "enter", "1", "H8-COSA")
    conflicts = run("slip", "conflicts").output
    assert "[papeleta repetida]" in conflicts and "duplicate" not in conflicts
    history = run("history", "--all").output
    assert "Torneo creado: «T»" in history and "Jugador inscrito: Ana (inscripción 1)" in history
    assert "Mesa 1: conflicto 1 (papeleta repetida): «H8-COSA» frente a «H8-CASA»" in history
    assert "{" not in history
    for kind in EVENT_TYPES:
        assert kind.value not in history


def test_every_kind_of_event_has_a_spanish_line() -> None:
    assert set(DESCRIBERS) == {kind.value for kind in EVENT_TYPES}
    for kind, event_type in EVENT_TYPES.items():
        payload = {field.name: 1 for field in dataclasses.fields(event_type)}
        line = describe(kind.value, payload)
        assert kind.value not in line and "{" not in line and line[:1].isupper(), (kind, line)
    assert describe("rack_drawn", ["dañado"]) == 'rack_drawn: ["dañado"]'      # never interpreted
