"""The numbers the FISE reglamento fixes, in one place, each with its section.

Every module that applies one of these rules imports the constant from here; nothing
else in the code base writes the number again (``architecture.md``, "Rules as data").
Sections refer to ``reglamento-duplicada-fise.txt``.
"""

from __future__ import annotations

RACK_SIZE = 7
"""Tiles on a full rack (III.12)."""

BINGO_BONUS = 50
"""Points for playing all seven tiles of the rack, a *scrabble* (I.2)."""

ROUND_SECONDS = 180
"""Length of a round in official duplicate games: 3 minutes (III.13)."""

CALL_SECONDS = (60, 30)
"""Remaining seconds at which the announcer warns the players (III.13)."""

ALCEN_SECONDS = 5
"""Remaining seconds at which the announcer calls «ALCEN» (III.13)."""

FIRST_ONE_AND_ONE_ROUND = 16
"""From this round on a valid rack needs one vowel and one consonant (III.12)."""

UNDER_SIX_LIMIT = 6
"""Through round 15 a rack needs fewer than this many vowels, and of consonants (III.12)."""

AUTOMATIC_MASTER_BONUS = 10
"""III.24, automatic management: points for the only player who equals the program's top score."""

AUTOMATIC_BEST_BONUS = 5
"""III.24, automatic management: points for the only best player when nobody equals the top score."""

MANUAL_BONUS_VALUES = (5, 10)
"""III.24, manual management: the values the judge may choose."""

BONUS_LIMIT = 25
"""III.24: bonuses should not exceed this value."""

FEW_PLAYERS = 10
"""III.24: bonuses are advised against with this many players or fewer."""

PARTIAL_STANDINGS_EVERY = 3
"""Rounds between partial standings shown during a game (FISE practice, III.26)."""

RATED_GAME_MIN_ROUNDS = 12
"""Rounds a game needs to count for EloDI (section V; ``elodi.md``)."""
