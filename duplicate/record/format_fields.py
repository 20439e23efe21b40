"""The format version that introduced each field of a tournament record (issue 36 §5).

``docs/tournament-record.md`` («Format ``duplicada-tournament-1``») says what each
``format_version`` added; ``FIELDS`` is that list, one ``Field`` a line, and
``version_problems(record, version)`` checks a parsed record against it, both ways:

* **newer**: a field, or an event kind, introduced after the version the record declares
  (a record marked 6 carrying ``venues``, of version 12) — no exporter of that version
  wrote it, so the record is not what it says it is;
* **missing**: a field that every export of the declared version writes (``always``: the
  chain's ``events_head`` and ``previous_hash`` from 7, each round's ``set_aside`` from 8,
  each game's ``prepared`` from 9, the tournament's ``venues`` and each player's ``venue``
  from 12, each event's ``role`` from 2) absent.

Optional fields (a slip's ``board``, the ``signature``, ``replaces`` of a replaced rack…)
are checked only the first way. What is not in the table is not checked here: the
settings kept as the tournament stored them (only ``board_notation`` and
``corrections_after_final`` are versioned), the nested parts of the EloDI and classic
events' payloads of version 13, the kinds of events older than version 2.
``duplicate.record.reading.check_shape`` refuses a record with any problem
(``RecordError``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

__all__ = ["EVENT_KIND", "FIELDS", "Field", "record_places", "version_problems"]

EVENT_KIND = "event kind"
"""The ``place`` of a ``Field`` that is an event kind (its ``key`` the kind)."""


@dataclass(frozen=True)
class Field:
    """A field of the record format: the key ``key`` of the objects at ``place`` — ``record``
    (the top), ``tournament``, ``settings``, ``player``, ``game``, ``round``, ``slip``,
    ``event``, ``payload:KIND`` (the payload of the events of that kind), or ``EVENT_KIND``
    (then ``key`` is a kind of event) —, introduced by format ``version``; ``always``: every
    export of that version and later writes it."""

    place: str
    key: str
    version: int
    always: bool = False


def _payload(kinds: tuple[str, ...], keys: tuple[str, ...], version: int) -> list[Field]:
    return [Field(f"payload:{kind}", key, version) for kind in kinds for key in keys]


FIELDS: tuple[Field, ...] = (
    # 2: format_version itself and each event's role (issue 12)
    Field("record", "format_version", 2, always=True), Field("event", "role", 2, always=True),
    # 3: equal_tops in master_chosen
    *_payload(("master_chosen",), ("equal_tops",), 3),
    # 4: the rack replaced (III.29)
    *_payload(("rack_drawn", "rack_set"), ("replaces",), 4),
    # 5, 6: master_undone; the EloDI events (issue 24)
    Field(EVENT_KIND, "master_undone", 5),
    Field(EVENT_KIND, "ratings_updated", 6), Field(EVENT_KIND, "ratings_recomputed", 6),
    # 7: the chain (issue 26 §2)
    Field("event", "previous_hash", 7, always=True), Field("record", "events_head", 7, always=True),
    # 8: slips set aside (issue 25)
    Field(EVENT_KIND, "slips_set_aside", 8), Field("round", "set_aside", 8, always=True),
    # 9: prepared games (issue 27)
    Field("game", "prepared", 9, always=True),
    Field(EVENT_KIND, "prepared_game_loaded", 9), Field(EVENT_KIND, "prepared_game_left", 9),
    # 10: board notation (II.8, issue 25 §4)
    Field("settings", "board_notation", 10), Field("slip", "board", 10),
    *_payload(("slip_entered",), ("board",), 10),
    # 11: offline venues imported (issue 27 §2)
    Field(EVENT_KIND, "venue_imported", 11),
    # 12: online venues (issue 27 §2)
    Field("tournament", "venues", 12, always=True), Field("player", "venue", 12, always=True),
    Field(EVENT_KIND, "venue_added", 12), *_payload(("player_added", "pin_changed"), ("venue",), 12),
    # 13: the events carry what the tables hold (issue 34); the setting of IV.32 (issue 35)
    *_payload(("tournament_created",), ("venue", "start_date", "end_date", "lexicon_path"), 13),
    *_payload(("rack_drawn", "rack_set"), ("leftover", "top_score", "tops", "moves"), 13),
    *_payload(("master_chosen",), ("master_reason",), 13),
    *_payload(("slip_entered", "slip_corrected"), ("hint",), 13),
    Field("settings", "corrections_after_final", 13),
    # 14: the signature (issue 35 §2)
    Field("record", "signature", 14),
    Field(EVENT_KIND, "signing_key_made", 14), Field(EVENT_KIND, "venue_key_registered", 14),
    *_payload(("venue_imported",), ("signed_by", "unsigned"), 14),
)
"""Every field introduced after the first version, with its version (docs/tournament-record.md)."""

_BY_PLACE: dict[str, dict[str, Field]] = {}
for _field in FIELDS:
    _BY_PLACE.setdefault(_field.place, {})[_field.key] = _field


def record_places(record: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any], str]]:
    """Each object of ``record`` (shape checked) that ``FIELDS`` speaks of: ``(place, the
    object, where it is)`` — ``where`` as ``check_shape`` names places (``games[0].rounds[2]``)."""
    yield "record", record, "el registro"
    tournament = record["tournament"]
    yield "tournament", tournament, "tournament"
    yield "settings", tournament["settings"], "tournament.settings"
    for index, player in enumerate(record["players"]):
        yield "player", player, f"players[{index}]"
    for g, game in enumerate(record["games"]):
        yield "game", game, f"games[{g}]"
        for r, round_ in enumerate(game["rounds"]):
            yield "round", round_, f"games[{g}].rounds[{r}]"
            for s, slip in enumerate(round_["slips"]):
                yield "slip", slip, f"games[{g}].rounds[{r}].slips[{s}]"
    events = record.get("events")
    for index, event in enumerate(events if isinstance(events, list) else []):
        if not isinstance(event, dict):
            continue
        yield "event", event, f"events[{index}]"
        if isinstance(event.get("payload"), dict) and isinstance(event.get("kind"), str):
            yield f"payload:{event['kind']}", event["payload"], f"events[{index}].payload"


def version_problems(record: dict[str, Any], version: int) -> tuple[list[str], list[str]]:
    """The fields of ``record`` (shape checked) that do not belong to format ``version``:
    ``(newer, missing)``, each a list of Spanish descriptions, the first place of each field
    only — ``newer`` «events_head» (formato 7) en el registro», ordered by version;
    ``missing`` the fields every export of ``version`` writes that are absent. Empty lists
    when the record carries the fields of its version."""
    newer: dict[Field, str] = {}
    missing: dict[Field, str] = {}
    kinds = _BY_PLACE.get(EVENT_KIND, {})
    for place, value, where in record_places(record):
        known = _BY_PLACE.get(place)
        if place == "event":
            named = value.get("kind")
            kind = kinds.get(named) if isinstance(named, str) else None
            if kind is not None and kind.version > version and kind not in newer:
                newer[kind] = f"eventos «{kind.key}» (formato {kind.version}) en {where}"
        if known is None:
            continue
        for key in value.keys() & known.keys():
            field = known[key]
            if field.version > version and field not in newer:
                newer[field] = f"«{key}» (formato {field.version}) en {where}"
        for field in known.values():
            if field.always and field.version <= version and field.key not in value and field not in missing:
                missing[field] = f"«{field.key}» (formato {field.version}) en {where}"
    return ([text for field, text in sorted(newer.items(), key=lambda item: item[0].version)],
            [text for field, text in sorted(missing.items(), key=lambda item: item[0].version)])
