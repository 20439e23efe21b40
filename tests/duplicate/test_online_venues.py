"""One event played in several online venues at once (issue 27 §2, «sedes en línea», and
its Proof): every room's stations on one database — the PostgreSQL server beside CI, and
SQLite — each venue with its own judge and assistants whose rights stop at their venue,
the organiser's judge covering all.

The expectations are the arbiter's (docs/venues.md, "Derechos"): a venue's assistant
enters and corrects the slips of its own venue's tables only; a venue's judge does the
judge's work of its room (slips, corrections, claims, its players, its assistants' PINs)
and nothing of another room nor of the whole game (racks, masters, closing rounds,
publishing); the organiser does everything. A refusal is ``NotAuthorised`` naming the
venue, and nothing is stored. Standings rank the whole field with a venue column, checked
against a plain recomputation from the exported record.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from duplicate.prepared.file import PreparedGame
from duplicate.prepared.generation import generate
from duplicate.record.verify import verify_record
from duplicate.service.access import Action
from duplicate.service.errors import InvalidText, NotAuthorised, NotFound
from duplicate.service.facade import TournamentService
from duplicate.service.settings import TournamentSettings
from duplicate.storage.database import open_database
from lexicon.lexicon import Lexicon
from tests.credentials import ASSISTANT_PINS, JUDGE_PIN
from tests.duplicate.record_versions import as_format
from tests.duplicate.test_stations import _postgres_url

ROUNDS = 4
BONUSES = TournamentSettings(bonus_mode="automatic")
PINS = {"juez Lloret": "lloret-juez-pin", "juez Vendrell": "vendrell-juez-pin",
        "aux Lloret": "lloret-aux-pin", "aux Lloret 2": "lloret-aux2-pin", "aux Vendrell": "vendrell-aux-pin"}
"""The venue stations' PINs (test data, not secrets)."""


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh database: a SQLite file, or a new database on the PostgreSQL server at
    127.0.0.1:5432 (skipped, saying why, when none answers: ``test_stations``)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'sedes.db'}"
    else:
        yield from _postgres_url()


@pytest.fixture(scope="module")
def prepared(spanish_lexicon: Lexicon) -> PreparedGame:
    return generate(spanish_lexicon, 31, ROUNDS)


def machine(url: str, station: str, lexicon: Lexicon, pin: str | None) -> TournamentService:
    """A station on its own machine: its own connection to the database, its own caches."""
    return TournamentService(open_database(url), station=station, lexicon=lexicon, pin=pin)


def scored(order: int, round_number: int, venue: str) -> bool:
    """Whether the ``order``-th player (1-based, by table) of ``venue`` finds the master:
    round 1 only Lloret's first (the only one of the whole field: a bonus, III.24); round 2
    the first of each venue (no bonus over the field); then a pattern."""
    if round_number == 1:
        return venue == "Lloret" and order == 1
    if round_number == 2:
        return order == 1
    return (order + round_number) % 3 != 0


def plain_standings(record: dict[str, Any]) -> dict[tuple[str, int], tuple[int, int]]:
    """Recomputed plainly from the exported record: per (venue, player) the sum of its slip
    scores and the bonuses of the whole field (III.24, automatic: 10 to the only player of
    all venues at the round's top)."""
    venue_of = {player["id"]: player["venue"] for player in record["players"]}
    points = {(venue_of[player], player): 0 for player in venue_of}
    bonuses = dict.fromkeys(points, 0)
    for round_ in record["games"][0]["rounds"]:
        at_top = []
        for slip in round_["slips"]:
            key = (venue_of[slip["player"]], slip["player"])
            points[key] += slip["score"]
            if slip["score"] == round_["top_score"]:
                at_top.append(key)
        if len(at_top) == 1:
            bonuses[at_top[0]] += 10
    return {key: (points[key], bonuses[key]) for key in points}


def test_one_prepared_game_in_two_online_venues(database_url: str, spanish_lexicon: Lexicon,
                                                prepared: PreparedGame) -> None:
    organiser = machine(database_url, "organizador", spanish_lexicon, JUDGE_PIN)
    organiser.create_tournament("Simultáneo en línea", venue="Barcelona", settings=BONUSES)
    organiser.add_venue("Lloret")
    organiser.add_venue("El Vendrell")
    organiser.set_pin("judge", PINS["juez Lloret"], venue="Lloret")
    organiser.set_pin("judge", PINS["juez Vendrell"], venue="El Vendrell")
    judge_l = machine(database_url, "lloret-juez", spanish_lexicon, PINS["juez Lloret"])
    judge_v = machine(database_url, "vendrell-juez", spanish_lexicon, PINS["juez Vendrell"])
    # Each venue's judge registers its own room's players and its assistants.
    for index in range(6):
        judge_l.add_player(f"Lloret {index + 1}", club="Lloret")
    for index in range(5):
        judge_v.add_player(f"Vendrell {index + 1}", club="El Vendrell")
    judge_l.set_pin("assistant", PINS["aux Lloret"], name="aux Lloret")
    judge_l.set_pin("assistant", PINS["aux Lloret 2"], name="aux Lloret 2")
    judge_v.set_pin("assistant", PINS["aux Vendrell"], name="aux Vendrell")
    with pytest.raises(NotAuthorised, match="El Vendrell"):        # not another venue's assistant
        judge_v.set_pin("assistant", "robado-pin-1", name="aux Lloret")
    with pytest.raises(NotAuthorised, match="Lloret"):
        judge_l.add_player("Intruso", venue="El Vendrell")
    assert {(role, name, ) for role, name in organiser.credentials()} >= {("judge", "juez de Lloret"),
                                                                        ("assistant", "aux Vendrell")}

    game = organiser.create_game(prepared=prepared)
    seats = organiser.seats(game)
    tables = {venue: [table for table, entry, _ in seats if entry.venue == venue] for venue in ("Lloret", "El Vendrell")}
    assert tables == {"Lloret": [1, 2, 3, 4, 5, 6], "El Vendrell": [7, 8, 9, 10, 11]}   # a block per room
    # The assistants' ranges cover every table: what stops them is their venue.
    judge_l.set_assistant_range("aux Lloret", 1, 11)
    judge_l.set_assistant_range("aux Lloret 2", 4, 11)
    judge_v.set_assistant_range("aux Vendrell", 1, 11)
    aux_l = machine(database_url, "lloret-aux", spanish_lexicon, PINS["aux Lloret"])
    aux_l2 = machine(database_url, "lloret-aux-2", spanish_lexicon, PINS["aux Lloret 2"])
    aux_v = machine(database_url, "vendrell-aux", spanish_lexicon, PINS["aux Vendrell"])
    lloret, vendrell = tables["Lloret"], tables["El Vendrell"]

    # What the screens are told (service.may) is what the service does.
    assert aux_l.may(Action.ENTER_SLIP, lloret[0]) and not aux_l.may(Action.ENTER_SLIP, vendrell[0])
    assert not aux_l2.may(Action.ENTER_SLIP, lloret[0]) and aux_l2.may(Action.ENTER_SLIP, lloret[-1])
    assert judge_l.may(Action.CORRECT_SLIP, lloret[0]) and not judge_l.may(Action.CORRECT_SLIP, vendrell[0])
    assert not judge_l.may(Action.DRAW_RACK) and not judge_l.may(Action.CLOSE_ROUND)
    assert not judge_l.may(Action.PUBLISH_RESULTS) and not judge_v.may(Action.CHOOSE_MASTER)
    assert organiser.may(Action.ENTER_SLIP, vendrell[0]) and organiser.may(Action.DRAW_RACK)
    with pytest.raises(NotAuthorised, match="toda la partida"):
        judge_l.draw_rack(game)

    def slips(round_number: int, venue: str, station: TournamentService) -> None:
        master = prepared.rounds[round_number - 1].master
        for order, table in enumerate(tables[venue], start=1):
            text = master if scored(order, round_number, venue) else "H8-QZQZ"
            station.enter_slip(game, table, text, round_number=round_number)

    for round_ in prepared.rounds:
        organiser.draw_rack(game)
        organiser.choose_master(game)
        slips(round_.number, "Lloret", aux_l)                  # Lloret during the game
        if round_.number == 1:
            before = organiser.last_event_id()
            for station in (aux_l, aux_l2, judge_l):          # the other venue's tables: refused, nothing stored
                with pytest.raises(NotAuthorised, match="El Vendrell") as refused:
                    station.enter_slip(game, vendrell[0], round_.master)
                assert refused.value.venue == "Lloret"
                with pytest.raises(NotAuthorised, match="El Vendrell"):
                    station.mark_slip(game, vendrell[1], "late")
            with pytest.raises(NotAuthorised, match="El Vendrell"):
                aux_l.enter_master_slips(game, [lloret[0], vendrell[0]])   # one foreign table refuses the batch
            with pytest.raises(NotAuthorised, match="Lloret"):
                aux_v.enter_slip(game, lloret[1], round_.master)
            with pytest.raises(NotAuthorised, match="toda la partida"):
                judge_v.close_round(game, 1)
            assert organiser.last_event_id() == before
            assert {slip.table_number for slip in organiser.slips(game, 1)} == set(lloret)
    for round_ in prepared.rounds:                             # El Vendrell at the end of the game (III.15)
        slips(round_.number, "El Vendrell", aux_v)

    # Corrections: the other venue's slip stays as it was; the venue's own judge and the organiser may.
    stored = {slip.table_number: (slip.text, slip.score) for slip in organiser.slips(game, 3)}
    for station in (aux_l, judge_l):
        with pytest.raises(NotAuthorised, match="El Vendrell"):
            station.correct_slip(game, vendrell[0], "H8-QZQZ", round_number=3, reason="error de tecleo")
        with pytest.raises(NotAuthorised, match="El Vendrell"):
            station.file_claim(game, 3, vendrell[0], "no me anotaron bien")
    assert {slip.table_number: (slip.text, slip.score) for slip in organiser.slips(game, 3)} == stored
    judge_v.correct_slip(game, vendrell[0], stored[vendrell[0]][0], round_number=3, reason="mismo texto")
    claim = aux_v.file_claim(game, 3, vendrell[1], "revise mi papeleta")
    with pytest.raises(NotAuthorised, match="El Vendrell"):
        judge_l.resolve_claim(claim, upheld=False, resolution="no")
    judge_v.resolve_claim(claim, upheld=False, resolution="la papeleta dice lo anotado")
    entry_v = next(entry.id for _, entry, _ in seats if entry.venue == "El Vendrell")
    with pytest.raises(NotAuthorised, match="El Vendrell"):
        judge_l.set_entry_status(entry_v, "withdrawn")  # type: ignore[arg-type]
    with pytest.raises(NotAuthorised, match="El Vendrell"):
        judge_l.update_player(entry_v, club="Otro")
    organiser.correct_slip(game, vendrell[2], stored[vendrell[2]][0], round_number=3, reason="revisada")
    for round_ in prepared.rounds:
        organiser.close_round(game, round_.number)

    # Standings of the whole field with the venue column, against a plain recomputation.
    record = organiser.export()
    assert record["format_version"] == 14 and record["tournament"]["venues"] == ["Lloret", "El Vendrell"]
    assert verify_record(record, spanish_lexicon) == []
    expected = plain_standings(record)
    lines = organiser.venue_game_standings(game)
    assert len(lines) == 11 and {line.player[0] for line in lines} == {"Lloret", "El Vendrell"}
    assert {line.player: (line.round_total, line.bonus_total) for line in lines} == expected
    assert [line.total for line in lines] == sorted((sum(value) for value in expected.values()), reverse=True)
    assert sum(line.bonuses_per_round[0] for line in lines) == 10          # round 1: one player of the field
    assert all(line.bonuses_per_round[1] == 0 for line in lines)           # round 2: one per room, none overall
    # The same ranking as the tournament's own (every player is one of its entries).
    plain = {line.player: (line.position, line.total) for line in organiser.game_standings(game)}
    assert {line.player[1]: (line.position, line.total) for line in lines} == plain
    overall = organiser.venue_tournament_standings()
    assert {line.player: line.total for line in overall} == {key: sum(value) for key, value in expected.items()}
    for venue, count in (("Lloret", 6), ("El Vendrell", 5)):                 # standings --venue
        own = organiser.venue_game_standings(game, venue)
        assert len(own) == count and {line.player[0] for line in own} == {venue} and own[0].position == 1
        assert {line.player: line.total for line in own} == {key: sum(value) for key, value in expected.items()
                                                             if key[0] == venue}
        assert len(organiser.venue_tournament_standings(venue)) == count
    views = {view.name: (view.players, view.games, view.online) for view in organiser.venues()}
    assert views == {"Lloret": (6, 1, True), "El Vendrell": (5, 1, True)}
    names = {player.key: player.name for player in organiser.venue_field()}
    assert names[("El Vendrell", entry_v)].startswith("Vendrell")
    with pytest.raises(NotFound, match="Girona"):
        organiser.venue_game_standings(game, "Girona")
    # Only the organiser publishes.
    with pytest.raises(NotAuthorised, match="toda la partida"):
        judge_l.publish(game)
    if organiser.tournament().games[0].status != "ended":
        organiser.end_game(game, reason="fin de la partida preparada")
    organiser.publish(game)
    assert organiser.export()["games"][0]["status"] != "playing"


@pytest.fixture
def organiser_room(tmp_path: Path, spanish_lexicon: Lexicon) -> TournamentService:
    """The scenario of ``test_access`` (4 players of the organiser's room, round 1 played, a
    conflict on table 3, a claim, assistant aux1 with tables 1–2) plus an online venue
    «Girona» with its judge."""
    judge = machine(f"sqlite:///{tmp_path / 'acceso.db'}", "mesa", spanish_lexicon, JUDGE_PIN)
    judge.create_tournament("Acceso")
    for name in ("Ana", "Beto", "Carla", "Dora"):
        judge.add_player(name)
    judge.create_game(rounds=3, seed=5)
    judge.set_assistant_range("aux1", 1, 2)
    judge.set_pin("assistant", ASSISTANT_PINS["aux1"], name="aux1")
    judge.draw_rack(1)
    view = judge.choose_master(1)
    assert view.master is not None
    judge.enter_slip(1, 3, view.master)
    judge.enter_slip(1, 3, "H8-QZQZ")                          # a conflict for the judge
    judge.file_claim(1, 1, 4, "no me anotaron")
    judge.add_venue("Girona")
    judge.set_pin("judge", "girona-juez-pin", venue="Girona")
    return judge


VENUE_JUDGE_MAY = {Action.ADD_PLAYER, Action.SET_CREDENTIAL, Action.IMPORT_SLIPS}
"""Of ``test_access.ACTIONS`` as called there, what the venue's judge may do: they act in its
own venue (a new player, a new assistant's PIN — its venue by default) or on no table yet
(importing slips; each row's table is checked as it is entered)."""


def test_a_venue_judge_may_do_nothing_to_the_organisers_room(organiser_room: TournamentService) -> None:
    from tests.duplicate.test_access import ACTIONS

    venue_judge = organiser_room.with_pin("girona-juez-pin")
    for action, (call, _assistant) in ACTIONS.items():
        if action in VENUE_JUDGE_MAY:
            continue
        before = organiser_room.last_event_id()
        with pytest.raises(NotAuthorised) as refused:
            call(venue_judge)
        assert refused.value.venue == "Girona" and "Girona" in str(refused.value), action
        assert organiser_room.last_event_id() == before, action
        assert not venue_judge.may(action, 3), action
    # What it may: within its venue.
    entry = venue_judge.add_player("Nuevo de Girona")
    assert dict((item.id, item.venue) for item, _ in organiser_room.entries())[entry] == "Girona"
    venue_judge.set_pin("assistant", "girona-aux-pin", name="aux Girona")
    venue_judge.set_assistant_range("aux Girona", 1, 4)
    girona_aux = organiser_room.with_pin("girona-aux-pin")
    assert girona_aux.sign_in().venue == "Girona"
    with pytest.raises(NotAuthorised, match="ninguna sede"):
        girona_aux.enter_slip(1, 1, "H8-QZQZ", round_number=1)   # table 1: the organiser's room
    with pytest.raises(NotAuthorised, match="Girona"):
        venue_judge.set_assistant_range("aux1", 1, 3)          # the organiser's assistant
    # A new PIN for a venue's assistant keeps it in its venue (never every table of the event).
    organiser_room.set_pin("assistant", "nuevo-pin-girona", name="aux Girona")
    assert organiser_room.with_pin("nuevo-pin-girona").sign_in().venue == "Girona"
    organiser_room.set_pin("assistant", "movido-pin-1", name="aux Girona", venue="")   # the organiser moves it
    assert organiser_room.with_pin("movido-pin-1").sign_in().venue is None


def test_names_of_venues_are_checked(tmp_path: Path, spanish_lexicon: Lexicon) -> None:
    service = machine(f"sqlite:///{tmp_path / 'n.db'}", "org", spanish_lexicon, JUDGE_PIN)
    service.create_tournament("Nombres", venue="Barcelona")
    service.add_venue("Lloret")
    for taken in ("lloret", "Barcelona"):
        with pytest.raises(Exception, match="ya hay una sede"):
            service.add_venue(taken)
    with pytest.raises(Exception, match="necesita un nombre"):
        service.add_venue("   ")
    for hostile in ("Sede\x00oculta", "S" * 101, "Lloret\u202e"):          # control characters, too long
        with pytest.raises(InvalidText, match="el nombre de la sede"):
            service.add_venue(hostile)
        with pytest.raises(InvalidText, match="el nombre de la sede"):
            service.add_player("Nadie", venue=hostile)
    with pytest.raises(NotFound, match="ninguna sede en línea «Girona».*«Lloret»"):
        service.add_player("Ana", venue="Girona")
    with pytest.raises(NotFound, match="Girona"):
        service.set_pin("judge", "girona-juez-pin", venue="Girona")
    assert service.add_player("Ana", venue="lloret") and service.entries()[0][0].venue == "Lloret"
    with pytest.raises(Exception, match="sede en línea"):
        service.import_venue({}, "Lloret", unsigned=True)
    assert service.online_venues() == ["Lloret"]


def test_the_record_carries_each_players_venue_and_verify_checks_it(tmp_path: Path, spanish_lexicon: Lexicon,
                                                                    prepared: PreparedGame) -> None:
    service = machine(f"sqlite:///{tmp_path / 'r.db'}", "org", spanish_lexicon, JUDGE_PIN)
    service.create_tournament("Registro", settings=BONUSES)
    service.add_venue("Lloret")
    service.add_player("Ana", venue="Lloret")
    service.add_player("Beto")                                     # the organiser's room
    game = service.create_game(prepared=prepared)
    service.draw_rack(game)
    service.choose_master(game)
    service.enter_slip(game, 1, prepared.rounds[0].master)
    record = service.export()
    assert [(player["name"], player["venue"]) for player in record["players"]] == [("Ana", "Lloret"), ("Beto", None)]
    assert verify_record(record, spanish_lexicon) == []
    moved = json.loads(json.dumps(record))
    moved["players"][0]["venue"] = "Reus" if moved["players"][0]["venue"] else "Lloret"
    assert any(difference.field == "venue" for difference in verify_record(moved, spanish_lexicon))
    hidden = json.loads(json.dumps(record))
    hidden["tournament"]["venues"] = []
    assert any(difference.field == "venues" for difference in verify_record(hidden, spanish_lexicon))


def test_a_record_of_format_11_still_verifies(tmp_path: Path, spanish_lexicon: Lexicon,
                                              prepared: PreparedGame) -> None:
    service = machine(f"sqlite:///{tmp_path / 'v11.db'}", "org", spanish_lexicon, JUDGE_PIN)
    service.create_tournament("Antes de las sedes en línea")
    service.add_player("Ana")
    game = service.create_game(prepared=prepared)
    service.draw_rack(game)
    service.choose_master(game)
    service.enter_slip(game, 1, prepared.rounds[0].master)
    older = as_format(service.export(), 11)            # what format 11 wrote: no venue anywhere, no signature
    assert "venues" not in older["tournament"] and "signature" not in older
    assert all("venue" not in player for player in older["players"])
    assert verify_record(older, spanish_lexicon) == []


def test_online_and_imported_venues_in_one_event(tmp_path: Path, spanish_lexicon: Lexicon,
                                                 prepared: PreparedGame) -> None:
    # Lloret plays on the organiser's database (online), El Vendrell in its own room
    # (offline, its record imported): one field, one ranking, bonuses over all (III.24).
    from tests.duplicate.test_venues import play_venue

    short = prepared
    vendrell = play_venue(tmp_path / "vendrell.db", spanish_lexicon, short, "El Vendrell", 3, slips_at_end=True)
    organiser = machine(f"sqlite:///{tmp_path / 'org.db'}", "organizador", spanish_lexicon, JUDGE_PIN)
    organiser.create_tournament("Mixto", venue="Barcelona", settings=BONUSES)
    organiser.add_venue("Lloret")
    organiser.add_player("Bruna", venue=None)                      # the organiser's own room
    for index in range(2):
        organiser.add_player(f"Lloret {index + 1}", venue="Lloret")
    game = organiser.create_game(prepared=short)
    for round_ in short.rounds:
        organiser.draw_rack(game)
        organiser.choose_master(game)
        for table in (1, 2, 3):
            organiser.enter_slip(game, table, round_.master if table == 2 else "H8-QZQZ")
        organiser.close_round(game, round_.number)
    with pytest.raises(Exception, match="sede en línea"):
        organiser.import_venue(vendrell, "Lloret", unsigned=True)
    organiser.import_venue(vendrell, "El Vendrell", unsigned=True)
    assert [(view.name, view.online) for view in organiser.venues()] == [("Lloret", True), ("El Vendrell", False)]
    lines = organiser.venue_game_standings(game)
    assert {line.player[0] for line in lines} == {"Barcelona", "Lloret", "El Vendrell"} and len(lines) == 6
    field = {player.key: player.name for player in organiser.venue_field()}
    assert field[lines[0].player] == "Lloret 1" and lines[0].round_total == short.total
    scores = {line.player: line.round_total for line in lines}
    for player in vendrell["players"]:
        key = ("El Vendrell", player["id"])
        assert scores[key] == sum(slip["score"] for round_ in vendrell["games"][0]["rounds"]
                                  for slip in round_["slips"] if slip["player"] == player["id"])
    assert [line.player[0] for line in organiser.venue_game_standings(game, "Lloret")] == ["Lloret", "Lloret"]
    assert len(organiser.venue_tournament_standings("Barcelona")) == 1


def test_players_imported_with_their_venue(tmp_path: Path, spanish_lexicon: Lexicon) -> None:
    service = machine(f"sqlite:///{tmp_path / 'i.db'}", "org", spanish_lexicon, JUDGE_PIN)
    service.create_tournament("Importados")
    service.add_venue("Lloret")
    service.add_venue("Reus")
    service.set_pin("judge", "lloret-juez-pin", venue="Lloret")
    players = tmp_path / "jugadores.csv"
    players.write_text("nombre;club;sede\nAna;A;Lloret\nBeto;B;\nCarla;C;reus\n", encoding="utf-8")
    service.import_players(players)
    assert [(person.name, entry.venue) for entry, person in service.entries()] == [
        ("Ana", "Lloret"), ("Beto", None), ("Carla", "Reus")]
    others = tmp_path / "otros.csv"
    others.write_text("nombre;sede\nDora;Lloret\nEloy;Reus\n", encoding="utf-8")
    with pytest.raises(NotAuthorised, match="línea 3.*Reus.*no se ha inscrito a nadie"):
        service.with_pin("lloret-juez-pin").import_players(others)
    assert len(service.entries()) == 3
    unknown = tmp_path / "desconocida.csv"
    unknown.write_text("nombre;sede\nFidel;Girona\n", encoding="utf-8")
    with pytest.raises(Exception, match="línea 2.*Girona"):
        service.import_players(unknown)
