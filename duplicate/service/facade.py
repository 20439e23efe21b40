"""The façade of the tournament service: the one class the front ends use."""

from __future__ import annotations

from duplicate.service.access import Action, permits
from duplicate.service.errors import CredentialRefused
from duplicate.service.record import Record


class TournamentService(Record):
    """All actions on the tournaments of one database.

    ``station``: the name of this terminal (recorded with every event);
    ``lexicon``: the lexicon to judge with (default: each tournament's own, else the
    built-in default). Methods take a tournament id where it matters (``None``: the
    most recently created one) and game numbers within it. The methods come from the
    task modules (registration, seating, rounds, slip_entry, corrections, results,
    record), each a class this one builds on.
    """

    def may(self, action: Action | str, table: int | None = None, *, tournament_id: int | None = None) -> bool:
        """Whether this handle may do ``action`` (an ``Action`` or its code name; for
        ``table`` when it is a table's action, II.4.c) in the tournament (``None``: the
        newest): the table ``access.authorise`` applies. A credential that opens nothing
        may do nothing. Screens and commands ask it instead of repeating the table."""
        try:
            actor = self.sign_in(tournament_id)
        except CredentialRefused:
            return False
        return permits(actor, Action(action), table)
