"""What the classic-event service takes and shows: the pairing systems and their Spanish
names, a division's settings, and the frozen views of divisions, boards and a division as
published (``ranking.classic.service``)."""

from __future__ import annotations

import secrets
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from ranking.classic.engines import SYSTEM_NAMES, PairingSystem
from ranking.classic.standings import Board, Seeded, StandingLine

__all__ = ["CLUB_WAIVED", "DOUBLE_ROUND_ROBIN", "FIRST_COLOUR_TEXT", "GIBSON", "MANUAL", "ROUND_ROBIN", "ROUND_ROBINS",
           "SCORE_RANGE", "SYSTEMS", "BoardView", "DivisionData", "DivisionSettings", "DivisionView", "EventSnapshot",
           "ResultOutcome", "draw_first_colour", "system_name"]

ROUND_ROBIN = "round-robin"
DOUBLE_ROUND_ROBIN = "double-round-robin"
ROUND_ROBINS = (ROUND_ROBIN, DOUBLE_ROUND_ROBIN)
MANUAL = "manual"
GIBSON = "gibson"
CLUB_WAIVED = "no se pudo evitar que se enfrenten jugadores del mismo club"
SYSTEMS = tuple(s.value for s in PairingSystem) + (ROUND_ROBIN, DOUBLE_ROUND_ROBIN, MANUAL)
SCORE_RANGE = range(-500, 2001)


def system_name(system: str) -> str:
    """A division's pairing system in Spanish, as screens and publications show it."""
    if system == ROUND_ROBIN:
        return "todos contra todos (tablas de Berger)"
    if system == DOUBLE_ROUND_ROBIN:
        return "todos contra todos a doble vuelta (tablas de Berger)"
    if system == MANUAL:
        return "emparejamientos del juez árbitro"
    return SYSTEM_NAMES[PairingSystem(system)]


FIRST_COLOUR_TEXT = {"w": "el número 1 empieza en la ronda 1", "b": "el número 1 juega segundo en la ronda 1"}


def draw_first_colour() -> str:
    """The initial colour drawn by lot (C.04.3 E): ``w`` or ``b``, from the system's
    cryptographic source (nobody can predict or replay it)."""
    return secrets.choice("wb")


@dataclass(frozen=True)
class DivisionSettings:
    """A division's settings: spread credited for a pairing-allocated bye and for a forfeit
    (the loser gets its opposite), the tie-breaks after wins and spread (gacrux codes:
    ``BH`` Buchholz, ``SB`` Sonneborn-Berger, ``DE`` direct encounter…); ``club_rounds``: in
    rounds 1 to this, players of the same club are not paired together when the system can
    avoid it (py4swiss's systems; ``XXP``); ``gibson``: a player who has clinched first place
    meets the highest-ranked player who can no longer finish second (Scrabble's Gibson rule,
    as in TSH), and the rest are paired by the system; ``first_colour``: the initial colour
    (C.04.3 E) — ``w`` player 1 moves first in round 1, ``b`` second; empty when the division
    is created: drawn by lot then, and the draw recorded in the ``division_created`` event
    and the TRF (``XXC``)."""

    bye_spread: int = 50
    forfeit_spread: int = 50
    tie_breaks: tuple[str, ...] = ("BH", "SB")
    club_rounds: int = 0
    gibson: bool = False
    first_colour: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "tie_breaks": list(self.tie_breaks)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> DivisionSettings:
        return cls(int(data.get("bye_spread", 50)), int(data.get("forfeit_spread", 50)),
                   tuple(data.get("tie_breaks", ("BH", "SB"))), int(data.get("club_rounds", 0)),
                   bool(data.get("gibson", False)), str(data.get("first_colour", "")))


@dataclass(frozen=True)
class DivisionView:
    name: str
    system: str
    rounds: int
    settings: DivisionSettings
    players: int
    rounds_paired: int


@dataclass(frozen=True)
class BoardView:
    """A board as the screens show it (``table`` None and ``second`` 0: the bye)."""

    round: int
    table: int | None
    first: int
    first_name: str
    second: int
    second_name: str
    first_score: int | None
    second_score: int | None
    forfeit: str | None
    conflict: bool
    method: str


ResultOutcome = Literal["stored", "confirmed", "conflict", "corrected"]
DivisionData = tuple[list[Seeded], list[Board], dict[tuple[int, int], str]]
"""A division's players, boards and byes asked for (``(number, round) → H|Z``)."""


@dataclass(frozen=True)
class EventSnapshot:
    """A division as published: the tournament ``name``, ``division``, ``system``, rounds
    planned and ``played`` (every result in), its ``settings``, ``players``, the boards of
    every paired round (``rounds_boards[0]`` is round 1), ``standings`` after ``played``
    rounds and the ``trf`` text of the event."""

    name: str
    division: str
    system: str
    rounds: int
    played: int
    settings: DivisionSettings
    players: tuple[Seeded, ...]
    rounds_boards: tuple[tuple[BoardView, ...], ...]
    standings: tuple[StandingLine, ...]
    trf: str
    absences: dict[tuple[int, int], str] = field(default_factory=dict)
    annulled: frozenset[int] = frozenset()
