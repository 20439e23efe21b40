"""Golden games (issue 34 §6): each script of ``duplicada`` commands in ``tests/golden/``,
replayed on a fixed clock into fresh SQLite databases, writes exactly the files checked in
beside it — the record with its hash chain, the standings CSV, the Eliot XML, the HTML
pages and the transcript of every command — byte for byte (``tests/golden/replay.py``).

A change meant to alter them is accepted by rewriting the expected files with
``python -m tests.golden.rewrite`` (see ``tests/golden/README.md``) and reviewing the diff.
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from tests.golden import replay

REWRITE = "python -m tests.golden.rewrite"


@pytest.mark.parametrize("game", replay.games())
def test_a_golden_game_replays_to_the_files_checked_in(game: str, tmp_path: Path) -> None:
    outputs = replay.replay(game, tmp_path / game)
    found = replay.differences(game, outputs)
    assert not found, (f"golden game «{game}» differs from tests/golden/{game}/expected/ "
                       f"(if the change is meant: {REWRITE} {game}, then review the diff):\n  "
                       + "\n  ".join(found))


def test_there_are_the_three_golden_games() -> None:
    assert replay.games() == ["corrections", "plain", "venues"]
    for game in replay.games():
        expected = replay.expected(game)
        assert replay.TRANSCRIPT in expected and "registro.json" in expected, game


def test_the_fixed_clock_moves_with_the_commands_and_is_put_back() -> None:
    import datetime as stdlib
    import time

    import duplicate.service.context as context

    with replay.fixed_clock() as clock:
        clock.moment = replay.START + 3 * replay.STEP
        assert context.now() == datetime(2026, 11, 21, 9, 3, tzinfo=UTC)       # a project module's clock
        assert stdlib.datetime.now() == datetime(2026, 11, 21, 9, 3)          # the stdlib's, naive in UTC
        assert stdlib.date.today() == date(2026, 11, 21) and time.perf_counter() == 180.0
        assert isinstance(datetime(2020, 1, 1), stdlib.datetime)               # real values still pass
    assert abs(context.now().timestamp() - time.time()) < 60
    assert stdlib.datetime is datetime and stdlib.date is date and time.perf_counter is replay._REAL_PERF_COUNTER


def test_a_script_line_is_a_duplicada_command(tmp_path: Path) -> None:
    script = tmp_path / "commands.txt"
    script.write_text('# a comment\n\nduplicada player add "Ana Pérez"\n! duplicada round close\n'
                      "duplicada standings --format csv > salida/c.csv\n", encoding="utf-8")
    commands = replay.read_script(script)
    assert [(c.line, c.args, c.stdout_to, c.refused) for c in commands] == [
        (3, ("player", "add", "Ana Pérez"), None, False), (4, ("round", "close"), None, True),
        (5, ("standings", "--format", "csv"), "salida/c.csv", False)]
    script.write_text("rm -rf /\n", encoding="utf-8")
    with pytest.raises(ValueError, match="commands.txt:1"):
        replay.read_script(script)
