"""The next best scores below the top (``duplicate.rules.next_scores``), a display aid of the
judge's console: the array version is checked against the plain one, and both against
counts made here from the generator's sorted moves."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable

import pytest

from duplicate.rules.next_scores import ScoreGroup, groups_of, groups_of_raw, next_score_groups
from lexicon.alphabet import BLANK_FLAG, spanish
from lexicon.board import Board, Direction
from lexicon.gaddag import available as gaddag_available
from lexicon.lexicon import Lexicon
from lexicon.move import Move, placed_tiles
from lexicon.movegen import MoveList, generate_compiled, generate_pure_python

A = spanish()
WORDS = ["CASA", "CASAS", "CAS", "ASA", "SACA", "SACAS", "ESA", "ESAS", "MESA", "MESAS", "AS", "ES", "SE", "MES",
         "CAMA", "CAMAS", "AMA", "AMAS", "MAS", "SAMA", "ACES", "CESA", "ACME", "ACMES"]
WALKERS = [pytest.param(generate_compiled, id="gaddag",
                        marks=pytest.mark.skipif(not gaddag_available(), reason="lexicon._gaddag not built")),
           pytest.param(generate_pure_python, id="pure-python")]


def board_with_casa() -> Board:
    board = Board(A)
    move = Move(7, 5, Direction.ACROSS, tuple(A.code(letter) for letter in "CASA"))
    board.place(placed_tiles(board, move))
    return board


def rack(text: str) -> list[int]:
    return [A.blank if letter == "?" else A.code(letter) for letter in text]


def expected_groups(moves: MoveList, limit: int) -> list[tuple[int, int, int, int]]:
    """(score, count, fewest blanks, fewest tiles placed among that score's moves), from
    the sorted list of moves, one move at a time."""
    everything = moves.all()
    top = max((move.score for move in everything), default=0)
    counts = Counter(move.score for move in everything if move.score != top)
    result = []
    for score in sorted(counts, reverse=True)[:limit]:
        same = [move for move in everything if move.score == score]
        fewest = min((sum(1 for tile in move.move.word if tile & BLANK_FLAG), move.tiles_placed) for move in same)
        result.append((score, counts[score], *fewest))
    return result


def summary(groups: Iterable[ScoreGroup], moves: MoveList) -> list[tuple[int, int, int, int]]:
    placed = {move.move: move.tiles_placed for move in moves.all()}
    return [(group.score, group.count, sum(1 for tile in group.move.word if tile & BLANK_FLAG), placed[group.move])
            for group in groups]


@pytest.mark.parametrize("walker", WALKERS)
@pytest.mark.parametrize("letters", ["AMSE?CS", "SAMEAS?", "??ACMES", "EEEEEEE"])
def test_each_score_below_the_top_with_its_count_and_simplest_move(
        make_lexicon: Callable[[Iterable[str]], Lexicon], walker: Callable[..., MoveList], letters: str) -> None:
    lexicon = make_lexicon(WORDS)
    board = board_with_casa()
    moves = walker(board, rack(letters), lexicon)
    assert (len(groups_of(moves, 50)) >= 3) == (letters != "EEEEEEE")     # E alone makes no word here
    for limit in (0, 1, 3, 50):
        groups = groups_of(moves, limit)
        assert summary(groups, moves) == expected_groups(moves, limit)
        # The move shown for a score has that score.
        scores = {move.move: move.score for move in moves.all()}
        assert all(scores[group.move] == group.score for group in groups)


@pytest.mark.skipif(not gaddag_available(), reason="lexicon._gaddag not built")
def test_the_array_version_agrees_with_the_plain_one(make_lexicon: Callable[[Iterable[str]], Lexicon]) -> None:
    lexicon = make_lexicon(WORDS)
    for letters in ("AMSE?CS", "??ACMES", "SACAMES"):
        moves = generate_compiled(board_with_casa(), rack(letters), lexicon)
        assert moves.arrays() is not None
        assert groups_of(moves, 20) == groups_of_raw(moves.raw, 20)
        found = next_score_groups(board_with_casa(), rack(letters), lexicon, 20)
        assert summary(found, moves) == expected_groups(moves, 20)
