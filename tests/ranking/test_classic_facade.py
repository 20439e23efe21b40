"""The classic service as a façade over its task modules (issue 24 §3): the public
interface is the task modules' own (names, signatures, docstrings), every module acts with
the one credential of the façade's context, and a player's rating and FIDE title are
checked once (``checked_rating_and_title``), the refusal naming the input that is wrong."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest

from duplicate.service.errors import InvalidInput, NotAuthorised
from duplicate.service.facade import TournamentService
from duplicate.storage.database import open_database
from ranking.classic.divisions import Divisions
from ranking.classic.pairing import Pairing
from ranking.classic.reports import Reports
from ranking.classic.results import Results
from ranking.classic.service import ClassicService
from tests.credentials import JUDGE_PIN

PUBLIC = {Divisions: ("create_division", "divisions", "enter_player", "set_rating", "starting_list", "request_bye",
                      "withdraw"),
          Pairing: ("pair_round",),
          Results: ("enter_result", "record_forfeit", "resolve_result"),
          Reports: ("round_note", "players", "boards", "standings", "snapshot", "rounds_complete", "trf_text")}


@pytest.fixture
def classic(tmp_path: Path) -> ClassicService:
    database = open_database(str(tmp_path / "clasico.db"))
    tournament = TournamentService(database, station="mesa", pin=JUDGE_PIN)
    tournament.create_tournament("Open clásico")
    for name in ("Ana", "Blas", "Celia", "Dora"):
        tournament.add_player(name)
    service = ClassicService.like(tournament)
    service.create_division(rounds=3, system="round-robin", name="A")
    return service


def test_the_facade_shows_each_modules_methods_as_they_are(classic: ClassicService) -> None:
    for module, names in PUBLIC.items():
        for name in names:
            own = getattr(module, name)
            assert getattr(ClassicService, name).__doc__ == own.__doc__ and own.__doc__
            bound = getattr(classic, name)
            assert inspect.signature(bound) == inspect.signature(getattr(module(classic.context), name)), name
    assert sorted(name for names in PUBLIC.values() for name in names) == sorted(
        name for name in vars(ClassicService) if not name.startswith("_") and name not in ("like", "modules"))


def test_every_module_acts_with_the_facades_credential(classic: ClassicService) -> None:
    viewer = ClassicService(classic.context.with_pin(None))
    with pytest.raises(NotAuthorised):
        viewer.enter_player("Ana", division="A")
    with pytest.raises(NotAuthorised):
        viewer.pair_round("A")
    assert viewer.players(division="A") == []             # reading needs no credential


@pytest.mark.parametrize(("rating", "title", "what", "value"), [
    (4001, "", "el elo", 4001), (-1, "GM", "el elo", -1), (2100, "XM", "el título", "XM"),
    (None, "gran maestro", "el título", "gran maestro")])
def test_a_bad_rating_or_title_is_refused_naming_it(classic: ClassicService, rating: int | None, title: str,
                                                   what: str, value: object) -> None:
    with pytest.raises(InvalidInput) as refused:
        classic.enter_player("Ana", division="A", rating=rating, title=title)
    assert (refused.value.what, refused.value.value) == (what, value)
    assert classic.players(division="A") == []           # nothing stored
    number = classic.enter_player("Ana", division="A", rating=1800, title=" im ")
    with pytest.raises(InvalidInput) as refused:
        classic.set_rating(number, rating if rating is not None else 1900, title=title, division="A")
    assert (refused.value.what, refused.value.value) == (what, value)
    assert [(p.rating, p.title) for p in classic.players(division="A")] == [(1800, "IM")]
