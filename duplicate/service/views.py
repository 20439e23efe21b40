"""Frozen views the service returns to front ends (never ORM rows)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import MISSING, dataclass, field, fields
from datetime import date, datetime, timedelta
from functools import lru_cache
from typing import Any, TypeVar

from duplicate.plurals import counted
from duplicate.rules.rack import shown_rack
from duplicate.rules.slips import SlipVerdict
from duplicate.rules.statuses import EntryStatus
from duplicate.service.errors import DamagedData
from duplicate.storage.models import RoundRow, Tournament
from lexicon.alphabet import BLANK_FLAG, Alphabet
from lexicon.board import ROW_NAMES, SIZE, Board, BoardError, standard_layout


@dataclass(frozen=True)
class GameInfo:
    """A game as listed: number, status (``GameStatus`` value), rounds with a rack,
    planned rounds (None = full bag), seconds per round, why it ended."""

    number: int
    status: str
    rounds: int
    planned_rounds: int | None
    seconds_per_round: int
    end_reason: str | None


@dataclass(frozen=True)
class TournamentInfo:
    """A tournament as plain values (safe to keep after the session is closed).
    ``players``/``active_players`` count this database's entries (the organiser's room and
    its online venues); ``field_active_players`` the active players of the whole event,
    imported venues included (issue 27 §2: the field III.24's bonuses are over)."""

    id: int
    name: str
    venue: str
    start_date: date | None
    end_date: date | None
    lexicon_hash: str
    lexicon_path: str | None
    settings: dict[str, Any]
    players: int
    active_players: int
    games: tuple[GameInfo, ...]
    field_active_players: int

    def field_note(self) -> str:
        """«; N activos en todas las sedes» (Spanish) when imported venues add players to
        this database's entries; empty otherwise."""
        if self.field_active_players == self.active_players:
            return ""
        return f"; {counted(self.field_active_players, 'activo')} en todas las sedes"


def _tournament_info(tournament: Tournament, imported_active: int = 0) -> TournamentInfo:
    active = sum(1 for entry in tournament.entries if entry.status == EntryStatus.ACTIVE.value)
    return TournamentInfo(
        tournament.id, tournament.name, tournament.venue, tournament.start_date, tournament.end_date,
        tournament.lexicon_hash, tournament.lexicon_path, dict(tournament.settings), len(tournament.entries),
        active,
        tuple(GameInfo(game.number, game.status, len(game.rounds), game.planned_rounds, game.seconds_per_round,
                       game.end_reason) for game in tournament.games),
        active + imported_active)


@dataclass(frozen=True)
class EntryResult:
    """What entering a slip did: ``outcome`` is ``accepted``, ``repeated`` (the same
    text was already stored: nothing changed) or ``conflict`` (a different slip is
    stored: a ``Conflict`` for the judge); ``verdict`` the judgement of the typed text;
    ``player`` the player's name."""

    outcome: str
    verdict: SlipVerdict
    table: int
    player: str
    round_number: int
    conflict_id: int | None = None


# --- the board and racks as values (issue 34 §4: no front end parses a serialisation) ----------
BOARD_SIZE = SIZE
"""Squares per side of the board (15)."""


@dataclass(frozen=True)
class Tile:
    """A rack tile as shown: ``text`` its letter in capitals (``"A"``, ``"CH"``, ``"Ñ"``)
    or ``"?"`` for a blank (``blank`` true)."""

    text: str
    blank: bool


@dataclass(frozen=True)
class Cell:
    """One square of the board: ``letter`` the tile on it in capitals (``"CH"``; None:
    empty), ``blank`` whether that tile is a blank standing for the letter (III.20.3);
    ``letter_premium`` and ``word_premium`` the square's multipliers (1, 2 or 3)."""

    letter: str | None
    blank: bool
    letter_premium: int
    word_premium: int

    @property
    def shown(self) -> str | None:
        """The tile as written on boards and slips: a blank's letter in lowercase."""
        return None if self.letter is None else self.letter.lower() if self.blank else self.letter


@dataclass(frozen=True)
class BoardCells:
    """The board as values: ``rows[row][col]`` (row 0 is A, column 0 is 1), 15×15 ``Cell``."""

    rows: tuple[tuple[Cell, ...], ...]

    def cell(self, row: int, col: int) -> Cell:
        """The square of 0-based ``row`` and ``col``."""
        return self.rows[row][col]

    @property
    def empty(self) -> bool:
        """No tile on the board yet."""
        return all(cell.letter is None for line in self.rows for cell in line)

    @staticmethod
    def row_name(row: int) -> str:
        """The letter of 0-based ``row`` (``A``–``O``)."""
        return ROW_NAMES[row]

    @staticmethod
    def square_name(row: int, col: int) -> str:
        """The square as written across: ``H8``."""
        return f"{ROW_NAMES[row]}{col + 1}"


def board_cells(board: Board) -> BoardCells:
    """``board`` as values (its alphabet gives the letters, its layout the premiums)."""
    alphabet, layout = board.alphabet, board.layout
    return BoardCells(tuple(
        tuple(Cell(None if tile is None else alphabet.symbol(tile & ~BLANK_FLAG),
                   tile is not None and bool(tile & BLANK_FLAG),
                   layout.letter_mult[row][col], layout.word_mult[row][col])
              for col, tile in enumerate(line))
        for row, line in enumerate(board.tiles)))


@lru_cache(maxsize=512)
def stored_board_cells(cgp: str, alphabet: Alphabet) -> BoardCells:
    """The stored board ``cgp`` (as ``RoundRow.board_before`` holds it) as values; a
    board that does not read (a damaged row) raises ``DamagedData``. Boards stored never
    change: the answers are kept."""
    try:
        board = Board.from_cgp(cgp, alphabet)
    except BoardError as error:
        raise DamagedData(f"un tablero guardado no se puede leer ({error}): la base de datos está dañada; "
                          "restaure una copia") from None
    return board_cells(board)


@dataclass(frozen=True)
class PaperPlacement:
    """A paper board's word laid on a round's board (II.8, III.20.1.c–d;
    ``paper_board_placement``): ``text`` the board form typed (``"H8 → CASA"``, what the
    slip is entered as), ``canonical`` the notation of the main word it makes
    (III.20.1.a), ``board`` the board with the word on it, ``placed`` the new tiles' squares."""

    text: str
    canonical: str
    board: BoardCells
    placed: frozenset[tuple[int, int]]


def empty_board() -> BoardCells:
    """The empty board of the standard layout."""
    layout = standard_layout()
    return BoardCells(tuple(tuple(Cell(None, False, layout.letter_mult[row][col], layout.word_mult[row][col])
                                  for col in range(SIZE)) for row in range(SIZE)))


def rack_tiles(tiles: Iterable[int], alphabet: Alphabet) -> tuple[Tile, ...]:
    """Rack tile codes as values: ``?`` for a blank."""
    return tuple(Tile("?", True) if tile == alphabet.blank else Tile(alphabet.symbol(tile), False) for tile in tiles)


@dataclass(frozen=True)
class RoundView:
    """A round as stored (see ``RoundRow``), with tops as ``(canonical, score, reason)``;
    ``rack`` is the stored text (it reads back with ``parse_rack_text``), ``rack_shown``
    the same rack as people read it (digraphs in brackets: ``LAADDE[CH]``); ``board``
    the board before the master as cells (``board_before`` is its CGP text, for the
    record and the replay pages)."""

    number: int
    rack: str
    board_before: str
    top_score: int
    top_moves: tuple[tuple[str, int, str], ...]
    move_count: int
    master: str | None
    master_score: int | None
    cumulative: int | None
    annulled: bool
    closed: bool
    redraws: tuple[dict[str, str], ...] = ()  # {"rack": as people read it, "reason": ...}
    leftover: str = ""
    master_reason: str | None = None
    rack_shown: str = ""
    board: BoardCells = field(default_factory=empty_board)
    """``board_before`` as values, for front ends to draw (the CGP text is the record's)."""


@dataclass(frozen=True)
class PendingSlip:
    """A conflict the judge must resolve before the round is closed (II.4.a, III.23):
    ``kind`` ``duplicate`` (a second, different slip) or ``double_entry`` (the re-typed
    slip does not match); the ``stored`` slip and the ``new`` entry, each as typed (a mark
    such as ``late`` when it is one) with the points it scores."""

    conflict_id: int
    table: int
    player: str
    kind: str
    stored: str
    stored_score: int
    new: str
    new_score: int
    entered_by: str


def pending_line(item: PendingSlip) -> str:
    """One pending conflict in Spanish: table, player, both entries with their points."""
    what = "doble entrada" if item.kind == "double_entry" else "dos papeletas"
    return (f"mesa {item.table} ({item.player}), {what}: anotada «{item.stored}» ({item.stored_score} puntos), "
            f"nueva «{item.new}» ({item.new_score} puntos, de {item.entered_by or 'sin nombre'})")


@dataclass(frozen=True)
class RoundStatus:
    """Slips entered versus expected for one round, per assistant (II.4.c), and what the
    judge must resolve before closing it (``pending``)."""

    round_number: int
    expected: int
    entered: int
    missing_tables: tuple[int, ...]
    per_assistant: dict[str, tuple[int, int, tuple[int, ...]]] = field(default_factory=dict)
    pending: tuple[PendingSlip, ...] = ()


@dataclass(frozen=True)
class ClosedRound:
    """What closing a round did (III.24): its ``round_number``, the ``missing_tables``
    whose players handed in no slip (marked ``missing``, 0 points) and the ``bonuses``
    awarded, ``{table: points}``."""

    round_number: int
    missing_tables: tuple[int, ...]
    bonuses: dict[int, int]


def _round_view(row: RoundRow, alphabet: Alphabet) -> RoundView:
    return RoundView(row.number, row.rack, row.board_before, row.top_score,
                     tuple((top[0], top[1], top[2]) for top in row.top_moves), row.move_count, row.master,
                     row.master_score, row.cumulative, row.annulled, row.closed,
                     tuple({**redraw, "rack": shown_rack(redraw["rack"], alphabet)} for redraw in row.redraws or ()),
                     row.leftover, row.master_reason, shown_rack(row.rack, alphabet),
                     stored_board_cells(row.board_before, alphabet))


# --- stored rows as plain values (issue 12 §2: front ends never get ORM rows) -------------
@dataclass(frozen=True)
class PlayerView:
    """A player: id, name, club, country, federation id (None when unknown)."""

    id: int
    name: str
    club: str
    country: str
    federation_id: str | None


@dataclass(frozen=True)
class EntryView:
    """A player's entry in a tournament; ``status`` is an ``EntryStatus`` value; ``venue``
    the online venue the player plays in (issue 27 §2), None for the organiser's room."""

    id: int
    tournament_id: int
    player_id: int
    status: str
    venue: str | None = None


@dataclass(frozen=True)
class SeatView:
    """A player's table in a game (II.6)."""

    game_id: int
    entry_id: int
    table_number: int


@dataclass(frozen=True)
class SlipView:
    """The slip that counts for a player and a round (II.8): the text exactly as typed,
    the move read from it (canonical), its ``SlipStatus`` value, points, the reason and
    hint given, who entered and double-checked it (credential names) and when; ``board``:
    the board form as typed when the slip was written on a paper board (II.8,
    III.20.1.c–d; ``text`` is then the canonical notation derived from it), else None."""

    id: int
    game_id: int
    round_number: int
    entry_id: int
    table_number: int
    text: str
    move: str | None
    status: str
    score: int
    reason: str
    hint: str | None
    entered_by: str
    entered_at: datetime
    checked_by: str | None
    event_id: int | None
    board: str | None = None


@dataclass(frozen=True)
class SetAsideSlipView:
    """A slip set aside when its round's rack was withdrawn (III.29, event
    ``slips_set_aside``): as it was stored (text exactly as typed, ``status`` its
    ``SlipStatus`` value when entered, ``score`` in points it no longer earns), the
    withdrawn ``rack``, the judge's ``reason`` and the id of the event that set it aside.
    It counts for nothing: not in the scores, the conflicts or the missing slips."""

    round_number: int
    table_number: int
    entry_id: int
    text: str
    status: str
    score: int
    entered_by: str
    rack: str
    reason: str
    event_id: int


@dataclass(frozen=True)
class ConflictView:
    """A second, different slip for a player and a round, for the judge to resolve:
    ``kind`` ``duplicate`` or ``double_entry``; ``text`` or ``mark`` is the new entry;
    ``resolution`` None until resolved (``kept``/``replaced``, or ``set_aside`` when the
    rack its round was judged against was withdrawn, III.29)."""

    id: int
    game_id: int
    round_number: int
    entry_id: int
    table_number: int
    kind: str
    text: str
    mark: str | None
    entered_by: str
    entered_at: datetime
    resolution: str | None
    resolved_by: str | None


@dataclass(frozen=True)
class ClaimView:
    """A player's claim (III.27); ``status`` a ``ClaimStatus`` value; ``table`` and
    ``player``: where the claimant sits in the game and their name (0 and "" when not
    read, e.g. a view made from the row alone)."""

    id: int
    game_id: int
    round_number: int
    entry_id: int
    text: str
    status: str
    resolution: str | None
    created_at: datetime
    table: int = 0
    player: str = ""


@dataclass(frozen=True)
class EventView:
    """One event of the log as stored: its kind, the station, who acted (the credential's
    name and role), why, when, and its data (``payload``, the JSON of the record);
    ``shown``: the same data as people read it — racks with their digraph tiles in
    brackets (``IDLLTAAR`` is ambiguous; ``ID[LL]TAAR`` is not) — or ``payload`` itself
    when nothing in it reads differently; empty when not filled (``view_of``)."""

    id: int
    tournament_id: int
    game_id: int | None
    round_number: int | None
    kind: str
    payload: dict[str, Any]
    station: str
    arbiter: str
    role: str
    reason: str
    created_at: datetime
    shown: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class LoggedChange:
    """What an event of the log touched, without its data (``Record.changes_after``): its
    ``kind`` (an ``EventKind`` value), the ``game`` number it belongs to and its ``round``
    (None: the tournament's, or the game's as a whole), and ``round_closed``: whether that
    round is closed *now* (when it is read; False for no round or a round not stored).
    A round, once closed, stays closed, so False now means it was open at the event too."""

    kind: str
    game: int | None
    round: int | None
    round_closed: bool


@dataclass(frozen=True)
class AssistantRangeView:
    """The tables an assistant enters slips for, inclusive (II.4.c)."""

    assistant: str
    first_table: int
    last_table: int


ViewT = TypeVar("ViewT")


def view_of(kind: type[ViewT], row: object) -> ViewT:
    """The ``kind`` view of a stored ``row``: its fields read from the row's attributes of
    the same names (the row must be loaded; the view outlives the session); a field with a
    default that the row does not have keeps its default."""
    if row is None:              # a stored reference to a row that is not there (issue 26 §3)
        raise DamagedData(f"falta un registro guardado ({kind.__name__}) al que otro remite: la base de datos "
                          "está dañada; restaure una copia")
    names = [item.name for item in fields(kind)  # type: ignore[arg-type]
             if hasattr(row, item.name) or (item.default is MISSING and item.default_factory is MISSING)]
    return kind(**{name: getattr(row, name) for name in names})


# --- a game as the front ends show it (issue 24 §2: they never hold the live engine) ----------
@dataclass(frozen=True)
class TopMove:
    """A move of top score as ranked by III.15: ``canonical`` notation, ``score``
    (points), ``reason`` (Spanish: what puts it ahead of the next one), ``leave``
    (rack text left, empty for none)."""

    canonical: str
    score: int
    reason: str
    leave: str


@dataclass(frozen=True)
class NextScore:
    """A score below the top: ``score``, one ``canonical`` move with it, and ``count``
    moves in all with that score (``duplicate.rules.next_scores``)."""

    score: int
    canonical: str
    count: int


@dataclass(frozen=True)
class BagView:
    """The tiles in the bag: ``total``, of which ``vowels``, ``consonants`` and ``blanks``."""

    total: int
    vowels: int
    consonants: int
    blanks: int


@dataclass(frozen=True)
class ClockView:
    """The shared round clock (III.13) as last recorded: the ``round_number`` it was
    set for (None: before any round), ``remaining`` seconds now, ``running``;
    ``recorded_action`` the last one recorded (``"start"``, ``"pause"``, ``"reset"``; ``""``
    not known), at ``recorded_at`` (UTC; None: not known) with ``recorded_remaining``
    seconds left then. A started clock reaches 0:00 at ``ends_at``: a page that shows these
    (not ``remaining`` and ``running``, which move with every read) stays the same until
    the judge acts on the clock."""

    round_number: int | None
    remaining: float
    running: bool
    recorded_at: datetime | None = None
    recorded_remaining: float | None = None
    recorded_action: str = ""

    @property
    def ends_at(self) -> datetime | None:
        """When a started clock reaches (or reached) 0:00, UTC; None when paused, reset or
        not known."""
        if self.recorded_action != "start" or self.recorded_at is None or self.recorded_remaining is None:
            return None
        return self.recorded_at + timedelta(seconds=self.recorded_remaining)


@dataclass(frozen=True)
class RackInPlay:
    """The round whose rack waits for its master: ``number``; the rack's ``leftover``
    tiles (kept from the last round, in the order they are read aloud: alphabetical,
    blanks last, III.17) and ``drawn`` tiles (in the order drawn); its ``redraws`` as
    ``"RACK: reason"`` (III.19); the first ``tops`` in the III.15 order out of
    ``top_total`` moves of top score, ``move_count`` moves in all."""

    number: int
    leftover: tuple[Tile, ...]
    drawn: tuple[Tile, ...]
    redraws: tuple[str, ...]
    tops: tuple[TopMove, ...]
    top_total: int
    move_count: int

    @property
    def tiles(self) -> tuple[Tile, ...]:
        """The whole rack: leftover then drawn tiles."""
        return self.leftover + self.drawn


@dataclass(frozen=True)
class MasterPlaced:
    """The last master on the board: round ``number``, ``master`` as written (blanks
    lowercase), ``score`` and ``cumulative`` points, the ``squares`` its tiles took."""

    number: int
    master: str
    score: int
    cumulative: int
    squares: frozenset[tuple[int, int]]


@dataclass(frozen=True)
class PreparedView:
    """The prepared game a game plays (III.15, «duplicada maestra»): its ``digest`` (hex
    SHA-256), how many ``rounds`` it has, ``left_at`` the round from which the judge left it
    by replacing a rack (III.29; None while it is followed) and ``master``, the prepared
    master of the rack in play (None between rounds or once left)."""

    digest: str
    rounds: int
    left_at: int | None
    master: str | None


@dataclass(frozen=True)
class GameView:
    """A game of the tournament now, as plain values (``TournamentService.game_view``).

    ``board`` the board now, square by square; ``round_number`` the round being played
    (or next); ``leftover`` the tiles kept on the rack between rounds (in the order read
    aloud, III.17); ``rack`` the rack in play (None between rounds);
    ``last`` the last master placed (None before the first); ``played`` masters placed;
    ``over`` and ``end_reason`` (III.22); ``clock`` the shared round clock (None: never
    started)."""

    number: int
    board: BoardCells
    round_number: int
    bag: BagView
    leftover: tuple[Tile, ...]
    rack: RackInPlay | None
    last: MasterPlaced | None
    played: int
    over: bool
    end_reason: str
    clock: ClockView | None
    prepared: PreparedView | None = None
    """The prepared game it plays (None: an ordinary game)."""
