"""The prepared game file (III.15, last paragraph: «partidas duplicadas preparadas con
anticipación»; ``docs/prepared-games.md``, format ``duplicada-prepared-1``) as frozen values:
``PreparedGame`` and ``PreparedRound`` (``to_dict``, ``to_json``, ``from_dict``,
``from_json``), ``load_prepared(path)``, and the seal — ``canonical_bytes`` and
``content_digest``, the SHA-256 of the canonical form of everything but ``digest``.

Also the errors every prepared-game module shares: ``PreparedError`` and
``PreparedFileError`` (a file that cannot be read, naming the place and what was
expected). Nothing here plays a round: that is ``duplicate.prepared.rounds``.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from duplicate.input_files import InputFileError, read_text
from duplicate.rules.game_record import RoundRecord
from duplicate.rules.rack import Redraw

__all__ = [
    "BINGO_TILES",
    "PREPARED_FILE_LIMIT",
    "PREPARED_FORMAT",
    "PREPARED_VERSION",
    "ROUNDS_LIMIT",
    "PreparedError",
    "PreparedFileError",
    "PreparedGame",
    "PreparedRound",
    "canonical_bytes",
    "content_digest",
    "load_prepared",
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


class PreparedError(ValueError):
    """Something a prepared game cannot be made of or do; the message (Spanish) says why."""


class PreparedFileError(PreparedError):
    """A prepared game file that cannot be read: not JSON, another format, a missing key
    or a value of another kind. The message names the place and what was expected."""


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

