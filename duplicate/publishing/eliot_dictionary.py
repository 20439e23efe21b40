"""The header of an Eliot dictionary (``.dawg``), read to fill the ``Dictionary`` block of
an Eliot saved game (issue 35 §3): Eliot refuses a saved game whose ``Letters`` (its
dictionary's letters, **in the dictionary's own order**, as display strings) or ``WordNb``
differ from the dictionary the user has loaded, so they are taken from that file, never
from our alphabet.

The layout is the one Eliot 2.x writes (``../shared/docs/eliot-xml.md``; described here
in our words, nothing of Eliot's code is here). Integers are big-endian; the header has
three parts, 474 bytes in all for format version 2 (360 for version 1):

======  =====  ==================================================================
offset  bytes  field
======  =====  ==================================================================
0       22     ``_COMPILED_DICTIONARY_`` and a NUL byte
22      1      format version (1 or 2; 0 is the pre-1.8 format, refused)
28      4      number of words
92      1      algorithm: 1 dawg, 2 gaddag
94      30     dictionary name (UTF-8), its length in bytes at 124 (4 bytes)
128     80     the letters, one character each (UTF-8), in the dictionary's order;
               their length in bytes at 208 and their number at 212 (4 bytes each)
360     112    version 2 only: display and input strings, ``X|DISP|IN1 Y|DISP``
               (UTF-8; a letter whose display string is not itself, e.g. ``CH``),
               its length in bytes at 472 (2 bytes)
======  =====  ==================================================================
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path

__all__ = ["ELIOT_HEADER_SIZE", "EliotDictionary", "EliotDictionaryError", "parse_eliot_header",
           "read_eliot_dictionary"]

_KEYWORD = b"_COMPILED_DICTIONARY_\x00"
_EXTENSION_START = 48
_EXTENSION_2_START = 360
ELIOT_HEADER_SIZE = 474
"""Bytes of a version-2 header (a version-1 header has 360)."""


class EliotDictionaryError(ValueError):
    """A file that is not an Eliot dictionary this module can read; the message (Spanish)
    names the file and says why."""


@dataclass(frozen=True)
class EliotDictionary:
    """What an Eliot saved game's ``Dictionary`` block holds: ``name`` (``Name``), ``kind``
    (``Type``: ``dawg`` or ``gaddag``), ``letters`` (``Letters``: each letter's display
    string, in the dictionary's order, the blank ``?`` included when the dictionary has
    it) and ``word_count`` (``WordNb``)."""

    name: str
    kind: str
    letters: tuple[str, ...]
    word_count: int


def _text(data: bytes, start: int, size_at: int, limit: int, what: str) -> str:
    (size,) = struct.unpack_from(">I", data, size_at)
    if size > limit:
        raise EliotDictionaryError(f"{what}: ocupa {size} bytes, más de los {limit} del formato")
    try:
        return data[start:start + size].decode("utf-8")
    except UnicodeDecodeError:
        raise EliotDictionaryError(f"{what}: no es UTF-8") from None


def parse_eliot_header(data: bytes) -> EliotDictionary:
    """The ``EliotDictionary`` of the first bytes of an Eliot dictionary (the layout in the
    module doc). Raises ``EliotDictionaryError`` (Spanish, without the file's name) when
    the bytes are not such a header, or an inconsistent one."""
    if not data.startswith(_KEYWORD):
        raise EliotDictionaryError("no empieza por «_COMPILED_DICTIONARY_»: no es un diccionario de Eliot")
    version = data[len(_KEYWORD)]
    if version not in (1, 2):
        raise EliotDictionaryError(f"formato de diccionario {version}: solo se leen los formatos 1 y 2 "
                                   "(Eliot 1.8 y posteriores)")
    if len(data) < (ELIOT_HEADER_SIZE if version == 2 else _EXTENSION_2_START):
        raise EliotDictionaryError("la cabecera está incompleta")
    (word_count,) = struct.unpack_from(">I", data, 28)
    algorithm = data[_EXTENSION_START + 44]
    if algorithm not in (1, 2):
        raise EliotDictionaryError(f"tipo de diccionario {algorithm} desconocido (1 dawg, 2 gaddag)")
    name = _text(data, _EXTENSION_START + 46, _EXTENSION_START + 76, 30, "el nombre")
    letters = _text(data, _EXTENSION_START + 80, _EXTENSION_START + 160, 80, "las letras")
    (count,) = struct.unpack_from(">I", data, _EXTENSION_START + 164)
    if count != len(letters) or not letters:
        raise EliotDictionaryError(f"la cabecera dice {count} letras y trae {len(letters)}")
    display = {letter: letter for letter in letters}
    if version == 2:
        (size,) = struct.unpack_from(">H", data, _EXTENSION_2_START + 112)
        if size > 112:
            raise EliotDictionaryError(f"las grafías ocupan {size} bytes, más de los 112 del formato")
        try:
            serialized = data[_EXTENSION_2_START:_EXTENSION_2_START + size].decode("utf-8")
        except UnicodeDecodeError:
            raise EliotDictionaryError("las grafías no son UTF-8") from None
        for item in serialized.split():
            pieces = item.split("|")
            if len(pieces) < 2 or len(pieces[0]) != 1 or pieces[0] not in display:
                raise EliotDictionaryError(f"grafía «{item[:20]}» de una letra que no es del diccionario")
            display[pieces[0]] = pieces[1].upper()
    return EliotDictionary(name, "dawg" if algorithm == 1 else "gaddag",
                           tuple(display[letter] for letter in letters), word_count)


def read_eliot_dictionary(path: Path) -> EliotDictionary:
    """The header of the Eliot dictionary at ``path`` (only its first
    ``ELIOT_HEADER_SIZE`` bytes are read). Raises ``EliotDictionaryError`` naming the
    file when it cannot be read or is not an Eliot dictionary of format 1 or 2."""
    try:
        with path.open("rb") as handle:
            data = handle.read(ELIOT_HEADER_SIZE)
    except FileNotFoundError:
        raise EliotDictionaryError(f"{path}: no existe ese diccionario de Eliot") from None
    except PermissionError:
        raise EliotDictionaryError(f"{path}: no hay permiso para leer el diccionario de Eliot") from None
    except OSError:
        raise EliotDictionaryError(f"{path}: no se puede leer el diccionario de Eliot (¿es una carpeta?)") from None
    try:
        return parse_eliot_header(data)
    except EliotDictionaryError as error:
        raise EliotDictionaryError(f"{path}: {error}") from None
