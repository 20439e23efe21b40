"""Every published total agrees with ``duplicada standings --overall`` (issue 35 §1).

One event in three rooms playing one prepared game of 4 rounds with automatic bonuses
(III.24): the organiser's room (Barcelona, two players), an online venue on the same
database (Girona, one player) and an offline venue whose record is imported (Lloret, two
players). In rounds 1 and 3 a Barcelona player is alone at the top of the organiser's
database but tied with a Lloret player over the whole field: the room-only bonus (+10)
is not the field's (none). ``standings --overall`` gives the whole field's bonuses; every
page and file of ``publish`` (index, game page, partials, replay page's «+10» marks, player
pages, venue pages, every CSV, the XLSX, the PDFs), the Eliot export's ``Solo`` and
``PlayerMove`` points and the game standings in JSON must give the same figures.

The expected figures are read from the command line's JSON (``standings --overall`` and
``standings --rounds``), never from the code that writes the pages.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest
from click.testing import CliRunner

from duplicate.prepared.file import PreparedGame
from duplicate.prepared.generation import generate
from duplicate.service.facade import TournamentService
from duplicate.service.settings import TournamentSettings
from duplicate.storage.database import open_database
from lexicon.lexicon import Lexicon
from tests.credentials import JUDGE_PIN
from tests.duplicate.test_publish import entry_rows, read_csv, tables_of
from tui.cli.main import main

ROUNDS = 4
BONUSES = TournamentSettings(bonus_mode="automatic", partial_every=3)
FINDERS = {1: {"Barcelona 1", "Lloret 1"}, 2: {"Girona 1"}, 3: {"Barcelona 2", "Lloret 2"}, 4: {"Lloret 1"}}
"""Who plays the master in each round; everybody else hands in a word not in the lexicon (0)."""
ORGANISER_ROOM = ("Barcelona 1", "Barcelona 2", "Girona 1", "Girona 2")     # Girona 2 never scores


@dataclass(frozen=True)
class Event:
    table: str                               # ``standings --overall`` as a table
    web: Path
    eliot: Path
    overall: dict[str, dict[str, Any]]       # ``standings --overall --format json`` by player name
    per_round: dict[str, list[tuple[int, int]]]   # ``standings --rounds``: (points, bonus) per round
    game: dict[str, dict[str, Any]]          # ``standings --format json`` (game 1) by player name
    entries: dict[int, str]                  # the organiser's entry ids → names
    organiser: TournamentService             # what the app's standings and projection screens read


def play_room(service: TournamentService, prepared: PreparedGame, game: int) -> None:
    names = {table: person.name for table, _entry, person in service.seats(game)}
    for round_ in prepared.rounds:
        service.draw_rack(game)
        service.choose_master(game)
        for table, name in sorted(names.items()):
            service.enter_slip(game, table, round_.master if name in FINDERS[round_.number] else "H8-QZQZ",
                               round_number=round_.number)
        service.close_round(game, round_.number)


@pytest.fixture(scope="module")
def event(tmp_path_factory: pytest.TempPathFactory, spanish_lexicon: Lexicon) -> Event:
    folder = tmp_path_factory.mktemp("tres-salas")
    prepared = generate(spanish_lexicon, 17, ROUNDS)
    lloret = TournamentService(open_database(str(folder / "lloret.db")), station="lloret", lexicon=spanish_lexicon,
                               pin=JUDGE_PIN)
    lloret.create_tournament("Simultáneo", venue="Lloret", settings=BONUSES)
    for name in ("Lloret 1", "Lloret 2"):
        lloret.add_player(name, club="Lloret")
    play_room(lloret, prepared, lloret.create_game(prepared=prepared))
    database = folder / "organizador.db"
    organiser = TournamentService(open_database(str(database)), station="organizador", lexicon=spanish_lexicon,
                                  pin=JUDGE_PIN)
    organiser.create_tournament("Simultáneo", venue="Barcelona", settings=BONUSES)
    organiser.add_venue("Girona")
    organiser.add_player("Barcelona 1", club="Barcelona")
    organiser.add_player("Barcelona 2", club="Barcelona")
    organiser.add_player("Girona 1", club="Girona", venue="Girona")
    organiser.add_player("Girona 2", club="Girona", venue="Girona")
    game = organiser.create_game(prepared=prepared)
    play_room(organiser, prepared, game)
    organiser.import_venue(lloret.export(), "Lloret", unsigned=True)

    runner = CliRunner()
    environment = {"DUPLICADA_DB": str(database), "DUPLICADA_STATION": "organizador", "DUPLICADA_PIN": JUDGE_PIN}

    def run(*args: str) -> str:
        result = runner.invoke(main, list(args), env=environment)
        assert result.exit_code == 0, result.output
        return result.output

    overall = {row["jugador"]: row for row in json.loads(run("standings", "--overall", "--format", "json"))}
    table = run("standings", "--overall")
    rounds = {row["jugador"]: row for row in json.loads(run("standings", "--rounds", "--format", "json"))}
    per_round = {name: [_points_and_bonus(row[f"r{number}"]) for number in range(1, ROUNDS + 1)]
                 for name, row in rounds.items()}
    run("publish", "--out", str(folder / "web"), "--workers", "1")
    run("export", "--format", "eliot", "--game", "1", str(folder / "partida-1.xml"))
    entries = {entry.id: person.name for entry, person in organiser.entries()}
    return Event(table, folder / "web", folder / "partida-1.xml", overall, per_round, rounds, entries, organiser)


def _points_and_bonus(value: int | str) -> tuple[int, int]:
    """``standings --rounds``'s cell: ``41`` or ``"41+10"``."""
    points, _plus, bonus = str(value).partition("+")
    return int(points), int(bonus or 0)


def test_the_event_is_the_one_meant(event: Event) -> None:
    """The reference itself: the whole field's bonuses, not a room's (Barcelona 1 and 2 tied
    with a Lloret player at the top of rounds 1 and 3)."""
    assert set(event.overall) == {*ORGANISER_ROOM, "Lloret 1", "Lloret 2"}
    assert {name: row["sede"] for name, row in event.overall.items()} == {
        "Barcelona 1": "Barcelona", "Barcelona 2": "Barcelona", "Girona 1": "Girona", "Girona 2": "Girona",
        "Lloret 1": "Lloret", "Lloret 2": "Lloret"}
    assert [bonus for _points, bonus in event.per_round["Barcelona 1"]] == [0, 0, 0, 0]
    assert [bonus for _points, bonus in event.per_round["Girona 1"]] == [0, 10, 0, 0]
    assert [bonus for _points, bonus in event.per_round["Lloret 1"]] == [0, 0, 0, 10]
    for name, row in event.overall.items():
        assert row["total"] == sum(points + bonus for points, bonus in event.per_round[name])
        assert row["bonificaciones"] == sum(bonus for _points, bonus in event.per_round[name])
        assert event.game[name]["total"] == row["total"]            # one game: its total is the tournament's


def test_the_index_and_the_game_page(event: Event) -> None:
    index = entry_rows(event.web / "index.html", "general")
    game = entry_rows(event.web / "partida-1.html", "partida")
    assert {event.entries[entry] for entry in index} == {event.entries[entry] for entry in game} == set(ORGANISER_ROOM)
    for entry, cells in index.items():
        row = event.overall[event.entries[entry]]
        shown = {classes.split()[-1]: text for classes, text in cells if classes}
        assert (int(shown["total"]), int(shown["bonif"] or 0), int(shown["pos"])) == (
            row["total"], row["bonificaciones"], row["puesto"]), event.entries[entry]
    for entry, cells in game.items():
        name = event.entries[entry]
        shown = {classes.split()[-1]: text for classes, text in cells if classes}
        assert (int(shown["total"]), int(shown["bonif"] or 0)) == (event.overall[name]["total"],
                                                                    event.overall[name]["bonificaciones"]), name
        marks = [text for classes, text in cells if classes.split()[:1] == ["r"]]
        assert [_points_and_bonus(text.rstrip("p")) for text in marks] == event.per_round[name], name


def test_the_partial_standings(event: Event) -> None:
    partial = entry_rows(event.web / "partida-1-parciales.html", "parcial")
    assert {event.entries[entry] for entry in partial} == set(ORGANISER_ROOM)
    for entry, cells in partial.items():
        name = event.entries[entry]
        shown = {classes.split()[-1]: text for classes, text in cells if classes}
        assert int(shown["total"]) == sum(points + bonus for points, bonus in event.per_round[name][:3]), name


def test_the_replay_page_marks_the_bonuses_of_the_whole_field(event: Event) -> None:
    page = event.web / "partida-1-repeticion.html"
    moves = [rows for attrs, rows in tables_of(page).tables if "jugadas" in (attrs.get("class") or "").split()]
    assert len(moves) == ROUNDS
    for number, rows in enumerate(moves):
        shown = {int(attrs["data-entry"] or 0): cells[4][1] for attrs, cells in rows if "data-entry" in attrs}
        assert {event.entries[entry]: _points_and_bonus(text) for entry, text in shown.items()} == {
            name: event.per_round[name][number] for name in ORGANISER_ROOM}, f"ronda {number + 1}"


def test_the_player_pages(event: Event) -> None:
    for entry, name in event.entries.items():
        text = (event.web / "jugadores" / f"jugador-{entry}.html").read_text(encoding="utf-8")
        total = event.overall[name]["total"]
        assert f"{total} puntos en 1 partida(s)" in text, name
        assert re.search(rf"Puesto <strong>\d+</strong>, {total} puntos", text), name
        sheet = next(rows for attrs, rows in tables_of(event.web / "jugadores" / f"jugador-{entry}.html").tables
                     if attrs.get("data-game") == "1")[2:]
        assert [_points_and_bonus(cells[3][1]) for _attrs, cells in sheet] == event.per_round[name], name
        assert int(sheet[-1][1][4][1]) == total, name


def test_the_venue_pages(event: Event) -> None:
    for page in ("sedes.html", "sede-barcelona.html", "sede-girona.html", "sede-lloret.html"):
        for attrs, rows in tables_of(event.web / page).tables:
            classes = (attrs.get("class") or "").split()
            column = 7 if "sedes-general" in classes else 5 if "sedes-partida" in classes else None
            if column is None:
                continue
            lines = [cells for row_attrs, cells in rows if "data-player" in row_attrs]
            assert lines, page
            for cells in lines:
                assert int(cells[column][1]) == event.overall[cells[1][1]]["total"], (page, cells[1][1])


def test_every_csv(event: Event) -> None:
    data = event.web / "datos"
    overall = {row["jugador"]: row for row in read_csv(data / "clasificacion-general.csv")}
    game = {row["jugador"]: row for row in read_csv(data / "partida-1.csv")}
    assert set(overall) == set(game) == set(ORGANISER_ROOM)
    for name in ORGANISER_ROOM:
        expected = event.overall[name]
        assert (int(overall[name]["total"]), int(overall[name]["bonificaciones"])) == (
            expected["total"], expected["bonificaciones"]), name
        assert (int(game[name]["total"]), int(game[name]["bonificaciones"])) == (
            expected["total"], expected["bonificaciones"]), name
        assert [(int(game[name][f"ronda_{n}"]), int(game[name][f"bonificacion_ronda_{n}"] or 0))
                for n in range(1, ROUNDS + 1)] == event.per_round[name], name
    moves = read_csv(data / "partida-1-jugadas.csv")
    for name in ORGANISER_ROOM:
        lines = [row for row in moves if row["jugador"] == name]
        assert [(int(row["puntos"]), int(row["bonificacion"] or 0)) for row in lines] == event.per_round[name], name
        assert int(lines[-1]["acumulado"]) == event.overall[name]["total"], name


def test_the_workbook(event: Event) -> None:
    openpyxl = pytest.importorskip("openpyxl")
    workbook = openpyxl.load_workbook(event.web / "datos" / "resultados.xlsx", read_only=True)
    try:
        for sheet in ("General", "Partida 1"):
            heading, *body = list(workbook[sheet].iter_rows(values_only=True))
            records = [dict(zip(heading, values, strict=True)) for values in body]
            assert {record["jugador"] for record in records} == set(ORGANISER_ROOM)
            for record in records:
                expected = event.overall[str(record["jugador"])]
                assert (record["total"], record["bonificaciones"] or 0) == (
                    expected["total"], expected["bonificaciones"]), (sheet, record["jugador"])
    finally:
        workbook.close()


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="pdftotext no está instalado (poppler-utils)")
def test_the_pdfs(event: Event) -> None:
    for name in ("partida-1.pdf", "clasificacion-general.pdf"):
        text = subprocess.run(["pdftotext", "-layout", "-enc", "UTF-8", str(event.web / "pdf" / name), "-"],
                              check=True, capture_output=True, text=True, timeout=120).stdout
        for player in ORGANISER_ROOM:
            line = next(line for line in text.splitlines() if re.search(rf"\b{player}\b", line))
            assert re.search(rf"\b{event.overall[player]['total']}\b", line), (name, line)
            assert not re.search(rf"\b{event.overall[player]['total'] + 10}\b", line), (name, line)


def test_the_eliot_export(event: Event) -> None:
    root = ElementTree.parse(event.eliot).getroot()
    ids = {element.get("id"): element.findtext("Name") for element in root.iter("Player")}
    assert set(ids.values()) == set(ORGANISER_ROOM)
    turns = list(root.iter("Turn"))
    assert len(turns) == ROUNDS
    for number, turn in enumerate(turns):
        points = {ids[move.get("playerId")]: int(move.get("points") or 0) for move in turn.iter("PlayerMove")}
        solos = {ids[solo.get("playerId")]: int(solo.get("points") or 0) for solo in turn.iter("Solo")}
        assert {name: (points.get(name, 0), solos.get(name, 0)) for name in ORGANISER_ROOM} == {
            name: event.per_round[name][number] for name in ORGANISER_ROOM}, f"turno {number + 1}"


def test_the_json_game_standings(event: Event) -> None:
    for name, row in event.game.items():
        assert (row["total"], row["bonificaciones"]) == (event.overall[name]["total"],
                                                         event.overall[name]["bonificaciones"]), name


def _headed(path: Path, marker: str) -> list[dict[str, str]]:
    """The rows with ``marker`` (``data-entry`` or ``data-player``) of every table of
    ``path``, each as heading → text; a table's headings must be distinct."""
    found = []
    for _attrs, rows in tables_of(path).tables:
        lines = [cells for row_attrs, cells in rows if marker in row_attrs]
        if not lines:
            continue
        heads = [text for _classes, text in next(cells for row_attrs, cells in rows if not row_attrs)]
        assert len(set(heads)) == len(heads), (path.name, heads)
        found += [dict(zip(heads, (text for _classes, text in cells), strict=True)) for cells in lines]
    return found


def test_one_heading_one_meaning(event: Event) -> None:
    """«Puntos»: the moves' points, bonuses apart; «Bonif.»: the bonuses; «Total»: both —
    in every standings table of the pages (issue 35 §1: «Puntos» meant the total in the
    index and the points without bonuses in the next table)."""
    checked = 0
    for page, marker in (("index.html", "data-entry"), ("partida-1.html", "data-entry"),
                         ("sedes.html", "data-player"), ("sede-girona.html", "data-player")):
        for row in _headed(event.web / page, marker):
            name = row["Jugador"]
            expected = event.overall[name]
            if "Total" in row:
                assert int(row["Total"]) == expected["total"], (page, name, row)
            if "Bonif." in row:
                assert int(row["Bonif."] or 0) == expected["bonificaciones"], (page, name, row)
            if "Puntos" in row:
                assert int(row["Puntos"]) == expected["total"] - expected["bonificaciones"], (page, name, row)
            checked += 1
    assert checked >= 2 * len(ORGANISER_ROOM) + 2 * len(event.overall)
    bonuses = next(rows for attrs, rows in tables_of(event.web / "partida-1.html").tables
                   if "bonificaciones" in (attrs.get("class") or "").split())
    assert [text for _classes, text in bonuses[0][1]] == ["Ronda", "Jugador", "Bonif."]


def test_one_number_format_for_a_percentage(event: Event) -> None:
    """The percentage of the master reads the same at the command line as on the pages
    (two decimals: «0,00», never «0» or «43,6» beside «43,60»)."""
    index = {event.entries[entry]: {classes.split()[-1]: text for classes, text in cells if classes}
             for entry, cells in entry_rows(event.web / "index.html", "general").items()}
    lines = {name: line for line in event.table.splitlines() for name in event.overall if f" {name} " in line}
    for name in ORGANISER_ROOM:
        shown = index[name]["pct"].removesuffix(" %")
        assert re.fullmatch(r"\d+,\d\d", shown), shown
        assert f" {shown} " in lines[name] + " ", (name, lines[name])
    assert index["Girona 2"]["pct"] == "0,00 %"


def test_the_services_standings_read_by_the_app(event: Event) -> None:
    """The app's standings (F2, F3) and projection screens read ``game_standings``,
    ``round_results``, ``tournament_standings`` and ``partial_standings``: the same figures."""
    service, names = event.organiser, event.entries
    assert {names[line.player]: line.total for line in service.tournament_standings()} == {
        name: event.overall[name]["total"] for name in ORGANISER_ROOM}
    assert {names[line.player]: (line.total, line.bonus_total, line.position) for line in service.game_standings(1)} == {
        name: (event.overall[name]["total"], event.overall[name]["bonificaciones"], event.overall[name]["puesto"])
        for name in ORGANISER_ROOM}
    results = service.round_results(1)
    assert {names[entry]: [result.bonuses.get(entry, 0) for result in results] for entry in names} == {
        name: [bonus for _points, bonus in event.per_round[name]] for name in ORGANISER_ROOM}
    assert {names[line.player]: line.total for line in service.partial_standings(1, 3)} == {
        name: sum(points + bonus for points, bonus in event.per_round[name][:3]) for name in ORGANISER_ROOM}
