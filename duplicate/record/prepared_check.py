"""A tournament record's prepared games checked (issue 27 §1; III.15, «duplicada maestra»),
for ``duplicada verify``.

A game that plays a prepared game carries ``prepared`` (``{"digest", "left_at"}``, record
format version 8) and its log a ``prepared_game_loaded`` event holding the whole prepared
game file (and ``prepared_game_left`` when the judge left it by replacing a rack, III.29).
``prepared_differences`` reports, per game:

* ``prepared`` not what the log says (the digest loaded, the round left at), or a
  ``prepared`` with no such event;
* a prepared game in the log that does not read, or that its own digest does not seal;
* a round played before the game left the prepared game whose rack, master or master
  score is not the prepared one (``duplicate.prepared.check.played_differences``).

Whether the prepared game itself is sound (its racks from the bag, its masters tops) is
``duplicada prepared check``'s; the rounds played are checked by the rules anyway.
A record before version 8 has no ``prepared``: nothing is reported for it.
"""

from __future__ import annotations

from typing import Any

from duplicate.prepared.check import played_differences
from duplicate.prepared.file import PreparedFileError, PreparedGame, content_digest
from duplicate.record.difference import Difference

__all__ = ["PREPARED_VERSION", "prepared_differences"]

PREPARED_VERSION = 9
"""The record format version that adds each game's ``prepared``."""


def prepared_differences(record: dict[str, Any]) -> list[Difference]:
    """Every game of ``record`` whose ``prepared`` or rounds disagree with the prepared
    game its log loaded; empty when they agree (or the record predates them)."""
    version = record.get("format_version")
    events = record.get("events")
    if not isinstance(version, int) or version < PREPARED_VERSION or not isinstance(events, list):
        return []
    differences: list[Difference] = []
    for game in record["games"]:
        number = game.get("number")
        where = f"partida {number}"
        own = [event for event in events if isinstance(event, dict) and event.get("game") == number]
        loaded = next((event for event in own if event.get("kind") == "prepared_game_loaded"), None)
        left = next((event for event in own if event.get("kind") == "prepared_game_left"), None)
        stored = game.get("prepared")
        if loaded is None:
            if stored is not None:
                differences.append(Difference(where, "prepared", stored, None,
                                              "la partida dice jugar una partida preparada que su historial no carga"))
            continue
        found = loaded.get("payload")
        payload: dict[str, Any] = found if isinstance(found, dict) else {}
        expected = {"digest": payload.get("digest"), "left_at": left.get("round") if left is not None else None}
        if stored != expected:
            differences.append(Difference(where, "prepared", stored, expected,
                                          "no es la partida preparada que carga el historial (III.15)"))
        document = payload.get("prepared")
        try:
            prepared = PreparedGame.from_dict(document)
        except PreparedFileError as error:
            differences.append(Difference(where, "prepared", None, None,
                                          f"la partida preparada del historial no se lee: {error}"))
            continue
        assert isinstance(document, dict)
        body = {key: value for key, value in document.items() if key != "digest"}
        if content_digest(body) != prepared.digest or prepared.digest != payload.get("digest"):
            differences.append(Difference(where, "prepared", payload.get("digest"), content_digest(body),
                                          "la partida preparada del historial no corresponde a su resumen SHA-256"))
            continue
        played = {**game, "prepared": expected}
        for text in played_differences(prepared, played):
            differences.append(Difference(where, "rounds", None, None,
                                          f"no sigue la partida preparada: {text} (III.15)"))
    return differences
