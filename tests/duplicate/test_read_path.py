"""The read path's lighter reads (issue 38) give what the full views gave: ``entry_names``
(four columns in one query) the names ``distinct_names`` makes of ``entries()``, homonyms
told apart, and the same ``DamagedData`` for an entry whose player is gone; ``settings``
(the settings column alone) those of ``tournament()``."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from duplicate.homonyms import NamedPlayer, distinct_names
from duplicate.service.errors import DamagedData
from duplicate.service.facade import TournamentService
from duplicate.service.settings import TournamentSettings
from duplicate.storage.database import open_database
from tests.credentials import JUDGE_PIN


def test_entry_names_and_settings_agree_with_the_full_views(tmp_path: Path) -> None:
    service = TournamentService(open_database(str(tmp_path / "t.db")), pin=JUDGE_PIN)
    first = service.create_tournament("Abierto", settings=TournamentSettings(criterion="total", tie_breaks=True))
    service.add_player("Ana Pérez", club="Alfil", federation_id="F1")
    service.add_player("Ana Pérez", club="Alfil", federation_id="F2")      # homonyms, same club
    service.add_player("Ana Pérez", club="Torre")
    service.add_player("Blas")
    second = service.create_tournament("Otro")
    service.add_player("Celia", tournament_id=second)
    for tournament in (first, second, None):
        expected = distinct_names(NamedPlayer(entry.id, player.name, player.club, player.federation_id, entry.id)
                                  for entry, player in service.entries(tournament))
        assert service.entry_names(tournament) == expected
        assert service.settings(tournament) == TournamentSettings.from_dict(service.tournament(tournament).settings)
    names = service.entry_names(first)
    assert len(set(names.values())) == 4 and service.entry_names(second) == {5: "Celia"}
    assert service.settings(first).tie_breaks and service.settings(first).criterion == "total"


def test_an_entry_whose_player_is_gone_is_damage_for_entry_names_as_for_entries(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    service = TournamentService(open_database(str(path)), pin=JUDGE_PIN)
    service.create_tournament("Abierto")
    service.add_player("Ana")
    service.add_player("Blas")
    service.db.dispose()
    with sqlite3.connect(path) as connection:       # foreign keys are off on a bare connection
        connection.execute("DELETE FROM players WHERE name = 'Blas'")
    service = TournamentService(open_database(str(path)))
    with pytest.raises(DamagedData) as from_entries:
        service.entries()
    with pytest.raises(DamagedData) as from_names:
        service.entry_names()
    assert str(from_names.value) == str(from_entries.value)
