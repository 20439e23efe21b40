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

The service is a façade built by composition, as ``duplicate.service.facade.TournamentService``:
one object per task module on one ``ServiceContext`` — ``divisions`` (divisions, their
players, the starting list, byes, withdrawals), ``pairing`` (the rounds), ``results``
(the boards' results), ``reports`` (players, boards, standings, TRF, the snapshot a
publication shows) — sharing the reads of ``ranking.classic.base``; every public method
hands the call to its module (``duplicate.service.delegate.Delegate``). The values it
takes and shows are in ``ranking.classic.views``.
"""

from __future__ import annotations

from dataclasses import dataclass

from duplicate.service.context import HasContext, OnContext, ServiceContext, ServiceHooks
from duplicate.service.delegate import Delegate
from duplicate.storage.database import Database
from ranking.classic.divisions import Divisions
from ranking.classic.pairing import Pairing
from ranking.classic.reports import Reports
from ranking.classic.results import Results


@dataclass(frozen=True)
class ClassicModules:
    """The task modules of one classic service handle, all on the same context."""

    divisions: Divisions
    pairing: Pairing
    results: Results
    reports: Reports

    @classmethod
    def on(cls, context: ServiceContext) -> ClassicModules:
        return cls(divisions=Divisions(context), pairing=Pairing(context), results=Results(context),
                   reports=Reports(context))


class ClassicService(OnContext):
    """Classic divisions of the tournaments of one database (see the module docstring).

    Built on a ``ServiceContext`` — the one a ``TournamentService`` holds (``like``), so
    both act with the same credential and log to the same event log — or on a database
    with ``station``, ``pin``, ``hooks`` as ``TournamentService`` takes them."""

    def __init__(self, source: Database | ServiceContext, *, station: str = "principal", pin: str | None = None,
                 hooks: ServiceHooks | None = None) -> None:
        self.context = source if isinstance(source, ServiceContext) else \
            ServiceContext(source, station=station, pin=pin, hooks=hooks)
        self.modules = ClassicModules.on(self.context)

    @classmethod
    def like(cls, service: HasContext) -> ClassicService:
        """A classic service on the same context (database, station, credential, hooks) as
        ``service`` (a ``TournamentService`` the front end already holds)."""
        return cls(service.context)

    # --- setting up: divisions and their players (C.04.2) ----------------------------------
    create_division = Delegate("divisions", Divisions.create_division)
    divisions = Delegate("divisions", Divisions.divisions)
    enter_player = Delegate("divisions", Divisions.enter_player)
    set_rating = Delegate("divisions", Divisions.set_rating)
    starting_list = Delegate("divisions", Divisions.starting_list)
    request_bye = Delegate("divisions", Divisions.request_bye)
    withdraw = Delegate("divisions", Divisions.withdraw)

    # --- pairing --------------------------------------------------------------------------
    pair_round = Delegate("pairing", Pairing.pair_round)

    # --- results --------------------------------------------------------------------------
    enter_result = Delegate("results", Results.enter_result)
    record_forfeit = Delegate("results", Results.record_forfeit)
    resolve_result = Delegate("results", Results.resolve_result)

    # --- reading ----------------------------------------------------------------------------
    round_note = Delegate("reports", Reports.round_note)
    players = Delegate("reports", Reports.players)
    boards = Delegate("reports", Reports.boards)
    standings = Delegate("reports", Reports.standings)
    snapshot = Delegate("reports", Reports.snapshot)
    rounds_complete = Delegate("reports", Reports.rounds_complete)
    trf_text = Delegate("reports", Reports.trf_text)


__all__ = ["ClassicModules", "ClassicService"]
