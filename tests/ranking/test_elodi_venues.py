"""EloDI of an event played in several venues (issue 27 §2: «EloDI rates the whole field
once»; rules V; ``ranking.venue_field``): the organiser's game is one rated event whose
field is every player of every venue; its ratings equal those of the same players playing
the same prepared game in one room, each player is rated once, and importing a venue again
makes the ratings stale until recomputed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

from duplicate.prepared.file import PreparedGame
from duplicate.prepared.generation import generate
from duplicate.service.context import ServiceContext
from duplicate.service.facade import TournamentService
from duplicate.service.settings import TournamentSettings
from duplicate.storage.database import Database, open_database
from duplicate.storage.rating_models import RatingChange
from lexicon.lexicon import Lexicon
from ranking.elodi import Contestant, EloDISettings, rate_game
from ranking.ratings import RatingService
from tests.credentials import JUDGE_PIN

ROUNDS = 4
ELODI = EloDISettings(min_rounds=ROUNDS)      # a short prepared game counts here (the rule's 12 is a setting)
SETTINGS = TournamentSettings(bonus_mode="automatic")
ROOMS = {"Barcelona": 3, "Lloret": 6, "El Vendrell": 5}


@pytest.fixture(scope="module")
def prepared(spanish_lexicon: Lexicon) -> PreparedGame:
    return generate(spanish_lexicon, 61, ROUNDS)


def finds(name: str, round_number: int) -> bool:
    """Whether the player called ``name`` finds the master in the round (a fixed pattern
    that gives the field different totals and a bonus or two)."""
    if round_number == 1:
        return name == "Lloret 2"
    return (sum(map(ord, name)) + round_number) % 3 != 0


def play(service: TournamentService, prepared: PreparedGame, names: list[str], *, final: bool) -> None:
    """Register ``names`` and play ``prepared`` with them in ``service``'s tournament."""
    for name in names:
        service.add_player(name, club="Club")
    game = service.create_game(prepared=prepared)
    seated = {table: person.name for table, _entry, person in service.seats(game)}
    for round_ in prepared.rounds:
        service.draw_rack(game)
        service.choose_master(game)
        for table, name in sorted(seated.items()):
            service.enter_slip(game, table, round_.master if finds(name, round_.number) else "H8-QZQZ",
                               round_number=round_.number)
        service.close_round(game, round_.number)
    if final:
        service.end_game(game)
        service.publish(game, final=True)


def room(path: Path, lexicon: Lexicon, prepared: PreparedGame, venue: str, names: list[str], *,
         final: bool) -> TournamentService:
    service = TournamentService(open_database(str(path)), station="sala", lexicon=lexicon, pin=JUDGE_PIN)
    service.create_tournament("Simultáneo", venue=venue, settings=SETTINGS)
    play(service, prepared, names, final=final)
    return service


def names_of(venue: str) -> list[str]:
    return [f"{venue} {index}" for index in range(1, ROOMS[venue] + 1)]


def ratings_by_name(database: Database, ratings: RatingService) -> dict[str, tuple[int, int]]:
    lines = ratings.game_report(ratings.game_ref(1))
    assert len({line.player_id for line in lines}) == len(lines)
    return {line.name: (line.rating_after, line.volatility_after) for line in lines}


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory, spanish_lexicon: Lexicon,
            prepared: PreparedGame) -> dict[str, dict[str, Any]]:
    folder = tmp_path_factory.mktemp("sedes-elodi")
    return {venue: room(folder / f"{index}.db", spanish_lexicon, prepared, venue, names_of(venue),
                        final=False).export()
            for index, venue in enumerate(("Lloret", "El Vendrell"))}


@pytest.fixture
def organiser(tmp_path: Path, spanish_lexicon: Lexicon, prepared: PreparedGame,
              records: dict[str, dict[str, Any]]) -> tuple[Database, TournamentService]:
    database = open_database(str(tmp_path / "org.db"))
    service = TournamentService(database, station="organizador", lexicon=spanish_lexicon, pin=JUDGE_PIN)
    service.create_tournament("Mundial duplicado", venue="Barcelona", settings=SETTINGS)
    play(service, prepared, names_of("Barcelona"), final=True)
    for venue, record in records.items():
        service.import_venue(record, venue, unsigned=True)
    return database, service


def acting(database: Database) -> RatingService:
    return RatingService(ServiceContext(database, station="elodi", pin=JUDGE_PIN), ELODI)


def test_the_whole_field_is_rated_once_as_one_room(organiser: tuple[Database, TournamentService], tmp_path: Path,
                                                   spanish_lexicon: Lexicon, prepared: PreparedGame) -> None:
    database, service = organiser
    ratings = acting(database)
    result = ratings.update()
    assert [ref.number for ref in result.rated] == [1]
    rated = ratings_by_name(database, ratings)
    everybody = [name for venue in ROOMS for name in names_of(venue)]
    assert sorted(rated) == sorted(everybody)                       # every player of every venue, once
    with database.read() as session:
        assert session.scalar(select(func.count()).select_from(RatingChange)) == len(everybody)
    assert ratings.update().rated == ()                              # a second update rates nothing again

    # The same players, the same prepared game, one room: the same ratings.
    one_room = room(tmp_path / "una-sala.db", spanish_lexicon, prepared, "Sala única", everybody, final=True)
    single = acting(one_room.db)
    single.update()
    assert ratings_by_name(one_room.db, single) == rated

    # And a plain recomputation from the whole field's totals (ties share the place, V).
    field = {player.key: player.name for player in service.venue_field()}
    totals = {field[line.player]: line.total for line in service.venue_game_standings(1)}
    positions = {name: 1 + sum(other > total for other in totals.values()) for name, total in totals.items()}
    expected = {outcome.key: (outcome.rating_after, outcome.volatility_after)
                for outcome in rate_game([Contestant(name, float(place)) for name, place in positions.items()], ELODI)}
    assert expected == rated


def test_importing_a_venue_again_makes_the_ratings_stale(organiser: tuple[Database, TournamentService],
                                                         records: dict[str, dict[str, Any]]) -> None:
    database, service = organiser
    ratings = acting(database)
    ratings.update()
    before = ratings_by_name(database, ratings)
    assert ratings.stale_games() == []
    service.import_venue(records["Lloret"], "Lloret", unsigned=True)     # the same venue again: a new import
    assert [ref.number for ref in ratings.stale_games()] == [1]
    assert [ref.number for ref in ratings.update().stale] == [1]      # update says so (the CLI: run recompute)
    ratings.recompute()
    assert ratings.stale_games() == []
    assert ratings_by_name(database, ratings) == before              # same field, same ratings, same persons
    with database.read() as session:
        players = session.scalar(select(func.count(func.distinct(RatingChange.player_id))))
    assert players == sum(ROOMS.values())


def test_an_organiser_without_a_room_of_its_own_rates_the_venues(tmp_path: Path, spanish_lexicon: Lexicon,
                                                                 prepared: PreparedGame,
                                                                 records: dict[str, dict[str, Any]]) -> None:
    """The organiser's game has no round of its own: its rounds are the venues' (V: at
    least ``min_rounds``), and its final publication rates every venue player once."""
    database = open_database(str(tmp_path / "org.db"))
    service = TournamentService(database, station="organizador", lexicon=spanish_lexicon, pin=JUDGE_PIN)
    service.create_tournament("Simultáneo", venue="Federación", settings=SETTINGS)
    service.create_game(prepared=prepared)
    for venue, record in records.items():
        service.import_venue(record, venue, unsigned=True)
    service.end_game(1, reason="jugada en las sedes")
    service.publish(1, final=True)
    ratings = acting(database)
    assert ratings.why_not_rated(ratings.game_ref(1)) is None
    assert [ref.number for ref in ratings.update().rated] == [1]
    assert sorted(ratings_by_name(database, ratings)) == sorted(names_of("Lloret") + names_of("El Vendrell"))
    assert RatingService(database, EloDISettings(min_rounds=ROUNDS + 1)).why_not_rated(ratings.game_ref(1)) == (
        f"solo tiene {ROUNDS} rondas (el mínimo para EloDI es {ROUNDS + 1})")


def test_importing_a_venue_again_recomputes_through_the_service(tmp_path: Path, spanish_lexicon: Lexicon) -> None:
    """With the EloDI hooks (as every front end builds the service): the final publication
    rates the whole field; a corrected venue record imported afterwards recomputes at once,
    as a reopened game's next final publication does, and the ratings are the new field's."""
    from ranking.service import tournament_service

    prepared = generate(spanish_lexicon, 71, 12)                  # EloDI's 12 rounds (V)
    first = room(tmp_path / "a.db", spanish_lexicon, prepared, "Lloret", names_of("Lloret"), final=False).export()
    database = open_database(str(tmp_path / "org.db"))
    service = tournament_service(database, station="organizador", lexicon=spanish_lexicon, pin=JUDGE_PIN)
    service.create_tournament("Mundial duplicado", venue="Barcelona", settings=SETTINGS)
    play(service, prepared, names_of("Barcelona"), final=False)
    service.import_venue(first, "Lloret", unsigned=True)
    service.end_game(1)
    service.publish(1, final=True)                                 # rates the whole field once
    ratings = RatingService(database)
    before = ratings_by_name(database, ratings)
    assert len(before) == 9 and ratings.current_version() == 1

    # The venue's judge corrects a slip (the master for «Lloret 6» in round 3) and exports again.
    corrected = room(tmp_path / "b.db", spanish_lexicon, prepared, "Lloret", names_of("Lloret"), final=False)
    table = next(table for table, _entry, person in corrected.seats(1) if person.name == "Lloret 6")
    if not finds("Lloret 6", 3):
        corrected.correct_slip(1, table, prepared.rounds[2].master, round_number=3, reason="error de anotación")
    else:
        corrected.correct_slip(1, table, "H8-QZQZ", round_number=3, reason="error de anotación")
    service.import_venue(corrected.export(), "Lloret", unsigned=True)
    assert ratings.stale_games() == [] and ratings.current_version() == 2     # recomputed at once
    after = ratings_by_name(database, ratings)
    assert after != before and sorted(after) == sorted(before)
    field = {player.key: player.name for player in service.venue_field()}
    totals = {field[line.player]: line.total for line in service.venue_game_standings(1)}
    positions = {name: 1 + sum(other > total for other in totals.values()) for name, total in totals.items()}
    assert after == {outcome.key: (outcome.rating_after, outcome.volatility_after) for outcome in
                     rate_game([Contestant(name, float(place)) for name, place in positions.items()], EloDISettings())}
