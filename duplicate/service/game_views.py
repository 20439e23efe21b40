"""A game as the front ends show it, taken from the engine (issue 24 §2): the service
builds a frozen ``GameView`` under its engine lock, so that no front end holds the live
``Game``. The board and the racks are values (issue 34 §4: cells and tiles, no text a
front end would parse back); ``paper_board_placement`` lays a paper board's word on such
a board, for the screen that shows it (II.8, III.20.1.c–d)."""

from __future__ import annotations

from duplicate.rules.announce import announcement_order
from duplicate.rules.board_notation import BoardNotationError, BoardSlip, placed_word
from duplicate.rules.game import Game
from duplicate.rules.notation import format_move
from duplicate.rules.rack import shown_rack
from duplicate.service.errors import DamagedData
from duplicate.service.views import (
    BagView,
    BoardCells,
    ClockView,
    GameView,
    MasterPlaced,
    PaperPlacement,
    RackInPlay,
    TopMove,
    board_cells,
    rack_tiles,
)
from lexicon.alphabet import BLANK_FLAG, AlphabetError, spanish
from lexicon.board import Board, BoardError, Direction
from lexicon.move import placed_tiles


def game_view_of(number: int, engine: Game, board_before_last: str | None,
                 clock: ClockView | None, tops: int | None) -> GameView:
    """Game ``number`` as ``engine`` has it now: ``board_before_last`` is the board (CGP)
    before the last master (None before the first), ``clock`` the shared timer
    (``clock_view``); the rack in play with its first ``tops`` moves of top score in the
    III.15 order and their reasons (``tops=None``: the moves are not generated; no tops,
    counts 0). Call it under the service's engine lock. Raises ``DamagedData`` when the
    stored board before the last master does not read."""
    alphabet = engine.alphabet
    rack: RackInPlay | None = None
    pending = engine.pending
    if pending is not None:
        ranked = pending.ranked if tops is not None else ()
        rack = RackInPlay(
            pending.number, rack_tiles(announcement_order(pending.rack.leftover, (), alphabet), alphabet),
            rack_tiles(pending.rack.drawn, alphabet),
            tuple(f"{shown_rack(redraw.rack, alphabet)}: {redraw.reason}" for redraw in pending.redraws),
            tuple(TopMove(format_move(move.move, alphabet), move.score, move.reason, alphabet.display(move.leave))
                  for move in ranked[:tops]),
            len(ranked), pending.move_count if tops is not None else 0)
    last: MasterPlaced | None = None
    if engine.records and board_before_last is not None:
        record = engine.records[-1]
        try:
            before = Board.from_cgp(board_before_last, alphabet)
        except BoardError as error:
            raise DamagedData(f"el tablero guardado antes de la maestra de la ronda {record.number} no se puede "
                              f"leer ({error}): la base de datos está dañada; restaure una copia") from None
        last = MasterPlaced(record.number, record.master, record.score, record.cumulative,
                            frozenset((row, col) for row, col, _ in placed_tiles(before, record.move)))
    counts = engine.bag.counts()
    return GameView(number, board_cells(engine.board), engine.round_number,
                    BagView(len(engine.bag), counts.vowels, counts.consonants, counts.blanks),
                    rack_tiles(announcement_order(engine.leftover, (), alphabet), alphabet), rack, last,
                    len(engine.records), engine.over, str(engine.end_reason or ""),
                    clock)


def paper_board_placement(board: BoardCells, row: int, col: int, across: bool, letters: str) -> PaperPlacement:
    """``letters`` (notation text: a lowercase letter is a blank, III.20.3; ``[C]H`` two
    tiles) laid on ``board`` (a round's board, Spanish tiles, I.2) from the 0-based
    ``row`` and ``col`` of the first new tile, ``across`` or down, stepping over the
    squares already occupied (``duplicate.rules.board_notation.placed_word``): the board form
    typed, the canonical notation of the main word (III.20.1.a), the board with the word
    on it and the squares of the new tiles. Raises ``BoardNotationError`` (Spanish) when
    a letter is not of the alphabet, there are none, or the word leaves the board."""
    alphabet = spanish()
    lexicon_board = Board(alphabet)
    try:
        for r, line in enumerate(board.rows):
            for c, cell in enumerate(line):
                if cell.letter is not None:
                    lexicon_board.tiles[r][c] = alphabet.code(cell.letter) | (BLANK_FLAG if cell.blank else 0)
    except AlphabetError as error:
        raise BoardNotationError(f"el tablero tiene una ficha que no es del alfabeto: {error}") from None
    direction = Direction.ACROSS if across else Direction.DOWN
    move, placed = placed_word(lexicon_board, row, col, direction, letters)
    lexicon_board.place(placed)
    return PaperPlacement(BoardSlip(row, col, direction, letters).text, format_move(move, alphabet),
                          board_cells(lexicon_board), frozenset((r, c) for r, c, _ in placed))
