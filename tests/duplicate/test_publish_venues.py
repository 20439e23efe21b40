"""``publish`` of an event played in several venues (issue 27 §2): the whole field's page
(every player, a venue column) and one page per venue (its players, ranked among
themselves), linked from the index; venue names with markup stay text and give safe,
distinct file names.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from duplicate.prepared.file import PreparedGame
from duplicate.prepared.generation import generate
from duplicate.publishing.site import publish_results
from duplicate.publishing.venue_pages import venue_slugs
from duplicate.service.facade import TournamentService
from duplicate.storage.database import open_database
from lexicon.lexicon import Lexicon
from tests.credentials import JUDGE_PIN
from tests.duplicate.test_publish import CHROMIUM, chromium, needs_chromium, tables_of
from tests.duplicate.test_venues import BONUSES, plain_standings, play_venue

# Two venue names whose slugs collide ("lloret-de-mar"), one with markup and «=».
FIRST, SECOND = "Lloret de Mar", "<b>Lloret de Mar</b>="


@pytest.fixture(scope="module")
def published(tmp_path_factory: pytest.TempPathFactory,
              spanish_lexicon: Lexicon) -> tuple[Path, dict[str, dict[str, Any]]]:
    folder = tmp_path_factory.mktemp("sedes-web")
    prepared: PreparedGame = generate(spanish_lexicon, 41, 4)
    records = {FIRST: play_venue(folder / "a.db", spanish_lexicon, prepared, FIRST, 4, slips_at_end=False),
               SECOND: play_venue(folder / "b.db", spanish_lexicon, prepared, SECOND, 3, slips_at_end=True)}
    organiser = TournamentService(open_database(str(folder / "org.db")), station="organizador",
                                  lexicon=spanish_lexicon, pin=JUDGE_PIN)
    organiser.create_tournament("Simultáneo nacional", venue="Barcelona", settings=BONUSES)
    organiser.create_game(prepared=prepared)
    for venue, record in records.items():
        organiser.import_venue(record, venue, unsigned=True)
    publish_results(organiser, folder / "web", formats=["html"], workers=1)
    return folder / "web", records


def rows(path: Path, table_class: str) -> list[list[str]]:
    """Texts of the cells of each body row of the first table of class ``table_class``."""
    for attrs, table_rows in tables_of(path).tables:
        if table_class in (attrs.get("class") or "").split():
            return [[text for _classes, text in cells] for row_attrs, cells in table_rows if "data-player" in row_attrs]
    raise AssertionError(f"{path.name}: no table of class {table_class}")


def test_slugs_are_safe_and_distinct() -> None:
    slugs = venue_slugs(["Lloret de Mar", "<b>Lloret de Mar</b>=", "../../etc", "", "Àvila", "lloret-de-mar"])
    assert slugs == {"Lloret de Mar": "lloret-de-mar", "<b>Lloret de Mar</b>=": "b-lloret-de-mar-b",
                     "../../etc": "etc", "": "sede", "Àvila": "avila", "lloret-de-mar": "lloret-de-mar-2"}
    assert venue_slugs(["Sant Cugat", "Sant-Cugat", "SANT CUGAT"]) == {
        "Sant Cugat": "sant-cugat", "Sant-Cugat": "sant-cugat-2", "SANT CUGAT": "sant-cugat-3"}
    assert all(re.fullmatch(r"[a-z0-9-]+", slug) for slug in venue_slugs(["a/b\\c:d*e?f", "x" * 300]).values())


def test_the_whole_field_page_ranks_every_player_with_a_venue_column(
        published: tuple[Path, dict[str, dict[str, Any]]]) -> None:
    web, records = published
    expected = plain_standings(records)
    names = {(venue, player["id"]): player["name"] for venue, record in records.items() for player in record["players"]}
    lines = rows(web / "sedes.html", "sedes-general")
    assert len(lines) == 7
    # Pos., Jugador, Sede, Club, Puestos, Partidas, Bonif., Total…: every player once, its venue named as typed.
    shown = {(line[2], line[1]): int(line[7]) for line in lines}
    assert shown == {(venue, names[(venue, player)]): sum(points) for (venue, player), points in expected.items()}
    totals = [int(line[7]) for line in lines]
    assert totals == sorted(totals, reverse=True) and lines[0][0] == "1"
    game = rows(web / "sedes.html", "sedes-partida")
    assert {(line[2], line[1]): int(line[5]) for line in game} == shown
    text = (web / "sedes.html").read_text(encoding="utf-8")
    assert "<b>Lloret" not in text and "&lt;b&gt;Lloret de Mar&lt;/b&gt;=" in text and "<script" not in text


def test_each_venue_has_its_own_page_ranked_within_it(published: tuple[Path, dict[str, dict[str, Any]]]) -> None:
    web, records = published
    expected = plain_standings(records)
    first, second = web / "sede-lloret-de-mar.html", web / "sede-b-lloret-de-mar-b.html"
    for page, venue, count in ((first, FIRST, 4), (second, SECOND, 3)):
        lines = rows(page, "sedes-general")
        assert len(lines) == count and {line[2] for line in lines} == {venue}
        totals = sorted((sum(points) for key, points in expected.items() if key[0] == venue), reverse=True)
        assert [int(line[7]) for line in lines] == totals
        assert lines[0][0] == "1"           # ranked within the venue
        assert [int(line[5]) for line in rows(page, "sedes-partida")] == totals


def test_the_index_links_every_venue_page_and_every_link_resolves(
        published: tuple[Path, dict[str, dict[str, Any]]]) -> None:
    web, _records = published
    index = (web / "index.html").read_text(encoding="utf-8")
    for name in ("sedes.html", "sede-lloret-de-mar.html", "sede-b-lloret-de-mar-b.html"):
        assert f'href="{name}"' in index
        for link in re.findall(r'href="([^"#]+)', (web / name).read_text(encoding="utf-8")):
            assert (web / link).is_file(), (name, link)


def test_without_venues_no_venue_page(tmp_path: Path, spanish_lexicon: Lexicon) -> None:
    from duplicate.simulate import simulate_tournament

    service = TournamentService(open_database(str(tmp_path / "t.db")), station="pruebas", lexicon=spanish_lexicon,
                                pin=JUDGE_PIN)
    simulate_tournament(service, players=4, games=1, seed=5, rounds=3)
    publish_results(service, tmp_path / "web", formats=["html"], workers=1)
    assert not list((tmp_path / "web").glob("sede*.html"))
    assert "Sedes" not in (tmp_path / "web" / "index.html").read_text(encoding="utf-8")


@needs_chromium
def test_the_venue_page_opens_in_a_headless_browser(published: tuple[Path, dict[str, dict[str, Any]]],
                                                    tmp_path: Path) -> None:
    web, _records = published
    assert CHROMIUM is not None
    result = chromium("--dump-dom", (web / "sedes.html").as_uri(), profile=tmp_path / "perfil")
    assert result.returncode == 0, result.stderr[-2000:]
    assert len(re.findall(r"<tr data-player=", result.stdout.split('class="clasificacion sedes-partida"')[0])) == 7
    assert "Clasificación de todas las sedes" in result.stdout


def test_only_the_own_rooms_players_link_to_their_pages(tmp_path: Path, spanish_lexicon: Lexicon) -> None:
    """The organiser's room's players link to their player pages; an imported venue's
    player never does, though its id in its record is an entry id here too."""
    from tests.ranking.test_elodi_venues import play

    prepared = generate(spanish_lexicon, 43, 3)
    record = play_venue(tmp_path / "a.db", spanish_lexicon, prepared, "Lloret", 2, slips_at_end=False)
    organiser = TournamentService(open_database(str(tmp_path / "org.db")), station="organizador",
                                  lexicon=spanish_lexicon, pin=JUDGE_PIN)
    organiser.create_tournament("Simultáneo", venue="Barcelona", settings=BONUSES)
    play(organiser, prepared, ["Barcelona 1", "Barcelona 2"], final=False)
    organiser.import_venue(record, "Lloret", unsigned=True)
    publish_results(organiser, tmp_path / "web", formats=["html"], workers=1)
    page = (tmp_path / "web" / "sedes.html").read_text(encoding="utf-8")
    own = {entry.id for entry, _person in organiser.entries()}
    linked = set(re.findall(r'<a href="jugadores/(jugador-\d+)\.html">([^<]+)</a>', page))
    assert {name for _slug, name in linked} == {"Barcelona 1", "Barcelona 2"}
    assert {slug for slug, _name in linked} == {f"jugador-{entry}" for entry in own}
    assert all((tmp_path / "web" / "jugadores" / f"{slug}.html").is_file() for slug, _name in linked)
    assert "Lloret 1" in page and "Lloret 1</a>" not in page


def test_online_venues_get_their_pages_too(tmp_path: Path, spanish_lexicon: Lexicon) -> None:
    """Venues on this database (online, no import): the same pages, every player linked."""
    organiser = TournamentService(open_database(str(tmp_path / "org.db")), station="organizador",
                                  lexicon=spanish_lexicon, pin=JUDGE_PIN)
    organiser.create_tournament("En línea", venue="Barcelona", settings=BONUSES)
    organiser.add_venue("Lloret")
    for name, venue in (("Ana", "Lloret"), ("Blas", "Lloret"), ("Carla", None)):
        organiser.add_player(name, venue=venue)
    game = organiser.create_game(rounds=2, seed=4)
    tables = sorted(table for table, _entry, _player in organiser.seats(game))
    for _ in range(2):
        organiser.draw_rack(game)
        view = organiser.choose_master(game)
        assert view.master is not None
        for table in tables:
            organiser.enter_slip(game, table, view.master if table % 2 else "H8-QZQZ")
        organiser.close_round(game)
    publish_results(organiser, tmp_path / "web", formats=["html"], workers=1)
    web = tmp_path / "web"
    assert {path.name for path in web.glob("sede*.html")} == {"sedes.html", "sede-lloret.html", "sede-barcelona.html"}
    assert sorted(line[1] for line in rows(web / "sede-lloret.html", "sedes-general")) == ["Ana", "Blas"]
    page = (web / "sedes.html").read_text(encoding="utf-8")
    assert len(re.findall(r'<a href="jugadores/jugador-\d+\.html">', page.split("sedes-partida")[0])) == 3
