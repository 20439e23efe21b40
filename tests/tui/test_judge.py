"""The judge's console (issue 4 §2): game, racks, master choice (III.15), what is read
aloud (III.16–III.18), the round clock (III.13), closing a round (III.24)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from textual.pilot import Pilot
from textual.widgets import Input, Static

from duplicate.rules.announce import SpellingTable
from duplicate.rules.timer import Cue
from duplicate.service.facade import TournamentService
from tests.credentials import JUDGE_PIN, pin_of
from tests.tui.keys import footer_beyond, footer_laid_out
from tests.tui.waiting import idle, mounted, until
from tui.app.application import DuplicadaApp
from tui.app.messages import DataChanged
from tui.app.screens.game_dialogs import ConfirmScreen, NewGameScreen
from tui.app.screens.home import HomeScreen
from tui.app.screens.judge import JudgeScreen
from tui.app.screens.judge_presenter import situation
from tui.app.widgets.board import BoardView
from tui.app.widgets.judge_dialogs import ConflictDialog
from tui.app.widgets.moves import MoveChoices
from tui.app.widgets.timer import RoundClock

PLAYERS = ("Ana", "Blas", "Carmen")


def tournament(service: TournamentService, *, game_seed: int | None = None) -> None:
    """A tournament with three players, one assistant for tables 1–3, and a game when
    ``game_seed`` is given."""
    service.create_tournament("Open de Pruebas")
    for name in PLAYERS:
        service.add_player(name)
    service.set_assistant_range("aux1", 1, 3)
    if game_seed is not None:
        service.create_game(rounds=5, seed=game_seed)


class FakeClock:
    """A monotonic clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def console_app(service: TournamentService) -> DuplicadaApp:
    app = DuplicadaApp(service, poll=False)
    return app


async def open_console(app: DuplicadaApp, pilot: Pilot, clock: Callable[[], float] | None = None) -> JudgeScreen:
    """Sign in as judge and open the console with a frozen clock (no timer interval)."""
    app.state.tournament_id = app.service.tournaments()[0].id
    app.authenticate(pin_of("judge"))
    screen = JudgeScreen(clock=clock or FakeClock(), tick=None)
    await app.push_screen(screen)
    await until(pilot, lambda: screen.loaded and not screen.busy)
    return screen


async def settled(pilot: Pilot, screen: JudgeScreen) -> None:
    """Wait for the action in progress, and the next best scores when there is a rack."""
    await until(pilot, lambda: not screen.busy and (screen.state.rack_round is None
                                                    or screen.scores_round == screen.state.rack_round))
    await pilot.pause()


def shown(screen: JudgeScreen, selector: str) -> str:
    return str(screen.query_one(selector, Static).render())


def test_create_a_game_draw_a_rack_and_choose_another_equal_top(service: TournamentService) -> None:
    tournament(service)
    table = SpellingTable.load()

    async def scenario() -> None:
        app = console_app(service)
        async with app.run_test(size=(120, 40)) as pilot:
            screen = await open_console(app, pilot)
            assert screen.state.game is None
            assert "no tiene partidas" in shown(screen, "#message")
            await pilot.press("p")
            assert isinstance(app.screen, NewGameScreen)
            await pilot.press("5", "enter", *"1234", "enter", "enter")
            await settled(pilot, screen)
            assert screen.state.game == 1 and "creada" in shown(screen, "#message")

            await pilot.press("d")
            await settled(pilot, screen)
            pending = service.pending_round(1)
            assert pending is not None
            moves = screen.query_one("#moves", MoveChoices)
            tops = [top.canonical for top in moves.tops]
            # The III.15 master first; a first move always has at least H8/8H twins.
            assert tops[0] == screen.state.tops[0].canonical and len(tops) >= 2
            assert [top.reason for top in moves.tops] == [ranked.reason for ranked in pending.ranked]
            assert moves.others and all(other.score < moves.tops[0].score for other in moves.others)
            reading = shown(screen, "#reading")
            first = pending.rack.drawn[0]
            symbol = "?" if first == pending.rack.alphabet.blank else pending.rack.alphabet.symbol(first)
            assert symbol == "?" or f"{symbol} de {table.keyword(symbol)}" in reading

            await pilot.press("down", "enter")
            assert isinstance(app.screen, ConfirmScreen)
            await pilot.press("s")
            await settled(pilot, screen)
            chosen = tops[1]
            [stored] = service.rounds(1)
            assert stored.master == chosen and stored.master_reason is not None
            assert "elegida por el juez árbitro" in stored.master_reason
            reading = shown(screen, "#reading")
            coordinate = chosen.split("-")[0]
            row = coordinate[0] if coordinate[0].isalpha() else coordinate[-1]
            assert table.keyword(row) in reading and f"{stored.master_score} puntos" in reading
            assert screen.query_one("#board", BoardView).highlight  # the master's squares

    asyncio.run(scenario())


def test_a_typed_rack_with_two_blanks_and_errors_in_spanish(service: TournamentService) -> None:
    tournament(service, game_seed=3)

    async def scenario() -> None:
        app = console_app(service)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await open_console(app, pilot)
            await pilot.press("a", *"AAAAAAA", "enter")
            await settled(pilot, screen)
            message = shown(screen, "#message")
            assert "vocales" in message and "Traceback" not in message
            assert screen.query_one("#rack-input", Input).value == "AAAAAAA"   # kept to be corrected
            assert app.focused is screen.query_one("#rack-input")              # where the next key belongs
            await pilot.press(*["backspace"] * 7)
            assert service.pending_round(1) is None
            await pilot.press(*"??VYZJU", "enter")
            await settled(pilot, screen)
            pending = service.pending_round(1)
            assert pending is not None and pending.arbiter_rack
            moves = screen.query_one("#moves", MoveChoices)
            assert [top.canonical for top in moves.tops] == [top.canonical for top in screen.state.tops]
            assert moves.tops[0].score == pending.ranked[0].score
            master = moves.tops[0].canonical
            await pilot.press("d")                             # a rack is already set
            await settled(pilot, screen)
            assert "ya tiene atril" in shown(screen, "#message")
            await pilot.press("enter", "s")                    # Enter chooses the III.15 master
            await settled(pilot, screen)
            [stored] = service.rounds(1)
            assert stored.master == master
            assert stored.master_reason == pending.ranked[0].reason

    asyncio.run(scenario())


def test_the_clock_calls_the_cues_of_iii_13(service: TournamentService) -> None:
    tournament(service, game_seed=5)
    clock = FakeClock()

    async def scenario() -> None:
        app = console_app(service)
        bells: list[None] = []
        app.bell = lambda: bells.append(None)  # type: ignore[method-assign]
        async with app.run_test(size=(120, 40)) as pilot:
            screen = await open_console(app, pilot, clock)
            widget = screen.query_one("#clock", RoundClock)
            assert widget.text == "3:00" and widget.cue is None
            await pilot.press("t")
            cues = []
            for seconds, text in ((121, "0:59"), (30, "0:29"), (25, "0:04"), (10, "0:00")):
                clock.now += seconds
                screen.refresh_clock()
                await pilot.pause()
                cues.append(widget.cue)
                assert widget.text == text
            assert cues == [Cue.ONE_MINUTE, Cue.THIRTY_SECONDS, Cue.RAISE, Cue.TIME]
            assert len(bells) == 4 and "TIEMPO" in str(widget.query_one("#clock-cue", Static).render())
            await pilot.press("0")
            assert widget.text == "3:00" and widget.cue is None and not widget.timer.running
            await pilot.press("t")
            clock.now += 10
            await pilot.press("t")                             # pause
            clock.now += 100
            screen.refresh_clock()
            assert widget.text == "2:50"
            # Every start, pause and reset is recorded for the projection screens.
            await idle(pilot)
            game = service.current_game()
            assert service.timer_state(game)[1:] == (170.0, False)
            timers = [event.payload["action"] for event in service.history(game_number=game) if event.kind == "timer"]
            assert timers == ["start", "reset", "start", "pause"]

    asyncio.run(scenario())


def test_closing_the_round_marks_the_missing_slips(service: TournamentService) -> None:
    tournament(service, game_seed=11)
    service.draw_rack(1)

    async def scenario() -> None:
        app = console_app(service)
        async with app.run_test(size=(120, 40)) as pilot:
            screen = await open_console(app, pilot)
            await settled(pilot, screen)
            await pilot.press("c")
            assert "con jugada maestra" in shown(screen, "#message")
            await pilot.press("enter", "s")
            await settled(pilot, screen)
            master = service.rounds(1)[0].master
            assert master is not None
            service.enter_slip(1, 2, master)
            screen.post_message(DataChanged(0))
            await until(pilot, lambda: screen.status is not None and screen.status.entered == 1)
            assert "faltan 1, 3" in shown(screen, "#status")
            await pilot.press("c")
            assert isinstance(app.screen, ConfirmScreen)
            assert "mesas 1, 3" in str(app.screen.query_one("#question", Static).render())
            await pilot.press("s")
            await settled(pilot, screen)
            assert "Ronda 1 cerrada: 2 papeletas" in shown(screen, "#message")
            assert "3/3" in shown(screen, "#status")

    asyncio.run(scenario())
    slips = {slip.table_number: slip for slip in service.slips(1, 1)}
    assert (slips[1].status, slips[1].score) == ("missing", 0)
    assert (slips[3].status, slips[3].score) == ("missing", 0)
    assert slips[2].score > 0
    assert service.rounds(1)[0].closed


def test_ending_the_game_from_the_console(service: TournamentService) -> None:
    tournament(service, game_seed=2)

    async def scenario() -> None:
        app = console_app(service)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await open_console(app, pilot)
            await pilot.press("f", "escape")                          # cancelled: nothing happens
            await pilot.pause()
            assert not screen.state.over and app.screen is screen
            await pilot.press("f", "enter")                           # no reason: refused by the dialog
            assert "Falta el motivo" in str(app.screen.query_one("#dialog-error").render())
            await pilot.press(*"falta de tiempo", "enter")
            await settled(pilot, screen)
            assert screen.state.over and "terminada" in shown(screen, "#message")
            await pilot.press("escape")
            assert not isinstance(app.screen, JudgeScreen)

    asyncio.run(scenario())
    assert service.tournament().games[0].status == "ended"
    [ended] = [event for event in service.history(game_number=1) if event.kind == "game_ended"]
    assert ended.reason == "falta de tiempo"


def test_replacing_the_rack_from_the_console_III29(service: TournamentService) -> None:
    # Issue 13 §1: «x» replaces the rack in play — by the one typed in the rack field, or
    # by another drawn — after the judge gives a reason; the round stays the same.
    tournament(service, game_seed=2)

    async def scenario() -> None:
        app = console_app(service)
        async with app.run_test(size=(120, 40)) as pilot:
            screen = await open_console(app, pilot)
            await pilot.press("d")
            await settled(pilot, screen)
            first = screen.state.rack_round
            assert first == 1
            drawn = service.rounds(1)[0].rack
            await pilot.press("x", *"atril mal sacado", "enter")
            await settled(pilot, screen)
            assert "cambiado (III.29)" in shown(screen, "#message")
            assert screen.state.rack_round == 1 and len(service.rounds(1)) == 1
            screen.query_one("#rack-input").value = "CASAMOS"
            await pilot.press("x", *"el juez dicta el atril", "enter")
            await settled(pilot, screen)
            assert service.rounds(1)[0].rack == "CASAMOS"
            replaced = [(event.payload.get("replaces"), event.reason) for event in service.history(game_number=1)
                        if event.kind in ("rack_drawn", "rack_set") and event.payload.get("replaces")]
            assert replaced[0] == (drawn, "atril mal sacado") and replaced[1][1] == "el juez dicta el atril"

    asyncio.run(scenario())


# --- snapshots: seeded game, frozen clock ------------------------------------------------------
def _snapshot_run(service: TournamentService, choose: bool) -> Callable[[Pilot], object]:
    async def run_before(pilot: Pilot) -> None:
        app = pilot.app
        assert isinstance(app, DuplicadaApp)
        screen = await open_console(app, pilot)
        await settled(pilot, screen)
        if choose:
            await pilot.press("enter", "s")
            await settled(pilot, screen)
        screen.query_one("#moves", MoveChoices).focus()
        await pilot.pause()

    return run_before


def test_snapshot_console_with_a_rack(service: TournamentService, snap_compare) -> None:  # type: ignore[no-untyped-def]
    tournament(service, game_seed=2024)
    service.draw_rack(1)
    service.choose_master(1)
    service.draw_rack(1)
    assert snap_compare(console_app(service), terminal_size=(120, 40), run_before=_snapshot_run(service, False))


def test_snapshot_console_after_the_master(service: TournamentService, snap_compare) -> None:  # type: ignore[no-untyped-def]
    tournament(service, game_seed=2024)
    service.draw_rack(1)
    assert snap_compare(console_app(service), terminal_size=(120, 40), run_before=_snapshot_run(service, True))


def test_the_menu_opens_the_console_and_another_stations_rack_appears(service: TournamentService) -> None:
    tournament(service, game_seed=8)

    async def scenario() -> None:
        app = console_app(service)
        async with app.run_test(size=(120, 40)) as pilot:
            await idle(pilot)                                  # the tournaments are read in a worker
            await pilot.press("enter")                         # the only tournament
            await pilot.press(*JUDGE_PIN, "enter")             # the judge's PIN, checked in a worker
            await mounted(pilot, HomeScreen)
            await idle(pilot)
            await pilot.press("down", "enter")                 # «Consola del juez árbitro»
            screen = await mounted(pilot, JudgeScreen)
            await until(pilot, lambda: screen.loaded and not screen.busy)
            assert screen.state.rack_round is None
            other = TournamentService(service.db, station="puesto-2", lexicon=service.lexicon_for(service.tournament()), pin=JUDGE_PIN)
            other.draw_rack(1)
            screen.post_message(DataChanged(1))
            await until(pilot, lambda: screen.state.rack_round == 1)
            await settled(pilot, screen)
            assert screen.query_one("#moves", MoveChoices).tops

    asyncio.run(scenario())


def test_the_console_lists_pending_conflicts_and_resolves_them(service: TournamentService) -> None:
    # Issue 13 §1: the judge sees the round's conflicts with both entries, cannot close
    # the round while one is pending, and resolves it from the console («r»).
    tournament(service, game_seed=2)
    service.draw_rack(1)
    master = service.choose_master(1)
    assert master.master is not None
    service.enter_slip(1, 1, master.master)
    service.enter_slip(1, 1, "H8-QZQZ")          # a second, different slip

    async def scenario() -> None:
        app = console_app(service)
        async with app.run_test(size=(120, 40)) as pilot:
            screen = await open_console(app, pilot)
            screen.refresh_status()
            await until(pilot, lambda: screen.status is not None and bool(screen.status.pending))
            await pilot.pause()
            status = shown(screen, "#pending")                  # in sight above the panels (issue 25 §2)
            assert "Pendiente del juez (1" in status and "H8-QZQZ" in status and master.master in status
            await pilot.press("c")
            await pilot.pause()
            assert "tiene 1 conflicto pendiente:" in shown(screen, "#message") and app.screen is screen
            await pilot.press("r")
            dialog = await mounted(pilot, ConflictDialog)
            assert "H8-QZQZ (0 puntos" in str(dialog.query_one("#conflict-new").render())
            await pilot.press("enter", *"la papeleta dice la maestra", "enter")        # keep the stored one
            await settled(pilot, screen)
            assert "resuelto: se mantiene la anotada" in shown(screen, "#message")

    asyncio.run(scenario())
    assert service.conflicts(1) == []
    assert service.slips(1, 1)[0].text == master.master


def test_the_round_clock_survives_leaving_the_console_III13(service: TournamentService) -> None:
    # Issue 13 §1: the clock is the service's; leaving the console (or restarting the app)
    # neither resets nor stops it.
    tournament(service, game_seed=2)
    service.draw_rack(1)

    async def scenario() -> None:
        app = console_app(service)
        async with app.run_test(size=(120, 40)) as pilot:
            screen = await open_console(app, pilot)
            clock = screen.query_one("#clock", RoundClock)
            assert not clock.timer.running and clock.timer.remaining() == 180
            await pilot.press("t")                                   # start
            await until(pilot, lambda: service.timer_state(1) is not None)
            await pilot.press("escape")
            await pilot.pause()
            again = await open_console(app, pilot)                   # a new console, as after a restart
            clock = again.query_one("#clock", RoundClock)
            assert clock.timer.running and 170 < clock.timer.remaining() <= 180
            await pilot.press("t")                                   # pause
            await until(pilot, lambda: service.timer_state(1) is not None and not service.timer_state(1)[2])
            paused = service.timer_state(1)[1]
            await pilot.press("escape")
            await pilot.pause()
            third = await open_console(app, pilot)
            clock = third.query_one("#clock", RoundClock)
            assert not clock.timer.running and abs(clock.timer.remaining() - paused) < 0.01

    asyncio.run(scenario())


def test_the_next_game_waits_for_published_results_unless_the_judge_says_why_IV32(service: TournamentService) -> None:
    tournament(service, game_seed=2)
    service.end_game(1, reason="prueba")

    async def scenario() -> None:
        app = console_app(service)
        async with app.run_test(size=(120, 40)) as pilot:
            screen = await open_console(app, pilot)
            assert screen.state.unpublished == 1
            await pilot.press("p")
            assert "IV.32" in str(app.screen.query_one(".title").render())
            await pilot.press("escape")                               # back: nothing created
            await pilot.pause()
            assert app.screen is screen and len(service.tournament().games) == 1
            await pilot.press("p", *"se publica al final del día", "enter")
            assert isinstance(app.screen, NewGameScreen)
            await pilot.press("5", "enter", *"1234", "enter", "enter")
            await settled(pilot, screen)
            assert screen.state.game == 2 and "creada" in shown(screen, "#message")

    asyncio.run(scenario())
    [created] = [event for event in service.history() if event.kind == "game_created" and event.payload["number"] == 2]
    assert created.reason.endswith("se publica al final del día")


def test_undoing_the_master_from_the_console(service: TournamentService) -> None:
    tournament(service, game_seed=2)

    async def scenario() -> None:
        app = console_app(service)
        async with app.run_test(size=(120, 40)) as pilot:
            screen = await open_console(app, pilot)
            await pilot.press("d")
            await settled(pilot, screen)
            await pilot.press("enter", "s")                         # the III.15 master, confirmed
            await settled(pilot, screen)
            assert screen.state.rack_round is None and screen.state.last_master is not None
            assert "«u» deshace" in situation(screen.state)
            await pilot.press("u", *"era otra de las empatadas", "enter")
            await settled(pilot, screen)
            assert screen.state.rack_round == 1 and "deshecha" in shown(screen, "#message")

    asyncio.run(scenario())
    assert service.rounds(1)[0].master is None


def test_the_console_at_80_by_24_keeps_the_rack_and_the_clock_in_sight(service: TournamentService) -> None:
    # Issue 13 §3: on a narrow terminal the board, rack and clock panels are below the
    # moves; one line above them says the rack, the bag and the clock; the footer fits.
    tournament(service, game_seed=2)

    async def scenario() -> None:
        app = console_app(service)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await open_console(app, pilot)
            await pilot.press("d")
            await settled(pilot, screen)
            summary = screen.query_one("#summary", Static)
            assert summary.region.height == 1 and summary.region.bottom <= 5
            rack = service.pending_round(1)
            assert rack is not None
            symbols = [rack.rack.alphabet.symbol(tile) for tile in rack.rack.leftover + rack.rack.drawn]
            assert f"Atril {' '.join(symbols)} · bolsa" in shown(screen, "#summary")
            assert "crono 3:00 parado" in shown(screen, "#summary")
            await pilot.press("t")
            await pilot.pause()
            assert "crono 3:00 · TIEMPO (inicio)" in shown(screen, "#summary")      # started: the call to make (III.13)
            await until(pilot, lambda: footer_laid_out(screen))
            assert footer_beyond(screen) == []

    asyncio.run(scenario())


def test_a_wrong_replacement_rack_is_refused_before_the_reason_is_typed_III12(service: TournamentService) -> None:
    # Issue 25 §3: the typed rack is checked (bag, III.12) as the reason dialog opens; the
    # refusal shows while the reason is typed, and Enter does not replace anything.
    from tui.app.widgets.judge_dialogs import CheckedReasonDialog

    tournament(service, game_seed=2)

    async def scenario() -> None:
        app = console_app(service)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await open_console(app, pilot)
            await pilot.press("d")
            await settled(pilot, screen)
            drawn = service.rounds(1)[0].rack
            await pilot.press("a", *"AAAAAAA", "enter")               # six A tiles only in the bag... and III.12
            dialog = app.screen
            assert isinstance(dialog, CheckedReasonDialog)
            await until(pilot, lambda: dialog.checked)
            assert dialog.refused and "no cambia nada" in str(dialog.query_one("#dialog-error", Static).render())
            await pilot.press(*"atril mal leído", "enter")
            assert app.screen is dialog                                # refused: still open, nothing done
            await pilot.press("escape")
            await pilot.pause()
            assert service.rounds(1)[0].rack == drawn
            assert screen.focused is screen.query_one("#rack-input", Input)   # back to correct it
            screen.query_one("#rack-input", Input).value = ""
            await pilot.press(*"CASAMOS", "enter", *"el juez dicta el atril", "enter")  # at once: kept in order
            await until(pilot, lambda: "".join(screen.state.rack_drawn) == "CASAMOS" and not screen.busy)
            assert service.rounds(1)[0].rack == "CASAMOS"
            assert [event.reason for event in service.history(game_number=1)
                    if event.kind == "rack_set"] == ["el juez dicta el atril"]

    asyncio.run(scenario())


def test_enter_on_a_rack_with_no_legal_move_says_so(service: TournamentService) -> None:
    # Issue 25 §3, III.29: QXZVGUU has no move on the empty board; Enter says why there is
    # no master to choose, and so does the note after the rack is typed.
    tournament(service, game_seed=3)

    async def scenario() -> None:
        app = console_app(service)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await open_console(app, pilot)
            await pilot.press("a", *"QXZVGUU", "enter")
            # The first rack of the process loads the move generator: slow on a loaded machine.
            await until(pilot, lambda: screen.state.rack_round == 1 and not screen.busy)
            assert "no hay ninguna jugada válida: cámbielo" in shown(screen, "#message")
            screen.query_one("#moves", MoveChoices).focus()
            await pilot.press("enter")
            await pilot.pause()
            said = shown(screen, "#message")
            assert "no hay ninguna jugada válida" in said and "no hay maestra que elegir" in said
            assert service.rounds(1)[0].master is None

    asyncio.run(scenario())


def test_an_unplayable_rack_with_a_slip_is_replaced_and_the_game_ended_from_the_console(
        service: TournamentService) -> None:
    # Issue 25 §1, III.29, III.22: with QXZVGUU in play and a slip entered against it, «x»
    # replaces it (the slip set aside, said), and «f» ends the game with such a rack in play.
    tournament(service, game_seed=3)
    service.set_rack(1, "QXZVGUU")
    service.enter_slip(1, 1, "H8-GUZ", round_number=1)

    async def scenario() -> None:
        app = console_app(service)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await open_console(app, pilot)
            await pilot.press("x", *"nadie puede jugar", "enter")
            await until(pilot, lambda: screen.state.top_total > 0 and not screen.busy)
            assert "1 papeleta del atril retirado apartada" in shown(screen, "#message")
            assert service.slips(1) == [] and len(service.set_aside_slips(1)) == 1
            screen.query_one("#rack-input", Input).value = "QXZVGUU"
            screen.query_one("#rack-input", Input).focus()
            await pilot.press("enter", *"vuelve el atril dictado", "enter")
            await until(pilot, lambda: screen.state.rack_round == 1 and screen.state.top_total == 0
                        and not screen.busy)
            service.enter_slip(1, 2, "H8-VUG", round_number=1)
            screen.query_one("#moves", MoveChoices).focus()
            await pilot.press("f", *"se acaba el tiempo", "enter")
            await until(pilot, lambda: screen.state.over and not screen.busy)
            assert "terminada: se acaba el tiempo" in shown(screen, "#message")
            assert [slip.table_number for slip in service.set_aside_slips(1)] == [1, 2]

    asyncio.run(scenario())
