"""The venue pages of a publication (issue 27 §2: one event played in several venues at once).

When a tournament holds venues (``duplicada venue import``), ``duplicate.publishing.site.publish_results``
writes beside its other pages:

==============================  ====================================================================
file                            what
==============================  ====================================================================
``sedes.html``                  the whole field: the tournament standings of every player of every
                                venue together (IV.31, a «Sede» column) and, per game, the game's
                                standings of the whole field (III.23; bonuses as the service awards
                                them, III.24: over the whole field unless ``venue_bonuses``)
``sede-SLUG.html``              one venue: its players only, ranked among themselves (tournament and
                                each game), with the same points and bonuses
==============================  ====================================================================

The index and every game page link to them. The standings are the whole field's, read
once per publication (``TournamentService.field_standings``, the source of ``duplicada
standings`` and of every other page); nothing is recomputed here.

File names come from the venue names through ``venue_slugs``: lower-case ASCII letters,
digits and hyphens only (accents dropped, anything else a hyphen), at most
``SLUG_LIMIT`` characters, ``sede`` when nothing is left; two venues whose slugs collide get
``-2``, ``-3``… in the order of the field, so no page overwrites another. Names are shown
as plain text (the templates autoescape).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jinja2 import Environment

from duplicate.publishing.result_values import TournamentResults
from duplicate.rules.game_standings import GameStanding
from duplicate.rules.tournament_standings import TournamentStanding
from duplicate.service.facade import TournamentService
from duplicate.service.field_standings import FieldStandings, VenueKey
from duplicate.service.venues import FieldPlayer

__all__ = ["ALL_VENUES_PAGE", "SLUG_LIMIT", "VenuePages", "collect_venue_pages", "file_slugs", "venue_slugs",
           "write_venue_pages"]

ALL_VENUES_PAGE = "sedes.html"
"""The page of the whole field (every venue)."""

SLUG_LIMIT = 40
"""Characters of a venue's slug at most (before a ``-N`` suffix)."""


def venue_slugs(names: Sequence[str]) -> dict[str, str]:
    """A safe, distinct file-name slug for each venue name (module docstring), by name,
    in the order given: ``["Lloret de Mar", "El Vendrell"]`` → ``{"Lloret de Mar":
    "lloret-de-mar", "El Vendrell": "el-vendrell"}``; ``["Sede A", "sede-a"]`` →
    ``{"Sede A": "sede-a", "sede-a": "sede-a-2"}``. Never raises."""
    return file_slugs(names, fallback="sede")


def file_slugs(names: Iterable[str], *, fallback: str, prefix: str = "",
               reserved: Iterable[str] = ()) -> dict[str, str]:
    """A distinct file-name slug for each name, by name, in the order given: ``prefix`` then
    the name's ASCII letters and digits in lower case, runs of anything else as one hyphen,
    at most ``SLUG_LIMIT`` characters (``fallback`` when nothing is left); a slug already
    given or in ``reserved`` gets ``-2``, ``-3``… A name is never a path. Never raises."""
    slugs: dict[str, str] = {}
    taken = set(reserved)
    for name in names:
        if name in slugs:
            continue
        ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii").lower()
        base = prefix + (re.sub(r"[^a-z0-9]+", "-", ascii_name).strip("-")[:SLUG_LIMIT].strip("-") or fallback)
        slug, count = base, 1
        while slug in taken:
            count += 1
            slug = f"{base}-{count}"
        taken.add(slug)
        slugs[name] = slug
    return slugs


@dataclass(frozen=True)
class VenueGame:
    """One game's standings in a venue page: ``number`` and its lines (``GameStanding``
    keyed ``(venue, entry id)``)."""

    number: int
    lines: tuple[GameStanding[VenueKey], ...]


@dataclass(frozen=True)
class VenuePage:
    """One page: ``venue`` (None for the whole field), its file ``name``, the tournament
    standings and each game's."""

    venue: str | None
    name: str
    overall: tuple[TournamentStanding[VenueKey], ...]
    games: tuple[VenueGame, ...]


@dataclass(frozen=True)
class VenuePages:
    """Every venue page of a publication, the field's players by key and, for the players
    of this tournament's own entries (not an imported venue's), their player page's name."""

    pages: tuple[VenuePage, ...]
    players: dict[VenueKey, FieldPlayer]
    player_pages: dict[VenueKey, str]

    @property
    def links(self) -> tuple[tuple[str, str], ...]:
        """(label, file) of each page, the whole field first."""
        return tuple(("Todas las sedes" if page.venue is None else f"Sede {page.venue}", page.name)
                     for page in self.pages)


def collect_venue_pages(service: TournamentService, tournament_id: int, game_numbers: Sequence[int],
                        field: FieldStandings) -> VenuePages | None:
    """The venue pages of the tournament, or None when it is played in one room (no
    imported venue and every player of one venue).
    ``game_numbers``: the games to show (those with no player in any venue are left out);
    ``field``: the standings of the whole field (``service.field_standings``)."""
    imported = service.venues(tournament_id)
    everybody = service.venue_field(tournament_id)
    players = {player.key: player for player in everybody}
    venues = list(dict.fromkeys(player.venue for player in everybody))
    if not imported and len(venues) < 2:        # one room: no venue pages
        return None
    slugs = venue_slugs(venues)
    from_records = set(service.venue_record_players(tournament_id))
    player_pages = {player.key: f"jugador-{player.player}" for player in everybody
                    if player.venue not in from_records}
    pages = []
    for venue in (None, *venues):
        games = []
        for number in game_numbers:
            lines = tuple(field.game_standings(number, venue))
            if lines:
                games.append(VenueGame(number, lines))
        overall = tuple(field.tournament_standings(venue))
        name = ALL_VENUES_PAGE if venue is None else f"sede-{slugs[venue]}.html"
        pages.append(VenuePage(venue, name, overall, tuple(games)))
    return VenuePages(tuple(pages), players, player_pages)


def write_venue_pages(environment: Environment, results: TournamentResults, out: Path,
                      venue_pages: VenuePages, **context: Any) -> list[Path]:
    """Write every page of ``venue_pages`` into ``out``; the files written (relative)."""
    template = environment.get_template("venues.html")
    written = []
    for page in venue_pages.pages:
        player_pages = {key: slug for key, slug in venue_pages.player_pages.items()
                        if key[1] in results.players}          # only pages this publication writes
        (out / page.name).write_text(template.render(t=results, root="", page=page, players=venue_pages.players,
                                                     player_pages=player_pages, links=venue_pages.links, **context),
                                     encoding="utf-8")
        written.append(Path(page.name))
    return written
