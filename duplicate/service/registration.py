"""Tournaments, settings, station PINs, players and assistants (II.4, II.6)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import func, select
from sqlalchemy.orm import Session, selectinload

from duplicate.homonyms import EnteredNames, NamedPlayer, distinct_names
from duplicate.rules.bonuses import bonus_warnings
from duplicate.rules.statuses import EntryStatus
from duplicate.service.access import Action, Actor, Role, authorise, check_new_pin, new_salt, pin_digest
from duplicate.service.access_damage import check_access_rows, organiser_judge
from duplicate.service.base import TaskModule, _iso, _now, _read_csv
from duplicate.service.context import typed_text
from duplicate.service.errors import (
    DamagedData,
    InvalidFile,
    InvalidInput,
    InvalidPin,
    InvalidText,
    NotAuthorised,
    NotFound,
    StateConflict,
    TournamentError,
)
from duplicate.service.online_venues import checked_venue, venue_among, venue_names
from duplicate.service.settings import TournamentSettings
from duplicate.service.venues import imported_active_players
from duplicate.storage.models import (
    AssistantRange,
    Credential,
    Entry,
    GameRow,
    Player,
    RoundRow,
    Tournament,
    TournamentAccess,
)
from duplicate.texts import COUNTRY_MAX, FEDERATION_ID_MAX, NAME_MAX, PERSON_MAX

if TYPE_CHECKING:   # the compiled lexicon loads numpy: annotations only (issue 38)
    from duplicate.service.views import AssistantRangeView, EntryView, PlayerView, TournamentInfo
    from lexicon.lexicon import Lexicon


class Registration(TaskModule):
    """Tournaments, settings, station PINs, players and assistants (II.4, II.6)."""

    def create_tournament(self, name: str, *, venue: str = "", start_date: date | None = None,
                          end_date: date | None = None, settings: TournamentSettings | None = None,
                          lexicon: Lexicon | None = None, lexicon_path: Path | None = None,
                          judge_pin: str | None = None, judge_name: str = "juez") -> int:
        """Create a tournament and its judge-arbiter's credential; returns its id.

        ``judge_pin`` (default: this handle's own PIN) is the judge's PIN or passphrase
        (at least 6 characters, II.4.a); ``judge_name`` is recorded with the judge's
        actions. The lexicon's hash is fixed now. Anyone may create a tournament: its
        creator is its judge. Its Ed25519 signing key is made with it, the private key sealed
        with the judge's PIN (``duplicate.service.signing``, issue 35 §2). Raises
        ``TournamentError`` for an empty name or a short PIN.
        """
        from duplicate.record.events_registration import TournamentCreated
        from duplicate.service.signing import make_key
        from duplicate.storage.projector import next_id     # the projector: loaded by a write (issue 38)

        name = self._typed(name, "el nombre del torneo", NAME_MAX)
        venue = self._typed(venue, "el lugar", NAME_MAX)
        judge_name = self._typed(judge_name, "el nombre del juez árbitro", PERSON_MAX)
        if not name.strip():
            raise InvalidText("el torneo necesita un nombre", what="el nombre del torneo", value=name)
        pin = judge_pin if judge_pin is not None else self.context.pin_for_new_tournament()
        if pin is None:
            raise InvalidPin("el torneo necesita el PIN del juez árbitro (al menos 6 caracteres)")
        check_new_pin(pin)
        judge_name = judge_name.strip() or "juez"
        settings = settings or TournamentSettings()
        if lexicon is None:
            if lexicon_path is not None:
                from lexicon.lexicon import Lexicon   # here: it loads numpy (issue 38)

                lexicon = Lexicon.load(lexicon_path)
            else:
                lexicon = self._default_lexicon()
        self.context.lexicons[lexicon.content_hash] = lexicon
        salt = new_salt()
        digest = pin_digest(pin, salt)
        with self._write() as session:
            tournament_id = next_id(session, Tournament)
            judge = Actor(Role.JUDGE, judge_name, tournament_id)
            self._log(session, tournament_id, TournamentCreated(
                name.strip(), asdict(settings), lexicon.content_hash, venue=venue or None,
                start_date=_iso(start_date), end_date=_iso(end_date),
                lexicon_path=str(lexicon_path.resolve()) if lexicon_path else None), actor=judge)
            # Its signing key (issue 35 §2): the public key in the log, the private one sealed
            # with the judge's PIN beside it (``duplicate.service.signing``).
            self._log(session, tournament_id, make_key(session, tournament_id, pin), actor=judge)
            # The secrets, never in the record (not projected: ``duplicate.storage.projector``).
            session.add(TournamentAccess(tournament_id=tournament_id, salt=salt))
            session.add(Credential(tournament_id=tournament_id, role=Role.JUDGE.value, name=judge_name, digest=digest,
                                   created_at=_now()))
            if self.context.holds(pin):
                self.context.remember(tournament_id, digest)
            return tournament_id

    def tournaments(self) -> list[TournamentInfo]:
        """Every tournament of the database, oldest first."""
        from duplicate.service.views import _tournament_info

        with self._read() as session:
            return [_tournament_info(item, imported_active_players(session, item.id))
                    for item in session.scalars(select(Tournament).order_by(Tournament.id))]

    def tournament(self, tournament_id: int | None = None) -> TournamentInfo:
        """One tournament (``None``: the newest) with its games."""
        from duplicate.service.views import _tournament_info

        with self._read() as session:
            tournament = self._tournament(session, tournament_id)
            return _tournament_info(tournament, imported_active_players(session, tournament.id))

    def settings(self, tournament_id: int | None = None) -> TournamentSettings:
        """The tournament's rule settings (``None``: the newest tournament's)."""
        with self._read() as session:       # the settings alone, not its entries, games and rounds (issue 38)
            return TournamentSettings.from_dict(dict(self._tournament(session, tournament_id).settings))

    def change_settings(self, tournament_id: int | None, settings: TournamentSettings, *, reason: str = "") -> None:
        """Change the rule settings; refused once a game has started (III.24, III.28: fixed
        before play, ``StateConflict``), except the seconds per round alone (III.13): a game
        keeps the time it was created with, so the new time applies to the games not begun
        (issue 35 §4)."""
        from duplicate.record.events_registration import SettingsChanged

        with self._write() as session:
            tournament = self._tournament(session, tournament_id)
            actor = self._authorise(session, tournament.id, Action.CHANGE_SETTINGS)
            started = session.scalar(select(func.count()).select_from(RoundRow).join(GameRow)
                                     .where(GameRow.tournament_id == tournament.id))
            current = TournamentSettings.from_dict(tournament.settings)
            if started and replace(current, seconds_per_round=settings.seconds_per_round) != settings:
                raise StateConflict("los criterios de bonificación y desempate se fijan antes de empezar: "
                                      "ya hay rondas jugadas (solo los segundos por ronda se cambian aún, para "
                                      "las próximas partidas)", what="los criterios", state="rounds_played")
            from duplicate.storage.projection.registration import ACCESS_KEY

            before = {key: value for key, value in tournament.settings.items() if key != ACCESS_KEY}
            self._log(session, tournament.id, SettingsChanged(before, asdict(settings)),
                      actor=actor, reason=reason)

    def set_pin(self, role: str, pin: str, *, name: str | None = None, tournament_id: int | None = None,
                venue: str | None = None, tables: tuple[int, int] | None = None) -> None:
        """Set the PIN of a station: the judge's (``role="judge"``) or the assistant
        ``name``'s (``role="assistant"``, II.4.c). Only the judge may; the first judge PIN
        of a tournament created before credentials existed may be set by anyone. A
        tournament whose judge's credential or access row was lost to damage is no such
        tournament: ``DamagedAccess``, nothing written (``access_damage``, issue 36 §3).

        The PIN needs at least 6 characters and must differ from every other PIN of the
        tournament (a PIN alone says who is acting); only its scrypt digest is stored. An
        empty ``pin`` revokes the assistant's credential. An assistant may get its PIN before
        its tables (stations are often prepared first); ``assistant_without_tables`` says
        what the front ends warn about. Raises ``TournamentError``,
        ``NotAuthorised``, ``CredentialRefused``.

        ``venue`` (issue 27 §2, online venues): the credential is that venue's judge's or
        assistant's, whose rights stop at the venue (``NotFound`` for a venue the tournament
        has not named). The organiser's judge sets any; a venue's judge only its own PIN and
        its venue's assistants' (its venue is the default when it gives none); the
        organiser's judge PIN is the organiser's alone, and changing it seals the
        tournament's signing key again with the new PIN (``StateConflict`` when this
        handle's PIN does not open it; issue 35 §2). A venue judge's ``name`` defaults
        to «juez de VENUE». An assistant's name is unique in the tournament: giving it
        another venue moves it there (the organiser only); ``None`` keeps an existing
        assistant in its venue (changing a venue assistant's PIN never widens its rights to
        every table), and ``""`` names the organiser's own room explicitly.

        ``tables`` (an assistant's only): its range of tables (``set_assistant_range``), set
        in the same transaction as the PIN — checked before anything is stored, and on any
        error neither is kept (issue 36 §5).
        """
        from duplicate.record.events_registration import PinChanged
        from duplicate.service.signing import reseal

        if role not in (Role.JUDGE.value, Role.ASSISTANT.value):
            raise InvalidInput(f"papel {role!r} desconocido: se espera judge o assistant", what="el papel", value=role)
        if role == Role.ASSISTANT.value and not (name or "").strip():
            raise InvalidText("el PIN de un auxiliar va con su nombre (el de su tramo de mesas)",
                              what="el nombre del auxiliar", value=name)
        if tables is not None and role != Role.ASSISTANT.value:
            raise InvalidInput("las mesas son de un auxiliar: el juez actúa en todas", what="las mesas",
                               value=tables)
        span = self._table_span(*tables) if tables is not None else None
        ranged = self._typed(name or "", "el nombre del auxiliar", PERSON_MAX) if span is not None else ""
        if pin or role == Role.JUDGE.value:
            check_new_pin(pin)
        with self._write() as session:
            tournament = self._tournament(session, tournament_id)
            access = session.get(TournamentAccess, tournament.id)
            judge = organiser_judge(session, tournament.id)
            check_access_rows(session, tournament.id, access, judge)     # lost by damage: refused (issue 36 §3)
            if access is None or judge is None:
                # A tournament from before credentials: its first judge PIN opens it.
                if role != Role.JUDGE.value:
                    raise StateConflict("este torneo aún no tiene PIN de juez árbitro: asígnelo primero",
                                        what="el PIN del juez árbitro", state="no_judge_pin")
                actor = Actor(Role.JUDGE, (name or "juez").strip(), tournament.id)
                if access is None:
                    access = TournamentAccess(tournament_id=tournament.id, salt=new_salt())
                    session.add(access)
                    session.flush()
            else:
                actor = self._authorise(session, tournament.id, Action.SET_CREDENTIAL)   # the role, first
            unchanged = venue is None
            venue = checked_venue(session, tournament, venue)
            if venue is None and actor.venue is not None:
                venue = actor.venue                      # a venue's judge acts within its venue
            label = "juez" if role == Role.JUDGE.value else (name or "").strip()
            query = select(Credential).where(Credential.tournament_id == tournament.id, Credential.role == role)
            if role == Role.ASSISTANT.value:
                query = query.where(Credential.name == label)
            else:
                query = query.where(Credential.venue.is_(None) if venue is None else Credential.venue == venue)
            current = session.scalar(query)
            if unchanged and role == Role.ASSISTANT.value and current is not None:
                venue = current.venue                    # its PIN changes; its venue stays
            if access is not None and judge is not None:
                authorise(actor, Action.SET_CREDENTIAL,
                          venues=[venue] + ([current.venue] if current is not None else []))
            if role == Role.JUDGE.value and venue is not None:
                label = self._typed((name or "").strip() or f"juez de {venue}", "el nombre del juez de la sede",
                                    PERSON_MAX).strip()
            if not pin:
                if current is not None:
                    session.delete(current)
            else:
                digest = pin_digest(pin, access.salt)
                taken = session.scalar(select(Credential).where(Credential.tournament_id == tournament.id,
                                                                Credential.digest == digest))
                if taken is not None and taken is not current:
                    raise InvalidPin("ese PIN ya lo usa otro puesto del torneo: elija otro")
                called = (label if role == Role.ASSISTANT.value or venue is not None
                          else current.name if current is not None else actor.name)
                same = session.scalar(select(Credential).where(Credential.tournament_id == tournament.id,
                                                               Credential.role == role, Credential.name == called))
                if same is not None and same is not current:
                    raise InvalidText(f"ya hay otro puesto con el nombre «{called}» en el torneo: elija otro nombre "
                                      "con --name", what="el nombre del puesto", value=called)
                if current is None:
                    current = Credential(tournament_id=tournament.id, role=role, name=called, digest=digest,
                                         created_at=_now(), venue=venue)
                    session.add(current)
                current.name = called
                current.digest = digest
                current.created_at = _now()
                current.venue = venue
            if role == Role.JUDGE.value and venue is None and pin:
                # The signing key follows the organiser's judge PIN (issue 35 §2).
                reseal(session, tournament.id, self.context.pin_for_new_tournament(), pin)
            session.flush()
            if role == Role.JUDGE.value and self.context.has_credential and not self.context.holds(pin):
                self.context.forget(tournament.id)
            self._log(session, tournament.id,
                      PinChanged(role, bool(pin), label if role == Role.ASSISTANT.value or venue is not None else None,
                                 venue), actor=actor)
            if span is not None:
                self._assign_tables(session, tournament, ranged, span)

    def assistant_without_tables(self, name: str, tournament_id: int | None = None) -> str | None:
        """A Spanish warning when the assistant ``name`` has no tables (II.4.c): its PIN
        lets it in, but it may enter no slip until it gets some (the warning names the
        assistants that have tables: a mistyped name shows). None when it has tables."""
        ranges = self.assistant_ranges(tournament_id)
        if any(row.assistant == name.strip() for row in ranges):
            return None
        known = ", ".join(f"«{row.assistant}» (mesas {row.first_table}–{row.last_table})" for row in ranges)
        return (f"el auxiliar «{name.strip()}» aún no tiene mesas asignadas: no podrá anotar ninguna papeleta hasta "
                "que se le asigne su tramo de mesas (II.4.c)"
                + (f"; auxiliares con mesas: {known}" if known else "; aún no hay ningún auxiliar con mesas"))

    def credentials(self, tournament_id: int | None = None) -> list[tuple[str, str]]:
        """The stations that have a credential, as ``(role, name)`` (never the PIN)."""
        with self._read() as session:
            tournament = self._tournament(session, tournament_id)
            return [(row.role, row.name) for row in session.scalars(
                select(Credential).where(Credential.tournament_id == tournament.id).order_by(Credential.id))]

    def bonus_warnings(self, tournament_id: int | None = None) -> list[str]:
        """III.24's advice for this tournament's setting and field (Spanish). The field is
        the whole event's: the active entries (the organiser's room and its online venues)
        and the active players of every imported venue (issue 27 §2; an organiser may have
        no room of its own)."""
        from duplicate.service.views import _tournament_info

        with self._read() as session:
            tournament = self._tournament(session, tournament_id)
            field = _tournament_info(tournament, imported_active_players(session, tournament.id))
            settings = TournamentSettings.from_dict(tournament.settings)
        return bonus_warnings(field.field_active_players, settings.bonus_policy)

    def add_player(self, name: str, *, club: str = "", country: str = "", federation_id: str | None = None,
                   tournament_id: int | None = None, venue: str | None = None) -> int:
        """Register a player in the tournament (reusing the player with the same
        federation id if there is one); returns the entry id.

        A name already entered in the tournament (``same_name``: case, accents and spaces
        aside) is refused (``StateConflict`` naming the entry there) unless the two are told
        apart: another club, or another federation id, on both entries. Homonyms exist (two
        «José García» from two clubs), but a name typed twice by mistake would give one
        person two tables and two lines in the standings; the arbiter distinguishes
        homonyms by club or federation id, as the lists show them.

        ``venue``: the online venue the player plays in (issue 27 §2; ``NotFound`` for a
        venue the tournament has not named; None: the organiser's own room). A venue's judge
        enters players in its own venue only (the default when it gives none)."""
        with self._write() as session:
            tournament = self._tournament(session, tournament_id)
            actor = self._authorise(session, tournament.id, Action.ADD_PLAYER)
            typed_id = _federation_id(federation_id)
            checks = _Checks(_field(session, tournament, [typed_id] if typed_id else []), actor)
            newcomer = self._newcomer(checks, 0, name, club, country, federation_id, venue)
            return self._enter(session, tournament.id, [newcomer], actor)[0]

    def _newcomer(self, checks: _Checks, line: int, name: str, club: str, country: str,
                  federation_id: str | None, venue: str | None) -> _Newcomer:
        """The player ``name`` checked as a new entry against ``checks`` (the tournament's
        field and the newcomers checked before it, to which it is then added); ``line``:
        its line in a players' file (0: ``add_player``). Pure: no query. Raises what
        ``add_player`` raises: ``InvalidText``, ``NotFound`` (venue), ``NotAuthorised``,
        ``StateConflict`` (already entered, or an untold homonym)."""
        actor = checks.actor
        venue = venue_among(checks.field.name, checks.field.venues, venue)
        if venue is None and actor.venue is not None:
            venue = actor.venue
        authorise(actor, Action.ADD_PLAYER, venues=[venue])
        name = " ".join(self._typed(name, "el nombre del jugador", NAME_MAX).split())
        club = self._typed(club, f"el club de {name}", NAME_MAX)
        country = self._typed(country, f"el país de {name}", COUNTRY_MAX)
        if federation_id is not None:
            federation_id = self._typed(federation_id, f"el número de federado de {name}", FEDERATION_ID_MAX)
        if not name:
            raise InvalidText("el jugador necesita un nombre", what="el nombre del jugador", value=name)
        federation_id = (federation_id or "").strip() or None
        stored = checks.federated.get(federation_id) if federation_id else None
        if stored is None:
            newcomer = _Newcomer(line, None, name, club.strip(), country.strip(), federation_id, venue)
            earlier = checks.lines.get(federation_id) if federation_id else None
            if earlier is not None:
                raise StateConflict(f"{earlier.name} (federado {federation_id}) ya va en la línea {earlier.line} "
                                    "del archivo", what=earlier.name, state="entered")
        else:
            player_id, stored_name, stored_club, stored_country = stored
            if player_id in checks.entered:
                raise StateConflict(f"{stored_name} ya está inscrito en el torneo", what=stored_name, state="entered")
            newcomer = _Newcomer(line, player_id, stored_name, stored_club, stored_country, federation_id, venue)
        _refuse_homonym(checks, newcomer)
        checks.add(newcomer)
        return newcomer

    def _enter(self, session: Session, tournament_id: int, newcomers: Sequence[_Newcomer], actor: Actor) -> list[int]:
        """Append one ``PlayerAdded`` per newcomer (checked: ``_newcomer``), in order, with
        their entry ids and the ids of the new players, in one flush of the log
        (``ServiceContext.log_all``); returns the entry ids."""
        from duplicate.record.events_registration import PlayerAdded

        from duplicate.storage.projector import next_ids     # the projector: loaded by a write (issue 38)

        entries = next_ids(session, Entry, len(newcomers))
        made = iter(next_ids(session, Player, sum(1 for newcomer in newcomers if newcomer.player is None)))
        added = [PlayerAdded(entry, newcomer.player if newcomer.player is not None else next(made), newcomer.name,
                             newcomer.club, newcomer.country, newcomer.federation_id, newcomer.venue)
                 for entry, newcomer in zip(entries, newcomers, strict=True)]
        self.context.log_all(session, tournament_id, added, actor=actor)
        return entries

    def import_players(self, path: Path, *, tournament_id: int | None = None) -> list[int]:
        """Add the players of a CSV file with a header row: ``nombre`` (or ``name``), and
        optionally ``club``, ``pais``/``country``, ``federacion``/``federation_id`` and
        ``sede``/``venue`` (an online venue, issue 27 §2; empty: the organiser's room).

        All or nothing: a bad row raises ``TournamentError`` naming the line and no
        player is added. Each row is checked as ``add_player`` checks one player, against
        the tournament's entries and the rows before it.

        One short write (issue 36 §4): the credential is checked first (a wrong PIN
        counted, nothing else written); the file is read and every row checked on the
        tournament as a read transaction finds it, while other stations go on writing; then
        one write transaction reads the field again (a few statements), checks the rows
        again only if something changed meanwhile, and appends one ``PlayerAdded`` per row
        with one flush of the log. Time and statements grow linearly with the rows.
        """
        aliases = {"nombre": "name", "name": "name", "club": "club", "pais": "country", "país": "country",
                   "country": "country", "federacion": "federation_id", "federación": "federation_id",
                   "federation_id": "federation_id", "sede": "venue", "venue": "venue"}
        rows = _read_csv(path)
        if rows and not any((key or "").strip().lower() in ("nombre", "name") for key in rows[0][1]):
            raise InvalidFile(f"{path}: falta la columna «nombre» en la cabecera",
                              path=path, line=1, what="la columna «nombre»")
        with self._write() as session:                  # who acts (a wrong PIN counted here), nothing else
            tournament_id = self._tournament(session, tournament_id).id
            actor = self._authorise(session, tournament_id, Action.ADD_PLAYER)
        records = [(number, {aliases[key.strip().lower()]: value for key, value in row.items()
                             if key and key.strip().lower() in aliases}) for number, row in rows]
        federation_ids = sorted({typed for _, record in records
                                 if (typed := _federation_id(record.get("federation_id")))})
        with self._read() as session:
            field = _field(session, self._tournament(session, tournament_id), federation_ids)
        newcomers = self._newcomers(path, records, _Checks(field, actor))
        with self._write() as session:
            tournament = self._tournament(session, tournament_id)
            held = _Checks(_field(session, tournament, federation_ids),
                           self._authorise(session, tournament.id, Action.ADD_PLAYER))
            if (held.field, held.actor) != (field, actor):     # changed since: checked again on what is held
                newcomers = self._newcomers(path, records, held)
            return self._enter(session, tournament.id, newcomers, held.actor)

    def _newcomers(self, path: Path, records: Sequence[tuple[int, dict[str, str]]], checks: _Checks) -> list[_Newcomer]:
        """Every row of a players' file checked (``_newcomer``), in order; the first bad one
        raises ``InvalidFile`` (``NotAuthorised`` for another venue's player) naming its line."""
        newcomers = []
        for number, record in records:
            try:
                newcomers.append(self._newcomer(checks, number, record.get("name", ""), record.get("club", ""),
                                                record.get("country", ""), record.get("federation_id"),
                                                record.get("venue")))
            except NotAuthorised as error:          # another venue's player: refused as such
                raise NotAuthorised(f"{path}, línea {number}: {error}; no se ha inscrito a nadie",
                                    role=error.role, action=error.action, venue=error.venue) from error
            except TournamentError as error:
                raise InvalidFile(f"{path}, línea {number}: {error}; no se ha inscrito a nadie",
                                  path=path, line=number, value=getattr(error, "value", None)) from error
        return newcomers

    def entries(self, tournament_id: int | None = None) -> list[tuple[EntryView, PlayerView]]:
        """Every entry of the tournament with its player, in entry order (one query: the
        players read with their entries, not one ``entry.player`` read each)."""
        from duplicate.service.views import EntryView, PlayerView, view_of

        with self._read() as session:
            tournament = self._tournament(session, tournament_id)
            entries = session.scalars(select(Entry).where(Entry.tournament_id == tournament.id)
                                      .options(selectinload(Entry.player)).order_by(Entry.id)).all()
            return [(view_of(EntryView, entry), view_of(PlayerView, entry.player)) for entry in entries]

    def entry_names(self, tournament_id: int | None = None) -> dict[int, str]:
        """Each entry's name as lists show it, by entry id: homonyms told apart by club,
        federation id or entry number (``duplicate.homonyms.distinct_names``, issue 35 §4)."""
        # The four columns alone, in one query (no entry and player objects; issue 38).
        with self._read() as session:
            tournament = self._tournament(session, tournament_id)
            rows = session.execute(select(Entry.id, Player.id, Player.name, Player.club, Player.federation_id)
                                   .outerjoin(Player, Player.id == Entry.player_id)
                                   .where(Entry.tournament_id == tournament.id).order_by(Entry.id)).all()
        if any(player is None for _entry, player, *_rest in rows):    # as ``entries``' ``view_of``
            raise DamagedData("falta un registro guardado (PlayerView) al que otro remite: la base de datos "
                              "está dañada; restaure una copia")
        return distinct_names(NamedPlayer(entry, name, club, federation_id, entry)
                              for entry, _player, name, club, federation_id in rows)

    def set_entry_status(self, entry_id: int, status: EntryStatus, *, reason: str = "") -> None:
        from duplicate.record.events_registration import EntryStatusChanged

        with self._write() as session:
            entry = session.get(Entry, self._number(entry_id, "la inscripción"))
            if entry is None:
                raise NotFound(f"no existe la inscripción {entry_id}", what="inscripción", key=entry_id)
            actor = self._authorise(session, entry.tournament_id, Action.SET_ENTRY_STATUS, entries=[entry.id])
            self._log(session, entry.tournament_id, EntryStatusChanged(entry.id, entry.status, EntryStatus(status).value),
                      actor=actor, reason=reason)

    def set_assistant_range(self, assistant: str, first_table: int, last_table: int, *,
                            tournament_id: int | None = None) -> None:
        """The tables ``assistant`` enters slips for (II.4.c), inclusive, each from 1 to
        ``duplicate.bounds.DB_INT_MAX`` (``InvalidNumber`` before anything is stored; issue
        36 §5). A venue's judge (issue 27 §2) sets only its venue's assistants' tables (the
        assistant's PIN given first, ``set_pin``, says its venue); a venue's assistant enters
        slips only for the tables of its range where its venue's players sit. ``set_pin``
        with ``tables`` sets an assistant's PIN and tables in one transaction."""
        assistant = self._typed(assistant, "el nombre del auxiliar", PERSON_MAX)
        span = self._table_span(first_table, last_table)
        with self._write() as session:
            self._assign_tables(session, self._tournament(session, tournament_id), assistant, span)

    def _table_span(self, first_table: int, last_table: int) -> tuple[int, int]:
        """``(first_table, last_table)`` when both are tables (1 to ``DB_INT_MAX``) in order;
        ``InvalidNumber`` / ``InvalidInput`` otherwise."""
        first = self._number(first_table, "la primera mesa del auxiliar")
        last = self._number(last_table, "la última mesa del auxiliar")
        if last < first:
            raise InvalidInput(f"rango de mesas {first}–{last} no válido: la última es menor que la primera",
                               what="el rango de mesas", value=(first, last))
        return first, last

    def _assign_tables(self, session: Session, tournament: Tournament, assistant: str, span: tuple[int, int]) -> None:
        """``set_assistant_range`` inside the caller's transaction (``assistant`` checked)."""
        from duplicate.record.events_registration import AssistantRangeSet

        station = session.scalar(select(Credential).where(Credential.tournament_id == tournament.id,
                                                          Credential.role == Role.ASSISTANT.value,
                                                          Credential.name == assistant.strip()))
        actor = self.context.actor(session, tournament.id)
        if station is None and actor.venue is not None:
            raise NotAuthorised(f"el auxiliar «{assistant.strip()}» aún no tiene PIN de la sede «{actor.venue}»: "
                                "el " + actor.describe() + " le asigna antes su PIN («tournament pin assistant "
                                "--name …»), y luego sus mesas", role=actor.role.value,
                                action=Action.SET_ASSISTANT_RANGE.value, venue=actor.venue)
        actor = self._authorise(session, tournament.id, Action.SET_ASSISTANT_RANGE,
                                venues=[station.venue if station is not None else None])
        self._log(session, tournament.id, AssistantRangeSet(assistant, span[0], span[1]), actor=actor)

    def assistant_ranges(self, tournament_id: int | None = None) -> list[AssistantRangeView]:
        """The assistants' ranges of tables (II.4.c), by first table."""
        from duplicate.service.views import AssistantRangeView, view_of

        with self._read() as session:
            tournament = self._tournament(session, tournament_id)
            return [view_of(AssistantRangeView, row)
                    for row in session.scalars(select(AssistantRange).where(AssistantRange.tournament_id == tournament.id)
                                               .order_by(AssistantRange.first_table))]

    def update_player(self, entry_id: int, *, name: str | None = None, club: str | None = None,
                      country: str | None = None, federation_id: str | None = None, reason: str = "",
                      venue: str | None = None) -> None:
        """Correct the details of the player of entry ``entry_id`` (the arguments left at
        None are kept; an empty ``federation_id`` removes it). Logs ``player_updated``
        with the values before and after. Raises ``TournamentError`` for an unknown entry,
        an empty name or a federation id that belongs to another player. ``venue`` moves
        the player to that online venue (issue 27 §2; empty: the organiser's room; its
        ``before``/``after`` then carry ``venue``): only a credential of both venues may
        (the organiser's), ``NotFound`` for a venue the tournament has not named."""
        from duplicate.record.events_registration import PlayerUpdated

        with self._write() as session:
            entry = session.get(Entry, self._number(entry_id, "la inscripción"))
            if entry is None:
                raise NotFound(f"no existe la inscripción {entry_id}", what="inscripción", key=entry_id)
            actor = self._authorise(session, entry.tournament_id, Action.UPDATE_PLAYER, entries=[entry.id])
            player = entry.player
            before = {"name": player.name, "club": player.club, "country": player.country,
                      "federation_id": player.federation_id}
            after = dict(before)
            moved = venue is not None
            if venue is not None:
                venue = checked_venue(session, entry.tournament, venue)
                if actor.venue is not None and venue != entry.venue:     # a move: the organiser's only
                    where = f"la sede «{venue}»" if venue is not None else "la sala del organizador"
                    raise NotAuthorised(f"el {actor.describe()} no puede pasar a {where} a «{entry.player.name}», "
                                        f"jugador de su sede «{entry.venue}»: solo el juez árbitro del torneo (el "
                                        "organizador) cambia a un jugador de sede", role=actor.role.value,
                                        action=Action.UPDATE_PLAYER.value, venue=actor.venue)
                before["venue"] = entry.venue
            if name is not None:
                name = " ".join(self._typed(name, "el nombre del jugador", NAME_MAX).split())
                if not name:
                    raise InvalidText("el jugador necesita un nombre", what="el nombre del jugador", value=name)
                after["name"] = name
            if club is not None:
                after["club"] = self._typed(club, "el club", NAME_MAX).strip()
            if country is not None:
                after["country"] = self._typed(country, "el país", COUNTRY_MAX).strip()
            if federation_id is not None:
                new_id = self._typed(federation_id, "el número de federado", FEDERATION_ID_MAX).strip() or None
                if new_id is not None and new_id != player.federation_id:
                    owner = session.scalar(select(Player).where(Player.federation_id == new_id))
                    if owner is not None:
                        raise StateConflict(f"el número de federación {new_id} ya es de {owner.name}",
                                            what=f"federación {new_id}", state="taken")
                after["federation_id"] = new_id
            if moved:
                after["venue"] = venue
            self._log(session, entry.tournament_id, PlayerUpdated(entry.id, player.id, before, after),
                      actor=actor, reason=reason)


FIELD_CHUNK = 500
"""Federation ids looked up per query when checking new entries (a bound on bound parameters)."""


@dataclass(frozen=True)
class _Field:
    """What new entries of a tournament are checked against, read in a few statements
    whatever their number (issue 36 §4): the tournament's name and online venues, its
    entries (entry id, player id, name, club, federation id; in entry order) and the stored
    players that hold a federation id being entered (player id, name, club, country,
    federation id; by id). Equal fields give equal checks: an import reads it before its
    write and again inside it, and checks its rows again only when the two differ."""

    name: str
    venues: tuple[str, ...]
    entered: tuple[tuple[int, int, str, str, str | None], ...]
    federated: tuple[tuple[int, str, str, str, str | None], ...]


def _field(session: Session, tournament: Tournament, federation_ids: Sequence[str]) -> _Field:
    """The ``_Field`` of ``tournament`` for the ``federation_ids`` being entered."""
    entered = session.execute(select(Entry.id, Player.id, Player.name, Player.club, Player.federation_id)
                              .join(Player, Entry.player_id == Player.id)
                              .where(Entry.tournament_id == tournament.id).order_by(Entry.id))
    ids = sorted(set(federation_ids))
    federated = [row for start in range(0, len(ids), FIELD_CHUNK)
                 for row in session.execute(select(Player.id, Player.name, Player.club, Player.country,
                                                   Player.federation_id)
                                            .where(Player.federation_id.in_(ids[start:start + FIELD_CHUNK])))]
    return _Field(tournament.name, tuple(venue_names(session, tournament.id)),
                  tuple((row[0], row[1], row[2], row[3], row[4]) for row in entered),
                  tuple(sorted((row[0], row[1], row[2], row[3], row[4]) for row in federated)))


def _federation_id(value: str | None) -> str | None:
    """``value`` as a federation id is stored (typed text, stripped), None when empty or not
    typed text (the row's check says why): what ``_field`` looks up."""
    try:
        return typed_text(value or "", "el número de federado", FEDERATION_ID_MAX).strip() or None
    except TournamentError:
        return None


@dataclass(frozen=True)
class _Newcomer:
    """A player checked as a new entry (``Registration._newcomer``): its line in a players'
    file (0: one player), the stored player it is (same federation id; None: a new player)
    and the details its ``PlayerAdded`` carries."""

    line: int
    player: int | None
    name: str
    club: str
    country: str
    federation_id: str | None
    venue: str | None


@dataclass(frozen=True)
class _Entered:
    """An entry a newcomer may collide with: a stored one (``entry``) or a newcomer of the
    same file (``line``)."""

    name: str
    club: str
    federation_id: str | None
    entry: int | None = None
    line: int = 0


class _Checks:
    """New entries checked one after another against the tournament's ``_Field`` and the
    newcomers before them, each in constant time (issue 36 §4: an import compared each row
    with every entry, 2,000 rows took minutes inside the write lock)."""

    def __init__(self, field: _Field, actor: Actor) -> None:
        self.field, self.actor = field, actor
        self.names: EnteredNames[_Entered] = EnteredNames()
        self.entered = {player for _, player, _, _, _ in field.entered}
        """Ids of the stored players entered in the tournament."""
        self.federated = {federation_id: (player, name, club, country)
                          for player, name, club, country, federation_id in field.federated if federation_id}
        self.lines: dict[str, _Newcomer] = {}
        """The newcomers with a federation id, by it."""
        for entry, _player, name, club, federation_id in field.entered:
            self.names.add(_Entered(name, club, federation_id, entry=entry), name, club, federation_id)

    def add(self, newcomer: _Newcomer) -> None:
        """``newcomer`` checked: the ones after it are checked against it too."""
        self.names.add(_Entered(newcomer.name, newcomer.club, newcomer.federation_id, line=newcomer.line),
                       newcomer.name, newcomer.club, newcomer.federation_id)
        if newcomer.federation_id:
            self.lines[newcomer.federation_id] = newcomer
        if newcomer.player is not None:
            self.entered.add(newcomer.player)


def _refuse_homonym(checks: _Checks, newcomer: _Newcomer) -> None:
    """``StateConflict`` when an entry of the tournament, or a newcomer before it, has
    ``newcomer``'s name (``same_name``) and neither the club nor the federation id tells
    them apart (``duplicate.homonyms.EnteredNames``)."""
    other = checks.names.untold(newcomer.name, newcomer.club, newcomer.federation_id)
    if other is None:
        return
    known = ", ".join(part for part in (f"club {other.club}" if other.club else "",
                                        f"federado {other.federation_id}" if other.federation_id else "") if part)
    if other.entry is not None:
        where = f"inscripción {other.entry}"
        found = f"ya hay un jugador inscrito como «{other.name}» ({where}" + (f", {known}" if known else "") + ")"
    else:
        where = f"línea {other.line} del archivo"
        found = f"la {where} ya inscribe a «{other.name}»" + (f" ({known})" if known else "")
    raise StateConflict(
        f"{found}: no se inscribe dos veces; si es otra persona con el mismo nombre, inscríbala con su club o su "
        f"número de federado (distintos de los de la {where})", what=newcomer.name, state="same_name")
