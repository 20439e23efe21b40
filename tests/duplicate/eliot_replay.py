"""A checker for the tests: an Eliot saved game replayed the way Eliot 2.x's reader replays
it (``../shared/docs/eliot-xml.md``; issue 35 §3), refusing it at the first thing real Eliot
would refuse, and returning what it read.

What it holds the file to, as Eliot does:

* root ``EliotGame format="2"``; a ``Dictionary`` block only when the test gives the user's
  dictionary (then ``Letters`` without spaces and ``WordNb`` must be that dictionary's);
* ``Game``: ``Mode`` first, players with unique ids;
* each ``Turn`` replayed command by command on a real board: every text read as Eliot reads
  it (display strings turned into tiles left to right, digraphs first, case kept: ``LL`` is
  the LL tile — ``Alphabet.tokenize`` on text without brackets; a bracket is not a letter);
  a ``PlayerRack`` for a player before that player's ``valid`` ``PlayerMove``; every valid
  move (``MasterMove``, ``PlayerMove``, ``GameMove``) must fit the board as replayed so far,
  connect, be words of the lexicon, come from its rack, and, on the empty board, be
  horizontal and cover H8; a valid move's ``points`` must be what it scores there (Eliot
  scores it itself); one ``GameMove`` per turn, after the players' moves, the turn's last
  ``MasterMove``; it is placed on the board.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from defusedxml.ElementTree import fromstring

from duplicate.rules.notation import SlipError, check_move
from lexicon.alphabet import AlphabetError
from lexicon.board import Board, Direction
from lexicon.lexicon import Lexicon


class EliotRefuses(AssertionError):
    """What real Eliot would refuse the file for (the turn and the command)."""


@dataclass
class ReplayedTurn:
    """One turn as replayed: ``racks`` every ``GameRack`` as tiles (``-`` ones flagged),
    ``master`` the ``GameMove`` placed ``(coord, word, points)``, ``moves`` each player's
    ``PlayerMove`` attributes, ``player_racks`` each ``PlayerRack`` as tiles."""

    racks: list[tuple[bool, list[int]]] = field(default_factory=list)
    master: tuple[str, str, int] | None = None
    moves: dict[str, dict[str, str]] = field(default_factory=dict)
    player_racks: dict[str, list[int]] = field(default_factory=dict)


def _tiles(text: str, lexicon: Lexicon, where: str) -> list[int]:
    if "[" in text or "]" in text:
        raise EliotRefuses(f"{where}: «{text}» lleva corchetes, que no son letras del diccionario")
    try:
        return lexicon.alphabet.tokenize(text, allow_unknown_blank=True)
    except AlphabetError as error:
        raise EliotRefuses(f"{where}: «{text}» no se lee: {error}") from None


def _rack(text: str, lexicon: Lexicon, where: str) -> tuple[bool, list[int]]:
    rejected = text.startswith("-")
    body = text.removeprefix("-")
    if body.count("+") > 1:
        raise EliotRefuses(f"{where}: atril «{text}» con más de un «+»")
    return rejected, [tile for part in body.split("+") for tile in _tiles(part, lexicon, where)]


def _valid(board: Board, rack: list[int], attributes: dict[str, str], lexicon: Lexicon, where: str) -> None:
    coord, word, points = attributes.get("coord", ""), attributes.get("word", ""), attributes.get("points", "")
    _tiles(word, lexicon, where)
    try:
        placement = check_move(board, rack, f"{coord}-{word}", lexicon, oriented=False)
    except SlipError as error:
        raise EliotRefuses(f"{where}: Invalid move marked as valid: {word} ({coord}): {error}") from None
    if board.is_empty() and placement.move.direction is Direction.DOWN:
        raise EliotRefuses(f"{where}: {coord}-{word} es vertical con el tablero vacío")
    if str(placement.score) != points:
        raise EliotRefuses(f"{where}: {coord}-{word} dice {points} puntos y en el tablero vale {placement.score}")


def replay_eliot(data: bytes, lexicon: Lexicon, *, letters: str | None = None,
                 word_count: int | None = None) -> list[ReplayedTurn]:
    """Replay ``data`` as Eliot's reader does (module doc) with ``lexicon`` as the user's
    dictionary (``letters``, ``word_count``: its header, when the file may name it).
    Returns the turns; raises ``EliotRefuses`` saying what Eliot would refuse."""
    root = fromstring(data, forbid_dtd=True, forbid_entities=True, forbid_external=True)
    if root.tag != "EliotGame" or root.get("format") != "2":
        raise EliotRefuses("This saved game is not compatible with the current version of Eliot.")
    dictionary = root.find("Dictionary")
    if dictionary is not None:
        if letters is None:
            raise EliotRefuses("bloque Dictionary sin que el usuario haya dado su diccionario")
        if (dictionary.findtext("Letters") or "").replace(" ", "") != letters.replace(" ", ""):
            raise EliotRefuses("The current dictionary is different from the one used in the saved game (Letters)")
        if int(dictionary.findtext("WordNb") or "-1") != word_count:
            raise EliotRefuses("The current dictionary is different from the one used in the saved game (WordNb)")
    game = root.find("Game")
    if game is None or len(game) == 0 or game[0].tag != "Mode":
        raise EliotRefuses("The 'Mode' tag should be the first one to be closed")
    players = [player.get("id", "") for player in game.findall("Player")]
    if len(set(players)) != len(players):
        raise EliotRefuses("A player ID must be unique")
    board = Board(lexicon.alphabet)
    turns: list[ReplayedTurn] = []
    for number, turn in enumerate(root.findall("History/Turn"), start=1):
        replayed = ReplayedTurn()
        game_rack: list[int] = []
        last_master: dict[str, str] | None = None
        for command in turn:
            where = f"turno {number}, {command.tag}"
            attributes = dict(command.attrib)
            player = attributes.get("playerId")
            if command.tag in ("PlayerRack", "PlayerMove", "Warning", "Penalty", "Solo", "EndGame") and (
                    player not in players):
                raise EliotRefuses(f"{where}: Invalid player ID: {player}")
            if command.tag == "GameRack":
                rejected, game_rack = _rack((command.text or "").strip(), lexicon, where)
                replayed.racks.append((rejected, game_rack))
            elif command.tag == "PlayerRack":
                replayed.player_racks[str(player)] = _rack((command.text or "").strip(), lexicon, where)[1]
            elif command.tag == "MasterMove":
                if attributes.get("type") == "valid":
                    _valid(board, game_rack, attributes, lexicon, where)
                last_master = attributes
            elif command.tag == "PlayerMove":
                if replayed.master is not None:
                    raise EliotRefuses(f"{where}: jugada de un jugador después del GameMove")
                if attributes.get("type") == "valid":
                    if str(player) not in replayed.player_racks:
                        raise EliotRefuses(f"{where}: jugada válida del jugador {player} sin su PlayerRack antes")
                    _valid(board, replayed.player_racks[str(player)], attributes, lexicon, where)
                replayed.moves[str(player)] = attributes
            elif command.tag == "GameMove":
                if replayed.master is not None:
                    raise EliotRefuses(f"{where}: dos GameMove en un turno")
                if attributes.get("type") != "valid":
                    raise EliotRefuses(f"{where}: GameMove que no es una jugada válida")
                _valid(board, game_rack, attributes, lexicon, where)
                if last_master is None or any(last_master.get(key) != attributes.get(key) for key in ("coord", "word")):
                    raise EliotRefuses(f"{where}: el GameMove no es la última MasterMove del turno")
                placement = check_move(board, game_rack, f"{attributes['coord']}-{attributes['word']}", lexicon,
                                       oriented=False)
                board.place(placement.placed)
                replayed.master = (attributes["coord"], attributes["word"], placement.score)
        if replayed.master is None:
            raise EliotRefuses(f"turno {number}: sin GameMove, la maestra no se coloca en el tablero")
        turns.append(replayed)
    return turns
