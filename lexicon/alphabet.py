"""The tile alphabet: letters, counts, points, and the text forms of tiles.

A tile is an ``int`` code (rules I.2):

* ``0 .. size-1`` — a letter of the alphabet, in the order of the tile file
  (for Spanish: A B C CH D E F G H I J L LL M N Ñ O P Q R RR S T U V X Y Z,
  which is also the traditional Spanish dictionary order);
* ``letter | BLANK_FLAG`` — a blank standing for that letter (on the board, or
  in a move);
* ``alphabet.blank`` (== ``size``) — an undesignated blank on a rack.

Text forms, used for word lists, racks, slips and boards alike:

* plain letters, the digraphs read greedily (``CHORRILLOS`` is CH-O-RR-I-LL-O-S);
* bracket forms ``[CH] [LL] [RR]`` accepted too (``C[H]`` is not a form);
* accents removed (``Á`` → ``A``, ``Ü`` → ``U``) but ``Ñ`` kept;
* lowercase is a blank standing for that letter (``ch`` or ``[ch]`` for CH);
* ``?`` is an undesignated blank (racks only).

The tile set itself is data (``data/tiles-es.tsv``), not code.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path

import data

BLANK_FLAG = 64
"""Bit set on a letter code when a blank stands for that letter."""


class AlphabetError(ValueError):
    """Text that cannot be read as tiles of the alphabet; the message names it."""


@dataclass(frozen=True)
class Letter:
    """One letter of the tile set: its text, how many tiles, their points, vowel or not."""

    symbol: str
    count: int
    points: int
    vowel: bool


@dataclass(frozen=True)
class Alphabet:
    """A tile set (rules I.2). ``letters[code]`` describes letter ``code``.

    ``blank_count`` blanks worth ``blank_points`` each complete the set.
    """

    name: str
    letters: tuple[Letter, ...]
    blank_count: int
    blank_points: int

    def __post_init__(self) -> None:
        if len(self.letters) >= BLANK_FLAG:
            raise AlphabetError(f"demasiadas letras en el alfabeto {self.name}: {len(self.letters)}")
        symbols = [letter.symbol for letter in self.letters]
        if len(set(symbols)) != len(symbols):
            raise AlphabetError(f"letras repetidas en el alfabeto {self.name}")

    # --- codes -----------------------------------------------------------------
    @property
    def size(self) -> int:
        """Number of distinct letters (not counting the blank)."""
        return len(self.letters)

    @property
    def blank(self) -> int:
        """Code of an undesignated blank on a rack (``== size``)."""
        return len(self.letters)

    @property
    def tile_total(self) -> int:
        """Number of tiles in a full bag (100 for the FISE set)."""
        return sum(letter.count for letter in self.letters) + self.blank_count

    def code(self, symbol: str) -> int:
        """Code of the letter written ``symbol`` (uppercase, e.g. ``"CH"``).

        Raises ``AlphabetError`` if ``symbol`` is not a letter of the alphabet.
        """
        try:
            return self._code_table[symbol]
        except KeyError:
            raise AlphabetError(f"«{symbol}» no es una letra del alfabeto {self.name}") from None

    def points(self, tile: int) -> int:
        """Points of a tile code: 0 for any blank (designated or not)."""
        if tile & BLANK_FLAG or tile == self.blank:
            return self.blank_points
        return self.letters[tile].points

    def is_vowel(self, tile: int) -> bool:
        """True for a natural vowel tile (A E I O U). Blanks and Y are not (III.12)."""
        return not tile & BLANK_FLAG and tile != self.blank and self.letters[tile].vowel

    def full_bag(self) -> list[int]:
        """Every tile of a full bag as codes (blanks as ``blank``), in alphabet order."""
        tiles = [code for code, letter in enumerate(self.letters) for _ in range(letter.count)]
        return tiles + [self.blank] * self.blank_count

    # --- text ------------------------------------------------------------------
    def symbol(self, tile: int) -> str:
        """Text of one tile: ``"CH"``, ``"ch"`` for a blank as CH, ``"?"`` for a bare blank."""
        if tile == self.blank:
            return "?"
        if tile & BLANK_FLAG:
            return self.letters[tile & ~BLANK_FLAG].symbol.lower()
        return self.letters[tile].symbol

    def format(self, tiles: Iterable[int], brackets: bool = False) -> str:
        """Text of a tile sequence that reads back to the same tiles with ``tokenize``.

        Letters uppercase, designated blanks lowercase, a bare blank ``?``,
        digraph tiles plain (``CHORRILLOS``); a one-letter tile that would join
        the next tile into a digraph is bracketed (``[C]H`` is a C tile then an
        H tile; ``Ch`` needs no brackets: case separates them).
        ``brackets=True`` also writes every digraph tile as ``[CH]`` (the CGP
        board form).
        """
        symbols = [self.symbol(tile) for tile in tiles]
        digraphs = self._digraphs
        parts = []
        for index, text in enumerate(symbols):
            if len(text) > 1:
                parts.append(f"[{text}]" if brackets else text)
                continue
            if index + 1 < len(symbols) and digraphs:
                pair = text + symbols[index + 1][0]
                if (pair.isupper() or pair.islower()) and pair.upper() in digraphs:
                    text = f"[{text}]"
            parts.append(text)
        return "".join(parts)

    def display(self, tiles: Iterable[int]) -> str:
        """Text of tiles for people to read (racks on screens and sheets): every
        digraph tile in brackets (``LAADDE[CH]``, ``[ch]`` for a blank as CH), every
        one-letter tile plain (never ``[L]``), a bare blank ``?``.

        Not meant to be read back: two L tiles show as ``LL``; ``format`` is the
        form that round-trips through ``tokenize``.
        """
        return "".join(f"[{text}]" if len(text) > 1 else text for text in map(self.symbol, tiles))

    @cached_property
    def _digraphs(self) -> frozenset[str]:
        return frozenset(letter.symbol for letter in self.letters if len(letter.symbol) > 1)

    def tokenize(self, text: str, *, blanks: bool = True, allow_unknown_blank: bool = False) -> list[int]:
        """Read ``text`` as a sequence of tile codes.

        ``blanks=True``: lowercase letters are blanks (``letter | BLANK_FLAG``);
        ``blanks=False``: case is ignored (word lists). ``allow_unknown_blank``
        accepts ``?`` as an undesignated blank (racks).

        Raises ``AlphabetError`` naming the text and the offending character.
        """
        table, pattern = self._token_table
        normal = _normalize(text)
        if not blanks:
            normal = normal.upper()
        out: list[int] = []
        for token in pattern.findall(normal):
            code = table.get(token)
            if code is not None:
                out.append(code)
            elif token == "?" and allow_unknown_blank:
                out.append(self.blank)
            elif token == "?":
                raise AlphabetError(f"«{text}»: «?» (comodín sin designar) solo se admite en un atril")
            elif token.startswith("[") and not token.endswith("]"):
                raise AlphabetError(f"«{text}»: falta el corchete de cierre")
            elif token.isspace() or token == "[]":
                raise AlphabetError(f"«{text}»: ficha vacía")
            else:
                raise AlphabetError(f"«{text}»: «{token.strip('[]')}» no es una ficha del alfabeto {self.name}")
        return out

    @cached_property
    def _token_table(self) -> tuple[dict[str, int], re.Pattern[str]]:
        """Text of every tile form → code, and the pattern that splits text into forms."""
        table: dict[str, int] = {}
        for code, letter in enumerate(self.letters):
            for form, value in ((letter.symbol, code), (letter.symbol.lower(), code | BLANK_FLAG)):
                table[form] = value
                table[f"[{form}]"] = value
        multi = sorted((form for form in table if len(form) > 1 and not form.startswith("[")), key=len, reverse=True)
        pattern = re.compile(r"\[[^\]]*\]?|" + "".join(re.escape(form) + "|" for form in multi) + ".", re.DOTALL)
        return table, pattern

    def word_codes(self, text: str) -> tuple[int, ...]:
        """A word-list entry as letter codes, case ignored; no blanks or ``?``.

        Raises ``AlphabetError`` if it holds anything outside the alphabet
        (digits, hyphens, K, W, Ç, spaces...).
        """
        stripped = text.strip()
        if not stripped:
            raise AlphabetError("línea vacía")
        return tuple(self.tokenize(stripped, blanks=False))

    @cached_property
    def _code_table(self) -> dict[str, int]:
        return {letter.symbol: code for code, letter in enumerate(self.letters)}


_ACCENTS = str.maketrans("ÁÉÍÓÚÜÀÈÌÒÙÂÊÎÔÛÏáéíóúüàèìòùâêîôûï", "AEIOUUAEIOUAEIOUIaeiouuaeiouaeioui")


def _normalize(text: str) -> str:
    """NFC text with the vowels' accents removed (Á→A, Ü→U); Ñ/ñ kept, and any other
    accented letter (Ç…) left as it is, so that it is reported as outside the alphabet."""
    if text.isascii():
        return text
    composed = unicodedata.normalize("NFC", text).translate(_ACCENTS)
    if all(ch.isascii() or ch in "Ññ" for ch in composed):
        return composed
    out = []
    for ch in composed:
        if ch in "Ññ":
            out.append(ch)
            continue
        base = unicodedata.normalize("NFD", ch)[0]
        out.append(base if base in "AEIOUaeiou" else ch)
    return "".join(out)


def load_alphabet(path: Path, name: str | None = None) -> Alphabet:
    """Read a tile file: lines ``LETTER<TAB>COUNT<TAB>POINTS<TAB>V|C|blank``, ``#`` comments.

    The blank is the line whose letter is ``?``. Raises ``AlphabetError``
    naming the file and line when a line is malformed.
    """
    letters: list[Letter] = []
    blank_count = blank_points = 0
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        fields = line.split()
        if len(fields) != 4:
            raise AlphabetError(f"{path}:{number}: se esperaban 4 campos (letra, cantidad, puntos, clase): «{raw}»")
        symbol, count_text, points_text, kind = fields
        try:
            count, points = int(count_text), int(points_text)
        except ValueError:
            raise AlphabetError(f"{path}:{number}: cantidad y puntos deben ser números: «{raw}»") from None
        if symbol == "?":
            blank_count, blank_points = count, points
        elif kind in ("V", "C") and symbol.isalpha() and symbol.isupper():
            letters.append(Letter(symbol, count, points, kind == "V"))
        else:
            raise AlphabetError(f"{path}:{number}: letra o clase no válida: «{raw}»")
    return Alphabet(name or path.stem, tuple(letters), blank_count, blank_points)


@cache
def spanish() -> Alphabet:
    """The FISE Spanish tile set (``data/tiles-es.tsv``): 28 letters, 2 blanks, 100 tiles."""
    return load_alphabet(data.path("tiles-es.tsv"), "español (FISE)")
