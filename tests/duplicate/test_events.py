"""The typed event log (issue 12 §2): every event of a real tournament reads back as its
frozen dataclass, whose payload is exactly what was stored; unknown or incomplete events
are refused with a Spanish message."""

from __future__ import annotations

from pathlib import Path

import pytest

from duplicate.record.event_kinds import EventKind
from duplicate.record.events import EVENT_TYPES, read_event
from duplicate.record.events_play import RackDrawn
from duplicate.record.events_registration import PinChanged
from duplicate.service.facade import TournamentService
from duplicate.service.settings import TournamentSettings
from duplicate.simulate import simulate_tournament
from duplicate.storage.database import open_database
from lexicon.lexicon import Lexicon
from tests.credentials import JUDGE_PIN


def test_every_stored_event_reads_back_as_its_typed_event(tmp_path: Path, spanish_lexicon: Lexicon) -> None:
    service = TournamentService(open_database(str(tmp_path / "t.db")), lexicon=spanish_lexicon, pin=JUDGE_PIN)
    tournament = simulate_tournament(service, players=6, games=1, rounds=3, seed=3,
                                     settings=TournamentSettings(bonus_mode="automatic"))
    service.set_assistant_range("aux1", 1, 3, tournament_id=tournament)
    events = service.history(tournament)
    kinds = {event.kind for event in events}
    assert {"tournament_created", "rack_drawn", "master_chosen", "slip_entered", "round_closed",
            "results_published", "assistant_range"} <= kinds
    for event in events:
        typed = read_event(event.kind, event.payload)
        assert type(typed) is EVENT_TYPES[EventKind(event.kind)]
        assert typed.payload() == event.payload
        assert event.role == "judge" and event.arbiter == "juez"


def test_optional_fields_are_left_out_and_required_ones_are_checked() -> None:
    assert PinChanged("judge", True).payload() == {"role": "judge", "set": True}
    assert PinChanged("assistant", True, "aux1").payload()["name"] == "aux1"
    with pytest.raises(ValueError, match="sin los datos rack"):
        read_event("rack_drawn", {"round": 1, "redraws": []})
    with pytest.raises(ValueError, match="desconocido"):
        read_event("rack_eaten", {})
    assert read_event("rack_drawn", {"round": 2, "rack": "CASA?OL", "redraws": []}) == RackDrawn(2, "CASA?OL", [])
