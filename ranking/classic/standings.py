"""Standings of a classic division: wins, then spread, then the FIDE tie-breaks.

Scrabble's classic order (glossary; TSH): **wins** (a draw ½, a pairing-allocated bye or a
forfeit win 1, a half-point bye ½), then **spread** (points for minus points against; a bye
and a forfeit count the organiser's ``bye_spread``/``forfeit_spread``), then the tie-breaks
the organiser chose, computed by gacrux's FIDE tie-break module (Buchholz ``BH``,
Sonneborn-Berger ``SB``, direct encounter ``DE``…; C.07 rules as gacrux implements them),
then the starting number.

Inputs are plain data (``Board``), so the same function ranks stored events, simulations
and tests.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from ranking.classic.trf import RoundCell, Trf, TrfPlayer, write_trf


@dataclass(frozen=True)
class Board:
    """One board of one round: ``first`` moves first; ``second`` 0 for the bye; scores
    None until entered; ``forfeit`` ``"first"``/``"second"``: who lost by forfeit, ``"both"``:
    neither came (a double forfeit, both lose: C.06 11, "—" for both)."""

    round: int
    first: int
    second: int
    first_score: int | None = None
    second_score: int | None = None
    forfeit: str | None = None

    @property
    def decided(self) -> bool:
        return self.second == 0 or self.forfeit is not None or (
            self.first_score is not None and self.second_score is not None)


@dataclass(frozen=True)
class Seeded:
    """A player of the division: starting ``number``, ``name``, ``rating``, ``club``, the
    ``first_round`` they play, the round they withdrew from (None) and FIDE ``title``."""

    number: int
    name: str
    rating: int = 0
    club: str = ""
    first_round: int = 1
    withdrawn_round: int | None = None
    title: str = ""


@dataclass(frozen=True)
class StandingLine:
    """A player's line: ``place`` (shared places repeat), wins, losses, spread, points for
    and against, games played, firsts (games moving first), ``tie_breaks`` by code."""

    place: int
    number: int
    name: str
    wins: Fraction
    losses: Fraction
    spread: int
    points_for: int
    points_against: int
    games: int
    firsts: int
    tie_breaks: dict[str, float] = field(default_factory=dict)


def _cell(board: Board, number: int) -> tuple[RoundCell, int, int]:
    """The TRF cell of ``number`` on ``board`` and the points for/against it counts."""
    if board.second == 0:
        return RoundCell(0, "-", "U"), 0, 0
    first = number == board.first
    opponent = board.second if first else board.first
    colour = "w" if first else "b"
    if board.forfeit is not None:
        lost = board.forfeit in ("both", "first" if first else "second")
        return RoundCell(opponent, colour, "-" if lost else "+"), 0, 0
    mine, theirs = (board.first_score, board.second_score) if first else (board.second_score, board.first_score)
    assert mine is not None and theirs is not None
    code = "1" if mine > theirs else "0" if mine < theirs else "="
    return RoundCell(opponent, colour, code), mine, theirs


def division_trf(players: Sequence[Seeded], boards: Sequence[Board], *, rounds: int, played: int,
                 absences: dict[tuple[int, int], str] | None = None, name: str = "",
                 first_colour: str = "w") -> Trf:
    """The division as a TRF after ``played`` rounds (boards of later rounds ignored): a
    player not on a board of a played round gets ``0000 - Z`` (not yet entered, withdrawn)
    or the bye asked for (``absences[(number, round)]``: ``H``/``Z``); the next round's
    byes asked for and withdrawals are written as its cell, which the engines read as
    "not to be paired"."""
    absences = absences or {}
    by_round: dict[tuple[int, int], RoundCell] = {}
    for board in boards:
        if board.round > played:
            continue
        for number in (board.first, board.second):
            if number:
                by_round[(number, board.round)] = _cell(board, number)[0]
    trf_players = []
    for player in players:
        cells = []
        for round_number in range(1, played + 1):
            cell = by_round.get((player.number, round_number))
            if cell is None:
                cell = RoundCell(0, "-", absences.get((player.number, round_number), "Z"))
            cells.append(cell)
        following = played + 1
        if following <= rounds:
            if player.withdrawn_round is not None and player.withdrawn_round <= following:
                cells.append(RoundCell(0, "-", "Z"))
            elif player.first_round > following:
                cells.append(RoundCell(0, "-", "Z"))
            elif (player.number, following) in absences:
                cells.append(RoundCell(0, "-", absences[(player.number, following)]))
        trf_players.append(TrfPlayer(player.number, player.name, player.rating, tuple(cells)))
    return Trf(tuple(trf_players), total_rounds=rounds, first_colour=first_colour, name=name)


def standings(players: Sequence[Seeded], boards: Sequence[Board], *, rounds: int, played: int,
              absences: dict[tuple[int, int], str] | None = None, bye_spread: int = 50,
              forfeit_spread: int = 50, tie_breaks: Sequence[str] = ("BH", "SB")) -> list[StandingLine]:
    """The standings after ``played`` rounds (see the module docstring). Raises
    ``ValueError`` when a board of those rounds has no result yet."""
    absences = absences or {}
    undecided = [b for b in boards if b.round <= played and not b.decided]
    if undecided:
        raise ValueError(f"faltan resultados de la ronda {undecided[0].round}")
    trf = division_trf(players, boards, rounds=rounds, played=played, absences=absences)
    spread: dict[int, int] = {p.number: 0 for p in players}
    scored: dict[int, list[int]] = {p.number: [0, 0, 0, 0] for p in players}   # for, against, games, firsts
    for board in boards:
        if board.round > played:
            continue
        if board.second == 0:
            spread[board.first] += bye_spread
            continue
        for number in (board.first, board.second):
            cell, mine, theirs = _cell(board, number)
            if board.forfeit is not None:
                spread[number] += forfeit_spread if cell.result == "+" else -forfeit_spread
                continue
            spread[number] += mine - theirs
            line = scored[number]
            line[0] += mine
            line[1] += theirs
            line[2] += 1
            line[3] += number == board.first
    breaks = _tie_breaks(trf, played, tie_breaks) if tie_breaks and played else {}
    names = {p.number: p.name for p in players}
    rows = []
    for player in trf.players:
        wins = player.points(played)
        counted = sum(1 for cell in player.rounds[:played] if cell.result not in ("Z",))
        rows.append((player.number, wins, Fraction(counted) - wins))
    def key(row: tuple[int, Fraction, Fraction]) -> tuple[object, ...]:
        number, wins, _ = row
        return (-wins, -spread[number], *(-breaks.get(number, {}).get(code, 0.0) for code in tie_breaks), number)
    rows.sort(key=key)
    lines: list[StandingLine] = []
    for index, (number, wins, losses) in enumerate(rows):
        place = index + 1
        if lines and key(rows[index - 1])[:-1] == key((number, wins, losses))[:-1]:
            place = lines[-1].place
        points_for, points_against, games, firsts = scored[number]
        lines.append(StandingLine(place, number, names[number], wins, losses, spread[number], points_for,
                                  points_against, games, firsts, breaks.get(number, {})))
    return lines


def _tie_breaks(trf: Trf, played: int, codes: Sequence[str]) -> dict[int, dict[str, float]]:
    """gacrux's tie-breaks of every player after ``played`` rounds: number → code → value.
    Raises ``ValueError`` naming a tie-break gacrux does not know."""
    from gacrux.tiebreak import tiebreak
    from gacrux.trf2json import trf2json

    reader = trf2json()
    reader.parse_file(write_trf(trf.cut(played), colour_record=True), 0)
    if reader.get_status() >= 400:
        raise ValueError(f"gacrux no pudo leer el torneo: {reader.chessjson.get('status')}")
    tournament = reader.get_tournament(1)
    params = {"tiebreak": list(codes), "check": False, "current_round": played}
    try:
        result = tiebreak(tournament, played, params).compute_tiebreaks(tournament, params)
    except Exception as error:  # noqa: BLE001 — gacrux's own message about a code it lacks
        raise ValueError(f"desempates {', '.join(codes)}: {error}") from None
    return {int(c["cid"]): {code: float(value) for code, value in zip(codes, c["tiebreakScore"])}
            for c in result["competitors"]}
