"""One prepared round on the engine (III.12, III.15, III.17, III.19): ``apply_rack`` puts a
prepared rack on a ``duplicate.rules.game.Game`` — drawn from the bag as the seed gives it, or
set as a judge's rack — and ``apply_master`` plays its master, which must be one of the
rack's moves of top score at the recorded place and score what the file says.

The checker (``duplicate.prepared.check``), the generator from a record
(``duplicate.prepared.generation``), the ELIOT import and the tournament service use
these alike, so they agree. A round the engine does not reproduce raises
``PreparedMismatch`` naming it.
"""

from __future__ import annotations

from dataclasses import dataclass

from duplicate.prepared.file import PreparedError, PreparedRound
from duplicate.rules.game import Game
from duplicate.rules.game_record import GameError, PendingRound, RoundRecord
from duplicate.rules.notation import SlipError, parse_move
from duplicate.rules.rack import RackError, rack_text

__all__ = ["PreparedMismatch", "RackStep", "apply_master", "apply_rack"]


class PreparedMismatch(PreparedError):
    """A prepared round the engine does not reproduce: its rack is not what the bag gives,
    its master is not a top of its rack, or a figure differs. ``round`` is its number."""

    def __init__(self, message: str, round_number: int) -> None:
        super().__init__(message)
        self.round = round_number


@dataclass(frozen=True)
class RackStep:
    """How ``apply_rack`` put a prepared rack on the engine: ``pending`` the round, ``typed``
    True when set as a judge's rack (``Game.set_rack``), ``redraw`` its leftover went back."""

    pending: PendingRound
    typed: bool
    redraw: bool


def apply_rack(engine: Game, prepared: PreparedRound) -> RackStep:
    """Put the rack of ``prepared`` on ``engine`` (no rack pending, the round's number
    next): drawn from the bag when ``prepared.drawn`` (III.12, III.17, III.19 — it must be
    exactly the rack and redraws the seed gives), else as a judge's rack (its tiles must
    be the leftover and tiles in the bag; ``redraw`` when the leftover went back, III.19).
    Raises ``PreparedMismatch`` naming the round when the engine gives another rack (the
    engine then has the drawn rack pending: discard it)."""
    number = prepared.number
    if engine.over or engine.round_number != number:
        where = "ha terminado" if engine.over else f"va por la ronda {engine.round_number}"
        raise PreparedMismatch(f"ronda {number}: la partida {where}", number)
    if prepared.drawn:
        pending = engine.draw()
        if pending is None:
            raise PreparedMismatch(f"ronda {number}: la bolsa no da ningún atril válido ({engine.end_reason}), "
                                   f"no {prepared.rack}", number)
        if pending.rack.text != prepared.rack or pending.redraws != prepared.redraws:
            got = " → ".join([*(redraw.rack for redraw in pending.redraws), pending.rack.text])
            want = " → ".join([*(redraw.rack for redraw in prepared.redraws), prepared.rack])
            raise PreparedMismatch(f"ronda {number}: el atril {want} no es el que saca la bolsa con la semilla "
                                   f"({got}; III.12, III.17, III.19)", number)
        return RackStep(pending, typed=False, redraw=False)
    redraw = prepared.leftover != rack_text(engine.leftover, engine.alphabet)
    try:
        pending = engine.set_rack(prepared.rack, redraw=redraw)
    except (RackError, GameError) as error:
        raise PreparedMismatch(f"ronda {number}: el atril {prepared.rack} no sale de la bolsa: {error}", number) from None
    if pending.rack.text != prepared.rack:
        raise PreparedMismatch(f"ronda {number}: el atril {prepared.rack} se lee como {pending.rack.shown}", number)
    return RackStep(pending, typed=True, redraw=redraw)


def apply_master(engine: Game, prepared: PreparedRound) -> RoundRecord:
    """Place the master of ``prepared`` on ``engine`` (its rack pending): it must be one of
    the rack's moves of top score (III.15), at the recorded place among them, and score
    what the file says (its cumulative and tiles placed too). Raises ``PreparedMismatch``
    naming the round otherwise (the engine is then unchanged)."""
    number = prepared.number
    try:
        move = parse_move(prepared.master, engine.alphabet, oriented=False)
    except SlipError as error:
        raise PreparedMismatch(f"ronda {number}: la maestra {prepared.master!r} no se lee: {error}", number) from None
    pending = engine.pending
    if pending is not None and not pending.ranked:
        raise PreparedMismatch(f"ronda {number}: con el atril {pending.rack.shown} no hay ninguna jugada válida", number)
    try:
        record = engine.play(move)
    except GameError as error:
        raise PreparedMismatch(f"ronda {number}: la maestra {prepared.master} no vale: {error} (III.15)", number) from None
    differences = [(what, got, want) for what, got, want in (
        ("puntos", record.score, prepared.score), ("acumulado", record.cumulative, prepared.cumulative),
        ("puesto entre las jugadas de máxima puntuación", record.master_rank, prepared.rank),
        ("jugadas de máxima puntuación", record.equal_tops, prepared.equal_tops),
        ("fichas colocadas", record.tiles_placed, prepared.tiles_placed)) if got != want]
    if differences:
        engine.undo_master()
        what, got, want = differences[0]
        raise PreparedMismatch(f"ronda {number}: la maestra {prepared.master} da {got} ({what}), no {want}", number)
    return record

