"""Errors of the tournament service: one base class, one subclass per refusal.

Every message is Spanish and names the input that was refused, so a front end can show
it as it is. The command line exits with status 3 for ``NotAuthorised`` and
``CredentialRefused`` and status 1 for the others.
"""

from __future__ import annotations


class TournamentError(ValueError):
    """An action that cannot be done as asked; the message (Spanish) says why."""


class LockedGameError(TournamentError):
    """The game's results are final (III.26, IV.32): reopen it first."""


class NotAuthorised(TournamentError):
    """The acting credential's role may not do this action (II.4): nothing changed.

    ``role`` and ``action`` are the refused role and action (their code names)."""

    def __init__(self, message: str, *, role: str = "", action: str = "") -> None:
        super().__init__(message)
        self.role = role
        self.action = action


class CredentialRefused(TournamentError):
    """A PIN or passphrase that opens no credential, or a credential locked after too
    many wrong tries; ``retry_after`` is the seconds to wait (0 when not locked)."""

    def __init__(self, message: str, *, retry_after: float = 0.0) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class SignInLocked(CredentialRefused):
    """A PIN refused without being compared (issue 26 §1): its source is locked after too
    many wrong tries (``scope`` ``"source"``), or the tournament has had too many wrong
    tries from everywhere and this station must wait its turn (``scope`` ``"tournament"``);
    ``retry_after`` is the seconds to wait."""

    def __init__(self, message: str, *, retry_after: float, scope: str) -> None:
        super().__init__(message, retry_after=retry_after)
        self.scope = scope


class RoundHasConflicts(TournamentError):
    """A round cannot be closed while the judge has conflicts of it to resolve (II.4.a,
    III.23); ``tables`` are the tables with a pending conflict."""

    def __init__(self, message: str, *, tables: tuple[int, ...] = ()) -> None:
        super().__init__(message)
        self.tables = tables


class ResultsUnpublished(TournamentError):
    """The next game cannot start before the previous one's results and the tournament
    standings are published (IV.32), unless the judge gives a reason; ``game`` is the
    number of the unpublished game."""

    def __init__(self, message: str, *, game: int) -> None:
        super().__init__(message)
        self.game = game


class StorageUnavailable(TournamentError):
    """The database stopped answering (server down, network lost, file locked too long,
    disk full); the message says what and the next step. Nothing of the refused action
    was stored."""
