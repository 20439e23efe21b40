"""The judge's console on a prepared game (III.15, last paragraph: «duplicada maestra»),
driven with keys at 80×24: it says «partida preparada», «d» draws the prepared rack and
Enter places the prepared master whatever top is highlighted (no choice)."""

from __future__ import annotations

import asyncio

from duplicate.prepared import generate
from duplicate.service import TournamentService
from lexicon.lexicon import Lexicon
from tests.tui.test_judge import console_app, open_console, settled
from tui.app.screens.judge import ConfirmScreen
from tui.app.screens.judge_presenter import situation
from tui.app.widgets.moves import MoveChoices


def test_the_console_plays_a_prepared_game(service: TournamentService, spanish_lexicon: Lexicon) -> None:
    prepared = generate(spanish_lexicon, 5, 3)
    service.create_tournament("Simultáneo")
    for name in ("Ana", "Blas"):
        service.add_player(name)
    service.create_game(prepared=prepared)

    async def scenario() -> None:
        app = console_app(service)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await open_console(app, pilot)
            assert "partida preparada" in screen.sub_title
            for round_ in prepared.rounds:
                await pilot.press("d")
                await settled(pilot, screen)
                assert service.rounds(1)[-1].rack == round_.rack
                assert f"coloque su maestra {round_.master}" in situation(screen.state)
                tops = screen.query_one("#moves", MoveChoices).tops
                if len(tops) > 1:                       # another top highlighted: still the prepared one
                    await pilot.press("down")
                await pilot.press("enter")
                assert isinstance(app.screen, ConfirmScreen)
                await pilot.press("s")
                await settled(pilot, screen)
                assert service.rounds(1)[-1].master == round_.master
            assert screen.state.over and "partida preparada" in screen.sub_title

    asyncio.run(scenario())
