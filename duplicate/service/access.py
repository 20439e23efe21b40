"""Who may do what: station roles, the actions of the record, and the acting credential.

Every action that changes a tournament's record is an ``Action``; the service asks
``authorise(actor, action, tables=...)`` before changing anything (II.4: the judge-arbiter
decides, assistants enter the slips of their tables, II.4.c; a viewer only reads).

Credentials are PINs or passphrases of at least ``MIN_PIN_LENGTH`` characters, unique
within a tournament, so a credential alone says who is acting. The database keeps only
their scrypt digests, salted per tournament: one key derivation per sign-in finds the
credential by its digest, and an offline attacker pays the full scrypt cost for every
guess. The scrypt cost is kept with the salt (``scrypt$N$r$p$SALT``), so the digests of a
tournament verify whatever cost they were made with; a bare salt (tournaments created
before the cost was kept) means the default cost. ``MAX_FAILURES`` wrong tries in a row
lock a tournament's sign-in for a delay that doubles with each further failure
(``lock_seconds``).
"""

from __future__ import annotations

import hashlib
import os
import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum

from duplicate.service.errors import InvalidInput, InvalidPin, NotAuthorised


class Role(StrEnum):
    """A station's role (II.4)."""

    JUDGE = "judge"
    ASSISTANT = "assistant"
    VIEWER = "viewer"


ROLE_NAMES: Mapping[Role, str] = {
    Role.JUDGE: "juez árbitro",
    Role.ASSISTANT: "árbitro auxiliar",
    Role.VIEWER: "puesto de solo lectura",
}
"""Spanish names of the roles, as messages and screens show them."""


class Action(StrEnum):
    """Every action that changes the record (architecture.md, "the rule of one authority")."""

    CHANGE_SETTINGS = "change_settings"
    SET_CREDENTIAL = "set_credential"
    ADD_PLAYER = "add_player"
    UPDATE_PLAYER = "update_player"
    SET_ENTRY_STATUS = "set_entry_status"
    SET_ASSISTANT_RANGE = "set_assistant_range"
    CREATE_GAME = "create_game"
    ASSIGN_TABLES = "assign_tables"
    DRAW_RACK = "draw_rack"
    SET_RACK = "set_rack"
    REPLACE_RACK = "replace_rack"
    CHOOSE_MASTER = "choose_master"
    UNDO_MASTER = "undo_master"
    ANNUL_MASTER = "annul_master"
    RUN_TIMER = "run_timer"
    END_GAME = "end_game"
    ENTER_SLIP = "enter_slip"
    MARK_SLIP = "mark_slip"
    CHECK_SLIP = "check_slip"
    IMPORT_SLIPS = "import_slips"
    CORRECT_SLIP = "correct_slip"
    RESOLVE_CONFLICT = "resolve_conflict"
    CLOSE_ROUND = "close_round"
    FILE_CLAIM = "file_claim"
    RESOLVE_CLAIM = "resolve_claim"
    PUBLISH_RESULTS = "publish_results"
    REOPEN_RESULTS = "reopen_results"
    UPDATE_RATINGS = "update_ratings"
    PAIR_ROUND = "pair_round"
    OVERRIDE_PAIRING = "override_pairing"
    ENTER_RESULT = "enter_result"
    RESOLVE_RESULT = "resolve_result"
    IMPORT_VENUE = "import_venue"
    ADD_VENUE = "add_venue"
    SIGN_RECORD = "sign_record"
    REGISTER_VENUE_KEY = "register_venue_key"


ACTION_NAMES: Mapping[Action, str] = {
    Action.CHANGE_SETTINGS: "cambiar los criterios del torneo",
    Action.SET_CREDENTIAL: "asignar PIN a un puesto",
    Action.ADD_PLAYER: "inscribir jugadores",
    Action.UPDATE_PLAYER: "corregir los datos de un jugador",
    Action.SET_ENTRY_STATUS: "cambiar el estado de un jugador",
    Action.SET_ASSISTANT_RANGE: "asignar mesas a un auxiliar",
    Action.CREATE_GAME: "empezar una partida",
    Action.ASSIGN_TABLES: "asignar las mesas",
    Action.DRAW_RACK: "sacar el atril",
    Action.SET_RACK: "fijar el atril",
    Action.REPLACE_RACK: "sustituir el atril",
    Action.CHOOSE_MASTER: "elegir la jugada maestra",
    Action.UNDO_MASTER: "deshacer la jugada maestra",
    Action.ANNUL_MASTER: "anular la jugada maestra",
    Action.RUN_TIMER: "manejar el reloj de la ronda",
    Action.END_GAME: "terminar la partida",
    Action.ENTER_SLIP: "anotar papeletas",
    Action.MARK_SLIP: "marcar papeletas (fuera de tiempo, nula, sin papeleta)",
    Action.CHECK_SLIP: "hacer la doble anotación",
    Action.IMPORT_SLIPS: "importar papeletas",
    Action.CORRECT_SLIP: "corregir papeletas",
    Action.RESOLVE_CONFLICT: "resolver conflictos de papeletas",
    Action.CLOSE_ROUND: "cerrar la ronda",
    Action.FILE_CLAIM: "registrar reclamaciones",
    Action.RESOLVE_CLAIM: "resolver reclamaciones",
    Action.PUBLISH_RESULTS: "publicar resultados",
    Action.REOPEN_RESULTS: "reabrir resultados definitivos",
    Action.UPDATE_RATINGS: "actualizar el EloDI",
    Action.PAIR_ROUND: "emparejar una ronda",
    Action.OVERRIDE_PAIRING: "cambiar un emparejamiento",
    Action.ENTER_RESULT: "anotar resultados",
    Action.RESOLVE_RESULT: "resolver conflictos de resultados",
    Action.IMPORT_VENUE: "importar el registro de una sede",
    Action.ADD_VENUE: "dar de alta una sede en línea",
    Action.SIGN_RECORD: "usar la clave de firma del torneo",
    Action.REGISTER_VENUE_KEY: "registrar la clave de una sede",
}
"""Spanish names of the actions, as refusals name them."""

ALLOWED: Mapping[Role, frozenset[Action]] = {
    Role.JUDGE: frozenset(Action),
    Role.ASSISTANT: frozenset({Action.ENTER_SLIP, Action.MARK_SLIP, Action.CHECK_SLIP, Action.CORRECT_SLIP,
                               Action.FILE_CLAIM, Action.ENTER_RESULT}),
    Role.VIEWER: frozenset(),
}
"""What each role may do (II.4.a: the judge everything; II.4.c: assistants the slips, and in
classic events the results of their tables)."""

TABLE_ACTIONS = frozenset({Action.ENTER_SLIP, Action.MARK_SLIP, Action.CHECK_SLIP, Action.CORRECT_SLIP,
                           Action.FILE_CLAIM, Action.ENTER_RESULT})
"""Actions an assistant may do only for the tables of its range (II.4.c)."""

VENUE_JUDGE_ACTIONS = frozenset({Action.ENTER_SLIP, Action.MARK_SLIP, Action.CHECK_SLIP, Action.CORRECT_SLIP,
                                 Action.IMPORT_SLIPS, Action.RESOLVE_CONFLICT, Action.FILE_CLAIM,
                                 Action.RESOLVE_CLAIM, Action.ADD_PLAYER, Action.UPDATE_PLAYER,
                                 Action.SET_ENTRY_STATUS, Action.SET_CREDENTIAL, Action.SET_ASSISTANT_RANGE})
"""What the judge of an online venue may do, and only on its own venue's players, tables
and stations (issue 27 §2; docs/venues.md, "Rights"): the slips and their corrections,
conflicts and claims of its room (II.4.a within its room), its players' registration and
status, its assistants' PINs and tables. Everything that acts on the whole game — settings,
seating, racks, masters, the clock, closing rounds (bonuses are the whole field's, III.24),
publishing — stays with the organiser's judge, whose credential has no venue."""

MIN_PIN_LENGTH = 6
"""Characters a PIN or passphrase needs at least."""

MAX_FAILURES = 5
"""Wrong sign-in tries from one source before that source is locked (``lockout``)."""

FIRST_LOCK_SECONDS = 2.0
"""The lock after ``MAX_FAILURES`` wrong tries; each further wrong try doubles it."""

LONGEST_LOCK_SECONDS = 900.0
"""The lock never grows beyond 15 minutes."""

SCRYPT_N, SCRYPT_R, SCRYPT_P = 2**14, 8, 1
"""scrypt cost parameters (RFC 7914): 16 MiB of memory and about 50 ms per derivation."""

TEST_SCRYPT_N_VARIABLE = "DUPLICADA_TEST_SCRYPT_N"
"""Environment variable holding a lower scrypt ``N`` (a power of two, 2 to ``SCRYPT_N``) for
the tournaments whose salt is made while it is set. The test suite sets it
(``tests/conftest.py``) so that its thousands of sign-ins stay cheap; never set it in use:
the default cost is what makes a stolen database expensive to guess from."""

COST_MARK = "scrypt"
"""First field of a salt that carries its cost: ``scrypt$N$r$p$SALT``."""


@dataclass(frozen=True)
class Actor:
    """Who is acting: the role and name of a signed-in credential.

    ``tournament_id``: the tournament the credential belongs to (``None`` for the
    anonymous viewer); ``tables``: an assistant's range of tables ``(first, last)``,
    inclusive (II.4.c), ``None`` for every other role and for an assistant without one;
    ``venue``: the online venue (sede) whose judge or assistant this is (issue 27 §2),
    ``None`` for the organiser's credentials, which cover every venue.
    """

    role: Role
    name: str
    tournament_id: int | None = None
    tables: tuple[int, int] | None = None
    venue: str | None = None

    def describe(self) -> str:
        """Spanish: the role, the name and the venue (``árbitro auxiliar «aux1» de la sede «Lloret»``)."""
        said = f"{ROLE_NAMES[self.role]} «{self.name}»" if self.name else ROLE_NAMES[self.role]
        return f"{said} de la sede «{self.venue}»" if self.venue is not None else said


VIEWER = Actor(Role.VIEWER, "")
"""The anonymous, read-only station (projection screens, published pages)."""


def permits(actor: Actor, action: Action, table: int | None = None, venue: str | None = None) -> bool:
    """Whether ``actor``'s role allows ``action`` (for ``table`` when it is a table's
    action and a table is given; ``venue``: the venue of that table or player, for a
    venue's credential): the table ``authorise`` applies, as a yes or no — II.4.a, II.4.c,
    issue 27 §2."""
    try:
        authorise(actor, action, tables=() if table is None else (table,),
                  venues=() if table is None and venue is None else (venue,))
    except NotAuthorised:
        return False
    return True


def authorise(actor: Actor, action: Action, *, tables: Iterable[int] = (),
              venues: Iterable[str | None] = ()) -> None:
    """Refuse ``action`` unless ``actor``'s role allows it for every table of ``tables``
    and, for a venue's credential (``Actor.venue``), every venue of ``venues`` — the
    venues of the tables or players acted on (``None``: the organiser's own room, or
    not known) — is its own.

    Raises ``NotAuthorised`` (Spanish, naming the role, the action and, for an assistant,
    the table outside its range; for a venue's credential, the venue) — II.4.a, II.4.c,
    issue 27 §2 (``VENUE_JUDGE_ACTIONS``).
    """
    if action not in ALLOWED[actor.role]:
        raise NotAuthorised(f"el {actor.describe()} no puede {ACTION_NAMES[action]}: solo lo hace el juez árbitro"
                            if actor.role is not Role.VIEWER else
                            f"un puesto de solo lectura no puede {ACTION_NAMES[action]}: identifíquese con un PIN",
                            role=actor.role.value, action=action.value)
    if actor.venue is not None:
        _authorise_venue(actor, action, venues)
    if actor.role is Role.ASSISTANT and action in TABLE_ACTIONS:
        for table in tables:
            if actor.tables is None:
                raise NotAuthorised(f"el {actor.describe()} no tiene mesas asignadas: no puede {ACTION_NAMES[action]} "
                                    f"de la mesa {table}", role=actor.role.value, action=action.value)
            first, last = actor.tables
            if not first <= table <= last:
                raise NotAuthorised(f"la mesa {table} no es del {actor.describe()} (mesas {first}–{last}): "
                                    f"no puede {ACTION_NAMES[action]} de esa mesa", role=actor.role.value,
                                    action=action.value)


def _authorise_venue(actor: Actor, action: Action, venues: Iterable[str | None]) -> None:
    """A venue's credential: a judge only ``VENUE_JUDGE_ACTIONS``; both only on their own venue."""
    if actor.role is Role.JUDGE and action not in VENUE_JUDGE_ACTIONS:
        raise NotAuthorised(f"el {actor.describe()} no puede {ACTION_NAMES[action]}: actúa sobre toda la partida y "
                            "lo hace el juez árbitro del torneo (el organizador)", role=actor.role.value,
                            action=action.value, venue=actor.venue or "")
    for venue in venues:
        if venue != actor.venue:
            where = (f"es de la sede «{venue}»" if venue is not None
                     else "no es de ninguna sede en línea (la sala del organizador)")
            raise NotAuthorised(f"el {actor.describe()} no puede {ACTION_NAMES[action]} de otra sede: "
                                f"{where}; solo el juez árbitro del torneo actúa en todas las sedes",
                                role=actor.role.value, action=action.value, venue=actor.venue or "")


def check_new_pin(pin: str) -> None:
    """Refuse a PIN that is too short or blank (``TournamentError``, Spanish)."""
    if not pin.strip():
        raise InvalidPin("el PIN no puede estar vacío")
    if len(pin) < MIN_PIN_LENGTH:
        raise InvalidPin(f"el PIN debe tener al menos {MIN_PIN_LENGTH} caracteres (tiene {len(pin)})")


def scrypt_n() -> int:
    """The scrypt ``N`` for a new salt: ``SCRYPT_N``, or ``$DUPLICADA_TEST_SCRYPT_N`` when set
    (``TournamentError`` unless it is a power of two from 2 to ``SCRYPT_N``: a typo never
    silently weakens nor hardens the digests)."""
    given = os.environ.get(TEST_SCRYPT_N_VARIABLE, "").strip()
    if not given:
        return SCRYPT_N
    n = int(given) if given.isdigit() else 0
    if not 2 <= n <= SCRYPT_N or n & (n - 1):
        raise InvalidInput(f"la variable {TEST_SCRYPT_N_VARIABLE} vale «{given}»: se esperaba una potencia de "
                              f"dos entre 2 y {SCRYPT_N} (o nada, el coste normal)",
                              what=TEST_SCRYPT_N_VARIABLE, value=given)
    return n


def new_salt() -> str:
    """A fresh random salt for a tournament's credentials with the scrypt cost its digests
    are made with: ``scrypt$N$r$p$SALT`` (``SALT``: 16 random bytes, hex; 48 characters at
    the default cost, within the 64 of the column)."""
    return f"{COST_MARK}${scrypt_n()}${SCRYPT_R}${SCRYPT_P}${secrets.token_hex(16)}"


def salt_cost(salt: str) -> tuple[int, int, int, str]:
    """``(N, r, p, hex salt)`` of a stored ``salt``: the cost it carries, or the default cost
    for a bare hex salt (made before the cost was kept). ``ValueError`` for anything else."""
    fields = salt.split("$")
    if len(fields) == 1:
        return SCRYPT_N, SCRYPT_R, SCRYPT_P, salt
    if len(fields) != 5 or fields[0] != COST_MARK or not all(field.isdigit() for field in fields[1:4]):
        raise ValueError(f"sal de credenciales no reconocida: se esperaba {COST_MARK}$N$r$p$SAL")
    return int(fields[1]), int(fields[2]), int(fields[3]), fields[4]


def pin_digest(pin: str, salt: str) -> str:
    """The scrypt digest of ``pin`` with the tournament's ``salt`` (``new_salt``; the cost is
    the one the salt carries, see ``salt_cost``): hex, 64 characters."""
    n, r, p, salt_hex = salt_cost(salt)
    return hashlib.scrypt(pin.encode("utf-8"), salt=bytes.fromhex(salt_hex), n=n, r=r, p=p, maxmem=64 * 2**20,
                          dklen=32).hex()


def lock_seconds(failures: int) -> float:
    """Seconds a source stays locked after ``failures`` wrong tries (0 below
    ``MAX_FAILURES``; then 2, 4, 8… up to ``LONGEST_LOCK_SECONDS``)."""
    if failures < MAX_FAILURES:
        return 0.0
    return float(min(FIRST_LOCK_SECONDS * 2.0 ** (failures - MAX_FAILURES), LONGEST_LOCK_SECONDS))
