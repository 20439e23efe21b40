"""Fixtures for the app's Pilot tests: a service on a fresh SQLite file."""

from __future__ import annotations

from pathlib import Path

import pytest
import textual._wait

# Issue 24 §3: after every key Pilot waits until the app is idle, checking every
# SLEEP_GRANULARITY seconds (20 ms) whether the process used any CPU meanwhile; with about
# a thousand keys in the longest tests those checks were most of their time. 5 ms checks
# find the same idle moment sooner. What the app does in its workers the tests wait for
# explicitly (tests/tui/waiting.py).
textual._wait.SLEEP_GRANULARITY = 0.005

from duplicate.service.facade import TournamentService
from duplicate.storage.database import open_database
from lexicon.lexicon import Lexicon
from tests.credentials import JUDGE_PIN


@pytest.fixture
def service(tmp_path: Path, spanish_lexicon: Lexicon) -> TournamentService:
    return TournamentService(open_database(str(tmp_path / "tui.db")), station="puesto-1", lexicon=spanish_lexicon, pin=JUDGE_PIN)
