"""Rebuilding a game's engine from its events (III.12, III.17, III.19)."""

from __future__ import annotations

from duplicate.record.events import read_event
from duplicate.record.events_play import GameEnded, MasterChosen, MasterUndone, RackDrawn, RackSet, RackWithdrawn
from duplicate.rules.game import Game
from duplicate.service.errors import InconsistentHistory
from duplicate.storage.models import (
    Event,
)


def _apply(engine: Game, event: Event) -> None:
    """Replay one stored game event through the engine, as its typed event; a mismatch
    means a corrupt history (``TournamentError`` naming the event)."""
    try:
        typed = read_event(event.kind, event.payload)
    except ValueError as error:
        raise InconsistentHistory(f"historial incoherente: el evento {event.id} no se puede leer: {error}",
                                  event_id=event.id) from error
    match typed:
        case RackDrawn(rack=rack):
            pending = engine.draw()
            if pending is None or pending.rack.text != rack:
                raise InconsistentHistory(f"historial incoherente: el evento {event.id} sacó {rack}, "
                                      f"la repetición da {pending.rack.text if pending else 'fin de partida'}",
                                      event_id=event.id)
        case RackSet(text=text, redraw=redraw):
            engine.set_rack(text, redraw=redraw)
        case RackWithdrawn():
            engine.withdraw_rack()
        case MasterChosen(master=master, score=score, rank=rank, equal_tops=equal_tops):
            # The recorded master is checked and placed; the moves are not generated again.
            engine.play_recorded(master, score=score, rank=rank, equal_tops=equal_tops, reason=event.reason or "")
        case MasterUndone():
            engine.undo_master()
        case GameEnded(reason=reason) if not engine.over:
            engine.end(reason)
        case _:
            pass
