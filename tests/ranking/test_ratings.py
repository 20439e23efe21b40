"""Stored EloDI (rules V; ``elodi.md`` "Which games count", "Recomputation"): a game is
rated once and only once after it is published final, short or provisional games and
withdrawn players are left out, and a recompute replays every valid game in date order
with the same outcome every time. Also the ``duplicada elodi`` commands.

Games are created through the service and played as the events of their rounds,
applied by the projector (``tests.ranking.finished_games``), then published final
through ``TournamentService.publish``, as in a real tournament.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterable, Iterator
from datetime import date
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from sqlalchemy import func, select

from duplicate.rules.statuses import EntryStatus
from duplicate.service.facade import TournamentService
from duplicate.service.settings import TournamentSettings
from duplicate.storage.database import open_database
from duplicate.storage.rating_models import RatedGame, RatingChange
from lexicon.lexicon import Lexicon
from ranking.elodi import Contestant, rate_game
from ranking.ratings import RatingService
from tests.credentials import JUDGE_PIN
from tests.duplicate.test_stations import _postgres_url
from tests.ranking.finished_games import correct_score, write_game
from tui.cli.main import main

NAMES = ["Ana", "Bea", "Carlos", "Dani", "Eva", "Fede"]


@pytest.fixture
def lexicon(make_lexicon: Callable[[Iterable[str]], Lexicon]) -> Lexicon:
    return make_lexicon(["CASA", "COSA", "SACO"])


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "elodi.db"


@pytest.fixture
def tournaments(db_path: Path, lexicon: Lexicon) -> TournamentService:
    return TournamentService(open_database(str(db_path)), station="test", lexicon=lexicon, pin=JUDGE_PIN)


@pytest.fixture
def ratings(tournaments: TournamentService) -> RatingService:
    return RatingService(tournaments.context)


def new_tournament(service: TournamentService, name: str = "Open", day: date | None = date(2026, 3, 14),
                   players: Iterable[str] = NAMES) -> int:
    tournament = service.create_tournament(name, start_date=day,            # IV.32: reopening admitted
                                           settings=TournamentSettings(corrections_after_final=True))
    for player in players:
        service.add_player(player, club="Club Valencia" if player < "C" else "Club Madrid", country="España",
                           federation_id=f"F-{player}", tournament_id=tournament)
    return tournament


def stored(ratings: RatingService) -> dict[str, tuple[int | None, int | None, int]]:
    return {line.name: (line.rating, line.volatility, line.games) for line in ratings.rating_list()}


def history_rows(ratings: RatingService, version: int | None = None) -> list[tuple]:
    """The stored history of ``version`` (default: the current one)."""
    version = version if version is not None else ratings.current_version()
    with ratings.db.read() as session:
        rows = session.execute(select(RatedGame.game_id, RatedGame.sequence, RatingChange.player_id,
                                      RatingChange.rating_after, RatingChange.volatility_after,
                                      RatingChange.target_position, RatingChange.cap_bound)
                               .join(RatedGame, RatingChange.rated_game_id == RatedGame.id)
                               .where(RatedGame.version == version)).all()
    return sorted(tuple(row) for row in rows)


GAME_ONE = {"Ana": 900, "Bea": 850, "Carlos": 850, "Dani": 700, "Eva": 650, "Fede": 400}
GAME_TWO = {"Fede": 990, "Eva": 950, "Dani": 700, "Carlos": 600, "Bea": 500, "Ana": 450}


# --- rated once, after final publication ------------------------------------------------------
def test_a_final_game_is_rated_once_even_if_update_runs_twice(tournaments: TournamentService,
                                                               ratings: RatingService) -> None:
    """elodi.md: updated once, and only once, even if the command is repeated."""
    tournament = new_tournament(tournaments)
    write_game(tournaments, tournament, GAME_ONE)
    first = ratings.update()
    assert [ref.number for ref in first.rated] == [1]
    after_first = stored(ratings)
    second = ratings.update()
    assert second.rated == () and not second.recomputed
    assert stored(ratings) == after_first
    with ratings.db.read() as session:
        assert session.scalar(select(func.count()).select_from(RatedGame)) == 1
    # The values are rate_game's on the game's classification by total (ties share a place).
    expected = rate_game([Contestant("Ana", 1.0), Contestant("Bea", 2.0), Contestant("Carlos", 2.0),
                          Contestant("Dani", 4.0), Contestant("Eva", 5.0), Contestant("Fede", 6.0)])
    assert after_first == {o.key: (o.rating_after, o.volatility_after, 1) for o in expected}
    assert after_first["Bea"] == after_first["Carlos"]


def test_a_second_game_uses_the_ratings_after_the_first(tournaments: TournamentService,
                                                        ratings: RatingService) -> None:
    tournament = new_tournament(tournaments)
    write_game(tournaments, tournament, GAME_ONE)
    ratings.update()
    before = stored(ratings)
    write_game(tournaments, tournament, GAME_TWO)
    result = ratings.update()
    assert [ref.number for ref in result.rated] == [2]
    field = [Contestant(name, float(place), before[name][0], before[name][1], 1)
             for place, name in enumerate(GAME_TWO, start=1)]
    assert stored(ratings) == {o.key: (o.rating_after, o.volatility_after, 2) for o in rate_game(field)}
    history = ratings.player_history(ratings.find_player("Fede")[0])
    assert [line.game.number for line in history] == [1, 2]
    assert history[1].rating_before == before["Fede"][0] and history[1].change > 0


def test_provisional_and_short_games_are_not_rated(tournaments: TournamentService, ratings: RatingService) -> None:
    """elodi.md: only games published final (III.26) with at least 12 rounds (Decision) count."""
    tournament = new_tournament(tournaments)
    write_game(tournaments, tournament, GAME_ONE, final=False)
    write_game(tournaments, tournament, GAME_TWO, rounds=11)
    assert ratings.update().rated == ()
    assert all(rating is None for rating, _, _ in stored(ratings).values())
    provisional = ratings.update(ratings.game_ref(1, tournament))
    assert "definitivos" in provisional.skipped[0][1]
    short = ratings.update(ratings.game_ref(2, tournament))
    assert "11 rondas" in short.skipped[0][1]
    assert RatingService(ratings.context, ratings.settings.__class__(min_rounds=11)).update().rated != ()


def test_withdrawn_players_are_not_rated(tournaments: TournamentService, ratings: RatingService) -> None:
    """elodi.md: withdrawn, absent or disqualified players are not rated for that game; the
    status counted is the one at the final publication."""
    tournament = new_tournament(tournaments)
    entries = {player.name: entry.id for entry, player in tournaments.entries(tournament)}
    write_game(tournaments, tournament, GAME_ONE, final=False)                 # Fede played...
    tournaments.set_entry_status(entries["Fede"], EntryStatus.WITHDRAWN)      # ...and withdrew before
    tournaments.publish(1, final=True, tournament_id=tournament)              # the final publication
    tournaments.set_entry_status(entries["Ana"], EntryStatus.DISQUALIFIED)    # after the publication
    ratings.update()
    values = stored(ratings)
    assert values["Fede"] == (None, None, 0)
    assert values["Ana"][2] == 1
    report = ratings.game_report(ratings.game_ref(1, tournament))
    assert sorted(line.name for line in report) == ["Ana", "Bea", "Carlos", "Dani", "Eva"]
    ratings.recompute()
    assert stored(ratings) == values


# --- recompute ------------------------------------------------------------------------------------
def test_recompute_gives_identical_results_every_time(tournaments: TournamentService,
                                                      ratings: RatingService) -> None:
    """elodi.md "Recomputation": replay from the start values; identical every time, and
    identical to rating the games one by one as they were published."""
    tournament = new_tournament(tournaments)
    write_game(tournaments, tournament, GAME_ONE)
    ratings.update()
    write_game(tournaments, tournament, GAME_TWO)
    ratings.update()
    incremental, incremental_history = stored(ratings), history_rows(ratings)
    ratings.recompute()
    assert stored(ratings) == incremental and history_rows(ratings) == incremental_history
    ratings.recompute()
    assert stored(ratings) == incremental and history_rows(ratings) == incremental_history


def test_recompute_after_a_corrected_result_uses_the_new_classification(tournaments: TournamentService,
                                                                        ratings: RatingService) -> None:
    """elodi.md "Recomputation": after a correction (reopen, correct, publish final again)
    the replay reads the game's new standings; the other games' stored classification is
    reused, which gives the same as reading every game again."""
    tournament = new_tournament(tournaments)
    write_game(tournaments, tournament, GAME_ONE)
    write_game(tournaments, tournament, GAME_TWO)
    ratings.update()
    before = stored(ratings)
    tournaments.reopen(1, reason="papeleta mal sumada", tournament_id=tournament)
    correct_score(tournaments, tournament, 1, "Fede", 1000)     # Fede's round 1 was worth 1000, not 400
    tournaments.publish(1, final=True, tournament_id=tournament)
    ratings.recompute()
    corrected = stored(ratings)
    assert corrected != before
    report = {line.name: line for line in ratings.game_report(ratings.game_ref(1, tournament))}
    assert report["Fede"].total == 1000 and report["Fede"].change > 0
    ratings.recompute(reread=True)
    assert stored(ratings) == corrected


def test_recompute_follows_date_order_not_the_order_of_entry(tmp_path: Path, lexicon: Lexicon) -> None:
    """Two databases with the same tournaments entered in opposite orders rate alike:
    games are replayed by the tournament's date (the module's Decision)."""
    results = []
    for order in ((date(2026, 1, 10), date(2026, 2, 10)), (date(2026, 2, 10), date(2026, 1, 10))):
        service = TournamentService(open_database(str(tmp_path / f"{order[0]}.db")), lexicon=lexicon, pin=JUDGE_PIN)
        for day in order:
            tournament = new_tournament(service, f"Torneo {day.month}", day, NAMES)
            write_game(service, tournament, GAME_ONE if day.month == 1 else GAME_TWO)
        ratings = RatingService(service.context)
        ratings.recompute()
        results.append(stored(ratings))
        assert [ref.day.month for ref in ratings.rated_games()] == [1, 2]
    assert results[0] == results[1]


def test_a_late_game_makes_update_replay_everything(tournaments: TournamentService,
                                                    ratings: RatingService) -> None:
    later = new_tournament(tournaments, "Febrero", date(2026, 2, 10))
    write_game(tournaments, later, GAME_TWO)
    ratings.update()
    earlier = new_tournament(tournaments, "Enero", date(2026, 1, 10))
    write_game(tournaments, earlier, GAME_ONE)
    result = ratings.update()
    assert result.recomputed
    after_update = stored(ratings)
    ratings.recompute()
    assert stored(ratings) == after_update
    assert [ref.tournament for ref in ratings.rated_games()] == ["Enero", "Febrero"]


def test_a_reopened_game_is_reported_stale(tournaments: TournamentService, ratings: RatingService) -> None:
    tournament = new_tournament(tournaments)
    write_game(tournaments, tournament, GAME_ONE)
    ratings.update()
    tournaments.reopen(1, reason="corrección de una papeleta", tournament_id=tournament)
    assert [ref.number for ref in ratings.update().stale] == [1]
    tournaments.publish(1, final=True, tournament_id=tournament)
    assert [ref.number for ref in ratings.stale_games()] == [1]
    ratings.recompute()
    assert ratings.stale_games() == []


@pytest.fixture(params=["sqlite", "postgresql"])
def shared_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'shared.db'}"
    else:
        yield from _postgres_url()


def test_concurrent_updates_rate_each_game_once(shared_url: str, lexicon: Lexicon) -> None:
    """Four stations running the update at once (SQLite and PostgreSQL): the unique
    constraints on the rated game and on the rating sequence let exactly one rate each
    game, and the result is the replay's."""
    tournaments = TournamentService(open_database(shared_url), station="test", lexicon=lexicon, pin=JUDGE_PIN)
    tournament = new_tournament(tournaments)
    write_game(tournaments, tournament, GAME_ONE)
    write_game(tournaments, tournament, GAME_TWO)
    counts: list[int] = []
    errors: list[BaseException] = []
    barrier = threading.Barrier(4)

    def run() -> None:
        try:
            service = RatingService(open_database(shared_url)).with_pin(JUDGE_PIN)
            barrier.wait()
            counts.append(len(service.update().rated))
            service.db.dispose()
        except BaseException as error:  # noqa: BLE001
            errors.append(error)

    threads = [threading.Thread(target=run) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert sum(counts) == 2
    ratings = RatingService(tournaments.context)
    concurrent, concurrent_history = stored(ratings), history_rows(ratings)
    ratings.recompute()
    assert stored(ratings) == concurrent and history_rows(ratings) == concurrent_history
    tournaments.db.dispose()


# --- list and report ------------------------------------------------------------------------------
def test_rating_list_and_report(tournaments: TournamentService, ratings: RatingService) -> None:
    tournament = new_tournament(tournaments)
    write_game(tournaments, tournament, GAME_ONE)
    tournaments.add_player("Zoe", club="Club Madrid", tournament_id=tournament)    # entered, never rated
    ratings.update()
    lines = ratings.rating_list()
    assert [line.name for line in lines] == ["Ana", "Bea", "Carlos", "Dani", "Eva", "Fede", "Zoe"]
    assert [line.position for line in lines] == [1, 2, 2, 4, 5, 6, None]
    assert lines[-1].rating is None and lines[-1].games == 0 and lines[-1].last_game is None
    assert lines[0].last_game is not None and lines[0].last_game.number == 1
    assert [line.name for line in ratings.rating_list(club="club valencia")] == ["Ana", "Bea"]
    assert "Zoe" not in [line.name for line in ratings.rating_list(include_new=False)]
    report = ratings.game_report(ratings.game_ref(1, tournament))
    assert [line.name for line in report] == ["Ana", "Bea", "Carlos", "Dani", "Eva", "Fede"]
    assert report[0].rating_before is None and report[0].target_position == pytest.approx(3.5)
    assert report[1].actual_position == report[2].actual_position == 2.5
    assert report[0].change == report[0].rating_after - 1200


# --- the command line -----------------------------------------------------------------------------
@pytest.fixture
def cli() -> click.Group:
    return main


def test_cli_rate_prints_the_closed_form_of_a_first_game(cli: click.Group, tmp_path: Path) -> None:
    """The scripting interface of issue 5, on elodi.md's hand check (five new players)."""
    game = tmp_path / "partida.json"
    game.write_text(json.dumps({"players": [
        {"name": name, "rating": None, "volatility": None, "games": 0, "position": place}
        for place, name in enumerate(["Ana", "Bea", "Carlos", "Dani", "Eva"], start=1)]}), encoding="utf-8")
    result = CliRunner().invoke(cli, ["elodi", "rate", str(game)])
    assert result.exit_code == 0, result.output
    players = json.loads(result.output)["players"]
    assert [p["name"] for p in players] == ["Ana", "Bea", "Carlos", "Dani", "Eva"]
    assert [p["rating"] for p in players] == [1611, 1368, 1200, 1032, 789]
    assert {p["volatility"] for p in players} == {385} and {p["games"] for p in players} == {1}
    assert {p["target_position"] for p in players} == {3.0}
    assert [p["change"] for p in players] == [411, 168, 0, -168, -411]


def test_cli_rate_with_rated_players_keeps_input_order(cli: click.Group, tmp_path: Path) -> None:
    players = [{"name": "Veterana", "rating": 1650, "volatility": 180, "games": 14, "position": 2},
               {"name": "Nuevo", "rating": None, "volatility": None, "games": 0, "position": 1},
               {"name": "Veterano", "rating": 1500, "volatility": 200, "games": 3, "position": 2}]
    game = tmp_path / "g.json"
    game.write_text(json.dumps({"players": players}), encoding="utf-8")
    output = json.loads(CliRunner().invoke(cli, ["elodi", "rate", str(game)]).output)["players"]
    expected = rate_game([Contestant(1, 2.0, 1650, 180, 14), Contestant(2, 1.0), Contestant(3, 2.0, 1500, 200, 3)])
    assert [(p["name"], p["rating"], p["volatility"], p["games"], p["change"]) for p in output] == [
        (p["name"], o.rating_after, o.volatility_after, o.games_after, o.change)
        for p, o in zip(players, expected, strict=True)]


@pytest.mark.parametrize("content, message", [
    ("{nope", "no es JSON válido"),
    ('{"jugadores": []}', "«players»"),
    ('{"players": [{"name": "A", "rating": "1500", "volatility": 100, "games": 2, "position": 1}]}', "«rating»"),
    ('{"players": [{"name": "A", "rating": null, "volatility": null, "games": 0}]}', "falta «position»"),
    ('{"players": [{"name": "A", "rating": null, "volatility": 200, "games": 0, "position": 1}]}', "nuevo"),
])
def test_cli_rate_refuses_bad_input_naming_the_file(cli: click.Group, tmp_path: Path, content: str,
                                                     message: str) -> None:
    game = tmp_path / "mala.json"
    game.write_text(content, encoding="utf-8")
    result = CliRunner().invoke(cli, ["elodi", "rate", str(game)])
    assert result.exit_code == 2
    assert "mala.json" in result.output and message in result.output


def test_cli_update_list_report_recompute(cli: click.Group, tournaments: TournamentService, db_path: Path) -> None:
    tournament = new_tournament(tournaments)
    write_game(tournaments, tournament, GAME_ONE)
    write_game(tournaments, tournament, GAME_TWO, rounds=5)
    runner = CliRunner(env={"DUPLICADA_PIN": JUDGE_PIN})
    db = ["--db", str(db_path)]
    result = runner.invoke(cli, ["elodi", "update", *db])
    assert result.exit_code == 0 and "Valorada «Open», partida 1" in result.output
    assert "No hay partidas pendientes" in runner.invoke(cli, ["elodi", "update", *db]).output
    short = runner.invoke(cli, ["elodi", "update", *db, "--game", "2"])
    assert "5 rondas" in short.output
    listing = json.loads(runner.invoke(cli, ["elodi", "list", *db, "--format", "json"]).output)
    assert listing[0]["nombre"] == "Ana" and listing[0]["posicion"] == 1 and listing[0]["nuevo"] is False
    csv_text = runner.invoke(cli, ["elodi", "list", *db, "--format", "csv"]).output
    assert csv_text.splitlines()[0] == "posicion,nombre,club,pais,elodi,volatilidad,partidas,ultima_partida"
    table = runner.invoke(cli, ["elodi", "report", *db, "--game", "1"])
    assert table.exit_code == 0 and "Ana" in table.output and "objetivo" in table.output
    not_rated = runner.invoke(cli, ["elodi", "report", *db, "--game", "2"])
    assert not_rated.exit_code == 1 and "no está valorada" in not_rated.output
    assert "1 partida valorada" in runner.invoke(cli, ["elodi", "recompute", *db]).output
    history = runner.invoke(cli, ["elodi", "history", *db, "Ana"])
    assert history.exit_code == 0 and "máximo" in history.output
