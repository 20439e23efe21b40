"""What the judge's setup screen shows and reads back, without Textual (issue 24 §3):
``tui.app.screens.setup_presenter`` on hand-made views."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

import pytest

from duplicate.rules.bonuses import BonusMode
from duplicate.rules.statuses import GameStatus
from duplicate.service.errors import TournamentError
from duplicate.service.views import EntryView, GameInfo, PlayerView, TournamentInfo
from tui.app.screens.setup_presenter import (
    bonus_advice,
    games_text,
    info_text,
    integer,
    lock_text,
    player_row,
    problem,
)


def info(games: tuple[GameInfo, ...] = (), *, venue: str = "", path: str | None = None) -> TournamentInfo:
    return TournamentInfo(id=1, name="Open [de] Pruebas", venue=venue, start_date=None, end_date=None,
                          lexicon_hash="0123456789abcdef0123", lexicon_path=path, settings={}, players=12,
                          active_players=11, games=games, field_active_players=11)


def test_numbers_typed_in_the_forms() -> None:
    assert integer(" 42 ", "rondas") == 42
    assert integer("", "rondas") is None and integer("  ", "valor", blank=10) == 10
    with pytest.raises(TournamentError) as refused:
        integer("4x", "semilla de la bolsa")
    assert "semilla de la bolsa" in str(refused.value) and "4x" in str(refused.value)
    assert problem(TournamentError("no")) == "no"
    assert problem(OSError("disco")).startswith("no se pudo hacer (OSError)")


def test_the_tournament_its_games_and_the_lock() -> None:
    empty = info()
    text = info_text(empty).plain
    assert text.startswith("Open [de] Pruebas — sin lugar\n")      # stored text as typed, never markup
    assert "Léxico: 0123456789abcdef…" in text and "12 inscritos, 11 activos." in text
    with_venues = replace(empty, field_active_players=40)           # imported venues (issue 27 §2)
    assert "12 inscritos, 11 activos; 40 activos en todas las sedes." in info_text(with_venues).plain
    assert "Sala [x]" in info_text(info(venue="Sala [x]\\", path="/tmp/l.lex")).plain
    assert games_text(empty) == "Aún no hay partidas." and lock_text(empty) == ""
    games = (GameInfo(1, GameStatus.FINAL.value, 15, None, 180, None),
             GameInfo(2, GameStatus.SETUP.value, 0, 5, 150, None))
    lines = games_text(info(games)).split("\n")
    assert lines[0] == "Partidas:"
    assert lines[1].startswith("Partida 1: ") and lines[1].endswith("15 rondas de bolsa completa, 180 s por ronda")
    assert lines[2].endswith("0 rondas de 5, 150 s por ronda")
    assert "III.24" in lock_text(info(games))                    # rounds played: the settings are fixed
    assert lock_text(info((games[1],))) == ""


def test_a_player_row() -> None:
    entry = EntryView(id=7, tournament_id=1, player_id=3, status="active")
    player = PlayerView(id=3, name="Ana", club="Club", country="ES", federation_id=None)
    row = player_row(entry, player)
    assert row[:2] == ("7", "Ana") and row[3:] == ("Club", "ES", "")
    assert row[2] == "activo"                                  # the status by its Spanish name, by the name


def test_the_bonus_advice_of_iii_24() -> None:
    few = bonus_advice(3, BonusMode.AUTOMATIC.value, "")
    assert few is not None and few.startswith("‼ ") and "III.24" in few
    assert bonus_advice(40, BonusMode.OFF.value, "") == ""
    many = bonus_advice(40, BonusMode.MANUAL.value, "50")
    assert many is not None and many.count("‼") == 2
    wrong = bonus_advice(40, BonusMode.MANUAL.value, "diez")
    assert wrong is not None and "diez" in wrong
    # Before the players are read: nothing yet, unless the value typed is wrong.
    assert bonus_advice(None, BonusMode.AUTOMATIC.value, "10") is None
    assert bonus_advice(None, BonusMode.AUTOMATIC.value, "x") is not None
