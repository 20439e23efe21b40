"""The standings screen (issue 4 §2): game and tournament standings as the service
computes them, bonuses highlighted (III.24), a player's follow-up sheet (II.9), claims
and their resolution (III.27), provisional/final status (III.26); snapshots at 120×40.

Seeded once per module: six players, automatic bonuses; game 1 of two rounds (typed rack
``CASAMOS``, then the seeded bag's ``IDNUABRR``), slips entered, both rounds closed, two
claims (one upheld with a corrected slip, one rejected), provisional results; game 2 of
one round. Each test works on a copy of the database file.
"""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.text import Text
from textual.pilot import Pilot
from textual.widgets import DataTable, TabbedContent

from duplicate.record.event_kinds import EventKind
from duplicate.rules.slips import SlipStatus
from duplicate.rules.statuses import ClaimStatus, GameStatus
from duplicate.service.facade import TournamentService
from duplicate.service.settings import TournamentSettings
from duplicate.storage.database import open_database
from lexicon.lexicon import Lexicon
from tests.credentials import JUDGE_PIN, pin_of
from tests.tui.keys import footer_actions, footer_beyond, footer_laid_out
from tests.tui.waiting import idle, until
from tui.app.application import DuplicadaApp
from tui.app.screens.standings import StandingsScreen
from tui.app.screens.standings_presenter import BONUS_STYLE

NAMES = ["Ana Pérez", "Ángel Núñez", "Beatriz Ñúñez", "Carmen Gil", "David Sanz", "Elena Ruiz"]


@pytest.fixture(scope="module")
def seeded_file(tmp_path_factory: pytest.TempPathFactory, spanish_lexicon: Lexicon) -> Path:
    path = tmp_path_factory.mktemp("standings") / "seeded.db"
    database = open_database(str(path))
    service = TournamentService(database, station="mesa-arbitral", lexicon=spanish_lexicon, pin=JUDGE_PIN)
    service.create_tournament("Open de Pruebas", venue="Madrid", settings=TournamentSettings(bonus_mode="automatic",
                                                                                       corrections_after_final=True),
                              judge_name="Lucía")
    for index, name in enumerate(NAMES):
        service.add_player(name, club="Club", federation_id=f"F{index}")
    service.set_assistant_range("Marta", 1, 6)
    service.set_pin("assistant", pin_of("assistant", "Marta") or "", name="Marta")
    game = service.create_game(rounds=2, seed=7)             # alphabetical: tables 1–6 in NAMES order
    service.set_rack(game, "CASAMOS")
    first = service.choose_master(game)
    assert first.master is not None
    service.enter_slip(game, 1, first.master)                 # alone at the master: +10 (III.24)
    service.enter_slip(game, 2, "H8-CASAS")
    service.enter_slip(game, 3, "8H-CAMAS")
    service.enter_slip(game, 4, "H8-XXXX")
    service.mark_slip(game, 5, SlipStatus.LATE)
    service.close_round(game)                                 # table 6: missing
    service.draw_rack(game)
    second = service.choose_master(game)
    assert second.master is not None
    service.enter_master_slips(game, [1, 2])                  # two at the master: no bonus
    service.enter_slip(game, 3, "I8-DUNA")
    service.enter_slip(game, 4, "G8-DIA")
    service.mark_slip(game, 5, SlipStatus.LATE)
    service.close_round(game)
    upheld = service.file_claim(game, 1, 4, "Anoté H8-CASAS, no H8-XXXX")
    service.resolve_claim(upheld, upheld=True, resolution="error de entrada", corrected_text="H8-CASAS")
    rejected = service.file_claim(game, 2, 5, "Levanté la papeleta a tiempo")
    service.resolve_claim(rejected, upheld=False, resolution="el corremesas no la recogió a tiempo")
    service.publish(game)                                     # provisional (III.26)
    second_game = service.create_game(rounds=1, seed=11)
    service.set_rack(second_game, "CASAMOS")
    third = service.choose_master(second_game)
    assert third.master is not None
    service.enter_slip(second_game, 2, third.master)
    service.close_round(second_game)
    database.dispose()
    return path


@pytest.fixture
def service(seeded_file: Path, tmp_path: Path, spanish_lexicon: Lexicon) -> TournamentService:
    path = tmp_path / "standings.db"
    shutil.copy(seeded_file, path)
    return TournamentService(open_database(str(path)), station="puesto-1", lexicon=spanish_lexicon, pin=JUDGE_PIN)


def entry_ids(service: TournamentService) -> dict[str, int]:
    return {player.name: entry.id for entry, player in service.entries()}


def run(service: TournamentService, scenario, *, game: int | None = 1,  # type: ignore[no-untyped-def]
        size: tuple[int, int] = (120, 40), role: str = "judge") -> None:
    async def main() -> None:
        app = DuplicadaApp(service, station="puesto-1", poll=False)
        async with app.run_test(size=size) as pilot:
            app.state.tournament_id = service.tournament().id
            app.authenticate(pin_of(role, "Marta"))
            await app.push_screen(StandingsScreen(game))
            await done(app, pilot)
            await scenario(app, pilot, app.screen)

    asyncio.run(main())


def cell(table: DataTable, row: str, column: str) -> str:  # type: ignore[type-arg]
    value = table.get_cell(row, column)
    return value.plain if isinstance(value, Text) else str(value)


def test_game_standings_show_the_services_totals_positions_and_bonus(service: TournamentService) -> None:
    ids = entry_ids(service)
    masters = [view.master_score for view in service.rounds(1)]
    lines = service.game_standings(1)
    assert next(line for line in lines if line.player == ids["Ana Pérez"]).total == masters[0] + masters[1] + 10

    async def scenario(app: DuplicadaApp, pilot: Pilot, screen: StandingsScreen) -> None:
        table = screen.query_one("#game-table", DataTable)
        assert table.row_count == 1 + len(NAMES)                      # the master's line, then the players
        for line in lines:
            key = str(line.player)
            assert cell(table, key, "pos") == str(line.position)
            assert cell(table, key, "total") == str(line.total)
            assert [cell(table, key, f"r{n}") for n in (1, 2)] == [
                f"{score}+{bonus}" if bonus else str(score)
                for score, bonus in zip(line.per_round, line.bonuses_per_round)]
        assert cell(table, "master", "total") == str(sum(masters))
        bonus_cell = table.get_cell(str(ids["Ana Pérez"]), "r1")
        assert isinstance(bonus_cell, Text) and bonus_cell.plain == f"{masters[0]}+10"
        assert str(bonus_cell.style) == BONUS_STYLE
        assert cell(table, str(ids["Ana Pérez"]), "bonus") == "+10"
        caption = str(screen.query_one("#game-caption").render())
        assert "R1: Ana Pérez +10" in caption
        heading = str(screen.query_one("#heading").render())
        assert "Partida 1 de 2" in heading and "resultados provisionales" in heading

    run(service, scenario)
    positions = {line.player: line.position for line in lines}
    assert positions[ids["Ana Pérez"]] == 1 and positions[ids["David Sanz"]] == positions[ids["Elena Ruiz"]] == 5


def test_the_follow_up_sheet_of_a_selected_player(service: TournamentService) -> None:
    # II.9: per round the coordinate, word, score and cumulative, and the master's.
    ids = entry_ids(service)
    rounds = service.rounds(1)
    carmen = {slip.round_number: slip for slip in service.slips(1) if slip.entry_id == ids["Carmen Gil"]}

    async def scenario(app: DuplicadaApp, pilot: Pilot, screen: StandingsScreen) -> None:
        table = screen.query_one("#game-table", DataTable)
        table.move_cursor(row=table.get_row_index(str(ids["Carmen Gil"])))
        await pilot.press("enter")
        await pilot.pause()
        assert screen.query_one(TabbedContent).active == "sheet"
        sheet = screen.query_one("#sheet-table", DataTable)
        assert "Carmen Gil, mesa 4" in str(screen.query_one("#sheet-title").render())
        cumulative = 0
        for view in rounds:
            key = str(view.number)
            slip = carmen[view.number]
            cumulative += slip.score
            assert (cell(sheet, key, "coord"), cell(sheet, key, "word")) == tuple(slip.text.split("-"))
            assert cell(sheet, key, "score") == str(slip.score)
            assert cell(sheet, key, "cumulative") == str(cumulative)
            assert view.master is not None
            assert (cell(sheet, key, "m-coord"), cell(sheet, key, "m-word")) == tuple(view.master.split("-"))
            assert cell(sheet, key, "m-score") == str(view.master_score)
            assert cell(sheet, key, "m-cumulative") == str(view.cumulative)
        assert carmen[1].text == "H8-CASAS" and carmen[1].score > 0           # the upheld claim's correction
        total = next(line.total for line in service.game_standings(1) if line.player == ids["Carmen Gil"])
        assert cumulative == total

    run(service, scenario)


def test_claims_with_their_resolution_and_the_final_status(service: TournamentService) -> None:
    async def scenario(app: DuplicadaApp, pilot: Pilot, screen: StandingsScreen) -> None:
        await pilot.press("f5")
        claims = screen.query_one("#claims-table", DataTable)
        rows = [[cell(claims, str(claim.id), column) for column in ("round", "table", "player", "status", "resolution")]
                for claim in service.claims(1)]
        assert rows == [["1", "4", "Carmen Gil", "aceptada", "error de entrada"],
                        ["2", "5", "David Sanz", "rechazada", "el corremesas no la recogió a tiempo"]]
        service.publish(1, final=True)
        app.check_for_changes()
        await done(app, pilot)                                  # the screen reads again in a worker
        assert "resultados definitivos" in str(screen.query_one("#heading").render())

    run(service, scenario)


def test_tournament_standings_and_game_keys(service: TournamentService) -> None:
    overall = service.tournament_standings()

    async def scenario(app: DuplicadaApp, pilot: Pilot, screen: StandingsScreen) -> None:
        assert "Partida 2 de 2" in str(screen.query_one("#heading").render())     # the current game
        await pilot.press("f7")
        await done(app, pilot)                                  # the game is read in a worker
        assert "Partida 1 de 2" in str(screen.query_one("#heading").render())
        await pilot.press("f3")
        table = screen.query_one("#tournament-table", DataTable)
        assert [cell(table, str(line.player), "pos") for line in overall] == [str(line.position) for line in overall]
        assert [cell(table, str(line.player), "total") for line in overall] == [str(line.total) for line in overall]
        assert [cell(table, str(line.player), "g2") for line in overall] == [
            f"{line.places[1]}º" for line in overall]

    run(service, scenario, game=None)


def test_the_standings_screen_fits_80_by_24(service: TournamentService) -> None:
    async def scenario(app: DuplicadaApp, pilot: Pilot, screen: StandingsScreen) -> None:
        region = screen.query_one("#game-table").region
        assert region.height >= 8 and region.right <= 80 and region.bottom <= 23
        await until(pilot, lambda: footer_laid_out(screen))
        assert footer_beyond(screen) == []

    run(service, scenario, size=(80, 24))


async def footer_once_read(pilot: Pilot, screen: StandingsScreen,
                           offers: Callable[[set[str]], bool]) -> set[str]:
    """The footer's actions once it shows the game as read and ``offers`` holds of them. The
    footer is redrawn a moment after the screen reads the game's status (``refresh_bindings``):
    until then it may still offer what the status rules out, so the test waits for the state
    it checks and fails after the cap if it never comes."""
    def settled() -> bool:
        keys = footer_actions(screen)
        return screen.loaded and {"game(-1)", "game(1)"} <= keys and offers(keys)

    await until(pilot, settled, "the footer, once the game was read, offering what the test expects")
    return footer_actions(screen)


def test_the_footer_offers_each_station_what_it_may_do(service: TournamentService) -> None:
    # Issue 13 §3: an assistant's footer holds no judge's key; the judge's offers
    # provisional/final results while the game is not final, and reopening once it is.
    judges = {"publish", "publish_results(False)", "publish_results(True)", "reopen", "file_claim", "resolve_claim"}

    async def assistant(app: DuplicadaApp, pilot: Pilot, screen: StandingsScreen) -> None:
        await until(pilot, lambda: footer_laid_out(screen))
        assert footer_beyond(screen) == [] and not footer_actions(screen) & judges
        assert {"game(-1)", "game(1)"} <= footer_actions(screen)

    run(service, assistant, size=(80, 24), role="assistant")

    async def judge(app: DuplicadaApp, pilot: Pilot, screen: StandingsScreen) -> None:
        assert status(service, 1) == GameStatus.PROVISIONAL.value
        offered = await footer_once_read(pilot, screen, lambda keys: "reopen" not in keys)
        assert {"publish_results(True)", "publish"} <= offered
        await pilot.press("d", "s")
        await done(app, pilot)
        assert status(service, 1) == GameStatus.FINAL.value
        await footer_once_read(pilot, screen, lambda keys: "reopen" in keys and "publish_results(True)" not in keys)
        await until(pilot, lambda: footer_laid_out(screen))
        assert footer_beyond(screen) == []

    run(service, judge, size=(80, 24))


@pytest.mark.parametrize("tab", ["game", "sheet"])
def test_snapshot_of_the_standings_screen(service: TournamentService, snap_compare, tab: str) -> None:  # type: ignore[no-untyped-def]
    app = DuplicadaApp(service, station="puesto-1", poll=False)
    ana = entry_ids(service)["Ana Pérez"]

    async def before(pilot: Pilot) -> None:
        app.state.tournament_id = service.tournament().id
        app.authenticate(pin_of("judge"))
        await app.push_screen(StandingsScreen(1))
        screen = app.screen
        assert isinstance(screen, StandingsScreen)
        await done(app, pilot)                                      # the standings are read in a worker
        if tab == "sheet":
            screen.show_sheet(ana)
        await pilot.pause()

    assert snap_compare(app, terminal_size=(120, 40), run_before=before)


def test_the_judge_publishes_from_the_standings_in_a_worker(service: TournamentService, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """IV.32: publish from the app; the screen keeps working while the worker writes."""
    import tui.app.screens.standings as standings_module

    folder = tmp_path / "publicacion"
    monkeypatch.setattr(standings_module, "publication_folder", lambda tournament_id, database: folder)

    async def scenario(app: DuplicadaApp, pilot: Pilot, screen: StandingsScreen) -> None:
        await pilot.press("f9")                                    # where? the default is shown
        assert app.screen.query_one("#folder").value == str(folder)
        await pilot.press("enter")
        await pilot.press("f3")                                    # still answering keys
        await idle(pilot)
        assert (folder / "index.html").is_file()
        # Again into the same folder: it already has files, so a second Intro is asked for.
        await pilot.press("f9", "enter")
        assert "ya tiene archivos" in str(app.screen.query_one("#dialog-error").render())
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen

    run(service, scenario)
    assert (folder / "index.html").is_file()
    assert any(folder.rglob("*.pdf"))


def test_final_results_are_confirmed_and_the_publication_follows_the_status(
        service: TournamentService, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 35 §4: D asks to confirm (n leaves the game provisional); once final, the
    folder published to with F9 is written again: its pages say «definitivos» at once,
    and say «provisionales» again after A reopens the game."""
    import tui.app.screens.standings as standings_module
    from tui.app.screens.game_dialogs import ConfirmScreen

    folder = tmp_path / "publicacion"
    monkeypatch.setattr(standings_module, "publication_folder", lambda tournament_id, database: folder)
    page = folder / "partida-1.html"

    async def scenario(app: DuplicadaApp, pilot: Pilot, screen: StandingsScreen) -> None:
        await pilot.press("f9", "enter")
        await until(pilot, lambda: page.is_file() and "Resultados provisionales" in page.read_text())
        await pilot.press("d")
        assert isinstance(app.screen, ConfirmScreen)
        assert "DEFINITIVOS" in str(app.screen.query_one("#question").render())
        await pilot.press("n")
        await done(app, pilot)
        assert app.screen is screen and status(service, 1) == GameStatus.PROVISIONAL.value
        await pilot.press("d", "s")
        await until(pilot, lambda: "Resultados definitivos" in page.read_text(), "the page rewritten as final")
        assert status(service, 1) == GameStatus.FINAL.value
        await pilot.press("a", *"error en la mesa 3", "enter")
        await until(pilot, lambda: "Resultados provisionales" in page.read_text(), "the page rewritten as provisional")
        await idle(pilot)

    run(service, scenario)


def status(service: TournamentService, game: int) -> str:
    return next(info.status for info in service.tournament().games if info.number == game)


def notifications(app: DuplicadaApp) -> list[str]:
    return [notification.message for notification in app._notifications]


async def done(app: DuplicadaApp, pilot: Pilot) -> None:
    """Wait for the screen's workers (the judge's service call, then the refresh it asks
    for) and for what they show."""
    await idle(pilot)


def test_the_judge_publishes_provisional_then_final_and_reopens_by_keys(service: TournamentService) -> None:
    # III.26: game 2 ended, published provisional (P), then final (D); A reopens it with a reason.
    service.end_game(2)

    async def scenario(app: DuplicadaApp, pilot: Pilot, screen: StandingsScreen) -> None:
        await pilot.press("p")
        await done(app, pilot)
        assert status(service, 2) == GameStatus.PROVISIONAL.value
        assert "resultados provisionales" in str(screen.query_one("#heading").render())
        await pilot.press("d", "s")                                 # confirmed (issue 35 §4)
        await done(app, pilot)
        assert status(service, 2) == GameStatus.FINAL.value
        assert "resultados definitivos" in str(screen.query_one("#heading").render())
        assert "Partida 2: resultados definitivos publicados" in notifications(app)
        await pilot.press("a")                                     # reopen: the reason is required
        await pilot.press("enter")
        assert "motivo" in str(app.screen.query_one("#dialog-error").render())
        await pilot.press(*"error en la mesa 3", "enter")
        await done(app, pilot)
        assert app.screen is screen
        assert status(service, 2) == GameStatus.PROVISIONAL.value

    run(service, scenario, game=2)
    [event] = [event for event in service.history() if event.kind == EventKind.GAME_REOPENED.value]
    assert event.reason == "error en la mesa 3" and event.arbiter == "Lucía"


def test_IV32_the_app_does_not_offer_reopening_a_final_game_unless_the_tournament_admits_it(
        tmp_path: Path, spanish_lexicon: Lexicon) -> None:
    # Issue 35 §5: final results are not modified (IV.32) in a tournament that does not admit
    # corrections after them (the default): no «Reabrir» in the footer, and «a» says why.
    service = TournamentService(open_database(str(tmp_path / "definitivo.db")), station="puesto-1",
                                lexicon=spanish_lexicon, pin=JUDGE_PIN)
    service.create_tournament("Sin correcciones", judge_name="Lucía")
    for name in NAMES[:3]:
        service.add_player(name)
    game = service.create_game(rounds=1, seed=7)
    service.set_rack(game, "CASAMOS")
    service.choose_master(game)
    service.close_round(game)
    service.publish(game, final=True)

    async def scenario(app: DuplicadaApp, pilot: Pilot, screen: StandingsScreen) -> None:
        assert status(service, game) == GameStatus.FINAL.value
        await footer_once_read(pilot, screen, lambda keys: "reopen" not in keys)
        await pilot.press("a")
        await done(app, pilot)
        assert app.screen is screen
        assert any("IV.32" in text and "no pueden modificarse" in text for text in notifications(app))

    run(service, scenario, game=game, size=(80, 24))
    assert status(service, game) == GameStatus.FINAL.value
    assert not [event for event in service.history() if event.kind == EventKind.GAME_REOPENED.value]


def test_the_judge_files_and_resolves_a_claim_before_the_final_results(service: TournamentService) -> None:
    # III.27: N files a claim; with it open, D is refused in Spanish; R resolves the claim
    # selected in the Reclamaciones tab, upheld with a corrected slip; then D goes through.
    async def scenario(app: DuplicadaApp, pilot: Pilot, screen: StandingsScreen) -> None:
        await pilot.press("n", "1", "enter", "3", "enter", *"Anoté H8-CAMAS", "enter")
        await done(app, pilot)
        claim = service.claims(1)[-1]
        assert (claim.round_number, claim.text, claim.status) == (1, "Anoté H8-CAMAS", ClaimStatus.OPEN.value)
        await pilot.press("d", "s")
        await done(app, pilot)
        assert status(service, 1) == GameStatus.PROVISIONAL.value
        assert any("quedan 1 reclamación y 0 conflictos" in message for message in notifications(app))
        await pilot.press("f5")
        claims = screen.query_one("#claims-table", DataTable)
        claims.move_cursor(row=claims.get_row_index(str(claim.id)))
        await pilot.press("r")
        await pilot.press("enter")                                 # the first choice: Aceptada
        await pilot.press("enter", "enter")                        # no resolution: refused
        assert "Falta la resolución" in str(app.screen.query_one("#dialog-error").render())
        await pilot.press(*"error de entrada", "enter", *"H8-CAMAS", "enter")
        await done(app, pilot)
        assert app.screen is screen
        assert cell(claims, str(claim.id), "status") == "aceptada"
        await pilot.press("d", "s")
        await done(app, pilot)
        assert status(service, 1) == GameStatus.FINAL.value

    run(service, scenario)
    claim = service.claims(1)[-1]
    assert (claim.status, claim.resolution) == (ClaimStatus.UPHELD.value, "error de entrada")
    ids = entry_ids(service)
    [slip] = [slip for slip in service.slips(1, 1) if slip.entry_id == ids["Beatriz Ñúñez"]]
    assert slip.text == "H8-CAMAS"


def test_the_judge_rejects_a_claim_without_correcting_the_slip(service: TournamentService) -> None:
    service.file_claim(1, 2, 6, "Entregué la papeleta")

    async def scenario(app: DuplicadaApp, pilot: Pilot, screen: StandingsScreen) -> None:
        claim = service.claims(1)[-1]
        await pilot.press("f5")
        claims = screen.query_one("#claims-table", DataTable)
        claims.move_cursor(row=claims.get_row_index(str(claim.id)))
        await pilot.press("r", "down", "enter")                    # Rechazada
        await pilot.press(*"no consta", "enter", "enter")
        await done(app, pilot)

    run(service, scenario)
    claim = service.claims(1)[-1]
    assert (claim.status, claim.resolution) == (ClaimStatus.REJECTED.value, "no consta")


def test_an_assistant_cannot_publish_reopen_or_handle_claims(service: TournamentService) -> None:
    before = [(claim.id, claim.status) for claim in service.claims(1)]

    async def scenario(app: DuplicadaApp, pilot: Pilot, screen: StandingsScreen) -> None:
        for key in ("p", "d", "a", "n", "r"):
            await pilot.press(key)
            await done(app, pilot)
            assert app.screen is screen                            # no dialog
        messages = notifications(app)
        assert len(messages) == 5 and all(message.startswith("Solo el juez árbitro") for message in messages)

    run(service, scenario, role="assistant")
    assert status(service, 1) == GameStatus.PROVISIONAL.value
    assert [(claim.id, claim.status) for claim in service.claims(1)] == before


def test_a_read_shown_after_the_screen_was_left_changes_nothing(service: TournamentService) -> None:
    # Issue 34 §7: on a busy machine the standings' read (a worker thread) was shown after
    # the screen had been left (Escape, or a test's pop) while the screen was being removed:
    # hiding its venues tab then left a callback on the next screen for a removed widget, and
    # the app stopped (NoMatches 'Underline' on ContentTabs). What was read is shown here
    # at that moment, as the worker's call from its thread would.
    async def scenario(app: DuplicadaApp, pilot: Pilot, screen: StandingsScreen) -> None:
        read: list[object] = []
        real = screen.show_data
        screen.show_data = lambda data: read.append(data) or real(data)  # type: ignore[method-assign]
        screen.refresh_data()
        await idle(pilot)
        assert read
        app.pop_screen()
        screen.show_data(read[-1])  # type: ignore[arg-type]
        await app.push_screen(StandingsScreen(1))                  # the next screen, which is painted
        await idle(pilot)
        assert app.is_running and app._exception is None

    run(service, scenario)
