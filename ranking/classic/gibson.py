"""Scrabble's Gibson rule in a Swiss round, within FIDE's absolute criteria.

A leader who has clinched first place — more wins than the second's plus the rounds left,
this one included — is "Gibsonized" (as in TSH): it meets the highest-ranked player it has
not met who can no longer reach the second's wins, else the lowest-ranked player it has not
met, and the division's system pairs everyone else.

The Gibson board is a pairing like any other: it must keep C.04.1 f and g (no colour
difference beyond ±2, no colour three times running; topscorers excepted in the last
round, C.04.3 A.7) and leave a rest the system can pair. Each choice is tried in order, the
preferred colours first (the one who moved first less often moves first), then the other
way round; when none works the round is paired without the Gibson rule and the note says
so (``gibson_round``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from fractions import Fraction

from ranking.classic.engines import EngineUnavailable, PairingError
from ranking.classic.pairing_rules import Pair, check_pairing
from ranking.classic.standings import Board, StandingLine
from ranking.classic.trf import Trf


def gibson_choices(lines: Sequence[StandingLine], boards: Sequence[Board], *, rounds: int,
                   number: int) -> tuple[int, list[Pair]]:
    """The leader and the Gibson boards to try for round ``number`` of ``rounds``, best
    first; (0, []) when nobody has clinched first place. ``lines``: the standings after the
    previous round of the players to be paired, best first; ``boards``: every board so far."""
    if len(lines) < 3:
        return 0, []
    leader, second = lines[0], lines[1]
    left = rounds - number + 1
    if leader.wins - second.wins <= left:
        return 0, []
    met = {b.second if b.first == leader.number else b.first for b in boards
           if leader.number in (b.first, b.second)}
    candidates = [line for line in lines[1:] if line.number not in met]
    out_of_it = [line for line in candidates if line.wins + left < second.wins]
    opponents = out_of_it + [line for line in candidates[-1:] if line not in out_of_it]
    choices = []
    for opponent in opponents:
        leader_first = leader.firsts <= opponent.firsts
        preferred = Pair(leader.number, opponent.number) if leader_first else Pair(opponent.number, leader.number)
        choices += [preferred, Pair(preferred.second, preferred.first)]
    return leader.number, choices


def gibson_round(trf: Trf, leader: int, choices: Sequence[Pair], pair_rest: Callable[[Trf], list[Pair]]
                 ) -> tuple[list[Pair], list[str], Pair | None]:
    """The round of ``trf`` with the first of ``choices`` that keeps the absolute rules and
    leaves a rest ``pair_rest`` can pair (``pair_rest`` pairs a TRF whose ``absent`` names
    the Gibson board's players). Returns (pairs, notes for the round, the Gibson board or
    None). Without a workable choice: ``pair_rest(trf)``, the whole round without Gibson,
    and a note saying why. ``PairingError`` from that last call propagates."""
    if not choices:
        return pair_rest(trf), [], None
    for choice in choices:
        if check_pairing(trf, [choice], partial=True):
            continue                                      # C.04.1 f, g, or met before
        try:
            rest = pair_rest(replace(trf, absent=trf.absent | {choice.first, choice.second}))
        except EngineUnavailable:
            raise
        except PairingError:
            continue
        pairs = [choice, *rest]
        if check_pairing(trf, pairs):
            continue
        return pairs, [f"regla Gibson: {choice.first}-{choice.second} (primer puesto asegurado)"], choice
    note = (f"regla Gibson no aplicada: ningún rival posible del líder ({leader}) cumple las reglas absolutas "
            "(C.04.1) dejando emparejable al resto; ronda emparejada sin ella")
    return pair_rest(trf), [note], None


def gibson_problems(trf: Trf, number: int, board: tuple[int, int]) -> list[str]:
    """Why the Gibson board ``board`` (first, second) that ``trf`` records for round
    ``number`` (``XXG``) is not one the rule of this module gives; empty when it holds.

    Checked from the file alone, after round ``number`` − 1, among the players paired in
    round ``number``: the file names the number of rounds (``XXR``: the rounds left decide);
    one of the two had clinched first place — more points (wins) than the second's plus the
    rounds left, this one included; the two had not met; the opponent is one who can no
    longer reach the second's points, or else the lowest placed of those the leader has not
    met. A TRF holds no spreads, so among several eligible opponents the order (the highest
    placed first, by spread) is not checked, nor the fallback when the preferred ones break
    C.04.1 (the absolute rules are checked on the whole round, ``pairing_rules``)."""
    if trf.total_rounds is None:
        return ["el archivo no dice cuántas rondas tiene el torneo (XXR): no se sabe si el primer puesto "
                "estaba asegurado"]
    active = {p.number: p.points(number - 1) for p in trf.players
              if len(p.rounds) >= number and (p.rounds[number - 1].opponent or p.rounds[number - 1].result == "U")}
    first, second = board
    if first not in active or second not in active:
        return [f"el tablero {first}-{second} no se jugó en la ronda {number}"]
    if len(active) < 3:
        return ["con menos de tres jugadores no hay regla Gibson"]
    left = trf.total_rounds - number + 1
    leader, opponent = (first, second) if active[first] >= active[second] else (second, first)
    runner_up = max(points for player, points in active.items() if player != leader)
    if active[leader] - runner_up <= left:
        return [f"el jugador {leader} no tenía asegurado el primer puesto antes de la ronda {number}: "
                f"{_shown(active[leader])} victorias frente a {_shown(runner_up)} del segundo con "
                f"{left} rondas por jugar (hacen falta más victorias que el segundo más las rondas que quedan)"]
    met = {cell.opponent for cell in trf.player(leader).rounds[:number - 1] if cell.opponent}
    if opponent in met:
        return [f"el jugador {opponent} ya se había enfrentado al líder ({leader})"]
    candidates = {player: points for player, points in active.items() if player != leader and player not in met}
    if active[opponent] + left < runner_up or active[opponent] == min(candidates.values()):
        return []
    return [f"el jugador {opponent} aún podía alcanzar el segundo puesto ({_shown(active[opponent])} victorias "
            f"y {left} rondas por jugar, frente a {_shown(runner_up)}) y no era el último de los que no se "
            f"habían enfrentado al líder ({leader})"]


def _shown(points: Fraction) -> str:
    """Points as a Spanish reader writes them: ``3``, ``2,5``."""
    return str(points.numerator) if points.denominator == 1 else format(float(points), "g").replace(".", ",")
