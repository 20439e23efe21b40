"""A tournament whose sign-in rows are gone is damaged, not new (issue 36 §3).

Every tournament made since credentials exist (migration 0003) gets its
``tournament_access`` row (the salt) and its judge-arbiter's credential in the transaction
that logs its ``tournament_created`` event (``Registration.create_tournament``,
``Restore.restore``), and the organiser's judge credential is never deleted afterwards (a
judge's PIN is replaced, never revoked). Every event appended since then records the role
of the credential that signed it (``events.role``). So a tournament lacking either row is
one of two things:

* **from before credentials**: every event of its log was appended before migration 0003
  (``role`` empty, the column's default). Its first judge PIN may still be set by whoever
  holds the file (``tournament pin judge``), as before;
* **damaged**: some event of its log was signed by a role (its creation, at least), or its
  access row exists without the judge's credential. Its missing rows must never be taken
  for a new tournament's — whoever set a "first" judge PIN would take the judge's role — so
  every sign-in and every new judge PIN are refused with ``DamagedAccess``.
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from duplicate.service.access import Role
from duplicate.service.errors import DamagedAccess
from duplicate.storage.database import RESTORE_HINT, masked_url
from duplicate.storage.models import Credential, Event, Tournament, TournamentAccess

ACCESS_ROW = "tournament_access"
"""``DamagedAccess.missing``: the tournament's ``tournament_access`` row (its salt) is gone."""

JUDGE_CREDENTIAL = "judge_credential"
"""``DamagedAccess.missing``: the organiser's judge-arbiter credential is gone."""

_WHAT = {ACCESS_ROW: "su fila de acceso (la sal de los PIN)", JUDGE_CREDENTIAL: "la credencial del juez árbitro"}


def organiser_judge(session: Session, tournament_id: int) -> Credential | None:
    """The organiser's judge-arbiter credential of ``tournament_id`` (not a venue's judge), or None."""
    return session.scalar(select(Credential).where(Credential.tournament_id == tournament_id,
                                                   Credential.role == Role.JUDGE.value,
                                                   Credential.venue.is_(None)))


def signed_history(session: Session, tournament_id: int) -> bool:
    """True when some event of ``tournament_id``'s log was appended by a credential's role
    (every event since credentials exist; before them, the role is empty)."""
    return session.scalar(select(Event.id).where(Event.tournament_id == tournament_id, Event.role != "")
                          .limit(1)) is not None


def check_access_rows(session: Session, tournament_id: int, access: TournamentAccess | None,
                      judge: Credential | None) -> None:
    """Refuse a tournament whose ``access`` row or organiser ``judge`` credential (as read in
    ``session``; either may be None) is missing because the database was damaged:
    ``DamagedAccess`` (Spanish, naming the tournament, the database, what is missing, and
    ``duplicada restore`` from the last export or a backup copy). Returns when both are
    there, or when the tournament is from before credentials (no signed event, no access
    row: its first judge PIN may be set). One indexed query when a row is missing; none
    otherwise. Issue 36 §3."""
    if access is not None and judge is not None:
        return
    if access is None and not signed_history(session, tournament_id):
        return                                       # from before credentials: waits for its first judge PIN
    missing = tuple(name for name, row in ((ACCESS_ROW, access), (JUDGE_CREDENTIAL, judge)) if row is None)
    tournament = session.get(Tournament, tournament_id)
    name = tournament.name if tournament is not None else str(tournament_id)
    where = masked_url(session.get_bind().engine.url)
    lost = " ni ".join(_WHAT[item] for item in missing)
    raise DamagedAccess(
        f"el torneo «{name}» de la base de datos {where} está dañado: su historial lo firmaron puestos con PIN, "
        f"pero ya no tiene {lost}. No es un torneo nuevo: no se acepta ningún PIN (tampoco uno nuevo del juez "
        f"árbitro) y no se ha escrito nada; {RESTORE_HINT}",
        tournament=name, missing=missing)
