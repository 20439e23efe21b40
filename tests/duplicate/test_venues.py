"""One event played in several offline venues at once (issue 27 §2): each room plays the
same prepared game (III.15, last paragraph: «duplicada maestra») on its own database,
exports its record, and the organiser imports them; standings rank the whole field, with
bonuses (III.24) over the whole field.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from duplicate.prepared.file import PreparedGame
from duplicate.prepared.generation import generate
from duplicate.record.event_kinds import EventKind
from duplicate.record.verify import verify_record
from duplicate.service.errors import InvalidInput, NotAuthorised, NotFound
from duplicate.service.facade import TournamentService
from duplicate.service.settings import TournamentSettings
from duplicate.storage.database import open_database
from lexicon.lexicon import Lexicon
from tests.credentials import JUDGE_PIN

ROUNDS = 5
BONUSES = TournamentSettings(bonus_mode="automatic")


@pytest.fixture(scope="module")
def prepared(spanish_lexicon: Lexicon) -> PreparedGame:
    return generate(spanish_lexicon, 27, ROUNDS)


def scored(player: int, round_number: int, venue: str) -> bool:
    """Whether ``player`` (1-based table order) of ``venue`` finds the master in the round:
    round 1 only the first player of Lloret (a bonus of the whole field); round 2 the first
    player of each venue (a bonus in each room, none over the whole field); then a pattern."""
    if round_number == 1:
        return venue == "Lloret" and player == 1
    if round_number == 2:
        return player == 1
    return (player + round_number) % 3 != 0


def play_venue(path: Path, lexicon: Lexicon, prepared: PreparedGame, venue: str, players: int, *,
               slips_at_end: bool) -> dict[str, Any]:
    """Play ``prepared`` in a room of ``players`` players on its own database; its record."""
    service = TournamentService(open_database(str(path)), station="sala", lexicon=lexicon, pin=JUDGE_PIN)
    service.create_tournament("Simultáneo", venue=venue, settings=BONUSES)
    for index in range(players):
        service.add_player(f"{venue} {index + 1}", club=venue)
    game = service.create_game(prepared=prepared)
    tables = sorted(table for table, _entry, _player in service.seats(game))

    def slips(round_number: int) -> None:
        master = prepared.rounds[round_number - 1].master
        for order, table in enumerate(tables, start=1):
            text = master if scored(order, round_number, venue) else "H8-QZQZ"
            service.enter_slip(game, table, text, round_number=round_number)
        service.close_round(game, round_number)

    for round_ in prepared.rounds:
        service.draw_rack(game)
        service.choose_master(game)
        if not slips_at_end:
            slips(round_.number)
    if slips_at_end:                       # III.15: with a prepared game, slips at the end of the game
        for round_ in prepared.rounds:
            slips(round_.number)
    return service.export()


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory, spanish_lexicon: Lexicon,
            prepared: PreparedGame) -> dict[str, dict[str, Any]]:
    folder = tmp_path_factory.mktemp("sedes")
    return {"Lloret": play_venue(folder / "lloret.db", spanish_lexicon, prepared, "Lloret", 6, slips_at_end=False),
            "El Vendrell": play_venue(folder / "vendrell.db", spanish_lexicon, prepared, "El Vendrell", 5,
                                      slips_at_end=True)}


@pytest.fixture
def organiser(tmp_path: Path, spanish_lexicon: Lexicon, prepared: PreparedGame) -> TournamentService:
    service = TournamentService(open_database(str(tmp_path / "org.db")), station="organizador",
                                lexicon=spanish_lexicon, pin=JUDGE_PIN)
    service.create_tournament("Mundial duplicado", venue="Barcelona", settings=BONUSES)
    service.create_game(prepared=prepared)
    return service


def plain_standings(records: dict[str, dict[str, Any]]) -> dict[tuple[str, int], tuple[int, int]]:
    """Recomputed plainly from the records: per (venue, player) the sum of its slip scores
    and the bonuses of the whole field (III.24, automatic: 10 to the only player of all
    venues at the round's top)."""
    points: dict[tuple[str, int], int] = {}
    per_round: dict[int, dict[tuple[str, int], int]] = {}
    tops: dict[int, int] = {}
    for venue, record in records.items():
        for player in record["players"]:
            points[(venue, player["id"])] = 0
        for round_ in record["games"][0]["rounds"]:
            tops[round_["number"]] = round_["top_score"]
            for slip in round_["slips"]:
                points[(venue, slip["player"])] += slip["score"]
                per_round.setdefault(round_["number"], {})[(venue, slip["player"])] = slip["score"]
    bonuses = dict.fromkeys(points, 0)
    for number, scores in per_round.items():
        at_top = [key for key, score in scores.items() if score == tops[number]]
        if len(at_top) == 1:
            bonuses[at_top[0]] += 10
    return {key: (points[key], bonuses[key]) for key in points}


def test_two_offline_venues_are_ranked_together(organiser: TournamentService,
                                                records: dict[str, dict[str, Any]]) -> None:
    for venue, record in records.items():
        organiser.import_venue(record, venue, unsigned=True)
    assert [(view.name, view.players, view.games) for view in organiser.venues()] == [("Lloret", 6, 1),
                                                                                       ("El Vendrell", 5, 1)]
    expected = plain_standings(records)
    lines = organiser.venue_game_standings(1)
    assert len(lines) == 11
    assert {line.player: (line.round_total, line.bonus_total) for line in lines} == expected
    totals = [line.total for line in lines]
    assert totals == sorted(totals, reverse=True)
    assert [line.total for line in lines] == sorted((sum(value) for value in expected.values()), reverse=True)
    # The bonus of round 2 went to one player per room in each room's record, to nobody over the field.
    lloret_local = records["Lloret"]["games"][0]["rounds"][1]["bonuses"]
    assert lloret_local and all(line.bonuses_per_round[1] == 0 for line in lines)
    # Round 1: one player of the whole field at the top.
    assert sum(line.bonuses_per_round[0] for line in lines) == 10
    overall = organiser.venue_tournament_standings()
    assert {line.player: line.total for line in overall} == {key: sum(value) for key, value in expected.items()}
    # Per venue: that venue's players only, ranked among themselves, the field's bonuses kept.
    vendrell = organiser.venue_game_standings(1, "El Vendrell")
    assert {line.player[0] for line in vendrell} == {"El Vendrell"} and len(vendrell) == 5
    assert vendrell[0].position == 1
    assert {line.player: line.total for line in vendrell} == {key: sum(value) for key, value in expected.items()
                                                             if key[0] == "El Vendrell"}
    assert len(organiser.venue_tournament_standings("Lloret")) == 6
    names = {player.key: player.name for player in organiser.venue_field()}
    assert names[("El Vendrell", 1)].startswith("El Vendrell")
    with pytest.raises(NotFound, match="Girona"):
        organiser.venue_game_standings(1, "Girona")


def test_a_venue_record_with_one_changed_rack_is_refused_and_changes_nothing(
        organiser: TournamentService, records: dict[str, dict[str, Any]], prepared: PreparedGame) -> None:
    organiser.import_venue(records["Lloret"], "Lloret", unsigned=True)
    before = organiser.export()
    changed = copy.deepcopy(records["El Vendrell"])
    round_ = changed["games"][0]["rounds"][2]
    round_["rack"] = round_["rack"][::-1] if round_["rack"][::-1] != round_["rack"] else "AEIOU"
    with pytest.raises(InvalidInput, match="no se importa la sede"):
        organiser.import_venue(changed, "El Vendrell", unsigned=True)
    after = organiser.export()
    assert after["events"] == before["events"] and [view.name for view in organiser.venues()] == ["Lloret"]
    assert {line.player[0] for line in organiser.venue_game_standings(1)} == {"Lloret"}


def test_a_record_that_verifies_but_plays_another_game_is_refused(
        tmp_path: Path, spanish_lexicon: Lexicon, organiser: TournamentService) -> None:
    other = generate(spanish_lexicon, 28, 3)
    record = play_venue(tmp_path / "otra.db", spanish_lexicon, other, "Girona", 2, slips_at_end=True)
    with pytest.raises(InvalidInput, match="no juega la partida preparada"):
        organiser.import_venue(record, "Girona", unsigned=True)
    assert organiser.venues() == []


def test_importing_a_venue_again_replaces_it_as_an_event(organiser: TournamentService,
                                                         records: dict[str, dict[str, Any]]) -> None:
    first = organiser.import_venue(records["Lloret"], "Lloret", unsigned=True)
    second = organiser.import_venue(records["Lloret"], "Lloret", unsigned=True)
    assert second.replaces == first.event_id and [view.event_id for view in organiser.venues()] == [second.event_id]
    imported = [event for event in organiser.history() if event.kind == EventKind.VENUE_IMPORTED.value]
    assert len(imported) == 2                      # the log keeps both imports
    assert len(organiser.venue_game_standings(1)) == 6
    record = organiser.export()                    # the organiser's record still verifies
    assert record["format_version"] == 14          # issue 34: format 13; issue 35 §2: signed records, format 14
    assert verify_record(record, organiser.lexicon_for(organiser.tournament())) == []


def test_only_the_judge_imports_and_not_under_the_own_venue(organiser: TournamentService,
                                                            records: dict[str, dict[str, Any]]) -> None:
    with pytest.raises(NotAuthorised):
        organiser.with_pin(None).import_venue(records["Lloret"], "Lloret", unsigned=True)
    with pytest.raises(InvalidInput, match="sede del propio torneo"):
        organiser.import_venue(records["Lloret"], "barcelona", unsigned=True)
    assert organiser.venues() == []


def test_the_organisers_own_room_is_a_venue(tmp_path: Path, spanish_lexicon: Lexicon, prepared: PreparedGame,
                                            records: dict[str, dict[str, Any]]) -> None:
    service = TournamentService(open_database(str(tmp_path / "org2.db")), station="organizador",
                                lexicon=spanish_lexicon, pin=JUDGE_PIN)
    service.create_tournament("Mundial duplicado", venue="Barcelona", settings=BONUSES)
    service.add_player("Ana Pérez")
    game = service.create_game(prepared=prepared)
    for round_ in prepared.rounds:
        service.draw_rack(game)
        service.choose_master(game)
        service.enter_slip(game, 1, round_.master, round_number=round_.number)
        service.close_round(game, round_.number)
    service.import_venue(records["El Vendrell"], "El Vendrell", unsigned=True)
    lines = service.venue_game_standings(game)
    assert lines[0].player[0] == "Barcelona" and lines[0].round_total == prepared.total
    assert {line.player[0] for line in lines} == {"Barcelona", "El Vendrell"}
    assert [line.player for line in service.venue_tournament_standings("Barcelona")] == [lines[0].player]


def test_venue_commands_import_and_rank_the_whole_field(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                        prepared: PreparedGame,
                                                        records: dict[str, dict[str, Any]]) -> None:
    import json

    from tests.command_line import judge_command_line

    run = judge_command_line(monkeypatch, tmp_path / "organizador.db", "organizador")

    game_file = tmp_path / "maestra.json"
    game_file.write_text(prepared.to_json(), encoding="utf-8")
    files = {}
    for venue, record in records.items():
        files[venue] = tmp_path / f"{venue}.json"
        files[venue].write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    run("tournament", "create", "Mundial duplicado", "--venue", "Barcelona", "--bonus", "automatic")
    run("game", "start", "--prepared", str(game_file))
    changed = copy.deepcopy(records["El Vendrell"])
    changed["games"][0]["rounds"][0]["rack"] = "AEIOUUU"
    bad = tmp_path / "cambiado.json"
    bad.write_text(json.dumps(changed, ensure_ascii=False), encoding="utf-8")
    refused = run("venue", "import", str(bad), "--venue", "El Vendrell", code=1).output
    assert "no se importa la sede" in refused
    assert "Lloret" not in run("venue", "list").output
    for venue, path in files.items():
        assert f"Sede «{venue}» importada" in run("venue", "import", str(path), "--venue", venue, "--unsigned").output
    assert "sustituye" in run("venue", "import", str(files["Lloret"]), "--venue", "Lloret", "--unsigned").output
    rows = json.loads(run("standings", "--format", "json").output)
    expected = plain_standings(records)
    assert len(rows) == 11 and {row["sede"] for row in rows} == {"Lloret", "El Vendrell"}
    assert sorted((row["total"] for row in rows), reverse=True) == [row["total"] for row in rows]
    assert sorted(row["total"] for row in rows) == sorted(sum(value) for value in expected.values())
    assert run("standings", "--format", "csv").output.splitlines()[0].startswith("puesto,sede,jugador")
    overall = json.loads(run("standings", "--overall", "--venue", "El Vendrell", "--format", "json").output)
    assert len(overall) == 5 and overall[0]["puesto"] == 1 and {row["sede"] for row in overall} == {"El Vendrell"}
    assert "Girona" in run("standings", "--venue", "Girona", code=1).output
    table = run("standings", "--venue", "El Vendrell").output
    assert "sede" in table and "El Vendrell 1" in table and "Lloret" not in table
    listed = run("venue", "list", "--format", "json").output
    assert [row["sede"] for row in json.loads(listed)] == ["Lloret", "El Vendrell"]


def test_per_venue_bonuses_as_a_setting(tmp_path: Path, spanish_lexicon: Lexicon, prepared: PreparedGame,
                                        records: dict[str, dict[str, Any]]) -> None:
    # III.24 with venue_bonuses: round 2's top was reached by one player in each room, so
    # each room's bonus goes to its player (none over the whole field, the default).
    service = TournamentService(open_database(str(tmp_path / "org3.db")), station="organizador",
                                lexicon=spanish_lexicon, pin=JUDGE_PIN)
    service.create_tournament("Mundial duplicado", venue="Barcelona",
                              settings=TournamentSettings(bonus_mode="automatic", venue_bonuses=True))
    service.create_game(prepared=prepared)
    for venue, record in records.items():
        service.import_venue(record, venue, unsigned=True)
    lines = service.venue_game_standings(1)
    assert sorted(line.bonuses_per_round[1] for line in lines if line.bonuses_per_round[1]) == [10, 10]
    local = {(venue, int(player)): points for venue, record in records.items()
             for player, points in record["games"][0]["rounds"][1]["bonuses"].items()}
    assert {line.player: line.bonuses_per_round[1] for line in lines if line.bonuses_per_round[1]} == local


def test_an_organiser_without_a_room_counts_the_whole_field(organiser: TournamentService, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch,
                                                            records: dict[str, dict[str, Any]]) -> None:
    # The organiser has no player of its own: the III.24 advice («10 jugadores o menos») and
    # the publication count every venue's players, not the 0 of its own room.
    from click.testing import CliRunner

    from tui.cli.main import main

    def few_players() -> list[str]:
        return [text for text in organiser.bonus_warnings() if "10 jugadores o menos" in text]

    organiser.import_venue(records["Lloret"], "Lloret", unsigned=True)
    assert len(few_players()) == 1 and "(hay 6;" in few_players()[0]
    organiser.import_venue(records["El Vendrell"], "El Vendrell", unsigned=True)
    assert few_players() == []                                      # 6 + 5 = 11 players
    field = sum(len(record["players"]) for record in records.values())
    monkeypatch.setenv("DUPLICADA_DB", str(tmp_path / "org.db"))
    monkeypatch.setenv("DUPLICADA_STATION", "organizador")
    monkeypatch.setenv("DUPLICADA_PIN", JUDGE_PIN)
    runner = CliRunner()
    assert runner.invoke(main, ["game", "end", "--reason", "jugada en las sedes"]).exit_code == 0
    published = runner.invoke(main, ["game", "publish"])
    assert published.exit_code == 0, published.output
    assert f"({field} jugadores)" in published.output
    shown = runner.invoke(main, ["tournament", "show"])
    assert shown.exit_code == 0 and "10 jugadores o menos" not in shown.output
    assert f"Jugadores: 0 (0 activos; {field} activos en todas las sedes)" in shown.output
    info = organiser.tournament()
    assert (info.active_players, info.field_active_players) == (0, field)


def test_a_venue_record_file_is_read_once_the_judge_may_import(organiser: TournamentService, tmp_path: Path,
                                                               records: dict[str, dict[str, Any]]) -> None:
    # import_venue_file (the CLI's and the app's): the name and the credential first, then
    # the file (load_record's Spanish errors as InvalidFile), then import_venue.
    import json

    missing = tmp_path / "[b]falta[/b].json"
    with pytest.raises(NotAuthorised):
        organiser.with_pin(None).import_venue_file(missing, "Lloret")        # before the file is looked at
    with pytest.raises(InvalidInput, match="falta el nombre de la sede"):
        organiser.import_venue_file(missing, "  ")
    with pytest.raises(InvalidInput, match=r"falta\[/b\]\.json: no existe") as refused:
        organiser.import_venue_file(missing, "Lloret")
    assert refused.value.what == "el registro de la sede"
    path = tmp_path / "lloret.json"
    path.write_text(json.dumps(records["Lloret"], ensure_ascii=False), encoding="utf-8")
    view = organiser.import_venue_file(path, "Lloret", unsigned=True)
    assert (view.name, view.players, view.games, view.replaces) == ("Lloret", len(records["Lloret"]["players"]), 1,
                                                                     None)
    assert [item.event_id for item in organiser.venues()] == [view.event_id]
