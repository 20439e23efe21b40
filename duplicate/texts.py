"""Text typed by people, checked once where it enters (issue 14 §1).

Every text a station sends to the tournament service — a slip, a player's name or club,
a tournament's name, an assistant's name, a judge's reason — passes ``checked_text``
before anything is judged or stored: Unicode NFC; no control characters (a reason may
hold line breaks, but not a carriage return alone), no lone surrogates, private-use or
unassigned code points; no invisible or bidirectional format characters (U+200B, U+200F,
U+202E, U+FEFF…: they make look-alike names, issue 26 §3); digits only ``0``–``9``
(``H٨`` is not ``H8``); and a length that fits its column on SQLite and PostgreSQL alike. The check takes time proportional to the limit, not to the text
(an 80,000-character slip is refused at once). Messages are Spanish and show the text
shortened (``shown``), never a wall of it.

The limits are the columns' (``duplicate.storage.models``) or, for slips, the longest text a
real slip can hold: 15 tiles written ``[ch]`` (4 characters each), the coordinate, an
arrow and separators stay well under ``SLIP_MAX``.
"""

from __future__ import annotations

import unicodedata

SLIP_MAX = 80
"""Characters of a slip as typed (stored in full; ``notation.parse_move`` reads no more)."""

NAME_MAX = 200
"""A player's name or club, a tournament's name or venue (``String(200)``)."""

COUNTRY_MAX = 100
"""A player's country (``String(100)``)."""

FEDERATION_ID_MAX = 50
"""A player's federation id (``String(50)``)."""

PERSON_MAX = 100
"""An assistant's, a station's or an arbiter's name (``String(100)``)."""

REASON_MAX = 1000
"""A judge's reason, a claim's text or a resolution (stored as ``Text``; kept readable)."""

SHOWN_MAX = 40
"""Characters of a refused text quoted back in a message."""


INVISIBLE_CATEGORIES = ("Cf", "Zl", "Zp")
"""Unicode categories refused in every typed text: format characters (zero-width spaces
and joiners, bidirectional marks and overrides, the byte-order mark, the soft hyphen) and
the line and paragraph separators U+2028/U+2029."""


class TextError(ValueError):
    """A typed text that cannot be accepted; the message (Spanish) names the field, shows
    the text shortened and says what is expected."""


def shown(text: str, limit: int = SHOWN_MAX) -> str:
    """``text`` quoted for a message: ``«…»``, cut to ``limit`` characters with the
    total length said when longer; control characters shown as ``U+XXXX``."""
    cut = text[:limit]
    return f"«{visible(cut)}…» ({len(text)} caracteres)" if len(text) > limit else f"«{visible(cut)}»"


def hidden(char: str) -> bool:
    """Whether the code point ``char`` does something or nothing instead of showing: a control
    (``Cc``: ESC, BEL, NUL, DEL, the C1 controls), a surrogate (``Cs``), a format or separator
    character (``INVISIBLE_CATEGORIES``: U+200B, U+202E, U+2028…) or a noncharacter (U+FFFE,
    U+FFFF, U+FDD0–U+FDEF and their like in every plane, which no XML file may hold). Every
    one is refused where text enters (``checked_text``); ``visible`` shows the ones stored
    before, or by another program, as ``U+XXXX`` (issue 26 §3, issue 36 §5)."""
    code = ord(char)
    return (unicodedata.category(char) in ("Cc", "Cs", *INVISIBLE_CATEGORIES)
            or 0xFDD0 <= code <= 0xFDEF or code & 0xFFFE == 0xFFFE)


def visible(text: str, *, lines: bool = False) -> str:
    """``text`` safe to print on a terminal or to write into a published file: every
    ``hidden`` code point written ``U+XXXX`` (an ``ESC]0;…BEL`` title sequence, a bare CR
    or a U+202E override shows as such and does nothing; a workbook or a web page gets
    only characters XML allows); with ``lines``, line breaks (``\\n``, ``\\r\\n``) and
    tabs are kept, as ``checked_text`` keeps them in a reason. Used for every stored text
    a command prints or a publication writes (issue 26 §3, issue 36 §5)."""
    if text.isprintable():                   # the usual case, in one C loop: nothing hidden (U+FFFE is
        return text                          # unassigned, so not printable either)
    if lines and text.replace("\n", "").replace("\t", "").isprintable():
        return text                          # a page's lines (a template's script, a macro's output): kept
    return "".join(f"U+{ord(char):04X}" if hidden(char) and not (lines and _line_break(text, index)) else char
                   for index, char in enumerate(text))


def _line_break(text: str, index: int) -> bool:
    """Whether ``text[index]`` is a tab or part of a line break (``\\n``, ``\\r\\n``)."""
    return text[index] in "\n\t" or text[index] == "\r" and text[index + 1:index + 2] == "\n"


def checked_text(text: object, what: str, *, limit: int, lines: bool = False) -> str:
    """``text`` in NFC form, or ``TextError`` naming ``what`` (e.g. ``"la papeleta"``).

    ``limit``: the most characters accepted; ``lines``: line breaks and tabs allowed
    (reasons). Surrounding spaces are kept: what is stored is what was typed.
    """
    if not isinstance(text, str):
        raise TextError(f"{what}: se esperaba un texto, no {type(text).__name__}")
    if len(text) > 4 * limit:                       # refused before any work on it
        raise TextError(f"{what}: {len(text)} caracteres; como máximo {limit}")
    normal = unicodedata.normalize("NFC", text)
    for char in normal:
        category = unicodedata.category(char)
        if category == "Cc" and not (lines and char in "\n\r\t"):
            raise TextError(f"{what} {shown(normal)}: lleva un carácter de control (U+{ord(char):04X}); "
                            "escriba solo letras, cifras y signos")
        if category in INVISIBLE_CATEGORIES:
            raise TextError(f"{what} {shown(normal)}: lleva un carácter invisible o de dirección del texto "
                            f"(U+{ord(char):04X}); escríbalo sin él")
        if category in ("Cs", "Co", "Cn"):
            raise TextError(f"{what} {shown(normal)}: lleva un carácter no válido (U+{ord(char):04X})")
        if category == "Nd" and not "0" <= char <= "9":
            raise TextError(f"{what} {shown(normal)}: la cifra «{char}» no es de las cifras 0–9; escríbala con 0–9")
    if lines and "\r" in normal.replace("\r\n", ""):
        raise TextError(f"{what} {shown(normal)}: lleva un retorno de carro (U+000D) sin salto de línea; "
                        "separe las líneas con saltos de línea")
    if len(normal) > limit:
        raise TextError(f"{what} {shown(normal)}: {len(normal)} caracteres; como máximo {limit}")
    return normal
