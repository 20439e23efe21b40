"""Announcements (III.16, III.17, III.18) and the round timer (III.13)."""

from __future__ import annotations

from pathlib import Path

import pytest

from duplicate.rules.announce import (
    SpellingTable,
    SpellingTableError,
    announcement_order,
    coordinate_words,
    master_announcement,
    rack_announcement,
)
from duplicate.rules.timer import Cue, RoundTimer


@pytest.fixture(scope="module")
def table() -> SpellingTable:
    return SpellingTable.load()


def test_the_default_table_covers_every_tile_and_every_row(alphabet, table) -> None:
    for letter in alphabet.letters:
        assert letter.symbol in table.keywords
    for row in "ABCDEFGHIJKLMNO":
        assert row in table.keywords
    assert table.keyword("E") == "España"       # III.18's own example: «España ocho»


def test_rules_examples_for_coordinates_III16(table) -> None:
    # «CASA en 7 Kuwait»: a down move in column 7 from row K; across rows put the row first.
    assert coordinate_words("7K", table) == "7 Kuwait"
    assert coordinate_words("E4", table) == "España 4"
    with pytest.raises(ValueError, match="coordenada"):
        coordinate_words("Z99", table)


def test_master_announcement_gives_score_and_cumulative_III16(table) -> None:
    assert master_announcement("H8-CASA", 24, 312, table) == "CASA en Honduras 8, 24 puntos; acumulado de la partida, 312."
    assert "comodín: S" in master_announcement("8H-CASAs", 12, 40, table)


def test_leftover_tiles_first_alphabetically_then_new_tiles_as_drawn_III17(alphabet, table) -> None:
    codes = alphabet.tokenize
    leftover = codes("SA", allow_unknown_blank=True) + [alphabet.blank]
    drawn = codes("ZCHE", allow_unknown_blank=True)
    order = announcement_order(leftover, drawn, alphabet)
    assert alphabet.format(order) == "AS?ZCHE"
    text = rack_announcement(leftover, drawn, alphabet, table)
    assert text == ("Quedan: A de Argentina, S de Suecia, comodín. "
                    "Nuevas: Z de Zaragoza, CH de Chile, E de España.")
    assert rack_announcement([], drawn, alphabet, table).startswith("Atril: Z de Zaragoza")


def test_a_broken_table_file_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "tabla.tsv"
    path.write_text("A\tArgentina\nB Bolivia\n", encoding="utf-8")
    with pytest.raises(SpellingTableError, match="línea 2"):
        SpellingTable.load(path)


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_timer_cues_at_one_minute_thirty_seconds_alcen_and_tiempo_III13() -> None:
    clock = FakeClock()
    timer = RoundTimer(clock=clock)
    assert timer.text() == "3:00" and not timer.running
    timer.start()
    clock.now += 119.5
    assert timer.due_cues() == [] and timer.text() == "1:01"
    clock.now += 0.5
    assert timer.due_cues() == [Cue.ONE_MINUTE]
    clock.now += 30
    assert timer.due_cues() == [Cue.THIRTY_SECONDS]
    clock.now += 25
    assert timer.due_cues() == [Cue.RAISE] and timer.text() == "0:05"
    clock.now += 10
    assert timer.due_cues() == [Cue.TIME] and timer.text() == "0:00" and not timer.running
    assert timer.due_cues() == []


def test_timer_pause_and_reset() -> None:
    clock = FakeClock()
    timer = RoundTimer(seconds=60, clock=clock)
    timer.start()
    clock.now += 20
    timer.pause()
    clock.now += 100
    assert timer.remaining() == pytest.approx(40)
    timer.start()
    clock.now += 10
    assert timer.remaining() == pytest.approx(30)
    # A shorter round skips cues beyond its length; a reset starts over.
    assert timer.due_cues() == [Cue.THIRTY_SECONDS]
    timer.reset(180)
    assert timer.remaining() == 180 and not timer.running


def test_a_shared_timer_is_followed_from_its_last_action() -> None:
    from duplicate.rules.timer import shared_remaining

    assert shared_remaining("start", 180, 30.5) == (149.5, True)
    assert shared_remaining("start", 10, 12) == (0.0, False)
    assert shared_remaining("pause", 95, 400) == (95, False)
    assert shared_remaining("reset", 180, 5) == (180, False)
    clock = FakeClock()
    timer = RoundTimer(clock=clock)
    timer.sync(50, running=True)                     # joined after the one-minute warning
    assert timer.running and timer.text() == "0:50" and timer.due_cues() == []
    clock.now += 21
    assert timer.due_cues() == [Cue.THIRTY_SECONDS]
