"""At 80×24 the judge sees what is pending — conflicts between slips and double-entry
mismatches (II.4.a) — without scrolling (issue 25 §2)."""

from __future__ import annotations

import asyncio

from rich.text import Text
from textual.widgets import Static

from duplicate.service.facade import TournamentService
from duplicate.service.views import PendingSlip, RoundStatus
from tests.tui.test_judge import console_app, open_console, tournament
from tests.tui.waiting import until
from tui.app.screens.judge_presenter import pending_text


def test_the_pending_block_is_in_sight_at_80_by_24(service: TournamentService) -> None:
    tournament(service, game_seed=2)
    service.draw_rack(1)
    master = service.choose_master(1).master
    assert master is not None
    service.enter_slip(1, 1, master)
    service.enter_slip(1, 1, "H8-QZQZ")                      # a second, different slip
    service.enter_slip(1, 2, master)
    service.double_check(1, 2, "H8-ZQZQ")                    # double entry that does not match

    async def scenario() -> None:
        app = console_app(service)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await open_console(app, pilot)
            await until(pilot, lambda: screen.status is not None and len(screen.status.pending) == 2)
            await pilot.pause()
            showing = [widget for widget in screen.query(Static)
                       if "Pendiente del juez" in str(widget.render()) and widget.region.height]
            assert showing, "nothing on screen says what is pending"
            block = showing[0]
            region = block.region
            assert 1 <= region.y and region.bottom <= 23 and region.right <= 80    # between header and footer
            shown = str(block.render())
            assert "H8-QZQZ" in shown and "H8-ZQZQ" in shown and "doble entrada" in shown
            assert screen.query_one("#body").scroll_y == 0                        # nothing was scrolled

    asyncio.run(scenario())


def test_the_pending_block_text() -> None:
    def item(table: int) -> PendingSlip:
        return PendingSlip(conflict_id=table, table=table, player="[b]Ana[/]", kind="duplicate", stored="H8 CASA",
                           stored_score=24, new="H8 CASAS", new_score=26, entered_by="Luis")

    assert pending_text(None).plain == ""
    assert pending_text(RoundStatus(round_number=3, expected=2, entered=2, missing_tables=())).plain == ""
    text = pending_text(RoundStatus(round_number=3, expected=9, entered=9, missing_tables=(),
                                    pending=(item(1), item(2), item(3))))
    assert isinstance(text, Text)
    lines = text.plain.split("\n")
    assert lines[0].startswith("⚠ Pendiente del juez (3; «r» resuelve): la ronda 3")
    assert "mesa 1 ([b]Ana[/])" in lines[1] and "mesa 2" in lines[2]     # names as written, never markup
    assert lines[3] == "  y 1 más («r» los resuelve uno a uno)"
