"""The judge's console on a prepared game (III.15, last paragraph: «duplicada maestra»),
driven with keys at 80×24: it says «partida preparada», «d» draws the prepared rack and
Enter places the prepared master whatever top is highlighted (no choice)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from textual.widgets import Static

from duplicate.prepared.generation import generate
from duplicate.service.facade import TournamentService
from lexicon.lexicon import Lexicon
from tests.tui.test_judge import console_app, open_console, settled
from tests.tui.waiting import until
from tui.app.screens.game_dialogs import ConfirmScreen, NewGameScreen
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


def test_the_new_game_form_starts_a_prepared_game_and_refuses_a_bad_file(
        service: TournamentService, spanish_lexicon: Lexicon, tmp_path: Path) -> None:
    """«p», Tab to «Partida preparada», the file's name, Enter: the game plays the prepared
    game (issue 27 §1, as ``game start --prepared``). A file changed after sealing, or not
    JSON, is refused in the form, in Spanish, and no game is created."""
    prepared = generate(spanish_lexicon, 9, 3)
    good = tmp_path / "preparada.json"
    good.write_text(json.dumps(prepared.to_dict()), encoding="utf-8")
    tampered = prepared.to_dict()
    tampered["rounds"][1]["rack"] = tampered["rounds"][0]["rack"]
    changed = tmp_path / "cambiada.json"
    changed.write_text(json.dumps(tampered), encoding="utf-8")
    broken = tmp_path / "rota.json"
    broken.write_text("{no es json", encoding="utf-8")
    service.create_tournament("Simultáneo")
    for name in ("Ana", "Blas"):
        service.add_player(name)

    async def scenario() -> None:
        app = console_app(service)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await open_console(app, pilot)
            await pilot.press("p")
            form = app.screen
            assert isinstance(form, NewGameScreen)
            await pilot.press("tab", "tab", "tab", *str(changed), "enter")
            refusal = form.query_one("#refusal", Static)
            await until(pilot, lambda: "No se crea la partida" in str(refusal.render()))
            assert "resumen" in str(refusal.render()) and app.screen is form
            assert service.tournament().games == ()
            await pilot.press("end", "ctrl+u", *str(broken), "enter")
            await until(pilot, lambda: "no es JSON válido" in str(refusal.render()))
            assert app.screen is form and service.tournament().games == ()
            await pilot.press("end", "ctrl+u", *str(good), "enter")
            await until(pilot, lambda: app.screen is screen)
            await settled(pilot, screen)
            assert screen.state.game == 1 and "partida preparada" in screen.sub_title
            assert "partida preparada" in str(screen.query_one("#message", Static).render())
            await pilot.press("d")
            await settled(pilot, screen)
            assert service.rounds(1)[-1].rack == prepared.rounds[0].rack

    asyncio.run(scenario())
