"""The classic-event service: divisions, pairings, results, byes and standings, with the
same authority, credentials and event log as duplicate games (``duplicate.service``).

A classic division belongs to a tournament; its players are the tournament's entries
(registered with ``TournamentService.add_player``). Every action checks the acting
station's credential first (II.4): the judge creates divisions, pairs rounds, overrides a
pairing with a reason, records forfeits, byes and withdrawals and resolves conflicts;
assistants enter the results of their tables (II.4.c). Two stations that type different
scores for one board leave the first result standing and a conflict for the judge.

Pairing is the engines' (``ranking.classic.engines``): the Swiss system chosen or the Berger
round robin; a judge's pairing is checked by the same rules (``pairing_rules``) and, if it
breaks one, needs a reason, which the log keeps.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from contextlib import AbstractContextManager
from dataclasses import asdict, dataclass, field, replace
from datetime import UTC, datetime
from typing import Any, Literal

from sqlalchemy import select
from sqlalchemy.orm import Session, joinedload

from duplicate.service.access import Action, Actor, Role
from duplicate.service.context import HasContext, OnContext, ServiceContext, ServiceHooks, typed_text
from duplicate.service.errors import InvalidInput, InvalidNumber, MissingReason, NotFound, StateConflict
from duplicate.service.events import (
    TournamentEvent,
    ClassicEntryChanged,
    EventKind,
    DivisionCreated,
    ResultConflict,
    ResultEntered,
    ResultResolved,
    RoundPaired,
)
from duplicate.statuses import EntryStatus
from duplicate.storage.classic_models import (
    ClassicAbsence,
    ClassicBoard,
    ClassicDivision,
    ClassicScoreEntry,
    ClassicSeed,
)
from duplicate.storage.database import Database
from duplicate.storage.models import Entry, Event, Tournament
from duplicate.texts import NAME_MAX
from ranking.classic.engines import (
    SYSTEM_NAMES,
    EngineUnavailable,
    PairingError,
    PairingSystem,
    pair_next_round,
)
from ranking.classic.errors import PlayerWithdrawn, ReasonRequired
from ranking.classic.gibson import gibson_choices, gibson_round
from ranking.classic.pairing_rules import Pair, check_pairing
from ranking.classic.round_robin import (
    RoundRobinRound,
    annulled,
    bye_requests,
    counted_boards,
    round_robin_round,
    round_robin_schedule,
)
from ranking.classic.starting_list import checked_rating, checked_title, initial_order_key
from ranking.classic.standings import Board, Seeded, StandingLine, division_trf, standings
from ranking.classic.trf import Trf, write_trf

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


def _need_reason(reason: str, board: ClassicBoard, what: str) -> None:
    """``ReasonRequired`` unless the judge gave a reason for ``what`` on ``board``."""
    if not reason.strip():
        raise ReasonRequired(f"ronda {board.round}, mesa {board.table}: el juez árbitro {what}; indique el motivo",
                             round_number=board.round, table=board.table or 0)


def _check_scores(*scores: int) -> None:
    for score in scores:
        if score not in SCORE_RANGE:
            raise InvalidNumber(f"puntuación {score} fuera de lo posible (de -500 a 2000)",
                                what="la puntuación", value=score)


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


class ClassicService(OnContext):
    """Classic divisions of the tournaments of one database (see the module docstring).

    Built on a ``ServiceContext`` — the one a ``TournamentService`` holds (``like``), so
    both act with the same credential and log to the same event log — or on a database
    with ``station``, ``pin``, ``hooks`` as ``TournamentService`` takes them."""

    def __init__(self, source: Database | ServiceContext, *, station: str = "principal", pin: str | None = None,
                 hooks: ServiceHooks | None = None) -> None:
        self.context = source if isinstance(source, ServiceContext) else \
            ServiceContext(source, station=station, pin=pin, hooks=hooks)

    @classmethod
    def like(cls, service: HasContext) -> ClassicService:
        """A classic service on the same context (database, station, credential, hooks) as
        ``service`` (a ``TournamentService`` the front end already holds)."""
        return cls(service.context)

    def _write(self) -> AbstractContextManager[Session]:
        return self.context.write()

    def _read(self) -> AbstractContextManager[Session]:
        return self.context.read()

    def _tournament(self, session: Session, tournament_id: int | None) -> Tournament:
        return self.context.tournament(session, tournament_id)

    def _authorise(self, session: Session, tournament_id: int, action: Action, *, tables: Iterable[int] = ()) -> Actor:
        return self.context.authorise(session, tournament_id, action, tables=tables)

    def _log(self, session: Session, tournament_id: int, typed: TournamentEvent, *, actor: Actor,
             round_number: int | None = None, reason: str = "") -> None:
        self.context.log(session, tournament_id, typed, actor=actor, round_number=round_number, reason=reason)

    # --- setting up -----------------------------------------------------------------------
    def create_division(self, *, rounds: int, system: str = PairingSystem.DUTCH.value, name: str = "",
                        settings: DivisionSettings | None = None, tournament_id: int | None = None) -> DivisionView:
        """Create a division of ``rounds`` rounds paired by ``system`` (a Swiss system,
        ``round-robin`` or ``manual``). Judge only; ``TournamentError`` for a bad value."""
        if system not in SYSTEMS:
            raise InvalidInput(f"sistema «{system}» desconocido; se esperaba uno de {', '.join(SYSTEMS)}",
                               what="el sistema", value=system)
        if not 1 <= rounds <= 50:
            raise InvalidNumber("el número de rondas debe estar entre 1 y 50", what="el número de rondas", value=rounds)
        settings = settings or DivisionSettings()
        if settings.first_colour not in ("", "w", "b"):
            raise InvalidInput(f"color inicial «{settings.first_colour}» desconocido; se esperaba w, b o vacío "
                               "(sorteo)", what="el color inicial", value=settings.first_colour)
        note = ""
        if not settings.first_colour:
            settings = replace(settings, first_colour=draw_first_colour())
            note = "color inicial sorteado (C.04.3 E): " + FIRST_COLOUR_TEXT[settings.first_colour]
        name = typed_text(name, "el nombre de la división", NAME_MAX).strip()
        with self._write() as session:
            tournament = self._tournament(session, tournament_id)
            actor = self._authorise(session, tournament.id, Action.CHANGE_SETTINGS)
            if session.scalar(select(ClassicDivision).where(ClassicDivision.tournament_id == tournament.id,
                                                            ClassicDivision.name == name)) is not None:
                raise StateConflict(f"ya hay una división «{name}» en el torneo" if name else
                                      "el torneo ya tiene una división sin nombre",
                                      what=f"división {name}", state="exists")
            division = ClassicDivision(tournament_id=tournament.id, name=name, system=system, rounds=rounds,
                                       settings=settings.to_dict())
            session.add(division)
            session.flush()
            self._log(session, tournament.id, DivisionCreated(name, system, rounds, settings.to_dict()), actor=actor,
                      reason=note)
            return DivisionView(name, system, rounds, settings, 0, 0)

    def divisions(self, tournament_id: int | None = None) -> list[DivisionView]:
        with self._read() as session:
            tournament = self._tournament(session, tournament_id)
            rows = session.scalars(select(ClassicDivision).where(ClassicDivision.tournament_id == tournament.id)
                                   .order_by(ClassicDivision.id))
            return [DivisionView(d.name, d.system, d.rounds, DivisionSettings.from_dict(d.settings), len(d.seeds),
                                 self._rounds_paired(session, d)) for d in rows]

    # --- pairing --------------------------------------------------------------------------
    def pair_round(self, division: str = "", *, manual: list[tuple[int, int]] | None = None, reason: str = "",
                   tournament_id: int | None = None) -> list[BoardView]:
        """Pair the next round: by the division's system, or ``manual`` pairs (first, second;
        second 0 for the bye) typed by the judge. The previous round must have every result.
        A manual pairing that breaks a rule of ``pairing_rules`` needs ``reason``.
        Raises ``TournamentError``/``PairingError`` (Spanish) and changes nothing then."""
        with self._write() as session:
            tournament = self._tournament(session, tournament_id)
            actor = self._authorise(session, tournament.id,
                                    Action.OVERRIDE_PAIRING if manual is not None else Action.PAIR_ROUND)
            row = self._division_row(session, tournament, division)
            number = self._rounds_paired(session, row) + 1
            if number > row.rounds:
                raise StateConflict(f"ya se han emparejado las {row.rounds} rondas de la división",
                                    what=f"división {row.name}", state="all_paired")
            self._check_round_complete(session, row, number - 1)
            self._seed_new_entries(session, tournament, row, number, actor)
            if not self._seeds(session, row):
                raise StateConflict(f"la división «{row.name}» no tiene jugadores: inscríbalos en ella primero",
                                    what=f"división {row.name}", state="empty")
            trf = self._trf(session, row, played=number - 1)
            gibson: Pair | None = None
            unplayed: list[tuple[Pair, str]] = []
            if manual is not None:
                pairs = [Pair(first, second) for first, second in manual]
                self._check_manual(session, row, pairs)
                problems = check_pairing(trf, pairs)
                if problems and not reason.strip():
                    raise MissingReason("el emparejamiento incumple el reglamento (" + "; ".join(problems)
                                          + "): indique el motivo para mantenerlo", action="override_pairing")
                method = MANUAL
            elif row.system == MANUAL:
                raise InvalidInput("esta división se empareja a mano: indique los emparejamientos",
                                   what="el emparejamiento", value=None)
            elif row.system in ROUND_ROBINS:
                played = self._round_robin(session, row, number)
                pairs, unplayed, method = played.pairs, played.unplayed, row.system
            else:
                pairs, notes, gibson = self._swiss_round(session, row, trf, number)
                method = row.system
                reason = "; ".join([reason.strip()] * bool(reason.strip()) + notes)
            boards = self._store_round(session, row, number, pairs, method, gibson=gibson, unplayed=unplayed)
            self._log(session, tournament.id, RoundPaired(row.name, number, method, boards), actor=actor,
                      round_number=number, reason=reason)
            return self._board_views(session, row, number)

    def _check_manual(self, session: Session, row: ClassicDivision, pairs: list[Pair]) -> None:
        """Refuse, whatever the reason, a manual pairing that cannot be stored: an unknown
        starting number, a withdrawn player (``PlayerWithdrawn``: its result could not be
        taken), a player twice, a player against themself, two byes."""
        if not pairs:
            raise InvalidInput("el emparejamiento manual está vacío: indique las parejas «1-8,2-7,…»",
                               what="el emparejamiento", value="")
        seeds = {seed.number: seed for seed in self._seeds(session, row)}
        known = set(seeds)
        round_number = self._rounds_paired(session, row) + 1
        seen: set[int] = set()
        for pair in pairs:
            if pair.first == pair.second:
                raise InvalidInput(f"el jugador {pair.first} no puede jugar contra sí mismo",
                                   what="el emparejamiento", value=pair.first)
            for number in (pair.first, pair.second):
                if number == 0:
                    continue
                if number not in known:
                    raise NotFound(f"no hay jugador con el número {number} en la división", what="jugador", key=number)
                withdrawn = seeds[number].withdrawn_round
                if withdrawn is not None and withdrawn <= round_number:
                    raise PlayerWithdrawn(f"el jugador {number} está retirado desde la ronda {withdrawn}: no se le "
                                          "empareja", number=number)
                if number in seen:
                    raise InvalidInput(f"el jugador {number} aparece dos veces en el emparejamiento",
                                       what="el emparejamiento", value=number)
                seen.add(number)
        if sum(pair.is_bye for pair in pairs) > 1:
            raise InvalidInput("como mucho un descanso por ronda",
                               what="el emparejamiento", value=sum(pair.is_bye for pair in pairs))

    def _swiss_round(self, session: Session, row: ClassicDivision, trf: Trf, number: int
                     ) -> tuple[list[Pair], list[str], Pair | None]:
        """The round by the division's Swiss system, with its same-club and Gibson options
        (``ranking.classic.gibson``); returns the pairs, notes for the log and the Gibson
        board. A round in which the same-club pairs could not be kept apart is remembered
        (``club_waived``) so the exported TRF says which rounds kept them apart."""
        settings = DivisionSettings.from_dict(row.settings)
        system = PairingSystem(row.system)
        notes: list[str] = []
        forbidden = self._club_pairs(session, row) if number <= settings.club_rounds else frozenset()

        waived = [False]                   # the last pairing of the rest had to let clubs meet

        def pair_rest(rest: Trf) -> list[Pair]:
            waived[0] = False
            if forbidden:
                try:
                    return pair_next_round(replace(rest, forbidden=forbidden), system)
                except EngineUnavailable:
                    raise
                except PairingError:
                    waived[0] = True
            return pair_next_round(rest, system)

        leader, choices = self._gibson_choices(session, row, number) if settings.gibson and number > 1 else (0, [])
        pairs, gibson_notes, fixed = gibson_round(trf, leader, choices, pair_rest)
        if waived[0]:
            notes.append(CLUB_WAIVED)
            row.settings = {**row.settings, "club_waived": sorted({*row.settings.get("club_waived", []), number})}
        return pairs, gibson_notes + notes, fixed

    def _club_pairs(self, session: Session, row: ClassicDivision) -> frozenset[tuple[int, int]]:
        """Every pair of the division's players of the same club (``XXP``)."""
        clubs = {s.number: s.entry.player.club.strip().casefold() for s in self._seeds(session, row)}
        return frozenset((a, b) for a in clubs for b in clubs if a < b and clubs[a] and clubs[a] == clubs[b])

    def _gibson_choices(self, session: Session, row: ClassicDivision, number: int) -> tuple[int, list[Pair]]:
        """The Gibson boards to try in round ``number`` (``gibson.gibson_choices``) among the
        players to be paired, by the standings after the previous round."""
        players, boards, absences = self._division_data(session, row)
        lines = standings(players, boards, rounds=row.rounds, played=number - 1, absences=absences, tie_breaks=())
        active = {p.number for p in players if p.withdrawn_round is None and p.first_round <= number
                  and (p.number, number) not in absences}
        return gibson_choices([line for line in lines if line.number in active], boards, rounds=row.rounds,
                              number=number)

    def _round_robin(self, session: Session, row: ClassicDivision, number: int) -> RoundRobinRound:
        """Round ``number`` of the Berger tables (once or twice round), without the players
        who have withdrawn or asked for a bye (``ranking.classic.round_robin``)."""
        players, _, absences = self._division_data(session, row)
        if any(player.first_round > 1 for player in players):
            raise StateConflict("un todos contra todos no admite inscripciones tardías",
                                what=f"división {row.name}", state="late_entries")
        schedule = self._schedule(row, len(players))
        if number > len(schedule):
            raise NotFound(f"con {len(players)} jugadores el todos contra todos tiene {len(schedule)} rondas",
                           what="ronda", key=number)
        withdrawn = {p.number for p in players if p.withdrawn_round is not None and p.withdrawn_round <= number}
        return round_robin_round(schedule[number - 1], withdrawn=withdrawn, asked=bye_requests(absences, number))

    @staticmethod
    def _schedule(row: ClassicDivision, players: int) -> list[list[Pair]]:
        """The division's round-robin schedule (two cycles for a double round robin)."""
        return round_robin_schedule(players, 2 if row.system == DOUBLE_ROUND_ROBIN else 1)

    def _store_round(self, session: Session, row: ClassicDivision, number: int, pairs: list[Pair],
                     method: str, *, gibson: Pair | None = None,
                     unplayed: list[tuple[Pair, str]] | None = None) -> list[list[int]]:
        """Store the round's boards (the bye last); the Gibson board's method is ``gibson``;
        ``unplayed`` games (a withdrawn player's, with the side that did not play) are boards
        without a table, decided by forfeit."""
        seeds = {seed.number: seed for seed in self._seeds(session, row)}
        boards = []
        table = 0
        for pair in sorted(pairs, key=lambda p: p.is_bye):
            if pair.first not in seeds or (pair.second and pair.second not in seeds):
                raise NotFound(f"no hay jugador con el número {pair.first if pair.first not in seeds else pair.second}",
                               what="jugador", key=pair.first if pair.first not in seeds else pair.second)
            if pair.is_bye:
                session.add(ClassicBoard(division_id=row.id, round=number, table=None, first_id=seeds[pair.first].id,
                                         method=method))
                boards.append([0, pair.first, 0])
                continue
            table += 1
            session.add(ClassicBoard(division_id=row.id, round=number, table=table, first_id=seeds[pair.first].id,
                                     second_id=seeds[pair.second].id, method=GIBSON if pair == gibson else method))
            boards.append([table, pair.first, pair.second])
        for pair, side in unplayed or []:
            session.add(ClassicBoard(division_id=row.id, round=number, table=None, first_id=seeds[pair.first].id,
                                     second_id=seeds[pair.second].id, forfeit=side, method=method))
            boards.append([0, pair.first, pair.second])
        session.flush()
        return boards

    # --- results --------------------------------------------------------------------------
    def enter_result(self, round_number: int, table: int, first_score: int, second_score: int, *,
                     division: str = "", reason: str = "", tournament_id: int | None = None) -> ResultOutcome:
        """Both scores of a board (judge, or an assistant for its tables). A second station
        typing the same scores confirms them; other scores leave a conflict for the judge
        (``conflict``), unless the judge types them (a correction, ``corrected``), which needs
        ``reason`` (``ReasonRequired`` otherwise; the log keeps it). A board of a withdrawn
        player's round is refused (``PlayerWithdrawn``)."""
        _check_scores(first_score, second_score)
        with self._write() as session:
            tournament = self._tournament(session, tournament_id)
            actor = self._authorise(session, tournament.id, Action.ENTER_RESULT, tables=[table])
            row = self._division_row(session, tournament, division)
            board = self._board(session, row, round_number, table)
            self._check_not_withdrawn(board)
            session.add(ClassicScoreEntry(board_id=board.id, first_score=first_score, second_score=second_score,
                                          station=self.context.station, arbiter=actor.name,
                                          entered_at=datetime.now(UTC)))
            counted = (board.first_score, board.second_score)
            outcome: ResultOutcome
            if board.forfeit is None and counted == (None, None):
                outcome = "stored"
            elif counted == (first_score, second_score) and board.forfeit is None:
                outcome = "confirmed"
            elif actor.role is Role.JUDGE:
                outcome = "corrected"
                _need_reason(reason, board, "cambia el resultado anotado")
            else:
                outcome = "conflict"
            session.add(ClassicScoreEntry(board_id=board.id, first_score=first_score, second_score=second_score,
                                          station=self.station, arbiter=actor.name, note=reason.strip(),
                                          entered_at=datetime.now(UTC)))
            if outcome == "conflict":
                board.conflict = True
                self._log(session, tournament.id, ResultConflict(row.name, round_number, table, first_score,
                                                                 second_score, counted[0] or 0, counted[1] or 0),
                          actor=actor, round_number=round_number)
                return "conflict"
            board.first_score, board.second_score, board.forfeit = first_score, second_score, None
            if outcome == "corrected":
                board.conflict = False
            self._log(session, tournament.id, ResultEntered(row.name, round_number, table, first_score, second_score),
                      actor=actor, round_number=round_number, reason=reason.strip())
            return outcome

    def record_forfeit(self, round_number: int, table: int, loser: Literal["first", "second", "both"], *,
                       division: str = "", reason: str = "", tournament_id: int | None = None) -> None:
        """The judge records a game lost by forfeit by ``loser`` (the side that did not play;
        ``both``: neither came, both lose — C.06 11: "—" for both). Over a result already
        counted it needs ``reason`` (``ReasonRequired``)."""
        if loser not in ("first", "second", "both"):
            raise InvalidInput("la incomparecencia es de «first» (quien empieza), de «second» o de «both» "
                               "(los dos)", what="la incomparecencia", value=loser)
        with self._write() as session:
            tournament, actor, row, board = self._judged_board(session, division, tournament_id, round_number, table)
            if board.forfeit != loser and (board.forfeit is not None or board.first_score is not None):
                _need_reason(reason, board, "cambia el resultado anotado por una incomparecencia")
            board.first_score = board.second_score = None
            board.forfeit, board.conflict = loser, False
            self._log(session, tournament.id, ResultEntered(row.name, round_number, table, 0, 0, forfeit=loser),
                      actor=actor, round_number=round_number, reason=reason.strip())

    def resolve_result(self, round_number: int, table: int, first_score: int, second_score: int, *,
                       division: str = "", reason: str = "", tournament_id: int | None = None) -> None:
        """The judge settles a board's scores (a conflict, a claim); over a result already
        counted it needs ``reason`` (``ReasonRequired``), which the log keeps."""
        _check_scores(first_score, second_score)
        with self._write() as session:
            tournament, actor, row, board = self._judged_board(session, division, tournament_id, round_number, table)
            self._check_not_withdrawn(board)
            if board.forfeit is not None or board.first_score is not None or board.conflict:
                _need_reason(reason, board, "fija el resultado de una mesa que ya tiene uno")
            board.first_score, board.second_score, board.forfeit, board.conflict = first_score, second_score, None, False
            self._log(session, tournament.id, ResultResolved(row.name, round_number, table, first_score, second_score),
                      actor=actor, round_number=round_number, reason=reason.strip())

    @staticmethod
    def _check_not_withdrawn(board: ClassicBoard) -> None:
        """Refuse a result on a board of a round from which one of its players had withdrawn."""
        for seed in (board.first, board.second):
            if seed is not None and seed.withdrawn_round is not None and seed.withdrawn_round <= board.round:
                raise PlayerWithdrawn(f"el jugador {seed.number} está retirado desde la ronda {seed.withdrawn_round}: "
                                      f"su partida de la ronda {board.round} no se juega", number=seed.number)

    def _judged_board(self, session: Session, division: str, tournament_id: int | None, round_number: int,
                      table: int) -> tuple[Tournament, Actor, ClassicDivision, ClassicBoard]:
        """The board a judge's decision is about, after checking it is the judge's to take."""
        tournament = self._tournament(session, tournament_id)
        actor = self._authorise(session, tournament.id, Action.RESOLVE_RESULT)
        row = self._division_row(session, tournament, division)
        return tournament, actor, row, self._board(session, row, round_number, table)

    # --- players ----------------------------------------------------------------------------
    def request_bye(self, number: int, round_number: int, kind: Literal["H", "Z"] = "H", *, division: str = "",
                    tournament_id: int | None = None) -> None:
        """A bye asked for a round not yet paired: ``H`` half a win, ``Z`` nothing (C.04.2)."""
        with self._write() as session:
            tournament = self._tournament(session, tournament_id)
            actor = self._authorise(session, tournament.id, Action.SET_ENTRY_STATUS)
            row = self._division_row(session, tournament, division)
            paired = self._rounds_paired(session, row)
            if round_number <= paired:
                raise StateConflict(f"la ronda {round_number} ya está emparejada",
                                    what=f"ronda {round_number}", state="paired")
            if round_number > row.rounds:
                raise NotFound(f"la división tiene {row.rounds} rondas; no hay ronda {round_number}",
                               what="ronda", key=round_number)
            self._seed_new_entries(session, tournament, row, paired + 1, actor)
            seed = self._seed(session, row, number)
            if seed.withdrawn_round is not None:
                raise StateConflict(f"el jugador {number} está retirado", what=f"jugador {number}", state="withdrawn")
            if session.scalar(select(ClassicAbsence).where(ClassicAbsence.seed_id == seed.id,
                                                           ClassicAbsence.round == round_number)) is not None:
                raise StateConflict(f"el jugador {number} ya tiene descanso en la ronda {round_number}",
                                    what=f"jugador {number}", state="bye")
            if kind not in ("H", "Z"):
                raise InvalidInput("el descanso pedido es H (media victoria) o Z (sin puntos)",
                                   what="el descanso", value=kind)
            session.add(ClassicAbsence(seed_id=seed.id, round=round_number, kind=kind))
            self._log(session, tournament.id, ClassicEntryChanged(row.name, number,
                                                                  "half-bye" if kind == "H" else "zero-bye",
                                                                  round_number), actor=actor)

    def withdraw(self, number: int, *, division: str = "", reason: str = "", tournament_id: int | None = None) -> None:
        """The player is not paired from the next round on."""
        with self._write() as session:
            tournament = self._tournament(session, tournament_id)
            actor = self._authorise(session, tournament.id, Action.SET_ENTRY_STATUS)
            row = self._division_row(session, tournament, division)
            seed = self._seed(session, row, number)
            if seed.withdrawn_round is not None:
                raise StateConflict(f"el jugador {number} ya está retirado desde la ronda {seed.withdrawn_round}",
                                    what=f"jugador {number}", state="withdrawn")
            seed.withdrawn_round = self._rounds_paired(session, row) + 1
            self._log(session, tournament.id, ClassicEntryChanged(row.name, number, "withdrawn", seed.withdrawn_round),
                      actor=actor, reason=reason)

    def enter_player(self, name: str, *, division: str = "", rating: int | None = None, title: str = "",
                     tournament_id: int | None = None) -> int:
        """Put the tournament's player ``name`` (registered with ``add_player``) into the
        division with its ``rating`` (None: EloDI's where known, else 0) and FIDE ``title``;
        returns its starting number. A player is in one division only (a division holds its
        own players). Before round 1 the starting list is put in the initial order again
        (C.04.2 B); later the player is a late entry with the next number (C.04.2 C.3).
        Judge only; ``TournamentError`` for an unknown or ambiguous name, a player in another
        division, a bad rating or title."""
        try:
            title = checked_title(title)
            if rating is not None:
                checked_rating(rating)
        except ValueError as error:
            raise InvalidInput(str(error), what="el elo o el título", value=rating) from None
        with self._write() as session:
            tournament = self._tournament(session, tournament_id)
            actor = self._authorise(session, tournament.id, Action.ADD_PLAYER)
            row = self._division_row(session, tournament, division)
            entry = self._entry_named(session, tournament, name)
            other = session.scalar(select(ClassicDivision).join(ClassicSeed, ClassicSeed.division_id == ClassicDivision.id)
                                   .where(ClassicSeed.entry_id == entry.id,
                                          ClassicDivision.tournament_id == tournament.id))
            if other is not None:
                where = "esta división" if other.id == row.id else f"la división «{other.name}»"
                raise StateConflict(f"{entry.player.name} ya está en {where}", what=entry.player.name,
                                    state="seeded")
            if rating is None:
                rating = (self.hooks.ratings([entry.player_id]) if self.hooks.ratings else {}).get(entry.player_id, 0)
            paired = self._rounds_paired(session, row)
            if paired and row.system in ROUND_ROBINS:
                raise StateConflict("un todos contra todos no admite inscripciones tardías",
                                    what=f"división {row.name}", state="late_entries")
            last = max((seed.number for seed in self._seeds(session, row)), default=0)
            seed = ClassicSeed(division_id=row.id, entry_id=entry.id, number=last + 1, rating=rating, title=title,
                               first_round=paired + 1)
            session.add(seed)
            session.flush()
            if paired == 0:
                self._renumber(session, row)
            self._log(session, tournament.id, ClassicEntryChanged(row.name, seed.number, "entered" if paired == 0
                                                                  else "joined", paired + 1),
                      actor=actor, reason=f"{entry.player.name}, rating {rating}" + (f", {title}" if title else ""))
            return seed.number

    def set_rating(self, number: int, rating: int, *, title: str | None = None, division: str = "",
                   tournament_id: int | None = None) -> int:
        """Correct player ``number``'s rating (and ``title``, None: unchanged). Before round 1
        the starting list is put in the initial order again (C.04.2 B.3) and the player's new
        number is returned; from round 1 on the numbers stay. Judge only."""
        try:
            checked_rating(rating)
            title = checked_title(title) if title is not None else None
        except ValueError as error:
            raise InvalidInput(str(error), what="el elo o el título", value=rating) from None
        with self._write() as session:
            tournament = self._tournament(session, tournament_id)
            actor = self._authorise(session, tournament.id, Action.UPDATE_PLAYER)
            row = self._division_row(session, tournament, division)
            seed = self._seed(session, row, number)
            seed.rating = rating
            if title is not None:
                seed.title = title
            session.flush()
            paired = self._rounds_paired(session, row)
            if paired == 0:
                self._renumber(session, row)
            self._log(session, tournament.id, ClassicEntryChanged(row.name, seed.number, "rating", paired + 1),
                      actor=actor, reason=f"rating {rating}" + (f", {seed.title}" if seed.title else ""))
            return seed.number

    def starting_list(self, *, division: str = "", tournament_id: int | None = None
                      ) -> list[tuple[int, str, int, str]]:
        """Fix and return the starting list (number, name, rating, title) in the initial
        order (C.04.2 B: rating, title, name in Spanish order). A tournament's only division
        takes every active entry not yet in it; with several divisions each holds the
        players put in it (``enter_player``). Judge only, as pairing is."""
        with self._write() as session:
            tournament = self._tournament(session, tournament_id)
            actor = self._authorise(session, tournament.id, Action.PAIR_ROUND)
            row = self._division_row(session, tournament, division)
            self._seed_new_entries(session, tournament, row, self._rounds_paired(session, row) + 1, actor)
            return [(s.number, s.entry.player.name, s.rating, s.title) for s in self._seeds(session, row)]

    # --- reading ----------------------------------------------------------------------------
    def round_note(self, round_number: int | None = None, *, division: str = "",
                   tournament_id: int | None = None) -> str:
        """What the log keeps with the pairing of a round (default: the last paired): the
        judge's reason, the Gibson board or why the Gibson rule was not applied, same-club
        players who had to meet; empty when nothing."""
        with self._read() as session:
            tournament, row = self._division(session, division, tournament_id)
            number = round_number or self._rounds_paired(session, row)
            for event in session.scalars(select(Event).where(Event.tournament_id == tournament.id,
                                                             Event.kind == EventKind.ROUND_PAIRED.value,
                                                             Event.round_number == number).order_by(Event.id.desc())):
                if event.payload.get("division") == row.name:
                    return event.reason
            return ""

    def players(self, *, division: str = "", tournament_id: int | None = None) -> list[Seeded]:
        """The division's players by starting number, as they stand (read only: nobody is
        added; ``starting_list`` fixes the list)."""
        with self._read() as session:
            _, row = self._division(session, division, tournament_id)
            return self._division_data(session, row)[0]

    def boards(self, round_number: int | None = None, *, division: str = "",
               tournament_id: int | None = None) -> list[BoardView]:
        """The boards of a round (default: the last paired)."""
        with self._read() as session:
            _, row = self._division(session, division, tournament_id)
            return self._board_views(session, row, round_number or self._rounds_paired(session, row))

    def standings(self, *, division: str = "", played: int | None = None,
                  tournament_id: int | None = None) -> list[StandingLine]:
        """The standings after ``played`` rounds (default: every round with all its results)."""
        with self._read() as session:
            _, row = self._division(session, division, tournament_id)
            data = self._division_data(session, row)
            return self._standings(row, data, self._rounds_complete(session, row) if played is None else played)

    def snapshot(self, *, division: str = "", tournament_id: int | None = None) -> EventSnapshot:
        """Everything a publication shows, read in one transaction (``EventSnapshot``)."""
        with self._read() as session:
            tournament, row = self._division(session, division, tournament_id)
            paired = self._rounds_paired(session, row)
            played = self._rounds_complete(session, row)
            data = self._division_data(session, row)
            lines = self._standings(row, data, played)
            return EventSnapshot(
                name=tournament.name, division=row.name, system=row.system, rounds=row.rounds, played=played,
                settings=DivisionSettings.from_dict(row.settings), players=tuple(data[0]),
                rounds_boards=tuple(tuple(self._board_views(session, row, n)) for n in range(1, paired + 1)),
                standings=tuple(lines),
                trf=write_trf(self._trf(session, row, played=played, data=data, export=True),
                              ranks={line.number: line.place for line in lines}),
                absences=data[2], annulled=self._annulled(row, data))

    @classmethod
    def _standings(cls, row: ClassicDivision, data: DivisionData, played: int) -> list[StandingLine]:
        """``standings`` with the division's settings; in a round robin without the results
        of a player who withdrew before completing half of their games (C.06 11).
        ``TournamentError`` for a missing result."""
        players, boards, absences = data
        settings = DivisionSettings.from_dict(row.settings)
        gone = cls._annulled(row, data)
        if gone:
            boards = counted_boards(boards, gone, cls._schedule(row, len(players)))
        try:
            return standings(players, boards, rounds=row.rounds, played=played, absences=absences,
                             bye_spread=settings.bye_spread, forfeit_spread=settings.forfeit_spread,
                             tie_breaks=settings.tie_breaks)
        except ValueError as error:
            raise InvalidInput(str(error), what="los desempates", value=settings.tie_breaks) from error

    @staticmethod
    def _annulled(row: ClassicDivision, data: DivisionData) -> frozenset[int]:
        """The players whose results do not count (C.06 11; round robins only)."""
        players, boards, _ = data
        if row.system not in ROUND_ROBINS or all(p.withdrawn_round is None for p in players):
            return frozenset()
        return frozenset(annulled(players, boards, cycles=2 if row.system == DOUBLE_ROUND_ROBIN else 1))

    def rounds_complete(self, *, division: str = "", tournament_id: int | None = None) -> int:
        """Rounds with every result in (what the standings count)."""
        with self._read() as session:
            _, row = self._division(session, division, tournament_id)
            return self._rounds_complete(session, row)

    def trf_text(self, *, division: str = "", tournament_id: int | None = None) -> str:
        """The division as a TRF-16 file: the rounds with every result, the next round's byes
        asked for, and in the rank column the division's standings (wins, spread,
        tie-breaks) — the order the organiser chose, not FIDE's points only."""
        return self.snapshot(division=division, tournament_id=tournament_id).trf

    # --- helpers ----------------------------------------------------------------------------
    def _division(self, session: Session, name: str, tournament_id: int | None) -> tuple[Tournament, ClassicDivision]:
        tournament = self._tournament(session, tournament_id)
        return tournament, self._division_row(session, tournament, name)

    @staticmethod
    def _division_row(session: Session, tournament: Tournament, name: str) -> ClassicDivision:
        row = session.scalar(select(ClassicDivision).where(ClassicDivision.tournament_id == tournament.id,
                                                           ClassicDivision.name == name))
        if row is None:
            raise NotFound(f"el torneo no tiene la división «{name}»" if name else
                                  "el torneo no tiene una división clásica: créela primero", what="división", key=name)
        return row

    @staticmethod
    def _seeds(session: Session, row: ClassicDivision) -> list[ClassicSeed]:
        # Each seed's entry and player in the same query: read one by one (lazily), the 80
        # queries of a 40-player division made every board list and standings read slow.
        return list(session.scalars(select(ClassicSeed).where(ClassicSeed.division_id == row.id)
                                    .options(joinedload(ClassicSeed.entry).joinedload(Entry.player))
                                    .order_by(ClassicSeed.number)))

    def _seed(self, session: Session, row: ClassicDivision, number: int) -> ClassicSeed:
        seed = session.scalar(select(ClassicSeed).where(ClassicSeed.division_id == row.id,
                                                        ClassicSeed.number == number))
        if seed is None:
            raise NotFound(f"no hay jugador con el número {number} en la división", what="jugador", key=number)
        return seed

    def _seed_new_entries(self, session: Session, tournament: Tournament, row: ClassicDivision, number: int,
                          actor: Actor) -> None:
        """In a tournament's only division, give a starting number to every active entry
        without one: before round 1 in the initial order (rating — EloDI's where known —,
        name; C.04.2 B), later as late entries after the last number. With several divisions
        nobody is added: each division holds the players put in it (``enter_player``)."""
        divisions = list(session.scalars(select(ClassicDivision.id).where(ClassicDivision.tournament_id == tournament.id)))
        if len(divisions) > 1:
            return
        seeded = {seed.entry_id for seed in self._seeds(session, row)}
        entries = [e for e in session.scalars(select(Entry).where(Entry.tournament_id == tournament.id))
                   if e.id not in seeded and e.status == EntryStatus.ACTIVE.value]
        if not entries:
            return
        ratings = self.hooks.ratings([e.player_id for e in entries]) if self.hooks.ratings else {}
        entries.sort(key=lambda e: initial_order_key(ratings.get(e.player_id, 0), "", e.player.name))
        last = max((seed.number for seed in self._seeds(session, row)), default=0)
        for offset, entry in enumerate(entries, start=1):
            session.add(ClassicSeed(division_id=row.id, entry_id=entry.id, number=last + offset,
                                    rating=ratings.get(entry.player_id, 0), first_round=number))
            if number > 1:
                self._log(session, tournament.id, ClassicEntryChanged(row.name, last + offset, "joined", number),
                          actor=actor)
        session.flush()
        if number == 1:
            self._renumber(session, row)

    def _renumber(self, session: Session, row: ClassicDivision) -> None:
        """Starting numbers 1… in the initial order (before round 1 only; C.04.2 B.3)."""
        seeds = self._seeds(session, row)
        ordered = sorted(seeds, key=lambda s: initial_order_key(s.rating, s.title, s.entry.player.name))
        if [s.number for s in ordered] == list(range(1, len(ordered) + 1)):
            return
        for index, seed in enumerate(ordered, start=1):
            seed.number = -index                  # two steps: (division, number) is unique
        session.flush()
        for seed in ordered:
            seed.number = -seed.number
        session.flush()

    @staticmethod
    def _entry_named(session: Session, tournament: Tournament, name: str) -> Entry:
        """The tournament's entry of the player called ``name`` (spaces and case ignored)."""
        wanted = " ".join(name.split()).casefold()
        found = [e for e in session.scalars(select(Entry).where(Entry.tournament_id == tournament.id))
                 if " ".join(e.player.name.split()).casefold() == wanted]
        if not found:
            raise NotFound(f"no hay ningún jugador «{' '.join(name.split())}» inscrito en el torneo",
                           what="jugador", key=name)
        if len(found) > 1:
            raise InvalidInput(f"hay {len(found)} jugadores «{found[0].player.name}» en el torneo",
                               what="jugador", value=name)
        return found[0]

    @staticmethod
    def _rounds_paired(session: Session, row: ClassicDivision) -> int:
        rounds = session.scalars(select(ClassicBoard.round).where(ClassicBoard.division_id == row.id)
                                 .order_by(ClassicBoard.round.desc()).limit(1)).first()
        return rounds or 0

    def _rounds_complete(self, session: Session, row: ClassicDivision) -> int:
        paired = self._rounds_paired(session, row)
        for number in range(1, paired + 1):
            if self._missing(session, row, number):
                return number - 1
        return paired

    @staticmethod
    def _missing(session: Session, row: ClassicDivision, number: int) -> list[ClassicBoard]:
        boards = session.scalars(select(ClassicBoard).where(ClassicBoard.division_id == row.id,
                                                            ClassicBoard.round == number))
        return [b for b in boards if b.second_id is not None and (b.conflict or (
            b.forfeit is None and (b.first_score is None or b.second_score is None)))]

    def _check_round_complete(self, session: Session, row: ClassicDivision, number: int) -> None:
        if number < 1:
            return
        missing = self._missing(session, row, number)
        if missing:
            tables = ", ".join(str(b.table) for b in missing[:10])
            raise StateConflict(f"la ronda {number} no está completa: faltan resultados o hay conflictos en "
                                  f"las mesas {tables}", what=f"ronda {number}", state="incomplete")

    def _board(self, session: Session, row: ClassicDivision, number: int, table: int) -> ClassicBoard:
        board = session.scalar(select(ClassicBoard).where(ClassicBoard.division_id == row.id,
                                                          ClassicBoard.round == number, ClassicBoard.table == table))
        if board is None:
            raise NotFound(f"la ronda {number} no tiene mesa {table}", what="mesa", key=table)
        return board

    def _division_data(self, session: Session, row: ClassicDivision) -> DivisionData:
        seeds = self._seeds(session, row)
        by_id = {seed.id: seed for seed in seeds}
        players = [Seeded(s.number, s.entry.player.name, s.rating, s.entry.player.club, s.first_round,
                          s.withdrawn_round, s.title) for s in seeds]
        rows = session.scalars(select(ClassicBoard).where(ClassicBoard.division_id == row.id)
                               .order_by(ClassicBoard.round, ClassicBoard.id))
        boards = [Board(b.round, by_id[b.first_id].number, by_id[b.second_id].number if b.second_id else 0,
                        b.first_score, b.second_score, b.forfeit) for b in rows]
        # A bye asked for a round from which the player has withdrawn is void: withdrawn (Z).
        absences = {(by_id[a.seed_id].number, a.round): a.kind for a in session.scalars(
            select(ClassicAbsence).where(ClassicAbsence.seed_id.in_(by_id)))
            if by_id[a.seed_id].withdrawn_round is None or a.round < (by_id[a.seed_id].withdrawn_round or 0)}
        return players, boards, absences

    def _trf(self, session: Session, row: ClassicDivision, *, played: int, data: DivisionData | None = None,
             export: bool = False) -> Trf:
        """The division as the engines read it after ``played`` rounds; ``export``: also what
        a third party needs to re-pair it (``XXP`` same-club pairs with the rounds that kept
        them apart, ``XXG`` Gibson boards; ``ranking.classic.trf``)."""
        players, boards, absences = data or self._division_data(session, row)
        tournament = session.get(Tournament, row.tournament_id)
        name = tournament.name if tournament is not None else ""
        settings = DivisionSettings.from_dict(row.settings)
        trf = division_trf(players, boards, rounds=row.rounds, played=played, absences=absences,
                           name=f"{name} {row.name}".strip(), first_colour=settings.first_colour or "w")
        if not export:
            return trf
        seeds = {seed.id: seed.number for seed in self._seeds(session, row)}
        gibson = tuple((b.round, seeds[b.first_id], seeds[b.second_id]) for b in session.scalars(
            select(ClassicBoard).where(ClassicBoard.division_id == row.id, ClassicBoard.method == GIBSON,
                                       ClassicBoard.round <= played).order_by(ClassicBoard.round))
            if b.second_id is not None)
        restricted = frozenset(range(1, settings.club_rounds + 1)) - set(row.settings.get("club_waived", []))
        forbidden = self._club_pairs(session, row) if settings.club_rounds else frozenset()
        return replace(trf, forbidden=forbidden, restricted_rounds=restricted, gibson=gibson)

    def _board_views(self, session: Session, row: ClassicDivision, number: int) -> list[BoardView]:
        seeds = {seed.id: seed for seed in self._seeds(session, row)}
        rows = session.scalars(select(ClassicBoard).where(ClassicBoard.division_id == row.id,
                                                          ClassicBoard.round == number).order_by(ClassicBoard.id))
        views = []
        for b in rows:
            first, second = seeds[b.first_id], seeds.get(b.second_id) if b.second_id else None
            views.append(BoardView(b.round, b.table, first.number, first.entry.player.name,
                                   second.number if second else 0, second.entry.player.name if second else "",
                                   b.first_score, b.second_score, b.forfeit, b.conflict, b.method))
        return views


__all__ = ["BoardView", "ClassicService", "system_name", "DivisionSettings", "DivisionView", "EventSnapshot", "PairingError",
           "PlayerWithdrawn", "ReasonRequired", "ResultOutcome"]
