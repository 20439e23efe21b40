"""Racks: the composition rules (III.12), completing a rack with redraws (III.17,
III.19), and checking a rack typed by the arbiter.

Counting (III.12): A E I O U are vowels; every other letter, **Y included**, is a
consonant; blanks are counted apart (``duplicate.rules.bag.count_tiles``).

The two rules, ``RackRule``:

* ``UNDER_SIX`` — through round 15: fewer than 6 vowels and fewer than 6
  consonants. "Los comodines pueden contar indistintamente como vocales o
  consonantes": a blank counts as whichever keeps the rack valid, and since a
  rack holds at most 7 tiles there is always such a choice when the *natural*
  vowels and consonants are each under 6. So the rule is checked on natural
  tiles only and **a blank never makes a rack invalid**: ``AEIOU??`` and
  ``AEIOUB?`` are valid, ``AEIOUA?`` (6 natural vowels) is not.
* ``ONE_AND_ONE`` — from round 16, and earlier once the vowels or the
  consonants not on the board (bag plus rack) are down to one or none: at least
  one vowel and one consonant, **not counting blanks** (the rule says "sin
  contar los comodines"), so ``AEIOU??`` is not valid then. Once in force it
  stays in force to the end of the game (the tiles left only ever decrease).

A rack is completed by keeping the previous rack's leftover tiles and drawing
up to ``RACK_SIZE`` (or every tile left). If the result is not valid, the whole
rack — leftovers included — goes back to the bag and a new one is drawn
(III.19), each redraw recorded. Before drawing, ``no_valid_rack_reason`` tells
whether any valid rack can be formed at all from rack plus bag; when none can,
the game is over (III.12 last paragraph, III.22), so redrawing never loops
forever; ``MAX_REDRAWS`` is only a guard against an absurdly unlucky bag.

Rack text: plain tiles (``CASA?OL``), ``?`` for a blank; a single letter that
would read as part of a digraph with the next tile is bracketed (R then R is
``[R]R``, C then H is ``[C]H``), so ``parse_rack_text(rack_text(t)) == t``.
Typed racks may also separate tiles with spaces or ``+`` (``R R``, ``AE+RST``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import Enum

from data.rules import FIRST_ONE_AND_ONE_ROUND, RACK_SIZE, UNDER_SIX_LIMIT
from duplicate.rules.bag import Bag, TileCounts, count_tiles, tile_name
from lexicon.alphabet import BLANK_FLAG, Alphabet, AlphabetError

MAX_REDRAWS = 1000
"""Redraws tried in one round before giving up (III.19 warns about program limits)."""


class RackError(ValueError):
    """A rack that cannot be used or formed; the message (Spanish) says why."""


class NoValidRackError(RackError):
    """No valid rack can be formed from the tiles left: the game is over (III.12, III.22)."""


class RedrawLimitError(RackError):
    """``MAX_REDRAWS`` redraws in a row gave no valid rack (III.19)."""


class RackRule(Enum):
    """Which III.12 composition rule is in force."""

    UNDER_SIX = "under_six"
    """Fewer than 6 vowels and fewer than 6 consonants (through round 15)."""
    ONE_AND_ONE = "one_and_one"
    """At least one vowel and one consonant, blanks not counted."""

    @property
    def description(self) -> str:
        """The rule in Spanish, for the arbiter."""
        if self is RackRule.UNDER_SIX:
            return "menos de 6 vocales y menos de 6 consonantes"
        return "al menos una vocal y una consonante (sin contar los comodines)"


@dataclass(frozen=True)
class Rack:
    """One round's rack: ``leftover`` tiles kept from the previous round (code
    order, III.17) and the ``drawn`` tiles (in the order drawn or typed).

    Tiles are letter codes and ``alphabet.blank``.
    """

    alphabet: Alphabet = field(repr=False)
    leftover: tuple[int, ...]
    drawn: tuple[int, ...]

    @property
    def tiles(self) -> tuple[int, ...]:
        """Leftovers first, then the new tiles."""
        return self.leftover + self.drawn

    @property
    def text(self) -> str:
        """Rack text, leftovers first (``AE`` + ``RSTU?`` → ``AERSTU?``)."""
        return rack_text(self.tiles, self.alphabet)

    @property
    def shown(self) -> str:
        """The rack as people read it in messages, leftovers first: digraph tiles in
        brackets (``UUQVZ[LL][RR]``; ``Alphabet.display``). Not meant to be read back."""
        return self.alphabet.display(self.tiles)

    def counts(self) -> TileCounts:
        """Vowels, consonants, blanks on the rack."""
        return count_tiles(self.tiles, self.alphabet)

    def __len__(self) -> int:
        return len(self.leftover) + len(self.drawn)


@dataclass(frozen=True)
class Redraw:
    """A rack that was not valid and went back to the bag whole (III.19):
    its text and the Spanish reason. ``str()`` gives the rack text."""

    rack: str
    reason: str

    def __str__(self) -> str:
        return self.rack


@dataclass(frozen=True)
class Completion:
    """A completed rack and the redraws it took (oldest first)."""

    rack: Rack
    redraws: tuple[Redraw, ...]


# --- the rules ---------------------------------------------------------------------
def one_and_one_due(pool: Iterable[int], alphabet: Alphabet) -> bool:
    """True when the vowels or the consonants not on the board (``pool`` = bag plus
    rack) are down to one or none: the 1+1 rule applies from then on (III.12)."""
    counts = count_tiles(pool, alphabet)
    return counts.vowels <= 1 or counts.consonants <= 1


def rule_for_round(round_number: int, pool: Iterable[int], alphabet: Alphabet, switched: bool = False) -> RackRule:
    """The III.12 rule for round ``round_number`` (1-based).

    ``ONE_AND_ONE`` from round 16, when ``switched`` (the 1+1 rule already came
    into force earlier in the game), or when ``one_and_one_due(pool)``;
    ``UNDER_SIX`` otherwise.
    """
    if round_number >= FIRST_ONE_AND_ONE_ROUND or switched or one_and_one_due(pool, alphabet):
        return RackRule.ONE_AND_ONE
    return RackRule.UNDER_SIX


def rack_problem(tiles: Sequence[int], rule: RackRule, alphabet: Alphabet) -> str | None:
    """Why ``tiles`` is not a valid rack under ``rule`` (Spanish), or None if it is (III.12)."""
    if not tiles:
        return "el atril está vacío"
    if len(tiles) > RACK_SIZE:
        return f"{len(tiles)} fichas; un atril tiene como máximo {RACK_SIZE}"
    counts = count_tiles(tiles, alphabet)
    if rule is RackRule.UNDER_SIX:
        if counts.vowels >= UNDER_SIX_LIMIT:
            return f"{counts.vowels} vocales; hasta la ronda 15 el atril debe tener menos de 6 (III.12)"
        if counts.consonants >= UNDER_SIX_LIMIT:
            with_y = " (la Y cuenta como consonante)" if any(alphabet.symbol(tile) == "Y" for tile in tiles) else ""
            return f"{counts.consonants} consonantes{with_y}; hasta la ronda 15 el atril debe tener menos de 6 (III.12)"
        return None
    if counts.vowels and counts.consonants:
        return None
    if not counts.vowels and not counts.consonants:
        missing = "ni vocales ni consonantes"
    else:
        missing = "ninguna vocal" if not counts.vowels else "ninguna consonante"
    return f"{missing} (los comodines no cuentan); el atril debe tener al menos una vocal y una consonante (III.12)"


def is_valid_rack(tiles: Sequence[int], rule: RackRule, alphabet: Alphabet) -> bool:
    """True if ``tiles`` is a valid rack under ``rule`` (III.12)."""
    return rack_problem(tiles, rule, alphabet) is None


def no_valid_rack_reason(pool: Iterable[int], rule: RackRule, alphabet: Alphabet) -> str | None:
    """Why no valid rack can be formed from ``pool`` (bag plus rack), in Spanish,
    or None when one can (III.12 last paragraph, III.21, III.22).

    The rack drawn from ``pool`` has ``min(RACK_SIZE, len(pool))`` tiles.
    """
    tiles = list(pool)
    counts = count_tiles(tiles, alphabet)
    if not tiles:
        return "no quedan fichas"
    if rule is RackRule.ONE_AND_ONE:
        if not counts.vowels and not counts.consonants:
            return "se han agotado las vocales y las consonantes (III.22)"
        if not counts.vowels:
            return "se han agotado las vocales (III.22)"
        if not counts.consonants:
            return "se han agotado las consonantes (III.22)"
        return None
    size = min(RACK_SIZE, len(tiles))
    limit = UNDER_SIX_LIMIT - 1
    if min(counts.vowels, limit) + min(counts.consonants, limit) + counts.blanks >= size:
        return None
    return (
        f"con las fichas que quedan ({counts.vowels} vocales, {counts.consonants} consonantes, "
        f"{counts.blanks} comodines) no se puede formar un atril válido (III.12)"
    )


def can_form_valid_rack(pool: Iterable[int], rule: RackRule, alphabet: Alphabet) -> bool:
    """True if some valid rack can be drawn from ``pool`` (bag plus rack) under ``rule``."""
    return no_valid_rack_reason(pool, rule, alphabet) is None


# --- completing a rack -------------------------------------------------------------------
def complete_rack(leftover: Sequence[int], bag: Bag, rule: RackRule, max_redraws: int = MAX_REDRAWS) -> Completion:
    """Complete the rack for a round (III.17, III.19).

    ``leftover`` (tiles kept from the previous round) stays; tiles are drawn from
    ``bag`` up to ``RACK_SIZE`` or as many as are left. While the rack is not
    valid under ``rule`` it goes back to the bag whole and a new one is drawn;
    each redraw is recorded in the result.

    Raises ``NoValidRackError`` (bag untouched) when no valid rack can be formed
    from leftover plus bag, and ``RedrawLimitError`` after ``max_redraws``
    redraws; the bag is then as it was before the call.
    """
    alphabet = bag.alphabet
    reason = no_valid_rack_reason([*leftover, *bag.tiles], rule, alphabet)
    if reason is not None:
        raise NoValidRackError(reason)
    kept = tuple(sorted(leftover))
    drawn = tuple(bag.draw(min(RACK_SIZE - len(kept), len(bag))))
    redraws: list[Redraw] = []
    while (problem := rack_problem(kept + drawn, rule, alphabet)) is not None:
        if len(redraws) >= max_redraws:
            bag.put_back(kept + drawn)
            bag.remove(leftover)
            raise RedrawLimitError(f"{max_redraws} cambios de fichas seguidos sin obtener un atril válido (III.19)")
        redraws.append(Redraw(rack_text(kept + drawn, alphabet), problem))
        bag.put_back(kept + drawn)
        kept = ()
        drawn = tuple(bag.draw(min(RACK_SIZE, len(bag))))
    return Completion(Rack(alphabet, kept, drawn), tuple(redraws))


# --- rack text ---------------------------------------------------------------------------
def beyond_tile_set(tiles: Iterable[int], alphabet: Alphabet) -> str | None:
    """Why ``tiles`` (a rack, or a board's tiles plus a rack) cannot come from one tile
    set (I.2: 100 tiles, 2 blanks — a blank played as a letter counts as a blank), in
    Spanish; None when they can."""
    used: Counter[int] = Counter(alphabet.blank if tile & BLANK_FLAG else tile for tile in tiles)
    blanks = used.pop(alphabet.blank, 0)
    if blanks > alphabet.blank_count:
        return f"{blanks} comodines: el juego tiene {alphabet.blank_count}"
    for tile, count in sorted(used.items()):
        if not 0 <= tile < len(alphabet.letters):
            return f"ficha desconocida (código {tile})"
        letter = alphabet.letters[tile]
        if count > letter.count:
            return f"{count} fichas de {letter.symbol}: el juego tiene {letter.count}"
    return None


def rack_text(tiles: Iterable[int], alphabet: Alphabet) -> str:
    """Text of rack tiles that reads back to the same tiles (``Alphabet.format``)."""
    return alphabet.format(tiles)


def shown_rack(text: str, alphabet: Alphabet) -> str:
    """A stored rack text (``rack_text``) as people read it: digraph tiles in brackets,
    one-letter tiles plain (``LAADDE[CH]``; see ``Alphabet.display``). A text that does
    not read as a rack is returned unchanged (it is shown, never interpreted)."""
    try:
        return alphabet.display(parse_rack_text(text, alphabet))
    except RackError:
        return text


def parse_rack_text(text: str, alphabet: Alphabet) -> list[int]:
    """Tiles of a typed rack: letters (digraphs read greedily, ``[R]R`` for two tiles),
    ``?`` for a blank, optional spaces or ``+`` between tiles.

    Raises ``RackError`` naming the text and the offending part, including a
    lowercase letter (a designated blank has no place on a rack).
    """
    tiles: list[int] = []
    for chunk in text.replace("+", " ").split():
        try:
            codes = alphabet.tokenize(chunk, allow_unknown_blank=True)
        except AlphabetError as error:
            raise RackError(f"atril «{text}»: {str(error).split(': ', 1)[-1]}") from None
        for code in codes:
            if code & BLANK_FLAG:
                raise RackError(
                    f"atril «{text}»: «{alphabet.symbol(code)}» en minúscula; en el atril el comodín se escribe «?»"
                )
        tiles.extend(codes)
    if not tiles:
        raise RackError("el atril está vacío")
    return tiles


def check_arbiter_rack(text: str, alphabet: Alphabet, leftover: Sequence[int], available: Iterable[int],
                       rule: RackRule) -> Rack:
    """Read and check a rack typed by the arbiter instead of drawing (III.12, III.17).

    ``leftover``: tiles kept from the previous round, which the rack must hold
    (pass ``()`` after a redraw, when they went back to the bag); ``available``:
    the tiles in the bag. The rack must have ``min(RACK_SIZE, len(leftover) +
    len(available))`` tiles — full, as a drawn rack would be — its new tiles must
    be in the bag, and it must be valid under ``rule``.

    Returns the ``Rack`` (new tiles in the order typed); the bag is not touched.
    Raises ``RackError`` saying why (bad text, too many tiles, a leftover tile
    missing, a tile not in the bag, wrong size, not valid under III.12).
    """
    tiles = parse_rack_text(text, alphabet)
    if len(tiles) > RACK_SIZE:
        raise RackError(f"atril «{text}»: {len(tiles)} fichas; un atril tiene como máximo {RACK_SIZE}")
    typed = Counter(tiles)
    for tile, number in Counter(leftover).items():
        if typed[tile] < number:
            raise RackError(
                f"atril «{text}»: falta {tile_name(tile, alphabet)}, que quedó en el atril de la ronda anterior (III.17)"
            )
    kept = Counter(leftover)
    new: list[int] = []
    for tile in tiles:
        if kept[tile]:
            kept[tile] -= 1
        else:
            new.append(tile)
    in_bag = Counter(available)
    for tile, number in Counter(new).items():
        if in_bag[tile] < number:
            name = tile_name(tile, alphabet)
            left = "no queda ninguno" if tile == alphabet.blank else "no queda ninguna"
            detail = left if not in_bag[tile] else f"solo queda{'n' if in_bag[tile] > 1 else ''} {in_bag[tile]}"
            raise RackError(f"atril «{text}»: {name} no está disponible, {detail} en la bolsa")
    size = min(RACK_SIZE, len(leftover) + sum(in_bag.values()))
    if len(tiles) != size:
        raise RackError(f"atril «{text}»: {len(tiles)} fichas; el atril debe tener {size}")
    problem = rack_problem(tiles, rule, alphabet)
    if problem is not None:
        raise RackError(f"atril «{text}» no válido: {problem}")
    return Rack(alphabet, tuple(sorted(leftover)), tuple(new))


def racks_of(pool: Sequence[int], size: int) -> Iterator[tuple[int, ...]]:
    """Every distinct rack of ``size`` tiles taken from ``pool`` (tile codes, repeats
    allowed): each multiset once, tiles in code order, in lexicographic order of the
    codes taken first. Nothing when ``pool`` holds fewer than ``size`` tiles."""
    kinds = sorted(Counter(pool).items())
    after = [0] * (len(kinds) + 1)                   # tiles of the kinds from index i on
    for index in range(len(kinds) - 1, -1, -1):
        after[index] = after[index + 1] + kinds[index][1]

    def walk(index: int, left: int, chosen: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        if left == 0:
            yield chosen
            return
        if after[index] < left:
            return
        tile, available = kinds[index]
        for take in range(min(available, left), -1, -1):
            yield from walk(index + 1, left - take, chosen + (tile,) * take)

    return walk(0, size, ())
