"""A slow, obviously-correct move enumerator, to check ``lexicon.movegen`` against.

It shares nothing with the generator but the board, the alphabet and the
lexicon's membership test (``codes in lexicon``, the ``dawg2`` word set — never
the letter graph the generator walks). For every empty square, both
directions, and every ordered selection of rack tiles (each blank tried as
every letter), it lays the tiles on the successive empty squares from that
square and keeps the placement if it is legal (rules I.2):

* the tiles are in one line, with only board tiles between them (true by
  construction: they go on successive empty squares);
* on an empty board the move has at least 2 tiles and covers H8; otherwise at
  least one placed tile is orthogonally next to a tile already on the board;
* every word formed — the maximal run through the tiles in the move's
  direction and the maximal perpendicular run through each placed tile — of 2
  tiles or more is in the lexicon, and there is at least one such word.

The score is computed twice, by ``score_placement`` below (a few lines that
follow I.2 literally) and by ``lexicon.move.score_move``; they must agree.

Only meant for small racks (≤ 5 tiles, or 7 on an empty board with a tiny
lexicon) and small lexicons: it is exponential in the rack size.
"""

from __future__ import annotations

from itertools import product

from lexicon.alphabet import BLANK_FLAG
from lexicon.board import CENTRE, SIZE, Board, Direction
from lexicon.lexicon import Lexicon
from lexicon.move import Move, score_move

PlacementKey = frozenset
"""``frozenset`` of ``(row, col, tile)`` placed: one key per distinct placement."""

BINGO = 50
RACK = 7


def reference_moves(board: Board, rack: list[int] | tuple[int, ...], lexicon: Lexicon) -> dict[PlacementKey, int]:
    """Every legal placement of tiles of ``rack`` on ``board`` → its score."""
    alphabet = lexicon.alphabet
    empty_board = board.is_empty()
    found: dict[PlacementKey, int] = {}
    known: dict[tuple[int, ...], bool] = {}

    def valid(word: tuple[int, ...]) -> bool:
        if word not in known:
            known[word] = word in lexicon
        return known[word]

    for row in range(SIZE):
        for col in range(SIZE):
            if board.tiles[row][col] is not None:
                continue
            for direction in (Direction.ACROSS, Direction.DOWN):
                for count in range(1, len(rack) + 1):
                    squares = _empty_squares_from(board, row, col, direction, count)
                    if squares is None:
                        break
                    if empty_board:
                        if count < 2 or CENTRE not in squares:
                            continue
                    elif not any(_touches_tile(board, r, c) for r, c in squares):
                        continue
                    # Which squares make up each word is fixed by the geometry; only the letters vary.
                    templates = _word_templates(board, squares, direction)
                    runs = [run for run in templates if len(run) >= 2]
                    if not runs:
                        continue
                    # Letters that make a valid perpendicular word on each square (all where there is none),
                    # tried one by one: only to skip hopeless selections early, every word is checked below.
                    allowed = [list(range(alphabet.size)) for _ in squares]
                    for i, cross in enumerate(templates[1:]):
                        if len(cross) >= 2:
                            allowed[i] = [x for x in allowed[i] if valid(tuple(x if j >= 0 else t for t, j in cross))]
                    for tiles in _fillings(rack, allowed, alphabet.blank):
                        letters = [t & ~BLANK_FLAG for t in tiles]
                        if not all(valid(tuple(letters[i] if i >= 0 else t for t, i in run)) for run in runs):
                            continue
                        placed = tuple((r, c, t) for (r, c), t in zip(squares, tiles))
                        key = frozenset(placed)
                        if key in found:
                            continue
                        score = score_placement(board, placed, direction)
                        check = score_move(board, as_move(board, placed, direction))
                        if score != check:
                            raise AssertionError(f"scorers disagree on {sorted(placed)}: {score} != {check}")
                        found[key] = score
    return found


def _empty_squares_from(board: Board, row: int, col: int, direction: Direction,
                        count: int) -> list[tuple[int, int]] | None:
    """The first ``count`` empty squares from (row, col) on, or None if the board ends first."""
    dr, dc = direction.step
    squares = []
    r, c = row, col
    while len(squares) < count:
        if not (0 <= r < SIZE and 0 <= c < SIZE):
            return None
        if board.tiles[r][c] is None:
            squares.append((r, c))
        r, c = r + dr, c + dc
    return squares


def _touches_tile(board: Board, row: int, col: int) -> bool:
    for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
        if 0 <= r < SIZE and 0 <= c < SIZE and board.tiles[r][c] is not None:
            return True
    return False


def _word_templates(board: Board, squares: list[tuple[int, int]], direction: Direction) -> list[list[tuple[int, int]]]:
    """Every run the placement forms (main first, then one perpendicular run per placed
    tile) as ``[(board_letter, -1) or (0, index_in_squares)]``; runs of 1 included."""
    index = {square: i for i, square in enumerate(squares)}
    new = dict.fromkeys(squares, 0)
    runs = [_run(board, new, *squares[0], direction)]
    runs += [_run(board, new, r, c, direction.other) for r, c in squares]
    return [[(0, index[(r, c)]) if is_new else (t & ~BLANK_FLAG, -1) for r, c, t, is_new in run] for run in runs]


def _fillings(rack: list[int] | tuple[int, ...], allowed: list[list[int]], blank: int):
    """Every ordered selection of ``len(allowed)`` tiles of ``rack`` (each distinct one
    once), every bare blank designated as each letter; square ``i`` only gets a letter
    in ``allowed[i]`` (a natural tile, or a blank standing for it)."""
    left: dict[int, int] = {}
    for tile in rack:
        left[tile] = left.get(tile, 0) + 1
    chosen: list[int] = []

    def select(i: int):
        if i == len(allowed):
            yield list(chosen)
            return
        for tile in list(left):
            if left[tile] and (tile == blank or tile in allowed[i]):
                left[tile] -= 1
                chosen.append(tile)
                yield from select(i + 1)
                chosen.pop()
                left[tile] += 1

    for selection in select(0):
        choices = [[letter | BLANK_FLAG for letter in allowed[i]] if tile == blank else [tile]
                   for i, tile in enumerate(selection)]
        yield from product(*choices)


def _run(board: Board, new: dict[tuple[int, int], int], row: int, col: int, direction: Direction):
    """The maximal run of tiles through (row, col) along ``direction``: [(r, c, tile, is_new)]."""
    dr, dc = direction.step

    def at(r: int, c: int) -> int | None:
        if not (0 <= r < SIZE and 0 <= c < SIZE):
            return None
        return board.tiles[r][c] if board.tiles[r][c] is not None else new.get((r, c))

    r, c = row, col
    while at(r - dr, c - dc) is not None:
        r, c = r - dr, c - dc
    run = []
    while at(r, c) is not None:
        run.append((r, c, at(r, c), (r, c) in new))
        r, c = r + dr, c + dc
    return run


def formed(board: Board, placed: tuple[tuple[int, int, int], ...], direction: Direction):
    """The words (of 2+ tiles) the placement forms: [(tiles, run)], main word first."""
    new = {(r, c): t for r, c, t in placed}
    runs = [_run(board, new, placed[0][0], placed[0][1], direction)]
    runs += [_run(board, new, r, c, direction.other) for r, c, _ in placed]
    return [(tuple(t for _, _, t, _ in run), run) for run in runs if len(run) >= 2]


def score_placement(board: Board, placed: tuple[tuple[int, int, int], ...], direction: Direction) -> int:
    """I.2 scoring: each formed word is the sum of its tiles' points (letter premium
    under new tiles only, blanks 0) times the word premiums under new tiles; +50
    when all 7 rack tiles are played."""
    alphabet = board.alphabet
    layout = board.layout
    total = 0
    for _, run in formed(board, placed, direction):
        points, multiplier = 0, 1
        for r, c, tile, is_new in run:
            value = 0 if tile & BLANK_FLAG else alphabet.letters[tile].points
            if is_new:
                value *= layout.letter_mult[r][c]
                multiplier *= layout.word_mult[r][c]
            points += value
        total += points * multiplier
    if len(placed) == RACK:
        total += BINGO
    return total


def as_move(board: Board, placed: tuple[tuple[int, int, int], ...], direction: Direction) -> Move:
    """The placement written as a ``Move`` (start of the main run, board tiles as plain letters)."""
    new = {(r, c): t for r, c, t in placed}
    run = _run(board, new, placed[0][0], placed[0][1], direction)
    word = tuple(t if is_new else t & ~BLANK_FLAG for _, _, t, is_new in run)
    return Move(run[0][0], run[0][1], direction, word)
