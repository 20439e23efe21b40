"""Making prepared games (III.15, last paragraph): ``generate`` draws one from a seed —
every rack from the bag (III.12, III.17, III.19), every master the rules' choice among the
equal tops (III.15) — until the agreed rounds are played or the game ends (III.22);
``generate_filtered`` tries other seeds until the organisers' ``QualityFilters`` are met
(bounded attempts, ``FiltersNotMet``); ``from_record`` takes a game already played from a
tournament record (``docs/tournament-record.md``; an annulled master, III.29, refuses it).
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from duplicate.prepared.file import PreparedError, PreparedGame, PreparedRound
from duplicate.prepared.rounds import PreparedMismatch, apply_rack
from duplicate.rules.game import Game
from duplicate.rules.game_record import EndCode, GameError, PendingRound
from duplicate.rules.notation import SlipError, parse_move
from duplicate.rules.rack import RackError, parse_rack_text, rack_text

if TYPE_CHECKING:   # the compiled lexicon loads numpy: annotations only (issue 38)
    from lexicon.lexicon import Lexicon

__all__ = ["DEFAULT_ATTEMPTS", "FiltersNotMet", "QualityFilters", "from_record", "generate", "generate_filtered"]

DEFAULT_ATTEMPTS = 50
"""Seeds ``generate_filtered`` tries before giving up."""


class FiltersNotMet(PreparedError):
    """No seed tried gave a game meeting the quality filters."""


def _no_move_end(pending: PendingRound) -> dict[str, str]:
    return {"code": EndCode.NO_MOVE.value,
            "text": f"con el atril {pending.rack.shown} no hay ninguna jugada válida (III.22)"}


def generate(lexicon: Lexicon, seed: int, rounds: int | None = None, *,
             origin: dict[str, Any] | None = None) -> PreparedGame:
    """A prepared game drawn from ``seed`` with ``lexicon``: every rack drawn by the bag
    (III.12, III.17, III.19) and every master the rules' choice among the equal tops
    (III.15), until ``rounds`` are played or the game ends (III.22: no valid rack; a rack
    with no legal move also ends it here). Raises ``PreparedError`` when not one round
    can be played."""
    engine = Game(lexicon, seed=seed, rounds=rounds)
    end: dict[str, str] | None = None
    while True:
        pending = engine.draw()
        if pending is None:
            break
        if not pending.ranked:
            end = _no_move_end(pending)
            break
        engine.play()
    if engine.end_reason is not None and engine.end_reason.code is not EndCode.ROUNDS_PLAYED:
        end = {"code": engine.end_reason.code.value, "text": engine.end_reason.text}
    if not engine.records:
        raise PreparedError(f"con la semilla {seed} no se puede jugar ni una ronda: {end['text'] if end else ''}")
    return PreparedGame(lexicon.alphabet.name, lexicon.content_hash, lexicon.word_count, seed, rounds,
                        tuple(PreparedRound.of(record, drawn=True) for record in engine.records), end,
                        origin or {"kind": "generated"}).sealed()


@dataclass(frozen=True)
class QualityFilters:
    """What organisers ask of a prepared game: ``min_total`` points at least, between
    ``min_rounds`` and ``max_rounds`` rounds, at least ``min_bingos`` masters placing
    the whole rack. None: no condition."""

    min_total: int | None = None
    min_rounds: int | None = None
    max_rounds: int | None = None
    min_bingos: int | None = None

    def __post_init__(self) -> None:
        if self.min_rounds is not None and self.max_rounds is not None and self.min_rounds > self.max_rounds:
            raise PreparedError(f"el mínimo de rondas ({self.min_rounds}) es mayor que el máximo ({self.max_rounds})")

    def unmet(self, game: PreparedGame) -> list[str]:
        """The conditions ``game`` does not meet (Spanish), empty when it meets all."""
        missing = []
        if self.min_total is not None and game.total < self.min_total:
            missing.append(f"total {game.total} < {self.min_total} puntos")
        if self.min_rounds is not None and len(game.rounds) < self.min_rounds:
            missing.append(f"{len(game.rounds)} rondas < {self.min_rounds}")
        if self.max_rounds is not None and len(game.rounds) > self.max_rounds:
            missing.append(f"{len(game.rounds)} rondas > {self.max_rounds}")
        if self.min_bingos is not None and game.bingos < self.min_bingos:
            missing.append(f"{game.bingos} scrabbles < {self.min_bingos}")
        return missing

    def as_dict(self) -> dict[str, int]:
        return {name: value for name, value in (("min_total", self.min_total), ("min_rounds", self.min_rounds),
                                                ("max_rounds", self.max_rounds), ("min_bingos", self.min_bingos))
                if value is not None}


def generate_filtered(lexicon: Lexicon, seed: int, rounds: int | None, filters: QualityFilters, *,
                      attempts: int = DEFAULT_ATTEMPTS) -> PreparedGame:
    """``generate`` from ``seed``, then from other seeds (drawn from a generator seeded
    with ``seed``: the same call gives the same game) until ``filters`` are met, at most
    ``attempts`` games. The file's ``origin`` records the first seed, the attempt and the
    filters. Raises ``FiltersNotMet`` (Spanish: the filters, the attempts and the best
    game found) when none meets them."""
    if attempts < 1:
        raise PreparedError(f"el número de intentos debe ser al menos 1, no {attempts}")
    seeds = random.Random(seed)
    candidate = seed
    best: tuple[int, PreparedGame] | None = None
    for attempt in range(1, attempts + 1):
        origin = {"kind": "generated", "first_seed": seed, "attempt": attempt, "filters": filters.as_dict()}
        try:
            game = generate(lexicon, candidate, rounds, origin=origin)
        except PreparedError:
            game = None
        if game is not None:
            unmet = filters.unmet(game)
            if not unmet:
                return game
            if best is None or len(unmet) < best[0] or (len(unmet) == best[0] and game.total > best[1].total):
                best = (len(unmet), game)
        candidate = seeds.randrange(10**9)
    shown = ", ".join(f"{name} {value}" for name, value in filters.as_dict().items()) or "ninguno"
    near = ""
    if best is not None:
        near = (f"; la más cercana (semilla {best[1].seed}): {best[1].total} puntos, {len(best[1].rounds)} rondas, "
                f"{best[1].bingos} scrabbles — {', '.join(filters.unmet(best[1]))}")
    raise FiltersNotMet(f"ninguna de las {attempts} partidas generadas cumple los filtros ({shown}){near}: "
                        "suavice los filtros o aumente los intentos (--attempts)")


def _trial_draw(engine: Game) -> PendingRound | None:
    """What ``engine.draw()`` would give now, leaving ``engine`` as it is (drawn on a copy;
    the lexicon and alphabet are shared, not copied)."""
    memo: dict[int, Any] = {id(engine.lexicon): engine.lexicon, id(engine.alphabet): engine.alphabet}
    return copy.deepcopy(engine, memo).draw()


def from_record(record: dict[str, Any], game_number: int, lexicon: Lexicon) -> PreparedGame:
    """The prepared game of game ``game_number`` of a tournament ``record``
    (``docs/tournament-record.md``): its seed, agreed rounds, racks and masters. A rack
    the bag draws again from the seed at that point is marked drawn, any other (a judge's
    rack, a rack drawn after a replaced one, III.29) is set as a judge's rack. Raises
    ``PreparedError`` (Spanish) when the game is not in the record, the lexicon is not the
    record's, a master was annulled (III.29: not a legal master) or a round cannot be
    played again."""
    tournament = record.get("tournament") if isinstance(record, dict) else None
    games = record.get("games") if isinstance(record, dict) else None
    if not isinstance(tournament, dict) or not isinstance(games, list):
        raise PreparedError("no es un registro de torneo (faltan «tournament» o «games»)")
    if tournament.get("lexicon_hash") != lexicon.content_hash:
        raise PreparedError(f"el registro se jugó con el léxico {str(tournament.get('lexicon_hash'))[:12]}…, no con "
                            f"{lexicon.content_hash[:12]}…: indique su léxico con --lexicon")
    game = next((item for item in games if isinstance(item, dict) and item.get("number") == game_number), None)
    if game is None:
        raise PreparedError(f"el registro no tiene partida {game_number}")
    rounds = game.get("rounds")
    seed, planned = game.get("seed"), game.get("planned_rounds")
    if not isinstance(rounds, list) or not rounds or not isinstance(seed, int):
        raise PreparedError(f"la partida {game_number} del registro no tiene rondas jugadas")
    agreed = planned if isinstance(planned, int) and not isinstance(planned, bool) and planned >= 1 else None
    engine = Game(lexicon, seed=seed, rounds=agreed)
    drawn_flags: list[bool] = []
    for item in rounds:
        number = item.get("number") if isinstance(item, dict) else None
        if not isinstance(item, dict) or not isinstance(item.get("rack"), str) or not isinstance(item.get("master"), str):
            raise PreparedError(f"la ronda {number} de la partida {game_number} no tiene atril o maestra")
        if item.get("annulled"):
            raise PreparedError(f"la maestra de la ronda {number} fue anulada (III.29): esa partida no sirve como "
                                "partida preparada")
        trial = _trial_draw(engine)
        drawn = trial is not None and trial.rack.text == item["rack"]
        leftover = rack_text(engine.leftover, engine.alphabet)
        keeps = item["rack"]
        step = PreparedRound(engine.round_number, keeps, leftover if drawn or _has_leftover(engine, keeps) else "",
                             trial.redraws if drawn and trial is not None else (), drawn, item["master"], 0, 0, 1, 0, 1)
        try:
            apply_rack(engine, step)
            move = parse_move(item["master"], engine.alphabet, oriented=False)
            engine.play(move)
        except (PreparedMismatch, SlipError, GameError) as error:
            raise PreparedError(f"la partida {game_number} del registro no se puede repetir en la ronda {number}: "
                                f"{error}") from None
        drawn_flags.append(drawn)
    end = None
    if engine.end_reason is not None and engine.end_reason.code is not EndCode.ROUNDS_PLAYED:
        end = {"code": engine.end_reason.code.value, "text": engine.end_reason.text}
    elif engine.end_reason is None and isinstance(game.get("end_reason"), str):
        end = {"code": EndCode.ARBITER.value, "text": game["end_reason"]}
    origin = {"kind": "record", "tournament": str(tournament.get("name", "")), "game": game_number}
    return PreparedGame(lexicon.alphabet.name, lexicon.content_hash, lexicon.word_count, seed, agreed,
                        tuple(PreparedRound.of(played, drawn) for played, drawn in zip(engine.records, drawn_flags,
                                                                                      strict=True)),
                        end, origin).sealed()


def _has_leftover(engine: Game, rack: str) -> bool:
    """Whether the rack text ``rack`` keeps the engine's leftover (else the leftover went
    back to the bag, III.19)."""
    try:
        tiles = parse_rack_text(rack, engine.alphabet)
    except RackError:
        return False
    remaining = list(tiles)
    for tile in engine.leftover:
        if tile not in remaining:
            return False
        remaining.remove(tile)
    return True

