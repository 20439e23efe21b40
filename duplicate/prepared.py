"""Prepared games (III.15, last paragraph: «duplicada maestra, partidas duplicadas
preparadas con anticipación»): a game whose racks and masters are fixed in advance, so
that it can be played in several rooms alike and the slips checked at the end.

A prepared game file is JSON (``docs/prepared-games.md``, format ``duplicada-prepared-1``):
the lexicon's hash, the bag's seed, the agreed rounds and, per round, the rack as drawn
(leftover then new tiles, III.17, with its III.19 redraws), whether the bag drew it from
the seed (``drawn``) or it was set as a judge's rack (a game taken from a record), the
master in canonical notation, its score, place among the equal tops (III.15) and the
cumulative score; sealed by ``digest``, the SHA-256 of the canonical form of everything
else (``canonical_bytes``).

Everything rule-bound is done by the engine (``duplicate.game.Game``): ``apply_rack`` and
``apply_master`` play one prepared round on an engine — the checker (``check_prepared``),
the generator (``generate``) and the tournament service use them alike, so the three agree.

Public API:

* ``PreparedGame`` / ``PreparedRound`` — the file as frozen values; ``to_dict``,
  ``to_json``, ``from_dict``, ``from_json`` (``PreparedFileError``), ``load_prepared(path)``.
* ``generate(lexicon, seed, rounds)`` and ``generate_filtered(...)`` (quality filters:
  minimum total, rounds range, bingos; other seeds drawn until met, bounded attempts,
  ``FiltersNotMet``).
* ``from_record(record, game_number, lexicon)`` — a game already played, from a
  tournament record (``docs/tournament-record.md``).
* ``check_prepared(data, lexicon)`` — the independent check (``duplicada prepared check``):
  a list of ``PreparedProblem``, empty when the file is sound.
* ``played_differences(prepared, game)`` — where a game of a tournament record did not
  play the prepared game (its digest, seed, racks and masters).
"""

from __future__ import annotations

import copy
import hashlib
import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from duplicate.game import EndCode, Game, GameError, PendingRound, RoundRecord
from duplicate.input_files import InputFileError, read_text
from duplicate.notation import SlipError, parse_move
from duplicate.rack import RackError, Redraw, parse_rack_text, rack_text
from lexicon.lexicon import Lexicon

__all__ = [
    "PREPARED_FORMAT",
    "PREPARED_VERSION",
    "FiltersNotMet",
    "PreparedError",
    "PreparedFileError",
    "PreparedGame",
    "PreparedMismatch",
    "PreparedProblem",
    "PreparedRound",
    "QualityFilters",
    "apply_master",
    "apply_rack",
    "canonical_bytes",
    "check_prepared",
    "content_digest",
    "from_record",
    "generate",
    "generate_filtered",
    "load_prepared",
    "played_differences",
]

PREPARED_FORMAT = "duplicada-prepared-1"
"""``format`` of a prepared game file."""

PREPARED_VERSION = 1
"""``format_version`` of the files written now (fields are only ever added)."""

PREPARED_FILE_LIMIT = 2_000_000
"""Bytes a prepared game file may have (a full game is a few kilobytes)."""

ROUNDS_LIMIT = 100
"""Rounds a prepared game may have: 100 tiles, at least one placed a round."""

BINGO_TILES = 7
"""Tiles placed by a «scrabble» (all the rack: +50 points)."""

DEFAULT_ATTEMPTS = 50
"""Seeds ``generate_filtered`` tries before giving up."""


class PreparedError(ValueError):
    """Something a prepared game cannot be made of or do; the message (Spanish) says why."""


class PreparedFileError(PreparedError):
    """A prepared game file that cannot be read: not JSON, another format, a missing key
    or a value of another kind. The message names the place and what was expected."""


class PreparedMismatch(PreparedError):
    """A prepared round the engine does not reproduce: its rack is not what the bag gives,
    its master is not a top of its rack, or a figure differs. ``round`` is its number."""

    def __init__(self, message: str, round_number: int) -> None:
        super().__init__(message)
        self.round = round_number


class FiltersNotMet(PreparedError):
    """No seed tried gave a game meeting the quality filters."""


@dataclass(frozen=True)
class PreparedRound:
    """One prepared round: ``rack`` as drawn (leftover then new tiles, III.17), its
    ``leftover`` part, ``redraws`` (racks sent back, III.19), ``drawn`` (True: the bag
    draws it from the seed; False: set as a judge's rack), the ``master`` (canonical),
    its ``score``, ``rank`` among the ``equal_tops`` moves of top score (III.15; 0 = the
    rules' choice), ``cumulative`` (points) and ``tiles_placed`` (7: a bingo)."""

    number: int
    rack: str
    leftover: str
    redraws: tuple[Redraw, ...]
    drawn: bool
    master: str
    score: int
    rank: int
    equal_tops: int
    cumulative: int
    tiles_placed: int

    @property
    def bingo(self) -> bool:
        """True when the master places the whole rack (7 tiles)."""
        return self.tiles_placed == BINGO_TILES

    def to_dict(self) -> dict[str, Any]:
        return {"number": self.number, "rack": self.rack, "leftover": self.leftover,
                "redraws": [{"rack": redraw.rack, "reason": redraw.reason} for redraw in self.redraws],
                "drawn": self.drawn, "master": self.master, "score": self.score, "rank": self.rank,
                "equal_tops": self.equal_tops, "cumulative": self.cumulative, "tiles_placed": self.tiles_placed}

    @classmethod
    def of(cls, record: RoundRecord, drawn: bool) -> PreparedRound:
        """The prepared round of an engine's played round."""
        return cls(record.number, record.rack, record.leftover, record.redraws, drawn, record.master, record.score,
                   record.master_rank, record.equal_tops, record.cumulative, record.tiles_placed)


@dataclass(frozen=True)
class PreparedGame:
    """A prepared game: ``alphabet`` name, ``lexicon_hash`` (hex SHA-256 of the words) and
    ``lexicon_words``, the bag's ``seed``, ``agreed_rounds`` (None: full bag, III.21), the
    ``rounds``, ``end`` (``{"code", "text"}``, why no further round, III.22; None if the
    agreed rounds were played), ``origin`` (how it was made: ``{"kind": "generated" |
    "record", …}``) and ``digest`` (hex SHA-256 of the canonical form, ``content_digest``)."""

    alphabet: str
    lexicon_hash: str
    lexicon_words: int
    seed: int
    agreed_rounds: int | None
    rounds: tuple[PreparedRound, ...]
    end: dict[str, str] | None
    origin: dict[str, Any] = field(default_factory=dict)
    digest: str = ""

    @property
    def total(self) -> int:
        """Sum of the master scores (points)."""
        return self.rounds[-1].cumulative if self.rounds else 0

    @property
    def bingos(self) -> int:
        """Masters that place all seven tiles."""
        return sum(1 for round_ in self.rounds if round_.bingo)

    def body(self) -> dict[str, Any]:
        """Everything but the digest, as JSON-ready data."""
        return {"format": PREPARED_FORMAT, "format_version": PREPARED_VERSION, "alphabet": self.alphabet,
                "lexicon": {"content_hash": self.lexicon_hash, "word_count": self.lexicon_words},
                "seed": self.seed, "agreed_rounds": self.agreed_rounds,
                "rounds": [round_.to_dict() for round_ in self.rounds], "total": self.total, "bingos": self.bingos,
                "end": self.end, "origin": self.origin}

    def sealed(self) -> PreparedGame:
        """The same game with its ``digest`` computed."""
        return PreparedGame(self.alphabet, self.lexicon_hash, self.lexicon_words, self.seed, self.agreed_rounds,
                            self.rounds, self.end, self.origin, content_digest(self.body()))

    def to_dict(self) -> dict[str, Any]:
        return {**self.body(), "digest": self.digest}

    def to_json(self) -> str:
        """The file's text (UTF-8, Spanish unescaped, one key per line)."""
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=1) + "\n"

    @classmethod
    def from_dict(cls, data: Any) -> PreparedGame:
        """The game in ``data`` (parsed JSON); ``PreparedFileError`` naming the place and
        what was expected when it is not a prepared game of a known format. The digest is
        read, not checked (``check_prepared`` does)."""
        top = _object(data, "el archivo")
        if top.get("format") != PREPARED_FORMAT:
            raise PreparedFileError(f"formato {str(top.get('format'))[:40]!r} desconocido: se esperaba "
                                    f"{PREPARED_FORMAT!r} (una partida preparada)")
        lexicon = _object(top.get("lexicon"), "«lexicon»")
        agreed = top.get("agreed_rounds")
        end = top.get("end")
        if end is not None:
            end = {"code": _text(_object(end, "«end»").get("code"), "«end.code»"),
                   "text": _text(end.get("text"), "«end.text»")}
        rounds = top.get("rounds")
        if not isinstance(rounds, list) or not rounds or len(rounds) > ROUNDS_LIMIT:
            raise PreparedFileError(f"«rounds» debe ser una lista de rondas, de 1 a {ROUNDS_LIMIT}")
        return cls(alphabet=_text(top.get("alphabet"), "«alphabet»"),
                   lexicon_hash=_text(lexicon.get("content_hash"), "«lexicon.content_hash»"),
                   lexicon_words=_int(lexicon.get("word_count"), "«lexicon.word_count»"),
                   seed=_int(top.get("seed"), "«seed»"),
                   agreed_rounds=None if agreed is None else _int(agreed, "«agreed_rounds»", minimum=1),
                   rounds=tuple(_round(item, index) for index, item in enumerate(rounds, start=1)),
                   end=end, origin=_object(top.get("origin", {}), "«origin»"),
                   digest=_text(top.get("digest"), "«digest»"))

    @classmethod
    def from_json(cls, text: str) -> PreparedGame:
        """``from_dict`` of JSON text; ``PreparedFileError`` when it is not JSON."""
        try:
            data = json.loads(text)
        except (json.JSONDecodeError, RecursionError) as error:
            raise PreparedFileError(f"no es JSON válido: {error}") from None
        return cls.from_dict(data)


def _object(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise PreparedFileError(f"{where} debe ser un objeto JSON")
    return value


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise PreparedFileError(f"{where} debe ser un texto")
    return value


def _int(value: Any, where: str, *, minimum: int = 0) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < minimum or value > 2**63:
        raise PreparedFileError(f"{where} debe ser un número entero desde {minimum}")
    return value


def _round(item: Any, index: int) -> PreparedRound:
    where = f"la ronda {index}"
    data = _object(item, where)
    redraws = data.get("redraws")
    if not isinstance(redraws, list):
        raise PreparedFileError(f"«redraws» de {where} debe ser una lista")
    if not isinstance(data.get("drawn"), bool):
        raise PreparedFileError(f"«drawn» de {where} debe ser true o false")
    return PreparedRound(
        number=_int(data.get("number"), f"«number» de {where}", minimum=1),
        rack=_text(data.get("rack"), f"«rack» de {where}"),
        leftover=_text(data.get("leftover"), f"«leftover» de {where}"),
        redraws=tuple(Redraw(_text(_object(redraw, f"un cambio de fichas de {where}").get("rack"), f"«rack» de {where}"),
                             _text(redraw.get("reason"), f"«reason» de {where}")) for redraw in redraws),
        drawn=data["drawn"], master=_text(data.get("master"), f"«master» de {where}"),
        score=_int(data.get("score"), f"«score» de {where}"), rank=_int(data.get("rank"), f"«rank» de {where}"),
        equal_tops=_int(data.get("equal_tops"), f"«equal_tops» de {where}", minimum=1),
        cumulative=_int(data.get("cumulative"), f"«cumulative» de {where}"),
        tiles_placed=_int(data.get("tiles_placed"), f"«tiles_placed» de {where}", minimum=1))


def canonical_bytes(body: dict[str, Any]) -> bytes:
    """The canonical form the digest seals: JSON with sorted keys, no spaces, UTF-8."""
    return json.dumps(body, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode("utf-8")


def content_digest(body: dict[str, Any]) -> str:
    """Hex SHA-256 of ``canonical_bytes(body)`` (``body``: the file without ``digest``)."""
    return hashlib.sha256(canonical_bytes(body)).hexdigest()


def load_prepared(path: Path) -> tuple[PreparedGame, dict[str, Any]]:
    """The prepared game in the file at ``path`` and its parsed JSON; ``PreparedFileError``
    naming the file when it cannot be read (missing, not a regular file, too large, not
    UTF-8, not JSON, not a prepared game)."""
    try:
        text = read_text(path, what="una partida preparada", limit=PREPARED_FILE_LIMIT)
    except InputFileError as error:
        raise PreparedFileError(str(error)) from None
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as error:
        raise PreparedFileError(f"{path}: no es JSON válido: {error}") from None
    try:
        return PreparedGame.from_dict(data), data
    except PreparedFileError as error:
        raise PreparedFileError(f"{path}: {error}") from None


# --- one prepared round on the engine -----------------------------------------------------------
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
        raise PreparedMismatch(f"ronda {number}: el atril {prepared.rack} se lee como {pending.rack.text}", number)
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
        raise PreparedMismatch(f"ronda {number}: con el atril {pending.rack.text} no hay ninguna jugada válida", number)
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


# --- making prepared games ---------------------------------------------------------------------
def _no_move_end(pending: PendingRound) -> dict[str, str]:
    return {"code": EndCode.NO_MOVE.value,
            "text": f"con el atril {pending.rack.text} no hay ninguna jugada válida (III.22)"}


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


# --- a played game against its prepared game ----------------------------------------------------
def played_differences(prepared: PreparedGame, game: dict[str, Any]) -> list[str]:
    """Where ``game`` — one game of a tournament record (``docs/tournament-record.md``) —
    did not play ``prepared``: its ``prepared.digest``, its seed, and every round before the
    one it left the prepared game at (III.29, ``prepared.left_at``): the same rack, master
    and master score, in order. Returns Spanish descriptions, empty when it played it (for
    bringing several rooms' records together, issue 27 §2)."""
    if not isinstance(game, dict):
        return ["la partida del registro no es un objeto"]
    number = game.get("number")
    played = game.get("prepared")
    if not isinstance(played, dict) or played.get("digest") != prepared.digest:
        shown = played.get("digest") if isinstance(played, dict) else None
        return [f"la partida {number} no juega la partida preparada {prepared.digest[:12]}… "
                f"(su resumen: {str(shown)[:12] + '…' if shown else 'ninguno'})"]
    differences = []
    if game.get("seed") != prepared.seed:
        differences.append(f"la partida {number} usa la semilla {game.get('seed')}, no {prepared.seed}")
    left_at = played.get("left_at")
    listed = game.get("rounds")
    rounds: list[Any] = listed if isinstance(listed, list) else []
    for index, item in enumerate(rounds, start=1):
        if isinstance(left_at, int) and index >= left_at:
            break
        expected = prepared.rounds[index - 1] if index <= len(prepared.rounds) else None
        if expected is None:
            differences.append(f"la partida {number} tiene la ronda {index}, que la partida preparada no tiene")
            break
        got = (item.get("rack"), item.get("master"), item.get("master_score")) if isinstance(item, dict) else None
        if got != (expected.rack, expected.master, expected.score):
            differences.append(f"partida {number}, ronda {index}: {got} en lugar de "
                               f"{(expected.rack, expected.master, expected.score)} de la partida preparada")
    return differences


# --- the independent check -------------------------------------------------------------------------
@dataclass(frozen=True)
class PreparedProblem:
    """One thing wrong with a prepared game file: ``round`` (None: the file as a whole)
    and the Spanish ``message``."""

    round: int | None
    message: str

    def __str__(self) -> str:
        return self.message if self.round is None else f"ronda {self.round}: {self.message}"


def check_prepared(data: dict[str, Any], lexicon: Lexicon) -> list[PreparedProblem]:
    """Check a parsed prepared game file independently (``duplicada prepared check``): its
    digest against its content, its lexicon against ``lexicon``, then every round replayed
    on a fresh engine from the seed — each rack drawn from the bag in order (or, for a
    judge's rack, made of the leftover and tiles in the bag), each master a legal move of
    top score of its rack scoring what the file says, with its cumulative — and the totals.
    Returns the problems found, the first bad round last (the replay stops there: what
    follows depends on it); empty when the file is sound. Raises ``PreparedFileError``
    when ``data`` is not a prepared game file."""
    game = PreparedGame.from_dict(data)
    problems: list[PreparedProblem] = []
    body = {key: value for key, value in data.items() if key != "digest"}
    if content_digest(body) != game.digest:
        problems.append(PreparedProblem(None, "el resumen SHA-256 («digest») no corresponde al contenido: el archivo "
                                              "se ha modificado después de sellarlo"))
    if game.alphabet != lexicon.alphabet.name:
        problems.append(PreparedProblem(None, f"la partida usa el alfabeto {game.alphabet!r}, no {lexicon.alphabet.name!r}"))
        return problems
    if game.lexicon_hash != lexicon.content_hash:
        problems.append(PreparedProblem(None, f"la partida se preparó con el léxico {game.lexicon_hash[:12]}…, no con "
                                              f"{lexicon.content_hash[:12]}… ({lexicon.name}): indique su léxico"))
        return problems
    if data.get("origin", {}).get("kind") == "generated":
        typed = [round_.number for round_ in game.rounds if not round_.drawn]
        if typed:
            problems.append(PreparedProblem(typed[0], "una partida generada saca todos sus atriles de la bolsa"))
            return problems
    engine = Game(lexicon, seed=game.seed, rounds=game.agreed_rounds)
    for index, prepared in enumerate(game.rounds, start=1):
        if prepared.number != index:
            problems.append(PreparedProblem(index, f"la ronda lleva el número {prepared.number}"))
            return problems
        try:
            apply_rack(engine, prepared)
            apply_master(engine, prepared)
        except PreparedMismatch as error:
            problems.append(PreparedProblem(index, str(error).removeprefix(f"ronda {index}: ")))
            return problems
    if data.get("total") != game.total:
        problems.append(PreparedProblem(None, f"«total» dice {data.get('total')!r}; las maestras suman {game.total}"))
    if data.get("bingos") != game.bingos:
        problems.append(PreparedProblem(None, f"«bingos» dice {data.get('bingos')!r}; hay {game.bingos} scrabbles"))
    return problems
