"""Offline venues imported from the app (issue 27 §2, docs/venues.md «In the app»): in the
setup screen's «F6 Sedes» tab the organiser's judge types the path of a venue's exported
record and the venue's name, at 80×24, as a person would. A record with one changed rack,
a missing file, a file that is not JSON or is too big are refused with the service's Spanish
message and nothing stored; a path with markup characters is shown as typed; importing the
same venue again replaces the first import (both kept in the log). The standings screen
left open underneath shows the imported venues on its next refresh (F6 Sedes). Every check
is made on what the service stored; a second Enter while a record is read is refused."""

from __future__ import annotations

import asyncio
import base64
import copy
import json
import threading
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Checkbox, DataTable, TabbedContent

import duplicate.record.reading
from duplicate.prepared.file import PreparedGame
from duplicate.record.event_kinds import EventKind
from duplicate.service.facade import TournamentService
from duplicate.service.venues import VenueView
from lexicon.lexicon import Lexicon
from tests.credentials import pin_of
from tests.tui.screen_text import screen_text
from tests.tui.test_setup import message, settle, type_into
from tests.tui.venue_event import HOSTILE_VENUE, organiser, texts, venue_game, venue_records
from tests.tui.waiting import until
from tui.app.application import DuplicadaApp
from tui.app.screens.setup import SetupScreen
from tui.app.screens.standings import StandingsScreen

FOLDER = "[red]sedes[/x]"
"""A folder named with markup (its «/» makes it two folders): paths in messages are shown as typed."""


@pytest.fixture(scope="module")
def prepared(spanish_lexicon: Lexicon) -> PreparedGame:
    return venue_game(spanish_lexicon)


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory, spanish_lexicon: Lexicon,
            prepared: PreparedGame) -> dict[str, dict[str, Any]]:
    return venue_records(tmp_path_factory.mktemp("sedes-importadas"), spanish_lexicon, prepared)


def written(folder: Path, name: str, record: dict[str, Any]) -> Path:
    """``record`` written as a venue exports it (``duplicada export``)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    return path


def imports(service: TournamentService) -> list[str]:
    """The ``venue_imported`` events of the log, by venue, oldest first."""
    return [str(event.payload.get("venue")) for event in service.history()
            if event.kind == EventKind.VENUE_IMPORTED.value]


def run(service: TournamentService,
        scenario: Callable[[Pilot, StandingsScreen, SetupScreen], Awaitable[None]]) -> None:  # type: ignore[type-arg]
    """The organiser's judge at 80×24: the standings screen open (F6: no venues yet), then
    the setup screen over it on its «F6 Sedes» tab."""

    async def main() -> None:
        app = DuplicadaApp(service, poll=False)
        async with app.run_test(size=(80, 24)) as pilot:
            app.state.tournament_id = service.tournament().id
            app.authenticate(pin_of("judge"))
            standings = StandingsScreen(1)
            await app.push_screen(standings)
            await until(pilot, lambda: standings.loaded)
            await pilot.press("f6")
            await pilot.pause()
            assert standings.query_one(TabbedContent).active == "game"
            assert any("no tiene sedes" in notice.message and "F6 Sedes" in notice.message
                       for notice in app._notifications)
            setup = SetupScreen()
            await app.push_screen(setup)
            await settle(pilot)
            await pilot.press("f6")
            await settle(pilot)
            assert setup.query_one("#tabs", TabbedContent).active == "tab-sedes"
            await scenario(pilot, standings, setup)

    asyncio.run(main())


async def import_record(pilot: Pilot, path: Path | str, venue: str, *, typed: bool = False,  # type: ignore[type-arg]
                        button: bool = False, unsigned: bool = False) -> None:
    """Type the record's path (pasted, as paths mostly are; ``typed``: key by key), Enter,
    the venue's name, then Enter (``button``: Tab past «Sin firma» to «Importar el
    registro», Enter); ``unsigned``: Tab to «Sin firma» and tick it with the space bar
    first (a venue with no registered key, issue 35 §2)."""
    await type_into(pilot, "#vi_path", str(path), enter=True, paste=not typed)
    assert pilot.app.focused is not None and pilot.app.focused.id == "vi_name"     # Enter moved on
    await type_into(pilot, "#vi_name", venue, enter=not (button or unsigned))
    if unsigned:
        await pilot.press("tab")
        assert pilot.app.focused is not None and pilot.app.focused.id == "vi_unsigned"
        await pilot.press("space")
        if not button:
            await pilot.press("shift+tab", "enter")
            await settle(pilot)
    if button:
        await pilot.press(*(["tab"] if unsigned else ["tab", "tab"]))
        assert pilot.app.focused is not None and pilot.app.focused.id == "import_venue"
        await pilot.press("enter")
        await settle(pilot)


def test_bad_venue_records_are_refused_in_the_form_and_nothing_is_stored(
        tmp_path: Path, spanish_lexicon: Lexicon, prepared: PreparedGame, records: dict[str, dict[str, Any]],
        monkeypatch: pytest.MonkeyPatch) -> None:
    service = organiser(tmp_path / "org.db", spanish_lexicon, prepared, None)
    folder = tmp_path / FOLDER
    lloret = written(folder, "lloret.json", records["Lloret"])
    changed = copy.deepcopy(records[HOSTILE_VENUE])
    rack = changed["games"][0]["rounds"][1]["rack"]
    changed["games"][0]["rounds"][1]["rack"] = rack[::-1] if rack[::-1] != rack else "AEIOUUU"
    one_rack_changed = written(folder, "vendrell-cambiado.json", changed)
    not_json = folder / "notas.json"
    not_json.write_text("Lloret: 4 jugadores, 1 partida\n", encoding="utf-8")
    events = len(service.history())

    def nothing_stored() -> None:
        assert service.venues() == [] and len(service.history()) == events

    async def scenario(pilot: Pilot, standings: StandingsScreen, setup: SetupScreen) -> None:  # type: ignore[type-arg]
        assert setup.query_one("#venue_import").display and setup.query_one("#venue_online").display
        # The service's Spanish message, the path as typed (markup characters and all, typed
        # key by key), the form kept for a correction, nothing stored.
        missing = folder / "[b]no-existe[/b].json"
        await import_record(pilot, missing, "Girona", typed=True)
        assert message(setup) == f"{missing}: no existe (se esperaba un registro de torneo (JSON))"
        assert setup.query_one("#message").has_class("error")
        assert "[b]no-existe[/b].json: no existe" in screen_text(pilot.app)   # shown whole, at 80×24
        assert setup.query_one("#vi_path").value == str(missing)            # type: ignore[attr-defined]
        assert setup.query_one("#vi_name").value == "Girona"               # type: ignore[attr-defined]
        nothing_stored()
        await import_record(pilot, not_json, "Lloret")
        assert message(setup).startswith(f"{not_json}: no es JSON válido (línea 1, columna 1")
        nothing_stored()
        monkeypatch.setattr(duplicate.record.reading, "RECORD_MAX_BYTES", 100)
        await import_record(pilot, lloret, "Lloret")
        size = lloret.stat().st_size
        assert message(setup) == (f"{lloret}: {size} bytes ({size / 2**20:.1f} MiB), más que el máximo de un "
                                  "registro de torneo (JSON), 100 bytes (0.0 MiB); no se lee: ¿es el registro que "
                                  "escribe «duplicada export»?")
        monkeypatch.undo()
        nothing_stored()
        await import_record(pilot, one_rack_changed, HOSTILE_VENUE, button=True)
        assert message(setup).startswith(f"{one_rack_changed}: no se importa la sede:"), message(setup)
        assert "ronda 2" in message(setup)                                  # the round whose rack differs
        assert setup.query_one("#message").has_class("error")
        nothing_stored()
        await import_record(pilot, lloret, "  ")
        assert "falta el nombre de la sede" in message(setup)
        await import_record(pilot, lloret, "Barcelona")                     # the organiser's own room
        assert "es la sede del propio torneo" in message(setup)
        nothing_stored()
        await type_into(pilot, "#vi_path", "", enter=True)
        await type_into(pilot, "#vi_name", "Lloret", enter=True)
        assert "escriba la ruta del registro" in message(setup)
        nothing_stored()

    run(service, scenario)


def test_the_organiser_imports_offline_venues_then_again_at_80_by_24(
        tmp_path: Path, spanish_lexicon: Lexicon, prepared: PreparedGame,
        records: dict[str, dict[str, Any]], monkeypatch: pytest.MonkeyPatch) -> None:
    service = organiser(tmp_path / "org.db", spanish_lexicon, prepared, None)
    folder = tmp_path / FOLDER
    lloret = written(folder, "lloret.json", records["Lloret"])
    vendrell = written(folder, "vendrell.json", records[HOSTILE_VENUE])

    async def scenario(pilot: Pilot, standings: StandingsScreen, setup: SetupScreen) -> None:  # type: ignore[type-arg]
        app = pilot.app
        # The players and games counted from the records (4 and 3 players, one game); the form
        # emptied. The service is held while it reads the first one: Enter again meanwhile is
        # refused, not queued as a second import.
        release = threading.Event()
        real = TournamentService.import_venue_file

        def held(handle: TournamentService, *args: Any, **kwargs: Any) -> VenueView:
            assert release.wait(60)
            return real(handle, *args, **kwargs)

        monkeypatch.setattr(TournamentService, "import_venue_file", held)
        await type_into(pilot, "#vi_path", str(lloret), enter=True, paste=True)
        await type_into(pilot, "#vi_name", "Lloret")
        setup.query_one("#vi_unsigned", Checkbox).value = True       # no key registered for Lloret
        await pilot.press("enter")
        assert message(setup) == "Leyendo y verificando el registro de la sede…"
        await pilot.press("enter")
        assert message(setup) == "ya se está importando un registro: espere a que termine"
        release.set()
        await settle(pilot)
        monkeypatch.undo()
        assert message(setup) == ("Sede «Lloret» importada: 4 jugadores, 1 partida. SIN FIRMA: la sede no tiene "
                                  "clave registrada (queda anotado en el historial).")
        assert not setup.query_one("#vi_unsigned", Checkbox).value      # the form emptied, the box too
        assert imports(service) == ["Lloret"]
        assert not setup.query_one("#message").has_class("error")
        assert setup.query_one("#vi_path").value == setup.query_one("#vi_name").value == ""  # type: ignore[attr-defined]
        await import_record(pilot, vendrell, HOSTILE_VENUE, typed=True, button=True, unsigned=True)
        assert message(setup).startswith(f"Sede «{HOSTILE_VENUE}» importada: 3 jugadores, 1 partida. SIN FIRMA")
        assert [(view.name, view.players, view.games, view.online) for view in service.venues()] == [
            ("Lloret", len(records["Lloret"]["players"]), 1, False),
            (HOSTILE_VENUE, len(records[HOSTILE_VENUE]["players"]), 1, False)]
        # The same venue again: a new import replacing the first, both kept in the log.
        first = service.venues()[0]
        await import_record(pilot, lloret, "Lloret", unsigned=True)
        assert message(setup).startswith("Sede «Lloret» importada (sustituye a su importación anterior")
        again = service.venues()
        assert [view.name for view in again] == ["Lloret", HOSTILE_VENUE] and again[0].replaces == first.event_id
        assert imports(service) == ["Lloret", HOSTILE_VENUE, "Lloret"]
        # The venues' table lists the imported venues, names as typed, with when each came in.
        table = setup.query_one("#venues", DataTable)
        rows = [[str(cell) for cell in table.get_row_at(index)] for index in range(table.row_count)]
        assert [row[:5] for row in rows] == [["Lloret", "importada", "4", "—", "—"],
                                             [HOSTILE_VENUE, "importada", "3", "—", "—"]]
        assert all(row[5] for row in rows)
        table.focus()
        await pilot.press("home")
        await settle(pilot)
        shown = screen_text(app)
        assert "Lloret" in shown and HOSTILE_VENUE in shown and shown.count("importada") >= 2
        # Back to the standings screen left open: its next refresh (the poll's) shows the venues.
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is standings
        assert isinstance(app, DuplicadaApp)
        app.check_for_changes()                                           # what the poll timer does
        await until(pilot, lambda: standings.query_one("#venues-table", DataTable).row_count == 7)
        await pilot.press("f6")
        await pilot.pause()
        assert standings.query_one(TabbedContent).active == "venues"
        venues_table = standings.query_one("#venues-table", DataTable)
        assert sorted(texts(venues_table, "venue")) == sorted(["Lloret"] * 4 + [HOSTILE_VENUE] * 3)
        assert HOSTILE_VENUE in screen_text(app)

    run(service, scenario)
    assert len(service.venue_game_standings(1)) == 7


def public_pem(raw_base64: str) -> bytes:
    """The PEM a venue's ``duplicada tournament key`` writes for the raw public key ``raw_base64``."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    key = Ed25519PublicKey.from_public_bytes(base64.b64decode(raw_base64))
    return key.public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)


def test_signed_venue_records_in_the_form_at_80_by_24(
        tmp_path: Path, spanish_lexicon: Lexicon, prepared: PreparedGame, records: dict[str, dict[str, Any]]) -> None:
    """Issue 35 §2: a venue with a registered key is refused a record signed by another key
    (both fingerprints in the form's message, nothing stored) and an unsigned one even with
    «Sin firma» ticked; its own signed record comes in, «Firma comprobada» with the key's
    fingerprint; a venue with no key is refused unless «Sin firma» is ticked."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from duplicate.record.signature import fingerprint

    service = organiser(tmp_path / "org.db", spanish_lexicon, prepared, None)
    folder = tmp_path / "sedes"
    lloret = written(folder, "lloret.json", records["Lloret"])
    unsigned = written(folder, "lloret-sin-firma.json",
                       {key: value for key, value in records["Lloret"].items() if key != "signature"})
    vendrell = written(folder, "vendrell.json", records[HOSTILE_VENUE])
    other = Ed25519PrivateKey.generate().public_key()
    other_raw = other.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    lloret_key = records["Lloret"]["signature"]["fingerprint"]
    events = len(service.history())

    def nothing_stored() -> None:
        assert service.venues() == [] and len(service.history()) == events

    async def scenario(pilot: Pilot, standings: StandingsScreen, setup: SetupScreen) -> None:  # type: ignore[type-arg]
        nonlocal events
        service.register_venue_key("Lloret", other.public_bytes(serialization.Encoding.PEM,
                                                                serialization.PublicFormat.SubjectPublicKeyInfo))
        events += 1
        await import_record(pilot, lloret, "Lloret")
        said = message(setup)
        assert said.startswith(f"{lloret}: no se importa la sede «Lloret»: está firmado con la clave de huella "
                               f"{lloret_key}"), said
        assert fingerprint(other_raw) in said and setup.query_one("#message").has_class("error")
        nothing_stored()
        service.register_venue_key("Lloret", public_pem(records["Lloret"]["signature"]["public_key"]))
        events += 1
        await import_record(pilot, unsigned, "Lloret", unsigned=True)       # «Sin firma» does not lift a key
        assert "el registro no está firmado, y la sede tiene registrada la clave de huella" in message(setup)
        nothing_stored()
        assert setup.query_one("#vi_unsigned", Checkbox).value      # the form kept for a correction: untick it
        setup.query_one("#vi_unsigned", Checkbox).focus()
        await pilot.press("space")
        await import_record(pilot, vendrell, HOSTILE_VENUE)                # no key, «Sin firma» not ticked
        assert "la sede no tiene clave registrada" in message(setup) and "«Sin firma»" in message(setup)
        nothing_stored()
        await import_record(pilot, lloret, "Lloret")
        assert message(setup) == (f"Sede «Lloret» importada: 4 jugadores, 1 partida. Firma comprobada: clave "
                                  f"registrada de la sede, huella {lloret_key}.")
        assert "Firma comprobada" in screen_text(pilot.app)
        assert [view.signed_by for view in service.venues()] == [lloret_key]

    run(service, scenario)
