"""The frozen views the service gives the front ends instead of the engine (issue 24 §2):
``TournamentService.game_view`` and ``next_scores``, checked against the engine's own
ranking and against the boards before and after a master."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from duplicate.service.facade import TournamentService
from duplicate.storage.database import open_database
from duplicate.service.views import Tile, empty_board
from lexicon.lexicon import Lexicon
from tests.credentials import JUDGE_PIN


@pytest.fixture
def service(tmp_path: Path, spanish_lexicon: Lexicon) -> TournamentService:
    judge = TournamentService(open_database(str(tmp_path / "t.db")), lexicon=spanish_lexicon, pin=JUDGE_PIN)
    judge.create_tournament("Vistas")
    for name in ("Ana", "Beto"):
        judge.add_player(name)
    judge.create_game(rounds=4, seed=11)
    return judge


def test_a_rack_in_play_with_its_tops_in_the_iii_15_order(service: TournamentService) -> None:
    empty = service.game_view(1)
    assert empty.rack is None and empty.last is None and empty.played == 0 and not empty.over
    assert empty.board == empty_board() and empty.board.empty and empty.clock is None
    assert (empty.board.cell(7, 7).word_premium, empty.board.cell(0, 0).word_premium) == (2, 3)   # ★ and 3P
    assert (empty.board.cell(1, 5).letter_premium, empty.board.cell(0, 3).letter_premium) == (3, 2)
    assert empty.bag.total == empty.bag.vowels + empty.bag.consonants + empty.bag.blanks == 100
    service.draw_rack(1)
    view = service.game_view(1, tops=3)
    pending = service.pending_round(1)
    assert view.rack is not None and pending is not None
    alphabet = pending.rack.alphabet
    assert view.rack.number == pending.number == 1 and view.rack.leftover == ()
    assert view.rack.drawn == tuple(Tile("?", True) if tile == alphabet.blank else Tile(alphabet.symbol(tile), False)
                                    for tile in pending.rack.drawn)
    assert view.rack.top_total == len(pending.ranked) and view.rack.move_count == pending.move_count
    assert [(top.score, top.reason) for top in view.rack.tops] == [(ranked.score, ranked.reason)
                                                                    for ranked in pending.ranked[:3]]
    assert view.bag.total == 100 - 7
    without = service.game_view(1, tops=None)
    assert without.rack is not None and without.rack.tops == () and without.rack.top_total == 0
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.over = True  # type: ignore[misc]  # the view is frozen: this must fail


def test_the_last_master_and_the_squares_it_took(service: TournamentService) -> None:
    service.draw_rack(1)
    before = service.game_view(1)
    placed = service.choose_master(1)
    after = service.game_view(1)
    assert after.rack is None and after.played == 1 and after.round_number == 2
    assert after.last is not None and after.last.master == placed.master and after.last.score == placed.master_score
    filled = {(row, col) for row in range(15) for col in range(15)
              if before.board.cell(row, col).letter is None and after.board.cell(row, col).letter is not None}
    assert after.last.squares == filled and filled
    # The cells spell the master as written (a blank in lowercase, a digraph one tile).
    coordinate, word = placed.master.split("-", 1)
    squares = sorted(filled)
    assert "".join(after.board.cell(row, col).shown or "" for row, col in squares) in word
    # Between rounds the leftover is the rack less the master's tiles.
    assert len(after.leftover) == 7 - len(filled)
    # The first view is a snapshot: the master did not change it.
    assert before.rack is not None and before.board.empty
    service.record_timer(1, "start", 120.0)
    clocked = service.game_view(1).clock
    assert clocked is not None and clocked.running and 0 < clocked.remaining <= 120.0


def test_next_scores_below_the_top_for_the_rack_in_play(service: TournamentService) -> None:
    assert service.next_scores(1) == ()                            # no rack
    service.draw_rack(1)
    view = service.game_view(1)
    assert view.rack is not None
    top = view.rack.tops[0].score
    scores = service.next_scores(1, round_number=1, limit=5)
    assert 0 < len(scores) <= 5
    assert all(score.score < top and score.count >= 1 for score in scores)
    assert [score.score for score in scores] == sorted({score.score for score in scores}, reverse=True)
    assert service.next_scores(1, round_number=2) == ()            # not that round's rack


def _plain(value: object, where: str) -> None:
    """``value`` is made of plain values only: frozen dataclasses, tuples and frozensets of
    str, int, float, bool and None (issue 34 §4: no engine, board, alphabet nor CGP text to
    parse back)."""
    if value is None or isinstance(value, (str, int, float, bool)):
        return
    if isinstance(value, (tuple, frozenset)):
        for index, item in enumerate(value):
            _plain(item, f"{where}[{index}]")
        return
    assert dataclasses.is_dataclass(value) and not isinstance(value, type), f"{where}: {type(value).__name__}"
    assert type(value).__dataclass_params__.frozen, f"{where}: {type(value).__name__} is not frozen"  # type: ignore[attr-defined]
    for item in dataclasses.fields(value):
        _plain(getattr(value, item.name), f"{where}.{item.name}")


def test_the_view_holds_plain_values_the_board_as_cells_and_the_rack_as_tiles(service: TournamentService) -> None:
    service.draw_rack(1)
    service.choose_master(1)
    service.draw_rack(1)
    view = service.game_view(1, tops=3)
    _plain(view, "GameView")
    assert view.rack is not None and len(view.rack.tiles) == 7
    assert all(tile.text == "?" for tile in view.rack.tiles if tile.blank)
    assert all(len(line) == 15 for line in view.board.rows) and len(view.board.rows) == 15
    assert not any(isinstance(getattr(view, item.name), str) and "/" in getattr(view, item.name)
                   for item in dataclasses.fields(view))                   # no CGP text among its fields
    for round_ in service.rounds(1):
        _plain(round_.board, "RoundView.board")
    # The board of round 2 (before its master) is the board after round 1's master.
    assert service.rounds(1)[1].board == view.board
