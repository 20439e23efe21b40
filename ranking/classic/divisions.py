"""Classic divisions and their players (FIDE C.04.2): creating a division, putting the
tournament's players in it with their rating and title, the starting list in the initial
order, byes asked for and withdrawals. A task module of ``ranking.classic.service``."""

from __future__ import annotations

from dataclasses import replace
from typing import Literal

from sqlalchemy import select
from sqlalchemy.orm import Session

from duplicate.record.events_ranking import ClassicEntryChanged, DivisionCreated
from duplicate.service.access import Action
from duplicate.service.context import typed_text
from duplicate.service.errors import InvalidInput, InvalidNumber, NotFound, StateConflict
from duplicate.storage.classic_models import ClassicAbsence, ClassicDivision, ClassicSeed
from duplicate.storage.models import Entry, Tournament
from duplicate.storage.projector import next_id
from duplicate.texts import NAME_MAX
from ranking.classic.base import ClassicTask
from ranking.classic.engines import PairingSystem
from ranking.classic.starting_list import checked_rating, checked_title
from ranking.classic.views import (
    FIRST_COLOUR_TEXT,
    ROUND_ROBINS,
    SYSTEMS,
    DivisionSettings,
    DivisionView,
    draw_first_colour,
)

__all__ = ["Divisions", "checked_rating_and_title"]


def checked_rating_and_title(rating: int | None, title: str | None) -> str | None:
    """Check a player's ``rating`` (None: not given) and FIDE ``title`` (None: unchanged)
    as the starting list stores them (``starting_list.checked_rating``, ``checked_title``)
    and return the title as stored; ``InvalidInput`` naming the one that is wrong
    (``what`` «el elo» or «el título», with the ``value`` typed)."""
    if rating is not None:
        try:
            checked_rating(rating)
        except ValueError as error:
            raise InvalidInput(str(error), what="el elo", value=rating) from None
    try:
        return checked_title(title) if title is not None else None
    except ValueError as error:
        raise InvalidInput(str(error), what="el título", value=title) from None


class Divisions(ClassicTask):
    """A tournament's classic divisions and the players in each."""

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
            created = DivisionCreated(name, system, rounds, settings.to_dict(), next_id(session, ClassicDivision))
            self._log(session, tournament.id, created, actor=actor, reason=note)
            return DivisionView(name, system, rounds, settings, 0, 0)

    def divisions(self, tournament_id: int | None = None) -> list[DivisionView]:
        """The tournament's classic divisions in the order they were created
        (``DivisionView``: name, system, rounds, settings, players, rounds paired)."""
        with self._read() as session:
            tournament = self._tournament(session, tournament_id)
            rows = session.scalars(select(ClassicDivision).where(ClassicDivision.tournament_id == tournament.id)
                                   .order_by(ClassicDivision.id))
            return [DivisionView(d.name, d.system, d.rounds, DivisionSettings.from_dict(d.settings), len(d.seeds),
                                 self._rounds_paired(session, d)) for d in rows]

    def enter_player(self, name: str, *, division: str = "", rating: int | None = None, title: str = "",
                     tournament_id: int | None = None) -> int:
        """Put the tournament's player ``name`` (registered with ``add_player``) into the
        division with its ``rating`` (None: EloDI's where known, else 0) and FIDE ``title``;
        returns its starting number. A player is in one division only (a division holds its
        own players). Before round 1 the starting list is put in the initial order again
        (C.04.2 B); later the player is a late entry with the next number (C.04.2 C.3).
        Judge only; ``TournamentError`` for an unknown or ambiguous name, a player in another
        division, a bad rating or title."""
        title = checked_rating_and_title(rating, title) or ""
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
            seeds = self._seeds(session, row)
            seed_id = next_id(session, ClassicSeed)
            number = max((seed.number for seed in seeds), default=0) + 1
            order = None
            if paired == 0:
                order = self._initial_order([*((s.id, s.rating, s.title, s.entry.player.name) for s in seeds),
                                             (seed_id, rating, title, entry.player.name)])
                number = order.index(seed_id) + 1 if order else number
            self._log(session, tournament.id,
                      ClassicEntryChanged(row.name, number, "entered" if paired == 0 else "joined", paired + 1,
                                          seed=seed_id, entry=entry.id, rating=rating, title=title, order=order),
                      actor=actor, reason=f"{entry.player.name}, rating {rating}" + (f", {title}" if title else ""))
            return number

    def set_rating(self, number: int, rating: int, *, title: str | None = None, division: str = "",
                   tournament_id: int | None = None) -> int:
        """Correct player ``number``'s rating (and ``title``, None: unchanged). Before round 1
        the starting list is put in the initial order again (C.04.2 B.3) and the player's new
        number is returned; from round 1 on the numbers stay. Judge only."""
        title = checked_rating_and_title(rating, title)
        with self._write() as session:
            tournament = self._tournament(session, tournament_id)
            actor = self._authorise(session, tournament.id, Action.UPDATE_PLAYER)
            row = self._division_row(session, tournament, division)
            seed = self._seed(session, row, number)
            kept_title = seed.title if title is None else title
            paired = self._rounds_paired(session, row)
            order = None
            if paired == 0:
                order = self._initial_order([(s.id, rating, kept_title, s.entry.player.name) if s.id == seed.id
                                             else (s.id, s.rating, s.title, s.entry.player.name)
                                             for s in self._seeds(session, row)])
                number = order.index(seed.id) + 1 if order else number
            self._log(session, tournament.id,
                      ClassicEntryChanged(row.name, number, "rating", paired + 1, seed=seed.id, rating=rating,
                                          title=title, order=order),
                      actor=actor, reason=f"rating {rating}" + (f", {kept_title}" if kept_title else ""))
            return number

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

    def request_bye(self, number: int, round_number: int, kind: Literal["H", "Z"] = "Z", *, division: str = "",
                    tournament_id: int | None = None) -> None:
        """A bye asked for a round not yet paired: ``Z`` nothing — C.04.2 D.4: a player known
        in advance not to play a round is not paired and gets zero, unless the tournament's
        rules say otherwise — or ``H`` half a win, when they do (a Swiss division only).

        In a round robin the absent player's game is not played: it is marked "−" for them
        and "+" for the opponent the Berger table gave them (C.06 11;
        ``ranking.classic.round_robin``), so ``H`` is refused there (``InvalidInput``).
        Raises ``StateConflict`` for a round already paired, a withdrawn player or a second
        bye in the round, ``NotFound`` for a round the division does not have."""
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
            if kind == "H" and row.system in ROUND_ROBINS:
                raise InvalidInput("en un todos contra todos la partida que no se juega se marca «−» para quien "
                                   "no juega y «+» para su rival (C.06 11): el descanso pedido no da medio punto",
                                   what="el descanso", value=kind)
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
            self._log(session, tournament.id, ClassicEntryChanged(row.name, number, "withdrawn",
                                                                  self._rounds_paired(session, row) + 1),
                      actor=actor, reason=reason)

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
