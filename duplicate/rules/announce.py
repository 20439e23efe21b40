"""What the announcer reads aloud (III.11, III.16, III.17, III.18).

* ``SpellingTable``: tile → keyword (``data/spelling-es.tsv`` by default; a tournament
  may use its own, III.11 says keep it constant). Rows of the board use the keyword of
  their letter: «España 8» for H8-style across coordinates, «8 España» for down ones.
* ``rack_announcement``: the leftover tiles first, in alphabetical order, then the new
  tiles in the order drawn (III.17), each with its keyword.
* ``master_announcement``: the master in canonical form with the row keyword, its
  score and the cumulative master score (III.16).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import data
from lexicon.alphabet import BLANK_FLAG, Alphabet
from lexicon.board import ROW_NAMES

DEFAULT_SPELLING = "spelling-es.tsv"


class SpellingTableError(ValueError):
    """A spelling table file that cannot be read; the message names the file and line."""


@dataclass(frozen=True)
class SpellingTable:
    """Keywords by tile symbol (``A``, ``CH``, ``Ñ``, ``?`` for a blank)."""

    keywords: dict[str, str]

    @classmethod
    def load(cls, path: Path | None = None) -> SpellingTable:
        """Read a table (``symbol<TAB>keyword`` per line, ``#`` comments); default: the
        shipped one. Raises ``SpellingTableError`` naming the file and line."""
        path = path or data.path(DEFAULT_SPELLING)
        keywords: dict[str, str] = {}
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as error:
            raise SpellingTableError(f"no se puede leer la tabla de deletreo {path}: {error}") from None
        for number, line in enumerate(lines, start=1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            fields = line.split("\t")
            if len(fields) != 2 or not fields[0].strip() or not fields[1].strip():
                raise SpellingTableError(f"{path}, línea {number}: se espera «ficha<TAB>palabra clave», hay «{line}»")
            keywords[fields[0].strip().upper()] = fields[1].strip()
        return cls(keywords)

    def keyword(self, symbol: str) -> str:
        """The keyword of a tile symbol, or the symbol itself when the table lacks it."""
        return self.keywords.get(symbol.upper(), symbol.upper())


def _tile_symbol(tile: int, alphabet: Alphabet) -> str:
    if tile == alphabet.blank:
        return "?"
    return alphabet.symbol(tile & ~BLANK_FLAG)


def announcement_order(leftover: Sequence[int], drawn: Sequence[int], alphabet: Alphabet) -> list[int]:
    """III.17: the leftover tiles in alphabetical (tile) order, blanks last, then the new
    tiles as drawn."""
    return sorted(leftover, key=lambda tile: (tile == alphabet.blank, tile)) + list(drawn)


def rack_announcement(leftover: Sequence[int], drawn: Sequence[int], alphabet: Alphabet,
                      table: SpellingTable) -> str:
    """The rack as read aloud, e.g. «quedan: A de Argentina, S de Suecia; nuevas: …» (III.17)."""
    return spoken_rack([_tile_symbol(tile, alphabet) for tile in announcement_order(leftover, (), alphabet)],
                       [_tile_symbol(tile, alphabet) for tile in drawn], table)


def spoken_rack(kept: Sequence[str], drawn: Sequence[str], table: SpellingTable) -> str:
    """``rack_announcement`` of tiles given by their symbols (``"CH"``, ``"?"`` for a
    blank): ``kept`` already in the order they are read (``announcement_order``), then
    ``drawn`` as drawn (III.17)."""

    def say(symbols: Iterable[str]) -> str:
        return ", ".join("comodín" if symbol == "?" else f"{symbol} de {table.keyword(symbol)}" for symbol in symbols)

    if not kept:
        return f"Atril: {say(drawn)}."
    if not drawn:
        return f"Quedan: {say(kept)}."
    return f"Quedan: {say(kept)}. Nuevas: {say(drawn)}."


def coordinate_words(coordinate: str, table: SpellingTable) -> str:
    """«H8» → «Honduras 8»; «8H» → «8 Honduras» (III.16, III.18)."""
    coordinate = coordinate.strip().upper()
    if coordinate[:1] in ROW_NAMES and coordinate[1:].isdigit():
        return f"{table.keyword(coordinate[0])} {coordinate[1:]}"
    if coordinate[-1:] in ROW_NAMES and coordinate[:-1].isdigit():
        return f"{coordinate[:-1]} {table.keyword(coordinate[-1])}"
    raise ValueError(f"coordenada {coordinate!r} no válida: se espera H8 u 8H")


def master_announcement(master: str, score: int, cumulative: int, table: SpellingTable) -> str:
    """III.16: «CASA en Honduras 8, 24 puntos; acumulado de la partida, 312.» A blank
    (lowercase) is spelt out as such."""
    coordinate, word = master.split("-", 1)
    blanks = [letter.upper() for letter in word if letter.islower()]
    note = f" (comodín: {', '.join(blanks)})" if blanks else ""
    return (f"{word.upper()} en {coordinate_words(coordinate, table)}{note}, {score} puntos; "
            f"acumulado de la partida, {cumulative}.")
