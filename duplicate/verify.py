"""The independent checker of a tournament record (``duplicada verify``).

In the spirit of the free checkers FIDE demands for pairing programs (FIDE
handbook C.04.2): given a tournament record (``docs/tournament-record.md``,
format ``duplicada-tournament-1``) and a lexicon, recompute every derived value
from the raw parts — racks, master moves, slip texts, settings, seating — and
list every difference with the values stored in the record.

Public API:

* ``load_record(path) -> dict`` reads and checks the shape of a record file;
  raises ``RecordError`` (Spanish message naming the file) — never a traceback.
* ``verify_record(record, lexicon) -> list[Difference]`` the differences, in
  record order (the lexicon hash first).
* ``run_verify(path, lexicon_path, out) -> int`` the command: prints a Spanish
  report to ``out`` and returns the exit code (0 no difference, 1 differences,
  2 unreadable record or lexicon).
* The reference computations, usable to *build* a consistent record (the
  benchmark does): ``RoundJudge`` (a slip's status and score, III.20, III.25,
  III.29), ``round_bonuses`` (III.24), ``game_standings`` (III.23, III.28),
  ``tournament_standings`` (IV.31).

Independence: this module does **not** import ``duplicate.standings`` or
``duplicate.slips``; bonuses and standings are recomputed here with small,
separate code. It does use the engine's board, scoring, notation checker
(``check_move``, the shared referee) and move generator.

What is checked (the record's semantics, ``docs/tournament-record.md``):

* the lexicon hash of the record against the lexicon given (one difference,
  reported first; the check goes on);
* boards: the first round's ``board_before`` is empty, each next one is the
  previous board with the previous master placed; the master is a legal move
  of ``rack`` on it scoring ``master_score``; ``top_score`` and ``top_moves``
  (the set of canonical texts) are what ``lexicon.movegen.generate_top`` gives;
  ``cumulative`` is the running sum of master scores;
* slips: every player seated in the game (``tables``) has exactly one slip a
  round, at his table; ``late``/``null``/``missing`` slips score 0; a slip is
  ``annulled`` (0 points) exactly when its round is annulled and its move is the
  master (III.29); any other slip is re-judged from its raw ``text`` with
  ``check_move`` (oriented notation per the setting) and its status, score and,
  for a valid slip, ``move`` must match;
* bonuses per round (III.24), game standings (III.23, III.28), tournament
  standings (IV.31); floats compared with a tolerance of ``TOLERANCE``.

Decisions where the rules or the record format leave room (reported, not guessed):

* **Derived values are recomputed from the raw parts, and the recomputed
  values feed what follows**: the next board is built from the recomputed board,
  ``cumulative`` sums the recomputed master scores, bonuses and standings use the
  re-judged slip scores. A tampered value thus gives one difference, at the place
  it was tampered, not a cascade. Only where a value cannot be recomputed (a rack
  or master that cannot be read, a master that does not fit the board) is the
  stored value used downstream, after reporting why.
* **Annulled round (III.29)**: its master is "an incorrect move" by definition,
  so it is not required to be legal; it must only fit the board, and its score
  is the I.2 score of the tiles it places (``score_move``). A slip "is the
  master" when the checker accepts it, or rejects it only for its words
  (``invalid_word``), and it places exactly the master's tiles (blanks included).
* ``late``, ``null`` and ``missing`` are the arbiter's verdicts, not derivable
  from the text: accepted as stored (score must be 0), even in an annulled round.
* The slip's ``move`` is checked only for ``valid`` slips (the same placement as
  the judged move; a different notation of the same placement is accepted).
* A bonus entry of 0 is the same as no entry.
* A seated player with no slip in a round is reported once and counts 0 points
  for that round; a second slip of the same player is reported and ignored.
* "Sole top scorer" (III.28, second tie-break) is the only seated player with
  the round's best score, provided it is above 0 (as for the bonus of III.24);
  "at the master" is a score ≥ ``master_score`` (above it only after a lower
  master, III.29); the gap is ``master_score − score``, the worst gap at least 0.
* The game places used by ``average_place`` are the game standings' positions
  (with III.28 when the ``tie_breaks`` setting is on).
* A game with master total 0 has percentage 0.
* Tournament standings (IV.31) list every player seated in at least one game;
  every game of the record counts, whatever its ``status``; the III.28 tie-break
  over all rounds is always applied to the tournament's remaining ties (the
  ``tie_breaks`` setting is for game standings, as the format says).
* ``average_percentage`` is a percentage (0–100), like every percentage of the
  format: 100 × mean over the rounds with ``master_score`` > 0 of score/master.
* The ``events`` log is checked against the stored figures by
  ``duplicate.record_events`` (issue 14 §5); game ``status``, ``planned_rounds`` and
  ``end_reason`` are not checked.
"""

from __future__ import annotations

import json
import math
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from pathlib import Path
from typing import Any, TextIO, cast

from data.rules import RACK_SIZE
from duplicate.input_files import InputFileError, read_text
from duplicate.notation import (
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
    format_move,
    parse_move,
)
from duplicate.rack import RackError, beyond_tile_set, parse_rack_text
from duplicate.texts import visible
from lexicon.board import Board, BoardError
from lexicon.lexicon import Lexicon, LexiconError
from lexicon.move import Move, PlacementError, placed_tiles, score_move
from lexicon.movegen import generate_top

__all__ = [
    "BONUS_MODES",
    "CRITERIA",
    "RECORD_FORMAT",
    "SLIP_STATUSES",
    "TOLERANCE",
    "Difference",
    "GameStanding",
    "RecordError",
    "RoundJudge",
    "RoundResult",
    "TournamentStanding",
    "Verdict",
    "game_standings",
    "load_record",
    "round_bonuses",
    "run_verify",
    "tournament_standings",
    "verify_record",
]

RECORD_FORMAT = "duplicada-tournament-1"
"""``format`` field of a tournament record."""

TOLERANCE = 1e-6
"""Largest accepted difference between a stored float and the recomputed one."""

ARBITER_STATUSES = frozenset({"late", "null", "missing"})
"""Slip statuses set by the arbiter, not derivable from the text (III.13, III.20.4); 0 points."""

SLIP_STATUSES = frozenset({
    "valid", "syntax", "off_board", "misplaced", "not_connected", "not_in_rack", "unmarked_blank",
    "invalid_word", "late", "null", "missing", "annulled",
})
"""Every slip status code of the format."""

BONUS_MODES = frozenset({"automatic", "manual", "off"})
CRITERIA = frozenset({"total", "average_place", "average_percentage", "deviation"})

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


class RecordError(ValueError):
    """A record that cannot be checked: unreadable file or JSON, wrong ``format``,
    a missing key or a value of the wrong type. The message (Spanish) names the
    file (when known), the place in the record and what was expected."""


@dataclass(frozen=True)
class Difference:
    """One value of the record that differs from the recomputed one.

    ``where``: the place, in Spanish (``"partida 2, ronda 5, mesa 12"``,
    ``"clasificación del torneo, jugador 7"``, ``"torneo"``); ``field``: the record's
    key (``"score"``, ``"board_before"``, ...); ``recorded`` / ``expected``: the stored
    and the recomputed value (None when absent); ``message``: Spanish explanation.
    """

    where: str
    field: str
    recorded: object
    expected: object
    message: str

    def __str__(self) -> str:
        return (f"{self.where} — {self.field}: registrado {_show(self.recorded)}, "
                f"esperado {_show(self.expected)}. {self.message}")


def _show(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, default=str)


# --- slips (III.20, III.25, III.29) -----------------------------------------------------


@dataclass(frozen=True)
class Verdict:
    """A slip judged from its text: ``status`` (a code of ``SLIP_STATUSES``),
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
    rack with ``duplicate.notation.check_move`` (III.20, III.25, I.2).

    ``board``: the board before the master move; ``rack``: tile codes
    (``alphabet.blank`` for a blank); ``oriented``: oriented notation accepted
    (III.20.1.b); ``master`` and ``annulled``: when the round is annulled (III.29)
    a slip whose move is the master is ``annulled`` (0 points). Identical texts are
    judged once (cached). The board must not change while the judge is used.
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
        if it cannot be read or does not fit."""
        try:
            return frozenset(placed_tiles(self.board, parse_move(notation, self.board.alphabet, oriented=False)))
        except (SlipError, PlacementError):
            return None


def _annulled_verdict() -> Verdict:
    return Verdict("annulled", 0, None, "jugada maestra anulada (III.29): quien la jugó recibe 0 puntos")


def _status_of(error: SlipError) -> str:
    for error_class, status in _ERROR_STATUS:
        if isinstance(error, error_class):
            return status
    return f"error {type(error).__name__}"


# --- bonuses and standings (III.23, III.24, III.28, IV.31) ------------------------------


def round_bonuses(scores: Mapping[int, int], top_score: int, mode: str, value: int = 10) -> dict[int, int]:
    """Bonuses of one round (III.24): player id → points (only players who get one).

    ``scores``: round score of every seated player; ``top_score``: the best score
    the program found; ``mode``: ``"automatic"`` — 10 to the only player scoring
    ``top_score``, or else 5 to the only player with the best score if it is > 0;
    ``"manual"`` — ``value`` to the only player with the best score if it is > 0;
    ``"off"`` — none. Raises ``ValueError`` for another mode.
    """
    if mode not in BONUS_MODES:
        raise ValueError(f"modo de bonificación desconocido: {mode!r}")
    if mode == "off" or not scores:
        return {}
    best = max(scores.values())
    leaders = [player for player, score in scores.items() if score == best]
    if mode == "automatic":
        at_top = [player for player, score in scores.items() if score == top_score]
        if at_top:
            return {at_top[0]: 10} if len(at_top) == 1 else {}
        return {leaders[0]: 5} if len(leaders) == 1 and best > 0 else {}
    return {leaders[0]: value} if len(leaders) == 1 and best > 0 else {}


@dataclass(frozen=True)
class RoundResult:
    """What standings need of one round: ``master_score`` and ``top_score`` (points),
    ``scores`` (seated player id → round score, points) and ``bonuses`` (player id →
    bonus points, III.24)."""

    master_score: int
    top_score: int
    scores: Mapping[int, int]
    bonuses: Mapping[int, int]

    @cached_property
    def sole_top(self) -> int | None:
        """The only player with the round's best score, if it is above 0, or None (III.28,
        second criterion)."""
        if not self.scores:
            return None
        best = max(self.scores.values())
        leaders = [player for player, score in self.scores.items() if score == best]
        return leaders[0] if len(leaders) == 1 and best > 0 else None


@dataclass(frozen=True)
class GameStanding:
    """A player's line in a game's standings (III.23): ``position`` (1-based, shared
    by tied players), ``total`` (round scores + bonuses, points), ``bonus`` (points),
    ``percentage`` (100 × round scores / master total, 0 when that total is 0)."""

    position: int
    total: int
    bonus: int
    percentage: float


@dataclass(frozen=True)
class TournamentStanding:
    """A player's line in the tournament standings (IV.31): ``position`` (1-based,
    shared by tied players), ``value`` (the criterion's value) and ``total`` (sum of
    game totals, points)."""

    position: int
    value: float
    total: int


def _tie_break_key(player: int, rounds: Iterable[RoundResult]) -> tuple[int, int, int]:
    """III.28 as a sort key (smaller is better) over ``rounds``: more rounds scoring at
    least the master, more rounds as sole top scorer, smaller largest gap to the
    master. A round where the player is not in ``scores`` counts 0 points."""
    at_master = sole = worst_gap = 0
    for result in rounds:
        score = result.scores.get(player, 0)
        at_master += score >= result.master_score
        sole += result.sole_top == player
        worst_gap = max(worst_gap, result.master_score - score)
    return (-at_master, -sole, worst_gap)


def _competition_positions(keys: Mapping[int, Any]) -> dict[int, int]:
    """Standard competition ranking (1, 1, 3) of players by ascending key."""
    ordered = sorted(keys.values())
    positions: dict[int, int] = {}
    for player, key in keys.items():
        positions[player] = 1 + _count_less(ordered, key)
    return positions


def _count_less(ordered: list[Any], key: Any) -> int:
    low, high = 0, len(ordered)
    while low < high:
        middle = (low + high) // 2
        if ordered[middle] < key:
            low = middle + 1
        else:
            high = middle
    return low


def game_standings(rounds: Sequence[RoundResult], players: Iterable[int], tie_breaks: bool) -> dict[int, GameStanding]:
    """Standings of one game (III.23, III.24, III.28): player id → ``GameStanding``.

    ``players``: the seated players (a player missing from a round's ``scores``
    counts 0 there). Positions by descending total; with ``tie_breaks`` ties are
    broken by III.28 (see ``_tie_break_key``); players still equal share it.
    """
    players = list(players)
    master_total = sum(result.master_score for result in rounds)
    keys: dict[int, Any] = {}
    lines: dict[int, tuple[int, int, float]] = {}
    for player in players:
        points = sum(result.scores.get(player, 0) for result in rounds)
        bonus = sum(result.bonuses.get(player, 0) for result in rounds)
        percentage = 100 * points / master_total if master_total else 0.0
        lines[player] = (points + bonus, bonus, percentage)
        key: tuple[int, ...] = (-(points + bonus),)
        if tie_breaks:
            key += _tie_break_key(player, rounds)
        keys[player] = key
    positions = _competition_positions(keys)
    return {player: GameStanding(positions[player], *lines[player]) for player in players}


def tournament_standings(games: Sequence[tuple[Sequence[RoundResult], Mapping[int, GameStanding]]],
                         criterion: str) -> dict[int, TournamentStanding]:
    """Tournament standings (IV.31): player id → ``TournamentStanding``.

    ``games``: per game, its rounds and its standings (the seated players are the
    standings' keys). Players: everyone seated in at least one game; a missed game
    counts as the last place of that game (its number of seated players), 0 points
    and 0 in each of its rounds. ``criterion``:

    * ``"total"`` — sum of game totals, descending;
    * ``"average_place"`` — mean game position, ascending;
    * ``"average_percentage"`` — 100 × mean over all rounds with master > 0 of
      score/master, descending;
    * ``"deviation"`` — sqrt(sum over all rounds of (master − score)²) / number of
      rounds, ascending.

    Remaining ties: III.28 over all rounds; then the position is shared. Ranking
    keys are exact (integers and fractions), so float rounding never splits a tie.
    Raises ``ValueError`` for an unknown criterion.
    """
    if criterion not in CRITERIA:
        raise ValueError(f"criterio de clasificación desconocido: {criterion!r}")
    players = sorted({player for _rounds, standings in games for player in standings})
    all_rounds = [result for rounds, _standings in games for result in rounds]
    counted = [result for result in all_rounds if result.master_score > 0]
    keys: dict[int, Any] = {}
    values: dict[int, tuple[float, int]] = {}
    for player in players:
        total = sum(standings[player].total for _rounds, standings in games if player in standings)
        place_sum = sum(standings[player].position if player in standings else len(standings)
                        for _rounds, standings in games)
        share = sum((Fraction(result.scores.get(player, 0), result.master_score) for result in counted), Fraction(0))
        squares = sum((result.master_score - result.scores.get(player, 0)) ** 2 for result in all_rounds)
        key: Any
        if criterion == "total":
            key, value = -total, float(total)
        elif criterion == "average_place":
            key, value = place_sum, place_sum / len(games) if games else 0.0
        elif criterion == "average_percentage":
            key, value = -share, float(100 * share / len(counted)) if counted else 0.0
        else:
            key, value = squares, math.sqrt(squares) / len(all_rounds) if all_rounds else 0.0
        keys[player] = (key, *_tie_break_key(player, all_rounds))
        values[player] = (value, total)
    positions = _competition_positions(keys)
    return {player: TournamentStanding(positions[player], *values[player]) for player in players}


# --- reading a record ---------------------------------------------------------------------

_KINDS: dict[str, tuple[str, Callable[[object], bool]]] = {
    "int": ("un número entero", lambda value: isinstance(value, int) and not isinstance(value, bool)),
    "number": ("un número", lambda value: isinstance(value, (int, float)) and not isinstance(value, bool)),
    "str": ("un texto", lambda value: isinstance(value, str)),
    "str?": ("un texto o null", lambda value: value is None or isinstance(value, str)),
    "bool": ("true o false", lambda value: isinstance(value, bool)),
    "list": ("una lista", lambda value: isinstance(value, list)),
    "dict": ("un objeto", lambda value: isinstance(value, dict)),
}
_TOP = {"format": "str", "tournament": "dict", "players": "list", "games": "list", "standings": "list"}
_TOURNAMENT = {"lexicon_hash": "str", "settings": "dict"}
_SETTINGS = {"bonus_mode": "str", "bonus_value": "int", "criterion": "str", "tie_breaks": "bool",
             "oriented_notation": "bool"}
_PLAYER = {"id": "int"}
_GAME = {"number": "int", "tables": "dict", "rounds": "list", "standings": "list"}
_ROUND = {"number": "int", "rack": "str", "board_before": "str", "top_score": "int", "top_moves": "list",
          "master": "str", "master_score": "int", "cumulative": "int", "annulled": "bool", "slips": "list",
          "bonuses": "dict"}
_SLIP = {"player": "int", "table": "int", "text": "str?", "status": "str", "score": "int", "move": "str?"}
_GAME_STANDING = {"player": "int", "position": "int", "total": "int", "bonus": "int", "percentage": "number"}
_STANDING = {"player": "int", "position": "int", "value": "number", "total": "int"}


def _require(value: object, spec: Mapping[str, str], place: str) -> None:
    """Raise ``RecordError`` unless ``value`` is an object with the keys of ``spec``, of their kinds."""
    if not isinstance(value, dict):
        raise RecordError(f"en {place} se esperaba un objeto, no {_show(value)[:60]}")
    for key, kind in spec.items():
        if key not in value:
            raise RecordError(f"en {place} falta la clave «{key}» ({_KINDS[kind][0]})")
        name, accepts = _KINDS[kind]
        if not accepts(value[key]):
            raise RecordError(f"en {place}, «{key}» debe ser {name}, no {_show(value[key])[:60]}")


def _require_map(value: Mapping[str, object], place: str, what: str) -> None:
    """Keys that are player ids written as text, values integers."""
    for key, item in value.items():
        digits = key.lstrip("-")
        if not (digits.isascii() and digits.isdigit() and len(digits) <= 18) or not _KINDS["int"][1](item):
            raise RecordError(f"en {place} se esperaba {what}, no «{key}»: {_show(item)[:40]}")


def _check_shape(record: object) -> None:
    """Raise ``RecordError`` if ``record`` is not a ``duplicada-tournament-1`` record
    with every key the checker reads (see ``docs/tournament-record.md``)."""
    _require(record, _TOP, "el registro")
    assert isinstance(record, dict)
    if record["format"] != RECORD_FORMAT:
        raise RecordError(f"formato {record['format']!r} desconocido: se esperaba «{RECORD_FORMAT}»")
    _require(record["tournament"], _TOURNAMENT, "tournament")
    settings = record["tournament"]["settings"]
    _require(settings, _SETTINGS, "tournament.settings")
    for key, allowed in (("bonus_mode", BONUS_MODES), ("criterion", CRITERIA)):
        if settings[key] not in allowed:
            raise RecordError(f"tournament.settings.{key} = {settings[key]!r}: se esperaba uno de {sorted(allowed)}")
    for index, player in enumerate(record["players"]):
        _require(player, _PLAYER, f"players[{index}]")
    for index, standing in enumerate(record["standings"]):
        _require(standing, _STANDING, f"standings[{index}]")
    for g, game in enumerate(record["games"]):
        _require(game, _GAME, f"games[{g}]")
        _require_map(game["tables"], f"games[{g}].tables", "id de jugador → número de mesa")
        for index, standing in enumerate(game["standings"]):
            _require(standing, _GAME_STANDING, f"games[{g}].standings[{index}]")
        for r, round_ in enumerate(game["rounds"]):
            place = f"games[{g}].rounds[{r}]"
            _require(round_, _ROUND, place)
            _require_map(round_["bonuses"], f"{place}.bonuses", "id de jugador → puntos")
            if not all(isinstance(move, str) for move in round_["top_moves"]):
                raise RecordError(f"en {place}.top_moves se esperaba una lista de textos")
            for s, slip in enumerate(round_["slips"]):
                _require(slip, _SLIP, f"{place}.slips[{s}]")


RECORD_MAX_BYTES = 2**30
"""The largest record file read (a season of a federation is a few tens of MB)."""


class _LongNumber(ValueError):
    def __init__(self, digits: int) -> None:
        super().__init__(digits)
        self.digits = digits


def _json_integer(text: str) -> int:
    """A JSON integer, refused beyond 30 digits (Python would refuse 4,300 with a ValueError)."""
    if len(text) > 30:
        raise _LongNumber(len(text.lstrip("-")))
    return int(text)


def load_record(path: Path | str) -> dict[str, Any]:
    """Read a tournament record (JSON, UTF-8) and check its shape.

    Returns the parsed record. Raises ``RecordError`` — message in Spanish naming
    the file and what was expected — when the file cannot be read, is not JSON, has
    another ``format`` or lacks a key the checker needs (or has it of another kind).
    """
    path = Path(path)
    try:
        text = read_text(path, what="un registro de torneo (JSON)", limit=RECORD_MAX_BYTES)
    except InputFileError as error:
        raise RecordError(str(error)) from None
    try:
        record = json.loads(text, parse_int=_json_integer)
    except _LongNumber as error:
        raise RecordError(f"{path}: un número de {error.digits} cifras; un registro no lleva números tan largos") from None
    except RecursionError:
        raise RecordError(f"{path}: el JSON anida demasiados niveles; se esperaba un registro «{RECORD_FORMAT}»") from None
    except json.JSONDecodeError as error:
        raise RecordError(
            f"{path}: no es JSON válido (línea {error.lineno}, columna {error.colno}: {error.msg}); "
            f"se esperaba un registro «{RECORD_FORMAT}»"
        ) from None
    try:
        _check_shape(record)
    except RecordError as error:
        raise RecordError(f"{path}: {error}") from None
    return cast("dict[str, Any]", record)


# --- the checker ------------------------------------------------------------------------


def verify_record(record: dict[str, Any], lexicon: Lexicon) -> list[Difference]:
    """Every difference between a tournament record and its recomputation.

    ``record``: a parsed ``duplicada-tournament-1`` record (``load_record``);
    ``lexicon``: the lexicon to judge with. Returns the differences in record
    order: the lexicon hash first, then game by game (rounds, slips, bonuses,
    game standings), then the tournament standings; empty when the record is
    consistent; then the stored figures against the record's own event log
    (``duplicate.record_events``: racks, also drawn again from the seed, masters,
    slips, bonuses). Raises ``RecordError`` if the record lacks a key it needs.
    See the module docstring for what is checked and the decisions taken.
    """
    _check_shape(record)
    from duplicate.record_events import event_differences  # it builds on this module's Difference

    return _Checker(record, lexicon).run() + event_differences(record, lexicon)


class _Checker:
    """One verification run: walks the record, collecting ``differences``."""

    def __init__(self, record: dict[str, Any], lexicon: Lexicon) -> None:
        self.record = record
        self.lexicon = lexicon
        self.alphabet = lexicon.alphabet
        self.settings = record["tournament"]["settings"]
        self.differences: list[Difference] = []
        self.names = {player["id"]: str(player.get("name") or "") for player in record["players"]}

    def add(self, where: str, field: str, recorded: object, expected: object, message: str) -> None:
        self.differences.append(Difference(where, field, recorded, expected, message))

    def player_text(self, player: int) -> str:
        name = self.names.get(player)
        return f"jugador {player} ({name})" if name else f"jugador {player}"

    def run(self) -> list[Difference]:
        recorded_hash = self.record["tournament"]["lexicon_hash"]
        if recorded_hash != self.lexicon.content_hash:
            self.add("torneo", "lexicon_hash", recorded_hash, self.lexicon.content_hash,
                     f"el registro se hizo con otro léxico que el dado ({self.lexicon.name}); "
                     "las papeletas se juzgan con el dado")
        if self.settings["bonus_mode"] == "manual" and self.settings["bonus_value"] not in (5, 10):
            self.add("torneo", "bonus_value", self.settings["bonus_value"], "5 o 10",
                     "en gestión manual la bonificación es de 5 o 10 puntos (III.24); se aplica la registrada")
        ids = Counter(player["id"] for player in self.record["players"])
        for player, count in sorted(ids.items()):
            if count > 1:
                self.add("jugadores", "id", player, None, f"el id {player} aparece {count} veces en «players»")
        games = [self.check_game(game) for game in self.record["games"]]
        # A game with no round played yet classifies nobody (IV.31 counts played games).
        expected = tournament_standings([game for game in games if game[0]], self.settings["criterion"])
        self.compare_standings("clasificación del torneo", self.record["standings"], expected,
                               ("position", "value", "total"), "IV.31")
        return self.differences

    # --- a game ---------------------------------------------------------------------------
    def check_game(self, game: dict[str, Any]) -> tuple[list[RoundResult], dict[int, GameStanding]]:
        number = game["number"]
        seated = {int(player): table for player, table in game["tables"].items()}
        for player in seated:
            if player not in self.names:
                self.add(f"partida {number}", "tables", player, None,
                         f"el jugador {player} está sentado en la partida pero no figura en «players»")
        for table, count in sorted(Counter(seated.values()).items()):
            if count > 1:
                self.add(f"partida {number}", "tables", table, None, f"{count} jugadores sentados en la mesa {table}")
        board: Board | None = Board(self.alphabet)
        results = []
        cumulative = 0
        for index, round_ in enumerate(game["rounds"]):
            where = f"partida {number}, ronda {round_['number']}"
            if round_["number"] != index + 1:
                self.add(where, "number", round_["number"], index + 1, "las rondas deben ir numeradas 1, 2, 3…")
            result, board = self.check_round(where, round_, board, seated)
            cumulative += result.master_score
            if round_["cumulative"] != cumulative:
                self.add(where, "cumulative", round_["cumulative"], cumulative,
                         "el acumulado debe ser la suma de las puntuaciones de las jugadas maestras hasta esta ronda")
            results.append(result)
        expected = game_standings(results, seated, self.settings["tie_breaks"])
        rule = "III.23, III.28" if self.settings["tie_breaks"] else "III.23"
        self.compare_standings(f"partida {number}, clasificación", game["standings"], expected,
                               ("position", "total", "bonus", "percentage"), rule)
        return results, expected

    # --- a round --------------------------------------------------------------------------
    def check_round(self, where: str, round_: dict[str, Any], board: Board | None,
                    seated: Mapping[int, int]) -> tuple[RoundResult, Board | None]:
        """Check one round against ``board`` (the recomputed board before it, None if the
        chain is broken); returns the round's result and the board after its master."""
        board = self.check_board(where, round_["board_before"], board)
        try:
            rack: list[int] | None = parse_rack_text(round_["rack"], self.alphabet)
        except RackError as error:
            self.add(where, "rack", round_["rack"], None, f"atril ilegible: {error}; las papeletas no se juzgan")
            rack = None
        if rack is not None:
            # A rack comes from the tile set (I.2, III.12): at most 7 tiles, 2 blanks, no more of a
            # letter than the set has, the board's tiles included — checked before any move is
            # generated (a forged 7-blank rack took over a minute).
            on_board = [tile for row in board.tiles for tile in row if tile is not None] if board is not None else []
            problem = (f"{len(rack)} fichas; un atril tiene como máximo {RACK_SIZE}" if len(rack) > RACK_SIZE
                       else beyond_tile_set(on_board + rack, self.alphabet))
            if problem is not None:
                self.add(where, "rack", round_["rack"], None,
                         f"el atril no sale de la bolsa: {problem} (I.2, III.12); las papeletas no se juzgan")
                rack = None
        try:
            master: Move | None = parse_move(round_["master"], self.alphabet, oriented=False)
        except SlipError as error:
            self.add(where, "master", round_["master"], None, f"jugada maestra ilegible: {error}")
            master = None
        master_score = self.check_master(where, round_, board, rack, master)
        top_score = self.check_top(where, round_, board, rack)
        judge = None
        if board is not None and rack is not None:
            judge = RoundJudge(board, rack, self.lexicon, oriented=self.settings["oriented_notation"],
                               master=master, annulled=round_["annulled"])
        scores = self.check_slips(where, round_, seated, judge)
        # Bonuses are awarded when the round is closed (III.24): none while slips may still come.
        bonuses = (round_bonuses(scores, top_score, self.settings["bonus_mode"], self.settings["bonus_value"])
                   if round_.get("closed", True) else {})
        self.check_bonuses(where, round_, seated, scores, top_score, bonuses)
        after = None
        if board is not None and master is not None:
            try:
                after = board.copy()
                after.place(placed_tiles(board, master))
            except (PlacementError, BoardError):
                after = None
        return RoundResult(master_score, top_score, scores, bonuses), after

    def check_board(self, where: str, text: str, expected: Board | None) -> Board | None:
        """Compare the stored board with the recomputed one; return the board to judge on."""
        problem = ""
        try:
            recorded: Board | None = Board.from_cgp(text, self.alphabet)
        except BoardError as error:
            recorded = None
            problem = f"tablero ilegible: {error}"
        if expected is None:
            if recorded is None:
                self.add(where, "board_before", text, None, problem + "; la ronda no se puede juzgar")
            return recorded
        if recorded is None or recorded.tiles != expected.tiles:
            detail = problem if recorded is None else "no coincide con el tablero de la ronda anterior más su jugada maestra"
            self.add(where, "board_before", text, expected.to_cgp(), detail)
        return expected

    def check_master(self, where: str, round_: dict[str, Any], board: Board | None, rack: list[int] | None,
                     master: Move | None) -> int:
        """Check the master's legality and score; return the master score to use downstream."""
        recorded = round_["master_score"]
        if board is None or master is None:
            return cast("int", recorded)
        if not round_["annulled"] and rack is not None:
            try:
                return self.compare_master_score(where, recorded, check_move(board, rack, master, self.lexicon).score)
            except SlipError as error:
                self.add(where, "master", round_["master"], None,
                         f"la jugada maestra no es legal con el atril {round_['rack']}: {error}")
        try:
            return self.compare_master_score(where, recorded, score_move(board, master))
        except PlacementError as error:
            self.add(where, "master", round_["master"], None, f"la jugada maestra no cabe en el tablero: {error}")
            return cast("int", recorded)

    def compare_master_score(self, where: str, recorded: int, expected: int) -> int:
        if recorded != expected:
            self.add(where, "master_score", recorded, expected, "la jugada maestra no vale lo registrado (I.2)")
        return expected

    def check_top(self, where: str, round_: dict[str, Any], board: Board | None, rack: list[int] | None) -> int:
        """Check ``top_score`` and ``top_moves`` with the move generator; return the top score."""
        if board is None or rack is None:
            return cast("int", round_["top_score"])
        moves = generate_top(board, rack, self.lexicon)
        if round_["top_score"] != moves.best_score:
            self.add(where, "top_score", round_["top_score"], moves.best_score,
                     "la mejor puntuación posible con este atril y tablero es otra")
        expected = sorted({format_move(scored.move, self.alphabet) for scored in moves.top()})
        recorded = sorted(set(round_["top_moves"]))
        if recorded != expected:
            missing = [move for move in expected if move not in recorded]
            extra = [move for move in recorded if move not in expected]
            parts = []
            if missing:
                parts.append(f"faltan {', '.join(missing[:5])}{'…' if len(missing) > 5 else ''}")
            if extra:
                parts.append(f"sobran {', '.join(extra[:5])}{'…' if len(extra) > 5 else ''}")
            self.add(where, "top_moves", recorded, expected,
                     f"las jugadas de máxima puntuación no son esas: {'; '.join(parts)}")
        return moves.best_score

    # --- slips ----------------------------------------------------------------------------
    def check_slips(self, where: str, round_: dict[str, Any], seated: Mapping[int, int],
                    judge: RoundJudge | None) -> dict[int, int]:
        """Check every slip of the round; return each seated player's round score."""
        scores: dict[int, int] = {}
        for slip in round_["slips"]:
            player, table = slip["player"], slip["table"]
            place = f"{where}, mesa {table}"
            if player not in seated:
                self.add(place, "player", player, None, f"papeleta del {self.player_text(player)}, "
                         "que no está sentado en esta partida")
                continue
            if player in scores:
                self.add(place, "slips", slip["text"], None,
                         f"segunda papeleta del {self.player_text(player)} en esta ronda; se ignora")
                continue
            if table != seated[player]:
                self.add(place, "table", table, seated[player],
                         f"el {self.player_text(player)} está sentado en la mesa {seated[player]}")
            scores[player] = self.check_slip(place, slip, judge)
        for player, table in seated.items():
            if player not in scores and round_.get("closed", True):
                # Closing a round marks every missing slip (III.23); an open round may still get them.
                self.add(f"{where}, mesa {table}", "slips", None, "una papeleta",
                         f"falta la papeleta del {self.player_text(player)}; cuenta 0 puntos")
                scores[player] = 0
        return scores

    def check_slip(self, place: str, slip: dict[str, Any], judge: RoundJudge | None) -> int:
        """Check one slip's status, score and move; return its recomputed score."""
        status, score, text = slip["status"], slip["score"], slip["text"]
        if status in ARBITER_STATUSES:
            if score != 0:
                self.add(place, "score", score, 0, f"una papeleta con estado «{status}» vale 0 puntos (III.25)")
            return 0
        if judge is None:
            return cast("int", score)
        verdict = judge.judge(text or "")
        if verdict.status != status:
            known = "" if status in SLIP_STATUSES else f"«{status}» no es un estado de papeleta; "
            why = verdict.reason or f"el árbitro la da por válida ({verdict.score} puntos)"
            self.add(place, "status", status, verdict.status, f"{known}«{text}»: {why}")
        if verdict.score != score:
            self.add(place, "score", score, verdict.score, f"«{text}» vale {verdict.score} puntos")
        if verdict.status == "valid" == status:
            move = slip["move"]
            if move is None or judge.placed_of(move) != verdict.placed:
                self.add(place, "move", move, None, f"«{text}» no es la jugada registrada")
        return verdict.score

    def check_bonuses(self, where: str, round_: dict[str, Any], seated: Mapping[int, int],
                      scores: Mapping[int, int], top_score: int, expected: Mapping[int, int]) -> None:
        recorded = {int(player): points for player, points in round_["bonuses"].items() if points}
        mode = self.settings["bonus_mode"]
        for player in sorted(set(recorded) | set(expected)):
            if recorded.get(player) == expected.get(player):
                continue
            place = f"{where}, mesa {seated[player]}" if player in seated else where
            if player in expected:
                why = (f"único jugador con {scores[player]} puntos, la mejor puntuación de la ronda "
                       f"(la del programa: {top_score})")
            elif mode == "off":
                why = "el torneo no tiene bonificaciones"
            else:
                why = f"no es el único jugador con la puntuación que da bonificación (hizo {scores.get(player, 0)})"
            self.add(place, "bonuses", recorded.get(player), expected.get(player),
                     f"bonificación del {self.player_text(player)} (III.24, modo {mode}): {why}")

    # --- standings ------------------------------------------------------------------------
    def compare_standings(self, where: str, lines: list[dict[str, Any]],
                          expected: Mapping[int, GameStanding | TournamentStanding],
                          fields: Sequence[str], rule: str) -> None:
        seen: set[int] = set()
        for line in lines:
            player = line["player"]
            place = f"{where}, {self.player_text(player)}"
            if player in seen:
                self.add(place, "player", player, None, "el jugador aparece dos veces en la clasificación")
                continue
            seen.add(player)
            if player not in expected:
                self.add(place, "player", player, None, "el jugador no jugó: no debe figurar en la clasificación")
                continue
            want = expected[player]
            for field in fields:
                got, should = line[field], getattr(want, field)
                if isinstance(should, float) and abs(got - should) <= TOLERANCE:
                    continue
                if got != should:
                    self.add(place, field, got, should, f"recalculado según {rule}")
        for player in expected:
            if player not in seen:
                self.add(f"{where}, {self.player_text(player)}", "player", None, player,
                         "falta el jugador en la clasificación")


# --- the command ------------------------------------------------------------------------


def run_verify(path: Path, lexicon_path: Path | None, out: TextIO) -> int:
    """``duplicada verify``: check the record at ``path`` with the lexicon at
    ``lexicon_path`` (None: the default lexicon, ``lexicon.default``) and print a
    Spanish report to ``out``.

    Returns the exit code: 0 no difference, 1 differences found, 2 the record
    (or the lexicon) cannot be read — the message says why; never a traceback.
    """
    try:
        record = load_record(path)
    except RecordError as error:
        print(f"Error: {error}", file=out)
        return 2
    try:
        if lexicon_path is None:   # the shipped default the record was made with, current or earlier (issue 15)
            from lexicon.default import default_lexicon_path, earlier_default_path

            def announce(message: str) -> None:
                print(message, file=sys.stderr)

            lexicon_path = (earlier_default_path(str(record["tournament"]["lexicon_hash"]), announce)
                            or default_lexicon_path(announce))
        lexicon = Lexicon.load(lexicon_path)
    except LexiconError as error:
        print(f"Error: {error}", file=out)
        return 2
    differences = verify_record(record, lexicon)
    games = record["games"]
    rounds = sum(len(game["rounds"]) for game in games)
    slips = sum(len(round_["slips"]) for game in games for round_ in game["rounds"])
    counts = f"{len(games)} partidas, {rounds} rondas, {slips} papeletas comprobadas"
    if not differences:
        print(f"{path}: sin diferencias: {counts}", file=out)
        return 0
    print(f"{path}: {len(differences)} diferencia{'s' if len(differences) != 1 else ''} "
          f"({counts}; léxico {lexicon.name}):", file=out)
    for difference in differences:
        print(visible(f"- {difference}"), file=out)        # texts of the record as text, never terminal codes
    return 1
