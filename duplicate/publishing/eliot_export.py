"""A played game written as an Eliot saved game (XML, ``EliotGame`` format 2, mode
``arbitration``; issues 27 §3 and 35 §3), the inverse of ``duplicate.prepared.eliot_xml``
(which reads one back as a prepared game) — and a file real Eliot loads.

Only what the file holds is followed (``../shared/docs/eliot-xml.md``); nothing of Eliot's
code is here. Eliot's reader replays the file as commands on a real board and refuses it
at the first thing that does not hold, so the file is written for that replay. The
document is built with the standard ``xml.etree.ElementTree`` (text and attributes
escaped by it) and is UTF-8.

Our mapping (``docs/prepared-games.md``, «Eliot XML»):

* ``Dictionary``: left out unless the user names their Eliot dictionary (``--eliot-dictionary``,
  ``duplicate.publishing.eliot_dictionary``): Eliot refuses a file whose letters or word count
  differ from the dictionary it has loaded, and only that file knows them;
* each ``Turn``, in this order: ``GameRack`` (``LEFT+NEW``: the tiles kept first, III.17;
  after a III.19 redraw the rack sent back, then the new rack with a leading ``-``: its
  tiles were drawn after the others went back, as Eliot writes one), a ``PlayerRack
  playerId`` per player (the same rack: Eliot needs it before a player's move), the
  ``MasterMove``, a ``PlayerMove`` per player, the bonuses (III.24) as ``Solo``, and the
  ``GameMove`` (the master placed on the board, which the next turn's moves build on);
* tiles: each tile by its display string, no brackets — a digraph tile is ``CH``, ``LL``,
  ``RR``; ``Ñ`` one letter; a rack's blank ``?``; in a ``word`` a blank is its letter in
  lower case (``ch`` for a blank as CH). Eliot reads ``LL`` as the LL tile whatever was
  meant, so a rack is written in an order where no two separate tiles join into a digraph
  (``LAL``, not ``LLA``, for two L tiles and an A); where no order can (a word, or a part of
  a rack made only of such tiles) the export says so in its warnings;
* ``coord``: ``H8`` across, ``8H`` down (FISE canonical order, III.20.1.a). Eliot refuses
  any vertical move on the empty board, so a game whose first master is vertical is written
  **transposed** (every coordinate's row and column swapped, in every turn: the board is
  symmetric about that diagonal, no score changes), and a player's valid first move that
  would still be vertical is written as its mirror image across that diagonal: the same
  tiles and the same points on the empty board, but not at the same place relative to the
  master — Eliot cannot hold the move as it was played; the export warns;
* ``PlayerMove``: a ``valid`` slip gives ``type="valid"`` with its move; a slip judged wrong
  (syntax, off board, misplaced, not connected, not in rack, unmarked blank, invalid word:
  III.23, III.25) gives ``type="invalid"`` with the text as typed split at its first
  hyphen into ``coord`` and ``word``; a slip handed in late, null or missing (III.13,
  III.20, III.25.b) gives ``type="none"``; ``points`` is what the slip scored.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from xml.etree.ElementTree import Element, SubElement, tostring

from duplicate.publishing.eliot_dictionary import EliotDictionary
from duplicate.publishing.result_values import GameResults, MasterLine, PlayerInfo, SheetLine
from duplicate.publishing.results import collect_results
from duplicate.rules.notation import SlipError, parse_move
from duplicate.rules.rack import RackError, parse_rack_text
from duplicate.rules.slips import SlipStatus
from duplicate.service.errors import NotFound, StateConflict
from duplicate.service.facade import TournamentService
from duplicate.service.views import RoundView
from duplicate.texts import visible
from lexicon.alphabet import Alphabet, AlphabetError
from lexicon.board import ROW_NAMES, SIZE, Direction
from lexicon.move import Move

__all__ = ["NO_MOVE_STATUSES", "EliotExport", "eliot_document", "eliot_game", "eliot_tiles", "eliot_word",
           "transposed"]

NO_MOVE_STATUSES = frozenset({SlipStatus.LATE.value, SlipStatus.NULL.value, SlipStatus.MISSING.value})
"""Slip statuses written as ``PlayerMove type="none"``: no move reached the judge (III.25.b)."""

RACK_ORDERS_LIMIT = 5_000
"""Arrangements of one part of a rack tried at most to keep digraph strings apart."""


@dataclass(frozen=True)
class EliotExport:
    """An Eliot saved game: ``data`` (UTF-8 XML bytes), ``warnings`` (Spanish, one line each:
    what Eliot cannot hold as it was played), ``transposed`` (written with rows and columns
    swapped: the first master is vertical)."""

    data: bytes
    warnings: tuple[str, ...]
    transposed: bool


def _reads_back(text: str, tiles: Sequence[int], alphabet: Alphabet) -> bool:
    """Whether Eliot reads ``text`` as ``tiles``: it turns each display string into its tile
    left to right, digraphs first, case kept (``LL`` the LL tile, ``ll`` a blank as LL,
    ``lL`` two tiles) — the way ``Alphabet.tokenize`` reads text without brackets."""
    try:
        return alphabet.tokenize(text, allow_unknown_blank=True) == list(tiles)
    except AlphabetError:
        return False


def eliot_word(tiles: Sequence[int], alphabet: Alphabet) -> tuple[str, bool]:
    """``(text, exact)``: ``tiles`` (a word's codes, blanks flagged) as Eliot writes them —
    display strings, blanks in lower case, no brackets — and whether Eliot reads that text
    back as the same tiles (False for two separate tiles that join into a digraph: L then
    L reads as the LL tile)."""
    text = "".join(alphabet.symbol(tile) for tile in tiles)
    return text, _reads_back(text, tiles, alphabet)


def _arrangement(tiles: list[int], alphabet: Alphabet) -> list[int] | None:
    """An order of ``tiles`` whose text Eliot reads back tile for tile, keeping the given
    order when it already does; None when none does (at most ``RACK_ORDERS_LIMIT`` tries)."""
    if _reads_back(eliot_word(tiles, alphabet)[0], tiles, alphabet):
        return tiles
    tries = 0

    def extend(done: list[int], left: list[int]) -> list[int] | None:
        nonlocal tries
        if not left:
            return done if _reads_back(eliot_word(done, alphabet)[0], done, alphabet) else None
        for tile in dict.fromkeys(left):
            tries += 1
            if tries > RACK_ORDERS_LIMIT:
                return None
            if done and not _reads_back(eliot_word([done[-1], tile], alphabet)[0], [done[-1], tile], alphabet):
                continue
            rest = list(left)
            rest.remove(tile)
            found = extend([*done, tile], rest)
            if found is not None:
                return found
        return None

    return extend([], sorted(tiles))


def eliot_tiles(tiles: Sequence[int], alphabet: Alphabet) -> tuple[str, bool]:
    """``(text, exact)``: rack tiles as Eliot writes a rack (display strings, a blank ``?``),
    reordered if need be so that Eliot reads back the same tiles (two L tiles are ``LAL``,
    never ``LLA``); ``exact`` is False when no order does (two L tiles alone)."""
    order = _arrangement(list(tiles), alphabet)
    if order is None:
        return eliot_word(tiles, alphabet)[0], False
    return eliot_word(order, alphabet)[0], True


def transposed(move: Move) -> Move:
    """``move`` mirrored across the board's diagonal A1–O15: row and column swapped, across
    ↔ down (``H4`` across is ``4H`` down). The premium squares are symmetric about it, so on
    the same (mirrored) board it scores the same."""
    other = Direction.DOWN if move.direction is Direction.ACROSS else Direction.ACROSS
    return Move(move.col, move.row, other, move.word)


_COORDINATE = re.compile(r"^(?:([A-Oa-o])(\d{1,2})|(\d{1,2})([A-Oa-o]))$")


def _transposed_coordinate(text: str) -> str:
    """A coordinate as typed on a slip judged wrong, mirrored as ``transposed`` mirrors a
    move (row and column swapped: ``D5``, row D column 5 across, is ``4E``, column 4 row E
    down); text that is not a coordinate on the board is kept as typed."""
    found = _COORDINATE.match(text.strip())
    if found is None:
        return text
    letter, number = (found.group(1), found.group(2)) if found.group(1) else (found.group(4), found.group(3))
    row, col = ROW_NAMES.index(letter.upper()), int(number) - 1
    if not 0 <= col < SIZE:
        return text
    return f"{row + 1}{ROW_NAMES[col]}" if found.group(1) else f"{ROW_NAMES[col]}{row + 1}"


def _shown_tiles(text: str, alphabet: Alphabet) -> list[int]:
    """Tiles of a rack as people read it (``Alphabet.display``: digraph tiles in brackets,
    ``LL`` two L tiles). Raises ``RackError``."""
    tiles: list[int] = []
    for token in re.findall(r"\[[^\]]*\]|\S", text.replace("+", " ")):
        try:
            tiles.extend(alphabet.tokenize(token, allow_unknown_blank=True))
        except AlphabetError as error:
            raise RackError(f"atril «{text}»: {error}") from None
    return tiles


def _solo_points(game: GameResults, player: PlayerInfo, index: int) -> int:
    """The bonus (III.24) written as ``Solo`` for ``player`` in the game's turn ``index``."""
    sheet = game.sheets.get(player.entry_id, ())
    return sheet[index].bonus if index < len(sheet) else 0


class _Writer:
    """One document being written: the alphabet, the transposition, the warnings."""

    def __init__(self, alphabet: Alphabet, transpose: bool) -> None:
        self.alphabet = alphabet
        self.transpose = transpose
        self.warnings: list[str] = []

    def move(self, coordinate: str, word: str) -> Move | None:
        try:
            move = parse_move(f"{coordinate}-{word}", self.alphabet, oriented=False)
        except SlipError:
            return None
        return transposed(move) if self.transpose else move

    def valid(self, parent: Element, tag: str, move: Move, points: int, where: str, **attributes: str) -> None:
        text, exact = eliot_word(move.word, self.alphabet)
        if not exact:
            self.warnings.append(f"{where}: en {move.coordinate}-{self.alphabet.format(move.word)} hay fichas "
                                 f"sueltas que Eliot lee como una ficha doble («{text}»); Eliot no puede "
                                 "distinguirlas: no cargará esa jugada tal como se jugó.")
        SubElement(parent, tag, attributes, points=str(points), type="valid", word=text, coord=move.coordinate)

    def rack(self, tiles: list[int], left: list[int], where: str) -> str:
        """``LEFT+NEW`` (``left`` the kept tiles when ``tiles`` starts with them), each part
        in an order Eliot reads back tile for tile; when a part has no such order (two L
        tiles alone) one of its tiles is moved across the ``+`` (``L+L``: Eliot shows one
        tile as kept or drawn that was not, but reads the right tiles); failing that, warns."""
        alphabet = self.alphabet
        kept = left if left and tiles[:len(left)] == left and len(tiles) > len(left) else []
        new = tiles[len(kept):]
        splits = [(kept, new), *(([*kept[:at], *kept[at + 1:]], [kept[at], *new]) for at in range(len(kept))),
                  *(([tile], [*tiles[:at], *tiles[at + 1:]]) for at, tile in enumerate(tiles) if not kept)]
        for first, second in splits:
            parts = [eliot_tiles(part, alphabet) for part in (first, second) if part]
            if all(exact for _text, exact in parts):
                return "+".join(text for text, _exact in parts)
        text = "+".join(eliot_tiles(part, alphabet)[0] for part in (kept, new) if part)
        self.warnings.append(f"{where}: en el atril {alphabet.display(tiles)} Eliot lee «{text}» con una ficha "
                             "doble y ningún orden de las fichas lo evita: Eliot no puede distinguirlas.")
        return text


def _first_move_vertical(game: GameResults, alphabet: Alphabet) -> bool:
    if not game.masters:
        return False
    try:
        move = parse_move(f"{game.masters[0].coordinate}-{game.masters[0].word}", alphabet, oriented=False)
    except SlipError:
        return False
    return move.direction is Direction.DOWN


def _racks(writer: _Writer, turn: Element, master: MasterLine, view: RoundView | None) -> str:
    """Write the turn's ``GameRack`` elements; returns the rack played (for ``PlayerRack``)."""
    alphabet, where = writer.alphabet, f"turno {master.number}"
    try:
        if view is not None:
            final = parse_rack_text(view.rack, alphabet)
            left = parse_rack_text(view.leftover, alphabet) if view.leftover else []
            rejected = [_shown_tiles(str(redraw.get("rack", "")), alphabet) for redraw in view.redraws]
        else:
            final, left, rejected = _shown_tiles(master.rack, alphabet), [], []
    except RackError:
        SubElement(turn, "GameRack").text = master.rack
        return master.rack
    racks = [*rejected, final]
    played = writer.rack(racks[0], left, where)
    SubElement(turn, "GameRack").text = played
    for rack in racks[1:]:               # drawn after the rack before went back to the bag (III.19)
        played = writer.rack(rack, [], where)
        SubElement(turn, "GameRack").text = f"-{played}"
    return played


def _player_move(writer: _Writer, parent: Element, player_id: int, player: PlayerInfo, line: SheetLine | None,
                 first: bool) -> None:
    if line is None or line.status in NO_MOVE_STATUSES:
        SubElement(parent, "PlayerMove", playerId=str(player_id), points=str(line.points if line else 0), type="none")
        return
    where = f"turno {line.number}, {player.name}"
    move = writer.move(line.coordinate, line.word) if line.status == SlipStatus.VALID.value else None
    if move is None:
        coordinate = _transposed_coordinate(line.coordinate) if writer.transpose else line.coordinate
        SubElement(parent, "PlayerMove", playerId=str(player_id), points=str(line.points), type="invalid",
                   word=line.word.replace("[", "").replace("]", ""), coord=coordinate)
        return
    if first and move.direction is Direction.DOWN:
        mirrored = transposed(move)
        vertical = (f"traspuesta como la partida sería vertical ({move.coordinate}-{writer.alphabet.format(move.word)})"
                    if writer.transpose else "es vertical")
        writer.warnings.append(
            f"{where}: la jugada {line.coordinate}-{line.word} {vertical} con el tablero vacío, que Eliot no admite; "
            f"se escribe {mirrored.coordinate}-{writer.alphabet.format(mirrored.word)}, su simétrica respecto a la "
            f"diagonal: los mismos {line.points} puntos, pero no en el mismo sitio respecto a la maestra.")
        move = mirrored
    writer.valid(parent, "PlayerMove", move, line.points, where, playerId=str(player_id))


def eliot_document(game: GameResults, rounds: Sequence[RoundView], players: Sequence[tuple[int, PlayerInfo]],
                   alphabet: Alphabet, *, dictionary: EliotDictionary | None = None) -> EliotExport:
    """The Eliot saved game of a played game: ``game`` its published results
    (``duplicate.publishing.results``: masters, follow-up sheets), ``rounds`` the service's
    rounds with a master (racks, leftovers, redraws), ``players`` ``(table, player)`` in the
    order of their Eliot ids (0, 1, …), ``dictionary`` the user's Eliot dictionary (None:
    no ``Dictionary`` block). Mode ``arbitration``; the mapping is the module's."""
    transpose = _first_move_vertical(game, alphabet)
    writer = _Writer(alphabet, transpose)
    if transpose:
        writer.warnings.append(
            f"La primera jugada maestra ({game.masters[0].master}) es vertical y Eliot no admite una jugada vertical "
            "con el tablero vacío: la partida se escribe traspuesta (filas por columnas en todas las jugadas, "
            "H8-… ↔ 8H-…); las puntuaciones no cambian.")
    root = Element("EliotGame", format="2")
    if dictionary is not None:
        head = SubElement(root, "Dictionary")
        SubElement(head, "Name").text = dictionary.name
        SubElement(head, "Type").text = dictionary.kind
        SubElement(head, "Letters").text = " ".join(dictionary.letters)
        SubElement(head, "WordNb").text = str(dictionary.word_count)
    header = SubElement(root, "Game")
    SubElement(header, "Mode").text = "arbitration"
    for player_id, (table, player) in enumerate(players):
        element = SubElement(header, "Player", id=str(player_id))
        SubElement(element, "Name").text = visible(player.name)      # no XML holds ESC or NUL (issue 36 §5)
        SubElement(element, "Type").text = "human"
        SubElement(element, "TableNb").text = str(table)
    SubElement(header, "Turns").text = str(len(game.masters))
    history = SubElement(root, "History")
    views = {view.number: view for view in rounds}
    for index, master in enumerate(game.masters):
        turn = SubElement(history, "Turn")
        played = _racks(writer, turn, master, views.get(master.number))
        for player_id, _player in enumerate(players):
            SubElement(turn, "PlayerRack", playerId=str(player_id)).text = played
        move = writer.move(master.coordinate, master.word)
        where = f"turno {master.number}, jugada maestra"
        if move is not None:
            writer.valid(turn, "MasterMove", move, master.score, where)
        for player_id, (_table, player) in enumerate(players):
            sheet = game.sheets.get(player.entry_id, ())
            _player_move(writer, turn, player_id, player, sheet[index] if index < len(sheet) else None, index == 0)
        for player_id, (_table, player) in enumerate(players):
            if bonus := _solo_points(game, player, index):
                SubElement(turn, "Solo", playerId=str(player_id), points=str(bonus))
        if move is not None:
            writer.valid(turn, "GameMove", move, master.score, where)
    data = b'<?xml version="1.0" encoding="UTF-8"?>\n' + tostring(root, encoding="unicode").encode("utf-8")
    return EliotExport(data, tuple(dict.fromkeys(writer.warnings)), transpose)


def eliot_game(service: TournamentService, number: int, tournament_id: int | None = None, *,
               dictionary: EliotDictionary | None = None) -> EliotExport:
    """The Eliot saved game (``eliot_document``) of game ``number`` of a tournament (None:
    the newest), players in table order; ``dictionary`` the user's Eliot dictionary (its
    header, ``duplicate.publishing.eliot_dictionary``). Raises ``NotFound`` for an unknown
    game and ``StateConflict`` for a game without any master move yet."""
    info = service.tournament(tournament_id)
    if number not in {item.number for item in info.games}:
        raise NotFound(f"el torneo «{info.name}» no tiene partida {number}", what="partida", key=number)
    results = collect_results(service, info.id, [number])
    game = results.games[0]
    if not game.masters:
        raise StateConflict(f"la partida {number} no tiene ninguna jugada maestra: no hay nada que exportar",
                            what=f"partida {number}", state="empty")
    rounds = [view for view in service.rounds(number, info.id) if view.master is not None]
    players = sorted(((game.tables.get(line.player.entry_id, 0), line.player) for line in game.standings),
                     key=lambda item: (item[0], item[1].name))
    lexicon = service.lexicon_for(info)
    return eliot_document(game, rounds, players, lexicon.alphabet, dictionary=dictionary)
