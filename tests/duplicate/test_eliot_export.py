"""A played game exported as an Eliot saved game (``duplicada export --format eliot --game N``,
issue 27 §3): a strict XML parser reads it, every turn holds the rack, the master and each
player's move as ``../shared/docs/eliot-xml.md`` describes, and our own Eliot import (the one
of ``prepared create --from-eliot``) reads back the same racks and masters."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from defusedxml.ElementTree import fromstring

from duplicate.prepared.eliot_xml import prepared_from_eliot
from duplicate.publishing.eliot_export import NO_MOVE_STATUSES, eliot_tiles
from duplicate.rules.rack import parse_rack_text
from duplicate.rules.slips import SlipStatus
from duplicate.service.facade import TournamentService
from duplicate.simulate import simulate_tournament
from duplicate.storage.database import open_database
from lexicon.lexicon import Lexicon
from tests.credentials import JUDGE_PIN
from tui.cli.main import main


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory, spanish_lexicon: Lexicon):
    """A tournament of 5 players, one game of 12 rounds, exported by the command."""
    folder = tmp_path_factory.mktemp("eliot")
    database = folder / "torneo.db"
    service = TournamentService(open_database(str(database)), station="pruebas", lexicon=spanish_lexicon,
                                pin=JUDGE_PIN)
    tournament = simulate_tournament(service, players=5, games=1, rounds=12, seed=27)
    out = folder / "partida-1.xml"
    result = CliRunner().invoke(main, ["export", "--db", str(database), "--format", "eliot", "--game", "1", str(out)],
                                env={"DUPLICADA_STATION": "mesa-1", "DUPLICADA_PIN": JUDGE_PIN})
    assert result.exit_code == 0, result.output
    assert "XML de Eliot" in result.output
    return service, tournament, out


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
        rack = [element.text or "" for element in turn.findall("GameRack") if not (element.text or "").startswith("-")]
        assert len(rack) == 1
        assert rack[0].replace("+", "") == eliot_tiles(view.rack, alphabet)
        assert "[" not in rack[0]
        master = turn.find("MasterMove")
        assert master is not None and master.get("type") == "valid"
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


def test_exported_game_reads_back_with_the_same_racks_and_masters(exported, spanish_lexicon: Lexicon) -> None:
    service, tournament, out = exported
    prepared = prepared_from_eliot(out.read_bytes(), spanish_lexicon)
    rounds = [view for view in service.rounds(1, tournament) if view.master is not None]
    alphabet = spanish_lexicon.alphabet
    assert len(prepared.rounds) == len(rounds)
    for step, view in zip(prepared.rounds, rounds, strict=True):
        assert parse_rack_text(step.rack, alphabet) == parse_rack_text(view.rack, alphabet)
        assert step.master == view.master
        assert step.score == view.master_score


def test_export_of_an_unknown_game_is_refused_in_spanish(exported, tmp_path: Path) -> None:
    service, tournament, out = exported
    database = out.parent / "torneo.db"
    result = CliRunner().invoke(main, ["export", "--db", str(database), "--format", "eliot", "--game", "7",
                                       str(tmp_path / "x.xml")],
                                env={"DUPLICADA_STATION": "mesa-1", "DUPLICADA_PIN": JUDGE_PIN})
    assert result.exit_code != 0
    assert "no tiene partida 7" in result.output
    assert not (tmp_path / "x.xml").exists()
