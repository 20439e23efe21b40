"""Reading a tournament record (``docs/tournament-record.md``, format
``duplicada-tournament-1``) for ``duplicada verify``: the file, its JSON and its shape.

``load_record(path)`` reads a record file and ``check_shape(record)`` checks a parsed one:
every key the checker reads is there, of its kind, so the checks that follow
(``duplicate.record.replay``, ``duplicate.record.figures_check``) never meet a missing key or a
value of another type; its ``format_version`` one this checker knows (1 to
``NEWEST_FORMAT_VERSION``) and its fields those of that version, none later, none it always
writes missing (``duplicate.record.format_fields``). A record file over ``RECORD_MAX_BYTES``
is refused before it is read; a smaller one is held once as text while it is parsed, its
repeated short texts shared (issue 36 §5). A record that cannot be checked raises
``RecordError``, its message in Spanish naming the file (when known), the place in the
record and what was expected — never a traceback.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, cast

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


def load_record(path: Path | str) -> dict[str, Any]:
    """Read a tournament record (JSON, UTF-8) and check its shape.

    Returns the parsed record. Raises ``RecordError`` — message in Spanish naming
    the file and what was expected — when the file is larger than ``RECORD_MAX_BYTES``
    (refused before it is read), cannot be read, is not JSON, has another ``format``, a
    ``format_version`` this checker does not know, fields of another version than the one it
    declares, or lacks a key the checker needs (or has it of another kind). The file is held
    once as text while it is parsed, repeated short texts shared (issue 36 §5).
    """
    path = Path(path)
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
