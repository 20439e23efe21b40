"""Online venues (sedes en línea) of one event (issue 27 §2): every room's stations on one
database, each venue with its own judge and assistants whose rights stop at it.

The tournament names its venues (``OnlineVenue`` rows, ``Venues.add_venue``); a player
belongs to one (``Entry.venue``; None: the organiser's own room) and so does a credential
(``Credential.venue``; None: the organiser's, which covers all). What a venue's credential
may do is ``access.VENUE_JUDGE_ACTIONS`` and the table ``access.authorise`` applies; the
venue of a table is the venue of the player seated at it (``ServiceContext.venues_of``).
This module holds the look-ups the task modules share.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from sqlalchemy import select
from sqlalchemy.orm import Session

from duplicate.service.context import typed_text
from duplicate.service.errors import NotFound
from duplicate.storage.models import OnlineVenue, Tournament

__all__ = ["VENUE_NAME_LIMIT", "checked_venue", "venue_among", "venue_names"]

VENUE_NAME_LIMIT = 100
"""Characters a venue's name may have (online or imported)."""


def venue_names(session: Session, tournament_id: int) -> list[str]:
    """The online venues of the tournament, in the order they were named."""
    return list(session.scalars(select(OnlineVenue.name).where(OnlineVenue.tournament_id == tournament_id)
                                .order_by(OnlineVenue.id)))


def checked_venue(session: Session, tournament: Tournament, name: str | None) -> str | None:
    """The online venue ``name`` of ``tournament`` as stored (``None`` or empty: the
    organiser's own room, ``None``). ``InvalidText`` for a name that is not typed text;
    ``NotFound`` (Spanish, naming the venues there are) for a venue the tournament has not
    named (``duplicada venue add``)."""
    return venue_among(tournament.name, lambda: venue_names(session, tournament.id), name)


def venue_among(tournament_name: str, known: Sequence[str] | Callable[[], Sequence[str]],
                name: str | None) -> str | None:
    """``checked_venue`` on the venues ``known`` of the tournament called ``tournament_name``
    (``venue_names``, read once by a caller checking many names: a players' import, issue
    36 §4; or the function that reads them, called only for a name given)."""
    if name is None:
        return None
    name = typed_text(name, "el nombre de la sede", VENUE_NAME_LIMIT).strip()
    if not name:
        return None
    names = known() if callable(known) else known
    for venue in names:
        if venue.casefold() == name.casefold():
            return venue
    listed = ", ".join(f"«{venue}»" for venue in names) if names else "ninguna todavía"
    raise NotFound(f"el torneo «{tournament_name}» no tiene ninguna sede en línea «{name}» (sedes: {listed}); "
                   "el juez árbitro del torneo la da de alta con «duplicada venue add NOMBRE»",
                   what="sede", key=name)
