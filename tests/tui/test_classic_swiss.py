"""The classic event screen (issue 16): a 40-player, 7-round Swiss event run end to end from
the app, as the judge runs it — F5 pairs each round, the 20 boards' results typed with no
pause, the standings tab shows the service's standings, F9 publishes. In a file of its own,
apart from the other classic screen tests (``test_classic.py``), so that xdist runs it
beside them (``--dist loadfile``) instead of after them on one worker."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest
from textual.widgets import TabbedContent

from ranking.classic.engines import py4swiss_installed
from ranking.classic.replay import check_tournament
from ranking.classic.service import ClassicService
from ranking.classic.trf import read_trf
from tests.credentials import JUDGE_PIN
from tests.tui.keys import send_without_pauses
from tests.tui.test_classic import classic_screen, feedback, new_tournament
from tests.tui.waiting import finished, idle, until
from tui.app.widgets.plain_table import PlainTable


@pytest.mark.slow
@pytest.mark.skipif(not py4swiss_installed(), reason="py4swiss no se instala en este sistema")
def test_a_40_player_7_round_swiss_event_from_the_app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "datos"))          # where F9 publishes
    service = new_tournament(tmp_path / "clasico.db", 40)
    rng = random.Random(40)

    async def main() -> None:
        async with classic_screen(service, JUDGE_PIN, size=(100, 40)) as (app, pilot, screen):
            await idle(pilot)
            await pilot.click("#setup-rounds")
            await pilot.press("7", "enter")                     # the default system: FIDE Dutch
            await until(pilot, lambda: screen.division is not None)
            classic = ClassicService.like(app.service)
            for number in range(1, 8):
                await pilot.press("f5")

                await until(pilot, lambda: screen.shown_round == number and
                            screen.query_one("#boards", PlainTable).row_count == 20)
                boards = classic.boards(number)
                keys: list[str] = []
                for board in boards:
                    scores = (rng.randint(300, 520), rng.randint(300, 520))
                    keys += list(f"{board.table} {scores[0]} {scores[1]}") + ["enter"]
                screen.query_one("#result").focus()
                send_without_pauses(app, keys)                  # 20 boards typed with no pause
                # 220 keys, each applied in order: the service is asked once they all are (asking it
                # every 20 ms meanwhile took the event loop's time from the keys).
                await finished(app.keys_applied(), f"the 220 keys of round {number} applied")
                await until(pilot, lambda: all(b.first_score is not None for b in classic.boards(number)))
                await idle(pilot)
            await pilot.press("f5")
            await until(pilot, lambda: "ya se han emparejado las 7 rondas" in feedback(screen))
            await pilot.press("f3")
            assert app.screen.query_one("#classic-tabs", TabbedContent).active == "clasificacion"
            table = screen.query_one("#standings", PlainTable)
            await until(pilot, lambda: table.row_count == 40)
            shown = [table.get_row_at(i)[1].plain for i in range(40)]
            assert shown == [f"{line.number} {line.name}" for line in classic.standings()]
            assert any("[red]Eva[/red] Núñez" in name for name in shown)        # names as typed, no markup
            await pilot.press("f9")
            await until(pilot, lambda: "Publicado" in feedback(screen))

    asyncio.run(main())
    folder = next((tmp_path / "datos").rglob("clasico"))
    assert (folder / "index.html").exists() and (folder / "pdf" / "ronda-7.pdf").exists()
    assert "Clasificación final" in (folder / "index.html").read_text(encoding="utf-8")
    trf = read_trf(ClassicService(service.db).trf_text())
    assert trf.rounds_played == 7 and check_tournament(trf, "dutch") == (7, None)  # type: ignore[arg-type]
