"""The classic service's refusals that a front end answers differently from a plain
``TournamentError`` (both are ``TournamentError``s, Spanish messages)."""

from __future__ import annotations

from duplicate.service.errors import TournamentError


class ReasonRequired(TournamentError):
    """The judge's action overwrites a result already counted (or breaks a rule) and needs
    a reason, which the log keeps; nothing changed. ``round`` and ``table`` name the board
    (0 when the action is not about one)."""

    def __init__(self, message: str, *, round_number: int = 0, table: int = 0) -> None:
        super().__init__(message)
        self.round = round_number
        self.table = table


class PlayerWithdrawn(TournamentError):
    """A result or a pairing for a player who has withdrawn from the division (C.04.2 D.3,
    C.06 11); ``number`` is the player's starting number. Nothing changed."""

    def __init__(self, message: str, *, number: int) -> None:
        super().__init__(message)
        self.number = number
