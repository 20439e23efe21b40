"""One function per derived figure (issue 12 §1): the projection screen, the app's follow-up
sheet and the published sheets show the same partial standings and the same running
totals — checked against figures recomputed here from the raw round results.

Convention (``duplicate.rules.game_standings.running_totals``): a bonus counts in the round it was
awarded (III.24), so a running total after the last round is the standings total (III.23).
"""

from __future__ import annotations

from itertools import accumulate

import pytest

from duplicate.publishing.results import collect_results
from duplicate.rules.game_standings import running_totals
from duplicate.service.facade import TournamentService
from duplicate.service.settings import TournamentSettings
from duplicate.simulate import simulate_tournament
from duplicate.storage.database import open_database
from lexicon.lexicon import Lexicon
from tests.credentials import JUDGE_PIN
from tui.app.screens.projection import read_projection

SETTINGS = TournamentSettings(bonus_mode="automatic", tie_breaks=True, partial_every=3)


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory, spanish_lexicon: Lexicon) -> tuple[TournamentService, int]:
    path = tmp_path_factory.mktemp("agree") / "t.db"
    service = TournamentService(open_database(str(path)), lexicon=spanish_lexicon, pin=JUDGE_PIN)
    tournament = simulate_tournament(service, players=8, games=1, rounds=10, seed=2, settings=SETTINGS)
    return service, tournament


def test_published_partials_match_the_raw_results_and_the_service(played: tuple[TournamentService, int]) -> None:
    service, tournament = played
    results = service.round_results(1, tournament)
    players = [entry.id for entry, _ in service.entries(tournament)]
    [game] = collect_results(service, tournament).games
    assert [partial.after_round for partial in game.partials] == [3, 6, 9]
    for partial in game.partials:
        expected = {player: sum(result.scores.get(player, 0) + result.bonuses.get(player, 0)
                                for result in results if result.number <= partial.after_round)
                    for player in players}
        published = [(line.player.entry_id, line.position, line.total) for line in partial.lines]
        assert {player: total for player, _, total in published} == expected
        totals = [total for _, _, total in published]
        assert totals == sorted(totals, reverse=True)                  # best first; ties only by III.28
        service_lines = service.partial_standings(1, partial.after_round, tournament)
        assert [(line.player, line.position, line.total) for line in service_lines] == published


def test_the_projection_shows_the_same_partial_standings(played: tuple[TournamentService, int]) -> None:
    service, tournament = played
    names = {entry.id: player.name for entry, player in service.entries(tournament)}
    data = read_projection(service, tournament)
    through = int(data.standings_title.rsplit(" ", 1)[1])
    expected = [(line.position, names[line.player], line.total)
                for line in service.partial_standings(1, through, tournament)]
    assert [(line.position, line.name, line.total) for line in data.standings] == expected
    [game] = collect_results(service, tournament).games
    published = {partial.after_round: partial for partial in game.partials}
    if through in published:
        assert [(line.position, line.player.name, line.total) for line in published[through].lines] == expected


def test_running_totals_include_bonuses_and_end_at_the_standings_total(played: tuple[TournamentService, int]) -> None:
    service, tournament = played
    results = service.round_results(1, tournament)
    [game] = collect_results(service, tournament).games
    assert any(result.bonuses for result in results)                   # the convention is exercised
    for line in game.standings:
        player = line.standing.player
        raw = list(accumulate(result.scores.get(player, 0) + result.bonuses.get(player, 0) for result in results))
        assert [sheet.cumulative for sheet in game.sheets[player]] == raw == list(running_totals(results, player))
        assert raw[-1] == line.standing.total


def test_counts_agree_with_their_noun() -> None:
    # Issue 13 §3: «1 partida», never «1 partidas».
    from duplicate.plurals import counted

    assert [counted(n, "partida") for n in (0, 1, 2)] == ["0 partidas", "1 partida", "2 partidas"]
    assert counted(1, "jugador") == "1 jugador" and counted(3, "jugador") == "3 jugadores"
    assert counted(2, "papeleta leída") == "2 papeletas leídas"
