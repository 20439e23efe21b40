"""A played game written as an Eliot saved game (XML, ``EliotGame`` format 2, mode
``arbitration``; issue 27 §3), the inverse of ``duplicate.prepared.eliot_xml`` (which reads one back
as a prepared game).

Only what the file holds is followed (``../shared/docs/eliot-xml.md``); nothing of Eliot's
code is here. The document is built with the standard ``xml.etree.ElementTree`` (text and
attributes escaped by it) and is UTF-8.

Our mapping (``docs/prepared-games.md``, «Eliot XML»):

* tiles: each tile by its display string, no brackets — a digraph tile is ``CH``, ``LL``,
  ``RR`` (two L tiles are also written ``LL``: a reader tries both readings, as ours does);
  ``Ñ`` is one letter; a rack's blank is ``?``; in a ``word`` a blank is its letter in
  lower case (``ch`` for a blank as CH);
* ``GameRack``: ``LEFT+NEW`` (the tiles kept first, III.17; only ``NEW`` without a
  leftover); each rack sent back (III.19) is written before, with a leading ``-``;
* ``MasterMove type="valid"``: ``coord`` (``H8`` across, ``8H`` down: FISE canonical
  order, III.20.1.a), ``word``, ``points``;
* ``PlayerMove playerId``: a ``valid`` slip gives ``type="valid"`` with its move; a slip
  judged wrong (syntax, off board, misplaced, not connected, not in rack, unmarked blank,
  invalid word: III.23, III.25) gives ``type="invalid"`` with the text as typed split at
  its first hyphen into ``coord`` and ``word``; a slip handed in late, null or missing
  (III.13, III.20, III.25.b) gives ``type="none"``; ``points`` is what the slip scored;
* bonuses (III.24) go in ``Solo playerId points`` after the player moves of the round.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from xml.etree.ElementTree import Element, SubElement, tostring

from duplicate.publishing.result_values import GameResults, PlayerInfo, SheetLine
from duplicate.publishing.results import collect_results
from duplicate.rules.rack import RackError, parse_rack_text
from duplicate.rules.slips import SlipStatus
from duplicate.service.errors import NotFound, StateConflict
from duplicate.service.facade import TournamentService
from duplicate.service.views import RoundView
from lexicon.alphabet import Alphabet

__all__ = ["NO_MOVE_STATUSES", "eliot_document", "eliot_game", "eliot_tiles", "eliot_word"]

NO_MOVE_STATUSES = frozenset({SlipStatus.LATE.value, SlipStatus.NULL.value, SlipStatus.MISSING.value})
"""Slip statuses written as ``PlayerMove type="none"``: no move reached the judge (III.25.b)."""


def eliot_tiles(text: str, alphabet: Alphabet) -> str:
    """Our stored rack text (``rack_text``) as Eliot writes a rack: each tile's display
    string, a bare blank ``?``. A text that does not read as tiles is written as it is,
    without brackets."""
    if not text:
        return ""
    try:
        return "".join(alphabet.symbol(tile) for tile in parse_rack_text(text, alphabet))
    except RackError:
        return text.replace("[", "").replace("]", "")


def eliot_word(word: str) -> str:
    """A word of our canonical notation (``[C]H``-style brackets allowed) as Eliot writes
    it: display strings, blanks in lower case, no brackets."""
    return word.replace("[", "").replace("]", "")


@dataclass(frozen=True)
class _Turn:
    rack: str
    leftover: str
    redraws: tuple[str, ...]


def _turn(view: RoundView, alphabet: Alphabet) -> _Turn:
    rack = eliot_tiles(view.rack, alphabet)
    left = eliot_tiles(view.leftover, alphabet) if view.leftover else ""
    return _Turn(rack, left if rack.startswith(left) else "",
                 tuple(eliot_tiles(str(redraw.get("rack", "")), alphabet) for redraw in view.redraws))


def _player_move(parent: Element, player_id: int, line: SheetLine | None) -> None:
    if line is None or line.status in NO_MOVE_STATUSES:
        SubElement(parent, "PlayerMove", playerId=str(player_id), points=str(line.points if line else 0), type="none")
        return
    kind = "valid" if line.status == SlipStatus.VALID.value else "invalid"
    SubElement(parent, "PlayerMove", playerId=str(player_id), points=str(line.points), type=kind,
               word=eliot_word(line.word), coord=line.coordinate)


def eliot_document(game: GameResults, rounds: Sequence[RoundView], players: Sequence[tuple[int, PlayerInfo]],
                   alphabet: Alphabet, *, dictionary: str = "", word_count: int = 0) -> bytes:
    """The Eliot saved game (UTF-8 bytes with the XML declaration) of a played game:
    ``game`` its published results (``duplicate.publishing.results``: masters, follow-up sheets),
    ``rounds`` the service's rounds with a master (racks, leftovers, redraws), ``players``
    ``(table, player)`` in the order of their Eliot ids (0, 1, …), ``dictionary`` and
    ``word_count`` informational. Mode ``arbitration``; the mapping is the module's."""
    root = Element("EliotGame", format="2")
    head = SubElement(root, "Dictionary")
    SubElement(head, "Name").text = dictionary or alphabet.name
    SubElement(head, "Type").text = "dawg"
    SubElement(head, "Letters").text = " ".join([*(letter.symbol for letter in alphabet.letters), "?"])
    SubElement(head, "WordNb").text = str(word_count)
    header = SubElement(root, "Game")
    SubElement(header, "Mode").text = "arbitration"
    for player_id, (table, player) in enumerate(players):
        element = SubElement(header, "Player", id=str(player_id))
        SubElement(element, "Name").text = player.name
        SubElement(element, "Type").text = "human"
        SubElement(element, "TableNb").text = str(table)
    SubElement(header, "Turns").text = str(len(game.masters))
    history = SubElement(root, "History")
    views = {view.number: view for view in rounds}
    for index, master in enumerate(game.masters):
        turn = SubElement(history, "Turn")
        view = views.get(master.number)
        shape = _turn(view, alphabet) if view is not None else _Turn(eliot_tiles(master.rack, alphabet), "", ())
        for rejected in shape.redraws:
            SubElement(turn, "GameRack").text = f"-{rejected}"
        left = shape.leftover
        SubElement(turn, "GameRack").text = f"{left}+{shape.rack[len(left):]}" if left else shape.rack
        SubElement(turn, "MasterMove", points=str(master.score), type="valid", word=eliot_word(master.word),
                   coord=master.coordinate)
        for player_id, (_table, player) in enumerate(players):
            sheet = game.sheets.get(player.entry_id, ())
            _player_move(turn, player_id, sheet[index] if index < len(sheet) else None)
        for player_id, (_table, player) in enumerate(players):
            sheet = game.sheets.get(player.entry_id, ())
            if index < len(sheet) and sheet[index].bonus:
                SubElement(turn, "Solo", playerId=str(player_id), points=str(sheet[index].bonus))
    return b'<?xml version="1.0" encoding="UTF-8"?>\n' + tostring(root, encoding="unicode").encode("utf-8")



def eliot_game(service: TournamentService, number: int, tournament_id: int | None = None) -> bytes:
    """The Eliot saved game (``eliot_document``) of game ``number`` of a tournament (None:
    the newest), players in table order. Raises ``NotFound`` for an unknown game and
    ``StateConflict`` for a game without any master move yet."""
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
    return eliot_document(game, rounds, players, lexicon.alphabet, word_count=lexicon.word_count)
