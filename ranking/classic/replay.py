"""Re-pairing a whole tournament round by round: is each round the one the system gives?

``check_tournament`` cuts the history before each completed round (``Trf.for_round``: later
cells dropped, byes asked for in that round kept, the same-club pairs kept apart only in the
rounds that kept them apart, a Gibson board fixed once it is checked against the Gibson rule,
``gibson.gibson_problems``), pairs it with the chosen system and compares
with the round the file holds. It stops at the first round that differs and says why: the
pairs that differ and any absolute rule the file's round breaks (``pairing_rules``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ranking.classic.engines import PairingError, PairingSystem, pair_next_round
from ranking.classic.gibson import gibson_problems
from ranking.classic.pairing_rules import Pair, check_pairing
from ranking.classic.trf import Trf


@dataclass(frozen=True)
class RoundDifference:
    """The first round of a file that is not what the system gives: its ``number``, the
    ``expected`` pairs (None when the system could not pair it), the file's ``found`` pairs
    and ``reasons`` (Spanish sentences)."""

    number: int
    expected: list[Pair] | None
    found: list[Pair]
    reasons: list[str]


def pairs_of_round(trf: Trf, number: int) -> list[Pair]:
    """The pairs of round ``number`` (1-based) as the file records them: the player with
    ``w`` first (the lower starting number first when no colour is recorded, e.g. some
    forfeits), the pairing-allocated bye (``U``) as ``Pair(n, 0)``; players not paired
    (``0000 - H``…) are not pairs."""
    pairs = set()
    for player in trf.players:
        if len(player.rounds) < number:
            continue
        cell = player.rounds[number - 1]
        if cell.opponent:
            if cell.colour == "w" or (cell.colour == "-" and player.number < cell.opponent):
                pairs.add(Pair(player.number, cell.opponent))
        elif cell.result == "U":
            pairs.add(Pair(player.number, 0))
    return sorted(pairs)


def check_tournament(trf: Trf, system: PairingSystem) -> tuple[int, RoundDifference | None]:
    """Re-pair every completed round of ``trf`` from the earlier ones with ``system``.

    Returns (rounds checked, the first difference or None). Raises ``EngineUnavailable``
    when the system's engine is not installed."""
    for number in range(1, trf.rounds_played + 1):
        before = trf.for_round(number)
        found = pairs_of_round(trf, number)
        board = trf.gibson_board(number)
        fixed = [Pair(*board)] if board else []
        reasons = check_pairing(replace(before, absent=trf.cut(number - 1).absent), found)
        wrong_gibson = gibson_problems(trf, number, board) if board else []
        if board and wrong_gibson:
            return number - 1, RoundDifference(number, None, found, [
                f"el tablero Gibson {board[0]}-{board[1]} que registra el archivo (XXG) no cumple la regla Gibson: "
                f"{problem}" for problem in wrong_gibson] + reasons)
        try:
            expected = sorted(fixed + pair_next_round(before, system))
        except PairingError as error:
            if type(error) is not PairingError:
                raise
            manual = trf.manual_reason(number)
            said = [f"el juez árbitro la emparejó a mano (C.04.2 A.4/A.5), con el motivo «{manual}» (XXM)"] * (
                manual is not None)
            return number - 1, RoundDifference(number, None, found, [str(error)] + reasons + said)
        if expected != found:
            only_expected = [p.text() for p in expected if p not in found]
            only_found = [p.text() for p in found if p not in expected]
            reasons = [f"el sistema da {', '.join(only_expected) or 'nada más'}; el archivo tiene "
                       f"{', '.join(only_found) or 'nada más'}"] + reasons
            manual = trf.manual_reason(number)
            if manual is not None:
                reasons.append(f"el juez árbitro la emparejó a mano (C.04.2 A.4/A.5), con el motivo «{manual}» (XXM)")
            return number - 1, RoundDifference(number, expected, found, reasons)
    return trf.rounds_played, None
