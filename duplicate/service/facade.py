"""The façade of the tournament service: the one class the front ends use."""

from __future__ import annotations

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
