"""The bag: the tiles not yet drawn, seeded draws, and vowel/consonant/blank counts.

A ``Bag`` starts from ``alphabet.full_bag()`` (100 tiles for the FISE set,
rules I.2). Draws are random but reproducible: the bag owns a
``random.Random(seed)`` and records the seed, so the same seed and the same
sequence of operations give the same tiles. The tiles are kept in code order,
so the bag's state is its contents plus the generator's state, whatever order
tiles were returned in.

Tiles in a bag are letter codes and ``alphabet.blank`` (a bare blank); a blank
standing for a letter (``letter | BLANK_FLAG``) is never in a bag.

Vowels and consonants are counted as in III.12: A E I O U are vowels, every
other letter (Y included) is a consonant, and blanks are counted apart.
"""

from __future__ import annotations

import bisect
import random
import secrets
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from lexicon.alphabet import BLANK_FLAG, Alphabet

SEED_LIMIT = 10**9
"""A seed picked at random is in ``0 .. SEED_LIMIT - 1`` (short enough to read aloud)."""


class BagError(ValueError):
    """A tile asked of the bag that it does not hold, or a tile that cannot go in a bag.

    The message (Spanish) names the tile.
    """


@dataclass(frozen=True)
class TileCounts:
    """How many natural vowels, consonants (Y included) and blanks a set of tiles holds (III.12)."""

    vowels: int
    consonants: int
    blanks: int

    @property
    def total(self) -> int:
        """Number of tiles counted."""
        return self.vowels + self.consonants + self.blanks


def count_tiles(tiles: Iterable[int], alphabet: Alphabet) -> TileCounts:
    """Count the vowels, consonants and blanks among ``tiles`` (codes) — III.12.

    A bare blank (``alphabet.blank``) or a designated one (``letter | BLANK_FLAG``)
    counts as a blank, never as the letter it stands for; Y is a consonant.
    """
    vowels = consonants = blanks = 0
    for tile in tiles:
        if tile == alphabet.blank or tile & BLANK_FLAG:
            blanks += 1
        elif alphabet.is_vowel(tile):
            vowels += 1
        else:
            consonants += 1
    return TileCounts(vowels, consonants, blanks)


def tile_name(tile: int, alphabet: Alphabet) -> str:
    """Spanish name of a tile for messages: ``«A»``, ``«[CH]»`` for a digraph tile (as
    racks are shown), or ``comodín`` for a blank."""
    if tile == alphabet.blank or tile & BLANK_FLAG:
        return "comodín"
    return f"«{alphabet.display((tile,))}»"


class Bag:
    """The tiles not yet drawn (III.12, III.19).

    ``Bag(alphabet, seed=None, tiles=None)``: ``tiles`` defaults to a full bag;
    ``seed`` None picks a random seed, recorded in ``bag.seed`` either way.
    ``len(bag)`` is the number of tiles left.
    """

    __slots__ = ("_rng", "_tiles", "alphabet", "seed")

    def __init__(self, alphabet: Alphabet, seed: int | None = None, tiles: Iterable[int] | None = None) -> None:
        self.alphabet = alphabet
        self.seed: int = secrets.randbelow(SEED_LIMIT) if seed is None else seed
        self._rng = random.Random(self.seed)
        start = alphabet.full_bag() if tiles is None else list(tiles)
        for tile in start:
            self._check_tile(tile)
        self._tiles: list[int] = sorted(start)

    def __len__(self) -> int:
        return len(self._tiles)

    def __repr__(self) -> str:
        return f"Bag({len(self._tiles)} fichas, semilla {self.seed})"

    @property
    def tiles(self) -> tuple[int, ...]:
        """The tiles left, in code order."""
        return tuple(self._tiles)

    def count(self, tile: int) -> int:
        """How many tiles of code ``tile`` are left."""
        return self._tiles.count(tile)

    def counts(self) -> TileCounts:
        """Vowels, consonants and blanks left (III.12)."""
        return count_tiles(self._tiles, self.alphabet)

    @property
    def vowels(self) -> int:
        """Natural vowels left (A E I O U)."""
        return self.counts().vowels

    @property
    def consonants(self) -> int:
        """Consonants left (Y included)."""
        return self.counts().consonants

    @property
    def blanks(self) -> int:
        """Blanks left."""
        return self.counts().blanks

    def draw(self, count: int) -> list[int]:
        """Draw ``count`` tiles at random, in the order drawn.

        Raises ``BagError`` if ``count`` is negative or more than the tiles left.
        """
        if count < 0:
            raise BagError(f"no se puede sacar un número negativo de fichas ({count})")
        if count > len(self._tiles):
            raise BagError(f"no se pueden sacar {count} fichas: quedan {len(self._tiles)} en la bolsa")
        return [self._tiles.pop(self._rng.randrange(len(self._tiles))) for _ in range(count)]

    def remove(self, tiles: Iterable[int]) -> None:
        """Take these specific tiles out (an arbiter-entered rack): all of them or none.

        Raises ``BagError`` naming the first tile the bag does not hold enough of;
        the bag is unchanged then.
        """
        wanted = Counter(tiles)
        have = Counter(self._tiles)
        for tile, number in wanted.items():
            self._check_tile(tile)
            if have[tile] < number:
                raise BagError(self._missing_message(tile, number, have[tile]))
        for tile, number in wanted.items():
            for _ in range(number):
                del self._tiles[bisect.bisect_left(self._tiles, tile)]

    def put_back(self, tiles: Iterable[int]) -> None:
        """Return tiles to the bag (a redraw, III.19, or an undone draw).

        A blank goes back bare. Raises ``BagError`` for a code that is not a tile
        of the alphabet, or if the bag would hold more of a tile than the full set.
        """
        returned = [self._bare(tile) for tile in tiles]
        full = Counter(self.alphabet.full_bag())
        after = Counter(self._tiles) + Counter(returned)
        for tile, number in after.items():
            if number > full[tile]:
                raise BagError(
                    f"no se puede devolver {tile_name(tile, self.alphabet)} a la bolsa: "
                    f"el juego completo tiene {full[tile]}"
                )
        for tile in returned:
            bisect.insort(self._tiles, tile)

    def _bare(self, tile: int) -> int:
        if tile & BLANK_FLAG:
            return self.alphabet.blank
        self._check_tile(tile)
        return tile

    def _check_tile(self, tile: int) -> None:
        if not (0 <= tile <= self.alphabet.blank):
            raise BagError(f"{tile!r} no es una ficha de la bolsa")

    def _missing_message(self, tile: int, wanted: int, have: int) -> str:
        name = tile_name(tile, self.alphabet)
        if have == 0:
            return f"no queda ningún {name} en la bolsa" if tile == self.alphabet.blank else f"no queda ninguna {name} en la bolsa"
        return f"se piden {wanted} {name} pero solo queda{'n' if have > 1 else ''} {have} en la bolsa"
