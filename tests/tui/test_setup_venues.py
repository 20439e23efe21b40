"""The setup screen's venue texts and fields (issue 27 §2): pure functions, no Textual."""

from __future__ import annotations

import time

import pytest
from rich.text import Text

from duplicate.labels import local_time
from duplicate.service.errors import InvalidNumber
from duplicate.service.venues import VenueView
from duplicate.service.views import AssistantRangeView, EntryView, PlayerView
from tui.app.screens.setup_presenter import SetupData, player_row
from tui.app.screens.setup_venues import ORGANISER_ROOM, imported_text, table_span, venue_choices, venue_rows


def test_an_assistants_tables_typed_as_a_span() -> None:
    assert table_span("") is None and table_span("  ") is None
    assert table_span("1-12") == (1, 12) and table_span(" 3–4 ") == (3, 4) and table_span("7") == (7, 7)
    for bad in ("4-2", "0-3", "a-b", "1-", "-3", "1-2-3"):
        with pytest.raises(InvalidNumber, match="mesas del auxiliar"):
            table_span(bad)


def entry(number: int, venue: str | None) -> tuple[EntryView, PlayerView]:
    return (EntryView(id=number, tournament_id=1, player_id=number, status="active", venue=venue),
            PlayerView(id=number, name=f"J{number}", club="", country="", federation_id=None))


def test_the_venues_rows_and_choices() -> None:
    entries = [entry(1, "Lloret"), entry(2, "[b]Reus[/]"), entry(3, "Lloret"), entry(4, None)]
    stations = [("judge", "juez", None), ("judge", "juez de Lloret", "Lloret"), ("assistant", "aux L", "Lloret"),
                ("assistant", "aux R", "[b]Reus[/]"), ("assistant", "aux sin", "Lloret")]
    ranges = [AssistantRangeView("aux L", 1, 2), AssistantRangeView("aux R", 3, 4)]
    venues = ["Lloret", "[b]Reus[/]", "=cmd"]
    # As ``venues()`` lists them: the online ones (its count of players is not the table's:
    # a venue judge's screen counts the entries it is shown), then an imported one.
    views = [*(VenueView(name, 99, 0, "", index, None, None, "", online=True) for index, name in enumerate(venues)),
             VenueView("El [i]Vendrell", 5, 1, "ab" * 32, 7, 3, None, "")]
    assert venue_rows(views, entries, stations, ranges) == [
        ("Lloret", "en línea", "2", "juez de Lloret", "aux L (1–2), aux sin (sin mesas)", ""),
        ("[b]Reus[/]", "en línea", "1", "sin PIN", "aux R (3–4)", ""),
        ("=cmd", "en línea", "0", "sin PIN", "ninguno", ""),
        ("El [i]Vendrell", "importada", "5", "—", "—", "")]
    choices = venue_choices(venues)
    assert [value for _, value in choices] == [ORGANISER_ROOM, *venues]
    assert all(isinstance(prompt, Text) for prompt, _ in choices)
    assert choices[2][0].plain == "[b]Reus[/]"                       # as typed, never markup
    assert player_row(*entries[1], venues=True)[-1] == "[b]Reus[/]"
    assert player_row(*entries[3], venues=True)[-1] == "sala del organizador"
    assert len(player_row(*entries[3])) == 6                           # no venue column without venues


def test_what_a_venue_station_is_shown() -> None:
    entries = [entry(1, "Lloret"), entry(2, "Reus"), entry(3, None)]
    stations: list[tuple[str, str, str | None]] = [("assistant", "aux L", "Lloret"), ("assistant", "aux R", "Reus"),
                                                   ("assistant", "aux O", None)]
    ranges = [AssistantRangeView("aux L", 1, 1), AssistantRangeView("aux R", 2, 2), AssistantRangeView("aux O", 1, 3)]
    data = SetupData(info=None, settings=None, entries=entries, seats=[], ranges=ranges,  # type: ignore[arg-type]
                     venues=["Lloret", "Reus"], stations=stations)
    assert data.within(None) is data
    lloret = data.within("Lloret")
    assert [item.id for item, _ in lloret.entries] == [1]
    assert [item.assistant for item in lloret.ranges] == ["aux L"]
    assert lloret.stations == [("assistant", "aux L", "Lloret")] and lloret.venues == ["Lloret", "Reus"]


def test_when_a_venue_was_imported_is_shown_in_local_time(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TZ", "Europe/Madrid")
    time.tzset()
    try:
        assert local_time("2026-11-27T08:40:00+00:00") == "27/11/2026 09:40"   # CET is UTC+1 in November
        assert local_time("2026-07-01T23:30:00") == "02/07/2026 01:30"         # no zone: UTC; CEST is UTC+2
        assert local_time("") == "" and local_time("ayer") == ""
    finally:
        monkeypatch.undo()                                                    # the machine's zone again
        time.tzset()


def test_what_the_organiser_is_told_after_an_import() -> None:
    # Issue 35 §2: an unsigned import says so; a signed one names the key that signed it.
    first = VenueView("Lloret", 6, 1, "ab" * 32, 4, None, None, "")
    assert imported_text(first) == ("Sede «Lloret» importada: 6 jugadores, 1 partida. SIN FIRMA: la sede no tiene "
                                    "clave registrada (queda anotado en el historial).")
    again = VenueView("Lloret", 1, 2, "cd" * 32, 9, 4, None, "", signed_by="57ca da43 d87a 92ec 3806")
    assert imported_text(again) == ("Sede «Lloret» importada (sustituye a su importación anterior, que queda en el "
                                    "historial): 1 jugador, 2 partidas. Firma comprobada: clave registrada de la "
                                    "sede, huella 57ca da43 d87a 92ec 3806.")
