"""The hard rules every Swiss pairing must keep, checked on whatever an engine returns.

The engines are trusted for *which* legal pairing is best; these absolute rules are checked
independently on each pairing before anyone sees it (FIDE C.04.1 and C.04.3, criteria C1–C3):

* every player due to be paired is paired exactly once; nobody asked not to be (``0000 - H``)
  or withdrawn is paired (C.04.2);
* two players do not meet twice (C.04.1 b) — a game not played (forfeit) does not count;
* at most one pairing-allocated bye, and only to a player who has had neither that bye nor a
  forfeit win (C.04.1 c, d), unless the organiser allows more byes;
* colours (first/second to move in Scrabble): no player's difference between games played
  first and second passes ±2, and nobody gets the same colour three times running
  (C.04.1 f, g), except topscorers — over half the maximum score — in the last round
  (C.04.3 A.7, C3).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from ranking.classic.trf import PLAYED, Trf


@dataclass(frozen=True, order=True)
class Pair:
    """A board: ``first`` moves first (white), ``second`` moves second; ``second == 0`` is the
    pairing-allocated bye of ``first``."""

    first: int
    second: int

    @property
    def is_bye(self) -> bool:
        return self.second == 0

    def text(self) -> str:
        """``"WHITE BLACK"`` as the bbpPairings/JaVaFo output writes it."""
        return f"{self.first} {self.second}"


def parse_pairs(text: str) -> list[tuple[int, int]]:
    """A judge's pairing typed as ``"1-8, 2-7, 3-6, 4-0"`` (starting numbers, first moves
    first, ``0`` the bye; commas, semicolons or spaces between pairs). Raises ``ValueError``
    (Spanish) naming the piece that is not ``FIRST-SECOND``."""
    from ranking.classic.trf import is_number

    pairs = []
    for item in text.replace(";", ",").replace(" ", ",").split(","):
        if not item.strip():
            continue
        first, _, second = item.strip().partition("-")
        if not is_number(first.strip()) or not is_number(second.strip()):
            raise ValueError(f"«{item.strip()}»: se esperaba PRIMERO-SEGUNDO (números iniciales; 0 = descanso)")
        pairs.append((int(first), int(second)))
    return pairs


def colours_played(trf: Trf, number: int) -> list[str]:
    """The colours of ``number``'s games played over the board, in order."""
    return [cell.colour for cell in trf.player(number).rounds if cell.result in PLAYED and cell.opponent]


def to_be_paired(trf: Trf) -> list[int]:
    """Starting numbers of the players the next round pairs: all but those whose next-round
    cell already says they are not paired and those ``XXZ`` names."""
    played = trf.rounds_played
    return [p.number for p in trf.players
            if p.number not in trf.absent and not (len(p.rounds) > played and p.rounds[played].unpaired)]


def check_pairing(trf: Trf, pairs: Sequence[Pair], *, byes_allowed: int = 1, partial: bool = False) -> list[str]:
    """The rules ``pairs`` (the next round of ``trf``) break, as Spanish sentences; empty when
    it keeps them all. ``byes_allowed``: how many pairing-allocated byes a player may get;
    ``partial``: ``pairs`` are some boards of the round (a Gibson board): players left out
    are not a problem."""
    problems: list[str] = []
    due = set(to_be_paired(trf))
    seen: dict[int, int] = {}
    for pair in pairs:
        for number in (pair.first, pair.second):
            if number == 0:
                continue
            seen[number] = seen.get(number, 0) + 1
    for number in sorted(seen):
        if number not in {p.number for p in trf.players}:
            problems.append(f"el jugador {number} no existe")
        elif number not in due:
            problems.append(f"el jugador {number} no debía emparejarse esta ronda (descanso pedido o retirado)")
        if seen[number] > 1:
            problems.append(f"el jugador {number} aparece {seen[number]} veces")
    for number in sorted(due - seen.keys()) if not partial else ():
        problems.append(f"el jugador {number} se ha quedado sin emparejar")
    met = {(p.number, cell.opponent) for p in trf.players for cell in p.rounds
           if cell.opponent and cell.result in PLAYED}
    byes = [pair for pair in pairs if pair.is_bye]
    if len(byes) > 1:
        problems.append(f"hay {len(byes)} descansos; como mucho uno por ronda")
    for pair in pairs:
        if pair.is_bye:
            earlier = sum(cell.bars_the_bye for cell in trf.player(pair.first).rounds) \
                if pair.first in due else 0
            if earlier >= byes_allowed:
                problems.append(f"el jugador {pair.first} ya tuvo el descanso o ganó por incomparecencia "
                                f"(C.04.1 d)")
        elif (pair.first, pair.second) in met:
            problems.append(f"{pair.first} y {pair.second} ya se enfrentaron (C.04.1 b)")
    problems += _colour_problems(trf, [p for p in pairs if not p.is_bye and p.first in due and p.second in due])
    return problems


def _colour_problems(trf: Trf, pairs: Sequence[Pair]) -> list[str]:
    last_round = trf.total_rounds is not None and trf.rounds_played + 1 >= trf.total_rounds
    maximum = Fraction(trf.rounds_played)
    problems = []
    for pair in pairs:
        for number, colour in ((pair.first, "w"), (pair.second, "b")):
            if last_round and trf.player(number).points() * 2 > maximum:
                continue   # a topscorer in the last round (C.04.3 A.7)
            history = colours_played(trf, number) + [colour]
            difference = history.count("w") - history.count("b")
            if abs(difference) > 2:
                problems.append(f"el jugador {number} quedaría con {abs(difference)} partidas más "
                                f"{'empezando' if difference > 0 else 'jugando segundo'} (C.04.1 f)")
            if len(history) >= 3 and len(set(history[-3:])) == 1:
                problems.append(f"el jugador {number} {'empezaría' if colour == 'w' else 'jugaría segundo'} "
                                f"tres veces seguidas (C.04.1 g)")
    return problems
