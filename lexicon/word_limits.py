"""The lengths of the words a lexicon keeps, in tiles (a digraph CH, LL, RR is one tile).

``MIN_TILES``: no word of one tile is ever played (the rules play words of two letters or
more); ``MAX_TILES``: the board is 15 squares wide, so no longer word can be placed. Both
the word list reader (``lexicon.lexicon``) and its fast path (``lexicon.fast_build``) skip
words outside these limits; the move generator's reach masks have one item per length.
"""

from __future__ import annotations

MIN_TILES, MAX_TILES = 2, 15
"""Word lengths kept, in tiles."""
