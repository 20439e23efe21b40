"""The duplicate game engine's values (III.13–III.22): a round whose rack is set and waits
for its master (``PendingRound``: its III.15 ranking generated when first asked for), a
played round (``RoundRecord``), why the game ended (``EndCode``, ``EndReason``, III.21,
III.22) and the whole game as data (``GameRecord``: seed, lexicon hash and size, every
round's rack, redraws, master and scores, the total and the end), with its JSON round
trip (``to_json`` / ``from_json``, format ``duplicada-game-1``); and the engine's
errors (``GameError``, ``GameRecordError``). The engine itself is ``duplicate.rules.game.Game``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from duplicate.rules.notation import parse_move
from duplicate.rules.rack import Rack, RackRule, Redraw
from duplicate.rules.tie_criteria import RankedMove
from lexicon.alphabet import Alphabet, spanish
from lexicon.move import Move

__all__ = [
    "RECORD_FORMAT",
    "EndCode",
    "EndReason",
    "GameError",
    "GameRecord",
    "GameRecordError",
    "PendingRound",
    "RoundRecord",
]

RECORD_FORMAT = "duplicada-game-1"
"""``format`` field of a game record's JSON."""


class GameError(ValueError):
    """An action the game cannot take now (game over, no rack, a move that is not a
    top move...); the message (Spanish) says why."""


class GameRecordError(ValueError):
    """A game record's JSON that cannot be read; the message (Spanish) says why."""


class EndCode(StrEnum):
    """Why the game ended (III.22), as a machine code."""

    ROUNDS_PLAYED = "rounds_played"
    """The agreed number of rounds has been played."""
    NO_VALID_RACK = "no_valid_rack"
    """No valid rack can be formed: vowels or consonants used up (III.12, III.21)."""
    NO_MOVE = "no_move"
    """The rack has no legal move."""
    REDRAW_LIMIT = "redraw_limit"
    """Too many redraws in a row without a valid rack (III.19)."""
    ARBITER = "arbiter"
    """The judge ended the game."""


@dataclass(frozen=True)
class EndReason:
    """How the game ended: ``code`` and the Spanish ``text`` to show."""

    code: EndCode
    text: str

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class PendingRound:
    """A round whose rack is set and whose master move is not placed yet.

    ``rule``: the III.12 rule the rack was checked against; ``arbiter_rack``: typed by
    the arbiter, not drawn. The moves are generated when first asked for (``ranked``,
    ``move_count``), on a copy of the board as it was when the rack was set: replaying
    a recorded game places its recorded masters without generating them
    (``Game.play_recorded``).
    """

    number: int
    rack: Rack
    rule: RackRule
    redraws: tuple[Redraw, ...]
    arbiter_rack: bool
    ranking: Callable[[], tuple[Sequence[RankedMove], int]] = field(repr=False, compare=False)
    _cache: list[tuple[Sequence[RankedMove], int]] = field(default_factory=list, repr=False, compare=False)

    def _ranked(self) -> tuple[Sequence[RankedMove], int]:
        if not self._cache:
            self._cache.append(self.ranking())
        return self._cache[0]

    @property
    def generated(self) -> bool:
        """True once the moves have been generated."""
        return bool(self._cache)

    @property
    def ranked(self) -> Sequence[RankedMove]:
        """The moves of top score, best first (III.15); empty when the rack has no legal move."""
        return self._ranked()[0]

    @property
    def move_count(self) -> int:
        """How many legal moves the rack has."""
        return self._ranked()[1]

    @property
    def master(self) -> RankedMove | None:
        """The master the ranking proposes, None when there is no legal move."""
        return self.ranked[0] if self.ranked else None


@dataclass(frozen=True)
class RoundRecord:
    """One played round.

    ``rack``: the rack text before play, leftovers first in tile order then the
    new tiles (III.17); ``leftover``: the leftover part; ``redraws``: racks sent
    back (III.19); ``master``: canonical notation (``H8-CASA`` / ``8H-CASA``) of
    ``move``; ``master_rank``: its place in the III.15 ranking (0 unless the arbiter
    chose another); ``reason``: why it was chosen (Spanish); ``score`` and
    ``cumulative`` in points; ``equal_tops``: moves sharing the top score;
    ``tiles_placed``; ``bag_after``: tiles left in the bag after the round.
    """

    number: int
    rack: str
    leftover: str
    redraws: tuple[Redraw, ...]
    rule: RackRule
    arbiter_rack: bool
    master: str
    move: Move
    master_rank: int
    reason: str
    score: int
    cumulative: int
    equal_tops: int
    tiles_placed: int
    bag_after: int

    def to_dict(self) -> dict[str, Any]:
        """The round as JSON-ready data (the move as its canonical text)."""
        return {
            "number": self.number,
            "rack": self.rack,
            "leftover": self.leftover,
            "redraws": [{"rack": redraw.rack, "reason": redraw.reason} for redraw in self.redraws],
            "rule": self.rule.value,
            "arbiter_rack": self.arbiter_rack,
            "master": self.master,
            "master_rank": self.master_rank,
            "reason": self.reason,
            "score": self.score,
            "cumulative": self.cumulative,
            "equal_tops": self.equal_tops,
            "tiles_placed": self.tiles_placed,
            "bag_after": self.bag_after,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any], alphabet: Alphabet) -> RoundRecord:
        """Inverse of ``to_dict``. Raises ``KeyError``, ``TypeError`` or ``ValueError`` on bad data."""
        return cls(
            number=int(data["number"]),
            rack=str(data["rack"]),
            leftover=str(data["leftover"]),
            redraws=tuple(Redraw(str(item["rack"]), str(item["reason"])) for item in data["redraws"]),
            rule=RackRule(data["rule"]),
            arbiter_rack=bool(data["arbiter_rack"]),
            master=str(data["master"]),
            move=parse_move(str(data["master"]), alphabet, oriented=False),
            master_rank=int(data["master_rank"]),
            reason=str(data["reason"]),
            score=int(data["score"]),
            cumulative=int(data["cumulative"]),
            equal_tops=int(data["equal_tops"]),
            tiles_placed=int(data["tiles_placed"]),
            bag_after=int(data["bag_after"]),
        )


@dataclass(frozen=True)
class GameRecord:
    """A whole game as data: ``seed`` of the bag, the lexicon's ``lexicon_hash``
    (hex SHA-256 of its words) and ``lexicon_words``, ``agreed_rounds`` (None = full
    bag, III.21), the ``rounds`` played, the ``total`` of the master scores (points)
    and the ``end_reason`` (None while the game goes on)."""

    seed: int
    lexicon_hash: str
    lexicon_words: int
    agreed_rounds: int | None
    rounds: tuple[RoundRecord, ...]
    total: int
    end_reason: EndReason | None
    alphabet: str = spanish().name

    def to_json(self) -> str:
        """The record as JSON text (UTF-8 safe, Spanish left unescaped)."""
        data = {
            "format": RECORD_FORMAT,
            "alphabet": self.alphabet,
            "seed": self.seed,
            "lexicon": {"content_hash": self.lexicon_hash, "word_count": self.lexicon_words},
            "agreed_rounds": self.agreed_rounds,
            "rounds": [round_record.to_dict() for round_record in self.rounds],
            "total": self.total,
            "end": None if self.end_reason is None else {"code": self.end_reason.code.value, "text": self.end_reason.text},
        }
        return json.dumps(data, ensure_ascii=False, indent=1)

    @classmethod
    def from_json(cls, text: str, alphabet: Alphabet | None = None) -> GameRecord:
        """Read a record written by ``to_json``; moves are read with ``alphabet``
        (default: the FISE Spanish set).

        Raises ``GameRecordError`` when the text is not such a record.
        """
        alphabet = alphabet or spanish()
        try:
            data = json.loads(text)
            if data.get("format") != RECORD_FORMAT:
                raise GameRecordError(f"formato de partida desconocido {data.get('format')!r} (se esperaba {RECORD_FORMAT})")
            if data.get("alphabet") != alphabet.name:
                raise GameRecordError(f"la partida usa el alfabeto {data.get('alphabet')!r}, no {alphabet.name!r}")
            end = data["end"]
            agreed = data["agreed_rounds"]
            return cls(
                seed=int(data["seed"]),
                lexicon_hash=str(data["lexicon"]["content_hash"]),
                lexicon_words=int(data["lexicon"]["word_count"]),
                agreed_rounds=None if agreed is None else int(agreed),
                rounds=tuple(RoundRecord.from_dict(item, alphabet) for item in data["rounds"]),
                total=int(data["total"]),
                end_reason=None if end is None else EndReason(EndCode(end["code"]), str(end["text"])),
                alphabet=alphabet.name,
            )
        except GameRecordError:
            raise
        except (json.JSONDecodeError, KeyError, TypeError, ValueError, AttributeError) as error:
            raise GameRecordError(f"partida guardada no válida: {type(error).__name__}: {error}") from None
