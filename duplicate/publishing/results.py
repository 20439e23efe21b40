"""A tournament's results as plain values, ready to publish (III.26, IV.32, II.9).

``collect_results(service, tournament_id=None, games=None)`` reads everything a
publication shows through ``TournamentService`` (standings, rounds, slips, seats) and
returns a ``TournamentResults``: immutable values that the HTML templates, the PDF
documents (``duplicate.publishing.pdf_pages``) and the spreadsheets (``duplicate.publishing.spreadsheets``)
only format — no writer computes a figure of its own, so every format shows the same
numbers as ``duplicada standings``.

What is derived here, and nowhere else:

* **per-round cells** of a game's standings (``RoundCell``): the player's points in
  the round, the bonus awarded (III.24) and, for a slip scored 0 that is not a valid
  move, the Spanish reason (III.23, III.25);
* **follow-up sheets** (II.9, ``SheetLine``): per round the player's coordinate, word,
  points and cumulative points, and the master's coordinate, word, points and
  cumulative points;
* **partial standings** every ``partial_every`` rounds (tournament setting; FISE: 3):
  points plus the bonuses awarded up to that round, ranked like the game standings
  (shared positions, "1, 2, 2, 4"; no tie-breaks — they apply to the final standings
  only, III.28);
* **the final board** (``BoardCell`` rows): the board before the last master move with
  that move placed;
* **EloDI changes** of a game (section V) when ``ranking.ratings`` is installed and the
  game has been rated (``GameResults.elodi``; ``None`` with ``elodi_note`` otherwise).

Text for players is Spanish (``GAME_STATUS_LABELS``, ``CRITERION_LABELS``,
``SLIP_STATUS_LABELS``). Numbers stay numbers here; ``duplicate.labels.spanish_number`` formats them
(decimal comma).

The values and their formatting live in ``duplicate.publishing.result_values`` and are re-exported
here; this module collects them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from datetime import datetime

from duplicate.publishing.result_values import (
    SLIP_STATUS_LABELS,
    BoardCell,
    EloLine,
    GameResults,
    MasterLine,
    OverallLine,
    PartialLine,
    PartialStandings,
    Penalty,
    PlayerInfo,
    RoundCell,
    SheetLine,
    StandingLine,
    TournamentResults,
    split_move,
)
from duplicate.rules.game_standings import running_totals
from duplicate.rules.notation import SlipError, parse_move
from duplicate.rules.rack import shown_rack
from duplicate.rules.slips import SlipStatus
from duplicate.rules.statuses import GameStatus
from duplicate.service.errors import TournamentError
from duplicate.service.facade import TournamentService
from duplicate.service.field_standings import FieldStandings
from duplicate.service.settings import TournamentSettings
from duplicate.service.views import RoundView, SlipView
from lexicon.alphabet import Alphabet, spanish
from lexicon.board import SIZE, Board, BoardError, standard_layout
from lexicon.move import PlacementError, placed_tiles

__all__ = ["board_rows", "collect_results"]

# --- collecting -----------------------------------------------------------------------------------


def collect_results(service: TournamentService, tournament_id: int | None = None,
                    games: Iterable[int] | None = None, *, alphabet: Alphabet | None = None,
                    field: FieldStandings | None = None, closed_only: bool = False,
                    federation_ids: bool = True, reuse: Mapping[int, GameResults] | None = None) -> TournamentResults:
    """Read a tournament's results through ``service``.

    ``tournament_id``: None for the newest tournament; ``games``: the game numbers to
    detail (None: every game with at least one master move); ``alphabet``: the tile
    set of the boards (default: the Spanish set, I.2); ``field``: the standings of the
    whole field (``service.field_standings``, read here when not given — a publication
    reads them once and hands them to its venue pages too). Every figure of a player
    (positions, points, bonuses, totals, percentages, partial standings) is that
    player's line of ``field``: in an event played in several venues, the positions and
    the bonuses of the whole field (III.24, unless ``venue_bonuses``), as ``duplicada
    standings --overall``. The overall standings always cover every game played
    (IV.32). ``closed_only``: only the closed rounds' masters, slips and figures (the live
    pages, issue 37 «never early»; ``field`` must then be ``field_standings(closed_only=True)``);
    ``federation_ids``: False leaves every player's federation id out (None).
    ``reuse``: game number → that game's ``GameResults`` collected before with the same
    arguments, kept as it is instead of reading the game again (only its EloDI lines are
    read again: the ratings are not this tournament's log); the caller vouches that
    nothing the game shows has moved since (``duplicada live`` keys them on the game's
    newest event, ``TournamentService.last_event_ids``, issue 37).
    Raises ``TournamentError`` for an unknown tournament or game.
    """
    info = service.tournament(tournament_id)
    field = field if field is not None else service.field_standings(info.id)
    settings = TournamentSettings.from_dict(info.settings)
    alphabet = alphabet or spanish()
    shown = service.entry_names(info.id)                 # homonyms told apart (issue 35 §4)
    players = {entry.id: PlayerInfo(entry.id, person.id, shown.get(entry.id, person.name), person.club or "",
                                    person.country or "", person.federation_id if federation_ids else None,
                                    entry.status)
               for entry, person in service.entries(info.id)}
    wanted = [game.number for game in info.games if game.rounds] if games is None else list(games)
    statuses = {game.number: game for game in info.games}
    reuse = reuse or {}
    detailed = tuple(_reread_elodi(service, info.id, reuse[number], players) if number in reuse
                     else _collect_game(service, info.id, statuses[number].status if number in statuses else "",
                                        statuses[number].end_reason if number in statuses else None, number,
                                        players, settings, alphabet, field, closed_only)
                     if number in statuses else _unknown_game(service, info.id, number)
                     for number in wanted)
    overall = tuple(OverallLine(line, players[line.player]) for line in field.entry_tournament_standings())
    played = [game for game in info.games if game.rounds]
    provisional = any(game.status != GameStatus.FINAL.value for game in played)
    return TournamentResults(info.id, info.name, info.venue, info.start_date, info.end_date, settings, players,
                             detailed, tuple(game.number for game in played), overall, provisional, datetime.now())


def _reread_elodi(service: TournamentService, tournament_id: int, game: GameResults,
                  players: dict[int, PlayerInfo]) -> GameResults:
    """``game`` collected before, with its EloDI lines read again (``_elodi``)."""
    elodi, note = _elodi(service, tournament_id, game.number, players)
    return game if (elodi, note) == (game.elodi, game.elodi_note) else replace(game, elodi=elodi, elodi_note=note)


def _unknown_game(service: TournamentService, tournament_id: int, number: int) -> GameResults:
    service.rounds(number, tournament_id)  # raises TournamentError naming the game
    raise AssertionError("unreachable")  # pragma: no cover


def _collect_game(service: TournamentService, tournament_id: int, status: str, end_reason: str | None, number: int,
                  players: dict[int, PlayerInfo], settings: TournamentSettings, alphabet: Alphabet,
                  field: FieldStandings, closed_only: bool = False) -> GameResults:
    rounds = [view for view in service.rounds(number, tournament_id)
              if view.master is not None and (view.closed or not closed_only)]
    shown = {view.number for view in rounds}
    standings = field.entry_game_standings(number)
    round_results = field.entry_rounds(number)
    at = {result.number: index for index, result in enumerate(round_results)}     # the field's round order
    slips: dict[tuple[int, int], SlipView] = {}
    tables: dict[int, int] = {}
    for slip in service.slips(number, tournament_id=tournament_id):
        if slip.round_number not in shown:
            continue
        slips[(slip.entry_id, slip.round_number)] = slip
        tables[slip.entry_id] = slip.table_number
    if any(line.player not in tables for line in standings):
        # Slips carry the table (II.6); ``seats`` is only read when some are missing (it loads row by row).
        tables = {entry.id: table for table, entry, _person in service.seats(number, tournament_id)}
    history = service.history(tournament_id, game_number=number, kinds=_HISTORY_SHOWN)
    replaced: dict[int, list[str]] = {}
    for event in history:
        if event.kind in ("rack_drawn", "rack_set") and event.payload.get("replaces") and event.round_number:
            replaced.setdefault(event.round_number, []).append(
                f"atril {shown_rack(str(event.payload['replaces']), alphabet)} cambiado por el juez (III.29): "
                f"{event.reason or 'sin motivo'}")
    masters = tuple(_master_line(view, tuple(replaced.get(view.number, ()))) for view in rounds)

    lines, penalties, bonuses = [], [], []
    sheets: dict[int, tuple[SheetLine, ...]] = {}
    for standing in standings:
        player = players[standing.player]
        cells = []
        sheet = []
        totals = running_totals(round_results, standing.player)
        for master in masters:
            found = slips.get((standing.player, master.number))
            index = at.get(master.number)
            points = standing.per_round[index] if index is not None else 0
            bonus = standing.bonuses_per_round[index] if index is not None else 0
            status_code = found.status if found is not None else SlipStatus.MISSING.value
            reason = "" if status_code == SlipStatus.VALID.value else (
                (found.reason if found is not None else "") or SLIP_STATUS_LABELS.get(status_code, status_code))
            cells.append(RoundCell(points, bonus, status_code, reason))
            cumulative = totals[index] if index is not None else 0          # bonuses included (III.24)
            if status_code != SlipStatus.VALID.value:
                penalties.append(Penalty(master.number, tables.get(standing.player, 0), player,
                                         found.text if found is not None else "", status_code, reason))
            if bonus:
                bonuses.append((master.number, player, bonus))
            coordinate, word = split_move((found.move or found.text) if found is not None else "")
            sheet.append(SheetLine(master.number, coordinate, word, points, bonus, cumulative, status_code, reason,
                                   master.coordinate, master.word, master.score, master.cumulative))
        lines.append(StandingLine(standing, player, tables.get(standing.player, 0), tuple(cells)))
        sheets[standing.player] = tuple(sheet)
    penalties.sort(key=lambda item: (item.round_number, item.table))
    bonuses.sort(key=lambda item: (item[0], item[1].name))
    partials = _partials(field, number, lines, masters, settings.partial_every)
    elodi, note = _elodi(service, tournament_id, number, players)
    reopenings = tuple(f"{event.created_at:%d/%m/%Y %H:%M}: reabierta por {event.arbiter or 'el juez árbitro'} — "
                       f"{event.reason or 'sin motivo'}"
                       for event in history if event.kind == "game_reopened")
    return GameResults(number, status, end_reason, masters, tuple(lines), tuple(penalties), tuple(bonuses), sheets,
                       tables, partials, _final_board(rounds, alphabet), elodi, note, reopenings)


_HISTORY_SHOWN = ("rack_drawn", "rack_set", "game_reopened")
"""The kinds of event a game's results read from its history: racks replaced (III.29) and
reopenings (IV.32)."""


def _master_line(view: RoundView, replaced: tuple[str, ...] = ()) -> MasterLine:
    coordinate, word = split_move(view.master)
    return MasterLine(view.number, view.rack_shown or view.rack, view.master or "", coordinate, word, view.master_score or 0,
                      view.cumulative or 0, view.top_score, len(view.top_moves), view.annulled, len(view.redraws),
                      replaced)


def _partials(field: FieldStandings, number: int, lines: Sequence[StandingLine],
              masters: Sequence[MasterLine], every: int) -> tuple[PartialStandings, ...]:
    """Standings after rounds ``every``, ``2 * every``, … before the last (III.26), from
    the whole field's ``partial_standings`` (this tournament's entries' lines)."""
    by_entry = {line.player.entry_id: line for line in lines}
    result = []
    for after in range(every, len(masters), every):
        ranked = tuple(PartialLine(standing.position, by_entry[standing.player].player, by_entry[standing.player].table,
                                   standing.round_total, standing.bonus_total, standing.total, standing.percentage)
                       for standing in field.entry_partial_standings(number, after))
        result.append(PartialStandings(after, masters[after - 1].cumulative, ranked))
    return tuple(result)


def _final_board(rounds: Sequence[RoundView], alphabet: Alphabet) -> tuple[tuple[BoardCell, ...], ...]:
    """The board after the last master move (the board before it, with it placed)."""
    layout = standard_layout()
    board = Board(alphabet, layout)
    if rounds:
        last = rounds[-1]
        try:
            board = Board.from_cgp(last.board_before, alphabet, layout)
            if last.master:   # an annulled master stays on the board too (III.29)
                board.place(placed_tiles(board, parse_move(last.master, alphabet)))
        except (BoardError, SlipError, PlacementError):
            pass  # a record that does not read back: show the board before the last move
    return board_rows(board, alphabet)


def board_rows(board: Board, alphabet: Alphabet,
               new: frozenset[tuple[int, int]] = frozenset()) -> tuple[tuple[BoardCell, ...], ...]:
    """``board`` as 15 rows of 15 ``BoardCell`` (premium squares of the standard layout, I.2);
    the squares ``(row, col)`` in ``new`` marked as placed by the round's master."""
    layout = board.layout
    rows = []
    for r in range(SIZE):
        cells = []
        for c in range(SIZE):
            tile = board.tiles[r][c]
            wm, lm = layout.word_mult[r][c], layout.letter_mult[r][c]
            premium = "tp" if wm == 3 else "dp" if wm == 2 else "tl" if lm == 3 else "dl" if lm == 2 else ""
            if tile is None:
                cells.append(BoardCell("", False, premium))
            else:
                symbol = alphabet.symbol(tile)
                cells.append(BoardCell(symbol, symbol != symbol.upper(), premium, (r, c) in new, len(symbol) > 1))
        rows.append(tuple(cells))
    return tuple(rows)


def _elodi(service: TournamentService, tournament_id: int, number: int,
           players: dict[int, PlayerInfo]) -> tuple[tuple[EloLine, ...] | None, str]:
    """EloDI changes of one game (section V), from the service's ``game_ratings`` hook
    (wired by ``ranking.service``); ``(None, reason)`` without it or for a game not rated."""
    if service.hooks.game_ratings is None:
        return None, "Las valoraciones EloDI no están disponibles en esta instalación."
    try:
        report = service.hooks.game_ratings(tournament_id, number)
    except TournamentError as error:    # RatingError: not rated; StorageUnavailable: no ratings store
        return None, f"Sin valoración EloDI: {error}"
    by_person = {player.player_id: player.entry_id for player in players.values()}
    return tuple(EloLine(line.name, by_person.get(line.player_id), line.rating_before, line.change, line.rating_after,
                         line.target_position, line.actual_position, line.phase) for line in report), ""
