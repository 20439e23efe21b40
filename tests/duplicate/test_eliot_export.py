"""A played game exported as an Eliot saved game (``duplicada export --format eliot --game N``,
issues 27 §3 and 35 §3): a strict XML parser reads it, every turn holds the rack, the master
and each player's move as ``../shared/docs/eliot-xml.md`` describes, our own Eliot import
(the one of ``prepared create --from-eliot``) reads back the same racks and masters, and
the file replays the way real Eliot's reader replays it (``tests.duplicate.eliot_replay``):
a vertical first master, a player's first move across it, a III.19 redraw, two L tiles
next to the LL tile and a blank."""

from __future__ import annotations

import struct
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner
from defusedxml.ElementTree import fromstring

from duplicate.prepared.eliot_xml import prepared_from_eliot
from duplicate.publishing.eliot_dictionary import parse_eliot_header
from duplicate.publishing.eliot_export import NO_MOVE_STATUSES, eliot_tiles, eliot_word, transposed
from duplicate.rules.notation import format_move, parse_move
from duplicate.rules.rack import parse_rack_text
from duplicate.rules.slips import SlipStatus
from duplicate.service.facade import TournamentService
from duplicate.simulate import simulate_tournament
from duplicate.storage.database import open_database
from lexicon.lexicon import Lexicon
from tests.credentials import JUDGE_PIN
from tests.duplicate.eliot_replay import EliotRefuses, replay_eliot
from tui.cli.main import main

ENV = {"DUPLICADA_STATION": "mesa-1", "DUPLICADA_PIN": JUDGE_PIN}


def _export(database: Path, out: Path, *extra: str) -> str:
    result = CliRunner().invoke(main, ["export", "--db", str(database), "--format", "eliot", "--game", "1",
                                       *extra, str(out)], env=ENV)
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory, spanish_lexicon: Lexicon):
    """A tournament of 5 players, one game of 12 rounds, exported by the command."""
    folder = tmp_path_factory.mktemp("eliot")
    database = folder / "torneo.db"
    service = TournamentService(open_database(str(database)), station="pruebas", lexicon=spanish_lexicon,
                                pin=JUDGE_PIN)
    tournament = simulate_tournament(service, players=5, games=1, rounds=12, seed=27)
    out = folder / "partida-1.xml"
    assert "XML de Eliot" in _export(database, out)
    return service, tournament, out


@pytest.fixture(scope="module")
def crafted(tmp_path_factory: pytest.TempPathFactory, spanish_lexicon: Lexicon):
    """A game of 3 rounds and 3 players built for what Eliot cannot take as it is:
    round 1 the rack L, L, LL, A, E, O, S with the vertical master 8E-ELLAS (Ana plays it,
    Blas H8-ELLAS across, Carla an invalid word); round 2 the two L tiles kept, a blank,
    master 9G-JUZgO; round 3 the judge's redraw (III.19: the two L tiles go back)."""
    folder = tmp_path_factory.mktemp("eliot-crafted")
    database = folder / "torneo.db"
    service = TournamentService(open_database(str(database)), station="pruebas", lexicon=spanish_lexicon,
                                pin=JUDGE_PIN)
    tournament = service.create_tournament("Eliot", venue="Pruebas")
    for name in ("Ana", "Blas", "Carla"):
        service.add_player(name, tournament_id=tournament)
    number = service.create_game(tournament_id=tournament, rounds=3, seed=35)
    service.set_rack(number, "[L][L][LL]AEOS", tournament_id=tournament)
    service.choose_master(number, "8E-ELLAS", tournament_id=tournament)
    service.enter_slips(number, [(1, "8E-ELLAS"), (2, "H8-ELLAS"), (3, "H8-LLLL")], round_number=1,
                        tournament_id=tournament)
    service.close_round(number, 1, tournament_id=tournament)
    service.set_rack(number, "[L][L]O?ZUJ", tournament_id=tournament)
    service.choose_master(number, "9G-JUZgO", tournament_id=tournament)
    service.enter_slips(number, [(1, "9G-JUZgO"), (3, "9G-JUZgO")], round_number=2, tournament_id=tournament)
    service.close_round(number, 2, tournament_id=tournament)
    view = service.set_rack(number, "RSTUNAE", redraw=True, tournament_id=tournament)
    assert view.redraws                                  # the judge sent the two L tiles back (III.19)
    service.choose_master(number, 0, tournament_id=tournament)
    service.enter_slips(number, [(1, view.top_moves[0][0])], round_number=3, tournament_id=tournament)
    service.close_round(number, 3, tournament_id=tournament)
    out = folder / "partida-1.xml"
    output = _export(database, out)
    return service, tournament, out, output


def test_the_file_parses_strictly_and_holds_every_turn(exported, spanish_lexicon: Lexicon) -> None:
    service, tournament, out = exported
    root = fromstring(out.read_bytes(), forbid_dtd=True, forbid_entities=True, forbid_external=True)
    assert root.tag == "EliotGame" and root.get("format") == "2"
    assert root.findtext("Game/Mode") == "arbitration"
    players = root.findall("Game/Player")
    assert len(players) == 5
    rounds = [view for view in service.rounds(1, tournament) if view.master is not None]
    turns = root.findall("History/Turn")
    assert len(turns) == len(rounds) == 12
    slips = {(slip.round_number, slip.entry_id): slip for slip in service.slips(1, tournament_id=tournament)}
    names = {entry.id: person.name for entry, person in service.entries(tournament)}
    by_name = {player.findtext("Name"): player.get("id") for player in players}
    statuses_seen = set()
    racks = [element.text or "" for element in root.iter("GameRack")]
    assert any("?" in rack or any(pair in rack for pair in ("CH", "LL", "RR")) for rack in racks)  # mapping exercised
    alphabet = spanish_lexicon.alphabet
    for view, turn in zip(rounds, turns, strict=True):
        rack = (turn.findall("GameRack")[-1].text or "").removeprefix("-")
        assert "[" not in rack
        assert Counter(alphabet.tokenize(rack.replace("+", ""), allow_unknown_blank=True)) == Counter(
            parse_rack_text(view.rack, alphabet))
        master = turn.findall("MasterMove")[-1]
        assert master.get("type") == "valid"
        coord, word = view.master.split("-", 1)
        assert master.get("coord") == coord and master.get("word") == word.replace("[", "").replace("]", "")
        assert master.get("points") == str(view.master_score)
        moves = {move.get("playerId"): move for move in turn.findall("PlayerMove")}
        assert len(moves) == 5
        for entry, name in names.items():
            move = moves[by_name[name]]
            slip = slips.get((view.number, entry))
            status = slip.status if slip is not None else SlipStatus.MISSING.value
            statuses_seen.add(status)
            expected = ("none" if status in NO_MOVE_STATUSES else "valid" if status == SlipStatus.VALID.value
                        else "invalid")
            assert move.get("type") == expected, (view.number, name, status)
            assert move.get("points") == str(slip.score if slip is not None else 0)
            if expected == "valid":
                assert slip is not None and slip.move is not None
                assert f"{move.get('coord')}-{move.get('word')}" == slip.move.replace("[", "").replace("]", "")
    assert SlipStatus.VALID.value in statuses_seen and len(statuses_seen) > 1   # the mapping is exercised


def test_a_played_game_replays_as_eliot_reads_it(exported, spanish_lexicon: Lexicon) -> None:
    # Issue 35 §3: a GameMove per turn (the master on the board, after the players' moves),
    # a PlayerRack per player before their moves, no Dictionary block unless named.
    service, tournament, out = exported
    turns = replay_eliot(out.read_bytes(), spanish_lexicon)
    rounds = [view for view in service.rounds(1, tournament) if view.master is not None]
    assert [f"{turn.master[0]}-{turn.master[1]}" for turn in turns if turn.master] == [
        view.master.replace("[", "").replace("]", "") for view in rounds if view.master]
    assert all(len(turn.player_racks) == 5 for turn in turns)
    assert fromstring(out.read_bytes()).find("Dictionary") is None


def test_exported_game_reads_back_with_the_same_racks_and_masters(exported, spanish_lexicon: Lexicon) -> None:
    service, tournament, out = exported
    prepared = prepared_from_eliot(out.read_bytes(), spanish_lexicon)
    rounds = [view for view in service.rounds(1, tournament) if view.master is not None]
    alphabet = spanish_lexicon.alphabet
    assert len(prepared.rounds) == len(rounds)
    for step, view in zip(prepared.rounds, rounds, strict=True):
        assert sorted(parse_rack_text(step.rack, alphabet)) == sorted(parse_rack_text(view.rack, alphabet))
        assert step.master == view.master
        assert step.score == view.master_score


def test_export_of_an_unknown_game_is_refused_in_spanish(exported, tmp_path: Path) -> None:
    service, tournament, out = exported
    database = out.parent / "torneo.db"
    result = CliRunner().invoke(main, ["export", "--db", str(database), "--format", "eliot", "--game", "7",
                                       str(tmp_path / "x.xml")], env=ENV)
    assert result.exit_code != 0
    assert "no tiene partida 7" in result.output
    assert not (tmp_path / "x.xml").exists()


def _mirror(text: str, lexicon: Lexicon) -> str:
    return format_move(transposed(parse_move(text, lexicon.alphabet, oriented=False)), lexicon.alphabet)


def test_a_vertical_first_master_is_written_transposed(crafted, spanish_lexicon: Lexicon) -> None:
    service, tournament, out, output = crafted
    turns = replay_eliot(out.read_bytes(), spanish_lexicon)           # Eliot loads it
    rounds = [view for view in service.rounds(1, tournament) if view.master is not None]
    assert rounds[0].master == "8E-ELLAS"
    assert [f"{turn.master[0]}-{turn.master[1]}" for turn in turns if turn.master] == [
        _mirror(view.master or "", spanish_lexicon) for view in rounds]
    assert [turn.master[2] for turn in turns if turn.master] == [view.master_score for view in rounds]
    assert "traspuesta" in output and "Aviso:" in output
    prepared = prepared_from_eliot(out.read_bytes(), spanish_lexicon)  # and reads back, transposed
    assert [step.master for step in prepared.rounds] == [_mirror(view.master or "", spanish_lexicon)
                                                         for view in rounds]


def test_a_players_first_move_across_the_master_keeps_its_points(crafted, spanish_lexicon: Lexicon) -> None:
    service, tournament, out, output = crafted
    root = fromstring(out.read_bytes())
    ids = {player.findtext("Name"): player.get("id") for player in root.findall("Game/Player")}
    turns = replay_eliot(out.read_bytes(), spanish_lexicon)           # every valid move scored as written
    blas = turns[0].moves[ids["Blas"]]
    # H8-ELLAS across becomes 8H down once transposed: Eliot refuses it on the empty board,
    # so it is written as its mirror image, H8-ELLAS across, the same 22 points.
    assert (blas["type"], blas["coord"], blas["word"], blas["points"]) == ("valid", "H8", "ELLAS", "22")
    ana = turns[0].moves[ids["Ana"]]
    assert (ana["coord"], ana["points"]) == ("H5", "22")
    carla = turns[0].moves[ids["Carla"]]
    assert (carla["type"], carla["coord"]) == ("invalid", "8H")
    assert "Blas" in output and "H8-ELLAS" in output and "22 puntos" in output


def test_a_redraw_is_written_as_eliot_writes_one(crafted, spanish_lexicon: Lexicon) -> None:
    service, tournament, out, _output = crafted
    alphabet = spanish_lexicon.alphabet
    turns = replay_eliot(out.read_bytes(), spanish_lexicon)
    racks = turns[2].racks
    assert [rejected for rejected, _tiles in racks] == [False, True]       # the rack sent back, then «-NEW»
    assert Counter(racks[0][1]) == Counter(alphabet.tokenize("[L][L]"))
    assert Counter(racks[1][1]) == Counter(alphabet.tokenize("RSTUNAE"))
    prepared = prepared_from_eliot(out.read_bytes(), spanish_lexicon)
    assert prepared.rounds[2].leftover == "" and prepared.rounds[1].leftover


def test_two_l_tiles_read_back_as_two_tiles_and_blanks_as_blanks(crafted, spanish_lexicon: Lexicon) -> None:
    service, tournament, out, output = crafted
    alphabet = spanish_lexicon.alphabet
    turns = replay_eliot(out.read_bytes(), spanish_lexicon)
    rounds = [view for view in service.rounds(1, tournament) if view.master is not None]
    for turn, view in zip(turns, rounds, strict=True):
        assert Counter(turn.racks[-1][1]) == Counter(parse_rack_text(view.rack, alphabet))   # as Eliot reads it
        for rack in turn.player_racks.values():
            assert Counter(rack) == Counter(parse_rack_text(view.rack, alphabet))
    assert Counter(turns[0].racks[0][1])[alphabet.code("L")] == 2
    assert turns[1].master is not None and turns[1].master[1] == "JUZgO"    # the blank as a lowercase g
    assert "no puede distinguirlas" not in output                           # every rack had an order


def test_what_eliot_cannot_tell_apart_is_said() -> None:
    from lexicon.alphabet import spanish

    alphabet = spanish()
    two_l = alphabet.tokenize("[L]L")
    assert eliot_word(two_l, alphabet) == ("LL", False)                     # a word: Eliot reads the LL tile
    assert eliot_word(alphabet.tokenize("ELLAS"), alphabet) == ("ELLAS", True)
    text, exact = eliot_tiles(alphabet.tokenize("[L]LA"), alphabet)
    assert exact and alphabet.tokenize(text) == [alphabet.code(c) for c in text]   # «LAL»: three tiles
    assert eliot_tiles(alphabet.tokenize("[C]H"), alphabet) == ("HC", True)
    assert eliot_tiles(two_l, alphabet)[1] is False                         # two L tiles alone: no order


def _dawg_header(name: str, letters: str, display: str, words: int) -> bytes:
    """An Eliot dictionary header laid out as Eliot 2.x writes one (format 2)."""
    data = bytearray(474)
    data[0:22] = b"_COMPILED_DICTIONARY_\x00"
    data[22] = 2
    struct.pack_into(">I", data, 28, words)
    data[92] = 1                                                              # dawg
    encoded = name.encode()
    data[94:94 + len(encoded)] = encoded
    struct.pack_into(">I", data, 124, len(encoded))
    encoded = letters.encode()
    data[128:128 + len(encoded)] = encoded
    struct.pack_into(">II", data, 208, len(encoded), len(letters))
    encoded = display.encode()
    data[360:360 + len(encoded)] = encoded
    struct.pack_into(">H", data, 472, len(encoded))
    return bytes(data) + b"\x00" * 64                                          # the graph follows


def test_the_dictionary_block_comes_from_the_users_eliot_dictionary(crafted, spanish_lexicon: Lexicon,
                                                                    tmp_path: Path) -> None:
    service, tournament, out, _output = crafted
    # Its own order (the blank first, Ñ after Z) and its own internal letters for the digraphs.
    letters = "?ABCÇDEFGHIJLĿMNOPQRŘSTUVXYZÑ"
    dawg = tmp_path / "FISE-2.dawg"
    dawg.write_bytes(_dawg_header("FISE-2 (2019)", letters, "Ç|CH Ŀ|LL Ř|RR", 639_293))
    written = tmp_path / "con-diccionario.xml"
    output = _export(out.parent / "torneo.db", written, "--eliot-dictionary", str(dawg))
    assert "FISE-2 (2019)" in output
    block = fromstring(written.read_bytes()).find("Dictionary")
    assert block is not None
    assert [block.findtext(tag) for tag in ("Name", "Type", "Letters", "WordNb")] == [
        "FISE-2 (2019)", "dawg", "? A B C CH D E F G H I J L LL M N O P Q R RR S T U V X Y Z Ñ", "639293"]
    replay_eliot(written.read_bytes(), spanish_lexicon, letters="?ABCCHDEFGHIJLLLMNOPQRRRSTUVXYZÑ",
                 word_count=639_293)
    with pytest.raises(EliotRefuses):                                         # another dictionary: refused
        replay_eliot(written.read_bytes(), spanish_lexicon, letters="ABCCHDEFGHIJLLLMNÑOPQRRRSTUVXYZ?",
                     word_count=639_293)


@pytest.mark.parametrize("content, words", [
    (b"no es un diccionario", "_COMPILED_DICTIONARY_"),
    (b"_COMPILED_DICTIONARY_\x00\x00" + b"\x00" * 500, "formato de diccionario 0"),
    (b"_COMPILED_DICTIONARY_\x00\x02" + b"\x00" * 20, "incompleta"),
])
def test_a_file_that_is_not_an_eliot_dictionary_is_refused_in_spanish(crafted, tmp_path: Path, content: bytes,
                                                                     words: str) -> None:
    service, tournament, out, _output = crafted
    dawg = tmp_path / "malo.dawg"
    dawg.write_bytes(content)
    target = tmp_path / "x.xml"
    result = CliRunner().invoke(main, ["export", "--db", str(out.parent / "torneo.db"), "--format", "eliot",
                                       "--game", "1", "--eliot-dictionary", str(dawg), str(target)], env=ENV)
    assert result.exit_code != 0 and words in result.output and "malo.dawg" in result.output
    assert "Traceback" not in result.output and not target.exists()


def test_a_missing_dictionary_or_one_for_the_json_record_is_refused_in_spanish(crafted, tmp_path: Path) -> None:
    service, tournament, out, _output = crafted
    database = str(out.parent / "torneo.db")
    result = CliRunner().invoke(main, ["export", "--db", database, "--format", "eliot", "--game", "1",
                                       "--eliot-dictionary", str(tmp_path / "no-hay.dawg"), str(tmp_path / "x.xml")],
                                env=ENV)
    assert result.exit_code != 0 and "no-hay.dawg: no existe" in result.output and not (tmp_path / "x.xml").exists()
    result = CliRunner().invoke(main, ["export", "--db", database, "--eliot-dictionary", str(tmp_path / "a.dawg"),
                                       str(tmp_path / "t.json")], env=ENV)
    assert result.exit_code != 0 and "solo se usa con --format eliot" in result.output
    assert not (tmp_path / "t.json").exists()


def test_header_letters_keep_the_dictionarys_order() -> None:
    header = parse_eliot_header(_dawg_header("X", "ZAÇ?", "Ç|CH|C", 3))
    assert (header.name, header.kind, header.letters, header.word_count) == ("X", "dawg", ("Z", "A", "CH", "?"), 3)


GOLDEN_XML = sorted((Path(__file__).parent.parent / "golden").glob("*/expected/*.xml"))


@pytest.mark.parametrize("path", GOLDEN_XML, ids=lambda path: f"{path.parts[-3]}/{path.name}")
def test_every_golden_eliot_file_replays_as_eliot_reads_it(path: Path, spanish_lexicon: Lexicon) -> None:
    # The golden games' exports (players' vertical first moves across a horizontal master
    # among them, written as their mirror images) load in Eliot as a whole.
    turns = replay_eliot(path.read_bytes(), spanish_lexicon)
    assert turns and all(turn.master is not None for turn in turns)
