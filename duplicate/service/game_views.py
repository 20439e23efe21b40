"""A game as the front ends show it, taken from the engine (issue 24 §2): the service
builds a frozen ``GameView`` under its engine lock, so that no front end holds the live
``Game``."""

from __future__ import annotations

from duplicate.rules.game import Game
from duplicate.rules.notation import format_move
from duplicate.rules.rack import shown_rack
from duplicate.service.views import BagView, ClockView, GameView, MasterPlaced, RackInPlay, TopMove
from lexicon.board import Board
from lexicon.move import placed_tiles


def game_view_of(number: int, engine: Game, board_before_last: str | None,
                 clock: tuple[int | None, float, bool] | None, tops: int | None) -> GameView:
    """Game ``number`` as ``engine`` has it now: ``board_before_last`` is the board (CGP)
    before the last master (None before the first), ``clock`` the shared timer
    (``timer_state``); the rack in play with its first ``tops`` moves of top score in the
    III.15 order and their reasons (``tops=None``: the moves are not generated; no tops,
    counts 0). Call it under the service's engine lock."""
    alphabet = engine.alphabet
    rack: RackInPlay | None = None
    pending = engine.pending
    if pending is not None:
        ranked = pending.ranked if tops is not None else ()
        rack = RackInPlay(
            pending.number, tuple(pending.rack.leftover), tuple(pending.rack.drawn),
            tuple(f"{shown_rack(redraw.rack, alphabet)}: {redraw.reason}" for redraw in pending.redraws),
            tuple(TopMove(format_move(move.move, alphabet), move.score, move.reason, alphabet.display(move.leave))
                  for move in ranked[:tops]),
            len(ranked), pending.move_count if tops is not None else 0)
    last: MasterPlaced | None = None
    if engine.records and board_before_last is not None:
        record = engine.records[-1]
        before = Board.from_cgp(board_before_last, alphabet)
        last = MasterPlaced(record.number, record.master, record.score, record.cumulative,
                            frozenset((row, col) for row, col, _ in placed_tiles(before, record.move)))
    counts = engine.bag.counts()
    return GameView(number, alphabet, engine.board.to_cgp(), engine.round_number,
                    BagView(len(engine.bag), counts.vowels, counts.consonants, counts.blanks),
                    tuple(engine.leftover), rack, last, len(engine.records), engine.over,
                    str(engine.end_reason or ""), None if clock is None else ClockView(*clock))
