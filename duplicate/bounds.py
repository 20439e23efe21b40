"""Numbers people give: the range of each, checked where it enters (issue 26 §3).

Every number a front end passes to the tournament service — ids, game, round and table
numbers, seeds, seconds, bonus values — fits the column it is stored in: ``INTEGER`` is
32 bits on PostgreSQL (``DB_INT_MAX``, 2³¹ − 1), so a larger id is refused with a Spanish
message instead of a driver's traceback (SQLite would take up to 2⁶³ − 1, PostgreSQL
not). ``checked_int`` checks a number; ``whole_number`` reads one written in a file
(digits 0–9 only: ``²`` is not 2, and never more than ``DIGITS_MAX`` digits, so no
4,300-digit conversion limit is met); ``table_span`` reads an assistant's tables typed
``A-B`` the same way (issue 36 §5: ``1-99999999999`` was stored on SQLite). The command
line declares the same ranges with Click types (``tui.cli.options``).
"""

from __future__ import annotations

from duplicate.texts import shown

__all__ = ["BONUS_MAX", "DB_INT_MAX", "DIGITS_MAX", "NumberError", "ROUND_SECONDS_MAX", "SEED_MAX",
           "checked_int", "table_span", "whole_number"]

DB_INT_MAX = 2**31 - 1
"""The largest value an ``INTEGER`` column holds on every supported database."""

SEED_MAX = 2**31 - 1
"""The largest seed of a game's bag (stored in an ``INTEGER`` column)."""

ROUND_SECONDS_MAX = 3600
"""The longest round clock accepted, in seconds (III.13 sets 3 minutes; an hour is generous)."""

BONUS_MAX = 1000
"""The largest bonus per round a tournament may set (III.24 sets 10)."""

DIGITS_MAX = 10
"""The most digits a number written in a file may have (``DB_INT_MAX`` has 10)."""


class NumberError(ValueError):
    """A number out of its range or not a whole number; the message (Spanish) names what
    it is and the range. ``what``, ``minimum``, ``maximum`` say which check failed."""

    def __init__(self, message: str, *, what: str, minimum: int, maximum: int) -> None:
        super().__init__(message)
        self.what = what
        self.minimum = minimum
        self.maximum = maximum


def checked_int(value: object, what: str, *, minimum: int = 1, maximum: int = DB_INT_MAX) -> int:
    """``value`` when it is an ``int`` (not a ``bool``) from ``minimum`` to ``maximum``,
    else ``NumberError`` naming ``what`` (e.g. ``"el número de partida"``)."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise NumberError(f"{what}: se esperaba un número entero, no {type(value).__name__}",
                          what=what, minimum=minimum, maximum=maximum)
    if not minimum <= value <= maximum:
        told = str(value) if -10**20 < value < 10**20 else "un número de más de 20 cifras"
        raise NumberError(f"{what}: {told} no está entre {minimum} y {maximum}",
                          what=what, minimum=minimum, maximum=maximum)
    return value


def whole_number(text: str, what: str, *, minimum: int = 1, maximum: int = DB_INT_MAX) -> int:
    """The number written ``text`` (surrounding spaces allowed; digits 0–9 only, at most
    ``DIGITS_MAX`` of them) checked by ``checked_int``; else ``NumberError``."""
    digits = text.strip()
    if not digits or len(digits) > DIGITS_MAX or not all("0" <= char <= "9" for char in digits):
        raise NumberError(f"{what}: se esperaba un número (cifras 0–9) entre {minimum} y {maximum}, no "
                          f"{shown(digits, 20)}",
                          what=what, minimum=minimum, maximum=maximum)
    return checked_int(int(digits), what, minimum=minimum, maximum=maximum)


def table_span(text: str, what: str = "el tramo de mesas") -> tuple[int, int]:
    """An assistant's tables typed ``A-B`` (``A–B``, or one table ``A``) as ``(A, B)``: two
    ``whole_number`` tables from 1 to ``DB_INT_MAX``, ``B`` not less than ``A``; else
    ``NumberError`` naming ``what``, the text quoted shortened (issue 36 §5)."""
    first, dash, last = text.strip().replace("–", "-").partition("-")
    expected = f"{what} {shown(text.strip(), 20)}: se espera A-B (p. ej. 1-10), con mesas de 1 a {DB_INT_MAX}"
    try:
        lowest = whole_number(first, what)
        span = (lowest, whole_number(last, what) if dash else lowest)
    except NumberError:
        raise NumberError(expected, what=what, minimum=1, maximum=DB_INT_MAX) from None
    if span[1] < span[0]:
        raise NumberError(f"{what} {shown(text.strip(), 20)}: la última mesa es menor que la primera; se espera A-B "
                          "(p. ej. 1-10)", what=what, minimum=1, maximum=DB_INT_MAX)
    return span
