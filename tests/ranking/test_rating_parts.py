"""The EloDI service over its parts (issue 24 §3): ``RatingService`` shows each part's
reading methods as they are (names, signatures, docstrings) and its parts act on its
context, so a handle's credential and settings reach them all."""

from __future__ import annotations

import inspect
from pathlib import Path

from duplicate.service.context import ServiceContext
from duplicate.storage.database import open_database
from ranking.elodi import EloDISettings
from ranking.rating_field import RatingField
from ranking.rating_history import RatingHistory
from ranking.ratings import RatingService
from tests.credentials import JUDGE_PIN

PARTS = {RatingField: ("game_ref", "why_not_rated", "valid_games", "rated_games", "stale_games"),
         RatingHistory: ("current_version", "versions", "rating_list", "game_report", "player_history",
                         "find_player")}


def test_the_service_shows_its_parts_methods_as_they_are(tmp_path: Path) -> None:
    service = RatingService(open_database(str(tmp_path / "elodi.db")), EloDISettings(min_rounds=3))
    for part, names in PARTS.items():
        for name in names:
            own = getattr(part, name)
            assert own.__doc__ and getattr(RatingService, name).__doc__ == own.__doc__, name
            assert inspect.signature(getattr(service, name)) == inspect.signature(
                own.__get__(getattr(service.modules, "field" if part is RatingField else "history")))
    assert service.modules.field.settings.min_rounds == 3 and service.modules.history.settings.min_rounds == 3
    acting = service.with_pin(JUDGE_PIN)
    assert isinstance(acting.context, ServiceContext) and acting.context.holds(JUDGE_PIN)
    assert acting.modules.field.context is acting.context and acting.modules.history.context is acting.context
    assert service.current_version() is None and service.rating_list() == [] and service.valid_games() == []
