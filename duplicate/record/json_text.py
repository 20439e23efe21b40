"""The record file's JSON text, written fast (issue 38).

``indented(value, depth)`` is ``json.dumps(value, ensure_ascii=False, indent=1)`` with every
line after the first indented by ``depth`` more spaces — the text ``duplicada export`` writes
for each value of the record (docs/tournament-record.md) — character for character, without
the standard library's pure-Python indenting encoder (``json`` encodes in C only without
``indent``). The C encoder is given, as its item separator, the line break and the
indentation of the container's depth: a JSON text never holds a raw line break, so every
break it writes is one between two items of that container, exactly as ``indent=1`` lays
them out. A container of plain values (texts, numbers, true, false, null) is encoded so in
one call; in a dict that also holds containers, each of them is first replaced by a marker
text, the dict encoded in one call, and each marker's JSON (found exactly once, or the dict
is walked item by item instead) replaced by the container's own text a level deeper. A
value the fast path does not know (a subclass of ``dict`` or ``list``, a key that is not a
text in a dict walked item by item, any other type) is handed to ``json.dumps`` itself, so
the text, or the error, is always the standard library's. (The compact forms the chain and
the signature hash are their own modules' prepared encoders: ``chain``, ``signature``.)
"""

from __future__ import annotations

import json
from collections.abc import Callable
from json.encoder import c_make_encoder, encode_basestring  # type: ignore[attr-defined]
from typing import Any

__all__ = ["indented"]

_PLAIN = frozenset({str, int, float, bool, type(None)})
"""Types the C encoder writes as the indenting one does (``encode_basestring``,
``int.__repr__``, ``float.__repr__`` or ``NaN``/``Infinity``, true, false, null)."""

_MARKER = "\ue000json_text\ue000"
"""A text put in place of a nested container before its dict is encoded (private-use
characters, written as they are with ``ensure_ascii=False``); numbered per container."""

_Encode = Callable[[Any], str]
_FLAT: dict[int, _Encode] = {}
"""One C encoder per depth: items separated by a line break and ``depth + 1`` spaces."""


def _encoder(item_separator: str) -> _Encode:
    default = json.JSONEncoder().default
    if c_make_encoder is None:       # a Python built without the _json module
        return json.JSONEncoder(ensure_ascii=False, separators=(item_separator, ": ")).encode

    # As JSONEncoder.encode with indent None (its one-shot C path), without the marks of
    # circular references: a circular value recurses until RecursionError, which ``indented``
    # hands to the standard library (ValueError «Circular reference detected»). Nothing is
    # kept between calls, so one encoder serves every call, from any thread.
    encoder = c_make_encoder(None, default, encode_basestring, None, ": ", item_separator, False, False, True)

    def encode(value: Any) -> str:
        return "".join(encoder(value, 0))

    return encode


def _flat(depth: int) -> _Encode:
    encode = _FLAT.get(depth)
    if encode is None:
        encode = _FLAT[depth] = _encoder(",\n" + " " * (depth + 1))
    return encode


def _standard(value: Any, depth: int) -> str:
    return json.dumps(value, ensure_ascii=False, indent=1).replace("\n", "\n" + " " * depth)


def _wrap(text: str, depth: int) -> str:
    """A non-empty container's one-call text (``{a,⏎  b}``) laid out as ``indent=1`` does."""
    return text[0] + "\n" + " " * (depth + 1) + text[1:-1] + "\n" + " " * depth + text[-1]


def indented(value: Any, depth: int = 0) -> str:
    """``json.dumps(value, ensure_ascii=False, indent=1)`` with each line break followed by
    ``depth`` more spaces (the value sits at that depth of an ``indent=1`` document); the same
    text, or the same exception, as the standard library (module docstring): ``TypeError``
    for a value JSON cannot write, ``ValueError`` for a circular one, ``RecursionError`` for
    one nested too deep."""
    try:
        return _indented(value, depth)
    except RecursionError:      # circular, or too deep: the standard library says which
        return _standard(value, depth)


def _indented(value: Any, depth: int) -> str:
    kind = type(value)
    if kind is dict:
        if not value:
            return "{}"
        nested = [key for key, item in value.items() if type(item) not in _PLAIN]
        if not nested:
            return _wrap(_flat(depth)(value), depth)
        return _nested_dict(value, nested, depth)
    if kind is list:
        if not value:
            return "[]"
        if all(type(item) in _PLAIN for item in value):
            return _wrap(_flat(depth)(value), depth)
        inner = depth + 1
        parts = [_flat(inner)(item) if type(item) in _PLAIN else _indented(item, inner) for item in value]
        space = " " * inner
        return "[\n" + space + (",\n" + space).join(parts) + "\n" + " " * depth + "]"
    if kind in _PLAIN:
        return _flat(depth)(value)
    return _standard(value, depth)


def _nested_dict(value: dict[Any, Any], nested: list[Any], depth: int) -> str:
    """A dict holding containers (their keys ``nested``): markers encoded in one call, then
    each replaced by its container's text (module docstring)."""
    copy = dict(value)
    markers = []
    for number, key in enumerate(nested):
        item = value[key]
        if type(item) is not dict and type(item) is not list:
            return _standard(value, depth)
        marker = f"{_MARKER}{number}{_MARKER}"
        copy[key] = marker
        markers.append((encode_basestring(marker), item))
    text = _flat(depth)(copy)
    texts = [_indented(item, depth + 1) for _marker, item in markers]
    if any(text.count(marker) != 1 for marker, _item in markers) or any(_MARKER in inner for inner in texts):
        return _walked_dict(value, depth)       # the data holds a marker's text: walked instead
    for (marker, _item), inner in zip(markers, texts, strict=True):
        text = text.replace(marker, inner)
    return _wrap(text, depth)


def _walked_dict(value: dict[Any, Any], depth: int) -> str:
    inner = depth + 1
    parts = []
    for key, item in value.items():
        if type(key) is not str:
            return _standard(value, depth)
        parts.append(encode_basestring(key) + ": " + _indented(item, inner))
    space = " " * inner
    return "{\n" + space + (",\n" + space).join(parts) + "\n" + " " * depth + "}"
