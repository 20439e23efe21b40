"""What the standings screen shows (issue 4 §2): cells and texts from the service's
views, pure functions, no Textual. ``StandingsScreen`` (``tui.app.screens.standings``)
lays them out.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text

from duplicate.labels import GAME_STATUS, spanish_number
from duplicate.rules.game_standings import GameStanding
from duplicate.rules.statuses import GameStatus
from duplicate.rules.tournament_standings import TournamentStanding
from duplicate.service.views import ClaimView, SlipView
from tui.app.widgets.slip_feedback import status_name

BONUS_STYLE = "bold black on yellow"
MASTER_STYLE = "bold green"


def decimal(value: float, places: int = 2) -> str:
    """``93.456`` → ``"93,46"``: ``spanish_number``, the one format of a percentage or a
    criterion's value on every screen, sheet and page (issue 35 §1)."""
    return spanish_number(value, places)


def round_cell(score: int, bonus: int, master_score: int) -> Text:
    """A player's round: ``score`` (green when equal to the master), ``+bonus`` highlighted."""
    if bonus:
        return Text(f"{score}+{bonus}", style=BONUS_STYLE, justify="right")
    return Text(str(score), style=MASTER_STYLE if score == master_score else "", justify="right")


def split_move(text: str) -> tuple[str, str]:
    """``"H8-CASA"`` → ``("H8", "CASA")``; text without a hyphen is all word."""
    coordinate, dash, word = text.partition("-")
    return (coordinate.strip(), word.strip()) if dash else ("", text.strip())


STANDINGS_HEADING = {**GAME_STATUS, GameStatus.PLAYING.value: f"{GAME_STATUS[GameStatus.PLAYING.value]}: clasificación parcial",
                     GameStatus.PROVISIONAL.value: f"{GAME_STATUS[GameStatus.PROVISIONAL.value]} (III.26)",
                     GameStatus.FINAL.value: f"{GAME_STATUS[GameStatus.FINAL.value]} (III.26)"}
"""The heading of a game's standings: its status (``duplicate.labels``) with the rule."""


def claim_summary(claim: ClaimView, slip: SlipView | None, table: int | None, name: str) -> str:
    """What the judge reads before resolving a claim (III.27): round, table, player and
    the claim, then the slip stored (its text or mark, and points)."""
    stored = "sin papeleta" if slip is None else (slip.text or status_name(slip.status))
    return (f"Ronda {claim.round_number}, mesa {table if table is not None else '?'}, {name}: «{claim.text}»\n"
            f"Papeleta anotada: {stored}" + (f" ({slip.score} puntos)" if slip is not None else ""))


VenueKey = tuple[str, int]
"""A player of an event played in several venues: ``(venue, entry id in its record)``."""


def _key(player: VenueKey) -> str:
    return f"{player[0]}\x1f{player[1]}"


def venue_game_rows(lines: Sequence[GameStanding[VenueKey]],
                    names: dict[VenueKey, str]) -> list[tuple[str, list[Any]]]:
    """The venue tab's game rows (issue 27 §2): ``(row key, cells)`` with position,
    name, venue, total, points, bonus, percentage — in the standings' order."""
    return [(_key(line.player), [Text(str(line.position), justify="right"), names.get(line.player, ""),
                                 line.player[0], Text(str(line.total), style="bold", justify="right"),
                                 Text(str(line.round_total), justify="right"),
                                 Text(f"+{line.bonus_total}" if line.bonus_total else "",
                                      style=BONUS_STYLE if line.bonus_total else "", justify="right"),
                                 Text(decimal(line.percentage), justify="right")])
            for line in lines]


def venue_tournament_rows(lines: Sequence[TournamentStanding[VenueKey]], names: dict[VenueKey, str],
                          decimals: bool) -> list[tuple[str, list[Any]]]:
    """The venue tab's tournament rows: position, name, venue, the criterion's value
    (``decimals``: two decimals; without, a sum of points, which is the total's column:
    left out), total, bonus, games, places."""
    return [(_key(line.player), [Text(str(line.position), justify="right"), names.get(line.player, ""),
                                 line.player[0],
                                 *([Text(decimal(line.value, 2), style="bold", justify="right")] if decimals
                                   else []),
                                 Text(str(line.total), style="" if decimals else "bold", justify="right"),
                                 Text(f"+{line.bonus_total}" if line.bonus_total else "", justify="right"),
                                 Text(str(line.games_played), justify="right"),
                                 " ".join("—" if place is None else f"{place}º" for place in line.places)])
            for line in lines]
