"""The live pages of classic divisions (issue 37: «for classic events the pairings and
results of each round»), read before and after each event through a read-only handle:
a round's pairings appear once it is paired, a board's result once entered (a conflict
shows neither score), the standings after each round once it is complete and equal to the
service's; names with markup are text; no rating, federation id or bye asked for a round
not yet paired.
"""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path

import pytest

from duplicate.publishing.live_pages import CURRENT_PAGE, LiveSite, live_site
from duplicate.service.facade import TournamentService
from duplicate.storage.database import open_database
from lexicon.lexicon import Lexicon
from ranking.classic.live_pages import division_folders, with_classic_pages
from ranking.classic.service import ClassicService
from ranking.classic.standings import StandingLine
from ranking.classic.views import BoardView
from tests.credentials import ASSISTANT_PINS, JUDGE_PIN

MARKUP = "<b>[x]</b>"
NAMES = [MARKUP, "Ana Pérez", "Luis Gil", "Eva Ruiz", "Pablo Sanz"]


@pytest.fixture
def services(tmp_path: Path) -> tuple[TournamentService, ClassicService, TournamentService]:
    """A tournament with five players in one classic division of three rounds (Dutch): the
    judge's tournament and classic services and a read-only handle (what ``live`` holds)."""
    judge = TournamentService(open_database(str(tmp_path / "clasico.db")), station="mesa", pin=JUDGE_PIN)
    judge.create_tournament("Open clásico")
    for index, name in enumerate(NAMES):
        judge.add_player(name, club="Club Añón", federation_id=f"LIC-SECRETA-{index}")
    classic = ClassicService.like(judge)
    classic.create_division(rounds=3, system="dutch-2026")
    classic.starting_list()
    return judge, classic, judge.with_pin(None)


def site_of(viewer: TournamentService, previous: LiveSite | None = None) -> LiveSite:
    return with_classic_pages(live_site(viewer), viewer, previous=previous)


def cells(page: str) -> list[list[str]]:
    """The rows of the page's table body as texts (tags removed, entities decoded)."""
    body = page[page.find("<tbody>"):page.find("</tbody>")]
    return [[unescape(re.sub(r"<[^>]+>", "", cell)).strip() for cell in re.findall(r"<td[^>]*>(.*?)</td>", row)]
            for row in re.findall(r"<tr>(.*?)</tr>", body, flags=re.S)]


def shown_standings(page: str) -> list[tuple[str, str, str, str]]:
    """Place, number, name, wins, as a standings page's table shows them."""
    return [(row[0], row[1], row[2], row[4]) for row in cells(page)]


def service_standings(lines: list[StandingLine]) -> list[tuple[str, str, str, str]]:
    return [(str(line.place), str(line.number), line.name, f"{float(line.wins):g}".replace(".", ","))
            for line in lines]


def board_line(board: BoardView) -> str:
    return f"{board.first}. {board.first_name}"


def test_pairing_a_round_makes_its_pairings_page_appear(
        services: tuple[TournamentService, ClassicService, TournamentService]) -> None:
    _judge, classic, viewer = services
    before = site_of(viewer)
    assert "clasica/index.html" in before.pages and "clasica/ronda-1.html" not in before.pages
    assert "aún sin emparejar" in before.pages[CURRENT_PAGE]
    boards = classic.pair_round()
    after = site_of(viewer, before)
    page = after.pages["clasica/ronda-1.html"]
    rows = cells(page)
    played = [b for b in boards if b.table is not None]
    bye = next(b for b in boards if b.table is None)
    assert [row[:2] for row in rows if row[0] != "—"] == [[str(b.table), board_line(b)] for b in played]
    assert ["—", board_line(bye), "descansa"] in rows
    assert all(row[2:4] == ["", ""] for row in rows if row[0] != "—")          # no result yet
    assert "Resultados provisionales: 0 de 2 partidas con resultado" in page
    assert 'href="../estilo.css"' in page and "../eventos" in page and "<noscript>" in page
    assert 'href="clasica/ronda-1.html"' in after.pages[CURRENT_PAGE]
    assert "ronda 1 de 3 en juego" in after.pages[CURRENT_PAGE]
    assert 'href="clasica/index.html"' in after.pages["index.html"]


def test_an_entered_result_shows_and_the_standings_follow_each_round(
        services: tuple[TournamentService, ClassicService, TournamentService]) -> None:
    _judge, classic, viewer = services
    played = [b for b in classic.pair_round() if b.table is not None]
    first, second = played
    classic.enter_result(1, first.table or 0, 432, 398)
    entered = site_of(viewer)
    row = next(row for row in cells(entered.pages["clasica/ronda-1.html"]) if row[0] == str(first.table))
    assert row == [str(first.table), board_line(first), "432", "398", f"{first.second}. {first.second_name}"]
    assert "1 de 2 partidas con resultado" in entered.pages["clasica/ronda-1.html"]
    assert "clasica/clasificacion-ronda-1.html" not in entered.pages      # the round is not complete
    assert "Clasificación tras la ronda 0" in entered.pages["clasica/index.html"]
    assert "432" not in entered.pages[f"clasica/jugadores/jugador-{first.first}.html"]
    classic.enter_result(1, second.table or 0, 300, 350)
    complete = site_of(viewer, entered)
    after_one = complete.pages["clasica/clasificacion-ronda-1.html"]
    assert shown_standings(after_one) == service_standings(classic.standings(played=1))
    assert shown_standings(complete.pages["clasica/index.html"]) == shown_standings(after_one)
    assert "Ronda completa" in complete.pages["clasica/ronda-1.html"]
    assert "432" in complete.pages[f"clasica/jugadores/jugador-{first.first}.html"]
    for board in classic.pair_round():
        if board.table is not None:
            classic.enter_result(2, board.table, 500, 280)
    two = site_of(viewer, complete)
    assert shown_standings(two.pages["clasica/clasificacion-ronda-1.html"]) == \
        service_standings(classic.standings(played=1))
    assert shown_standings(two.pages["clasica/clasificacion-ronda-2.html"]) == \
        service_standings(classic.standings(played=2))
    assert shown_standings(two.pages["clasica/index.html"]) == service_standings(classic.standings())
    assert cells(two.pages["clasica/clasificacion-ronda-1.html"]) == cells(after_one)
    assert site_of(viewer, two).pages == two.pages                 # nothing moved: every page kept


def test_a_conflict_shows_neither_score_until_the_judge_settles_it(
        services: tuple[TournamentService, ClassicService, TournamentService]) -> None:
    judge, classic, viewer = services
    judge.set_assistant_range("aux1", 1, 3)
    judge.set_pin("assistant", ASSISTANT_PINS["aux1"], name="aux1")
    assistant = ClassicService(judge.db, station="auxiliar", pin=ASSISTANT_PINS["aux1"])
    table = next(b for b in classic.pair_round() if b.table is not None).table or 0
    assert assistant.enter_result(1, table, 401, 377) == "stored"
    assert assistant.enter_result(1, table, 411, 377) == "conflict"
    disputed = site_of(viewer)
    row = next(row for row in cells(disputed.pages["clasica/ronda-1.html"]) if row[0] == str(table))
    assert row[2] == "resultado por comprobar" and "401" not in disputed.pages["clasica/ronda-1.html"]
    assert "1 por comprobar por el juez árbitro" in disputed.pages["clasica/ronda-1.html"]
    classic.resolve_result(1, table, 411, 377, reason="acta firmada por los dos")
    settled = site_of(viewer, disputed)
    row = next(row for row in cells(settled.pages["clasica/ronda-1.html"]) if row[0] == str(table))
    assert row[2:4] == ["411", "377"]


def test_names_are_text_and_nothing_private_or_early_is_shown(
        services: tuple[TournamentService, ClassicService, TournamentService]) -> None:
    _judge, classic, viewer = services
    number = next(player.number for player in classic.players() if player.name == "Eva Ruiz")
    classic.set_rating(number, 1987)
    number = next(player.number for player in classic.players() if player.name == "Eva Ruiz")
    classic.request_bye(number, 3, "H")
    classic.pair_round()
    site = site_of(viewer)
    everything = "\n".join(site.pages.values())
    assert MARKUP not in everything and "&lt;b&gt;[x]&lt;/b&gt;" in site.pages["clasica/ronda-1.html"]
    assert "LIC-SECRETA" not in everything and "1987" not in everything
    assert "Eva Ruiz: descanso" not in everything              # round 3's bye: not paired yet
    assert "torneo.trf" not in everything and "pdf/" not in everything
    assert all(name.startswith("clasica/") for name in set(site.pages) - set(live_site(viewer).pages))
    for round_number in (1, 2):
        for board in classic.boards(round_number):
            if board.table is not None:
                classic.enter_result(round_number, board.table, 350, 340)
        classic.pair_round()                                    # rounds 2, then 3
    third = site_of(viewer).pages["clasica/ronda-3.html"]
    assert f"{number}. Eva Ruiz: descanso pedido (½)" in third                # public once paired


def test_each_division_has_its_own_folder_and_a_line_on_the_current_page(tmp_path: Path) -> None:
    judge = TournamentService(open_database(str(tmp_path / "c.db")), station="mesa", pin=JUDGE_PIN)
    judge.create_tournament("Dos divisiones")
    for name in ("Ana", "Luis", "Eva", "Pablo"):
        judge.add_player(name)
    classic = ClassicService.like(judge)
    for division, players in (("Élite", ("Ana", "Luis")), ("Open <i>", ("Eva", "Pablo"))):
        classic.create_division(rounds=1, system="round-robin", name=division)
        for name in players:
            classic.enter_player(name, division=division)
    classic.pair_round("Élite")
    site = site_of(judge.with_pin(None))
    assert division_folders(["", "Élite", "Open <i>", "open-i", "★", "../x"]) == {
        "": "clasica", "Élite": "clasica-elite", "Open <i>": "clasica-open-i", "open-i": "clasica-open-i-2",
        "★": "clasica-division", "../x": "clasica-x"}
    assert "clasica-elite/ronda-1.html" in site.pages and "clasica-open-i/ronda-1.html" not in site.pages
    current = site.pages[CURRENT_PAGE]
    assert "División Élite" in current and "División Open &lt;i&gt;" in current
    assert current.count('<section class="clasica"') == 1
    assert "Aún no hay ninguna partida de duplicada." in current
    assert current.index("<h1>") < current.index('<section class="clasica"')     # headings in order


def test_with_duplicate_games_the_section_closes_the_page_and_is_never_doubled(
        tmp_path: Path, spanish_lexicon: Lexicon) -> None:
    judge = TournamentService(open_database(str(tmp_path / "mixto.db")), station="mesa", lexicon=spanish_lexicon,
                              pin=JUDGE_PIN)
    judge.create_tournament("Duplicada y clásica")
    for name in ("Ana", "Luis", "Eva"):
        judge.add_player(name)
    game = judge.create_game(rounds=3, seed=5)
    judge.draw_rack(game)
    classic = ClassicService.like(judge)
    classic.create_division(rounds=2, system="round-robin")
    classic.starting_list()
    viewer = judge.with_pin(None)
    first = site_of(viewer)
    classic.pair_round()
    again = with_classic_pages(first, viewer, previous=first)          # a page kept from a build with the section
    for page in (again.pages[CURRENT_PAGE], again.pages["index.html"]):
        assert page.count('<section class="clasica"') == 1
        assert page.index('<section class="clasica"') > page.index("</h1>")
        assert page.rindex("</section>") < page.rindex("</main>")
    current = again.pages[CURRENT_PAGE]
    assert current.index("Atril de la ronda 1") < current.index('<section class="clasica"')   # the game first
    assert 'href="clasica/ronda-1.html"' in current


def test_a_tournament_with_only_classic_divisions_shows_no_empty_duplicate_standings(
        services: tuple[TournamentService, ClassicService, TournamentService]) -> None:
    _judge, classic, viewer = services
    classic.pair_round()
    first = site_of(viewer)
    again = site_of(viewer, previous=first)
    for site in (first, again):
        index = site.pages["index.html"]
        main = index[index.index("<main>"):index.index("</main>")]
        assert "Clasificación general" not in main and "Partidas</h2>" not in main     # no duplicate game
        assert main.index("</h1>") < main.index('<section class="clasica"')           # the divisions first
        assert main.count('<section class="clasica"') == 1
        assert not [name for name in site.pages if name.startswith("jugadores/")]       # no empty duplicate page
        assert "clasica/jugadores/jugador-1.html" in site.pages
