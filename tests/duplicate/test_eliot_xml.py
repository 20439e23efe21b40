"""A prepared game read from an Eliot saved game (XML, ``EliotGame`` format 2, issue 27 §1):
the same racks and masters as the game written, checked by the engine; malformed or
hostile XML (entities, a document type, deep nesting, huge files) refused in Spanish.

The Eliot files are written here, by the test, from a game the engine played, following
``../shared/docs/eliot-xml.md``: racks as ``LEFT+NEW`` with the tiles' display strings,
masters as ``coord`` and ``word``.
"""

from __future__ import annotations

import json
from pathlib import Path
from xml.etree.ElementTree import Element, SubElement, fromstring, tostring

import pytest
from click.testing import CliRunner

from duplicate.prepared.check import check_prepared
from duplicate.prepared.eliot_xml import ELIOT_FILE_LIMIT, EliotFileError, load_eliot, prepared_from_eliot
from duplicate.prepared.file import PreparedError, PreparedGame
from duplicate.prepared.generation import generate
from duplicate.rules.next_scores import next_score_groups
from duplicate.rules.notation import format_move, parse_move
from duplicate.rules.rack import parse_rack_text
from lexicon.alphabet import spanish
from lexicon.board import Board
from lexicon.move import placed_tiles
from lexicon.lexicon import Lexicon
from tui.cli.main import main


def eliot_tiles(text: str) -> str:
    """Our rack text as Eliot writes it: each tile's display string, no brackets."""
    alphabet = spanish()
    if not text:
        return ""
    return "".join("?" if tile == alphabet.blank else alphabet.symbol(tile) for tile in parse_rack_text(text, alphabet))


def eliot_xml(game: PreparedGame, *, mode: str = "arbitration", extra_rejected: bool = False) -> bytes:
    """An Eliot saved game of ``game``'s racks and masters (tiles without brackets)."""
    root = Element("EliotGame", format="2")
    dictionary = SubElement(root, "Dictionary")
    SubElement(dictionary, "Name").text = "FISE-2"
    SubElement(dictionary, "Letters").text = "A B C CH D E F G H I J L LL M N Ñ O P Q R RR S T U V X Y Z ?"
    header = SubElement(root, "Game")
    SubElement(header, "Mode").text = mode
    SubElement(header, "Turns").text = str(len(game.rounds))
    history = SubElement(root, "History")
    for round_ in game.rounds:
        turn = SubElement(history, "Turn")
        if extra_rejected:
            SubElement(turn, "GameRack").text = "-" + eliot_tiles(round_.rack)
        left, rack = eliot_tiles(round_.leftover), eliot_tiles(round_.rack)
        assert rack.startswith(left)                     # III.17: the leftover first
        SubElement(turn, "GameRack").text = f"{left}+{rack[len(left):]}" if left else rack
        coord, word = round_.master.split("-", 1)
        SubElement(turn, "MasterMove", type="valid", word=word.replace("[", "").replace("]", ""), coord=coord,
                   points=str(round_.score))
    return b'<?xml version="1.0" encoding="UTF-8"?>\n' + tostring(root, encoding="utf-8").split(b"?>", 1)[-1]


@pytest.fixture(scope="module")
def played(spanish_lexicon: Lexicon) -> PreparedGame:
    return generate(spanish_lexicon, 4, 15)


def test_an_eliot_game_becomes_the_same_prepared_game(played: PreparedGame, spanish_lexicon: Lexicon) -> None:
    made = prepared_from_eliot(eliot_xml(played), spanish_lexicon)
    assert [(r.rack, r.leftover, r.master, r.score, r.cumulative) for r in made.rounds] == [
        (r.rack, r.leftover, r.master, r.score, r.cumulative) for r in played.rounds]
    assert not any(r.drawn for r in made.rounds) and made.origin["kind"] == "eliot"
    assert check_prepared(made.to_dict(), spanish_lexicon) == []


def test_digraph_tiles_are_read_as_one_tile(played: PreparedGame, spanish_lexicon: Lexicon) -> None:
    alphabet = spanish_lexicon.alphabet
    digraphs = {alphabet.code(symbol) for symbol in ("CH", "LL", "RR")}
    assert any(digraphs & set(parse_rack_text(r.rack, alphabet)) for r in played.rounds)   # the case is exercised
    made = prepared_from_eliot(eliot_xml(played), spanish_lexicon)
    assert [r.rack for r in made.rounds] == [r.rack for r in played.rounds]


def test_rejected_racks_are_skipped(played: PreparedGame, spanish_lexicon: Lexicon) -> None:
    made = prepared_from_eliot(eliot_xml(played, extra_rejected=True), spanish_lexicon)
    assert [r.master for r in made.rounds] == [r.master for r in played.rounds]


def test_a_master_that_is_not_a_top_is_refused(played: PreparedGame, spanish_lexicon: Lexicon) -> None:
    # III.15: the first turn's master replaced by a legal move of its rack scoring less.
    alphabet = spanish_lexicon.alphabet
    lower = next_score_groups(Board(alphabet), parse_rack_text(played.rounds[0].rack, alphabet), spanish_lexicon, 1)[0]
    coord, word = format_move(lower.move, alphabet).split("-", 1)
    root = fromstring(eliot_xml(played))
    master = root.find("History/Turn/MasterMove")
    assert master is not None
    master.set("coord", coord)
    master.set("word", eliot_tiles(word))
    with pytest.raises(PreparedError) as caught:
        prepared_from_eliot(tostring(root, encoding="utf-8"), spanish_lexicon)
    assert not isinstance(caught.value, EliotFileError) and "turno 1" in str(caught.value)
    assert "máxima puntuación" in str(caught.value)


@pytest.mark.parametrize("data, words", [
    (b"", "XML"),
    (b"<EliotGame format='2'><Game>", "XML"),
    (b"<Other/>", "EliotGame"),
    (b"<EliotGame format='1'/>", "EliotGame"),
    (b"<EliotGame format='2'><Game><Mode>freegame</Mode></Game></EliotGame>", "freegame"),
    (b"<EliotGame format='2'><Game><Mode>duplicate</Mode></Game><History/></EliotGame>", "ningún turno"),
    (b'<?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;">]><EliotGame format="2">&b;'
     b"</EliotGame>", "rechazado"),
    (b'<?xml version="1.0"?><!DOCTYPE x SYSTEM "file:///etc/passwd"><EliotGame format="2"/>', "rechazado"),
    (b"<a>" * 50_000 + b"</a>" * 50_000, "EliotGame"),
    (b"<EliotGame format='2' x='" + b"y" * 1_000_000 + b"'><Game><Mode>duplicate</Mode></Game></EliotGame>",
     "ningún turno"),
])
def test_malformed_or_hostile_xml_is_refused_in_spanish(data: bytes, words: str, spanish_lexicon: Lexicon) -> None:
    with pytest.raises(EliotFileError) as caught:
        prepared_from_eliot(data, spanish_lexicon)
    assert words in str(caught.value)


def test_a_huge_file_is_not_read(tmp_path: Path, spanish_lexicon: Lexicon) -> None:
    path = tmp_path / "enorme.xml"
    path.write_bytes(b" " * (ELIOT_FILE_LIMIT + 1))
    with pytest.raises(EliotFileError) as caught:
        load_eliot(path, spanish_lexicon)
    assert "enorme.xml" in str(caught.value)


def test_prepared_create_from_eliot(played: PreparedGame, tmp_path: Path) -> None:
    source, out = tmp_path / "partida.xml", tmp_path / "maestra.json"
    source.write_bytes(eliot_xml(played))
    runner = CliRunner()
    result = runner.invoke(main, ["prepared", "create", "-o", str(out), "--from-eliot", str(source)])
    assert result.exit_code == 0, result.output
    assert [r["master"] for r in json.loads(out.read_text(encoding="utf-8"))["rounds"]] == [
        r.master for r in played.rounds]
    assert "correcta" in runner.invoke(main, ["prepared", "check", str(out)]).output
    source.write_bytes(b"<EliotGame")
    result = runner.invoke(main, ["prepared", "create", "-o", str(out), "--from-eliot", str(source)])
    assert result.exit_code == 1 and "XML" in result.output and "Traceback" not in result.output


def eliot_shaped_xml(game: PreparedGame, lexicon: Lexicon, *, redraw_turn: int = 3) -> bytes:
    """``game`` as Eliot 2.x writes an arbitration game (issue 35 §3): each turn starts with
    the players' racks and a ``MasterMove type="none"``, then the ``GameRack``, the players'
    racks again, their moves, the master set twice (first a lower move, then the master:
    the last one counts), a ``Solo``, a ``Warning``, a ``Penalty`` and the ``GameMove``; turn
    ``redraw_turn``'s first rack is rejected and the rack played follows with a leading
    ``-``; the last turn has a rack and no master; ``Statistics`` close the file."""
    alphabet = lexicon.alphabet
    root = Element("EliotGame", format="2")
    header = SubElement(root, "Game")
    SubElement(header, "Mode").text = "arbitration"
    for player_id in range(2):
        player = SubElement(header, "Player", id=str(player_id))
        SubElement(player, "Name").text = f"Jugador {player_id}"
        SubElement(player, "Type").text = "human"
    SubElement(header, "Turns").text = str(len(game.rounds) + 1)
    history = SubElement(root, "History")
    board = Board(alphabet)
    for round_ in game.rounds:
        turn = SubElement(history, "Turn")
        for player_id in range(2):
            SubElement(turn, "PlayerRack", playerId=str(player_id)).text = eliot_tiles(round_.leftover)
        SubElement(turn, "MasterMove", points="0", type="none")
        rack_tiles = parse_rack_text(round_.rack, alphabet)
        left, rack = eliot_tiles(round_.leftover), eliot_tiles(round_.rack)
        written = f"{left}+{rack[len(left):]}" if left else rack
        if round_.number == redraw_turn:
            SubElement(turn, "GameRack").text = f"{left}+ÑÑ" if left else "ÑÑ"     # sent back (III.19)
            written = f"-{rack}"
        SubElement(turn, "GameRack").text = written
        for player_id in range(2):
            SubElement(turn, "PlayerRack", playerId=str(player_id)).text = written.removeprefix("-")
        coord, word = round_.master.split("-", 1)
        plain = word.replace("[", "").replace("]", "")
        SubElement(turn, "PlayerMove", playerId="0", points=str(round_.score), type="valid", word=plain, coord=coord)
        SubElement(turn, "PlayerMove", playerId="1", points="0", type="invalid", word="XYZ", coord="A1")
        lower = next_score_groups(board, rack_tiles, lexicon, 1)
        if lower:
            low_coord, low_word = format_move(lower[0].move, alphabet).split("-", 1)
            SubElement(turn, "MasterMove", points=str(lower[0].score), type="valid",
                       word=low_word.replace("[", "").replace("]", ""), coord=low_coord)
        SubElement(turn, "MasterMove", points=str(round_.score), type="valid", word=plain, coord=coord)
        SubElement(turn, "Solo", playerId="0", points="10")
        SubElement(turn, "Warning", playerId="1")
        SubElement(turn, "Penalty", playerId="1", points="-5")
        SubElement(turn, "GameMove", points=str(round_.score), type="valid", word=plain, coord=coord)
        board.place(placed_tiles(board, parse_move(round_.master, alphabet, oriented=False)))
    last = SubElement(history, "Turn")
    SubElement(last, "MasterMove", points="0", type="none")
    SubElement(last, "GameRack").text = "A"                # the bag's last tile: nothing played
    SubElement(last, "EndGame", playerId="0", points="0")
    statistics = SubElement(root, "Statistics")
    SubElement(statistics, "GameStats", totalScore=str(sum(r.score for r in game.rounds)))
    SubElement(statistics, "PlayerStats", playerId="0", rawScore="0", totalScore="0", rank="1")
    return b'<?xml version="1.0" encoding="UTF-8"?>\n' + tostring(root, encoding="utf-8").split(b"?>", 1)[-1]


def test_an_eliot_shaped_file_imports_whole(played: PreparedGame, spanish_lexicon: Lexicon) -> None:
    # Issue 35 §3: several MasterMove (a «none» first, the last is the master), a «-» rack
    # (the rack played after a III.19 redraw), PlayerRack, Solo, Warning, Penalty, EndGame
    # and Statistics: every turn is read, none dropped.
    assert played.rounds[2].leftover                     # the redraw sends a leftover back
    made = prepared_from_eliot(eliot_shaped_xml(played, spanish_lexicon), spanish_lexicon)
    assert len(made.rounds) == len(played.rounds)
    assert [(r.master, r.score) for r in made.rounds] == [(r.master, r.score) for r in played.rounds]
    alphabet = spanish_lexicon.alphabet
    assert [sorted(parse_rack_text(r.rack, alphabet)) for r in made.rounds] == [
        sorted(parse_rack_text(r.rack, alphabet)) for r in played.rounds]
    assert made.rounds[2].leftover == ""                # the leftover went back to the bag (III.19)
    assert [r.leftover for r in made.rounds[3:]] == [r.leftover for r in played.rounds[3:]]


def test_a_rack_with_a_leading_minus_is_the_rack_played(played: PreparedGame, spanish_lexicon: Lexicon) -> None:
    # Issue 35 §3: a turn whose only rack is «-RACK» (drawn after the tiles went back)
    # is played, not taken for the end of the game.
    root = fromstring(eliot_xml(played))
    rack = root.findall("History/Turn")[2].find("GameRack")
    assert rack is not None
    rack.text = "-" + (rack.text or "").replace("+", "")
    made = prepared_from_eliot(tostring(root, encoding="utf-8"), spanish_lexicon)
    assert [r.master for r in made.rounds] == [r.master for r in played.rounds]
    assert made.rounds[2].leftover == "" and played.rounds[2].leftover
