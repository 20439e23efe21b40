"""The command line run in-process as the judge's station, for the CLI tests."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from tests.credentials import JUDGE_PIN
from tui.cli.main import main


def judge_command_line(monkeypatch: pytest.MonkeyPatch, database: Path, station: str = "mesa-1", *,
                       prog_name: str | None = None) -> Callable[..., Result]:
    """``run(*args, code=0)``: ``duplicada ARGS`` on the SQLite file ``database`` from the
    station ``station`` with the judge's PIN (``DUPLICADA_DB``, ``DUPLICADA_STATION``,
    ``DUPLICADA_PIN`` set for the test); asserts the exit code (the output in the
    failure) and returns Click's ``Result``. ``prog_name``: the program name ``--help``
    shows (Click's guess when None)."""
    monkeypatch.setenv("DUPLICADA_DB", str(database))
    monkeypatch.setenv("DUPLICADA_STATION", station)
    monkeypatch.setenv("DUPLICADA_PIN", JUDGE_PIN)
    runner = CliRunner()

    def run(*args: str, code: int = 0) -> Result:
        result = runner.invoke(main, list(args), prog_name=prog_name)
        assert result.exit_code == code, result.output
        return result

    return run
