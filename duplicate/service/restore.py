"""A new database from a tournament record (``duplicada restore``; issue 34 §2).

The record's event log is the tournament: restoring stores each of its events again, with
its id, station, who acted, role, reason and time, and applies it to the tables through the
projector (``duplicate.storage.projector.project``), as the action that first appended it
did. The tables, the chain of hashes and therefore every standing and later export come out
as they were: re-exported, a restored tournament gives the same events, the same hashes
and the same standings.

What a record never holds is set again: the judge-arbiter's credential (its digest, from
the PIN given as for ``tournament create``; the judge's name is the one that signed the
``tournament_created`` event) and a new salt. The assistants' PINs are set again by the
judge (``tournament pin assistant``): no secret is ever in a record.

Refused, with nothing stored: a record that does not verify (``duplicate.record.verify``: every
figure recomputed and the log's chain checked), a record of a format older than the one
whose log carries every row (``RESTORABLE_FROM``), and a database that already holds a
tournament or an event.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, select, text
from sqlalchemy.orm import Session

from duplicate.record.chain import GENESIS
from duplicate.service.access import Role, check_new_pin, new_salt, pin_digest
from duplicate.service.base import TaskModule, _now
from duplicate.service.errors import InconsistentHistory, InvalidFile, InvalidPin, StateConflict
from duplicate.storage.models import Base, Credential, Event, Tournament, TournamentAccess
from duplicate.storage.projector import project
from duplicate.record.verify import verify_record

__all__ = ["RESTORABLE_FROM", "RestoredTournament", "Restore"]

RESTORABLE_FROM = 13
"""The first record format (``format_version``) whose events carry everything the tables
hold (the ids of the rows they create among it); an older record still verifies, but is
restored by exporting it again with this version from the database it came from."""


@dataclass(frozen=True)
class RestoredTournament:
    """What ``restore`` made: the new tournament's ``tournament_id`` in the database, its
    ``name``, how many ``games`` and ``events``, and the head of its chain (``events_head``,
    equal to the record's)."""

    tournament_id: int
    name: str
    games: int
    events: int
    events_head: str


@dataclass(frozen=True)
class _Recorded:
    """The record's tournament, as ``ServiceContext.lexicon_for`` asks for it."""

    name: str
    lexicon_hash: str
    lexicon_path: str | None = None


class Restore(TaskModule):
    """``duplicada restore``: a new database from a verified record."""

    def restore(self, record: dict[str, Any], *, path: str, judge_pin: str | None = None) -> RestoredTournament:
        """Store the tournament of ``record`` (a parsed record, ``duplicate.record.reading.load_record``,
        read from ``path``, named in errors) in this service's database, which must hold no
        tournament and no event; ``judge_pin`` (default: this handle's PIN) becomes the
        judge-arbiter's credential (at least 6 characters, II.4.a).

        Raises ``InvalidFile`` for a record that does not verify (its first differences
        named) or of a format before ``RESTORABLE_FROM``; ``StateConflict`` (state
        ``"not_empty"``) for a database that holds a tournament; ``InvalidPin``;
        ``InconsistentHistory`` when an event cannot be applied or is not chained as in the
        record (its ``previous_hash``). Nothing is stored unless all of it is."""
        version = record.get("format_version", 1)
        if not isinstance(version, int) or version < RESTORABLE_FROM:
            raise InvalidFile(f"el registro {path} es del formato {version}: solo se restauran registros del formato "
                              f"{RESTORABLE_FROM} o posterior; expórtelo de nuevo con esta versión de duplicada",
                              path=path, what="el registro", value=version)
        pin = judge_pin if judge_pin is not None else self.context.pin_for_new_tournament()
        if pin is None:
            raise InvalidPin("la restauración necesita el PIN del juez árbitro (al menos 6 caracteres)")
        check_new_pin(pin)
        tournament = record["tournament"]
        lexicon = self.lexicon_for(_Recorded(str(tournament["name"]), str(tournament["lexicon_hash"])))
        differences = verify_record(record, lexicon)
        if differences:
            shown = "; ".join(str(difference) for difference in differences[:3])
            raise InvalidFile(f"el registro {path} no pasa la comprobación ({len(differences)} diferencias: {shown}): "
                              "no se restaura", path=path, what="el registro")
        events: list[dict[str, Any]] = list(record.get("events") or [])
        judge_name = next((str(event.get("arbiter") or "juez") for event in events
                           if event.get("kind") == "tournament_created"), "juez")
        salt = new_salt()
        digest = pin_digest(pin, salt)
        with self._write() as session:
            if session.scalar(select(func.count()).select_from(Tournament)) or \
                    session.scalar(select(func.count()).select_from(Event)):
                raise StateConflict("la base de datos ya tiene torneos o eventos: se restaura solo en una base de "
                                    "datos nueva y vacía", what="la base de datos", state="not_empty")
            tournament_id = self._store_log(session, events)
            head = str(record.get("events_head") or GENESIS)
            session.add(TournamentAccess(tournament_id=tournament_id, salt=salt))
            session.add(Credential(tournament_id=tournament_id, role=Role.JUDGE.value, name=judge_name,
                                   digest=digest, created_at=_now()))
            session.flush()
            _advance_sequences(session)
        if self.context.holds(pin):
            self.context.remember(tournament_id, digest)
        return RestoredTournament(tournament_id, str(tournament["name"]), len(record.get("games") or []),
                                  len(events), head)

    @staticmethod
    def _store_log(session: Session, events: list[dict[str, Any]]) -> int:
        """Store and project ``events`` (the record's, oldest first) into the empty database
        of ``session``; returns the new tournament's id. Each event keeps its id; game
        numbers become the ids the restored games get (in the order the games were created).
        The chain the storage writes as each event is stored (``duplicate.storage.event_chain``)
        must give each event the ``previous_hash`` the record has (``InconsistentHistory``
        at the first that does not)."""
        tournament_id = 1
        games: dict[int, int] = {}
        for logged in events:
            number = logged.get("game")
            game_id = None
            if number is not None:
                if logged.get("kind") == "game_created" and number not in games:
                    games[number] = len(games) + 1
                game_id = games.get(number)
                if game_id is None:
                    raise InconsistentHistory(f"el evento {logged.get('id')} es de la partida {number}, que ningún "
                                              "evento anterior crea", event_id=int(logged.get("id") or 0), game=number)
            row = Event(id=int(logged["id"]), tournament_id=tournament_id, game_id=game_id,
                        round_number=logged.get("round"), kind=str(logged["kind"]), payload=logged["payload"],
                        station=str(logged["station"]), arbiter=str(logged.get("arbiter") or ""),
                        role=str(logged.get("role") or ""), reason=str(logged.get("reason") or ""),
                        created_at=datetime.fromisoformat(str(logged["created_at"])))
            try:
                project(session, row)          # stored, and applied (the rows it makes first when it refers to them)
            except (ValueError, KeyError, TypeError) as error:
                raise InconsistentHistory(f"el evento {row.id} ({row.kind}) no se puede aplicar: {error}",
                                          event_id=row.id, game=number) from error
            if row.previous_hash != logged.get("previous_hash"):
                raise InconsistentHistory(f"el evento {row.id} ({row.kind}) no queda encadenado como en el registro: "
                                          "no se restaura", event_id=row.id, game=number)
        return tournament_id


def _advance_sequences(session: Session) -> None:
    """PostgreSQL: move each table's id sequence past the ids the restore inserted (rows were
    stored with the ids their events name, which does not advance a sequence)."""
    if session.get_bind().dialect.name != "postgresql":
        return
    for table in Base.metadata.sorted_tables:
        if "id" not in table.c or not table.c.id.primary_key:
            continue
        session.execute(text(f"SELECT setval(pg_get_serial_sequence('{table.name}', 'id'), "
                             f"COALESCE((SELECT MAX(id) FROM {table.name}), 0) + 1, false) "
                             f"WHERE pg_get_serial_sequence('{table.name}', 'id') IS NOT NULL"))
