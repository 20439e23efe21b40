"""A tournament's results as plain values, ready to publish (III.26, IV.32, II.9).

``collect_results(service, tournament_id=None, games=None)`` reads everything a
publication shows through ``TournamentService`` (standings, rounds, slips, seats) and
returns a ``TournamentResults``: immutable values that the HTML templates, the PDF
documents (``duplicate.printing``) and the spreadsheets (``duplicate.spreadsheets``)
only format — no writer computes a figure of its own, so every format shows the same
numbers as ``duplicada standings``.

What is derived here, and nowhere else:

* **per-round cells** of a game's standings (``RoundCell``): the player's points in
  the round, the bonus awarded (III.24) and, for a slip scored 0 that is not a valid
  move, the Spanish reason (III.23, III.25);
* **follow-up sheets** (II.9, ``SheetLine``): per round the player's coordinate, word,
  points and cumulative points, and the master's coordinate, word, points and
  cumulative points;
* **partial standings** every ``partial_every`` rounds (tournament setting; FISE: 3):
  points plus the bonuses awarded up to that round, ranked like the game standings
  (shared positions, "1, 2, 2, 4"; no tie-breaks — they apply to the final standings
  only, III.28);
* **the final board** (``BoardCell`` rows): the board before the last master move with
  that move placed;
* **EloDI changes** of a game (section V) when ``ranking.ratings`` is installed and the
  game has been rated (``GameResults.elodi``; ``None`` with ``elodi_note`` otherwise).

Text for players is Spanish (``GAME_STATUS_LABELS``, ``CRITERION_LABELS``,
``SLIP_STATUS_LABELS``). Numbers stay numbers here; ``spanish_number`` formats them
(decimal comma).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime

from duplicate.labels import CRITERION_HEADINGS, CRITERION_NAMES, GAME_STATUS, SLIP_STATUS
from duplicate.notation import SlipError, parse_move
from duplicate.rack import shown_rack
from duplicate.service import RoundView, TournamentService, TournamentSettings
from duplicate.service.views import SlipView
from duplicate.slips import SlipStatus
from duplicate.standings import GameStanding, TournamentCriterion, TournamentStanding, running_totals
from duplicate.statuses import GameStatus
from lexicon.alphabet import Alphabet, spanish
from lexicon.board import SIZE, Board, BoardError, standard_layout
from lexicon.move import PlacementError, placed_tiles

__all__ = [
    "CRITERION_LABELS",
    "GAME_STATUS_LABELS",
    "SLIP_STATUS_LABELS",
    "BoardCell",
    "EloLine",
    "GameResults",
    "MasterLine",
    "OverallLine",
    "PartialStandings",
    "Penalty",
    "PlayerInfo",
    "RoundCell",
    "SheetLine",
    "StandingLine",
    "TournamentResults",
    "board_rows",
    "collect_results",
    "spanish_date",
    "spanish_number",
]

GAME_STATUS_LABELS = GAME_STATUS
"""Spanish label of each ``GameStatus`` (III.26): ``duplicate.labels``."""

CRITERION_LABELS = CRITERION_NAMES
"""Spanish name of each tournament criterion (IV.31): ``duplicate.labels``."""

SLIP_STATUS_LABELS = SLIP_STATUS
"""Spanish label of each slip status (III.20, III.23, III.25, III.29): ``duplicate.labels``."""

_MONTHS = ("enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre",
           "noviembre", "diciembre")


def spanish_number(value: float, digits: int = 2) -> str:
    """``value`` with ``digits`` decimals and a decimal comma (Spanish): ``87,25``."""
    return f"{value:.{digits}f}".replace(".", ",")


def spanish_date(day: date | datetime | None) -> str:
    """``14 de marzo de 2026``; ``''`` for None."""
    if day is None:
        return ""
    return f"{day.day} de {_MONTHS[day.month - 1]} de {day.year}"


def split_move(text: str | None) -> tuple[str, str]:
    """``"H8-CASA"`` → ``("H8", "CASA")``; text without a hyphen → ``("", text)``."""
    if not text:
        return "", ""
    coordinate, separator, word = text.partition("-")
    return (coordinate.strip(), word.strip()) if separator else ("", text.strip())


# --- values ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerInfo:
    """A tournament entry: ``entry_id`` (the standings' player key), name, club, country,
    federation id, entry status, and ``slug`` (the HTML page name, ``jugador-<id>``)."""

    entry_id: int
    player_id: int
    name: str
    club: str
    country: str
    federation_id: str | None
    status: str

    @property
    def slug(self) -> str:
        return f"jugador-{self.entry_id}"


@dataclass(frozen=True)
class RoundCell:
    """One player's round in the standings: ``points`` (0 for a penalised slip),
    ``bonus`` (III.24, 0 if none), ``reason`` (Spanish, why a slip scored 0; '' if valid)."""

    points: int
    bonus: int
    status: str
    reason: str

    @property
    def penalised(self) -> bool:
        return self.status != SlipStatus.VALID.value


@dataclass(frozen=True)
class StandingLine:
    """A line of a game's standings (III.23, III.24, III.26): ``standing`` as the service
    computed it, the player, the table (II.6) and one ``RoundCell`` per played round."""

    standing: GameStanding[int]
    player: PlayerInfo
    table: int
    cells: tuple[RoundCell, ...]


@dataclass(frozen=True)
class Penalty:
    """A slip scored 0 (III.23, III.25): round, table, player, text as entered, status, reason."""

    round_number: int
    table: int
    player: PlayerInfo
    text: str
    status: str
    reason: str


@dataclass(frozen=True)
class MasterLine:
    """A round of the game record: rack (III.12), master move split in coordinate and
    word, its points and the masters' cumulative points, the program's top score, how
    many moves tie for it, and whether the master was annulled (III.29)."""

    number: int
    rack: str
    master: str
    coordinate: str
    word: str
    score: int
    cumulative: int
    top_score: int
    top_count: int
    annulled: bool
    redraws: int
    replaced: tuple[str, ...] = ()
    """The racks the judge replaced in this round (III.29), oldest first, each as the
    Spanish note of the published sheets: the rack and the judge's reason (its slips,
    if any, were set aside)."""


@dataclass(frozen=True)
class SheetLine:
    """A line of a follow-up sheet (II.9): the player's coordinate, word, points (bonus
    apart) and cumulative points; the master's coordinate, word, points and cumulative."""

    number: int
    coordinate: str
    word: str
    points: int
    bonus: int
    cumulative: int
    status: str
    reason: str
    master_coordinate: str
    master_word: str
    master_score: int
    master_cumulative: int


@dataclass(frozen=True)
class PartialLine:
    """A line of partial standings after some rounds: points and bonuses so far."""

    position: int
    player: PlayerInfo
    table: int
    points: int
    bonus: int
    total: int
    percentage: float


@dataclass(frozen=True)
class PartialStandings:
    """Standings after ``after_round`` rounds (setting ``partial_every``)."""

    after_round: int
    master_cumulative: int
    lines: tuple[PartialLine, ...]


@dataclass(frozen=True)
class BoardCell:
    """One square of the final board: ``tile`` text (``''`` when empty; a blank in
    lowercase), ``blank``, and ``premium`` code ``tp``/``dp``/``tl``/``dl``/``''``."""

    tile: str
    blank: bool
    premium: str
    new: bool = False
    """Placed by the round's master (the replay pages mark it)."""
    digraph: bool = False
    """A digraph tile (CH, LL, RR): one tile written with two letters."""


@dataclass(frozen=True)
class EloLine:
    """A player's EloDI change in one game (section V; ``ranking.ratings.ReportLine``)."""

    name: str
    entry_id: int | None
    rating_before: int | None
    change: int
    rating_after: int
    target_position: float | None
    actual_position: float | None
    phase: str


@dataclass(frozen=True)
class GameResults:
    """Everything published about one game (III.26, IV.32, II.9).

    ``status``: ``GameStatus`` value; ``final``: results are definitive;
    ``standings``: in standings order; ``sheets``: entry id → follow-up lines (only
    seated players); ``partials``: every ``partial_every`` rounds before the last;
    ``board``: 15 rows of 15 ``BoardCell``; ``elodi``: None when not available (then
    ``elodi_note`` says why, in Spanish).
    """

    number: int
    status: str
    end_reason: str | None
    masters: tuple[MasterLine, ...]
    standings: tuple[StandingLine, ...]
    penalties: tuple[Penalty, ...]
    bonuses: tuple[tuple[int, PlayerInfo, int], ...]
    sheets: dict[int, tuple[SheetLine, ...]]
    tables: dict[int, int]
    partials: tuple[PartialStandings, ...]
    board: tuple[tuple[BoardCell, ...], ...]
    elodi: tuple[EloLine, ...] | None
    elodi_note: str
    reopenings: tuple[str, ...] = ()
    """Each time final results were reopened (IV.32): when, by whom and why, in Spanish."""

    @property
    def final(self) -> bool:
        return self.status == GameStatus.FINAL.value

    @property
    def status_label(self) -> str:
        return GAME_STATUS_LABELS.get(self.status, self.status)

    @property
    def master_total(self) -> int:
        return self.masters[-1].cumulative if self.masters else 0

    @property
    def slug(self) -> str:
        return f"partida-{self.number}"


@dataclass(frozen=True)
class OverallLine:
    """A line of the tournament standings (IV.31, IV.32): ``standing`` as computed by the
    service, and the player."""

    standing: TournamentStanding[int]
    player: PlayerInfo


@dataclass(frozen=True)
class TournamentResults:
    """A tournament's publication: its name, venue, dates, settings, players (by entry
    id), the games published (``games``) and the overall standings. ``provisional`` is
    True while some game of the tournament is not final."""

    id: int
    name: str
    venue: str
    start_date: date | None
    end_date: date | None
    settings: TournamentSettings
    players: dict[int, PlayerInfo]
    games: tuple[GameResults, ...]
    all_games: tuple[int, ...]
    overall: tuple[OverallLine, ...]
    provisional: bool
    generated_at: datetime

    @property
    def criterion_label(self) -> str:
        return CRITERION_LABELS.get(self.settings.criterion, self.settings.criterion)

    @property
    def criterion_heading(self) -> str:
        return CRITERION_HEADINGS.get(self.settings.criterion, "Valor")

    def format_value(self, value: float) -> str:
        """The overall criterion's value in Spanish: points, average place, percentage."""
        criterion = self.settings.criterion
        if criterion == TournamentCriterion.TOTAL.value:
            return str(round(value))
        if criterion == TournamentCriterion.AVERAGE_PERCENTAGE.value:
            return spanish_number(value) + " %"
        return spanish_number(value)


# --- collecting -----------------------------------------------------------------------------------


def collect_results(service: TournamentService, tournament_id: int | None = None,
                    games: Iterable[int] | None = None, *, alphabet: Alphabet | None = None) -> TournamentResults:
    """Read a tournament's results through ``service``.

    ``tournament_id``: None for the newest tournament; ``games``: the game numbers to
    detail (None: every game with at least one master move); ``alphabet``: the tile
    set of the boards (default: the Spanish set, I.2). The overall standings always
    cover every game played (IV.32). Raises ``TournamentError`` for an unknown
    tournament or game.
    """
    info = service.tournament(tournament_id)
    settings = TournamentSettings.from_dict(info.settings)
    alphabet = alphabet or spanish()
    players = {entry.id: PlayerInfo(entry.id, person.id, person.name, person.club or "", person.country or "",
                                    person.federation_id, entry.status)
               for entry, person in service.entries(info.id)}
    wanted = [game.number for game in info.games if game.rounds] if games is None else list(games)
    statuses = {game.number: game for game in info.games}
    detailed = tuple(_collect_game(service, info.id, statuses[number].status if number in statuses else "",
                                   statuses[number].end_reason if number in statuses else None, number, players,
                                   settings, alphabet)
                     if number in statuses else _unknown_game(service, info.id, number)
                     for number in wanted)
    overall = tuple(OverallLine(line, players[line.player]) for line in service.tournament_standings(info.id))
    played = [game for game in info.games if game.rounds]
    provisional = any(game.status != GameStatus.FINAL.value for game in played)
    return TournamentResults(info.id, info.name, info.venue, info.start_date, info.end_date, settings, players,
                             detailed, tuple(game.number for game in played), overall, provisional, datetime.now())


def _unknown_game(service: TournamentService, tournament_id: int, number: int) -> GameResults:
    service.rounds(number, tournament_id)  # raises TournamentError naming the game
    raise AssertionError("unreachable")  # pragma: no cover


def _collect_game(service: TournamentService, tournament_id: int, status: str, end_reason: str | None, number: int,
                  players: dict[int, PlayerInfo], settings: TournamentSettings, alphabet: Alphabet) -> GameResults:
    rounds = [view for view in service.rounds(number, tournament_id) if view.master is not None]
    standings = service.game_standings(number, tournament_id)
    round_results = service.round_results(number, tournament_id)
    slips: dict[tuple[int, int], SlipView] = {}
    tables: dict[int, int] = {}
    for slip in service.slips(number, tournament_id=tournament_id):
        slips[(slip.entry_id, slip.round_number)] = slip
        tables[slip.entry_id] = slip.table_number
    if any(line.player not in tables for line in standings):
        # Slips carry the table (II.6); ``seats`` is only read when some are missing (it loads row by row).
        tables = {entry.id: table for table, entry, _person in service.seats(number, tournament_id)}
    history = service.history(tournament_id, game_number=number)
    replaced: dict[int, list[str]] = {}
    for event in history:
        if event.kind in ("rack_drawn", "rack_set") and event.payload.get("replaces") and event.round_number:
            replaced.setdefault(event.round_number, []).append(
                f"atril {shown_rack(str(event.payload['replaces']), alphabet)} cambiado por el juez (III.29): "
                f"{event.reason or 'sin motivo'}")
    masters = tuple(_master_line(view, tuple(replaced.get(view.number, ()))) for view in rounds)

    lines, penalties, bonuses = [], [], []
    sheets: dict[int, tuple[SheetLine, ...]] = {}
    for standing in standings:
        player = players[standing.player]
        cells = []
        sheet = []
        totals = running_totals(round_results, standing.player)
        for index, master in enumerate(masters):
            found = slips.get((standing.player, master.number))
            points = standing.per_round[index]
            bonus = standing.bonuses_per_round[index]
            status_code = found.status if found is not None else SlipStatus.MISSING.value
            reason = "" if status_code == SlipStatus.VALID.value else (
                (found.reason if found is not None else "") or SLIP_STATUS_LABELS.get(status_code, status_code))
            cells.append(RoundCell(points, bonus, status_code, reason))
            cumulative = totals[index]                       # bonuses included (III.24)
            if status_code != SlipStatus.VALID.value:
                penalties.append(Penalty(master.number, tables.get(standing.player, 0), player,
                                         found.text if found is not None else "", status_code, reason))
            if bonus:
                bonuses.append((master.number, player, bonus))
            coordinate, word = split_move((found.move or found.text) if found is not None else "")
            sheet.append(SheetLine(master.number, coordinate, word, points, bonus, cumulative, status_code, reason,
                                   master.coordinate, master.word, master.score, master.cumulative))
        lines.append(StandingLine(standing, player, tables.get(standing.player, 0), tuple(cells)))
        sheets[standing.player] = tuple(sheet)
    penalties.sort(key=lambda item: (item.round_number, item.table))
    bonuses.sort(key=lambda item: (item[0], item[1].name))
    partials = _partials(service, number, tournament_id, lines, masters, settings.partial_every)
    elodi, note = _elodi(service, tournament_id, number, players)
    reopenings = tuple(f"{event.created_at:%d/%m/%Y %H:%M}: reabierta por {event.arbiter or 'el juez árbitro'} — "
                       f"{event.reason or 'sin motivo'}"
                       for event in history if event.kind == "game_reopened")
    return GameResults(number, status, end_reason, masters, tuple(lines), tuple(penalties), tuple(bonuses), sheets,
                       tables, partials, _final_board(rounds, alphabet), elodi, note, reopenings)


def _master_line(view: RoundView, replaced: tuple[str, ...] = ()) -> MasterLine:
    coordinate, word = split_move(view.master)
    return MasterLine(view.number, view.rack_shown or view.rack, view.master or "", coordinate, word, view.master_score or 0,
                      view.cumulative or 0, view.top_score, len(view.top_moves), view.annulled, len(view.redraws),
                      replaced)


def _partials(service: TournamentService, number: int, tournament_id: int, lines: Sequence[StandingLine],
              masters: Sequence[MasterLine], every: int) -> tuple[PartialStandings, ...]:
    """Standings after rounds ``every``, ``2 * every``, … before the last (III.26), from
    the service's ``partial_standings`` — the same figures as the projection screen."""
    by_entry = {line.player.entry_id: line for line in lines}
    result = []
    for after in range(every, len(masters), every):
        ranked = tuple(PartialLine(standing.position, by_entry[standing.player].player, by_entry[standing.player].table,
                                   standing.round_total, standing.bonus_total, standing.total, standing.percentage)
                       for standing in service.partial_standings(number, after, tournament_id))
        result.append(PartialStandings(after, masters[after - 1].cumulative, ranked))
    return tuple(result)


def _final_board(rounds: Sequence[RoundView], alphabet: Alphabet) -> tuple[tuple[BoardCell, ...], ...]:
    """The board after the last master move (the board before it, with it placed)."""
    layout = standard_layout()
    board = Board(alphabet, layout)
    if rounds:
        last = rounds[-1]
        try:
            board = Board.from_cgp(last.board_before, alphabet, layout)
            if last.master:   # an annulled master stays on the board too (III.29)
                board.place(placed_tiles(board, parse_move(last.master, alphabet)))
        except (BoardError, SlipError, PlacementError, ValueError):
            pass  # a record that does not read back: show the board before the last move
    return board_rows(board, alphabet)


def board_rows(board: Board, alphabet: Alphabet,
               new: frozenset[tuple[int, int]] = frozenset()) -> tuple[tuple[BoardCell, ...], ...]:
    """``board`` as 15 rows of 15 ``BoardCell`` (premium squares of the standard layout, I.2);
    the squares ``(row, col)`` in ``new`` marked as placed by the round's master."""
    layout = board.layout
    rows = []
    for r in range(SIZE):
        cells = []
        for c in range(SIZE):
            tile = board.tiles[r][c]
            wm, lm = layout.word_mult[r][c], layout.letter_mult[r][c]
            premium = "tp" if wm == 3 else "dp" if wm == 2 else "tl" if lm == 3 else "dl" if lm == 2 else ""
            if tile is None:
                cells.append(BoardCell("", False, premium))
            else:
                symbol = alphabet.symbol(tile)
                cells.append(BoardCell(symbol, symbol != symbol.upper(), premium, (r, c) in new, len(symbol) > 1))
        rows.append(tuple(cells))
    return tuple(rows)


def _elodi(service: TournamentService, tournament_id: int, number: int,
           players: dict[int, PlayerInfo]) -> tuple[tuple[EloLine, ...] | None, str]:
    """EloDI changes of one game (section V), from the service's ``game_ratings`` hook
    (wired by ``ranking.service``); ``(None, reason)`` without it or for a game not rated."""
    if service.hooks.game_ratings is None:
        return None, "Las valoraciones EloDI no están disponibles en esta instalación."
    try:
        report = service.hooks.game_ratings(tournament_id, number)
    except ValueError as error:
        return None, f"Sin valoración EloDI: {error}"
    except Exception as error:  # noqa: BLE001 - a ratings store missing or older than this code
        return None, f"Sin valoración EloDI ({type(error).__name__})."
    by_person = {player.player_id: player.entry_id for player in players.values()}
    return tuple(EloLine(line.name, by_person.get(line.player_id), line.rating_before, line.change, line.rating_after,
                         line.target_position, line.actual_position, line.phase) for line in report), ""
