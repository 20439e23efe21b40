"""The checker's own referee of a round's slips (III.20, III.25, III.29), for ``duplicada verify``.

``RoundJudge`` judges a slip's raw text against the round's board and rack with the
engine's notation checker (``duplicate.rules.notation.check_move``, the shared referee) and
gives a ``Verdict``: the status code of the record format, the score, the tiles placed.
It does not use ``duplicate.rules.slips`` (the service's judge): the record is checked by code
apart from the code that wrote it. In an annulled round (III.29) a slip whose move is the
master is ``annulled``: the checker accepts it, or rejects it only for its words, and it
places exactly the master's tiles (blanks included).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from duplicate.rules.notation import (
    FirstMoveError,
    InvalidWordError,
    MisplacedError,
    NotationSyntaxError,
    NotConnectedError,
    OffBoardError,
    SlipError,
    TilesNotInRackError,
    UnmarkedBlankError,
    check_move,
    parse_move,
)
from lexicon.board import Board
from lexicon.move import Move, PlacementError, placed_tiles

if TYPE_CHECKING:   # the compiled lexicon loads numpy: annotations only (issue 38)
    from lexicon.lexicon import Lexicon

__all__ = ["RoundJudge", "Verdict"]

_ERROR_STATUS: tuple[tuple[type[SlipError], str], ...] = (
    (NotationSyntaxError, "syntax"),
    (OffBoardError, "off_board"),
    (MisplacedError, "misplaced"),
    (NotConnectedError, "not_connected"),
    (FirstMoveError, "not_connected"),
    (TilesNotInRackError, "not_in_rack"),
    (UnmarkedBlankError, "unmarked_blank"),
    (InvalidWordError, "invalid_word"),
)
"""``check_move`` errors → slip status codes."""


@dataclass(frozen=True)
class Verdict:
    """A slip judged from its text: ``status`` (a code of ``duplicate.record.reading.SLIP_STATUSES``),
    ``score`` in points (0 unless valid), ``placed`` — the ``(row, col, tile)``
    tiles of the move for a valid slip, else None — ``reason`` (Spanish, empty
    for a valid slip) and ``move``, the canonical notation of a valid slip's move
    (else None)."""

    status: str
    score: int
    placed: frozenset[tuple[int, int, int]] | None
    reason: str
    move: str | None = None


class RoundJudge:
    """The referee of one round: judges slip texts against the round's board and
    rack with ``duplicate.rules.notation.check_move`` (III.20, III.25, I.2).

    ``board``: the board before the master move; ``rack``: tile codes
    (``alphabet.blank`` for a blank); ``oriented``: oriented notation accepted
    (III.20.1.b); ``master`` and ``annulled``: when the round is annulled (III.29)
    a slip whose move is the master is ``annulled`` (0 points). Identical texts are
    judged once, and identical moves read once (cached). The board must not change while the judge is used.
    """

    def __init__(self, board: Board, rack: Sequence[int], lexicon: Lexicon, *, oriented: bool,
                 master: Move | None = None, annulled: bool = False) -> None:
        self.board = board
        self.rack = tuple(rack)
        self.lexicon = lexicon
        self.oriented = oriented
        self._master_placed: frozenset[tuple[int, int, int]] | None = None
        if annulled and master is not None:
            try:
                self._master_placed = frozenset(placed_tiles(board, master))
            except PlacementError:
                self._master_placed = None
        self._cache: dict[str, Verdict] = {}
        self._placed: dict[str, frozenset[tuple[int, int, int]] | None] = {}

    def judge(self, text: str) -> Verdict:
        """The verdict on a slip written as ``text`` (see ``Verdict``)."""
        verdict = self._cache.get(text)
        if verdict is None:
            verdict = self._cache[text] = self._judge(text)
        return verdict

    def _judge(self, text: str) -> Verdict:
        try:
            placement = check_move(self.board, self.rack, text, self.lexicon, oriented=self.oriented)
        except InvalidWordError as error:
            if self._is_master(text):
                return _annulled_verdict()
            return Verdict("invalid_word", 0, None, str(error))
        except SlipError as error:
            return Verdict(_status_of(error), 0, None, str(error))
        placed = frozenset(placement.placed)
        if self._master_placed is not None and placed == self._master_placed:
            return _annulled_verdict()
        return Verdict("valid", placement.score, placed, "", placement.notation)

    def _is_master(self, text: str) -> bool:
        """True when the round is annulled and ``text`` places exactly the master's tiles."""
        if self._master_placed is None:
            return False
        try:
            move = parse_move(text, self.board.alphabet, oriented=self.oriented)
            return frozenset(placed_tiles(self.board, move)) == self._master_placed
        except (SlipError, PlacementError):
            return False

    def placed_of(self, notation: str) -> frozenset[tuple[int, int, int]] | None:
        """The tiles a move written in canonical notation places on the board, or None
        if it cannot be read or does not fit. Each notation read once (cached)."""
        if notation in self._placed:
            return self._placed[notation]
        try:
            placed: frozenset[tuple[int, int, int]] | None = frozenset(
                placed_tiles(self.board, parse_move(notation, self.board.alphabet, oriented=False)))
        except (SlipError, PlacementError):
            placed = None
        self._placed[notation] = placed
        return placed


def _annulled_verdict() -> Verdict:
    return Verdict("annulled", 0, None, "jugada maestra anulada (III.29): quien la jugó recibe 0 puntos")


def _status_of(error: SlipError) -> str:
    for error_class, status in _ERROR_STATUS:
        if isinstance(error, error_class):
            return status
    return f"error {type(error).__name__}"
