"""What a classic division shows: its players, the boards of a round and the note of its
pairing, the standings, the rounds complete, the TRF-16 file and everything a publication
shows at once (``EventSnapshot``). Read only. A task module of ``ranking.classic.service``."""

from __future__ import annotations

from sqlalchemy import select

from duplicate.record.event_kinds import EventKind
from duplicate.service.errors import InvalidInput
from duplicate.storage.classic_models import ClassicDivision
from duplicate.storage.models import Event
from ranking.classic.base import ClassicTask
from ranking.classic.round_robin import annulled, counted_boards
from ranking.classic.standings import Seeded, StandingLine, standings
from ranking.classic.trf import write_trf
from ranking.classic.views import (
    DOUBLE_ROUND_ROBIN,
    ROUND_ROBINS,
    BoardView,
    DivisionData,
    DivisionSettings,
    EventSnapshot,
)

__all__ = ["Reports"]


class Reports(ClassicTask):
    """The reads of a classic division for screens, commands and publications."""

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
