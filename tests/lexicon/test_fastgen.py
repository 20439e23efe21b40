"""The compiled walker (``lexicon.fastgen``) against the pure-Python one on the default
lexicon: the same moves, in the same order, with the same scores; plus the pieces
only the compiled path has (graph arrays, array-backed ``MoveList``, the
room-for-moves retry, the ``DUPLICADA_PURE_PYTHON`` switch).

The hypothesis cross-checks against the slow reference run for both walkers in
``test_movegen.py``; here the positions are real ones (self-played full-bag games,
two-blank and digraph-heavy racks), too big for the reference.
"""

from __future__ import annotations

import random
import threading

import numpy as np
import pytest

from duplicate.game import Game
from lexicon.board import SIZE, Board
from lexicon.lexicon import FINAL, REACH, Lexicon, Node
from lexicon.movegen import (
    PURE_PYTHON_VARIABLE,
    MoveList,
    generate,
    generate_compiled,
    generate_pure_python,
    walker_name,
)

fastgen = pytest.importorskip("lexicon.fastgen", reason="numba not installed")

Position = tuple[Board, tuple[int, ...]]


@pytest.fixture(scope="module")
def positions(spanish_lexicon: Lexicon) -> list[Position]:
    """Every (board, rack) of two self-played full-bag games, plus two-blank and
    digraph-heavy racks on some of their boards."""
    alphabet = spanish_lexicon.alphabet
    played: list[Position] = []
    for seed in (11, 12):
        game = Game(spanish_lexicon, seed=seed)
        while (pending := game.draw()) is not None:
            played.append((game.board.copy(), pending.rack.tiles))
            if pending.master is None:
                break
            game.play()
    rng = random.Random(5)
    letters = [tile for tile in alphabet.full_bag() if tile != alphabet.blank]
    digraphs = tuple(alphabet.code(symbol) for symbol in ("CH", "LL", "RR", "Ñ"))
    boards = [board for board, _ in played]
    two_blank = [(rng.choice(boards), tuple(rng.sample(letters, 5)) + (alphabet.blank,) * 2) for _ in range(4)]
    digraph_heavy = [(rng.choice(boards), digraphs + tuple(rng.sample(letters, 3))) for _ in range(12)]
    return played + two_blank + digraph_heavy


def test_both_walkers_give_the_same_moves_in_the_same_order(spanish_lexicon: Lexicon,
                                                            positions: list[Position]) -> None:
    for board, rack in positions:
        compiled = generate_compiled(board, rack, spanish_lexicon)
        python = generate_pure_python(board, rack, spanish_lexicon)
        context = f"{board.to_cgp()} {spanish_lexicon.alphabet.format(rack)}"
        assert compiled.raw == python.raw, context
        assert len(compiled) == len(python) and compiled.best_score == python.best_score, context
        assert compiled.top() == python.top(), context


def test_array_backed_move_list_answers_like_the_tuple_one(spanish_lexicon: Lexicon,
                                                           positions: list[Position]) -> None:
    board, rack = max(positions[-16:-12], key=lambda position: len(generate(*position, spanish_lexicon)))
    info, words = fastgen.generate_arrays(board, rack, spanish_lexicon)
    from_arrays = MoveList.from_arrays(info, words)
    from_tuples = MoveList(list(from_arrays.raw))
    assert len(from_arrays) == len(from_tuples) > 1000
    assert from_arrays.best_score == from_tuples.best_score
    assert from_arrays.top() == from_tuples.top()
    assert from_arrays.all() == from_tuples.all()
    after_word = np.arange(SIZE)[None, :] >= info[:, fastgen.INFO_COLUMNS.index("length"), None]
    assert (words[after_word] == 0).all()
    empty = MoveList.from_arrays(info[:0], words[:0])
    assert len(empty) == 0 and empty.best_score == 0 and empty.top() == [] and empty.all() == [] and empty.raw == []


def test_results_larger_than_the_output_arrays_are_walked_again(spanish_lexicon: Lexicon,
                                                                positions: list[Position],
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    board, rack = positions[-16]  # a two-blank rack: thousands of moves
    expected = generate_pure_python(board, rack, spanish_lexicon).raw
    monkeypatch.setattr(fastgen, "_capacity", 8)
    monkeypatch.setattr(fastgen, "_buffers", threading.local())     # no arrays kept from earlier calls
    assert generate_compiled(board, rack, spanish_lexicon).raw == expected
    assert fastgen._capacity >= len(expected)  # the next call has room at once


def test_graph_arrays_spell_the_graph(spanish_lexicon: Lexicon) -> None:
    graph = spanish_lexicon.graph_arrays()
    assert graph is spanish_lexicon.graph_arrays()  # built once
    assert graph.child.shape[1] == spanish_lexicon.alphabet.size and graph.child.shape[0] == len(graph.final)
    # Walk the dict graph and the arrays side by side, depth first from the root.
    seen: dict[int, int] = {}
    stack: list[tuple[Node, int]] = [(spanish_lexicon.root, 0)]
    while stack:
        node, number = stack.pop()
        if id(node) in seen:
            assert seen[id(node)] == number  # a shared node has one number
            continue
        seen[id(node)] = number
        assert bool(graph.final[number]) == (FINAL in node)
        assert tuple(graph.reach[number, :-1]) == node[REACH] and graph.reach[number, -1] == 0
        letters = {letter for letter in node if letter >= 0}
        assert {int(letter) for letter in (graph.child[number] >= 0).nonzero()[0]} == letters
        stack.extend((node[letter], int(graph.child[number, letter])) for letter in letters)
    assert len(seen) == len(graph.final)


def test_environment_variable_selects_the_pure_python_walker(spanish_lexicon: Lexicon,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    board = Board(spanish_lexicon.alphabet)
    rack = spanish_lexicon.alphabet.tokenize("CASA")
    monkeypatch.delenv(PURE_PYTHON_VARIABLE, raising=False)
    assert walker_name() == "numba"
    compiled = generate(board, rack, spanish_lexicon)
    monkeypatch.setenv(PURE_PYTHON_VARIABLE, "1")
    assert walker_name() == "pure-python"
    assert generate(board, rack, spanish_lexicon).raw == compiled.raw
    monkeypatch.setenv(PURE_PYTHON_VARIABLE, "0")
    assert walker_name() == "numba"
