"""What the standings screen shows, without Textual (issue 24 §3):
``tui.app.screens.standings_presenter`` on hand-made views."""

from __future__ import annotations

from datetime import datetime

from duplicate.labels import GAME_STATUS
from duplicate.rules.statuses import GameStatus
from duplicate.service.views import ClaimView, SlipView
from tui.app.screens.standings_presenter import (
    BONUS_STYLE,
    MASTER_STYLE,
    STANDINGS_HEADING,
    claim_summary,
    decimal,
    round_cell,
    split_move,
)

WHEN = datetime(2026, 5, 1, 10, 0)


def test_cells_and_numbers() -> None:
    assert decimal(93.456) == "93,46" and decimal(2, 2) == "2,00" and decimal(43.6) == "43,60"
    bonus = round_cell(70, 10, 70)
    assert (bonus.plain, str(bonus.style)) == ("70+10", BONUS_STYLE)            # III.24: the bonus stands out
    assert str(round_cell(70, 0, 70).style) == MASTER_STYLE                     # the master's score
    assert (round_cell(12, 0, 70).plain, str(round_cell(12, 0, 70).style)) == ("12", "")
    assert split_move("H8-CASA") == ("H8", "CASA") and split_move(" CASA ") == ("", "CASA")


def test_headings_name_the_status_and_rule() -> None:
    assert STANDINGS_HEADING[GameStatus.FINAL.value].startswith(GAME_STATUS[GameStatus.FINAL.value])
    assert STANDINGS_HEADING[GameStatus.FINAL.value].endswith("(III.26)")
    assert STANDINGS_HEADING[GameStatus.PLAYING.value].endswith("clasificación parcial")


def test_what_the_judge_reads_before_resolving_a_claim() -> None:
    claim = ClaimView(id=3, game_id=1, round_number=4, entry_id=9, text="mi CASAS valía 26", status="open",
                      resolution=None, created_at=WHEN)
    slip = SlipView(id=1, game_id=1, round_number=4, entry_id=9, table_number=5, text="H8 CASAS", move="H8-CASAS",
                    status="valid", score=24, reason="", hint=None, entered_by="aux1", entered_at=WHEN,
                    checked_by=None, event_id=None)
    assert claim_summary(claim, slip, 5, "Ana") == (
        "Ronda 4, mesa 5, Ana: «mi CASAS valía 26»\nPapeleta anotada: H8 CASAS (24 puntos)")
    assert claim_summary(claim, None, None, "9").endswith("mesa ?, 9: «mi CASAS valía 26»\nPapeleta anotada: sin papeleta")
