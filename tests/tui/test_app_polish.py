"""The polish the judge and the assistants see (issue 25 §3), at 80×24: claims filed from
the slip entry, a queued slip said as queued, radio buttons and check boxes marked, toasts
kept off dialogs, glyphs every font has, no English from Textual, no label cut."""

from __future__ import annotations

import asyncio

from textual.app import App, ComposeResult

from duplicate.rules.statuses import ClaimStatus
from duplicate.service.facade import TournamentService
from tests.credentials import ASSISTANT_PINS, pin_of
from tests.tui.screen_text import screen_text
from tests.tui.waiting import idle, mounted, until
from tui.app.application import DuplicadaApp
from tui.app.screens.entry import EntryScreen
from tui.app.widgets.judge_dialogs import ClaimDialog
from tui.app.widgets.toggles import MarkedCheckbox, MarkedRadioButton


def event(service: TournamentService) -> int:
    """Four players, aux1 with tables 1–2, a game whose first round has its master."""
    service.create_tournament("Open")
    for name in ("Ana", "Blas", "Carmen", "David"):
        service.add_player(name)
    service.set_assistant_range("aux1", 1, 2)
    service.set_pin("assistant", ASSISTANT_PINS["aux1"], name="aux1")
    game = service.create_game(rounds=2, seed=7)
    service.set_rack(game, "CASAMOS")
    service.choose_master(game)
    return game


def run_entry(service: TournamentService, scenario, role: str = "assistant") -> None:  # type: ignore[no-untyped-def]
    async def main() -> None:
        app = DuplicadaApp(service, poll=False)
        async with app.run_test(size=(80, 24)) as pilot:
            app.state.tournament_id = service.tournament().id
            app.authenticate(pin_of(role, "aux1"))
            screen = EntryScreen()
            await app.push_screen(screen)
            await idle(pilot)
            await until(pilot, lambda: screen.round_number is not None)
            await scenario(app, pilot, screen)

    asyncio.run(main())


def test_an_assistant_files_a_claim_from_the_slip_entry(service: TournamentService) -> None:
    game = event(service)

    async def scenario(app: DuplicadaApp, pilot, screen: EntryScreen) -> None:  # type: ignore[no-untyped-def]
        assert "F1: reclamación" in screen_text(app)
        await pilot.press("2", "f1")                          # the table typed goes to the dialog
        assert isinstance(app.screen, ClaimDialog)
        await pilot.press(*"Anoté H8-CASAS", "enter")
        await until(pilot, lambda: bool(service.claims(game)))
        await until(pilot, lambda: "registrada" in screen_text(app))
        assert "ronda 1, mesa 2" in screen_text(app)
        assert app.focused is screen.query_one("#table")      # the table typed is still there
        await pilot.press("backspace", "f1")                  # a table of another assistant: refused
        assert isinstance(app.screen, ClaimDialog)
        await pilot.press("3", "enter", *"Otra", "enter")
        await until(pilot, lambda: "Reclamación no registrada" in screen_text(app))
        assert len(service.claims(game)) == 1

    run_entry(service, scenario)
    [claim] = service.claims(game)
    assert (claim.round_number, claim.text, claim.status) == (1, "Anoté H8-CASAS", ClaimStatus.OPEN.value)


def test_leaving_with_slips_being_saved_says_they_are_queued(service: TournamentService) -> None:
    event(service)

    async def scenario(app: DuplicadaApp, pilot, screen: EntryScreen) -> None:  # type: ignore[no-untyped-def]
        screen._busy = True                                   # a slip on its way to the database
        await pilot.press("escape")
        text = screen_text(app)
        assert "Guardando 1 papeleta en cola" in text and "No anotada" not in text
        assert app.screen is screen
        screen._busy = False

    run_entry(service, scenario)


def test_radio_buttons_and_check_boxes_show_their_state_with_a_mark() -> None:
    # Textual's radio buttons always draw «●» and its check boxes «X»: only the colour
    # says which is chosen. Ours draw a different mark.
    class Toggles(App[None]):
        def compose(self) -> ComposeResult:
            yield MarkedRadioButton("Aceptada", value=True)
            yield MarkedRadioButton("Rechazada")
            yield MarkedCheckbox("cambio de fichas", value=True)
            yield MarkedCheckbox("sin cambio")

    async def main() -> None:
        app = Toggles()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            def line(label: str) -> str:
                return next(row for row in screen_text(app).splitlines() if label in row).split(label)[0]

            assert "●" in line("Aceptada") and "○" in line("Rechazada") and "●" not in line("Rechazada")
            assert "x" in line("cambio de fichas") and "x" not in line("sin cambio")
            await pilot.press("tab", "space")                 # Rechazada chosen by hand
            assert "●" in line("Rechazada")

    asyncio.run(main())


# --- every screen at 80×24 ---------------------------------------------------------------------
SAFE_GLYPHS = set("—–‘’“”•…‹›‼€←↑→↓↔↕−≈≠≡≤≥∞√■□▪▫▲►▼◄○●◊♦")
"""Beyond Latin-1: the WGL4 glyphs the app may draw (every common terminal and browser
font has them); box drawing and block elements (U+2500–U+259F) are drawn by the browser's
terminal itself."""


def uncommon_glyphs(text: str) -> set[str]:
    """The characters of ``text`` a common font may lack."""
    return {char for char in text if ord(char) > 0xFF and char not in SAFE_GLYPHS
            and not 0x2500 <= ord(char) <= 0x259F}


def textual_english() -> set[str]:
    """Every key description Textual's own widgets declare (English)."""
    import textual.widgets
    from textual.app import App as TextualApp
    from textual.screen import Screen

    classes = [TextualApp, Screen] + [getattr(textual.widgets, name) for name in textual.widgets.__all__]
    from textual.widgets._select import SelectOverlay
    classes.append(SelectOverlay)
    return {binding.description for cls in classes if isinstance(cls, type) and hasattr(cls, "_merged_bindings")
            and cls._merged_bindings is not None
            for _, binding in cls._merged_bindings if binding.description}


def cut_texts(app: App[None]) -> list[str]:
    """Labels, buttons and one-line texts too wide for their place, and border titles cut."""
    from rich.cells import cell_len
    from textual.widgets import Button, Input, Label, Static

    cut: list[str] = []
    for widget in app.screen.query("*"):
        if not widget.display or widget.size.width == 0:
            continue
        title = widget.border_title
        if title and cell_len(str(widget.border_title)) + 4 > widget.size.width:
            cut.append(f"border title {title!r}")
        if isinstance(widget, Input) and widget.placeholder and not widget.value:
            if cell_len(widget.placeholder) > widget.content_region.width:
                cut.append(f"placeholder {widget.placeholder!r} ({widget.content_region.width})")
        if isinstance(widget, (Label, Button, Static)) and not type(widget).__name__.startswith(("Toast", "Header")):
            width, height = widget.content_region.width, widget.content_region.height
            if width <= 0 or height <= 0:
                continue
            plain = str(widget.render())
            needed = sum(max(1, -(-cell_len(line) // width)) for line in plain.splitlines() or [""])
            if needed > height:
                cut.append(f"{type(widget).__name__} {plain!r} ({width}×{height})")
    return cut


def check_screen(app: App[None], english: set[str], where: str) -> None:
    from tests.tui.keys import footer_beyond
    from textual.widgets import Footer
    from textual.widgets._footer import FooterKey

    text = screen_text(app)
    assert not uncommon_glyphs(text), (where, uncommon_glyphs(text))
    assert not cut_texts(app), (where, cut_texts(app))
    if app.screen.query(Footer):
        shown = {key.description for key in app.screen.query(FooterKey)}
        assert not shown & english, (where, shown & english)
        assert not footer_beyond(app.screen), (where, footer_beyond(app.screen))


def test_every_screen_at_80_by_24_is_spanish_whole_and_in_common_glyphs(service: TournamentService) -> None:
    from textual.widgets import OptionList

    from tui.app.screens.home import HomeScreen

    game = event(service)
    service.enter_slip(game, 1, "H8-CASA")
    service.file_claim(game, 1, 1, "Anoté otra")
    english = textual_english()
    assert "Dismiss menu" in english

    async def main() -> None:
        app = DuplicadaApp(service.with_pin(None), poll=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await idle(pilot)
            check_screen(app, english, "inicio")
            await pilot.press("enter")
            await idle(pilot)
            check_screen(app, english, "identificación")
            await pilot.press(*pin_of("judge"), "enter")
            await mounted(pilot, HomeScreen)
            await idle(pilot)
            check_screen(app, english, "menú")
            menu = app.screen.query_one("#menu", OptionList)
            for index in range(menu.option_count):
                title = str(menu.get_option_at_index(index).prompt)
                menu.highlighted = index
                await pilot.press("enter")
                await idle(pilot)
                await pilot.pause()
                check_screen(app, english, title)
                if title == "Preparación del torneo":
                    from textual.widgets import Select
                    select = app.screen.query(Select).first()
                    select.focus()
                    await pilot.press("enter")                                 # the list opens
                    await pilot.pause()
                    check_screen(app, english, "lista desplegada")
                    await pilot.press("escape")
                    for key in ("f3", "f4", "f5"):
                        await pilot.press(key)
                        await idle(pilot)
                        check_screen(app, english, f"{title} {key}")
                if title == "Clasificaciones":
                    for key in ("f3", "f4", "f5"):
                        await pilot.press(key)
                        await idle(pilot)
                        check_screen(app, english, f"{title} {key}")
                    await pilot.press("r")                                     # resolve: radio buttons
                    await idle(pilot)
                    check_screen(app, english, "resolver reclamación")
                    await pilot.press("escape")
                if title == "Consola del juez árbitro":
                    await until(pilot, lambda: getattr(app.screen, "loaded", False))
                    await idle(pilot)
                    check_screen(app, english, title)
                    await pilot.press("x")                                     # the III.29 dialog
                    await idle(pilot)
                    check_screen(app, english, "cambiar atril")
                    await pilot.press("escape")
                if title == "Entrada de papeletas":
                    await pilot.press("f1")
                    await idle(pilot)
                    check_screen(app, english, "reclamación")
                    await pilot.press("escape")
                while not isinstance(app.screen, HomeScreen):
                    await pilot.press("escape")
                    await idle(pilot)

    asyncio.run(main())


def test_toasts_wait_while_a_dialog_is_open(service: TournamentService) -> None:
    from textual.widgets._toast import Toast

    from tui.app.widgets.judge_dialogs import ReasonDialog

    event(service)

    async def main() -> None:
        app = DuplicadaApp(service, poll=False)
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            app.state.tournament_id = service.tournament().id
            app.authenticate(pin_of("judge"))
            await app.push_screen(ReasonDialog("Cambiar el atril (III.29)"))
            await pilot.pause()
            app.notify("ALCEN", title="Cronómetro", severity="error")
            await pilot.pause()
            await pilot.pause()
            assert not [toast for toast in app.screen.query(Toast) if toast.display], "a toast covers the dialog"
            assert "ALCEN" not in screen_text(app)
            await pilot.press("escape")                                        # the dialog closes
            await pilot.pause()
            await pilot.pause()
            await until(pilot, lambda: "ALCEN" in screen_text(app))          # shown on the screen underneath

    asyncio.run(main())
