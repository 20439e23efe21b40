"""Service additions for the setup and projection screens (issue 4): correcting a
player's details (logged) and the partial standings shown every N rounds."""

from __future__ import annotations

from pathlib import Path

import pytest

from duplicate.record.event_kinds import EventKind
from duplicate.rules.statuses import SeatingMethod
from duplicate.service.errors import InvalidText, NotFound, StateConflict
from duplicate.service.facade import TournamentService
from duplicate.storage.database import open_database
from lexicon.lexicon import Lexicon
from tests.credentials import JUDGE_PIN


@pytest.fixture
def service(tmp_path: Path, spanish_lexicon: Lexicon) -> TournamentService:
    return TournamentService(open_database(str(tmp_path / "t.db")), station="mesa", lexicon=spanish_lexicon, pin=JUDGE_PIN)


def test_update_player_changes_only_the_given_fields_and_logs_before_and_after(service: TournamentService) -> None:
    service.create_tournament("T", judge_name="Lucía")
    entry = service.add_player("Ana  Perez", club="Club A", country="ES", federation_id="F1")
    service.update_player(entry, name="Ana Pérez", federation_id="F9")
    [(_, player)] = service.entries()
    assert (player.name, player.club, player.country, player.federation_id) == ("Ana Pérez", "Club A", "ES", "F9")
    event = service.history()[-1]
    assert event.kind == EventKind.PLAYER_UPDATED and event.arbiter == "Lucía"
    assert event.payload["before"]["name"] == "Ana Perez" and event.payload["after"]["federation_id"] == "F9"


def test_update_player_refuses_an_empty_name_and_another_players_federation_id(service: TournamentService) -> None:
    service.create_tournament("T")
    first = service.add_player("Ana", federation_id="F1")
    service.add_player("Berta", federation_id="F2")
    with pytest.raises(InvalidText) as refused:
        service.update_player(first, name="  ")
    assert refused.value.what == "el nombre del jugador"
    with pytest.raises(StateConflict) as refused:
        service.update_player(first, federation_id="F2")
    assert (refused.value.what, refused.value.state) == ("federación F2", "taken")
    with pytest.raises(NotFound) as refused:
        service.update_player(999, name="X")
    assert (refused.value.what, refused.value.key) == ("inscripción", 999)
    service.update_player(first, federation_id="")
    assert service.entries()[0][1].federation_id is None


def test_partial_standings_count_only_the_rounds_up_to_the_one_asked(service: TournamentService) -> None:
    service.create_tournament("T")
    service.add_player("Ana")
    service.add_player("Berta")
    game = service.create_game(rounds=5, seed=7, seating=SeatingMethod.ALPHABETICAL)
    masters = []
    for _ in range(4):
        service.draw_rack(game)
        masters.append(service.choose_master(game))
        service.enter_master_slips(game, [1])          # Ana plays every master; Berta nothing
    through_three = service.partial_standings(game, 3)
    ana = next(s for s in through_three if s.player == service.seats(game)[0][1].id)
    assert ana.position == 1
    assert ana.total == sum(view.master_score or 0 for view in masters[:3])
    assert ana.per_round == tuple(view.master_score for view in masters[:3])
    assert service.partial_standings(game, 10) == service.game_standings(game)
