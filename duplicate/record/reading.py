"""Reading a tournament record (``docs/tournament-record.md``, format
``duplicada-tournament-1``) for ``duplicada verify``: the file, its JSON and its shape.

``load_record(path)`` reads a record file and ``check_shape(record)`` checks a parsed one:
every key the checker reads is there, of its kind, so the checks that follow
(``duplicate.record.replay``, ``duplicate.record.figures_check``) never meet a missing key or a
value of another type; its ``format_version`` one this checker knows (1 to
``NEWEST_FORMAT_VERSION``) and its fields those of that version, none later, none it always
writes missing (``duplicate.record.format_fields``). A record file over ``RECORD_MAX_BYTES``
is refused before it is read; a smaller one is held once as text while it is parsed — or,
when that text takes two or four bytes a character, parsed as it is read, a value at a time
(issue 38; a file that is not a well-formed record is parsed whole instead, for the message
it always gave) — its repeated short texts shared (issue 36 §5). A record that cannot be checked raises ``RecordError``, its message in Spanish naming
the file (when known), the place in the record and what was expected — never a traceback.
"""

from __future__ import annotations

import json
import re
import stat
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TextIO, cast

from duplicate.input_files import InputFileError, read_bytes, utf8_error
from duplicate.record.difference import show_value
from duplicate.record.format_fields import version_problems

__all__ = ["ARBITER_STATUSES", "BONUS_MODES", "CRITERIA", "NEWEST_FORMAT_VERSION", "RECORD_FORMAT", "SLIP_STATUSES",
           "RecordError",
           "check_shape", "load_record"]

RECORD_FORMAT = "duplicada-tournament-1"
"""``format`` field of a tournament record."""

NEWEST_FORMAT_VERSION = 14
"""The newest ``format_version`` this checker reads (the exporter's ``RECORD_VERSION``,
``duplicate.service.record``): a newer record may hold what this version cannot check —
a signature of another form, new kinds of events — and is refused, never half-checked."""

ARBITER_STATUSES = frozenset({"late", "null", "missing"})
"""Slip statuses set by the arbiter, not derivable from the text (III.13, III.20.4); 0 points."""

SLIP_STATUSES = frozenset({
    "valid", "syntax", "off_board", "misplaced", "not_connected", "not_in_rack", "unmarked_blank",
    "invalid_word", "late", "null", "missing", "annulled",
})
"""Every slip status code of the format."""

BONUS_MODES = frozenset({"automatic", "manual", "off"})
"""The values of ``tournament.settings.bonus_mode`` (III.24)."""
CRITERIA = frozenset({"total", "average_place", "average_percentage", "deviation"})
"""The values of ``tournament.settings.criterion`` (IV.31)."""


class RecordError(ValueError):
    """A record that cannot be checked: unreadable file or JSON, wrong ``format``,
    a missing key or a value of the wrong type. The message (Spanish) names the
    file (when known), the place in the record and what was expected."""


_KINDS: dict[str, tuple[str, Callable[[object], bool]]] = {
    "int": ("un número entero", lambda value: isinstance(value, int) and not isinstance(value, bool)),
    "number": ("un número", lambda value: isinstance(value, (int, float)) and not isinstance(value, bool)),
    "str": ("un texto", lambda value: isinstance(value, str)),
    "str?": ("un texto o null", lambda value: value is None or isinstance(value, str)),
    "bool": ("true o false", lambda value: isinstance(value, bool)),
    "list": ("una lista", lambda value: isinstance(value, list)),
    "dict": ("un objeto", lambda value: isinstance(value, dict)),
}
_TOP = {"format": "str", "tournament": "dict", "players": "list", "games": "list", "standings": "list"}
_TOURNAMENT = {"lexicon_hash": "str", "settings": "dict"}
_SETTINGS = {"bonus_mode": "str", "bonus_value": "int", "criterion": "str", "tie_breaks": "bool",
             "oriented_notation": "bool"}
_PLAYER = {"id": "int"}
_GAME = {"number": "int", "tables": "dict", "rounds": "list", "standings": "list"}
_ROUND = {"number": "int", "rack": "str", "board_before": "str", "top_score": "int", "top_moves": "list",
          "master": "str", "master_score": "int", "cumulative": "int", "annulled": "bool", "slips": "list",
          "bonuses": "dict"}
_SLIP = {"player": "int", "table": "int", "text": "str?", "status": "str", "score": "int", "move": "str?"}
_GAME_STANDING = {"player": "int", "position": "int", "total": "int", "bonus": "int", "percentage": "number"}
_STANDING = {"player": "int", "position": "int", "value": "number", "total": "int"}


def _require(value: object, spec: Mapping[str, str], place: str) -> None:
    """Raise ``RecordError`` unless ``value`` is an object with the keys of ``spec``, of their kinds."""
    if not isinstance(value, dict):
        raise RecordError(f"en {place} se esperaba un objeto, no {show_value(value)[:60]}")
    for key, kind in spec.items():
        if key not in value:
            raise RecordError(f"en {place} falta la clave «{key}» ({_KINDS[kind][0]})")
        name, accepts = _KINDS[kind]
        if not accepts(value[key]):
            raise RecordError(f"en {place}, «{key}» debe ser {name}, no {show_value(value[key])[:60]}")


def _require_map(value: Mapping[str, object], place: str, what: str) -> None:
    """Keys that are player ids written as text, values integers."""
    for key, item in value.items():
        digits = key.lstrip("-")
        if not (digits.isascii() and digits.isdigit() and len(digits) <= 18) or not _KINDS["int"][1](item):
            raise RecordError(f"en {place} se esperaba {what}, no «{key}»: {show_value(item)[:40]}")


def check_shape(record: object) -> None:
    """Raise ``RecordError`` if ``record`` is not a ``duplicada-tournament-1`` record
    with every key the checker reads (see ``docs/tournament-record.md``)."""
    _require(record, _TOP, "el registro")
    assert isinstance(record, dict)
    if record["format"] != RECORD_FORMAT:
        raise RecordError(f"formato {record['format']!r} desconocido: se esperaba «{RECORD_FORMAT}»")
    version = _declared_version(record)
    _require(record["tournament"], _TOURNAMENT, "tournament")
    settings = record["tournament"]["settings"]
    _require(settings, _SETTINGS, "tournament.settings")
    if not isinstance(settings.get("board_notation", False), bool):    # optional: format version 10
        raise RecordError(f"en tournament.settings, «board_notation» debe ser true o false, "
                          f"no {show_value(settings['board_notation'])[:60]}")
    for key, allowed in (("bonus_mode", BONUS_MODES), ("criterion", CRITERIA)):
        if settings[key] not in allowed:
            raise RecordError(f"tournament.settings.{key} = {settings[key]!r}: se esperaba uno de {sorted(allowed)}")
    for index, player in enumerate(record["players"]):
        _require(player, _PLAYER, f"players[{index}]")
    for index, standing in enumerate(record["standings"]):
        _require(standing, _STANDING, f"standings[{index}]")
    for g, game in enumerate(record["games"]):
        _require(game, _GAME, f"games[{g}]")
        _require_map(game["tables"], f"games[{g}].tables", "id de jugador → número de mesa")
        for index, standing in enumerate(game["standings"]):
            _require(standing, _GAME_STANDING, f"games[{g}].standings[{index}]")
        for r, round_ in enumerate(game["rounds"]):
            place = f"games[{g}].rounds[{r}]"
            _require(round_, _ROUND, place)
            _require_map(round_["bonuses"], f"{place}.bonuses", "id de jugador → puntos")
            if not all(isinstance(move, str) for move in round_["top_moves"]):
                raise RecordError(f"en {place}.top_moves se esperaba una lista de textos")
            for s, slip in enumerate(round_["slips"]):
                _require(slip, _SLIP, f"{place}.slips[{s}]")
                if "board" in slip and not isinstance(slip["board"], str):
                    raise RecordError(f"en {place}.slips[{s}], «board» debe ser un texto (la papeleta en tablero "
                                      f"tal como se anotó, II.8), no {show_value(slip['board'])[:60]}")
    _check_fields_of(record, version)


_KNOWN_VERSIONS = f"esta versión de duplicada conoce las versiones 1 a {NEWEST_FORMAT_VERSION}"


def _declared_version(record: dict[str, Any]) -> int:
    """The record's ``format_version`` (absent: 1, the first records); ``RecordError`` naming
    the value found and the versions known for any other than an integer 1…newest (issue 36 §5)."""
    version = record.get("format_version", 1)
    if not isinstance(version, int) or isinstance(version, bool):
        raise RecordError(f"«format_version» {show_value(version)[:60]} no es una versión del formato "
                          f"«{RECORD_FORMAT}»: se esperaba un número entero; {_KNOWN_VERSIONS}")
    if version < 1:
        raise RecordError(f"«format_version» {version} no es una versión del formato «{RECORD_FORMAT}»: "
                          f"{_KNOWN_VERSIONS}")
    if version > NEWEST_FORMAT_VERSION:
        raise RecordError(f"el registro es del formato {version}, posterior a esta versión de duplicada, que "
                          f"conoce las versiones 1 a {NEWEST_FORMAT_VERSION}: actualice duplicada para comprobarlo")
    return version


def _check_fields_of(record: dict[str, Any], version: int) -> None:
    """``RecordError`` unless the record carries the fields of the version it declares
    (``duplicate.record.format_fields``): none introduced later, none its version always writes
    missing (issue 36 §5)."""
    newer, missing = version_problems(record, version)
    for problems, what in ((newer, "trae campos de formatos posteriores"),
                           (missing, "le faltan campos que ese formato siempre lleva")):
        if problems:
            shown = "; ".join(problems[:6]) + (f"; y {len(problems) - 6} más" if len(problems) > 6 else "")
            raise RecordError(f"el registro se declara del formato {version} (format_version) y {what}: {shown}; "
                              "un registro lleva los campos de su versión (docs/tournament-record.md)")


RECORD_MAX_BYTES = 512 * 2**20
"""The largest record file read, in bytes (512 MiB; issue 36 §5). A very large real
tournament — 500 players × 20 games × 22 rounds, double entry: a ``slip_entered`` and a
``slip_checked`` event a slip — writes a record of about 240 MiB (``bench/record_memory.py``);
loading it takes a peak of 788 MiB, 3.2 times its size (the text once, and the parsed record),
so the limit bounds a load to about 1.7 GiB. A larger file is refused before it is read."""

_SHARED_LENGTH = 24
"""Texts up to this length are shared when a record is parsed (``_shared_texts``): kinds,
stations, statuses, moves repeat in every event and slip; times and hashes, longer, do not."""


def _mib(size: int) -> str:
    return f"{size / 2**20:.1f} MiB"


def _shared_pairs() -> Callable[[list[tuple[str, Any]]], dict[str, Any]]:
    """An ``object_pairs_hook`` for a record parsed piece by piece (``_streamed``): as
    ``_shared_texts``, and each key shared too (``json`` shares the keys within one call
    only: one a top-level item here)."""
    seen: dict[str, str] = {}
    shared = seen.setdefault

    def share(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        parsed: dict[str, Any] = {}
        for key, value in pairs:
            if value.__class__ is str and len(value) <= _SHARED_LENGTH:
                value = shared(value, value)
            parsed[shared(key, key)] = value
        return parsed

    return share


def _shared_texts() -> Callable[[dict[str, Any]], dict[str, Any]]:
    """An ``object_hook`` for ``json.loads`` that makes each repeated short text of the record
    one object (``json`` shares the keys, not the values): the parsed record of a very large
    tournament takes a fifth less memory (issue 36 §5)."""
    seen: dict[str, str] = {}

    def share(parsed: dict[str, Any]) -> dict[str, Any]:
        for key, value in parsed.items():
            if value.__class__ is str and len(value) <= _SHARED_LENGTH:
                parsed[key] = seen.setdefault(value, value)         # same keys: the dict keeps its size
        return parsed

    return share


class _LongNumber(ValueError):
    def __init__(self, digits: int) -> None:
        super().__init__(digits)
        self.digits = digits


def _json_integer(text: str) -> int:
    """A JSON integer, refused beyond 30 digits (Python would refuse 4,300 with a ValueError)."""
    if len(text) > 30:
        raise _LongNumber(len(text.lstrip("-")))
    return int(text)


def _record_text(path: Path) -> str:
    """The text of the record file ``path``: refused unread over ``RECORD_MAX_BYTES`` (naming
    the file, its size and the limit), read once, decoded once, the bytes dropped before
    the text is parsed (issue 36 §5). ``RecordError`` for a file that cannot be read or is
    not UTF-8 (the line and column where it stops being)."""
    what = "un registro de torneo (JSON)"
    try:
        size = path.stat().st_size if path.is_file() else 0
    except OSError:
        size = 0                                     # said by read_bytes, which names the problem
    if size > RECORD_MAX_BYTES:
        raise RecordError(f"{path}: {size} bytes ({_mib(size)}), más que el máximo de {what}, {RECORD_MAX_BYTES} "
                          f"bytes ({_mib(RECORD_MAX_BYTES)}); no se lee: ¿es el registro que escribe "
                          "«duplicada export»?")
    try:
        data = read_bytes(path, what=what, limit=RECORD_MAX_BYTES)
    except InputFileError as error:
        raise RecordError(str(error)) from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise RecordError(str(utf8_error(data, path))) from None


_WHITESPACE = re.compile(r"[ \t\n\r]*")
"""JSON's whitespace (``json.decoder.WHITESPACE``)."""

_CHUNK = 2**16
"""Characters read at a time by ``_streamed`` (more while one value does not fit)."""


class _NotStreamed(Exception):
    """The record is not laid out as ``_streamed`` reads it: parsed whole instead."""


class _Pieces:
    """A record file read a chunk at a time: JSON values parsed one by one from a window of
    its text (``_streamed``)."""

    def __init__(self, handle: TextIO, limit: int) -> None:
        self.handle, self.limit = handle, limit
        self.pairs_hook = _shared_pairs()
        self.decode = json.JSONDecoder(parse_int=_json_integer, object_pairs_hook=self.pairs_hook).raw_decode
        self.text, self.position, self.read, self.ended = "", 0, 0, False

    def more(self) -> bool:
        """Read the next chunk (at least as long as the window, so that a value read again
        and again as it grows costs at most twice its length); False at the end."""
        if self.ended:
            return False
        chunk = self.handle.read(max(_CHUNK, len(self.text) - self.position))
        self.read += len(chunk)
        if self.read > self.limit:
            raise _NotStreamed
        if not chunk:
            self.ended = True
            return False
        self.text = self.text[self.position:] + chunk
        self.position = 0
        return True

    def next_character(self) -> str:
        """The next character after whitespace ("" at the end), not consumed."""
        while True:
            found = _WHITESPACE.match(self.text, self.position)
            self.position = found.end() if found else self.position
            if self.position < len(self.text):
                return self.text[self.position]
            if not self.more():
                return ""

    def take(self, *characters: str) -> str:
        """Consume the next character, one of ``characters`` (else ``_NotStreamed``)."""
        character = self.next_character()
        if character not in characters or not character:
            raise _NotStreamed
        self.position += 1
        return character

    def value(self) -> Any:
        """The next JSON value, whole (a value at the window's end may go on: read again)."""
        self.next_character()
        while True:
            try:
                value, end = self.decode(self.text, self.position)
            except json.JSONDecodeError:
                if self.more():
                    continue
                raise
            if end >= len(self.text) and self.more():
                continue
            self.position = end
            return value


_PIECEWISE = frozenset({(), ("games", "*"), ("games", "*", "rounds")})
"""Where ``_streamed`` parses a container member by member besides the record itself and
its top-level lists: each game, and its rounds (one round, its slips included, is at most
some 100 kB; a game of 300 players, some 4 MB)."""


def _piecewise(pieces: _Pieces, path: tuple[str, ...]) -> Any:
    """The value at ``path`` of the record, member by member when it is a container at a
    ``_PIECEWISE`` path or a top-level list, else whole; a dict built by the decoder's own
    ``object_pairs_hook`` (the same dict as ``json`` builds)."""
    opening = pieces.next_character()
    if not (opening in ("{", "[") and (path in _PIECEWISE or (len(path) == 1 and opening == "["))):
        return pieces.value()
    pieces.position += 1
    closing = "}" if opening == "{" else "]"
    members: list[Any] = []
    if pieces.next_character() == closing:
        pieces.position += 1
    else:
        while True:
            if opening == "{":
                if pieces.next_character() != '"':
                    raise _NotStreamed
                key = pieces.value()
                pieces.take(":")
                members.append((key, _piecewise(pieces, (*path, key))))
            else:
                members.append(_piecewise(pieces, (*path, "*")))
            if pieces.take(",", closing) == closing:
                break
    return pieces.pairs_hook(members) if opening == "{" else members


def _streamed(path: Path) -> dict[str, Any] | None:
    """The record at ``path`` parsed as it is read, piece by piece (``_piecewise``), so that
    its text is never held whole (issue 38: a 300-player × 10-game record is 48 MB of text,
    a third of the peak memory of ``verify``); the same record as ``json.loads`` of the
    whole text with ``_json_integer`` and shared texts. None for any file that is not a
    readable, UTF-8, well-formed JSON object of at most ``RECORD_MAX_BYTES`` (a folder, a
    FIFO, bad bytes, bad JSON, too long a number or too deep a nesting…): the caller parses
    it whole, for the very result or message it gave."""
    try:
        if not stat.S_ISREG(path.stat().st_mode):
            return None
        with path.open(encoding="utf-8-sig", newline="") as handle:
            pieces = _Pieces(handle, RECORD_MAX_BYTES)
            if pieces.next_character() != "{":
                return None
            record = _piecewise(pieces, ())
            if pieces.next_character() != "":
                return None              # data after the object
            return cast("dict[str, Any]", record)
    except Exception:       # noqa: BLE001 — whatever it is, the whole-text parse says it as before
        return None


def load_record(path: Path | str) -> dict[str, Any]:
    """Read a tournament record (JSON, UTF-8) and check its shape.

    Returns the parsed record. Raises ``RecordError`` — message in Spanish naming
    the file and what was expected — when the file is larger than ``RECORD_MAX_BYTES``
    (refused before it is read), cannot be read, is not JSON, has another ``format``, a
    ``format_version`` this checker does not know, fields of another version than the one it
    declares, or lacks a key the checker needs (or has it of another kind). The file is held
    once as text while it is parsed — unless that text takes two or four bytes a character
    (it holds one beyond Latin-1, a «—» or a «…» in a reason): then it is parsed as it is
    read instead (``_streamed``, issue 38), or, when it is not a well-formed JSON object, read
    again and parsed whole for the message; repeated short texts shared (issue 36 §5).
    """
    path = Path(path)
    text = _record_text(path)
    if sys.getsizeof(text) > 1.5 * len(text) + 1024:        # a wide text: not kept while parsing
        text = ""
        streamed = _streamed(path)
        if streamed is not None:
            try:
                check_shape(streamed)
            except RecordError as error:
                raise RecordError(f"{path}: {error}") from None
            return streamed
        text = _record_text(path)
    try:
        record = json.loads(text, parse_int=_json_integer, object_hook=_shared_texts())
    except _LongNumber as error:
        raise RecordError(f"{path}: un número de {error.digits} cifras; un registro no lleva números tan largos") from None
    except RecursionError:
        raise RecordError(f"{path}: el JSON anida demasiados niveles; "
                          f"se esperaba un registro «{RECORD_FORMAT}»") from None
    except json.JSONDecodeError as error:
        raise RecordError(
            f"{path}: no es JSON válido (línea {error.lineno}, columna {error.colno}: {error.msg}); "
            f"se esperaba un registro «{RECORD_FORMAT}»"
        ) from None
    try:
        check_shape(record)
    except RecordError as error:
        raise RecordError(f"{path}: {error}") from None
    return cast("dict[str, Any]", record)
