"""The initial order of a classic division's players (FIDE C.04.2 B).

Before the first round the players are ordered by, in this order: (a) strength — the rating,
highest first (no rating counts as 0: last); (b) FIDE title, GM, IM, WGM, FM, WIM, CM, WFM,
WCM, then none; (c) name, alphabetically in Spanish (``duplicate.collation``: accents ignored,
Ñ after N). Starting number 1 is the first of that order.
"""

from __future__ import annotations

from duplicate.collation import spanish_sort_key

TITLES = ("GM", "IM", "WGM", "FM", "WIM", "CM", "WFM", "WCM")
RATING_RANGE = range(0, 4001)


def checked_title(title: str) -> str:
    """``title`` as stored: one of ``TITLES`` (any case, spaces ignored) or empty. Raises
    ``ValueError`` (Spanish) naming the titles expected."""
    value = title.strip().upper()
    if value and value not in TITLES:
        raise ValueError(f"título «{title.strip()}» desconocido; se esperaba uno de {', '.join(TITLES)} o ninguno")
    return value


def checked_rating(rating: int) -> int:
    """``rating`` when it is 0 (none) to 4000; ``ValueError`` (Spanish) otherwise."""
    if rating not in RATING_RANGE:
        raise ValueError(f"rating {rating} fuera de lo posible (de 0 a 4000; 0 si no tiene)")
    return rating


def initial_order_key(rating: int, title: str, name: str) -> tuple[object, ...]:
    """The sort key of a player in the initial order (C.04.2 B.2: rating, title, name)."""
    rank = TITLES.index(title) if title in TITLES else len(TITLES)
    return (-rating, rank, spanish_sort_key(name))
