"""The standings of the whole field, computed once (issue 35 §1): the one source of every total shown.

An event may be played in several rooms (issue 27 §2): the organiser's own room, online
venues on this database and offline venues whose records were imported
(``duplicate.service.venues``). ``Venues.field_standings`` reads the record once and
returns a ``FieldStandings``: per game the rounds of every player of every room (master and
top scores, points, and the bonuses of III.24 over the whole field, or each venue's with
the setting ``venue_bonuses``), the game standings of the whole field (III.23, III.28) and
the tournament standings (IV.31). ``duplicada standings`` (with venues),
``venue_game_standings``, ``venue_tournament_standings`` and every publication
(``duplicate.publishing.results.collect_results``: the HTML pages, replay pages, PDFs, CSV,
XLSX, the Eliot export; ``duplicate.publishing.venue_pages``) read it, so a player has one
total everywhere. A tournament played in one room is a field of one room: the same
figures as ``Standings``.

Players are keyed ``(venue, entry id in that venue's record)`` (``VenueKey``); this
tournament's own entries (its own room and its online venues) are also reachable by entry
id (``entry_*`` methods: the same lines, the same positions among the whole field, keyed by
entry id). Restricted to one venue (``venue=``), the venue's players are ranked among
themselves with the bonuses of the field (or of their venue, ``venue_bonuses``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property

from duplicate.rules.game_standings import GameStanding, RoundResult, game_standings, partial_standings
from duplicate.rules.tournament_standings import TournamentCriterion, TournamentStanding, tournament_standings

__all__ = ["FieldGame", "FieldStandings", "VenueKey"]

VenueKey = tuple[str, int]
"""A player of the whole field: ``(venue name, entry id in that venue's record)``."""


@dataclass(frozen=True)
class FieldGame:
    """One game of the whole field: ``number``, its ``players`` (the organiser's room
    first, then each online venue, then each imported venue), its ``rounds`` (in round
    order, every room's, bonuses as awarded) and its ``standings`` (III.23, III.28; with
    III.28's tie-breaks when ``tie_breaks``), computed when first read."""

    number: int
    players: tuple[VenueKey, ...]
    rounds: tuple[RoundResult[VenueKey], ...]
    tie_breaks: bool

    @cached_property
    def standings(self) -> tuple[GameStanding[VenueKey], ...]:
        return tuple(game_standings(self.players, self.rounds, tie_breaks=self.tie_breaks))


@dataclass(frozen=True)
class FieldStandings:
    """The standings of the whole field (module docstring): ``own_venue`` the organiser's
    room's name; ``venues`` every venue known (the organiser's, online, imported);
    ``entries`` this tournament's entry ids → their key; ``games`` every game of the
    tournament by number; ``overall`` the tournament standings (IV.31); ``criterion`` and
    ``tie_breaks`` the tournament's (IV.31, III.28)."""

    own_venue: str
    venues: tuple[str, ...]
    entries: Mapping[int, VenueKey]
    games: Mapping[int, FieldGame]
    overall: tuple[TournamentStanding[VenueKey], ...]
    criterion: TournamentCriterion
    tie_breaks: bool

    # --- by key ---------------------------------------------------------------------------------------
    def game_standings(self, number: int, venue: str | None = None) -> list[GameStanding[VenueKey]]:
        """Game ``number``'s standings of the whole field, or of ``venue``'s players ranked
        among themselves; empty for a game nobody played."""
        game = self.games.get(number)
        if game is None:
            return []
        if venue is None:
            return list(game.standings)
        players, rounds = _only(venue, game.players, game.rounds)
        return game_standings(players, rounds, tie_breaks=self.tie_breaks)

    def partial_standings(self, number: int, through_round: int) -> list[GameStanding[VenueKey]]:
        """Game ``number``'s standings of the whole field counting rounds 1..``through_round``
        (III.26), as ``duplicate.rules.game_standings.partial_standings``."""
        game = self.games.get(number)
        if game is None:
            return []
        return partial_standings(game.players, game.rounds, through_round, tie_breaks=self.tie_breaks)

    def tournament_standings(self, venue: str | None = None) -> list[TournamentStanding[VenueKey]]:
        """The tournament standings of the whole field (IV.31), or of ``venue``'s players
        ranked among themselves."""
        if venue is None:
            return list(self.overall)
        games = []
        for game in self.games.values():
            players, rounds = _only(venue, game.players, game.rounds)
            if players and rounds:
                games.append((players, rounds))
        classified = list(dict.fromkeys(player for players, _rounds in games for player in players))
        return tournament_standings(classified, games, self.criterion, tie_breaks=self.tie_breaks)

    # --- this tournament's entries, by entry id --------------------------------------------------------
    def entry_rounds(self, number: int) -> list[RoundResult[int]]:
        """Game ``number``'s rounds with only this tournament's entries, by entry id (the
        bonuses as awarded over the field)."""
        game = self.games.get(number)
        own = self._own()
        return [RoundResult(number=result.number, master_score=result.master_score, top_score=result.top_score,
                            scores={own[key]: points for key, points in result.scores.items() if key in own},
                            bonuses={own[key]: points for key, points in result.bonuses.items() if key in own})
                for result in (game.rounds if game is not None else ())]

    def entry_game_standings(self, number: int) -> list[GameStanding[int]]:
        """This tournament's entries' lines of game ``number``'s standings of the whole field
        (positions among the whole field), by entry id."""
        own = self._own()
        return [_game_line(line, own[line.player]) for line in self.game_standings(number) if line.player in own]

    def entry_partial_standings(self, number: int, through_round: int) -> list[GameStanding[int]]:
        """This tournament's entries' lines of ``partial_standings``, by entry id."""
        own = self._own()
        return [_game_line(line, own[line.player]) for line in self.partial_standings(number, through_round)
                if line.player in own]

    def entry_tournament_standings(self) -> list[TournamentStanding[int]]:
        """This tournament's entries' lines of the tournament standings of the whole field
        (positions among the whole field), by entry id."""
        own = self._own()
        return [_tournament_line(line, own[line.player]) for line in self.overall if line.player in own]

    def _own(self) -> dict[VenueKey, int]:
        return {key: entry for entry, key in self.entries.items()}


def _only(venue: str, players: Sequence[VenueKey],
          rounds: Sequence[RoundResult[VenueKey]]) -> tuple[list[VenueKey], list[RoundResult[VenueKey]]]:
    """The players of ``venue`` and the rounds restricted to them (bonuses kept as awarded)."""
    members = [player for player in players if player[0] == venue]
    chosen = set(members)
    return members, [RoundResult(number=result.number, master_score=result.master_score,
                                 top_score=result.top_score,
                                 scores={key: value for key, value in result.scores.items() if key in chosen},
                                 bonuses={key: value for key, value in result.bonuses.items() if key in chosen})
                     for result in rounds]


def _game_line(line: GameStanding[VenueKey], entry: int) -> GameStanding[int]:
    return GameStanding(player=entry, position=line.position, total=line.total, round_total=line.round_total,
                        bonus_total=line.bonus_total, master_total=line.master_total, percentage=line.percentage,
                        per_round=line.per_round, bonuses_per_round=line.bonuses_per_round,
                        equal_master=line.equal_master, sole_top=line.sole_top, max_deficit=line.max_deficit)


def _tournament_line(line: TournamentStanding[VenueKey], entry: int) -> TournamentStanding[int]:
    return TournamentStanding(player=entry, position=line.position, value=line.value, total=line.total,
                              round_total=line.round_total, bonus_total=line.bonus_total,
                              master_total=line.master_total, percentage=line.percentage,
                              games_played=line.games_played, places=line.places, equal_master=line.equal_master,
                              sole_top=line.sole_top, max_deficit=line.max_deficit)
