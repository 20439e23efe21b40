"""A venue's judge in the app (issue 27 §2, online venues; docs/venues.md «Rights»): it
signs in with its PIN, reaches the judge's console and resolves its venue's conflict
(II.4.a within its room); the rack draw, the master, the clock and closing the round are
not offered to it, and the other venue's tables and conflicts are not shown to it — all
at 80×24, nothing cut off. Every check is made on what the service stored."""

from __future__ import annotations

import asyncio
from pathlib import Path

from textual.widgets import DataTable, OptionList

from duplicate.rules.statuses import ClaimStatus
from duplicate.service.facade import TournamentService
from duplicate.service.views import PendingSlip, RoundStatus
from duplicate.storage.database import open_database
from lexicon.lexicon import Lexicon
from tests.credentials import JUDGE_PIN
from tests.tui.keys import footer_actions, footer_beyond, footer_laid_out
from tests.tui.screen_text import screen_text
from tests.tui.waiting import idle, mounted, until
from tui.app.application import DuplicadaApp
from tui.app.screens.entry import EntryScreen
from tui.app.screens.home import HomeScreen
from tui.app.screens.judge import JudgeScreen
from tui.app.screens.judge_presenter import within
from tui.app.screens.standings import StandingsScreen
from tui.app.widgets.judge_dialogs import ConflictDialog

LLORET_JUDGE_PIN = "lloret-juez-pin"


def two_venues(tmp_path: Path, lexicon: Lexicon) -> tuple[TournamentService, str]:
    """The organiser's tournament with venues Lloret (tables 1–2) and Reus (3–4), a judge
    PIN for Lloret, round 1 with its master and a conflict (two different slips) at
    table 1 (Lloret) and at table 3 (Reus). Returns the organiser's service and the master."""
    organiser = TournamentService(open_database(str(tmp_path / "t.db")), station="organizador",
                                  lexicon=lexicon, pin=JUDGE_PIN)
    organiser.create_tournament("Simultáneo")
    for venue in ("Lloret", "Reus"):
        organiser.add_venue(venue)
        for index in range(2):
            organiser.add_player(f"{venue} {index + 1}", venue=venue)
    organiser.set_pin("judge", LLORET_JUDGE_PIN, venue="Lloret")
    organiser.create_game(rounds=3, seed=5)
    organiser.draw_rack(1)
    master = organiser.choose_master(1).master
    assert master is not None
    for table in (1, 3):
        organiser.enter_slip(1, table, master)
        organiser.enter_slip(1, table, "H8-QZQZ")                 # a second, different slip
    assert len(organiser.conflicts(1)) == 2
    return organiser, master


async def open_as_lloret_judge(pilot, app: DuplicadaApp, title: str) -> list[str]:  # type: ignore[no-untyped-def]
    """Sign in at the only tournament with Lloret's judge PIN, typed, and open the home
    menu's entry ``title``; returns the menu's titles (what the venue judge is offered)."""
    await idle(pilot)                                   # the tournaments, read in a worker
    await pilot.press("enter", *LLORET_JUDGE_PIN, "enter")
    await mounted(pilot, HomeScreen)
    menu = app.screen.query_one("#menu", OptionList)
    titles = [str(menu.get_option_at_index(index).prompt) for index in range(menu.option_count)]
    menu.highlighted = titles.index(title)
    await pilot.press("enter")
    return titles


def test_a_venue_judge_resolves_its_venues_conflict_and_is_not_offered_the_game(tmp_path: Path,
                                                                               spanish_lexicon: Lexicon) -> None:
    organiser, master = two_venues(tmp_path, spanish_lexicon)
    base = TournamentService(open_database(str(tmp_path / "t.db")), station="lloret", lexicon=spanish_lexicon)
    rounds_before = [(view.number, view.master, view.closed) for view in organiser.rounds(1)]

    async def scenario() -> None:
        app = DuplicadaApp(base, station="lloret", poll=False)
        async with app.run_test(size=(80, 24)) as pilot:
            titles = await open_as_lloret_judge(pilot, app, "Consola del juez árbitro")
            assert app.state.venue == "Lloret"
            assert "Consola del juez árbitro" in titles and "Preparación del torneo" in titles
            await mounted(pilot, JudgeScreen)
            screen = app.screen
            assert isinstance(screen, JudgeScreen)
            await until(pilot, lambda: screen.loaded and screen.status is not None and not screen.busy)
            await idle(pilot)
            assert screen.status is not None
            assert [item.table for item in screen.status.pending] == [1]      # Reus's conflict not shown
            assert screen.status.expected == 2                                 # its two tables
            text = screen_text(app)
            assert "mesa 1 (Lloret 1)" in text and "mesa 3" not in text and "Reus" not in text
            assert "juez árbitro del torneo" in text                           # who draws the racks
            # Nothing of the game is offered: no rack, master, clock, close or new game.
            offered = footer_actions(screen)
            assert not offered & {"draw", "type_rack", "replace_rack", "clock", "close_round", "end_game",
                                  "new_game", "select"}, offered
            await until(pilot, lambda: footer_laid_out(screen))
            assert footer_beyond(screen) == []
            assert "conflictos de su sede («r»)." in text                      # the whole situation line
            pending = screen.query_one("#pending").region
            assert pending.height and 1 <= pending.y and pending.bottom <= 23    # in sight, above the footer
            await pilot.press("d", "t", "c", "p", "f", "x")                   # pressed anyway: nothing happens
            await idle(pilot)
            assert app.screen is screen
            # Its venue's conflict: «r», keep the stored slip, with a reason.
            await pilot.press("r")
            dialog = await mounted(pilot, ConflictDialog)
            assert "H8-QZQZ" in str(dialog.query_one("#conflict-new").render())
            assert "mesa 1" in str(dialog.query_one(".title").render()).lower()
            await pilot.press("enter", *"la papeleta dice la maestra", "enter")
            await until(pilot, lambda: app.screen is screen and not screen.busy)
            await until(pilot, lambda: screen.status is not None and not screen.status.pending)
            assert "resuelto: se mantiene la anotada" in str(screen.query_one("#message").render())
            await pilot.press("r")                                             # nothing of its venue is left
            await idle(pilot)
            assert app.screen is screen
            assert "No hay conflictos pendientes" in str(screen.query_one("#message").render())

    asyncio.run(scenario())
    conflicts = organiser.conflicts(1)
    assert [conflict.table_number for conflict, _ in conflicts] == [3]         # Reus's is still there
    slips = {slip.table_number: slip for slip in organiser.slips(1, 1)}
    assert slips[1].text == master
    assert [(view.number, view.master, view.closed) for view in organiser.rounds(1)] == rounds_before


def test_a_round_status_within_a_venues_tables() -> None:
    def item(table: int) -> PendingSlip:
        return PendingSlip(conflict_id=table, table=table, player=f"j{table}", kind="duplicate", stored="H8 CASA",
                           stored_score=24, new="H8 CASAS", new_score=26, entered_by="aux")

    status = RoundStatus(round_number=2, expected=6, entered=3, missing_tables=(2, 4, 6),
                         per_assistant={"aux": (6, 3, (2, 4, 6))}, pending=(item(1), item(4), item(5)))
    mine = within(status, [4, 5, 6])
    assert (mine.round_number, mine.expected, mine.entered, mine.missing_tables) == (2, 3, 1, (4, 6))
    assert [pending.table for pending in mine.pending] == [4, 5] and mine.per_assistant == {}
    assert within(status, []).expected == 0 and not within(status, []).pending


def test_a_venue_judge_resolves_its_venues_claim_and_is_not_offered_the_others(tmp_path: Path,
                                                                              spanish_lexicon: Lexicon) -> None:
    organiser, _ = two_venues(tmp_path, spanish_lexicon)
    mine = organiser.file_claim(1, 1, 2, "Entregué la papeleta a tiempo")          # Lloret's table 2
    theirs = organiser.file_claim(1, 1, 4, "Mi papeleta decía H8-CASA")            # Reus's table 4
    base = TournamentService(open_database(str(tmp_path / "t.db")), station="lloret", lexicon=spanish_lexicon)

    async def scenario() -> None:
        app = DuplicadaApp(base, station="lloret", poll=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await open_as_lloret_judge(pilot, app, "Clasificaciones")
            await until(pilot, lambda: isinstance(app.screen, StandingsScreen) and app.screen.loaded)
            screen = app.screen
            await pilot.press("f5")
            await idle(pilot)
            claims = screen.query_one("#claims-table", DataTable)
            claims.move_cursor(row=claims.get_row_index(str(theirs)))
            await pilot.press("r")                                      # the other venue's: not offered
            await idle(pilot)
            assert app.screen is screen
            assert any("de otra sede" in note.message for note in app._notifications)
            claims.move_cursor(row=claims.get_row_index(str(mine)))
            await pilot.press("r", "down", "enter")                     # Rechazada
            await pilot.press(*"no consta", "enter", "enter")
            await until(pilot, lambda: app.screen is screen)
            await idle(pilot)

    asyncio.run(scenario())
    status = {claim.id: (claim.status, claim.resolution) for claim in organiser.claims(1)}
    assert status[mine] == (ClaimStatus.REJECTED.value, "no consta")
    assert status[theirs] == (ClaimStatus.OPEN.value, None)


def test_a_venue_judge_lists_and_corrects_its_venues_slips_only(tmp_path: Path, spanish_lexicon: Lexicon) -> None:
    organiser, master = two_venues(tmp_path, spanish_lexicon)
    organiser.enter_slip(1, 2, "H8-QZQZ")
    organiser.enter_slip(1, 4, "H8-QZQZ")
    base = TournamentService(open_database(str(tmp_path / "t.db")), station="lloret", lexicon=spanish_lexicon)

    async def scenario() -> None:
        app = DuplicadaApp(base, station="lloret", poll=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await open_as_lloret_judge(pilot, app, "Entrada de papeletas")
            await mounted(pilot, EntryScreen)
            screen = app.screen
            assert isinstance(screen, EntryScreen)
            slips = screen.query_one("#slips", DataTable)
            await until(pilot, lambda: slips.row_count > 0 and not screen.reading)
            assert [str(key.value) for key in slips.rows] == ["1", "2"]             # Lloret's tables only
            await pilot.press("f9")                                                 # «all tables»: still its venue's
            await until(pilot, lambda: not screen.reading)
            await idle(pilot)
            assert [str(key.value) for key in slips.rows] == ["1", "2"]
            await pilot.press("4")                                                  # Reus's table: not named
            assert str(screen.query_one("#player").render()) == "la mesa 4 es de otra sede"
            await pilot.press("escape", "2")
            assert str(screen.query_one("#player").render()) == "Lloret 2"
            await pilot.press("f6")
            await pilot.press("ctrl+u", *master, "enter", *"error al teclear", "enter")
            await until(pilot, lambda: not screen.pending)
            await idle(pilot)
            assert "Corregida" in str(screen.query_one("#feedback").render())

    asyncio.run(scenario())
    slips = {slip.table_number: slip for slip in organiser.slips(1, 1)}
    assert slips[2].text == master and slips[4].text == "H8-QZQZ"
