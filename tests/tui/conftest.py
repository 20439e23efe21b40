"""Fixtures for the app's Pilot tests: a service on a fresh SQLite file."""

from __future__ import annotations

from pathlib import Path

import pytest

from duplicate.service import TournamentService
from duplicate.storage.database import open_database
from lexicon.lexicon import Lexicon
from tests.credentials import JUDGE_PIN


@pytest.fixture
def service(tmp_path: Path, spanish_lexicon: Lexicon) -> TournamentService:
    return TournamentService(open_database(str(tmp_path / "tui.db")), station="puesto-1", lexicon=spanish_lexicon, pin=JUDGE_PIN)
