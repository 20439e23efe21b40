"""A record of this version written back as an exporter of an earlier format wrote it, for
the tests that check that earlier records still verify (issue 36 §5: a record carries the
fields of the version it declares, ``duplicate.record.format_fields``)."""

from __future__ import annotations

import copy
from typing import Any

from duplicate.record.chain import GENESIS, event_hash
from duplicate.record.format_fields import EVENT_KIND, FIELDS, record_places
from duplicate.record.log_check import CHAIN_VERSION


def as_format(record: dict[str, Any], version: int) -> dict[str, Any]:
    """A copy of ``record`` (a ``duplicada export`` record) without what formats after
    ``version`` added: their fields, their kinds of events and the signature; its events
    chained again (``version`` ≥ 7) or unchained, and ``format_version`` set (left out for 1)."""
    older = copy.deepcopy(record)
    newer = {(field.place, field.key) for field in FIELDS if field.version > version}
    gone = [(value, key) for place, value, _ in record_places(older) for key in list(value)
            if (place, key) in newer]
    for value, key in gone:
        del value[key]
    older["events"] = [event for event in older["events"] if (EVENT_KIND, event["kind"]) not in newer]
    if version >= CHAIN_VERSION:
        previous = GENESIS
        for event in older["events"]:
            event["previous_hash"] = previous
            previous = event_hash(previous, event)
        older["events_head"] = previous
    if version > 1:
        older["format_version"] = version
    return older
