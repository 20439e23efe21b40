"""Tournaments, settings, station PINs, players and assistants (II.4, II.6)."""

from __future__ import annotations

import secrets
from dataclasses import asdict
from datetime import date
from pathlib import Path

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from duplicate.models import (
    AssistantRange,
    Entry,
    EntryStatus,
    GameRow,
    Player,
    RoundRow,
    Tournament,
)
from duplicate.service.base import (
    ACCESS_KEY,
    ROLES,
    ServiceBase,
    _now,
    _pin_hash,
    _read_csv,
)
from duplicate.service.errors import TournamentError
from duplicate.service.events import EventKind
from duplicate.service.settings import TournamentSettings
from duplicate.service.views import (
    TournamentInfo,
    _tournament_info,
)
from duplicate.standings import (
    bonus_warnings,
)
from lexicon.lexicon import Lexicon


class Registration(ServiceBase):
    """Tournaments, settings, station PINs, players and assistants (II.4, II.6)."""

    def create_tournament(self, name: str, *, venue: str = "", start_date: date | None = None,
                          end_date: date | None = None, settings: TournamentSettings | None = None,
                          lexicon: Lexicon | None = None, lexicon_path: Path | None = None,
                          arbiter: str = "") -> int:
        """Create a tournament; returns its id. The lexicon's hash is fixed now."""
        if not name.strip():
            raise TournamentError("el torneo necesita un nombre")
        settings = settings or TournamentSettings()
        if lexicon is None:
            if lexicon_path is not None:
                lexicon = Lexicon.load(lexicon_path)
            else:
                lexicon = self._default_lexicon()
        self._lexicons[lexicon.content_hash] = lexicon
        with self.db.write() as session:
            tournament = Tournament(name=name.strip(), venue=venue, start_date=start_date, end_date=end_date,
                                    lexicon_hash=lexicon.content_hash,
                                    lexicon_path=str(lexicon_path.resolve()) if lexicon_path else None,
                                    settings=asdict(settings), created_at=_now())
            session.add(tournament)
            session.flush()
            self._log(session, tournament.id, EventKind.TOURNAMENT_CREATED,
                      {"name": tournament.name, "settings": asdict(settings), "lexicon_hash": lexicon.content_hash},
                      arbiter=arbiter)
            return tournament.id

    def tournaments(self) -> list[TournamentInfo]:
        """Every tournament of the database, oldest first."""
        with self.db.read() as session:
            return [_tournament_info(item) for item in session.scalars(select(Tournament).order_by(Tournament.id))]

    def tournament(self, tournament_id: int | None = None) -> TournamentInfo:
        """One tournament (``None``: the newest) with its games."""
        with self.db.read() as session:
            return _tournament_info(self._tournament(session, tournament_id))

    def settings(self, tournament_id: int | None = None) -> TournamentSettings:
        return TournamentSettings.from_dict(self.tournament(tournament_id).settings)

    def change_settings(self, tournament_id: int | None, settings: TournamentSettings, *, arbiter: str = "",
                        reason: str = "") -> None:
        """Change the rule settings; refused once a game has started (III.24, III.28: fixed before play)."""
        with self.db.write() as session:
            tournament = self._tournament(session, tournament_id)
            started = session.scalar(select(func.count()).select_from(RoundRow).join(GameRow)
                                     .where(GameRow.tournament_id == tournament.id))
            if started:
                raise TournamentError("los criterios de bonificación y desempate se fijan antes de empezar: "
                                      "ya hay rondas jugadas")
            before = {key: value for key, value in tournament.settings.items() if key != ACCESS_KEY}
            tournament.settings = {**asdict(settings), **{key: value for key, value in tournament.settings.items()
                                                          if key == ACCESS_KEY}}
            self._log(session, tournament.id, EventKind.SETTINGS_CHANGED, {"before": before, "after": asdict(settings)},
                      arbiter=arbiter, reason=reason)

    def set_pin(self, role: str, pin: str, *, tournament_id: int | None = None, arbiter: str = "") -> None:
        """Set the PIN of a station role (``judge`` or ``assistant``); stored salted and
        hashed (PBKDF2-SHA256). An empty PIN removes it (the role is then open)."""
        if role not in ROLES:
            raise TournamentError(f"papel {role!r} desconocido: se espera {', '.join(ROLES)}")
        if pin and (not pin.isdigit() or len(pin) < 4):
            raise TournamentError("el PIN debe tener al menos 4 cifras")
        with self.db.write() as session:
            tournament = self._tournament(session, tournament_id)
            settings = dict(tournament.settings)
            access = dict(settings.get(ACCESS_KEY, {}))
            if pin:
                salt = secrets.token_hex(16)
                access[role] = {"salt": salt, "hash": _pin_hash(pin, salt)}
            else:
                access.pop(role, None)
            settings[ACCESS_KEY] = access
            tournament.settings = settings
            self._log(session, tournament.id, EventKind.PIN_CHANGED, {"role": role, "set": bool(pin)}, arbiter=arbiter)

    def check_pin(self, role: str, pin: str, tournament_id: int | None = None) -> bool:
        """True when ``pin`` opens ``role`` (always, when the role has no PIN)."""
        entry = self.tournament(tournament_id).settings.get(ACCESS_KEY, {}).get(role)
        if entry is None:
            return role in ROLES
        return secrets.compare_digest(entry["hash"], _pin_hash(pin, entry["salt"]))

    def bonus_warnings(self, tournament_id: int | None = None) -> list[str]:
        """III.24's advice for this tournament's setting and field (Spanish)."""
        with self.db.read() as session:
            tournament = self._tournament(session, tournament_id)
            players = sum(1 for entry in tournament.entries if entry.status == EntryStatus.ACTIVE.value)
            settings = TournamentSettings.from_dict(tournament.settings)
        return bonus_warnings(players, settings.bonus_policy)

    def add_player(self, name: str, *, club: str = "", country: str = "", federation_id: str | None = None,
                   tournament_id: int | None = None, arbiter: str = "") -> int:
        """Register a player in the tournament (reusing the player with the same
        federation id if there is one); returns the entry id."""
        with self.db.write() as session:
            tournament = self._tournament(session, tournament_id)
            return self._add_player(session, tournament, name, club, country, federation_id, arbiter)

    def _add_player(self, session: Session, tournament: Tournament, name: str, club: str, country: str,
                    federation_id: str | None, arbiter: str) -> int:
        name = " ".join(name.split())
        if not name:
            raise TournamentError("el jugador necesita un nombre")
        federation_id = (federation_id or "").strip() or None
        player = None
        if federation_id:
            player = session.scalar(select(Player).where(Player.federation_id == federation_id))
        if player is None:
            player = Player(name=name, club=club.strip(), country=country.strip(), federation_id=federation_id)
            session.add(player)
            session.flush()
        existing = session.scalar(select(Entry).where(Entry.tournament_id == tournament.id,
                                                      Entry.player_id == player.id))
        if existing is not None:
            raise TournamentError(f"{player.name} ya está inscrito en el torneo")
        entry = Entry(tournament_id=tournament.id, player_id=player.id, status=EntryStatus.ACTIVE.value)
        session.add(entry)
        session.flush()
        self._log(session, tournament.id, EventKind.PLAYER_ADDED,
                  {"entry": entry.id, "player": player.id, "name": player.name, "club": player.club,
                   "country": player.country, "federation_id": federation_id}, arbiter=arbiter)
        return entry.id

    def import_players(self, path: Path, *, tournament_id: int | None = None, arbiter: str = "") -> list[int]:
        """Add the players of a CSV file with a header row: ``nombre`` (or ``name``), and
        optionally ``club``, ``pais``/``country``, ``federacion``/``federation_id``.

        All or nothing: a bad row raises ``TournamentError`` naming the line and no
        player is added.
        """
        aliases = {"nombre": "name", "name": "name", "club": "club", "pais": "country", "país": "country",
                   "country": "country", "federacion": "federation_id", "federación": "federation_id",
                   "federation_id": "federation_id"}
        rows = _read_csv(path)
        if rows and not any((key or "").strip().lower() in ("nombre", "name") for key in rows[0][1]):
            raise TournamentError(f"{path}: falta la columna «nombre» en la cabecera")
        with self.db.write() as session:
            tournament = self._tournament(session, tournament_id)
            entries = []
            for number, row in rows:
                record = {aliases[key.strip().lower()]: (value or "").strip() for key, value in row.items()
                          if key and key.strip().lower() in aliases}
                try:
                    entries.append(self._add_player(session, tournament, record.get("name", ""),
                                                    record.get("club", ""), record.get("country", ""),
                                                    record.get("federation_id"), arbiter))
                except TournamentError as error:
                    raise TournamentError(f"{path}, línea {number}: {error}; no se ha inscrito a nadie") from None
            return entries

    def entries(self, tournament_id: int | None = None) -> list[tuple[Entry, Player]]:
        """Every entry of the tournament with its player, in entry order."""
        with self.db.read() as session:
            tournament = self._tournament(session, tournament_id)
            return [(entry, entry.player) for entry in tournament.entries]

    def set_entry_status(self, entry_id: int, status: EntryStatus, *, arbiter: str = "", reason: str = "") -> None:
        with self.db.write() as session:
            entry = session.get(Entry, entry_id)
            if entry is None:
                raise TournamentError(f"no existe la inscripción {entry_id}")
            before = entry.status
            entry.status = EntryStatus(status).value
            self._log(session, entry.tournament_id, EventKind.ENTRY_STATUS,
                      {"entry": entry.id, "before": before, "after": entry.status}, arbiter=arbiter, reason=reason)

    def set_assistant_range(self, assistant: str, first_table: int, last_table: int, *,
                            tournament_id: int | None = None, arbiter: str = "") -> None:
        """The tables ``assistant`` enters slips for (II.4.c), inclusive."""
        if first_table < 1 or last_table < first_table:
            raise TournamentError(f"rango de mesas {first_table}–{last_table} no válido")
        with self.db.write() as session:
            tournament = self._tournament(session, tournament_id)
            current = session.scalar(select(AssistantRange).where(AssistantRange.tournament_id == tournament.id,
                                                                  AssistantRange.assistant == assistant))
            if current is None:
                current = AssistantRange(tournament_id=tournament.id, assistant=assistant)
                session.add(current)
            current.first_table, current.last_table = first_table, last_table
            self._log(session, tournament.id, EventKind.ASSISTANT_RANGE,
                      {"assistant": assistant, "first": first_table, "last": last_table}, arbiter=arbiter)

    def assistant_ranges(self, tournament_id: int | None = None) -> list[AssistantRange]:
        with self.db.read() as session:
            tournament = self._tournament(session, tournament_id)
            return list(session.scalars(select(AssistantRange).where(AssistantRange.tournament_id == tournament.id)
                                        .order_by(AssistantRange.first_table)))

    def update_player(self, entry_id: int, *, name: str | None = None, club: str | None = None,
                      country: str | None = None, federation_id: str | None = None, arbiter: str = "",
                      reason: str = "") -> None:
        """Correct the details of the player of entry ``entry_id`` (the arguments left at
        None are kept; an empty ``federation_id`` removes it). Logs ``player_updated``
        with the values before and after. Raises ``TournamentError`` for an unknown entry,
        an empty name or a federation id that belongs to another player."""
        with self.db.write() as session:
            entry = session.get(Entry, entry_id)
            if entry is None:
                raise TournamentError(f"no existe la inscripción {entry_id}")
            player = entry.player
            before = {"name": player.name, "club": player.club, "country": player.country,
                      "federation_id": player.federation_id}
            if name is not None:
                name = " ".join(name.split())
                if not name:
                    raise TournamentError("el jugador necesita un nombre")
                player.name = name
            if club is not None:
                player.club = club.strip()
            if country is not None:
                player.country = country.strip()
            if federation_id is not None:
                new_id = federation_id.strip() or None
                if new_id is not None and new_id != player.federation_id:
                    owner = session.scalar(select(Player).where(Player.federation_id == new_id))
                    if owner is not None:
                        raise TournamentError(f"el número de federación {new_id} ya es de {owner.name}")
                player.federation_id = new_id
            after = {"name": player.name, "club": player.club, "country": player.country,
                     "federation_id": player.federation_id}
            self._log(session, entry.tournament_id, EventKind.PLAYER_UPDATED,
                      {"entry": entry.id, "player": player.id, "before": before, "after": after},
                      arbiter=arbiter, reason=reason)
