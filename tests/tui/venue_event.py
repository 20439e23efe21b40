"""Set-ups shared by the app's tests of an event played in several offline venues (issue
27 §2): one prepared game, two rooms that played it on their own databases
(``tests.duplicate.test_venues.play_venue``), and the organiser's tournament that imports
them. Plain functions: each test module makes its own (module-scoped) fixtures of them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.text import Text
from textual.widgets import DataTable

from duplicate.prepared.file import PreparedGame
from duplicate.prepared.generation import generate
from duplicate.service.facade import TournamentService
from duplicate.storage.database import open_database
from lexicon.lexicon import Lexicon
from tests.credentials import JUDGE_PIN
from tests.duplicate.test_venues import BONUSES, play_venue

HOSTILE_VENUE = "[b]Vendrell[/x]"
"""A venue named with markup (and an unclosed tag): shown as typed, never read as markup."""


def venue_game(lexicon: Lexicon) -> PreparedGame:
    """The prepared game every room plays: 3 rounds (III.15, «duplicada maestra»)."""
    return generate(lexicon, 33, 3)


def venue_records(folder: Path, lexicon: Lexicon, prepared: PreparedGame) -> dict[str, dict[str, Any]]:
    """The exported records of two rooms that played ``prepared``, by venue: «Lloret» (4
    players, slips round by round) and ``HOSTILE_VENUE`` (3 players, slips at the end)."""
    return {"Lloret": play_venue(folder / "a.db", lexicon, prepared, "Lloret", 4, slips_at_end=False),
            HOSTILE_VENUE: play_venue(folder / "b.db", lexicon, prepared, HOSTILE_VENUE, 3, slips_at_end=True)}


def organiser(path: Path, lexicon: Lexicon, prepared: PreparedGame,
              records: dict[str, dict[str, Any]] | None) -> TournamentService:
    """The organiser's tournament (venue «Barcelona», no player of its own) on ``path``,
    its game 1 the prepared ``prepared``, with ``records`` imported (none: none)."""
    service = TournamentService(open_database(str(path)), station="puesto-1", lexicon=lexicon, pin=JUDGE_PIN)
    service.create_tournament("Simultáneo", venue="Barcelona", settings=BONUSES)
    service.create_game(prepared=prepared)
    for venue, record in (records or {}).items():
        service.import_venue(record, venue, unsigned=True)
    return service


def texts(table: DataTable, column: str) -> list[str]:  # type: ignore[type-arg]
    """The cells of ``column`` (a column key), as shown."""
    values = [table.get_cell(row, column) for row in table.rows]
    return [value.plain if isinstance(value, Text) else str(value) for value in values]
