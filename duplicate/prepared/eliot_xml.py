"""Eliot's saved games (XML, ``EliotGame`` format 2, duplicate or arbitration mode) read as
prepared games (issue 27 §1; III.15, «duplicada maestra»): each turn's rack and master.

Eliot is a GPL program; nothing of its code is here, only what its file holds, as
``../shared/docs/eliot-xml.md`` describes it. The file is parsed with ``defusedxml``: a
document type, an entity, an external reference is refused, as is a file over
``ELIOT_FILE_LIMIT`` bytes, with a Spanish message (``EliotFileError``).

Our mapping: a ``GameRack`` is ``leftover+new`` tiles written with the tile set's display
strings (a digraph tile CH, LL, RR is one string, read longest first as our tile text
does; ``?`` a blank); a leading ``-`` marks a rack drawn after the one before it went back
to the bag (a III.19 redraw: the leftover went back too); the rack played is the turn's
**last** ``GameRack``, with or without it. The turn's **last** ``MasterMove`` is its
master (Eliot writes a ``type="none"`` one when the turn starts); ``PlayerRack``,
``PlayerMove``, ``Solo``, ``Warning``, ``Penalty``, ``EndGame`` and ``Statistics`` are
ignored (they do not change racks or masters). The master (``type="valid"``) gives
``coord`` (``H8`` across, ``8H`` down: the FISE canonical order) and ``word`` (blanks in
lower case), read as ``COORD-WORD``. Eliot keeps no seed: every rack becomes a judge's rack
(``drawn: false``) taken from the bag's tiles, and the engine checks every rack and master
as for any prepared game (``duplicate.prepared.rounds.apply_rack`` / ``apply_master``): a master
that is not a top of its rack with our lexicon is refused.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any
from xml.etree.ElementTree import Element, ParseError

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import fromstring

from duplicate.input_files import InputFileError, read_bytes
from duplicate.prepared.file import PreparedError, PreparedGame, PreparedRound
from duplicate.prepared.rounds import apply_rack
from duplicate.rules.game import Game
from duplicate.rules.game_record import EndCode, GameError
from duplicate.rules.notation import SlipError, parse_move
from duplicate.rules.rack import RackError, parse_rack_text, rack_text

if TYPE_CHECKING:   # the compiled lexicon loads numpy: annotations only (issue 38)
    from lexicon.lexicon import Lexicon

__all__ = ["ELIOT_FILE_LIMIT", "EliotFileError", "load_eliot", "prepared_from_eliot"]

ELIOT_FILE_LIMIT = 5_000_000
"""Bytes an Eliot file may have (a whole game with a hundred players is far less)."""

_MODES = ("duplicate", "arbitration")


class EliotFileError(PreparedError):
    """An Eliot file that cannot be read as a duplicate game; the message (Spanish) says why."""


def load_eliot(path: Path, lexicon: Lexicon) -> PreparedGame:
    """The prepared game of the Eliot file at ``path`` (``prepared_from_eliot``); raises
    ``EliotFileError`` naming the file when it cannot be read or is not a duplicate game,
    ``PreparedError`` when a rack or master does not hold with ``lexicon``."""
    try:
        data = read_bytes(path, what="una partida de Eliot (XML)", limit=ELIOT_FILE_LIMIT)
    except InputFileError as error:
        raise EliotFileError(str(error)) from None
    try:
        return prepared_from_eliot(data, lexicon)
    except PreparedError as error:
        raise type(error)(f"{path}: {error}") from None


def _parse(data: bytes) -> Element:
    try:
        root: Element = fromstring(data, forbid_dtd=True, forbid_entities=True, forbid_external=True)
    except DefusedXmlException as error:
        raise EliotFileError(f"XML rechazado: declara un tipo de documento o entidades ({type(error).__name__}); "
                             "un archivo de Eliot no los lleva") from None
    except ParseError as error:
        raise EliotFileError(f"no es XML válido: {error}") from None
    except (ValueError, RecursionError) as error:
        raise EliotFileError(f"no es XML válido: {error}") from None
    return root


def _child_text(element: Element, name: str) -> str:
    child = element.find(name)
    return (child.text or "").strip() if child is not None else ""


def _rack(text: str) -> tuple[str, str]:
    """``(leftover, new tiles)`` of a ``GameRack`` text (``LEFT+NEW``; a leading ``-``, a rack
    drawn after the one before went back to the bag, dropped: its tiles are all new)."""
    rejected = text.startswith("-")
    left, plus, new = text.removeprefix("-").partition("+")
    if rejected:
        return "", left + new
    return (left, new) if plus else ("", left)


def _turn_shape(turn: Element) -> tuple[str, str, str, str] | None:
    """``(leftover, new tiles, coord, word)`` of an Eliot ``Turn``: its **last** ``GameRack``
    (one with a leading ``-`` was drawn after the rack before it went back: it counts) and
    its **last** ``MasterMove`` (Eliot writes one each time the master is set, a
    ``type="none"`` first), or its ``GameMove`` when it has no ``MasterMove``. The other
    commands (``PlayerRack``, ``PlayerMove``, ``Solo``, ``Warning``, ``Penalty``,
    ``EndGame``) say nothing about the racks and masters and are ignored. None when the
    turn has no rack or its master is not a valid move (the game's last turn: a rack
    drawn, nothing played)."""
    racks = [(element.text or "").strip() for element in turn.findall("GameRack")]
    masters = turn.findall("MasterMove") or turn.findall("GameMove")
    if not racks or not masters or masters[-1].get("type") != "valid":
        return None
    left, new = _rack(racks[-1])
    master = masters[-1]
    return left, new, (master.get("coord") or "").strip(), (master.get("word") or "").strip()


_DIGRAPHS = ("CH", "LL", "RR")
"""Display strings of the FISE digraph tiles: read as one tile first, as two when the rack
only holds that way (two L tiles are also written «LL»)."""

READINGS_LIMIT = 64
"""Readings of one rack text tried at most (2 per digraph string in it)."""


def _readings(text: str) -> list[str]:
    """``text`` (tiles without brackets) in our tile text, each digraph string read as one
    tile first, then as two tiles (``[L]L``), fewest splits first."""
    places = [index for index in range(len(text) - 1) if text[index:index + 2].upper() in _DIGRAPHS
              and (index == 0 or text[index - 1:index + 1].upper() not in _DIGRAPHS)]
    places = places[:6]
    readings = []
    for mask in sorted(range(2 ** len(places)), key=lambda value: bin(value).count("1")):
        split = {place for bit, place in enumerate(places) if mask >> bit & 1}
        readings.append("".join(f"[{char}]" if index in split else char for index, char in enumerate(text)))
    return readings[:READINGS_LIMIT]


def _rack_readings(engine: Game, number: int, left: str, new: str) -> list[PreparedRound]:
    """The turn's rack (``left`` kept, ``new`` drawn) as judge's racks, one per reading of
    its digraph strings that reads as tiles. Raises ``EliotFileError`` when none reads."""
    alphabet = engine.alphabet
    steps, last = [], None
    for reading_left in _readings(left) if left else [""]:
        for reading_new in _readings(new) if new else [""]:
            try:
                leftover = parse_rack_text(reading_left, alphabet) if reading_left else []
                drawn = parse_rack_text(reading_new, alphabet) if reading_new else []
            except RackError as error:
                last = error
                continue
            keeps = sorted(leftover) == sorted(engine.leftover)     # the tiles kept, in our order (III.17)
            tiles = [*engine.leftover, *drawn] if keeps else [*leftover, *drawn]
            step = PreparedRound(number, rack_text(tiles, alphabet), rack_text(engine.leftover, alphabet) if keeps
                                 else "", (), False, "", 0, 0, 1, 0, 1)
            if step not in steps:
                steps.append(step)
    if not steps:
        raise EliotFileError(f"turno {number}: el atril {left[:20]}+{new[:20]} no se lee: {last}")
    return steps


def _play_turn(engine: Game, number: int, left: str, new: str, coord: str, word: str) -> None:
    """Set the turn's rack as a judge's rack (III.12, III.17) and place its master ``coord``
    ``word`` (III.15), trying each reading of the digraph strings (two L tiles are written
    «LL» too) until the bag holds the rack and the master is one of its moves of top score.
    Raises ``EliotFileError`` when the master does not read, ``PreparedError`` or
    ``GameError`` (the last reason) when no reading holds; the engine is then unchanged."""
    masters, last_master = [], None
    for reading in _readings(word[:60]):
        try:
            masters.append(parse_move(f"{coord[:10]}-{reading}", engine.alphabet, oriented=False))
        except SlipError as error:
            last_master = error
    if not masters:
        raise EliotFileError(f"turno {number}: la jugada maestra {coord[:10]} {word[:20]} no se lee: {last_master}")
    last: PreparedError | GameError | None = None
    for step in _rack_readings(engine, number, left, new):
        try:
            apply_rack(engine, step)
        except PreparedError as error:
            last = error
            continue
        for move in masters:
            try:
                engine.play(move)
                return
            except GameError as error:
                last = error
        engine.withdraw_rack()
    assert last is not None
    raise last


def prepared_from_eliot(data: bytes, lexicon: Lexicon) -> PreparedGame:
    """The prepared game of an Eliot saved game (``data``: the file's bytes): each turn's
    rack (judge's racks, ``drawn: false``) and master, checked by the engine with
    ``lexicon``. Raises ``EliotFileError`` (Spanish) when the bytes are not a safe, well-formed
    ``EliotGame`` of format 2 in duplicate or arbitration mode with at least one master, and
    ``PreparedError`` naming the turn when a rack or master does not hold."""
    root = _parse(data)
    if root.tag != "EliotGame" or root.get("format") != "2":
        raise EliotFileError(f"se esperaba <EliotGame format=\"2\">, no <{root.tag[:40]}> "
                             f"(format {str(root.get('format'))[:10]!r})")
    game = root.find("Game")
    mode = _child_text(game, "Mode") if game is not None else ""
    if mode not in _MODES:
        raise EliotFileError(f"la partida de Eliot es de modo {mode[:20]!r}: solo se leen partidas duplicate o "
                             "arbitration (con jugada maestra)")
    history = root.find("History")
    turns = history.findall("Turn") if history is not None else []
    engine = Game(lexicon, seed=0, rounds=None)
    alphabet = lexicon.alphabet
    drawn: list[bool] = []
    for index, turn in enumerate(turns, start=1):
        shape = _turn_shape(turn)
        if shape is None:
            break                                     # the last turn, its rack drawn but not played
        left, new, coord, word = shape
        try:
            _play_turn(engine, index, left, new, coord, word)
        except (PreparedError, GameError) as error:
            raise PreparedError(f"la partida de Eliot no se puede preparar en el turno {index}: {error}") from None
        drawn.append(False)
    if not engine.records:
        raise EliotFileError("la partida de Eliot no tiene ningún turno con atril y jugada maestra")
    end: dict[str, str] | None = None
    if engine.end_reason is not None and engine.end_reason.code is not EndCode.ROUNDS_PLAYED:
        end = {"code": engine.end_reason.code.value, "text": engine.end_reason.text}
    dictionary = root.find("Dictionary")
    origin: dict[str, Any] = {"kind": "eliot", "mode": mode,
                              "dictionary": _child_text(dictionary, "Name")[:200] if dictionary is not None else ""}
    rounds = tuple(PreparedRound.of(record, flag) for record, flag in zip(engine.records, drawn, strict=True))
    return PreparedGame(alphabet.name, lexicon.content_hash, lexicon.word_count, 0, len(rounds), rounds, end,
                        origin).sealed()
