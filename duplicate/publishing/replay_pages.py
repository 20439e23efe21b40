"""Replay pages: a game round by round, as a static HTML page (issue 27 §3; III.15, III.23).

For every round the page shows the board after the master (an HTML table: premium
squares, the tiles placed by that master marked, a digraph tile CH/LL/RR as one tile with
its own style, a blank in lower case and in another colour), the rack (III.12, III.17), the
master, its points and cumulative, the number of moves tying for the top score (III.15)
and, for a tournament game, each player's move, status and points (III.23, III.25). Each
round is an anchor (``#ronda-N``) with links to the previous and next rounds and an index
of all rounds. No JavaScript; links are relative, so the page works from a USB stick.

* ``replay_of_results(game, rounds, alphabet)``: the rounds of a played game, from its
  published results (``duplicate.publishing.results.GameResults``) and the service's rounds (the board
  before each master, as CGP);
* ``replay_of_prepared(prepared, alphabet)``: the rounds of a prepared game (no players),
  its masters placed one after the other on an empty board;
``duplicate.publishing.site`` writes ``partida-N-repeticion.html`` for every published game, and
``publish_prepared`` the standalone page of a prepared game (``duplicada prepared publish
FILE.json -o DIR``).
Raises nothing for a record whose board does not read back: that round shows the board
as far as it reads (as the final board of the game page does).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from duplicate.prepared.file import PreparedGame
from duplicate.publishing.result_values import SLIP_STATUS_LABELS, BoardCell, GameResults, PlayerInfo, split_move
from duplicate.publishing.results import board_rows
from duplicate.rules.notation import SlipError, parse_move
from duplicate.rules.rack import shown_rack
from duplicate.rules.slips import SlipStatus
from duplicate.service.views import RoundView
from lexicon.alphabet import Alphabet
from lexicon.board import Board, BoardError, standard_layout
from lexicon.move import PlacementError, placed_tiles

__all__ = ["ReplayMove", "ReplayRound", "replay_of_prepared", "replay_of_results",
           "replay_page_name"]

def replay_page_name(number: int) -> str:
    """File name of game ``number``'s replay page in a publication: ``partida-N-repeticion.html``."""
    return f"partida-{number}-repeticion.html"


@dataclass(frozen=True)
class ReplayMove:
    """A player's slip in a round: table, coordinate and word as read (or as typed when
    not valid), points, bonus (III.24), status (``SlipStatus`` value) and its Spanish label."""

    player: PlayerInfo
    table: int
    coordinate: str
    word: str
    points: int
    bonus: int
    status: str
    label: str


@dataclass(frozen=True)
class ReplayRound:
    """One round of a replay: ``number``, ``rack`` (as people read it: ``LAADDE[CH]``), the
    ``master`` split in ``coordinate`` and ``word``, its ``score`` and ``cumulative`` points,
    ``top_count`` moves tying for the top score (III.15), ``board`` after the master (15
    rows of 15 ``BoardCell``; the master's tiles ``new``) and ``moves`` (table order)."""

    number: int
    rack: str
    coordinate: str
    word: str
    score: int
    cumulative: int
    top_count: int
    board: tuple[tuple[BoardCell, ...], ...]
    moves: tuple[ReplayMove, ...] = ()


def _place(board: Board, master: str, alphabet: Alphabet) -> frozenset[tuple[int, int]]:
    """Place ``master`` (canonical notation) on ``board``; the squares it filled (none when
    the master does not read or does not fit: the board is then left as it was)."""
    try:
        placed = placed_tiles(board, parse_move(master, alphabet))
        board.place(placed)
    except (BoardError, SlipError, PlacementError):
        return frozenset()
    return frozenset((row, col) for row, col, _tile in placed)


def replay_of_results(game: GameResults, rounds: Sequence[RoundView], alphabet: Alphabet) -> tuple[ReplayRound, ...]:
    """The replay of a played game: per master of ``game`` (``GameResults.masters``), the
    board of the service's round of the same number (``rounds``) with the master placed,
    and every player's follow-up line (``GameResults.sheets``) in table order."""
    views = {view.number: view for view in rounds}
    layout = standard_layout()
    lines = sorted(game.standings, key=lambda line: (line.table, line.player.name))
    result = []
    for index, master in enumerate(game.masters):
        view = views.get(master.number)
        board = Board(alphabet, layout)
        new: frozenset[tuple[int, int]] = frozenset()
        if view is not None:
            try:
                board = Board.from_cgp(view.board_before, alphabet, layout)
            except BoardError:
                board = Board(alphabet, layout)
            if view.master:
                new = _place(board, view.master, alphabet)
        moves = []
        for line in lines:
            sheet = game.sheets.get(line.player.entry_id, ())
            if index >= len(sheet):
                continue
            item = sheet[index]
            label = "" if item.status == SlipStatus.VALID.value else SLIP_STATUS_LABELS.get(item.status, item.status)
            moves.append(ReplayMove(line.player, line.table, item.coordinate, item.word, item.points, item.bonus,
                                    item.status, label))
        result.append(ReplayRound(master.number, master.rack, master.coordinate, master.word, master.score,
                                  master.cumulative, master.top_count, board_rows(board, alphabet, new),
                                  tuple(moves)))
    return tuple(result)


def replay_of_prepared(prepared: PreparedGame, alphabet: Alphabet) -> tuple[ReplayRound, ...]:
    """The replay of a prepared game (no players): its masters placed in order on an empty
    board of the standard layout (I.2)."""
    board = Board(alphabet, standard_layout())
    result = []
    for step in prepared.rounds:
        new = _place(board, step.master, alphabet)
        coordinate, word = split_move(step.master)
        result.append(ReplayRound(step.number, shown_rack(step.rack, alphabet), coordinate, word, step.score,
                                  step.cumulative, step.equal_tops, board_rows(board, alphabet, new)))
    return tuple(result)
