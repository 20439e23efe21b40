"""Errors of the tournament service: one base class, a small typed hierarchy below it.

Every message is Spanish and names the input that was refused, so a front end can show
it as it is; every error also carries that input as fields, so programs and tests read
the fields, never the text. The command line exits with status 3 for ``NotAuthorised``
and ``CredentialRefused`` and status 1 for the others.

::

    TournamentError
    ├── NotFound(what, key)                      a tournament, game, round, entry, table… that is not there
    ├── InvalidInput(what, value)                a value given that is not what was expected
    │   ├── InvalidText                          typed text (duplicate.texts), a name left empty
    │   ├── InvalidNumber                        a number out of range (duplicate.bounds)
    │   ├── InvalidRack                          a rack (III.12, III.17–19)
    │   ├── InvalidSlip                          a slip or a slip mark (III.20, III.25)
    │   ├── InvalidFile(path, line)              a CSV file or one of its lines
    │   ├── InvalidPin                           a new PIN too short or taken
    │   └── MissingReason(action)                an action that must say why (III.29, IV.32)
    ├── NotAuthorised(role, action)              II.4: the credential's role may not do it
    ├── CredentialRefused(retry_after)           a PIN that opens nothing, or sign-in locked
    ├── StateConflict(what, state)               not possible in the record's present state
    │   ├── RoundClosed(game, round)             III.23: a closed round is the judge's
    │   ├── LockedGameError(game)                III.26, IV.32: final results, reopen first
    │   ├── RoundHasConflicts(tables)            II.4.a, III.23
    │   ├── ResultsUnpublished(game)             IV.32
    │   └── ConcurrentChange                     another station changed it at the same moment
    ├── InconsistentHistory(event_id)            a stored event that replay cannot apply
    ├── LexiconUnavailable(tournament, lexicon_hash)
    └── StorageUnavailable                       the database stopped answering
        └── DamagedData                          a stored value that cannot be used
            └── DamagedAccess(tournament, missing)   the judge's credential lost (issue 36 §3)

``ranking.ratings.RatingError`` (EloDI) is a ``TournamentError`` too.
"""

from __future__ import annotations

from pathlib import Path


class TournamentError(ValueError):
    """An action that cannot be done as asked; the message (Spanish) says why."""


class NotFound(TournamentError):
    """``what`` (``"torneo"``, ``"partida"``, ``"ronda"``, ``"inscripción"``, ``"mesa"``,
    ``"conflicto"``, ``"reclamación"``, ``"división"``, ``"jugador"``…) with ``key`` (its
    id, number or name) does not exist."""

    def __init__(self, message: str, *, what: str, key: object = None) -> None:
        super().__init__(message)
        self.what = what
        self.key = key


class InvalidInput(TournamentError):
    """``value`` given for ``what`` is not what was expected (the message says what is)."""

    def __init__(self, message: str, *, what: str, value: object = None) -> None:
        super().__init__(message)
        self.what = what
        self.value = value


class InvalidText(InvalidInput):
    """Typed text refused (``duplicate.texts``: control characters, too long…) or a name
    left empty."""


class InvalidNumber(InvalidInput):
    """A number outside its range (``duplicate.bounds``)."""


class InvalidRack(InvalidInput):
    """A rack that cannot be used (III.12, III.17–III.19): not in the bag, too many
    tiles, no valid move…"""


class InvalidSlip(InvalidInput):
    """A slip's text or mark that cannot be read (III.20, III.25)."""


class InvalidFile(InvalidInput):
    """A file that cannot be read as expected: ``path`` and, when known, the ``line``."""

    def __init__(self, message: str, *, path: Path | str, line: int | None = None, what: str = "el archivo",
                 value: object = None) -> None:
        super().__init__(message, what=what, value=value)
        self.path = Path(path)
        self.line = line


class InvalidPin(InvalidInput):
    """A new PIN or passphrase refused (too short, blank, used by another station); the
    PIN itself is never kept in the error."""

    def __init__(self, message: str, *, what: str = "el PIN") -> None:
        super().__init__(message, what=what, value=None)


class MissingReason(InvalidInput):
    """``action`` (an ``access.Action`` code name, or a description) needs a reason,
    recorded with its event (III.29, IV.32)."""

    def __init__(self, message: str, *, action: str) -> None:
        super().__init__(message, what="el motivo", value="")
        self.action = action


class NotAuthorised(TournamentError):
    """The acting credential's role may not do this action (II.4): nothing changed.

    ``role`` and ``action`` are the refused role and action (their code names);
    ``venue`` the venue of the refused credential (issue 27 §2; empty for the organiser's)."""

    def __init__(self, message: str, *, role: str = "", action: str = "", venue: str = "") -> None:
        super().__init__(message)
        self.role = role
        self.action = action
        self.venue = venue


class CredentialRefused(TournamentError):
    """A PIN or passphrase that opens no credential, or a credential locked after too
    many wrong tries; ``retry_after`` is the seconds to wait (0 when not locked)."""

    def __init__(self, message: str, *, retry_after: float = 0.0) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class SignInLocked(CredentialRefused):
    """A PIN refused without being compared (issue 26 §1): its source is locked after too
    many wrong tries (``scope`` ``"source"``, the only scope since issue 36 §1: the
    tournament's level holds wrong answers, it refuses nothing); ``retry_after`` is the
    seconds to wait."""

    def __init__(self, message: str, *, retry_after: float, scope: str) -> None:
        super().__init__(message, retry_after=retry_after)
        self.scope = scope


class StateConflict(TournamentError):
    """The action is not possible in the record's present state: ``what`` it was about
    (``"partida 2"``, ``"ronda 5"``, ``"conflicto 3"``…) and the ``state`` that stops it
    (a code word: ``"over"``, ``"started"``, ``"resolved"``, ``"open_rounds"``…)."""

    def __init__(self, message: str, *, what: str = "", state: str = "") -> None:
        super().__init__(message)
        self.what = what
        self.state = state


class RoundClosed(StateConflict):
    """III.23: round ``round`` of game ``game`` is closed (its bonuses given); only the
    judge changes it, as a correction."""

    def __init__(self, message: str, *, game: int | None = None, round: int) -> None:  # noqa: A002
        super().__init__(message, what=f"ronda {round}", state="closed")
        self.game = game
        self.round = round


class LockedGameError(StateConflict):
    """The game's results are final (III.26, IV.32): reopen it first; ``game`` its number."""

    def __init__(self, message: str, *, game: int | None = None) -> None:
        super().__init__(message, what=f"partida {game}" if game is not None else "", state="final")
        self.game = game


class RoundHasConflicts(StateConflict):
    """A round cannot be closed while the judge has conflicts of it to resolve (II.4.a,
    III.23); ``tables`` are the tables with a pending conflict."""

    def __init__(self, message: str, *, tables: tuple[int, ...] = ()) -> None:
        super().__init__(message, state="conflicts")
        self.tables = tables


class ResultsUnpublished(StateConflict):
    """The next game cannot start before the previous one's results and the tournament
    standings are published (IV.32), unless the judge gives a reason; ``game`` is the
    number of the unpublished game."""

    def __init__(self, message: str, *, game: int) -> None:
        super().__init__(message, what=f"partida {game}", state="unpublished")
        self.game = game


class ConcurrentChange(StateConflict):
    """Another station changed the same thing at the same moment: look again and repeat.
    Raised when two judge stations set a round's rack at once (``state`` ``"rack_set"``) and
    when the server rolled a write back for another station's — a PostgreSQL deadlock or
    serialisation failure, SQLSTATE 40P01 / 40001 (``state`` ``"rolled_back"``); nothing of
    the refused action was stored."""


class InconsistentHistory(TournamentError):
    """A stored event that replay cannot apply (an altered or damaged database):
    ``event_id`` and, when known, the ``game`` number."""

    def __init__(self, message: str, *, event_id: int, game: int | None = None) -> None:
        super().__init__(message)
        self.event_id = event_id
        self.game = game


class LexiconUnavailable(TournamentError):
    """The lexicon a tournament was created with (``lexicon_hash``) is not available, or
    its file is damaged; ``tournament`` is the tournament's name."""

    def __init__(self, message: str, *, tournament: str, lexicon_hash: str) -> None:
        super().__init__(message)
        self.tournament = tournament
        self.lexicon_hash = lexicon_hash


class StorageUnavailable(TournamentError):
    """The database stopped answering (server down, network lost, file locked too long,
    disk full); the message says what and the next step. Nothing of the refused action
    was stored."""


class DamagedData(StorageUnavailable):
    """A value stored in the database cannot be used — a board or rack that does not read,
    a score that is not a number, a seat without its entry, settings that are not an
    object (issue 26 §3): the database was damaged or edited by hand. Nothing was written;
    restore a copy."""


class DamagedAccess(DamagedData):
    """The tournament ``tournament`` (its name) has a history signed by PIN-holding stations,
    yet its sign-in rows are missing (``missing``: ``"tournament_access"``, the row with
    its salt, and/or ``"judge_credential"``, the judge-arbiter's credential): the database
    was damaged, the tournament is not a new one waiting for its first PIN. Every action and
    every new judge PIN are refused; nothing was written (issue 36 §3)."""

    def __init__(self, message: str, *, tournament: str, missing: tuple[str, ...]) -> None:
        super().__init__(message)
        self.tournament = tournament
        self.missing = missing
