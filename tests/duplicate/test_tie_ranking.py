"""The III.15 ranking on the generator's arrays (``duplicate.rules.tie_ranking``) against
``rank_moves``, the ranking written move by move: same order, same criterion between each
move and the next, same reasons, leaves and counts (III.15 criteria 1–5, tie-break 6)."""

from __future__ import annotations

import random

import pytest

from duplicate.rules.game import Game
from duplicate.rules.master import choose_master, rank_moves, rank_top_moves, ranked_moves
from duplicate.rules.tie_ranking import Ranking, rank_arrays
from lexicon.board import Board
from lexicon.gaddag import available
from lexicon.lexicon import Lexicon
from lexicon.movegen import MoveList, generate_compiled, generate_top

pytestmark = pytest.mark.skipif(not available(), reason="lexicon._gaddag not built")


def described(ranking: object) -> list[tuple[object, ...]]:
    return [(ranked.move, ranked.score, ranked.criterion, ranked.leave, ranked.blanks_used, ranked.imbalance,
             ranked.tiles_placed) for ranked in ranking]  # type: ignore[attr-defined]


def positions(lexicon: Lexicon) -> list[tuple[Board, tuple[int, ...]]]:
    alphabet = lexicon.alphabet
    rng = random.Random(17)
    letters = [tile for tile in alphabet.full_bag() if tile != alphabet.blank]
    found = []
    for seed in (3, 4):
        game = Game(lexicon, seed=seed)
        while (pending := game.draw()) is not None:
            board = game.board.copy()
            found.append((board, pending.rack.tiles))
            found.append((board, tuple(rng.sample(letters, 5)) + (alphabet.blank, alphabet.blank)))
            found.append((board, tuple(rng.sample(letters, 6)) + (alphabet.blank,)))
            if pending.master is None:
                break
            game.play()
    return found


def test_the_array_ranking_is_the_move_by_move_ranking(spanish_lexicon: Lexicon) -> None:
    for board, rack in positions(spanish_lexicon):
        arrays = generate_compiled(board, rack, spanish_lexicon).top_arrays()
        assert arrays is not None
        fast = rank_arrays(board, rack, *arrays)
        # The moves as ``ScoredMove`` objects (the compiled walker is checked against the
        # pure-Python one in tests/lexicon): ranked one by one.
        slow = rank_moves(board, rack, generate_compiled(board, rack, spanish_lexicon).top())
        assert described(fast) == described(slow)
        assert [ranked.reason for ranked in fast] == [ranked.reason for ranked in slow]


def test_thousands_of_equal_tops_on_the_empty_board(spanish_lexicon: Lexicon) -> None:
    # AE??RST on the empty board: 12,984 moves of 62 points (the case).
    alphabet = spanish_lexicon.alphabet
    board, rack = Board(alphabet), (*alphabet.tokenize("AERST"), alphabet.blank, alphabet.blank)
    fast = rank_top_moves(board, rack, generate_top(board, rack, spanish_lexicon))
    assert isinstance(fast, Ranking)           # above ARRAY_RANKING_FROM: ranked on the arrays
    slow = rank_moves(board, rack, generate_compiled(board, rack, spanish_lexicon).top())
    assert len(fast) == len(slow) > 10_000
    assert described(fast) == described(slow)
    assert [ranked.reason for ranked in fast[:50]] == [ranked.reason for ranked in slow[:50]]
    assert fast[-1].reason == slow[-1].reason == "última de la clasificación"
    assert choose_master(board, rack, generate_top(board, rack, spanish_lexicon)).move == slow[0].move
    assert ranked_moves(fast) == [(ranked.move, ranked.score) for ranked in slow] == ranked_moves(slow)


def test_the_ranking_reads_like_a_sequence(spanish_lexicon: Lexicon) -> None:
    alphabet = spanish_lexicon.alphabet
    board, rack = Board(alphabet), alphabet.tokenize("CASAS")
    ranking = rank_arrays(board, rack, *generate_compiled(board, rack, spanish_lexicon).top_arrays())
    moves = list(ranking)
    assert len(moves) == len(ranking) > 1
    assert ranking[-1] is moves[-1] and ranking[0] is moves[0]
    assert list(ranking[1:3]) == moves[1:3]
    with pytest.raises(IndexError):
        ranking[len(moves)]
    empty = rank_arrays(board, alphabet.tokenize("Q"),
                        *generate_compiled(board, alphabet.tokenize("Q"), spanish_lexicon).top_arrays())
    assert len(empty) == 0 and list(empty) == []
    single = rank_arrays(board, rack, *MoveList.from_arrays(*generate_top(board, rack, spanish_lexicon).top_arrays())
                         .top_arrays())
    assert described(single) == described(ranking)
