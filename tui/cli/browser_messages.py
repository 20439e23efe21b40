"""The messages a browser sends ``duplicada serve`` over its websocket, checked (issue 36 §2).

textual-serve's page (``static/js/textual.js``) sends JSON text messages of five shapes:
``["stdin", TEXT]`` (keys typed or pasted), ``["resize", {"width": W, "height": H}]``
(the terminal's size in cells), ``["ping", TEXT]`` (answered ``["pong", TEXT]``),
``["focus"]`` and ``["blur"]``. textual-serve itself reads them with ``message.json()``
and indexing, so anything else — not JSON, not a list, a missing field, a word where a
number goes — raised inside the server and ended on the judge's console as a traceback.
:func:`browser_message` reads one message into one of the shapes or raises
:class:`MalformedMessage`; nothing it refuses reaches the app process.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import NoReturn

TERMINAL_CELLS = range(1, 1001)
"""A terminal dimension the server passes on: 1 to 1000 cells (the same bound as the
page's ``width`` and ``height`` query)."""

PING_LENGTH = 64
"""Characters a ping may carry at most (the page sends a time in milliseconds)."""

JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
"""A JSON string (its quotes and escapes), to be set aside before the brackets are counted."""

NOT_A_BRACKET = re.compile(r"[^\[\]{}]+")
"""Everything but the brackets of arrays and objects."""

SKELETONS = frozenset({"[]", "[{}]"})
"""The brackets of every message the page sends, strings set aside: a list, holding at
most one object. Anything else is refused before it is parsed — so no nesting reaches
the JSON parser's recursion (a message of 100,000 ``[`` raised ``RecursionError`` inside
the server)."""


class MalformedMessage(ValueError):
    """A message no page of ours sends. ``str(error)``: what is wrong with it, in Spanish,
    never its content (a malformed ``stdin`` may carry a PIN)."""


@dataclass(frozen=True)
class Keys:
    """Keys typed or pasted in the page's terminal."""

    text: str


@dataclass(frozen=True)
class Resize:
    """The page's terminal now measures ``width`` × ``height`` cells."""

    width: int
    height: int


@dataclass(frozen=True)
class Ping:
    """A ping, to be answered ``["pong", data]``."""

    data: str


@dataclass(frozen=True)
class Focus:
    """The page's terminal gained (``focused``) or lost the focus."""

    focused: bool


BrowserMessage = Keys | Resize | Ping | Focus


def _refuse(reason: str) -> NoReturn:
    raise MalformedMessage(reason)


def _no_constant(name: str) -> NoReturn:
    _refuse(f"número no válido ({name})")


def _cells(value: object) -> int:
    if type(value) is not int or value not in TERMINAL_CELLS:
        _refuse(f"tamaño de terminal no válido (se esperaba un número entero de {TERMINAL_CELLS.start} "
                f"a {TERMINAL_CELLS.stop - 1})")
    return value


def browser_message(data: str | bytes) -> BrowserMessage:
    """One websocket message from a browser, read: ``data`` is a text message's ``str``
    or a binary message's ``bytes``. Raises :class:`MalformedMessage` for a binary
    message, text whose brackets (strings set aside) are not those of a list holding at
    most one object (``SKELETONS``), text that is not JSON (``NaN``, ``Infinity`` and
    numbers of more than 4,300 digits included), a list not starting with a known word,
    and fields of the wrong type or number (a terminal size outside ``TERMINAL_CELLS``, a
    ``stdin`` text that is not valid Unicode — a lone surrogate — included). Issue 36 §2."""
    if not isinstance(data, str):
        _refuse("mensaje binario")
    if NOT_A_BRACKET.sub("", JSON_STRING.sub("", data)) not in SKELETONS:
        _refuse("no es una lista con la forma de un mensaje de la página")
    try:
        envelope = json.loads(data, parse_constant=_no_constant)
    except MalformedMessage:
        raise
    except ValueError:
        _refuse("no es JSON válido")
    if not isinstance(envelope, list) or not envelope or not isinstance(envelope[0], str):
        _refuse("no es una lista que empiece por el tipo de mensaje")
    kind, fields = envelope[0], envelope[1:]
    if kind in ("focus", "blur"):
        if fields:
            _refuse("campos de más")
        return Focus(kind == "focus")
    if kind not in ("stdin", "resize", "ping"):
        _refuse("tipo de mensaje desconocido")
    if len(fields) != 1:
        _refuse("falta el contenido o sobra algo")
    value = fields[0]
    if kind == "resize":
        if not isinstance(value, dict) or set(value) != {"width", "height"}:
            _refuse("se esperaba un tamaño con «width» y «height»")
        return Resize(_cells(value["width"]), _cells(value["height"]))
    if not isinstance(value, str):
        _refuse("se esperaba un texto")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        _refuse("texto que no es Unicode válido")
    if kind == "ping":
        if len(value) > PING_LENGTH:
            _refuse("ping demasiado largo")
        return Ping(value)
    return Keys(value)
