"""A realistic classic event, simulated end to end through the services (issue 16).

``simulate_classic`` creates a tournament with ``players`` players of random strength,
a division, and plays every round: the judge pairs it, each board's two scores are drawn
from the players' strengths (a Scrabble game: about 300–500 points each, the stronger
player more often ahead) and entered from an assistant's station, some boards typed again
by a second station to confirm them; a player asks for a bye now and then and one
withdraws halfway. Everything goes through ``TournamentService``/``ClassicService`` with
real credentials, as at a venue.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from duplicate.service.errors import TournamentError
from duplicate.service.facade import TournamentService
from ranking.classic.service import ClassicService
from ranking.classic.views import DivisionSettings

JUDGE_NAME = "juez"


@dataclass(frozen=True)
class ClassicSimulation:
    """What the simulation did: the tournament id, rounds played, boards entered,
    confirmations typed and byes asked for."""

    tournament_id: int
    rounds: int
    boards: int
    confirmations: int
    byes_asked: int


def simulate_classic(service: TournamentService, *, players: int, rounds: int, seed: int = 1,
                     system: str = "dutch", judge_pin: str, assistant_pin: str,
                     name: str = "Torneo clásico simulado", settings: DivisionSettings | None = None
                     ) -> ClassicSimulation:
    """Run a whole classic event in ``service``'s database (see the module docstring).
    ``judge_pin``/``assistant_pin``: the credentials created for the judge and for the one
    assistant (who enters every table). Raises what the services raise."""
    rng = random.Random(seed)
    judge = service.with_pin(judge_pin)
    tournament_id = judge.create_tournament(name, judge_pin=judge_pin, judge_name=JUDGE_NAME)
    strength = {}
    for index in range(1, players + 1):
        judge.add_player(f"Jugador {index:03d}", club=f"Club {rng.randint(1, max(1, players // 8))}",
                         tournament_id=tournament_id)
        strength[f"Jugador {index:03d}"] = rng.gauss(0, 1)
    judge.set_assistant_range("auxiliar", 1, players, tournament_id=tournament_id)
    judge.set_pin("assistant", assistant_pin, name="auxiliar", tournament_id=tournament_id)
    classic = ClassicService.like(judge)
    assistant = ClassicService.like(service.with_pin(assistant_pin))
    classic.create_division(rounds=rounds, system=system, settings=settings, tournament_id=tournament_id)
    numbers = {name: number for number, name, *_ in classic.starting_list(tournament_id=tournament_id)}
    boards_entered = confirmations = byes = 0
    withdrawn = False
    for round_number in range(1, rounds + 1):
        if round_number < rounds and rng.random() < 0.5:
            asking = rng.choice(list(numbers.values()))
            try:
                classic.request_bye(asking, round_number, tournament_id=tournament_id)   # C.04.2 D.4: 0
                byes += 1
            except TournamentError:          # refused (a round paired, a bye taken): no bye then
                pass
        boards = classic.pair_round(tournament_id=tournament_id)
        for board in boards:
            if board.table is None or board.forfeit is not None:
                continue
            first = 380 + 35 * strength[board.first_name] + rng.gauss(0, 55)
            second = 380 + 35 * strength[board.second_name] + rng.gauss(0, 55) - 8   # moving second costs a little
            scores = (max(120, round(first)), max(120, round(second)))
            assistant.enter_result(round_number, board.table, *scores, tournament_id=tournament_id)
            boards_entered += 1
            if rng.random() < 0.1:
                classic.enter_result(round_number, board.table, *scores, tournament_id=tournament_id)
                confirmations += 1
        if not withdrawn and round_number == rounds // 2:
            leaving = rng.choice(list(numbers.values()))
            classic.withdraw(leaving, reason="abandona por enfermedad", tournament_id=tournament_id)
            withdrawn = True
    return ClassicSimulation(tournament_id, rounds, boards_entered, confirmations, byes)
