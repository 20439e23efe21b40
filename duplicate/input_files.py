"""Text files people hand to the program, read with bounds (issue 26 §3).

``read_text(path, what=…, limit=…)`` reads a UTF-8 file (a BOM allowed) that is a regular
file of at most ``limit`` bytes: a FIFO would block, ``/dev/zero`` would fill the memory.
A file in UTF-16 or in Latin-1 is refused naming the line and column where it stops being
UTF-8 (``utf8_error``). Errors are ``InputFileError`` (a ``ValueError``), in Spanish,
naming the file and ``what`` it should be.
"""

from __future__ import annotations

import codecs
import stat
from pathlib import Path

__all__ = ["InputFileError", "read_bytes", "read_text", "utf8_error"]


class InputFileError(ValueError):
    """A file that cannot be read as asked; the message (Spanish) names the file and what
    was expected. ``line`` and ``column`` (1-based, 0 when not about a place) say where."""

    def __init__(self, message: str, *, line: int = 0, column: int = 0) -> None:
        super().__init__(message)
        self.line = line
        self.column = column


def read_bytes(path: Path, *, what: str, limit: int) -> bytes:
    """The bytes of the regular file ``path`` (``what`` it is, for messages: «un CSV de
    jugadores»), at most ``limit`` of them; ``InputFileError`` for a missing or unreadable
    file, a FIFO, a device, a folder, or more than ``limit`` bytes."""
    try:
        status = path.stat()
        if not stat.S_ISREG(status.st_mode):
            raise InputFileError(f"{path}: no es un archivo normal (se esperaba {what})")
        if status.st_size > limit:
            raise InputFileError(f"{path}: {status.st_size} bytes; {what} tiene como máximo {limit}")
        with path.open("rb") as handle:
            data = handle.read(limit + 1)
    except FileNotFoundError:
        raise InputFileError(f"{path}: no existe (se esperaba {what})") from None
    except OSError as error:
        raise InputFileError(f"{path}: no se puede leer ({error.strerror or type(error).__name__})") from None
    if len(data) > limit:
        raise InputFileError(f"{path}: más de {limit} bytes; {what} tiene como máximo {limit}")
    return data


def utf8_error(data: bytes, name: object, *, first_line: int = 1) -> InputFileError | None:
    """None when ``data`` is UTF-8 (a leading BOM allowed), else the ``InputFileError`` that
    names ``name`` (a file), the line and the column (in characters) where it stops being
    UTF-8 — and says UTF-16 when it starts with a UTF-16 byte-order mark. ``first_line``:
    the number of the first line of ``data``."""
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return InputFileError(f"{name}, línea {first_line}, columna 1: el archivo está en UTF-16; guárdelo en "
                              "UTF-8", line=first_line, column=1)
    try:
        data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        start = error.start + (3 if data.startswith(codecs.BOM_UTF8) else 0)
        line_start = data.rfind(b"\n", 0, start) + 1
        line = first_line + data.count(b"\n", 0, start)
        column = len(data[line_start:start].decode("utf-8", errors="replace")) + 1
        return InputFileError(f"{name}, línea {line}, columna {column}: no está en UTF-8 (byte 0x{data[start]:02X}; "
                              "¿Latin-1 o Windows-1252?); guárdelo en UTF-8", line=line, column=column)
    return None


def read_text(path: Path, *, what: str, limit: int) -> str:
    """``read_bytes`` decoded as UTF-8 without a leading BOM; ``InputFileError`` naming the
    line and column when it is not UTF-8 (``utf8_error``)."""
    data = read_bytes(path, what=what, limit=limit)
    problem = utf8_error(data, path)
    if problem is not None:
        raise problem
    return data.decode("utf-8-sig")
