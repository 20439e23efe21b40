"""``duplicate.record.json_text.indented`` writes what ``json.dumps(…, ensure_ascii=False,
indent=1)`` writes (the record file, byte for byte; issue 38), for any JSON value and for the
values it hands back to the standard library."""

from __future__ import annotations

import json
import math
from collections import OrderedDict
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from duplicate.record.json_text import _MARKER, indented


def standard(value: Any, depth: int = 0) -> str:
    return json.dumps(value, ensure_ascii=False, indent=1).replace("\n", "\n" + " " * depth)


_texts = st.one_of(st.text(max_size=12), st.sampled_from(["", "\n", '"', "\\", "ñ€😀", "\ud800", _MARKER,
                                                          f"{_MARKER}0{_MARKER}", "\x00", "\u2028"]))
_plain = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True, allow_infinity=True), _texts)
_values = st.recursive(_plain, lambda inner: st.one_of(
    st.lists(inner, max_size=5),
    st.dictionaries(st.one_of(_texts, st.integers(), st.booleans(), st.none(), st.floats(allow_nan=False)),
                    inner, max_size=5)), max_leaves=30)


@settings(max_examples=400, deadline=None)
@given(_values, st.integers(min_value=0, max_value=3))
def test_same_text_as_json_dumps(value: Any, depth: int) -> None:
    assert indented(value, depth) == standard(value, depth)


def test_the_shapes_of_a_record() -> None:
    event = {"id": 307, "kind": "slip_entered", "game": 1, "round": None, "reason": "", "created_at": "2026-12-03",
             "payload": {"table": 1, "text": "8H-EmPEÑE", "score": 44.5, "tops": [], "redraws": [{"rack": "A?"}]},
             "previous_hash": "b5fe"}
    game = {"number": 1, "tables": {"7": 1}, "rounds": [{"slips": [event["payload"]], "bonuses": {}}], "x": [[]]}
    for value in (event, game, [event, game], {}, [], [1, [2, {}], {"a": []}], math.inf, -0.0, "texto"):
        for depth in (0, 1, 2):
            assert indented(value, depth) == standard(value, depth)


def test_the_data_holding_a_marker_is_still_written_right() -> None:
    # A text equal to the marker put in place of a nested container: the dict is walked instead.
    marker = f"{_MARKER}0{_MARKER}"
    for value in ({"a": marker, "b": [1, 2]}, {"b": [marker], "c": {"d": 1}}, {"a": {"x": marker}, "b": [1]},
                  {"a": [1], marker: {"z": marker}}):
        assert indented(value, 2) == standard(value, 2)


def test_what_the_fast_path_does_not_know_goes_to_the_standard_library() -> None:
    ordered = OrderedDict([("b", 1), ("a", [2])])
    assert indented({"o": ordered, "t": (1, 2), 3: [4]}, 1) == standard({"o": ordered, "t": (1, 2), 3: [4]}, 1)
    with pytest.raises(TypeError, match="not JSON serializable"):
        indented({"a": [object()]})
    with pytest.raises(TypeError, match="not JSON serializable"):
        indented({"a": {1, 2}})
    circular: list[Any] = []
    circular.append(circular)
    with pytest.raises(ValueError, match="Circular reference"):
        indented({"a": 1, "b": circular})
    assert indented({"a": [1], "b": {"c": 2}}, 1) == standard({"a": [1], "b": {"c": 2}}, 1)   # after the errors
