"""``export`` then ``verify`` (issue 3 §8): the record a real service writes is complete
enough for the independent checker to recompute every result without a difference, for
every ranking criterion; a changed figure in it is found; the CLI exits non-zero."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from duplicate.record.reading import RecordError, check_shape
from duplicate.record.signature import signature_check
from duplicate.record.verify import verify_record
from duplicate.rules.slips import SlipStatus
from duplicate.rules.tournament_standings import TournamentCriterion
from duplicate.service.facade import TournamentService
from duplicate.service.settings import TournamentSettings
from duplicate.storage.database import open_database
from lexicon.lexicon import Lexicon
from tests.credentials import JUDGE_PIN
from tests.duplicate.record_versions import as_format
from tui.cli.main import main

PLAYERS = 8


def run_tournament(service: TournamentService, settings: TournamentSettings) -> None:
    """Two games of four rounds with every kind of slip, a claim upheld and an annulment."""
    service.create_tournament("Exportación", settings=settings)
    for index in range(PLAYERS):
        service.add_player(f"Jugador {index}", federation_id=f"X{index}")
    for number, seed in enumerate((31, 32), start=1):
        game = service.create_game(rounds=4, seed=seed)
        assert game == number
        for round_index in range(4):
            view = service.draw_rack(game)
            assert view is not None
            view = service.choose_master(game)
            master = view.master
            assert master is not None
            coordinate, word = master.split("-")
            # Round 1: table 1 alone finds the master (a bonus, III.24); later rounds two tables.
            service.enter_master_slips(game, [1] if round_index == 0 else [1, 2 + round_index % 3])
            service.enter_slip(game, 5, master.lower())                       # lowercase: blanks it lacks
            service.enter_slip(game, 6, f"{coordinate}-{word}Z")             # not a word / not on the rack
            service.mark_slip(game, 7, SlipStatus.LATE)
            for table in (3, 4):
                if table != 2 + round_index % 3:
                    service.enter_slip(game, table, "H8-QQ")
            if round_index == 1 and number == 2:
                service.annul_master(game, view.number, reason="prueba III.29")
            service.close_round(game)                                       # table 8: missing
        service.end_game(game)
        service.publish(game)
        claim = service.file_claim(game, 3, 8, "la entregué a tiempo")
        service.resolve_claim(claim, upheld=True, resolution="se encontró la papeleta",
                              corrected_text=service.rounds(game)[2].master)
        service.publish(game, final=True)


@pytest.mark.parametrize("criterion", list(TournamentCriterion))
def test_export_of_a_real_tournament_verifies_without_differences(tmp_path: Path, spanish_lexicon: Lexicon,
                                                                  criterion: TournamentCriterion) -> None:
    service = TournamentService(open_database(str(tmp_path / "t.db")), lexicon=spanish_lexicon, pin=JUDGE_PIN)
    run_tournament(service, TournamentSettings(bonus_mode="automatic", criterion=criterion.value, tie_breaks=True))
    record = json.loads(json.dumps(service.export()))                    # exactly what the file holds
    assert verify_record(record, spanish_lexicon) == []
    statuses = {slip["status"] for game in record["games"] for round_ in game["rounds"] for slip in round_["slips"]}
    assert {"valid", "late", "missing", "not_in_rack", "annulled"} <= statuses
    assert any(round_["bonuses"] for game in record["games"] for round_ in game["rounds"])
    assert [event["id"] for event in record["events"]] == sorted(event["id"] for event in record["events"])


def test_verify_finds_a_changed_score_and_the_cli_exits_non_zero(tmp_path: Path, spanish_lexicon: Lexicon) -> None:
    database = tmp_path / "t.db"
    service = TournamentService(open_database(str(database)), lexicon=spanish_lexicon, pin=JUDGE_PIN)
    run_tournament(service, TournamentSettings(bonus_mode="automatic"))
    runner = CliRunner()
    out = tmp_path / "record.json"
    result = runner.invoke(main, ["export", "--db", str(database), str(out)])
    assert result.exit_code == 0, result.output
    assert runner.invoke(main, ["verify", str(out)]).exit_code == 0
    record = json.loads(out.read_text(encoding="utf-8"))
    slip = next(slip for slip in record["games"][0]["rounds"][0]["slips"] if slip["status"] == "valid")
    slip["score"] += 3
    out.write_text(json.dumps(record), encoding="utf-8")
    result = runner.invoke(main, ["verify", str(out)])
    assert result.exit_code == 1
    assert "mesa" in result.output and "score" in result.output


def test_an_export_in_the_middle_of_a_game_verifies(tmp_path: Path, spanish_lexicon: Lexicon) -> None:
    # Review findings: a pending rack, an open round, a late registration and a game not
    # started yet must not make the checker report differences on a correct database.
    service = TournamentService(open_database(str(tmp_path / "t.db")), lexicon=spanish_lexicon, pin=JUDGE_PIN)
    service.create_tournament("A medias", settings=TournamentSettings(bonus_mode="automatic",
                                                                      criterion="average_place"))
    for index in range(4):
        service.add_player(f"Jugador {index}")
    game = service.create_game(rounds=5, seed=12)
    for _ in range(2):
        view = service.draw_rack(game)
        assert view is not None
        view = service.choose_master(game)
        service.enter_slip(game, 1, view.master or "")
        service.close_round(game)
    view = service.draw_rack(game)
    view = service.choose_master(game)
    service.enter_slip(game, 2, view.master or "")          # round 3 open: no bonus yet
    service.draw_rack(game)                                 # round 4: rack pending
    service.add_player("Inscrita tarde")
    record = json.loads(json.dumps(service.export()))
    assert [round_["number"] for round_ in record["games"][0]["rounds"]] == [1, 2, 3]
    assert verify_record(record, spanish_lexicon) == []
    assert len(record["standings"]) == 4


def test_consistent_forgeries_are_caught_by_the_event_log(tmp_path: Path, spanish_lexicon: Lexicon) -> None:
    # Issue 14 §5: a slip rewritten with its own correct score, a master moved to another
    # round's rack, a bonus given with its standings redone — each keeps the rules and
    # passed before; each contradicts the event log now.
    import copy

    service = TournamentService(open_database(str(tmp_path / "t.db")), lexicon=spanish_lexicon, pin=JUDGE_PIN)
    run_tournament(service, TournamentSettings(bonus_mode="automatic", tie_breaks=True))
    record = json.loads(json.dumps(service.export()))
    assert verify_record(record, spanish_lexicon) == []

    def where(found: list, field: str) -> set[str]:  # type: ignore[type-arg]
        return {difference.where for difference in found if difference.field == field}

    # Table 6 of game 1, round 2, wrote an invalid word; the forger gives it the master.
    forged = copy.deepcopy(record)
    round_ = forged["games"][0]["rounds"][1]
    slip = next(slip for slip in round_["slips"] if slip["table"] == 6)
    master = next(slip for slip in round_["slips"] if slip["status"] == "valid")
    slip.update(text=master["text"], status="valid", score=master["score"], move=master["move"], reason="")
    found = verify_record(forged, spanish_lexicon)
    assert "partida 1, ronda 2, mesa 6" in where(found, "text")

    # A round's rack replaced by another that came out of the same bag (round 3's by round 4's).
    forged = copy.deepcopy(record)
    rounds = forged["games"][0]["rounds"]
    rounds[2]["rack"] = rounds[3]["rack"]
    assert "partida 1, ronda 3" in where(verify_record(forged, spanish_lexicon), "rack")

    # The event log itself rewritten for a drawn rack: the bag and the seed say otherwise.
    forged = copy.deepcopy(record)
    drawn = next(event for event in forged["events"] if event["kind"] == "rack_drawn" and event["game"] == 2)
    forged["games"][1]["rounds"][drawn["round"] - 1]["rack"] = "CASAMOS"
    drawn["payload"]["rack"] = "CASAMOS"
    assert any("semilla" in difference.message for difference in verify_record(forged, spanish_lexicon))

    # The history emptied: said, never a crash.
    forged = copy.deepcopy(record)
    forged["events"] = []
    assert [difference.where for difference in verify_record(forged, spanish_lexicon)] == ["historial", "firma"]


def test_streamed_export_is_the_same_text_as_the_whole_record(tmp_path: Path, spanish_lexicon: Lexicon) -> None:
    # Issue 26 §3: ``write_export`` writes game by game and event by event; the text is the
    # one json.dumps gives of the whole record (the export time aside), with no game too.
    import io
    import re

    service = TournamentService(open_database(str(tmp_path / "t.db")), lexicon=spanish_lexicon, pin=JUDGE_PIN)
    service.create_tournament("Vacío")
    service.add_player("Único")

    def without_time(text: str) -> str:
        """The text but the export time and the signature's value (which signs that time too)."""
        return re.sub(r'\n  "value": "[^"]*"', "", re.sub(r'\n "exported_at": "[^"]*",', "", text))

    for _ in range(2):
        whole = json.dumps(service.export(), ensure_ascii=False, indent=1)
        streamed = io.StringIO()
        written = service.write_export(streamed)
        assert without_time(streamed.getvalue()) == without_time(whole)
        record = json.loads(whole)
        assert (written.games, written.events, written.head) == (len(record["games"]), len(record["events"]),
                                                                 record["events_head"])
        # Issue 35 §2: the signature made while streaming holds for the text written.
        assert signature_check(json.loads(streamed.getvalue())).valid
        assert written.fingerprint == record["signature"]["fingerprint"]
        run_tournament(service, TournamentSettings(bonus_mode="automatic"))


# --- a record carries the fields of its version; a slip's time is its event's (issue 36 §5) ------------


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory, spanish_lexicon: Lexicon) -> dict[str, Any]:
    """A real tournament's record (format 14, signed), exactly as the file holds it."""
    service = TournamentService(open_database(str(tmp_path_factory.mktemp("versions") / "t.db")),
                                lexicon=spanish_lexicon, pin=JUDGE_PIN)
    run_tournament(service, TournamentSettings(bonus_mode="automatic"))
    record: dict[str, Any] = json.loads(json.dumps(service.export()))
    return record


def test_a_record_marked_format_6_with_fields_of_later_formats_is_refused(played: dict[str, Any], tmp_path: Path,
                                                                          spanish_lexicon: Lexicon) -> None:
    assert verify_record(as_format(played, 6), spanish_lexicon) == []     # what format 6 wrote verifies
    marked = {**played, "format_version": 6}
    with pytest.raises(RecordError) as refused:
        verify_record(marked, spanish_lexicon)
    message = str(refused.value)
    assert message.startswith("el registro se declara del formato 6 (format_version) y trae campos de formatos "
                              "posteriores: ")
    for field in ("«previous_hash» (formato 7) en events[0]", "«events_head» (formato 7) en el registro",
                  "«set_aside» (formato 8) en games[0].rounds[0]", "«prepared» (formato 9) en games[0]"):
        assert field in message
    path = tmp_path / "seis.json"
    path.write_text(json.dumps(marked, ensure_ascii=False), encoding="utf-8")
    result = CliRunner().invoke(main, ["verify", str(path)])
    assert result.exit_code == 2 and result.output.startswith(f"Error: {path}: el registro se declara del formato 6")


def _board_on_a_slip(record: dict[str, Any]) -> None:
    record["games"][0]["rounds"][0]["slips"][0]["board"] = "H8 → CASA"


@pytest.mark.parametrize(("version", "change", "named"), [
    (11, lambda record: record["players"][0].update(venue=None), "«venue» (formato 12) en players[0]"),
    (11, lambda record: record["tournament"].update(venues=[]), "«venues» (formato 12) en tournament"),
    (9, _board_on_a_slip, "«board» (formato 10) en games[0].rounds[0].slips[0]"),
    (9, lambda record: record["tournament"]["settings"].update(board_notation=False),
     "«board_notation» (formato 10) en tournament.settings"),
    (12, lambda record: record["events"][0]["payload"].update(lexicon_path="/tmp/x.lex"),
     "«lexicon_path» (formato 13) en events[0].payload"),
    (13, lambda record: record.update(signature={}), "«signature» (formato 14) en el registro"),
    (13, lambda record: record["events"].append({**record["events"][-1], "id": 10**6, "kind": "signing_key_made"}),
     "eventos «signing_key_made» (formato 14) en events["),
    (2, lambda record: next(event for event in record["events"] if event["kind"] == "master_chosen")["payload"]
     .update(equal_tops=1), "«equal_tops» (formato 3) en events["),
    (4, lambda record: record["events"].append({**record["events"][-1], "id": 10**6, "kind": "master_undone"}),
     "eventos «master_undone» (formato 5) en events["),
])
def test_one_field_of_a_later_format_is_refused(played: dict[str, Any], version: int,
                                                change: Callable[[dict[str, Any]], None], named: str) -> None:
    older = as_format(played, version)
    change(older)
    with pytest.raises(RecordError, match=f"se declara del formato {version} .* trae campos de formatos posteriores: "
                                          f"{re.escape(named)}"):
        check_shape(older)


@pytest.mark.parametrize(("version", "remove", "named"), [
    (12, lambda record: record["tournament"].pop("venues"), "«venues» (formato 12) en tournament"),
    (14, lambda record: record.pop("events_head"), "«events_head» (formato 7) en el registro"),
    (9, lambda record: record["games"][1].pop("prepared"), "«prepared» (formato 9) en games[1]"),
    (8, lambda record: record["games"][0]["rounds"][2].pop("set_aside"),
     "«set_aside» (formato 8) en games[0].rounds[2]"),
    (2, lambda record: record["events"][3].pop("role"), "«role» (formato 2) en events[3]"),
])
def test_a_field_its_format_always_writes_missing_is_refused(played: dict[str, Any], version: int,
                                                             remove: Callable[[dict[str, Any]], None],
                                                             named: str) -> None:
    older = as_format(played, version)
    check_shape(older)
    remove(older)
    with pytest.raises(RecordError, match=f"se declara del formato {version} .* le faltan campos que ese formato "
                                          f"siempre lleva: {re.escape(named)}"):
        check_shape(older)


def test_a_slip_time_or_clerk_that_is_not_its_events_is_a_difference(played: dict[str, Any],
                                                                      spanish_lexicon: Lexicon) -> None:
    forged = copy.deepcopy(played)
    forged.pop("signature")                              # unsigned: only the slip's own check speaks
    slip = forged["games"][0]["rounds"][1]["slips"][0]
    event = next(event for event in forged["events"] if event["kind"] in ("slip_entered", "slip_corrected")
                 and event["game"] == 1 and event["round"] == 2 and event["payload"]["entry"] == slip["player"])
    assert slip["entered_at"] == event["created_at"] and slip["entered_by"] == event["arbiter"]
    slip["entered_at"] = "2026-11-21T08:00:00+00:00"
    (difference,) = verify_record(forged, spanish_lexicon)
    assert (difference.where, difference.field) == (f"partida 1, ronda 2, mesa {slip['table']}", "entered_at")
    assert (difference.recorded, difference.expected) == ("2026-11-21T08:00:00+00:00", event["created_at"])
    assert "no es la del evento que la anotó" in difference.message
    slip["entered_at"] = event["created_at"].replace("+00:00", "+01:00")  # the same digits, an hour off
    assert [d.field for d in verify_record(forged, spanish_lexicon)] == ["entered_at"]
    moment = datetime.fromisoformat(event["created_at"])
    slip["entered_at"] = (moment + timedelta(milliseconds=500)).isoformat()   # two clock readings (before issue 34)
    assert verify_record(forged, spanish_lexicon) == []
    slip["entered_at"] = (moment - timedelta(seconds=2)).isoformat()
    assert [d.field for d in verify_record(forged, spanish_lexicon)] == ["entered_at"]
    slip["entered_at"] = "ayer"
    assert [d.message for d in verify_record(forged, spanish_lexicon)] == ["hora de la papeleta ilegible"]
    slip["entered_at"] = event["created_at"]
    slip["entered_by"] = "otra persona"
    (difference,) = verify_record(forged, spanish_lexicon)
    assert (difference.field, difference.recorded, difference.expected) == ("entered_by", "otra persona",
                                                                            event["arbiter"])
