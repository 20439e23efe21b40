"""FIDE tournament report files (TRF-16): reading them with Spanish errors, writing them.

A TRF is what the pairing engines read and what a classic event exports. Only what pairing
needs is read; every other line is kept as text and ignored:

* ``012`` the tournament's name;
* ``001`` a player: starting number (columns 5–8), name (15–47), rating (49–52), points
  (81–84), rank (86–89) and, from column 92, one 10-column cell per round:
  opponent (4 digits, ``0000`` for none), colour (``w``, ``b`` or ``-``), result;
* ``XXR n`` the number of rounds; ``XXC white1``/``black1`` the first player's colour in
  round 1 (the rest by the usual alternation); ``XXZ a b …`` players absent from the next
  round (JaVaFo's extension, read by both engines); ``XXP a b`` two players not to be paired
  together (JaVaFo's, read by py4swiss: same-club players in early rounds).

duplicada's own records, so that a third party can re-check an exported event
(``replay.check_tournament``; other readers skip them): ``XXK r …`` the rounds in which the
``XXP`` pairs were kept apart (without it, every round); ``XXG r first second`` the Gibson
board of round ``r``, fixed before the system paired the rest (``ranking.classic.gibson``);
``XXM r motivo`` round ``r`` paired by the judge by hand unlike the system, and why
(C.04.2 A.4/A.5).

Result codes (TRF-16, C.04 annex): ``1 = 0`` played; ``+ -`` won/lost by forfeit; ``W D L``
played, unrated; ``H`` half-point bye, ``F`` full-point bye, ``U`` the pairing-allocated
bye, ``Z`` zero-point bye (``H F Z`` with opponent ``0000``: not paired that round, asked
for or withdrawn). In classic Scrabble *white* is the player who moves first.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction

from duplicate.texts import visible

#: Points of each result code (C.04 annex: a pairing-allocated bye scores a win).
RESULT_POINTS = {"1": Fraction(1), "+": Fraction(1), "W": Fraction(1), "F": Fraction(1), "U": Fraction(1),
                 "=": Fraction(1, 2), "D": Fraction(1, 2), "H": Fraction(1, 2),
                 "0": Fraction(0), "-": Fraction(0), "L": Fraction(0), "Z": Fraction(0)}
#: Result codes of a game played over the board (the others are byes and forfeits).
PLAYED = frozenset("1=0WDL")
#: Codes of a round in which the player was not paired (opponent 0000).
NOT_PAIRED = frozenset("HFZ-")
RESULT_COLUMN = 91   # 0-based start of the first round cell
CELL_WIDTH = 10


class TrfError(ValueError):
    """A TRF that cannot be read: the message names the line and what was expected."""


@dataclass(frozen=True)
class RoundCell:
    """One player's round: ``opponent`` (starting number, 0 for none), ``colour``
    (``"w"``, ``"b"``, ``"-"``) and ``result`` (a TRF result code)."""

    opponent: int
    colour: str
    result: str

    @property
    def points(self) -> Fraction:
        return RESULT_POINTS[self.result]

    @property
    def bars_the_bye(self) -> bool:
        """A pairing-allocated bye (``U``, or ``F`` without opponent) or a forfeit win: the
        player may not get the bye again (C.04.1 d)."""
        return self.result in ("U", "+") or (self.opponent == 0 and self.result == "F")

    @property
    def unpaired(self) -> bool:
        """Not paired this round at the player's request or by withdrawal (``0000 - H``)."""
        return self.opponent == 0 and self.result in NOT_PAIRED

    def text(self) -> str:
        return f"{self.opponent:4d} {self.colour} {self.result}" if self.opponent else f"0000 {self.colour} {self.result}"


@dataclass(frozen=True)
class TrfPlayer:
    """A ``001`` line: ``number`` (starting number), ``name``, ``rating`` (0 if none),
    ``rounds`` (the round cells in order)."""

    number: int
    name: str
    rating: int = 0
    rounds: tuple[RoundCell, ...] = ()

    def points(self, rounds: int | None = None) -> Fraction:
        """Points in the first ``rounds`` rounds (all by default)."""
        return sum((cell.points for cell in self.rounds[:rounds]), Fraction(0))


@dataclass(frozen=True)
class Trf:
    """A tournament as a TRF holds it: ``players`` by starting number, ``total_rounds``
    (``XXR``, None if absent), ``first_colour`` of player 1 in round 1 (``"w"``/``"b"``,
    ``XXC``; None if absent), the tournament ``name``, the players ``absent`` from the
    next round (``XXZ``) and pairs ``forbidden`` to meet (``XXP``, JaVaFo's extension,
    read by py4swiss: same-club players in early rounds)."""

    players: tuple[TrfPlayer, ...]
    total_rounds: int | None = None
    first_colour: str | None = None
    name: str = ""
    absent: frozenset[int] = frozenset()
    forbidden: frozenset[tuple[int, int]] = frozenset()
    ignored: tuple[str, ...] = field(default=(), compare=False)
    restricted_rounds: frozenset[int] | None = None
    gibson: tuple[tuple[int, int, int], ...] = ()
    manual: tuple[tuple[int, str], ...] = ()
    """``XXM``: the rounds the judge paired by hand unlike the system, with the reason."""

    def for_round(self, number: int) -> Trf:
        """What the system read when it paired round ``number`` (1-based), before the round:
        the history cut (``cut``), the ``XXP`` pairs only if that round kept them apart, and
        the Gibson board's players absent (its board is ``gibson_board(number)``)."""
        before = self.cut(number - 1)
        restricted = self.restricted_rounds is None or number in self.restricted_rounds
        board = self.gibson_board(number)
        absent = before.absent | ({board[0], board[1]} if board else set())
        return replace(before, forbidden=self.forbidden if restricted else frozenset(), absent=frozenset(absent),
                       restricted_rounds=None, gibson=(), manual=())

    def manual_reason(self, number: int) -> str | None:
        """The judge's reason for pairing round ``number`` by hand unlike the system
        (``XXM``), or None when the file records none."""
        return next((reason for round_number, reason in self.manual if round_number == number), None)

    def gibson_board(self, number: int) -> tuple[int, int] | None:
        """The Gibson board (first, second) of round ``number``, or None."""
        for round_number, first, second in self.gibson:
            if round_number == number:
                return first, second
        return None

    @property
    def rounds_played(self) -> int:
        """Rounds with at least one paired game (a trailing round of byes only is a request)."""
        played = 0
        for number in range(1, max((len(p.rounds) for p in self.players), default=0) + 1):
            if any(len(p.rounds) >= number and not p.rounds[number - 1].unpaired for p in self.players):
                played = number
        return played

    def player(self, number: int) -> TrfPlayer:
        for player in self.players:
            if player.number == number:
                return player
        raise KeyError(number)

    def cut(self, rounds: int) -> Trf:
        """The tournament after ``rounds`` rounds: later cells dropped, except a next-round
        cell saying the player is not to be paired (``0000 - H``/``Z``/``F``: C.04.2 byes
        asked for, withdrawals), which the engines read as such."""
        players = []
        for player in self.players:
            cells = player.rounds[:rounds]
            if len(player.rounds) > rounds and player.rounds[rounds].unpaired:
                cells += (player.rounds[rounds],)
            players.append(replace(player, rounds=cells))
        absent = self.absent if rounds >= self.rounds_played else frozenset()
        return replace(self, players=tuple(players), absent=absent)


def is_number(text: str) -> bool:
    """``text`` is one or more ASCII digits (``str.isdigit`` also takes ``¹`` or ``٣``,
    which ``int`` refuses)."""
    return bool(text) and all("0" <= char <= "9" for char in text)


def _field(line: str, start: int, end: int) -> str:
    return line[start:end].strip()


def _number(text: str, what: str, number: int, *, required: bool = True) -> int:
    if not text:
        if required:
            raise TrfError(f"línea {number}: falta {what}")
        return 0
    if not is_number(text):
        raise TrfError(f"línea {number}: {what} debe ser un número, no «{text}»")
    return int(text)


def _cells(line: str, number: int) -> tuple[RoundCell, ...]:
    cells = []
    text = line[RESULT_COLUMN:].rstrip()
    for index in range(0, len(text), CELL_WIDTH):
        cell = text[index:index + 8]
        round_number = index // CELL_WIDTH + 1
        where = f"línea {number}, ronda {round_number} (columna {RESULT_COLUMN + index + 1})"
        if not cell.strip():
            raise TrfError(f"{where}: casilla de ronda vacía; se esperaba «RIVAL COLOR RESULTADO», "
                           "p. ej. «  12 w 1» o «0000 - H»")
        opponent, colour, result = cell[:4].strip(), cell[5:6], cell[7:8]
        if not is_number(opponent):
            raise TrfError(f"{where}: el rival debe ser un número inicial de 4 cifras (0000 si no hay), "
                           f"no «{cell[:4]}»")
        if colour not in ("w", "b", "-"):
            raise TrfError(f"{where}: el color debe ser w, b o -, no «{colour}»")
        if result not in RESULT_POINTS:
            raise TrfError(f"{where}: resultado «{result}» desconocido; se esperaba uno de "
                           f"{' '.join(RESULT_POINTS)}")
        cells.append(RoundCell(int(opponent), colour, result))
    return tuple(cells)


def decode(data: bytes) -> str:
    """TRF bytes as text: UTF-8 (with or without BOM), else Latin-1 (older files)."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def read_trf(text: str) -> Trf:
    """Parse TRF-16 ``text``. Raises ``TrfError`` (Spanish, naming the line) for a malformed
    player line, a repeated starting number, an opponent who does not exist or a pairing
    the two players' lines do not both record."""
    players: list[TrfPlayer] = []
    total_rounds: int | None = None
    first_colour: str | None = None
    name = ""
    absent: set[int] = set()
    forbidden: set[tuple[int, int]] = set()
    restricted: set[int] | None = None
    gibson: list[tuple[int, int, int]] = []
    manual: list[tuple[int, str]] = []
    ignored = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip("\r\n")
        code = line[:3]
        if not line.strip():
            continue
        if code == "001":
            if len(line) < 84:
                raise TrfError(f"línea {number}: línea de jugador incompleta; se esperaban al menos 84 columnas "
                               "(número inicial en 5–8, nombre en 15–47, puntos en 81–84)")
            players.append(TrfPlayer(
                number=_number(_field(line, 4, 8), "el número inicial (columnas 5–8)", number),
                name=_field(line, 14, 47),
                rating=_number(_field(line, 48, 52), "el rating (columnas 49–52)", number, required=False),
                rounds=_cells(line, number),
            ))
        elif code == "XXR":
            total_rounds = _number(line[3:].strip(), "el número de rondas tras XXR", number)
        elif code == "XXC":
            tokens = line[3:].split()
            if "white1" in tokens:
                first_colour = "w"
            elif "black1" in tokens:
                first_colour = "b"
            else:
                raise TrfError(f"línea {number}: XXC debe decir white1 o black1")
        elif code == "XXZ":
            tokens = line[3:].split()
            if not all(is_number(token) for token in tokens):
                raise TrfError(f"línea {number}: XXZ debe ir seguida de números iniciales")
            absent.update(int(token) for token in tokens)
        elif code == "XXP":
            tokens = line[3:].split()
            if len(tokens) != 2 or not all(is_number(token) for token in tokens):
                raise TrfError(f"línea {number}: XXP debe ir seguida de dos números iniciales")
            forbidden.add((int(tokens[0]), int(tokens[1])))
        elif code == "XXK":
            tokens = line[3:].split()
            if not all(is_number(token) for token in tokens):
                raise TrfError(f"línea {number}: XXK debe ir seguida de números de ronda")
            restricted = (restricted or set()) | {int(token) for token in tokens}
        elif code == "XXG":
            tokens = line[3:].split()
            if len(tokens) != 3 or not all(is_number(token) for token in tokens):
                raise TrfError(f"línea {number}: XXG debe ir seguida de RONDA PRIMERO SEGUNDO")
            gibson.append((int(tokens[0]), int(tokens[1]), int(tokens[2])))
        elif code == "XXM":
            round_text, _, reason = line[3:].strip().partition(" ")
            if not is_number(round_text):
                raise TrfError(f"línea {number}: XXM debe ir seguida de RONDA MOTIVO")
            manual.append((int(round_text), reason.strip()))
        elif code == "012":
            name = line[4:].strip()
        else:
            ignored.append(line)
    if not players:
        raise TrfError("el archivo no tiene ninguna línea de jugador (001)")
    trf = Trf(tuple(sorted(players, key=lambda p: p.number)), total_rounds, first_colour, name,
              frozenset(absent), frozenset(forbidden), tuple(ignored),
              frozenset(restricted) if restricted is not None else None, tuple(gibson), tuple(manual))
    _check_consistency(trf)
    return trf


def _check_consistency(trf: Trf) -> None:
    numbers = [p.number for p in trf.players]
    repeated = sorted({n for n in numbers if numbers.count(n) > 1})
    if repeated:
        raise TrfError(f"número inicial repetido: {', '.join(map(str, repeated))}")
    missing = sorted(set(range(1, len(numbers) + 1)) - set(numbers))
    if missing:
        raise TrfError(f"los números iniciales deben ir de 1 a {len(numbers)} sin huecos; falta el "
                       f"{', '.join(map(str, missing[:10]))}")
    unknown = sorted(trf.absent - set(numbers))
    if unknown:
        raise TrfError(f"XXZ nombra jugadores sin línea 001: {', '.join(map(str, unknown))}")
    by_number = {p.number: p for p in trf.players}
    for player in trf.players:
        for index, cell in enumerate(player.rounds):
            if cell.opponent == 0:
                continue
            other = by_number.get(cell.opponent)
            where = f"jugador {player.number}, ronda {index + 1}"
            if other is None:
                raise TrfError(f"{where}: el rival {cell.opponent} no tiene línea 001")
            if cell.opponent == player.number:
                raise TrfError(f"{where}: el jugador figura como su propio rival")
            mirror = other.rounds[index] if len(other.rounds) > index else None
            if mirror is None or mirror.opponent != player.number:
                raise TrfError(f"{where}: juega contra {other.number}, pero la línea de {other.number} "
                               f"no lo recoge en esa ronda")
            if {cell.colour, mirror.colour} != {"w", "b"} and cell.result in PLAYED:
                raise TrfError(f"{where}: una partida jugada necesita un jugador con w y otro con b")


def write_trf(trf: Trf, *, rank_by_points: bool = True, colour_record: bool = False,
              ranks: dict[int, int] | None = None) -> str:
    """TRF-16 text for the engines: ``012``, one ``001`` line per player with its points
    recomputed from its cells and its rank (by points, then starting number), ``XXR`` and
    ``XXC`` when known. UTF-8 text, no dates (py4swiss misreads ``132`` lines).
    ``colour_record``: also the TRF-2026 record ``152 W|B`` of the initial colour (gacrux
    ignores ``XXC`` and otherwise guesses the colour from the rounds played). ``ranks``: the
    rank column to write (the organiser's standings order), instead of by points. Names and
    reasons are written ``visible`` (a line break or ESC stored by another program never
    breaks a line or reaches a terminal; issue 36 §5)."""
    lines = []
    if trf.name:
        lines.append(f"012 {visible(trf.name)}")
    if colour_record and trf.first_colour is not None:
        lines.append(f"152 {trf.first_colour.upper()}")
    order = sorted(trf.players, key=lambda p: (-p.points(), p.number)) if rank_by_points else list(trf.players)
    rank = ranks or {p.number: index for index, p in enumerate(order, start=1)}
    for player in trf.players:
        points = player.points()
        name = visible(player.name)[:33]
        head = (f"001 {player.number:4d}      {name:<33} {player.rating or '':>4} {'':3} {'':>11} {'':10} "
                f"{float(points):4.1f} {rank.get(player.number, 0):4d}")
        cells = "".join(f"  {cell.text()}" for cell in player.rounds)
        lines.append((head + cells).rstrip())
    if trf.total_rounds is not None:
        lines.append(f"XXR {trf.total_rounds}")
    if trf.first_colour is not None:
        lines.append(f"XXC {'white1' if trf.first_colour == 'w' else 'black1'}")
    if trf.absent:
        lines.append("XXZ " + " ".join(str(n) for n in sorted(trf.absent)))
    for first, second in sorted(trf.forbidden):
        lines.append(f"XXP {first} {second}")
    if trf.forbidden and trf.restricted_rounds is not None:
        lines.append("XXK " + " ".join(str(n) for n in sorted(trf.restricted_rounds)))
    for round_number, first, second in trf.gibson:
        lines.append(f"XXG {round_number} {first} {second}")
    for round_number, reason in trf.manual:
        lines.append(f"XXM {round_number} {' '.join(visible(reason, lines=True).split())}".rstrip())
    return "\n".join(lines) + "\n"


INVERSE = {"1": "0", "0": "1", "=": "=", "+": "-", "-": "+", "W": "L", "L": "W", "D": "D"}


def with_round(trf: Trf, pairs: list[tuple[int, int]], results: dict[int, str]) -> Trf:
    """``trf`` with one more round: ``pairs`` (first, second; second 0 for the pairing bye)
    and ``results[first]`` the first player's result code (``1 = 0 + -``; the second gets the
    inverse). Players in no pair keep a next-round cell they already have (a bye asked for)
    or get ``0000 - Z``. Raises ``ValueError`` for a result code that is not a game's."""
    cells: dict[int, RoundCell] = {}
    for first, second in pairs:
        if second == 0:
            cells[first] = RoundCell(0, "-", "U")
            continue
        result = results[first]
        if result not in INVERSE:
            raise ValueError(f"resultado «{result}» desconocido")
        cells[first] = RoundCell(second, "w", result)
        cells[second] = RoundCell(first, "b", INVERSE[result])
    number = trf.rounds_played
    players = []
    for player in trf.players:
        rounds = player.rounds[:number]
        if player.number in cells:
            rounds += (cells[player.number],)
        elif len(player.rounds) > number:
            rounds += (player.rounds[number],)
        else:
            rounds += (RoundCell(0, "-", "Z"),)
        players.append(replace(player, rounds=rounds))
    return replace(trf, players=tuple(players), absent=frozenset())
