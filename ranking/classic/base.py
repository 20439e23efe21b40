"""What the task modules of the classic-event service share (``ranking.classic.service``):
the ``ServiceContext`` and the reads of a division over it — its players (seeds), boards,
rounds paired and complete, byes asked for, the TRF the engines read and the boards as the
screens show them. Modules extend ``ClassicTask`` only and never one another (as
``duplicate.service.base.TaskModule``)."""

from __future__ import annotations

from collections.abc import Iterable
from contextlib import AbstractContextManager
from dataclasses import replace

from sqlalchemy import select
from sqlalchemy.orm import Session, joinedload

from duplicate.record.event_kinds import TournamentEvent
from duplicate.record.events_ranking import ClassicEntryChanged
from duplicate.rules.statuses import EntryStatus
from duplicate.service.access import Action, Actor
from duplicate.service.context import OnContext, ServiceContext
from duplicate.service.errors import NotFound, StateConflict
from duplicate.storage.classic_models import ClassicAbsence, ClassicBoard, ClassicDivision, ClassicSeed
from duplicate.storage.models import Entry, Tournament
from duplicate.storage.projector import next_ids
from ranking.classic.pairing_rules import Pair
from ranking.classic.round_robin import round_robin_schedule
from ranking.classic.standings import Board, Seeded, division_trf
from ranking.classic.starting_list import initial_order_key
from ranking.classic.trf import Trf
from ranking.classic.views import DOUBLE_ROUND_ROBIN, GIBSON, BoardView, DivisionData, DivisionSettings

__all__ = ["ClassicTask"]


class ClassicTask(OnContext):
    """A task module of the classic service: built on the shared ``ServiceContext`` (the
    same credential and event log as the tournament service), with the reads of a
    division every module uses."""

    def __init__(self, context: ServiceContext) -> None:
        self.context = context

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
        seeds = self._seeds(session, row)
        last = max((seed.number for seed in seeds), default=0)
        ids = next_ids(session, ClassicSeed, len(entries))
        order = None
        if number == 1:                           # the starting list in the initial order, once all are in
            order = self._initial_order([*((s.id, s.rating, s.title, s.entry.player.name) for s in seeds),
                                         *((seed_id, ratings.get(e.player_id, 0), "", e.player.name)
                                           for seed_id, e in zip(ids, entries, strict=True))])
        for offset, (seed_id, entry) in enumerate(zip(ids, entries, strict=True), start=1):
            self._log(session, tournament.id,
                      ClassicEntryChanged(row.name, last + offset, "joined" if number > 1 else "entered", number,
                                          seed=seed_id, entry=entry.id, rating=ratings.get(entry.player_id, 0),
                                          title="", order=order if offset == len(entries) else None), actor=actor)

    @staticmethod
    def _initial_order(seeds: list[tuple[int, int, str, str]]) -> list[int] | None:
        """The seed ids of ``seeds`` (id, rating, title, name; by starting number, 1 first)
        in the initial order (C.04.2 B.3), or None when their numbers already follow it."""
        ordered = [seed[0] for seed in sorted(seeds, key=lambda s: initial_order_key(s[1], s[2], s[3]))]
        return None if ordered == [seed[0] for seed in seeds] else ordered

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
        them apart, ``XXG`` Gibson boards, ``XXM`` rounds paired by hand unlike the system
        with the judge's reason; ``ranking.classic.trf``)."""
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
        manual = tuple(sorted((int(number), reason) for number, reason in row.settings.get("manual_rounds", {}).items()
                              if int(number) <= played))
        return replace(trf, forbidden=forbidden, restricted_rounds=restricted, gibson=gibson, manual=manual)

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

    def _club_pairs(self, session: Session, row: ClassicDivision) -> frozenset[tuple[int, int]]:
        """Every pair of the division's players of the same club (``XXP``)."""
        clubs = {s.number: s.entry.player.club.strip().casefold() for s in self._seeds(session, row)}
        return frozenset((a, b) for a in clubs for b in clubs if a < b and clubs[a] and clubs[a] == clubs[b])

    @staticmethod
    def _schedule(row: ClassicDivision, players: int) -> list[list[Pair]]:
        """The division's round-robin schedule (two cycles for a double round robin)."""
        return round_robin_schedule(players, 2 if row.system == DOUBLE_ROUND_ROBIN else 1)
