"""Rebuilding a game's engine from its events (III.12, III.17, III.19)."""

from __future__ import annotations

from duplicate.game import Game
from duplicate.models import (
    Event,
)
from duplicate.notation import parse_move
from duplicate.service.errors import TournamentError
from duplicate.service.events import EventKind


def _apply(engine: Game, event: Event) -> None:
    """Replay one game event through the engine; a mismatch means a corrupt history."""
    payload = event.payload
    if event.kind == EventKind.RACK_DRAWN.value:
        pending = engine.draw()
        if pending is None or pending.rack.text != payload["rack"]:
            raise TournamentError(f"historial incoherente: el evento {event.id} sacó {payload['rack']}, "
                                  f"la repetición da {pending.rack.text if pending else 'fin de partida'}")
    elif event.kind == EventKind.RACK_SET.value:
        engine.set_rack(payload["text"], redraw=payload.get("redraw", False))
    elif event.kind == EventKind.RACK_WITHDRAWN.value:
        engine.withdraw_rack()
    elif event.kind == EventKind.MASTER_CHOSEN.value:
        engine.play(parse_move(payload["master"], engine.alphabet))
    elif event.kind == EventKind.GAME_ENDED.value and not engine.over:
        engine.end(payload.get("reason"))
