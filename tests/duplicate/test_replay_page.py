"""Replay pages (issue 27 §3): ``publish`` writes ``partida-N-repeticion.html`` per game —
every round's board after the master (digraph tiles one tile, blanks in lower case and
their own style), the rack, the master, its points, the equal tops and each player's move,
with anchors and previous/next links, no JavaScript, relative links only — and
``prepared publish FILE.json -o DIR`` writes the same page for a prepared game.

The boards are checked against the service's record by another path than the page's: the
board after round N is the CGP board *before* round N+1 (the last one, the game page's final
board)."""

from __future__ import annotations

import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner

from duplicate.prepared.generation import generate
from duplicate.publishing.site import publish_results
from duplicate.service.facade import TournamentService
from duplicate.simulate import simulate_tournament
from duplicate.storage.database import open_database
from lexicon.alphabet import spanish
from lexicon.board import SIZE, Board, standard_layout
from lexicon.lexicon import Lexicon
from tests.credentials import JUDGE_PIN
from tui.cli.main import main

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
needs_chromium = pytest.mark.skipif(CHROMIUM is None, reason="Debian chromium no está instalado "
                                    "(apt-get install -y chromium): no se puede abrir el HTML en un navegador")
ROUNDS = 20


class Replay(HTMLParser):
    """Per round section (``id="ronda-N"``): its board cells ``(classes, text)`` row by row,
    its links, the master's fields (``dd`` by class) and the player rows."""

    def __init__(self) -> None:
        super().__init__()
        self.rounds: dict[int, dict[str, list]] = {}
        self.links: list[str] = []
        self.scripts = 0
        self._round: int | None = None
        self._cell: tuple[str, list[str]] | None = None
        self._in_board = False
        self._in_moves = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "script":
            self.scripts += 1
        if tag == "a" and found.get("href"):
            self.links.append(str(found["href"]))
            if self._round is not None:
                self.rounds[self._round]["links"].append(str(found["href"]))
        if tag == "section" and str(found.get("id", "")).startswith("ronda-"):
            self._round = int(str(found["id"])[6:])
            self.rounds[self._round] = {"board": [], "links": [], "fields": [], "moves": []}
        if self._round is None:
            return
        current = self.rounds[self._round]
        if tag == "table":
            self._in_board = "tablero" in str(found.get("class"))
            self._in_moves = "jugadas" in str(found.get("class"))
        elif tag == "tr" and self._in_board:
            current["board"].append([])
        elif tag == "tr" and self._in_moves and found.get("data-entry"):
            current["moves"].append([str(found.get("class"))])
        elif tag in ("td", "dd"):
            self._cell = (str(found.get("class") or ""), [])

    def handle_endtag(self, tag: str) -> None:
        if tag == "section":
            self._round = None
        if tag == "table":
            self._in_board = self._in_moves = False
        if tag in ("td", "dd") and self._cell is not None and self._round is not None:
            classes, text = self._cell
            current = self.rounds[self._round]
            if tag == "dd":
                current["fields"].append((classes, "".join(text).strip()))
            elif self._in_board and current["board"]:
                current["board"][-1].append((classes, "".join(text).strip()))
            elif self._in_moves and current["moves"]:
                current["moves"][-1].append("".join(text).strip())
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell[1].append(data)


def parse(path: Path) -> Replay:
    page = Replay()
    page.feed(path.read_text(encoding="utf-8"))
    return page


def board_texts(board: Board) -> list[list[str]]:
    alphabet = board.alphabet
    return [["" if tile is None else alphabet.symbol(tile) for tile in row] for row in board.tiles]


def check_tiles(rows: list[list[tuple[str, str]]], expected: list[list[str]]) -> tuple[int, int, int]:
    """Assert the page's board shows ``expected`` tiles with their styles; returns how many
    digraph tiles, blanks and tiles new this round it holds."""
    rows = [row for row in rows if row]                      # the header row has no <td>
    assert len(rows) == SIZE and all(len(row) == SIZE for row in rows)
    digraphs = blanks = new = 0
    for row, want_row in zip(rows, expected, strict=True):
        for (classes, text), want in zip(row, want_row, strict=True):
            assert text == want
            names = classes.split()
            assert ("ficha" in names) == bool(want)
            assert ("comodin" in names) == (bool(want) and want != want.upper())
            assert ("digrafo" in names) == (len(want) > 1)
            digraphs += "digrafo" in names
            blanks += "comodin" in names
            new += "nueva" in names
    return digraphs, blanks, new


@pytest.fixture(scope="module")
def published(tmp_path_factory: pytest.TempPathFactory, spanish_lexicon: Lexicon):
    folder = tmp_path_factory.mktemp("repeticion")
    service = TournamentService(open_database(str(folder / "t.db")), station="pruebas", lexicon=spanish_lexicon,
                                pin=JUDGE_PIN)
    tournament = simulate_tournament(service, players=6, games=1, rounds=ROUNDS, seed=2027)
    publication = publish_results(service, folder / "web", formats=["html"], tournament_id=tournament, workers=1)
    return service, tournament, publication.out


def test_the_replay_page_shows_every_rounds_board(published) -> None:
    service, tournament, out = published
    page = parse(out / "partida-1-repeticion.html")
    rounds = [view for view in service.rounds(1, tournament) if view.master is not None]
    assert len(rounds) == ROUNDS and sorted(page.rounds) == list(range(1, ROUNDS + 1))
    alphabet, layout = spanish(), standard_layout()
    after = [board_texts(Board.from_cgp(view.board_before, alphabet, layout)) for view in rounds[1:]]
    final = parse_final_board(out / "partida-1.html")
    digraphs = blanks = 0
    for index, view in enumerate(rounds):
        shown = page.rounds[view.number]
        expected = after[index] if index < len(after) else final
        found_digraphs, found_blanks, new = check_tiles(shown["board"], expected)
        digraphs, blanks = max(digraphs, found_digraphs), max(blanks, found_blanks)
        placed = sum(1 for r in range(SIZE) for c in range(SIZE) if expected[r][c]) - (
            sum(1 for r in range(SIZE) for c in range(SIZE) if after[index - 1][r][c]) if index else 0)
        assert new == placed > 0                             # the master's tiles are marked
        fields = dict(shown["fields"])
        coordinate, word = view.master.split("-", 1)
        assert fields["palabra"] == f"{coordinate} {word}"
        assert fields["puntos"] == str(view.master_score) and fields["acumulado"] == str(view.cumulative)
        assert fields["empates"] == str(len(view.top_moves))
        assert fields["atril"] == view.rack_shown
        assert len(shown["moves"]) == 6                      # every player's move
        # previous / next links, anchors in the same page
        if index:
            assert f"#ronda-{view.number - 1}" in shown["links"]
        if index + 1 < len(rounds):
            assert f"#ronda-{view.number + 1}" in shown["links"]
    assert digraphs or blanks           # the seed's game puts a digraph or a blank on the board (styles checked)
    assert page.scripts == 0
    assert all(not re.match(r"^[a-z]+:|^/", link) for link in page.links)   # relative links only
    assert 'href="partida-1-repeticion.html"' in (out / "partida-1.html").read_text(encoding="utf-8")


def parse_final_board(path: Path) -> list[list[str]]:
    cells = re.findall(r'<td class="([^"]*)">([^<]*)</td>',
                       path.read_text(encoding="utf-8").split('class="tablero"', 1)[1].split("</table>", 1)[0])
    assert len(cells) == SIZE * SIZE
    return [[text for _classes, text in cells[row * SIZE:(row + 1) * SIZE]] for row in range(SIZE)]


def test_a_prepared_game_publishes_the_same_page_without_players(tmp_path: Path, spanish_lexicon: Lexicon) -> None:
    game = generate(spanish_lexicon, seed=5, rounds=ROUNDS)
    path = tmp_path / "maestra.json"
    path.write_text(game.to_json(), encoding="utf-8")
    result = CliRunner().invoke(main, ["prepared", "publish", str(path), "-o", str(tmp_path / "web")])
    assert result.exit_code == 0, result.output
    page = parse(tmp_path / "web" / "repeticion.html")
    assert sorted(page.rounds) == [step.number for step in game.rounds]
    alphabet = spanish()
    board = Board(alphabet, standard_layout())
    from duplicate.rules.notation import parse_move
    from lexicon.move import placed_tiles

    for step in game.rounds:
        board.place(placed_tiles(board, parse_move(step.master, alphabet)))
        shown = page.rounds[step.number]
        check_tiles(shown["board"], board_texts(board))
        fields = dict(shown["fields"])
        assert fields["puntos"] == str(step.score) and fields["empates"] == str(step.equal_tops)
        assert shown["moves"] == []
    assert page.scripts == 0 and (tmp_path / "web" / "estilo.css").is_file()
    assert "index.html" not in page.links                    # nothing to link to beside it


@needs_chromium
def test_the_replay_page_opens_in_headless_chromium(published, tmp_path: Path) -> None:
    _service, _tournament, out = published
    assert CHROMIUM is not None
    result = subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                             "--disable-background-networking", "--disable-component-update", "--disable-sync",
                             f"--user-data-dir={tmp_path / 'perfil'}", "--dump-dom",
                             (out / "partida-1-repeticion.html").as_uri()],
                            capture_output=True, text=True, timeout=180, check=False)
    assert result.returncode == 0, result.stderr[-2000:]
    dom = result.stdout
    assert "<script" not in dom
    assert dom.count('class="tablero"') == ROUNDS
    assert len(re.findall(r'<section class="ronda salto" id="ronda-\d+"', dom)) == ROUNDS
