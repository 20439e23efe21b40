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

from collections.abc import Iterable
from contextlib import AbstractContextManager
from dataclasses import asdict, dataclass, field, replace
from datetime import UTC, datetime
from typing import Any, Literal

from sqlalchemy import select
from sqlalchemy.orm import Session

from duplicate.service.access import Action, Actor, Role
from duplicate.service.context import HasContext, OnContext, ServiceContext, ServiceHooks, typed_text
from duplicate.service.errors import InvalidInput, InvalidNumber, MissingReason, NotFound, StateConflict
from duplicate.service.events import (
    TournamentEvent,
    ClassicEntryChanged,
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
from duplicate.storage.models import Entry, Tournament
from duplicate.storage.models import Entry, Tournament
from duplicate.texts import NAME_MAX
from ranking.classic.engines import (
    SYSTEM_NAMES,
    EngineUnavailable,
    PairingError,
    PairingSystem,
    berger_schedule,
    pair_next_round,
)
from ranking.classic.pairing_rules import Pair, check_pairing
from ranking.classic.standings import Board, Seeded, StandingLine, division_trf, standings
from ranking.classic.trf import Trf, write_trf

ROUND_ROBIN = "round-robin"
MANUAL = "manual"
SYSTEMS = tuple(s.value for s in PairingSystem) + (ROUND_ROBIN, MANUAL)
SCORE_RANGE = range(-500, 2001)


def system_name(system: str) -> str:
    """A division's pairing system in Spanish, as screens and publications show it."""
    if system == ROUND_ROBIN:
        return "todos contra todos (tablas de Berger)"
    if system == MANUAL:
        return "emparejamientos del juez árbitro"
    return SYSTEM_NAMES[PairingSystem(system)]


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
    as in TSH), and the rest are paired by the system."""

    bye_spread: int = 50
    forfeit_spread: int = 50
    tie_breaks: tuple[str, ...] = ("BH", "SB")
    club_rounds: int = 0
    gibson: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "tie_breaks": list(self.tie_breaks)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> DivisionSettings:
        return cls(int(data.get("bye_spread", 50)), int(data.get("forfeit_spread", 50)),
                   tuple(data.get("tie_breaks", ("BH", "SB"))), int(data.get("club_rounds", 0)),
                   bool(data.get("gibson", False)))


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
            self._log(session, tournament.id, DivisionCreated(name, system, rounds, settings.to_dict()), actor=actor)
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
            trf = self._trf(session, row, played=number - 1)
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
            elif row.system == ROUND_ROBIN:
                pairs, method = self._berger_round(session, row, number), ROUND_ROBIN
            else:
                pairs, notes = self._swiss_round(session, row, trf, number)
                method = row.system
                reason = "; ".join([reason.strip()] * bool(reason.strip()) + notes)
            boards = self._store_round(session, row, number, pairs, method)
            self._log(session, tournament.id, RoundPaired(row.name, number, method, boards), actor=actor,
                      round_number=number, reason=reason)
            return self._board_views(session, row, number)

    def _check_manual(self, session: Session, row: ClassicDivision, pairs: list[Pair]) -> None:
        """Refuse, whatever the reason, a manual pairing that cannot be stored: an unknown
        starting number, a player twice, a player against themself, two byes."""
        if not pairs:
            raise InvalidInput("el emparejamiento manual está vacío: indique las parejas «1-8,2-7,…»",
                               what="el emparejamiento", value="")
        known = {seed.number for seed in self._seeds(session, row)}
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
                if number in seen:
                    raise InvalidInput(f"el jugador {number} aparece dos veces en el emparejamiento",
                                       what="el emparejamiento", value=number)
                seen.add(number)
        if sum(pair.is_bye for pair in pairs) > 1:
            raise InvalidInput("como mucho un descanso por ronda",
                               what="el emparejamiento", value=sum(pair.is_bye for pair in pairs))

    def _swiss_round(self, session: Session, row: ClassicDivision, trf: Trf, number: int
                     ) -> tuple[list[Pair], list[str]]:
        """The round by the division's Swiss system, with its Gibson and same-club options;
        returns the pairs and notes for the log."""
        settings = DivisionSettings.from_dict(row.settings)
        system = PairingSystem(row.system)
        notes: list[str] = []
        fixed = self._gibson_pair(session, row, number) if settings.gibson and number > 1 else None
        if fixed is not None:
            trf = replace(trf, absent=trf.absent | {fixed.first, fixed.second})
            notes.append(f"regla Gibson: {fixed.first}-{fixed.second} (primer puesto asegurado)")
        if number <= settings.club_rounds:
            clubs = {s.number: s.entry.player.club.strip().casefold() for s in self._seeds(session, row)}
            forbidden = frozenset((a, b) for a in clubs for b in clubs if a < b and clubs[a] and clubs[a] == clubs[b])
            try:
                return [*([fixed] if fixed else []), *pair_next_round(replace(trf, forbidden=forbidden), system)], notes
            except EngineUnavailable:
                raise
            except PairingError:
                notes.append("no se pudo evitar que se enfrenten jugadores del mismo club")
        return [*([fixed] if fixed else []), *pair_next_round(trf, system)], notes

    def _gibson_pair(self, session: Session, row: ClassicDivision, number: int) -> Pair | None:
        """The Gibson board of round ``number``, or None: the leader has clinched first place
        when its wins exceed the second's by more than the rounds left (``number`` included);
        its opponent is the highest-ranked player it has not met who can no longer reach the
        second's wins, else the lowest-ranked it has not met. The one who moved first less
        often moves first."""
        players, boards, absences = self._division_data(session, row)
        lines = standings(players, boards, rounds=row.rounds, played=number - 1, absences=absences, tie_breaks=())
        active = {p.number for p in players if p.withdrawn_round is None and p.first_round <= number
                  and (p.number, number) not in absences}
        lines = [line for line in lines if line.number in active]
        if len(lines) < 3:
            return None
        leader, second = lines[0], lines[1]
        left = row.rounds - number + 1
        if leader.wins - second.wins <= left:
            return None
        met = {b.second if b.first == leader.number else b.first for b in boards
               if leader.number in (b.first, b.second)}
        candidates = [line for line in lines[1:] if line.number not in met]
        if not candidates:
            return None
        out_of_it = [line for line in candidates if line.wins + left < second.wins]
        opponent = out_of_it[0] if out_of_it else candidates[-1]
        leader_first = leader.firsts <= opponent.firsts
        return Pair(leader.number, opponent.number) if leader_first else Pair(opponent.number, leader.number)

    def _berger_round(self, session: Session, row: ClassicDivision, number: int) -> list[Pair]:
        seeds = self._seeds(session, row)
        if any(seed.first_round > 1 for seed in seeds):
            raise StateConflict("un todos contra todos no admite inscripciones tardías",
                                what=f"división {row.name}", state="late_entries")
        schedule = berger_schedule(len(seeds))
        if number > len(schedule):
            raise NotFound(f"con {len(seeds)} jugadores el todos contra todos tiene {len(schedule)} rondas",
                           what="ronda", key=number)
        return schedule[number - 1]

    def _store_round(self, session: Session, row: ClassicDivision, number: int, pairs: list[Pair],
                     method: str) -> list[list[int]]:
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
                                     second_id=seeds[pair.second].id, method=method))
            boards.append([table, pair.first, pair.second])
        session.flush()
        return boards

    # --- results --------------------------------------------------------------------------
    def enter_result(self, round_number: int, table: int, first_score: int, second_score: int, *,
                     division: str = "", tournament_id: int | None = None) -> ResultOutcome:
        """Both scores of a board (judge, or an assistant for its tables). A second station
        typing the same scores confirms them; other scores leave a conflict for the judge
        (``conflict``), unless the judge types them (a correction, ``corrected``)."""
        _check_scores(first_score, second_score)
        with self._write() as session:
            tournament = self._tournament(session, tournament_id)
            actor = self._authorise(session, tournament.id, Action.ENTER_RESULT, tables=[table])
            row = self._division_row(session, tournament, division)
            board = self._board(session, row, round_number, table)
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
            else:
                board.conflict = True
                self._log(session, tournament.id, ResultConflict(row.name, round_number, table, first_score,
                                                                 second_score, counted[0] or 0, counted[1] or 0),
                          actor=actor, round_number=round_number)
                return "conflict"
            board.first_score, board.second_score, board.forfeit = first_score, second_score, None
            if outcome == "corrected":
                board.conflict = False
            self._log(session, tournament.id, ResultEntered(row.name, round_number, table, first_score, second_score),
                      actor=actor, round_number=round_number)
            return outcome

    def record_forfeit(self, round_number: int, table: int, loser: Literal["first", "second"], *,
                       division: str = "", reason: str = "", tournament_id: int | None = None) -> None:
        """The judge records a game lost by forfeit by ``loser`` (the side that did not play)."""
        if loser not in ("first", "second"):
            raise InvalidInput("la incomparecencia es de «first» (quien empieza) o de «second»",
                               what="la incomparecencia", value=loser)
        with self._write() as session:
            tournament, actor, row, board = self._judged_board(session, division, tournament_id, round_number, table)
            board.first_score = board.second_score = None
            board.forfeit, board.conflict = loser, False
            self._log(session, tournament.id, ResultEntered(row.name, round_number, table, 0, 0, forfeit=loser),
                      actor=actor, round_number=round_number, reason=reason)

    def resolve_result(self, round_number: int, table: int, first_score: int, second_score: int, *,
                       division: str = "", reason: str = "", tournament_id: int | None = None) -> None:
        """The judge settles a board's scores (a conflict, a claim)."""
        _check_scores(first_score, second_score)
        with self._write() as session:
            tournament, actor, row, board = self._judged_board(session, division, tournament_id, round_number, table)
            board.first_score, board.second_score, board.forfeit, board.conflict = first_score, second_score, None, False
            self._log(session, tournament.id, ResultResolved(row.name, round_number, table, first_score, second_score),
                      actor=actor, round_number=round_number, reason=reason)

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

    def starting_list(self, *, division: str = "", tournament_id: int | None = None) -> list[tuple[int, str, int]]:
        """Fix and return the starting list (number, name, rating): every active entry gets
        its number now (by rating, then name) — judge only, as pairing does."""
        with self._write() as session:
            tournament = self._tournament(session, tournament_id)
            actor = self._authorise(session, tournament.id, Action.PAIR_ROUND)
            row = self._division_row(session, tournament, division)
            self._seed_new_entries(session, tournament, row, self._rounds_paired(session, row) + 1, actor)
            return [(s.number, s.entry.player.name, s.rating) for s in self._seeds(session, row)]

    # --- reading ----------------------------------------------------------------------------
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
                trf=write_trf(self._trf(session, row, played=played, data=data),
                              ranks={line.number: line.place for line in lines}),
                absences=data[2])

    @staticmethod
    def _standings(row: ClassicDivision, data: DivisionData, played: int) -> list[StandingLine]:
        """``standings`` with the division's settings; ``TournamentError`` for a missing result."""
        players, boards, absences = data
        settings = DivisionSettings.from_dict(row.settings)
        try:
            return standings(players, boards, rounds=row.rounds, played=played, absences=absences,
                             bye_spread=settings.bye_spread, forfeit_spread=settings.forfeit_spread,
                             tie_breaks=settings.tie_breaks)
        except ValueError as error:
            raise InvalidInput(str(error), what="los desempates", value=settings.tie_breaks) from error

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
        return list(session.scalars(select(ClassicSeed).where(ClassicSeed.division_id == row.id)
                                    .order_by(ClassicSeed.number)))

    def _seed(self, session: Session, row: ClassicDivision, number: int) -> ClassicSeed:
        seed = session.scalar(select(ClassicSeed).where(ClassicSeed.division_id == row.id,
                                                        ClassicSeed.number == number))
        if seed is None:
            raise NotFound(f"no hay jugador con el número {number} en la división", what="jugador", key=number)
        return seed

    def _seed_new_entries(self, session: Session, tournament: Tournament, row: ClassicDivision, number: int,
                          actor: Actor) -> None:
        """Give a starting number to every active entry without one: at round 1 by rating
        (EloDI where known) then name; later, late entries after the last number."""
        seeded = {seed.entry_id for seed in self._seeds(session, row)}
        entries = [e for e in session.scalars(select(Entry).where(Entry.tournament_id == tournament.id))
                   if e.id not in seeded and e.status == EntryStatus.ACTIVE.value]
        if not entries:
            return
        ratings = self.hooks.ratings([e.player_id for e in entries]) if self.hooks.ratings else {}
        entries.sort(key=lambda e: (-ratings.get(e.player_id, 0), e.player.name))
        last = max((seed.number for seed in self._seeds(session, row)), default=0)
        for offset, entry in enumerate(entries, start=1):
            session.add(ClassicSeed(division_id=row.id, entry_id=entry.id, number=last + offset,
                                    rating=ratings.get(entry.player_id, 0), first_round=number))
            if number > 1:
                self._log(session, tournament.id, ClassicEntryChanged(row.name, last + offset, "joined", number),
                          actor=actor)
        session.flush()

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
                          s.withdrawn_round) for s in seeds]
        rows = session.scalars(select(ClassicBoard).where(ClassicBoard.division_id == row.id)
                               .order_by(ClassicBoard.round, ClassicBoard.id))
        boards = [Board(b.round, by_id[b.first_id].number, by_id[b.second_id].number if b.second_id else 0,
                        b.first_score, b.second_score, b.forfeit) for b in rows]
        absences = {(by_id[a.seed_id].number, a.round): a.kind for a in session.scalars(
            select(ClassicAbsence).where(ClassicAbsence.seed_id.in_(by_id)))}
        return players, boards, absences

    def _trf(self, session: Session, row: ClassicDivision, *, played: int, data: DivisionData | None = None) -> Trf:
        players, boards, absences = data or self._division_data(session, row)
        tournament = session.get(Tournament, row.tournament_id)
        name = tournament.name if tournament is not None else ""
        return division_trf(players, boards, rounds=row.rounds, played=played, absences=absences,
                            name=f"{name} {row.name}".strip())

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
           "ResultOutcome"]
