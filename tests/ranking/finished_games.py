"""Finished games for the EloDI tests, built as a tournament builds them: the game is
created and seated by ``TournamentService.create_game``, each round is the events a
round's play appends (the judge's rack, the master, one slip per player, the round
closed), then the game's end, each applied by the projector (``project``: the only
writer of the tables, issue 34 §1), and the game is published through
``TournamentService.publish``. The move generator is not involved: the slips carry the
scores the test wants (all of a player's points in round 1), as the events of a real
game carry the scores the engine computed.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import select

from duplicate.record.event_kinds import TournamentEvent
from duplicate.record.events_play import GameEnded, MasterChosen, RackSet
from duplicate.record.events_slips import RoundClosed, SlipCorrected, SlipEntered
from duplicate.service.facade import TournamentService
from duplicate.storage.models import Event, GameRow, Slip
from duplicate.storage.projector import project

__all__ = ["correct_score", "write_game"]

_RACK = "CASAOSL"
_ROWS = "ACEGIKMO"


def _master(round_number: int) -> str:
    """A master for each round on squares no earlier round took (the board before each
    round is the one the projector builds from the masters before it)."""
    row = _ROWS[(round_number - 1) % len(_ROWS)]
    column = 1 if round_number <= len(_ROWS) else 9
    return f"{row}{column}-CASA"


def _append(service: TournamentService, tournament_id: int, game_id: int, typed: TournamentEvent,
            round_number: int | None = None) -> None:
    """Append ``typed`` to the tournament's log as the judge's, applied by the projector."""
    with service.db.write() as session:
        project(session, Event(tournament_id=tournament_id, game_id=game_id, round_number=round_number,
                               kind=typed.KIND.value, payload=typed.payload(), station="test", arbiter="juez",
                               role="judge", reason="", created_at=datetime.now(UTC)), typed)


def _game_id(service: TournamentService, tournament_id: int, number: int) -> int:
    with service.db.read() as session:
        return session.scalars(select(GameRow.id).where(GameRow.tournament_id == tournament_id,
                                                        GameRow.number == number)).one()


def write_game(service: TournamentService, tournament_id: int, totals: dict[str, int], *, rounds: int = 12,
               final: bool = True) -> int:
    """A finished game of ``rounds`` rounds whose players (by name, all entered in the
    tournament) end with ``totals`` (all points in round 1), published final (or
    provisional). Returns the game number."""
    number = service.create_game(tournament_id=tournament_id, rounds=rounds, seed=1)
    game_id = _game_id(service, tournament_id, number)
    seats = {player.name: (table, entry.id)
             for table, entry, player in service.seats(number, tournament_id=tournament_id)}
    assert set(seats) == set(totals), f"seated {sorted(seats)}, totals for {sorted(totals)}"
    for round_number in range(1, rounds + 1):
        master = _master(round_number)
        _append(service, tournament_id, game_id, RackSet(round_number, _RACK, [], _RACK, False, top_score=500,
                                                         tops=[[master, 500, ""]], moves=1))
        _append(service, tournament_id, game_id, MasterChosen(round_number, master, 500, 1, 500 * round_number),
                round_number)
        for name, total in totals.items():
            table, entry = seats[name]
            _append(service, tournament_id, game_id,
                    SlipEntered(table, entry, master, "valid", total if round_number == 1 else 0, master, ""),
                    round_number)
        _append(service, tournament_id, game_id, RoundClosed(round_number), round_number)
    _append(service, tournament_id, game_id, GameEnded("rondas"))
    service.publish(number, final=final, tournament_id=tournament_id)
    return number


def correct_score(service: TournamentService, tournament_id: int, number: int, name: str, score: int) -> None:
    """The judge's correction of ``name``'s round 1 slip of game ``number`` to ``score``
    points (``SlipCorrected``, applied by the projector), the game being reopened."""
    game_id = _game_id(service, tournament_id, number)
    table, entry = next((table, entry.id) for table, entry, player
                        in service.seats(number, tournament_id=tournament_id) if player.name == name)
    with service.db.read() as session:
        slip = session.scalars(select(Slip).where(Slip.game_id == game_id, Slip.round_number == 1,
                                                  Slip.entry_id == entry)).one()
        before = {"text": slip.text, "move": slip.move, "status": slip.status, "score": slip.score,
                  "reason": slip.reason}
    after = {**before, "score": score}
    _append(service, tournament_id, game_id, SlipCorrected(table, entry, before, after), 1)
