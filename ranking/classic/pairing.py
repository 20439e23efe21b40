"""Pairing a classic division's next round: by its Swiss system (with the same-club and
Gibson options), by the Berger tables, or as the judge types it, checked by the same rules
(``pairing_rules``; a pairing that breaks one needs a reason, which the log keeps). A task
module of ``ranking.classic.service``."""

from __future__ import annotations

from dataclasses import replace

from sqlalchemy.orm import Session

from duplicate.record.events_ranking import RoundPaired
from duplicate.service.access import Action
from duplicate.service.errors import InvalidInput, MissingReason, NotFound, StateConflict
from duplicate.storage.classic_models import ClassicBoard, ClassicDivision
from duplicate.storage.projector import next_ids
from ranking.classic.base import ClassicTask
from ranking.classic.engines import EngineUnavailable, PairingError, PairingSystem, pair_next_round
from ranking.classic.errors import PlayerWithdrawn
from ranking.classic.gibson import gibson_choices, gibson_round
from ranking.classic.pairing_rules import Pair, check_pairing
from ranking.classic.round_robin import RoundRobinRound, bye_requests, round_robin_round
from ranking.classic.standings import standings
from ranking.classic.trf import Trf
from ranking.classic.views import CLUB_WAIVED, MANUAL, ROUND_ROBINS, BoardView, DivisionSettings

SWISS_SYSTEMS = frozenset(system.value for system in PairingSystem)
"""The divisions paired by a Swiss system (C.04), whose manual rounds are compared with it."""

__all__ = ["Pairing"]


class Pairing(ClassicTask):
    """The rounds of a classic division, paired one at a time."""

    def pair_round(self, division: str = "", *, manual: list[tuple[int, int]] | None = None, reason: str = "",
                   tournament_id: int | None = None) -> list[BoardView]:
        """Pair the next round: by the division's system, or ``manual`` pairs (first, second;
        second 0 for the bye) typed by the judge. The previous round must have every result.
        A manual pairing that breaks a rule of ``pairing_rules`` needs ``reason``; so does,
        in a Swiss division, one that differs from the pairing its system gives (C.04.2 A.4:
        the system pairs objectively; A.5: correct pairings are not altered in anyone's
        favour): the event keeps the system's pairs (``system_pairs``) and the reason, and
        the exported TRF says so (``XXM``, read by ``classic check``).
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
            waived = False
            system_pairs: list[Pair] | None = None
            if manual is not None:
                pairs = [Pair(first, second) for first, second in manual]
                self._check_manual(session, row, pairs)
                problems = check_pairing(trf, pairs)
                if problems and not reason.strip():
                    raise MissingReason("el emparejamiento incumple el reglamento (" + "; ".join(problems)
                                          + "): indique el motivo para mantenerlo", action="override_pairing")
                if row.system in SWISS_SYSTEMS:
                    system_pairs, unlike = self._unlike_the_system(session, row, trf, number, pairs)
                    if unlike and not reason.strip():
                        raise MissingReason(f"el emparejamiento a mano difiere del que da el sistema ({unlike}); el "
                                            "sistema empareja de forma objetiva y no se alteran los emparejamientos "
                                            "correctos (C.04.2 A.4/A.5): indique el motivo para mantenerlo",
                                            action="override_pairing")
                method = MANUAL
            elif row.system == MANUAL:
                raise InvalidInput("esta división se empareja a mano: indique los emparejamientos",
                                   what="el emparejamiento", value=None)
            elif row.system in ROUND_ROBINS:
                played = self._round_robin(session, row, number)
                pairs, unplayed, method = played.pairs, played.unplayed, row.system
            else:
                pairs, notes, gibson, waived = self._swiss_round(session, row, trf, number)
                method = row.system
                reason = "; ".join([reason.strip()] * bool(reason.strip()) + notes)
            event = self._round_event(session, row, number, pairs, method, gibson=gibson, unplayed=unplayed,
                                      waived=waived)
            if system_pairs is not None:
                event = replace(event, system_pairs=[[pair.first, pair.second] for pair in system_pairs])
            self._log(session, tournament.id, event, actor=actor, round_number=number, reason=reason)
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

    def _unlike_the_system(self, session: Session, row: ClassicDivision, trf: Trf, number: int,
                           pairs: list[Pair]) -> tuple[list[Pair] | None, str]:
        """How the judge's ``pairs`` differ from what the division's Swiss system gives for
        round ``number`` (C.04.2 A.4/A.5): (the system's pairs, ``[]`` when it cannot pair
        the round; a Spanish description), or (None, "") when they are the same."""
        try:
            expected, _, _, _ = self._swiss_round(session, row, trf, number)
        except (PairingError, EngineUnavailable) as error:
            return [], f"el sistema no empareja esta ronda: {error}"
        if sorted(expected) == sorted(pairs):
            return None, ""
        only_system = [f"{pair.first}-{pair.second}" for pair in sorted(expected) if pair not in pairs]
        only_judge = [f"{pair.first}-{pair.second}" for pair in sorted(pairs) if pair not in expected]
        return sorted(expected), (f"el sistema da {', '.join(only_system) or 'nada más'}; a mano, "
                                  f"{', '.join(only_judge) or 'nada más'}")

    def _swiss_round(self, session: Session, row: ClassicDivision, trf: Trf, number: int
                     ) -> tuple[list[Pair], list[str], Pair | None, bool]:
        """The round by the division's Swiss system, with its same-club and Gibson options
        (``ranking.classic.gibson``); returns the pairs, notes for the log, the Gibson
        board and whether the same-club pairs could not be kept apart (the round is then
        remembered in the settings' ``club_waived``, so the exported TRF says which rounds
        kept them apart)."""
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
        return pairs, gibson_notes + notes, fixed, waived[0]

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

    def _round_event(self, session: Session, row: ClassicDivision, number: int, pairs: list[Pair],
                     method: str, *, gibson: Pair | None = None, unplayed: list[tuple[Pair, str]] | None = None,
                     waived: bool = False) -> RoundPaired:
        """The event that stores the round's boards (the bye last); the Gibson board's method
        is ``gibson``; ``unplayed`` games (a withdrawn player's, with the side that did not
        play) are boards without a table, decided by forfeit; ``waived``: the same-club pairs
        were not kept apart. ``NotFound`` for an unknown starting number."""
        known = {seed.number for seed in self._seeds(session, row)}
        boards = []
        gibson_table: int | None = None
        table = 0
        for pair in sorted(pairs, key=lambda p: p.is_bye):
            if pair.first not in known or (pair.second and pair.second not in known):
                raise NotFound(f"no hay jugador con el número {pair.first if pair.first not in known else pair.second}",
                               what="jugador", key=pair.first if pair.first not in known else pair.second)
            if pair.is_bye:
                boards.append([0, pair.first, 0])
                continue
            table += 1
            if pair == gibson:
                gibson_table = table
            boards.append([table, pair.first, pair.second])
        boards.extend([0, pair.first, pair.second] for pair, _ in unplayed or [])
        return RoundPaired(row.name, number, method, boards, ids=next_ids(session, ClassicBoard, len(boards)),
                           gibson=gibson_table, forfeits=[side for _, side in unplayed or []] or None,
                           club_waived=True if waived else None)
