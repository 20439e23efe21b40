"""The slip entry screen (issue 4 §2): slips typed by keyboard are judged and stored by
the service; marks, the master for many tables, logged corrections, other stations'
entries and conflicts; a snapshot at 120×40.

The game is seeded once per module (typed rack ``CASAMO?`` on the empty board, master
chosen by III.15) and each test works on a copy of that database file. Expected scores
come from ``check_move`` on the stored board and rack, not from the screen.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable, Input

from duplicate.record.event_kinds import EventKind
from duplicate.rules.notation import check_move
from duplicate.rules.rack import parse_rack_text
from duplicate.rules.slips import SlipStatus
from duplicate.service.facade import TournamentService
from duplicate.service.settings import TournamentSettings
from duplicate.storage.database import open_database
from lexicon.board import Board
from lexicon.lexicon import Lexicon
from tests.credentials import JUDGE_PIN, pin_of
from tests.tui.keys import footer_beyond, footer_laid_out, send_without_pauses
from tests.tui.waiting import finished, idle, until
from tui.app.application import DuplicadaApp
from tui.app.screens.entry import EntryScreen
from tui.app.widgets.slip_feedback import SlipFeedback

NAMES = ["Ana Pérez", "Ángel Núñez", "Beatriz Ñúñez", "Carmen Gil", "David Sanz", "Elena Ruiz",
         "Fernando Díaz", "Gloria Vidal", "Héctor Mora", "Inés Soler", "Jorge Lara", "Karina Ortiz"]
RACK = "CASAMO?"


@pytest.fixture(scope="module")
def seeded_file(tmp_path_factory: pytest.TempPathFactory, spanish_lexicon: Lexicon) -> Path:
    """A tournament with 12 players, assistants Marta (tables 1–6) and Luis (7–12), and
    game 1 at round 1 with its master placed (no slip entered)."""
    path = tmp_path_factory.mktemp("entry") / "seeded.db"
    database = open_database(str(path))
    service = TournamentService(database, station="mesa-arbitral", lexicon=spanish_lexicon, pin=JUDGE_PIN)
    service.create_tournament("Open de Pruebas", venue="Madrid",
                              settings=TournamentSettings(bonus_mode="automatic", board_notation=True),
                              judge_name="Lucía")
    for index, name in enumerate(NAMES):
        service.add_player(name, club="Club", federation_id=f"F{index}")
    game = service.create_game(rounds=3, seed=7)
    service.set_assistant_range("Marta", 1, 6)
    service.set_assistant_range("Luis", 7, 12)
    for name in ("Marta", "Luis"):
        service.set_pin("assistant", pin_of("assistant", name) or "", name=name)
    service.set_rack(game, RACK)
    service.choose_master(game)
    database.dispose()
    return path


@pytest.fixture
def service(seeded_file: Path, tmp_path: Path, spanish_lexicon: Lexicon) -> TournamentService:
    path = tmp_path / "entry.db"
    shutil.copy(seeded_file, path)
    return TournamentService(open_database(str(path)), station="puesto-1", lexicon=spanish_lexicon, pin=JUDGE_PIN)


def run(service: TournamentService, scenario, *, arbiter: str = "Marta", role: str = "assistant",  # type: ignore[no-untyped-def]
        size: tuple[int, int] = (120, 40)) -> None:
    """Run ``scenario(app, pilot, screen)`` on the entry screen of a signed-in station."""

    async def main() -> None:
        app = DuplicadaApp(service, station="puesto-1", poll=False)
        async with app.run_test(size=size) as pilot:
            app.state.tournament_id = service.tournament().id
            app.authenticate(pin_of(role, arbiter))
            await app.push_screen(EntryScreen())
            await settle(pilot, app.screen)
            await scenario(app, pilot, app.screen)

    asyncio.run(main())


async def settle(pilot: Pilot, screen: EntryScreen) -> None:
    """Wait until every typed action has been judged, stored and reported, and the lists
    read again (in worker threads) are shown."""
    await until(pilot, lambda: not screen.pending and not screen.reading, "the entry queue drained")
    await idle(pilot)                               # the warm-up too (lexicon, generator)
    await pilot.pause()               # the list is refreshed after the feedback's frame


async def type_slip(pilot: Pilot, screen: EntryScreen, table: int, text: str) -> None:
    await pilot.press(*str(table), "enter", *text, "enter")
    await settle(pilot, screen)


def feedback(screen: EntryScreen) -> str:
    return str(screen.query_one(SlipFeedback).render())


def stored(service: TournamentService) -> dict[int, tuple[str, str, int]]:
    return {slip.table_number: (slip.text, slip.status, slip.score) for slip in service.slips(1, 1)}


def expected_score(service: TournamentService, lexicon: Lexicon, text: str) -> int:
    row = service.rounds(1)[0]
    board = Board.from_cgp(row.board_before, lexicon.alphabet)
    return check_move(board, parse_rack_text(row.rack, lexicon.alphabet), text, lexicon).score


def test_ten_slips_typed_by_keyboard_are_stored_as_typed_and_judged(service: TournamentService,
                                                                     spanish_lexicon: Lexicon) -> None:
    # The example: ten slips, one invalid word and one unmarked blank (III.23, III.25.a).
    master = service.rounds(1)[0].master
    assert master is not None
    slips = {1: master, 2: "H8-CASAMOs", 3: "8H-CAMAS", 4: "H8-CASAMOX", 5: "H8-CASAMOS", 6: "H4-CASAMOs",
             7: "H8-COsAS", 8: "8H-CASAMOs", 9: "H8-CAMAS", 10: "8D-CASAMOs"}
    seen: dict[int, str] = {}

    async def scenario(app: DuplicadaApp, pilot: Pilot, screen: EntryScreen) -> None:
        table_field = screen.query_one("#table", Input)
        for table, text in slips.items():
            await pilot.press(*str(table))
            assert str(screen.query_one("#player").render()) == NAMES[table - 1]   # the name appears
            await pilot.press("enter", *text, "enter")
            await settle(pilot, screen)
            seen[table] = feedback(screen)
            assert table_field.has_focus and table_field.value == ""               # ready for the next slip
            assert screen.query_one("#move", Input).value == ""

    run(service, scenario, arbiter="Lucía", role="judge")               # the judge's station types any table
    result = stored(service)
    assert {table: text for table, (text, _, _) in result.items()} == slips             # raw text, exactly as typed
    for table in (1, 2, 3, 6, 7, 8, 9, 10):
        score = expected_score(service, spanish_lexicon, slips[table])
        assert result[table] == (slips[table], "valid", score) and score > 0
        assert f"{score} puntos" in seen[table]
    assert result[4] == ("H8-CASAMOX", SlipStatus.INVALID_WORD.value, 0)
    assert result[5] == ("H8-CASAMOS", SlipStatus.UNMARKED_BLANK.value, 0)
    assert "palabra no válida" in seen[4] and "CASAMOX" in seen[4]
    assert "comodín sin marcar" in seen[5] and "H8-CAsAMOS" in seen[5]                  # what was probably meant
    assert {slip.entered_by for slip in service.slips(1, 1)} == {"Lucía"}


def test_a_swapped_coordinate_is_explained_with_the_probable_move(service: TournamentService) -> None:
    # III.25.c: the coordinate in the wrong order scores 0; the hint gives the intended move.
    async def scenario(app: DuplicadaApp, pilot: Pilot, screen: EntryScreen) -> None:
        await type_slip(pilot, screen, 3, "C8-CASAMOs")      # row C from column 8: meant 8C, down column 8
        text = feedback(screen)
        assert "0 puntos" in text and "Sugerencia" in text and "8C-CASAMOs" in text

    run(service, scenario)
    assert stored(service)[3][2] == 0


def test_late_null_and_missing_keys_mark_the_typed_table(service: TournamentService) -> None:
    async def scenario(app: DuplicadaApp, pilot: Pilot, screen: EntryScreen) -> None:
        await pilot.press("1", "f2")
        await settle(pilot, screen)
        assert "fuera de tiempo" in feedback(screen)
        await pilot.press("2", "enter", *"ilegible", "f3")       # the text of a null slip is kept
        await settle(pilot, screen)
        await pilot.press("3", "f4")
        await settle(pilot, screen)
        assert screen.query_one("#table", Input).has_focus

    run(service, scenario)
    assert stored(service) == {1: ("", "late", 0), 2: ("ilegible", "null", 0), 3: ("", "missing", 0)}


def test_the_master_is_entered_for_a_list_of_tables_in_one_step(service: TournamentService) -> None:
    master = service.rounds(1)[0].master

    async def scenario(app: DuplicadaApp, pilot: Pilot, screen: EntryScreen) -> None:
        await pilot.press("f5", *"1 3-5", "enter")
        await settle(pilot, screen)
        assert "anotada en 4 mesas: 1, 3, 4, 5" in feedback(screen)
        assert "Faltan 2 de 6" in str(screen.query_one("#missing").render())

    run(service, scenario)
    score = service.rounds(1)[0].master_score
    assert stored(service) == {table: (master, "valid", score) for table in (1, 3, 4, 5)}


def test_an_edit_is_a_logged_correction_with_its_reason(service: TournamentService) -> None:
    async def scenario(app: DuplicadaApp, pilot: Pilot, screen: EntryScreen) -> None:
        await type_slip(pilot, screen, 2, "H8-CASAMOS")
        await pilot.press("2", "f6")                               # table typed: the dialog opens on the text
        assert app.screen.query_one("#fix-text", Input).value == "H8-CASAMOS"
        await pilot.press("ctrl+u", *"H8-CAsAMOS", "enter")      # the new text, then to the reason
        await pilot.press("enter")                                # empty reason: refused
        assert "motivo" in str(app.screen.query_one("#dialog-error").render())
        await pilot.press(*"error al teclear", "enter")
        await settle(pilot, screen)
        assert "Corregida" in feedback(screen)

    run(service, scenario)
    text, status, score = stored(service)[2]
    assert (text, status) == ("H8-CAsAMOS", "valid") and score > 0
    [event] = [event for event in service.history() if event.kind == EventKind.SLIP_CORRECTED.value]
    assert event.reason == "error al teclear" and event.arbiter == "Marta"
    assert event.payload["before"]["text"] == "H8-CASAMOS"


def test_an_assistants_station_cannot_enter_a_table_outside_its_range(service: TournamentService) -> None:
    # II.4.c, issue 12 §1: Marta has tables 1–6; the service refuses table 7 and says why.
    async def scenario(app: DuplicadaApp, pilot: Pilot, screen: EntryScreen) -> None:
        await pilot.press(*"7", "enter", *"8H-CASAMOs", "enter")
        await settle(pilot, screen)
        assert "mesa 7" in feedback(screen) and "mesas 1–6" in feedback(screen)
        await pilot.press(*"2", "enter", *"8H-CASAMOs", "enter")
        await settle(pilot, screen)

    run(service, scenario, arbiter="Marta")
    assert set(stored(service)) == {2}
    assert {slip.entered_by for slip in service.slips(1, 1)} == {"Marta"}


def test_the_assistant_sees_own_tables_and_another_stations_entry_appears(service: TournamentService,
                                                                          tmp_path: Path,
                                                                          spanish_lexicon: Lexicon) -> None:
    # II.4.c: Luis has tables 7–12; an entry from another station shows up after the poll.
    other = TournamentService(open_database(str(tmp_path / "entry.db")), station="puesto-2", lexicon=spanish_lexicon, pin=JUDGE_PIN)

    async def scenario(app: DuplicadaApp, pilot: Pilot, screen: EntryScreen) -> None:
        missing = screen.query_one("#missing")
        assert "Faltan 6 de 6 papeletas de la ronda 1: 7, 8, 9, 10, 11, 12" in str(missing.render())
        other.mark_slip(1, 9, SlipStatus.LATE)
        app.check_for_changes()
        await pilot.pause()                      # the DataChanged message is handled…
        await settle(pilot, screen)              # …and its reads (worker threads) shown
        assert "Faltan 5 de 6 papeletas de la ronda 1: 7, 8, 10, 11, 12" in str(missing.render())
        await pilot.press("f9")                                   # every table: read again, then shown
        await until(pilot, lambda: "Faltan 11 de 12" in str(missing.render()), "every table's missing slips shown")

    run(service, scenario, arbiter="Luis")


def test_a_second_different_slip_is_a_conflict_left_to_the_judge(service: TournamentService) -> None:
    async def scenario(app: DuplicadaApp, pilot: Pilot, screen: EntryScreen) -> None:
        await type_slip(pilot, screen, 4, "H8-CAMAS")
        await type_slip(pilot, screen, 4, "H8-COsAS")
        assert "CONFLICTO" in feedback(screen)
        assert "mesa 4" in str(screen.query_one("#conflicts").render())

    run(service, scenario)
    assert stored(service)[4][0] == "H8-CAMAS"                    # never overwritten
    [(conflict, _)] = service.conflicts(1)
    assert (conflict.table_number, conflict.text) == (4, "H8-COsAS")


def test_a_refused_action_is_shown_in_spanish(service: TournamentService) -> None:
    service.close_round(1)

    async def scenario(app: DuplicadaApp, pilot: Pilot, screen: EntryScreen) -> None:
        await type_slip(pilot, screen, 1, "H8-CAMAS")
        assert "No anotada: la ronda 1 está cerrada" in feedback(screen)
        await pilot.press(*"99", "enter")
        assert "no hay ningún jugador en la mesa 99" in feedback(screen)

    run(service, scenario)


def test_the_entry_screen_fits_80_by_24(service: TournamentService) -> None:
    async def scenario(app: DuplicadaApp, pilot: Pilot, screen: EntryScreen) -> None:
        await type_slip(pilot, screen, 1, "H8-CAMAS")
        for selector in ("#table", "#move", "#feedback", "#missing", "#slips"):
            region = screen.query_one(selector).region
            assert region.height > 0 and region.right <= 80 and region.bottom <= 23, selector
        await until(pilot, lambda: footer_laid_out(screen))
        assert footer_beyond(screen) == []
        await pilot.press("2", "enter", "f12", *"CASA")                 # the paper board, whole
        await pilot.pause()
        for selector in ("#paper-result", "#paper-board", "#paper-help"):
            region = app.screen.query_one(selector).region
            assert region.height > 0 and region.right <= 80 and region.bottom <= 24, selector
        assert "H8-CASA" in str(app.screen.query_one("#paper-result").render())

    run(service, scenario, size=(80, 24))


def test_snapshot_of_the_entry_screen(service: TournamentService, snap_compare) -> None:  # type: ignore[no-untyped-def]
    app = DuplicadaApp(service, station="puesto-1", poll=False)

    async def before(pilot: Pilot) -> None:
        app.state.tournament_id = service.tournament().id
        app.authenticate(pin_of("assistant", "Marta"))
        await app.push_screen(EntryScreen())
        screen = app.screen
        assert isinstance(screen, EntryScreen)
        await settle(pilot, screen)
        for table, text in ((1, "H8-CASAMOs"), (2, "H8-CASAMOX"), (3, "H8-CASAMOS")):
            await type_slip(pilot, screen, table, text)
        for field in screen.query(Input):             # a steady cursor: the picture must not
            field.cursor_blink = False                # depend on when it is taken
        await pilot.pause()

    assert snap_compare(app, terminal_size=(120, 40), run_before=before)


def test_the_judge_resolves_a_conflict_from_the_entry_screen(service: TournamentService) -> None:
    # Two different slips for table 4: F10 shows both; the judge replaces the stored one.
    async def scenario(app: DuplicadaApp, pilot: Pilot, screen: EntryScreen) -> None:
        await type_slip(pilot, screen, 4, "H8-CAMAS")
        await type_slip(pilot, screen, 4, "H8-COsAS")
        await pilot.press("4", "f10")
        dialog = app.screen
        assert "«H8-CAMAS»" in str(dialog.query_one("#conflict-stored").render())
        assert "«H8-COsAS»" in str(dialog.query_one("#conflict-new").render())
        await pilot.press("down", "enter")                       # Sustituirla por la nueva
        await pilot.press(*"la papeleta dice COsAS", "enter")
        await settle(pilot, screen)
        assert app.screen is screen
        assert "resuelto: sustituida por la nueva" in feedback(screen)
        assert str(screen.query_one("#conflicts").render()) == ""

    run(service, scenario, arbiter="Lucía", role="judge")
    assert service.conflicts(1) == []
    assert stored(service)[4][:2] == ("H8-COsAS", "valid")
    [(conflict, _)] = service.conflicts(1, unresolved=False)
    assert (conflict.resolution, conflict.resolved_by) == ("replaced", "Lucía")


def test_the_judge_may_keep_the_stored_slip(service: TournamentService) -> None:
    async def scenario(app: DuplicadaApp, pilot: Pilot, screen: EntryScreen) -> None:
        await type_slip(pilot, screen, 4, "H8-CAMAS")
        await type_slip(pilot, screen, 4, "H8-COsAS")
        await pilot.press("4", "f10", "enter", "enter")           # Mantener (the first), no reason
        await settle(pilot, screen)

    run(service, scenario, arbiter="Lucía", role="judge")
    assert service.conflicts(1) == []
    assert stored(service)[4][0] == "H8-CAMAS"


def test_an_assistant_cannot_resolve_a_conflict(service: TournamentService) -> None:
    async def scenario(app: DuplicadaApp, pilot: Pilot, screen: EntryScreen) -> None:
        await type_slip(pilot, screen, 4, "H8-CAMAS")
        await type_slip(pilot, screen, 4, "H8-COsAS")
        await pilot.press("4", "f10")
        await pilot.pause()
        assert app.screen is screen                                 # no dialog
        assert any(notification.message.startswith("Solo el juez árbitro")
                   for notification in app._notifications)

    run(service, scenario)
    assert len(service.conflicts(1)) == 1 and stored(service)[4][0] == "H8-CAMAS"


def test_a_slip_holding_markup_is_shown_as_typed(service: TournamentService) -> None:
    # Every input is untrusted: «[/x]» on a slip is text in the feedback and the list.
    async def scenario(app: DuplicadaApp, pilot: Pilot, screen: EntryScreen) -> None:
        await type_slip(pilot, screen, 1, "H8-[/x]")
        assert app.is_running
        row = screen.query_one("#slips", DataTable).get_row("1")
        assert "H8-[/x]" in str(row[2])

    run(service, scenario)


def test_a_hundred_slips_typed_ahead_lose_no_key(tmp_path: Path, spanish_lexicon: Lexicon) -> None:
    # Issue 13 §2: the table, Enter, the move and Enter of 100 slips arrive with no pause;
    # each slip is stored for its own table, in the order typed.
    service = TournamentService(open_database(str(tmp_path / "rapido.db")), lexicon=spanish_lexicon, pin=JUDGE_PIN)
    service.create_tournament("Rápido")
    for index in range(100):
        service.add_player(f"Jugador {index + 1:03d}")
    service.create_game(rounds=2, seed=7)
    service.set_rack(1, RACK)
    master = service.choose_master(1).master
    assert master is not None
    wrong = master[:-1] + "Z"                                  # not a word: its own verdict

    async def main() -> None:
        app = DuplicadaApp(service, poll=False)
        async with app.run_test(size=(120, 40)) as pilot:
            app.state.tournament_id = service.tournament().id
            app.authenticate(JUDGE_PIN)
            screen = EntryScreen()
            await app.push_screen(screen)
            await settle(pilot, screen)
            keys: list[str] = []
            for table in range(1, 101):
                keys += [*str(table), "enter", *(master if table % 3 else wrong), "enter"]
            send_without_pauses(app, keys)
            await finished(app.keys_applied(), "the 1,200 keys of 100 slips applied")
            await until(pilot, lambda: screen.handled >= 100 and not screen.pending and not screen.reading,
                        "100 slips handled")
            assert screen.handled == 100

    asyncio.run(main())
    stored = {slip.table_number: slip.text for slip in service.slips(1, 1)}
    assert stored == {table: master if table % 3 else wrong for table in range(1, 101)}
    entered = [event.payload["table"] for event in service.history(game_number=1) if event.kind == "slip_entered"]
    assert entered == list(range(1, 101))


def test_late_keeps_the_typed_move(service: TournamentService) -> None:
    # Issue 13 §2: F2 marks the slip late and keeps what was written on it.
    async def scenario(app: DuplicadaApp, pilot: Pilot, screen: EntryScreen) -> None:
        await pilot.press("2", "enter", *"H8-CASAMOs", "f2")
        await settle(pilot, screen)
        slip = {slip.table_number: slip for slip in service.slips(1, 1)}[2]
        assert (slip.status, slip.score, slip.text) == ("late", 0, "H8-CASAMOs")
        assert app.focused is screen.query_one("#table")

    run(service, scenario)


def test_a_slip_the_database_cannot_take_is_retried_then_reported_never_dropped(
        service: TournamentService, monkeypatch: pytest.MonkeyPatch) -> None:
    # Issue 13 §2: while the database does not answer, the slip shows «Guardando…» and is
    # tried again; it ends saved, or reported as not saved with what was typed.
    import threading

    import tui.app.screens.entry as entry_module
    from duplicate.service.errors import StorageUnavailable

    monkeypatch.setattr(entry_module, "SAVE_RETRIES", (0.2,) * 10)
    real = TournamentService.enter_slip
    answering = threading.Event()

    def flaky(self: TournamentService, *args, **kwargs):  # type: ignore[no-untyped-def]
        if not answering.is_set():
            raise StorageUnavailable("la base de datos está ocupada por otro puesto: vuelva a intentarlo")
        return real(self, *args, **kwargs)

    async def scenario(app: DuplicadaApp, pilot: Pilot, screen: EntryScreen) -> None:
        monkeypatch.setattr(TournamentService, "enter_slip", flaky)
        await pilot.press("1", "enter", *"H8-CASAMOS", "enter")
        await until(pilot, lambda: "reintento" in str(screen.query_one("#saving").render()))
        saving = str(screen.query_one("#saving").render())
        assert "Guardando 1 papeleta" in saving and "mesa 1: la base de datos no responde; reintento" in saving
        answering.set()                                                      # the database is back
        await settle(pilot, screen)
        assert {slip.table_number for slip in service.slips(1, 1)} == {1}
        assert str(screen.query_one("#saving").render()).strip() == ""
        answering.clear()                                                    # down for longer than the retries
        monkeypatch.setattr(entry_module, "SAVE_RETRIES", (0.01, 0.01))
        await pilot.press("2", "enter", *"H8-CASAMOS", "enter")
        await settle(pilot, screen)
        assert "NO GUARDADA: mesa 2 «H8-CASAMOS»" in feedback(screen)
        assert {slip.table_number for slip in service.slips(1, 1)} == {1}

    run(service, scenario)


def test_double_entry_from_the_app(service: TournamentService) -> None:
    # Issue 13 §2: F11 switches to double entry; a matching slip is checked, a different
    # one becomes a conflict for the judge, nothing stored is changed.
    async def scenario(app: DuplicadaApp, pilot: Pilot, screen: EntryScreen) -> None:
        await type_slip(pilot, screen, 1, "H8-CASAMOS")
        await type_slip(pilot, screen, 2, "H8-CASAMOS")
        await pilot.press("f11")
        assert "DOBLE ENTRADA" in str(screen.query_one("#context").render())
        await type_slip(pilot, screen, 1, "h8-CASAMOS")                     # another spelling: the same
        assert feedback(screen).startswith("Comprobada: Mesa 1")
        await type_slip(pilot, screen, 2, "H8-CASAMOs")
        assert "CONFLICTO" in feedback(screen)

    run(service, scenario)
    slips = {slip.table_number: slip for slip in service.slips(1, 1)}
    assert slips[1].checked_by == "Marta" and slips[2].text == "H8-CASAMOS"
    [(conflict, _)] = service.conflicts(1)
    assert (conflict.kind, conflict.table_number, conflict.text) == ("double_entry", 2, "H8-CASAMOs")


def test_a_paper_board_slip_is_placed_on_the_board_and_entered(service: TournamentService) -> None:
    # Issue 13 §2, III.20.1.c: F12 opens the round's board; the word typed from the cursor
    # (H8, across) is shown with the canonical notation it gives; Intro sends the board
    # form to the service, which converts, judges and stores it as a board slip (issue 25 §4, II.8).
    async def scenario(app: DuplicadaApp, pilot: Pilot, screen: EntryScreen) -> None:
        assert "F12" in str(screen.query_one("#context").render())
        await pilot.press("3", "enter", "f12")
        await pilot.pause()
        await pilot.press("up", "down", *"CASAMOs")
        assert "H8-CASAMOs" in str(app.screen.query_one("#paper-result").render())
        await pilot.press("enter")
        await settle(pilot, screen)
        assert app.screen is screen and "H8-CASAMOs" in feedback(screen)

    run(service, scenario)
    slip = {slip.table_number: slip for slip in service.slips(1, 1)}[3]
    assert (slip.text, slip.board, slip.status) == ("H8-CASAMOs", "H8 → CASAMOs", "valid") and slip.score > 0
    [event] = [event for event in service.history() if event.kind == "slip_entered"]
    assert event.payload["board"] == "H8 → CASAMOs"


def test_f12_says_why_when_the_tournament_does_not_admit_board_slips(service: TournamentService,
                                                                     tmp_path: Path) -> None:
    # Issue 25 §4, II.8: alternative notations only when the organiser admits them. The
    # tournament's stored settings are changed under the running game (as a damaged or
    # older database could hold them): F12 is not offered and says why; nothing is stored.
    with sqlite3.connect(tmp_path / "entry.db") as connection:
        [(settings,)] = connection.execute("SELECT settings FROM tournaments").fetchall()
        connection.execute("UPDATE tournaments SET settings = ?",
                           (json.dumps({**json.loads(settings), "board_notation": False}),))

    async def scenario(app: DuplicadaApp, pilot: Pilot, screen: EntryScreen) -> None:
        assert "F12" not in str(screen.query_one("#context").render())
        await pilot.press("3", "enter", "f12")
        await pilot.pause()
        assert app.screen is screen and "II.8" in feedback(screen)

    run(service, scenario)
    assert service.slips(1, 1) == []


def test_a_player_name_holding_markup_is_shown_as_typed(service: TournamentService) -> None:
    # Every input is untrusted: the name shown when a table is typed is plain text.
    [(table, entry, _)] = [seat for seat in service.seats(1) if seat[0] == 2]
    service.update_player(entry.id, name="[red]Eva[/] [/x]")

    async def scenario(app: DuplicadaApp, pilot: Pilot, screen: EntryScreen) -> None:
        await pilot.press(str(table))
        await pilot.pause()
        assert app.is_running and "[red]Eva[/] [/x]" in str(screen.query_one("#player").render())

    run(service, scenario)


def test_a_station_is_told_when_the_judge_withdraws_a_rack_its_slips_were_entered_against(
        service: TournamentService, tmp_path: Path, spanish_lexicon: Lexicon) -> None:
    # Issue 25 §1, III.29: the judge replaces round 2's rack after slips were entered
    # against it; the event reaches the station, whose feedback asks for the slips again.
    judge = TournamentService(open_database(str(tmp_path / "entry.db")), station="mesa-arbitral",
                              lexicon=spanish_lexicon, pin=JUDGE_PIN)

    async def scenario(app: DuplicadaApp, pilot: Pilot, screen: EntryScreen) -> None:
        judge.draw_rack(1)
        judge.enter_slip(1, 2, "H8-QQ", round_number=2)
        judge.enter_slip(1, 3, "H8-ZZ", round_number=2)
        app.check_for_changes()
        await pilot.pause()
        await settle(pilot, screen)
        assert "ATRIL CAMBIADO" not in feedback(screen)
        judge.replace_rack(1, reason="atril mal tecleado")
        app.check_for_changes()
        await pilot.pause()
        await settle(pilot, screen)
        told = feedback(screen)
        assert "ATRIL CAMBIADO — ronda 2" in told and "Motivo: atril mal tecleado" in told
        assert "mesas 2, 3" in told and "anote de nuevo las papeletas" in told

    run(service, scenario)


def test_a_slip_typed_before_the_lexicon_is_loaded_waits_for_it_and_is_scored(
        service: TournamentService, spanish_lexicon: Lexicon, monkeypatch: pytest.MonkeyPatch) -> None:
    # Issue 38: the lexicon loads in the background after sign-in (the app's warm-up); a
    # slip typed before it is there is saved once it is, with its score — never lost, and
    # the lexicon is loaded once.
    import threading

    from duplicate.service.context import ServiceContext

    real = ServiceContext._load_lexicon
    loaded = threading.Event()
    loads: list[str] = []

    def slow(self: ServiceContext, tournament):  # type: ignore[no-untyped-def]
        loaded.wait()
        loads.append(tournament.lexicon_hash)
        return real(self, tournament)

    monkeypatch.setattr(ServiceContext, "_load_lexicon", slow)
    master = service.rounds(1)[0].master
    assert master is not None

    async def main() -> None:
        app = DuplicadaApp(service, station="puesto-1", poll=False)
        async with app.run_test(size=(120, 40)) as pilot:
            app.state.tournament_id = service.tournament().id
            app.authenticate(pin_of("assistant", "Marta"))
            screen = EntryScreen()
            await app.push_screen(screen)
            await until(pilot, lambda: screen.round_number == 1 and not screen.reading, "the round shown")
            await pilot.press("2", "enter", *master, "enter")
            await until(pilot, lambda: "Guardando 1 papeleta" in str(screen.query_one("#saving").render()))
            assert screen.handled == 0 and screen.pending == 1             # waiting for the lexicon, kept
            loaded.set()
            await settle(pilot, screen)
            assert screen.handled == 1
            score = expected_score(service, spanish_lexicon, master)
            assert f"Mesa 2 · {NAMES[1]} · ronda 1 · {master} → {score} puntos" in feedback(screen)

    asyncio.run(main())
    assert {slip.table_number: (slip.text, slip.status) for slip in service.slips(1, 1)} == {2: (master, "valid")}
    assert len(loads) == 1                                                  # one load, shared by every thread
