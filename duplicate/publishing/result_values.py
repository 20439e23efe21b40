"""A tournament's results as plain values (III.26, IV.32, II.9): the frozen dataclasses a
publication formats — ``TournamentResults`` with its ``GameResults`` (standings lines
with per-round cells and bonuses, III.24; penalties with their reasons, III.23, III.25;
master lines; follow-up sheet lines, II.9; partial standings; the final board; EloDI
changes, V) and ``OverallLine`` (IV.31) — and the Spanish labels and formatting of
numbers (decimal comma), dates and moves they are shown with. Built by
``duplicate.publishing.results.collect_results``.
"""


from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from duplicate.labels import CRITERION_HEADINGS, CRITERION_NAMES, GAME_STATUS, SLIP_STATUS, spanish_number
from duplicate.rules.game_standings import GameStanding
from duplicate.rules.slips import SlipStatus
from duplicate.rules.statuses import GameStatus
from duplicate.rules.tournament_standings import TournamentCriterion, TournamentStanding
from duplicate.service.settings import TournamentSettings

__all__ = [
    "CRITERION_LABELS",
    "GAME_STATUS_LABELS",
    "SLIP_STATUS_LABELS",
    "BoardCell",
    "EloLine",
    "GameResults",
    "MasterLine",
    "OverallLine",
    "PartialLine",
    "PartialStandings",
    "Penalty",
    "PlayerInfo",
    "RoundCell",
    "SheetLine",
    "StandingLine",
    "TournamentResults",
    "spanish_date",
    "split_move",
]

GAME_STATUS_LABELS = GAME_STATUS
"""Spanish label of each ``GameStatus`` (III.26): ``duplicate.labels``."""

CRITERION_LABELS = CRITERION_NAMES
"""Spanish name of each tournament criterion (IV.31): ``duplicate.labels``."""

SLIP_STATUS_LABELS = SLIP_STATUS
"""Spanish label of each slip status (III.20, III.23, III.25, III.29): ``duplicate.labels``."""

_MONTHS = ("enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre",
           "noviembre", "diciembre")


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
    """A player's EloDI change in one game (section V; ``ranking.rating_views.ReportLine``)."""

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
    def shows_value(self) -> bool:
        """Whether the standings need a column for the criterion's value: not for the sum
        of points, whose value is the «Total» column (IV.31; ``CRITERION_HEADINGS``)."""
        return self.settings.criterion != TournamentCriterion.TOTAL.value

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
