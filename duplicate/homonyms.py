"""Players with the same name, told apart wherever a name is shown (issue 35 §4).

The service refuses a second entry under a name already entered unless its club or its
federation id differs (``duplicate.service.registration``), so two «Ana Pérez Núñez» of
different clubs may play the same tournament. A standings list that shows them as two
identical rows cannot be read: ``distinct_names`` gives every colliding name a suffix that
tells its player apart, as an arbiter would write it on the noticeboard — the club
(«Ana Pérez Núñez (CLUB)») when no other homonym has it, else the federation number
(«(federado 123)»), else the entry number («(inscripción 7)»). A name nobody else has is
shown as it is. The app's standings screens, the command line's ``standings`` and the
published results call this one function, so a player is named alike everywhere.

``EnteredNames`` holds the rule that refuses the second entry (a name already entered, and
neither club nor federation id telling the two apart), indexed so that checking one more
player costs the same whatever the number entered (issue 36 §4: an import of 2,000
players compared each row with every entry before it).
"""

from __future__ import annotations

import unicodedata
from collections import defaultdict
from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from typing import Generic, TypeVar

Key = TypeVar("Key", bound=Hashable)


def same_name(first: str, second: str) -> bool:
    """Whether two players' names are the same name as an arbiter reads them: case,
    accents and spaces aside («Ana  Pérez» and «ana perez» are; «Ana Pérez» and «Ana
    Pérez Gil» are not)."""
    return folded_name(first) == folded_name(second)


def folded_name(name: str) -> str:
    """``name`` casefolded, without accents, its spaces collapsed (what ``same_name`` compares)."""
    return " ".join("".join(char for char in unicodedata.normalize("NFD", name.casefold())
                            if not unicodedata.combining(char)).split())


_ANY = object()
"""In an ``EnteredNames`` key: any club, or any federation id."""


class EnteredNames(Generic[Key]):
    """The players entered in a tournament, by name, to find the first one a newcomer
    cannot be told apart from: the same name (``same_name``) and neither another club
    (both given, different once spaces and case aside) nor another federation id (both
    given, different). ``add`` the entries in entry order; ``untold`` answers in constant
    time (four look-ups), however many players share the name."""

    def __init__(self) -> None:
        self._first: dict[tuple[str, object, object], tuple[int, Key]] = {}
        self._added = 0

    @staticmethod
    def _keys(name: str, club: str | None, federation_id: str | None) -> tuple[str, str, str]:
        return folded_name(name), (club or "").strip().casefold(), federation_id or ""

    def add(self, key: Key, name: str, club: str | None, federation_id: str | None) -> None:
        """One more entry, after every entry added before (``key`` names it to the caller)."""
        folded, club_key, id_key = self._keys(name, club, federation_id)
        order, self._added = self._added, self._added + 1
        for clubs in (_ANY, club_key):
            for ids in (_ANY, id_key):
                self._first.setdefault((folded, clubs, ids), (order, key))

    def untold(self, name: str, club: str | None, federation_id: str | None) -> Key | None:
        """The key of the first entry added whose player a newcomer called ``name`` of
        ``club`` with ``federation_id`` cannot be told apart from; None when there is none.
        An entry without a club matches any club, one without a federation id any id."""
        folded, club_key, id_key = self._keys(name, club, federation_id)
        clubs: tuple[object, ...] = (club_key, "") if club_key else (_ANY,)
        ids: tuple[object, ...] = (id_key, "") if id_key else (_ANY,)
        found = [self._first[item] for item in ((folded, one, other) for one in clubs for other in ids)
                 if item in self._first]
        return min(found, key=lambda pair: pair[0])[1] if found else None


@dataclass(frozen=True)
class NamedPlayer(Generic[Key]):
    """A player as a list names them: ``key`` (the list's player key, e.g. an entry id),
    ``name``, ``club`` ("" when unknown), ``federation_id`` (None when unknown) and
    ``entry`` (the entry number, the last resort)."""

    key: Key
    name: str
    club: str = ""
    federation_id: str | None = None
    entry: int | None = None


def _folded(text: str | None) -> str:
    return folded_name(text or "")


def distinct_names(players: Iterable[NamedPlayer[Key]]) -> dict[Key, str]:
    """The name to show for each player, by key: the name itself, or, when another player
    of ``players`` has the same name (``same_name``), the name with the first of these that
    no homonym shares: «(CLUB)», «(federado N)», «(inscripción N)» (the entry; the key
    when no entry is given). Pure; the order of ``players`` does not matter."""
    listed = list(players)
    groups: dict[str, list[NamedPlayer[Key]]] = defaultdict(list)
    for player in listed:
        groups[folded_name(player.name)].append(player)
    shown: dict[Key, str] = {}
    for player in listed:
        others = [other for other in groups[folded_name(player.name)] if other.key != player.key]
        shown[player.key] = player.name if not others else f"{player.name} ({_distinction(player, others)})"
    return shown


def _distinction(player: NamedPlayer[Key], others: list[NamedPlayer[Key]]) -> str:
    """What tells ``player`` apart from its homonyms ``others`` (see ``distinct_names``)."""
    club = player.club.strip()
    if club and all(_folded(other.club) != _folded(club) for other in others):
        return club
    federation = (player.federation_id or "").strip()
    if federation and all((other.federation_id or "").strip() != federation for other in others):
        return f"federado {federation}"
    return f"inscripción {player.entry if player.entry is not None else player.key}"
