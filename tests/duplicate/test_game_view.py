"""The frozen views the service gives the front ends instead of the engine (issue 24 §2):
``TournamentService.game_view`` and ``next_scores``, checked against the engine's own
ranking and against the boards before and after a master."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from duplicate.service.facade import TournamentService
from duplicate.storage.database import open_database
from lexicon.board import SIZE, Board
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
    assert empty.board == Board(empty.alphabet).to_cgp() and empty.clock is None
    assert empty.bag.total == empty.bag.vowels + empty.bag.consonants + empty.bag.blanks == 100
    service.draw_rack(1)
    view = service.game_view(1, tops=3)
    pending = service.pending_round(1)
    assert view.rack is not None and pending is not None
    assert view.rack.number == pending.number == 1 and view.rack.tiles == pending.rack.tiles
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
    old, new = Board.from_cgp(before.board, before.alphabet), Board.from_cgp(after.board, after.alphabet)
    filled = {(row, col) for row in range(SIZE) for col in range(SIZE)
              if old.tiles[row][col] is None and new.tiles[row][col] is not None}
    assert after.last.squares == filled and filled
    # The first view is a snapshot: the master did not change it.
    assert before.rack is not None and before.board == Board(before.alphabet).to_cgp()
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
