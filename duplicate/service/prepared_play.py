"""Playing a prepared game in a tournament (III.15, last paragraph: «duplicada maestra»).

A game started with a prepared game (``Seating.create_game(prepared=…)``, ``duplicada
game start --prepared FILE``) records the whole file in a ``prepared_game_loaded`` event,
beside its digest: the log holds the plan, and the exported record carries it. While the
game follows it, ``Rounds`` asks this module for the next prepared round: each rack drawn
is the prepared rack (drawn from the seed, or set as the judge's rack it was), each master
placed is the prepared master, checked by the engine as it is placed
(``duplicate.prepared.rounds.apply_rack`` / ``apply_master``). A rack replaced by the judge
(III.29) leaves the prepared game from that round on (``prepared_game_left``, with the
judge's reason); the game then goes on as any other.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from sqlalchemy import select
from sqlalchemy.orm import Session

from duplicate.prepared.check import check_prepared
from duplicate.prepared.file import PreparedFileError, PreparedGame, PreparedRound, content_digest
from duplicate.record.event_kinds import EventKind
from duplicate.service.errors import DamagedData, InvalidInput
from duplicate.service.views import PreparedView
from duplicate.storage.models import Event, Tournament

if TYPE_CHECKING:   # the compiled lexicon loads numpy: annotations only (issue 38)
    from lexicon.lexicon import Lexicon

__all__ = ["PreparedPlan", "checked_for", "plan_of"]


@dataclass(frozen=True)
class PreparedPlan:
    """A game's prepared game: ``game`` (the file's values), ``left_at`` the round from
    which the judge left it (III.29; None while it is followed)."""

    game: PreparedGame
    left_at: int | None

    @property
    def followed(self) -> bool:
        """True while the game still follows the prepared game."""
        return self.left_at is None

    def round(self, number: int) -> PreparedRound | None:
        """The prepared round ``number``, None past the last one."""
        return self.game.rounds[number - 1] if 1 <= number <= len(self.game.rounds) else None

    def end_text(self) -> str:
        """Why the prepared game has no round after its last (III.22)."""
        if self.game.end is not None:
            return f"fin de la partida preparada: {self.game.end['text']}"
        return f"se han jugado las {len(self.game.rounds)} rondas de la partida preparada (III.22)"

    def view(self, pending_round: int | None) -> PreparedView:
        """The plan as the front ends show it; ``pending_round`` the round whose rack waits
        for its master (its prepared master is shown while the game follows the plan)."""
        prepared = self.round(pending_round) if pending_round is not None and self.followed else None
        return PreparedView(self.game.digest, len(self.game.rounds), self.left_at,
                            prepared.master if prepared is not None else None)


def plan_of(session: Session, game_id: int) -> PreparedPlan | None:
    """The prepared game the game ``game_id`` plays (None: an ordinary game), read from its
    log. Raises ``DamagedData`` when the stored prepared game does not read back."""
    loaded = session.scalar(select(Event).where(Event.game_id == game_id,
                                                Event.kind == EventKind.PREPARED_LOADED.value)
                            .order_by(Event.id).limit(1))
    if loaded is None:
        return None
    try:
        game = PreparedGame.from_dict(loaded.payload.get("prepared"))
    except (PreparedFileError, AttributeError) as error:
        raise DamagedData(f"la partida preparada guardada no se lee ({error}): la base de datos está dañada; "
                          "restaure una copia") from None
    left_at = session.scalar(select(Event.round_number).where(Event.game_id == game_id,
                                                              Event.kind == EventKind.PREPARED_LEFT.value)
                             .order_by(Event.id).limit(1))
    return PreparedPlan(game, left_at)


def checked_for(prepared: PreparedGame, tournament: Tournament, lexicon: Lexicon, seed: int | None,
                rounds: int | None) -> PreparedGame:
    """``prepared`` when a game of ``tournament`` (judged with ``lexicon``) may play it:
    sealed by its own digest, made with the tournament's lexicon, ``seed`` / ``rounds`` (if
    the judge gave them) its own, and every round sound (``check_prepared``: racks from the
    bag, masters of top score with their scores). Raises ``InvalidInput`` (Spanish, naming
    the first bad round) otherwise."""
    if content_digest(prepared.body()) != prepared.digest:
        raise InvalidInput("la partida preparada no corresponde a su resumen SHA-256 («digest»): se ha modificado "
                           "después de sellarla; compruébela con «duplicada prepared check»",
                           what="la partida preparada", value=prepared.digest[:12])
    if prepared.lexicon_hash != tournament.lexicon_hash:
        raise InvalidInput(f"la partida preparada se hizo con el léxico {prepared.lexicon_hash[:12]}…, y el torneo "
                           f"usa {tournament.lexicon_hash[:12]}…", what="la partida preparada",
                           value=prepared.digest[:12])
    if seed is not None and seed != prepared.seed:
        raise InvalidInput(f"la partida preparada usa la semilla {prepared.seed}, no {seed}: no indique otra",
                           what="la semilla", value=seed)
    if rounds is not None and rounds != prepared.agreed_rounds:
        raise InvalidInput(f"la partida preparada tiene {len(prepared.rounds)} rondas: no indique otras",
                           what="las rondas pactadas", value=rounds)
    problems = check_prepared(prepared.to_dict(), lexicon)
    if problems:
        raise InvalidInput(f"la partida preparada no es correcta: {problems[-1]} («duplicada prepared check» lo "
                           "detalla)", what="la partida preparada", value=prepared.digest[:12])
    return prepared
