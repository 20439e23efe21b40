"""IV.31 tie-breaks in the tournament standings the service gives (issue 25 §5).

IV.31: "En caso de que exista la necesidad de deshacer los empates en la clasificación
final del torneo, debido a que se entreguen premios que no puedan ser compartidos …, se
deberá realizar el desempate utilizando … III.28, considerando al conjunto de todas las
rondas como si fueran parte de una misma partida duplicada." The service applies III.28
over all the rounds only when the tournament announced tie-breaks (the ``tie_breaks``
setting, III.28: made public before play), only between players tied on the criterion;
a game's tie-break places never reach the tournament's criterion.

The round results are given by hand (the service's reading of the slips is replaced), so
that the scores are exactly the ones the rule needs.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from duplicate.rules.game_standings import RoundResult
from duplicate.service.facade import TournamentService
from duplicate.service.settings import TournamentSettings
from duplicate.service.standings import Standings
from duplicate.storage.database import open_database
from duplicate.storage.models import GameRow, Tournament
from lexicon.lexicon import Lexicon
from tests.credentials import JUDGE_PIN
from tui.cli.main import main

NAMES = ("Ana", "Beto", "Carla")


def standings_of(tmp_path: Path, lexicon: Lexicon, monkeypatch: pytest.MonkeyPatch, settings: TournamentSettings,
                 games: list[list[tuple[int, dict[str, int]]]]) -> tuple[list[tuple[str, int]], list[list[int]]]:
    """(name, position) of the tournament standings, and each game's positions by name order,
    for ``games``: per game, its rounds as (master score, {name: points})."""
    service = TournamentService(open_database(str(tmp_path / "t.db")), lexicon=lexicon, pin=JUDGE_PIN)
    service.create_tournament("Desempates", settings=settings)
    ids = {name: service.add_player(name, federation_id=name) for name in NAMES}
    game_count = 0
    for _ in games:
        game = service.create_game(rounds=3, unpublished_reason="prueba de la clasificación" if game_count else "")
        game_count += 1
        service.end_game(game, reason="resultados dados a mano")

    def results(self: Standings, session: object, tournament: Tournament, game: GameRow) -> list[RoundResult[int]]:
        rounds = games[game.number - 1]
        return [RoundResult(number, master, master, {ids[name]: points for name, points in scores.items()})
                for number, (master, scores) in enumerate(rounds, start=1)]

    monkeypatch.setattr(Standings, "round_results_in", results)
    names = {entry: name for name, entry in ids.items()}
    overall = [(names[line.player], line.position) for line in service.tournament_standings()]
    per_game = []
    for number in range(1, len(games) + 1):
        positions = {line.player: line.position for line in service.game_standings(number)}
        per_game.append([positions[ids[name]] for name in NAMES])
    return overall, per_game


# Game 1: round 1 (master 20) Ana 20, Beto 10, Carla 0; round 2 (master 20) Ana 0, Beto 10,
# Carla 10 — Ana and Beto tie on 20 (III.28 puts Ana first: one master equalled, Beto none).
# Game 2 (master 30): Carla 30, Beto 20, Ana 10.
GAMES = [[(20, {"Ana": 20, "Beto": 10, "Carla": 0}), (20, {"Ana": 0, "Beto": 10, "Carla": 10})],
         [(30, {"Ana": 10, "Beto": 20, "Carla": 30})]]


def test_a_games_tie_break_places_do_not_reorder_the_untied_tournament_IV_31(
        tmp_path: Path, spanish_lexicon: Lexicon, monkeypatch: pytest.MonkeyPatch) -> None:
    # Average place (criterion 1) over places by total: Ana 1 + 3, Beto 1 + 2, Carla 3 + 1.
    # Beto is alone in front. Averaging game 1's tie-break places (Ana 1, Beto 2) would tie
    # all three at 4 and III.28 over all the rounds would send Beto (no master equalled) last.
    settings = TournamentSettings(criterion="average_place", tie_breaks=True)
    overall, per_game = standings_of(tmp_path, spanish_lexicon, monkeypatch, settings, GAMES)
    assert per_game[0] == [1, 2, 3]              # the game's own prizes: its III.28 order (announced)
    assert overall[0] == ("Beto", 1)
    # Ana and Carla: one master equalled, one sole top and a largest gap of 20 each: III.28
    # leaves them tied, sharing the place.
    assert sorted(overall[1:]) == [("Ana", 2), ("Carla", 2)]


def test_tied_players_share_the_place_unless_tie_breaks_are_announced_IV_31(
        tmp_path: Path, spanish_lexicon: Lexicon, monkeypatch: pytest.MonkeyPatch) -> None:
    # Game 1 alone, by total: Ana and Beto 20, Carla 10.
    overall, per_game = standings_of(tmp_path, spanish_lexicon, monkeypatch, TournamentSettings(), GAMES[:1])
    assert per_game == [[1, 1, 3]]
    assert overall == [("Ana", 1), ("Beto", 1), ("Carla", 3)]


def test_announced_tie_breaks_decide_only_the_tie_IV_31(
        tmp_path: Path, spanish_lexicon: Lexicon, monkeypatch: pytest.MonkeyPatch) -> None:
    overall, _ = standings_of(tmp_path, spanish_lexicon, monkeypatch, TournamentSettings(tie_breaks=True), GAMES[:1])
    # III.28 over all the rounds: Ana equalled the master once, Beto never; Carla stays third.
    assert overall == [("Ana", 1), ("Beto", 2), ("Carla", 3)]


@pytest.mark.parametrize("tie_breaks", [False, True])
def test_the_command_line_shows_tie_criteria_only_for_tied_players_IV_31(
        tmp_path: Path, spanish_lexicon: Lexicon, monkeypatch: pytest.MonkeyPatch, tie_breaks: bool) -> None:
    # III.28's counts decide only what a tie leaves undecided: Carla, alone on 10, and
    # everybody in a tournament without announced tie-breaks, get empty cells.
    standings_of(tmp_path, spanish_lexicon, monkeypatch, TournamentSettings(tie_breaks=tie_breaks), GAMES[:1])
    env = {"DUPLICADA_DB": str(tmp_path / "t.db"), "DUPLICADA_STATION": "mesa", "DUPLICADA_PIN": JUDGE_PIN}
    result = CliRunner().invoke(main, ["standings", "--format", "json"], env=env)
    assert result.exit_code == 0, result.output
    rows = {row["jugador"]: row for row in json.loads(result.output)}
    shown = {name: (row["iguala_maestra"], row["unico_maximo"], row["mayor_diferencia"]) for name, row in rows.items()}
    if tie_breaks:
        assert shown == {"Ana": (1, 1, 20), "Beto": (0, 0, 10), "Carla": ("", "", "")}
        assert [rows[name]["puesto"] for name in NAMES] == [1, 2, 3]
    else:
        assert set(shown.values()) == {("", "", "")}
        assert [rows[name]["puesto"] for name in NAMES] == [1, 1, 3]
