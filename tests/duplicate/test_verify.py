"""The independent checker of a tournament record (``duplicate.record.verify``).

A small tournament is built here by hand: two games played with ``Game`` on a
tiny lexicon with racks typed by the arbiter, six players, slips of every
status, and every stored value (slip scores, bonuses, standings) computed by
hand in comments. The consistent record must give no difference; each kind of
tampering must be found and named.

Board premiums used below (standard layout): H4 DL, H8 centre DW, H12 DL, L4 DW.
Tile points: A E O S L R 1, C 3, blank 0.
"""

from __future__ import annotations

import copy
import io
import json
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pytest

from duplicate.record.difference import Difference
from duplicate.record.reading import RecordError, load_record
from duplicate.record.standings import RoundResult, game_standings, round_bonuses, tournament_standings
from duplicate.record.verify import run_verify, verify_record as verify_with_history
from duplicate.rules.game import Game
from duplicate.rules.notation import format_move
from lexicon.lexicon import Lexicon, build


def verify_record(record: dict[str, Any], lexicon: Lexicon) -> list[Any]:
    """The rule checks: these hand-made records carry no event log (``events: []``), which
    ``verify`` reports once under «historial»; the log is checked in test_export_verify."""
    return [difference for difference in verify_with_history(record, lexicon) if difference.where != "historial"]

WORDS = ["AS", "ASA", "CASA", "CASAS", "COSA", "COSAS", "LOSA", "OS", "OSA", "SACO", "SO"]
TABLES = {1: 11, 2: 12, 3: 13, 4: 14, 5: 15, 6: 16}
NAMES = {1: "Ana", 2: "Bea", 3: "Carlos", 4: "Diego", 5: "Elena", 6: "Fermín"}

Record = dict[str, Any]


@pytest.fixture(scope="module")
def lexicon_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("verify") / "test.lex"
    build(sorted(WORDS), path, source="test")
    return path


@pytest.fixture(scope="module")
def lexicon(lexicon_path: Path) -> Lexicon:
    return Lexicon.load(lexicon_path)


def slip(player: int, text: str | None, status: str, score: int, move: str | None = None) -> dict[str, Any]:
    return {"player": player, "table": TABLES[player], "text": text, "status": status, "score": score,
            "move": move, "reason": "", "entered_by": "aux1", "entered_at": "2026-11-21T10:00:00+00:00"}


def play(lexicon: Lexicon, seed: int, racks: list[str]) -> list[dict[str, Any]]:
    """Rounds of a game with the arbiter's racks: board, rack, tops and master from ``Game``."""
    game = Game(lexicon, seed=seed, rounds=len(racks))
    rounds = []
    for rack in racks:
        board = game.board.to_cgp()
        pending = game.set_rack(rack)
        tops = sorted(format_move(ranked.move, lexicon.alphabet) for ranked in pending.ranked)
        played = game.play()
        rounds.append({"number": played.number, "rack": played.rack, "board_before": board,
                       "top_score": pending.ranked[0].score, "top_moves": tops, "master": played.master,
                       "master_score": played.score, "cumulative": played.cumulative, "annulled": False,
                       "slips": [], "bonuses": {}})
    return rounds


def build_record(lexicon: Lexicon) -> Record:
    """The consistent two-game tournament (criterion average_place, automatic bonuses, III.28 on)."""
    game1 = play(lexicon, 1, ["CASAOSL", "LOSA?ER"])
    # Round 1, empty board, rack CASAOSL. Top 20: H4-CASAS = (C 3×2 on H4 DL + A S A + S on H8) 10
    # × 2 (centre DW) = 20, and COSAS the same, across or down (8D). Master (III.15): H4-CASAS.
    assert [r["master"] for r in game1] == ["H4-CASAS", "4H-COSAs"]
    assert game1[0]["top_moves"] == ["8D-CASAS", "8D-COSAS", "H4-CASAS", "H4-COSAS"]
    game1[0]["slips"] = [
        slip(1, "H4-CASAS", "valid", 20, "H4-CASAS"),
        slip(2, "h4 COSAS", "valid", 20, "H4-COSAS"),    # lowercase coordinate is fine: 20
        slip(3, "H8-CASA", "valid", 12, "H8-CASA"),      # (3+1+1+1) × 2 (H8) = 12
        slip(4, "H8-CASO", "invalid_word", 0),           # CASO not in the lexicon
        slip(5, "CASA", "syntax", 0),                    # no coordinate
        slip(6, "P1-CASA", "off_board", 0),              # there is no row P
    ]
    # Nobody alone at 20 (Ana and Bea): no bonus (III.24).
    game1[0]["bonuses"] = {}
    # Round 2, board CASAS on H4–H8, rack LOSA?ER (the leftover L O first). Top 12: 4H-COSAs =
    # (C 3 + O 1 + S 1 + A 1 + blank s 0) × 2 (L4 DW) = 12, and 4H-COsAS the same.
    assert game1[1]["top_moves"] == ["4H-COSAs", "4H-COsAS"] and game1[1]["master_score"] == 12
    game1[1]["slips"] = [
        slip(1, "4H-COSAs", "valid", 12, "4H-COSAs"),    # the master: 12
        slip(2, "4H-COSA", "valid", 6, "4H-COSA"),       # 3 + 1 + 1 + 1, no premium = 6
        slip(3, "4H-COSAS", "unmarked_blank", 0),        # second S only from the blank (III.25.a)
        slip(4, "4H-CZZZ", "not_in_rack", 0),
        slip(5, "A1-OSA", "not_connected", 0),
        slip(6, "H4-COSAS", "misplaced", 0),             # H5 holds A, not O
    ]
    # Ana alone at the top score 12: +10 (III.24).
    game1[1]["bonuses"] = {"1": 10}
    # Game 1 totals: Ana 20+12+10 = 42, Bea 20+6 = 26, Carlos 12, Diego, Elena, Fermín 0.
    # Master total 20+12 = 32: Ana 100 × 32/32 = 100, Bea 100 × 26/32 = 81.25, Carlos 100 × 12/32 = 37.5.
    # The three at 0 tie on III.28 too (0 rounds at the master, never sole top, worst gap 20): 4th each.
    standings1 = [
        {"player": 1, "position": 1, "total": 42, "bonus": 10, "percentage": 100.0},
        {"player": 2, "position": 2, "total": 26, "bonus": 0, "percentage": 81.25},
        {"player": 3, "position": 3, "total": 12, "bonus": 0, "percentage": 37.5},
        {"player": 4, "position": 4, "total": 0, "bonus": 0, "percentage": 0.0},
        {"player": 5, "position": 4, "total": 0, "bonus": 0, "percentage": 0.0},
        {"player": 6, "position": 4, "total": 0, "bonus": 0, "percentage": 0.0},
    ]
    game2 = play(lexicon, 2, ["CASAOSL"])
    # Game 2, Fermín absent. Round 1 as above (master H4-CASAS, 20) but annulled (III.29): whoever
    # played the master gets 0.
    game2[0]["annulled"] = True
    game2[0]["slips"] = [
        slip(1, "H4-CASAS", "annulled", 0),
        slip(2, "4H-COSAS →", "valid", 20, "H4-COSAS"),  # oriented (III.20.1.b): across from H4, 20
        slip(3, "H8-CASA", "late", 0),
        slip(4, "¿¿", "null", 0),
        slip(5, None, "missing", 0),
    ]
    # Bea alone at the top score 20: +10.
    game2[0]["bonuses"] = {"2": 10}
    # Bea 20+10 = 30 (100 %); the other four 0, tied on III.28 (gap 20): 2nd each.
    standings2 = [{"player": 2, "position": 1, "total": 30, "bonus": 10, "percentage": 100.0}] + [
        {"player": player, "position": 2, "total": 0, "bonus": 0, "percentage": 0.0} for player in (1, 3, 4, 5)
    ]
    # Tournament, average place (IV.31), 2 games; Fermín missed game 2: last place there, 5.
    # Ana (1+2)/2 = 1.5, Bea (2+1)/2 = 1.5, Carlos (3+2)/2 = 2.5, Diego and Elena (4+2)/2 = 3,
    # Fermín (4+5)/2 = 4.5. Ana–Bea by III.28 over the 3 rounds (masters 20, 12, 20): rounds at the
    # master 2 each (Ana 20, 12; Bea 20, 20), sole top once each (Ana round 2, Bea game 2), worst
    # gap Ana 20 (annulled), Bea 6: Bea first. Diego–Elena equal on everything: shared 4th.
    standings = [
        {"player": 2, "position": 1, "value": 1.5, "total": 56},
        {"player": 1, "position": 2, "value": 1.5, "total": 42},
        {"player": 3, "position": 3, "value": 2.5, "total": 12},
        {"player": 4, "position": 4, "value": 3.0, "total": 0},
        {"player": 5, "position": 4, "value": 3.0, "total": 0},
        {"player": 6, "position": 6, "value": 4.5, "total": 0},
    ]
    return {
        "format": "duplicada-tournament-1",
        "exported_at": "2026-11-21T18:00:00+00:00",
        "tournament": {
            "name": "Torneo de prueba", "venue": "Villanueva", "start_date": "2026-11-21", "end_date": None,
            "lexicon_hash": lexicon.content_hash,
            "settings": {"bonus_mode": "automatic", "bonus_value": 10, "criterion": "average_place",
                         "tie_breaks": True, "oriented_notation": True},
        },
        "players": [{"id": player, "name": name, "club": "", "country": "ES", "federation_id": None,
                     "status": "active"} for player, name in NAMES.items()],
        "games": [
            {"number": 1, "planned_rounds": 2, "seconds_per_round": 180, "seed": 1, "status": "final",
             "end_reason": None, "tables": {str(p): t for p, t in TABLES.items()}, "rounds": game1,
             "standings": standings1},
            {"number": 2, "planned_rounds": 1, "seconds_per_round": 180, "seed": 2, "status": "final",
             "end_reason": None, "tables": {str(p): t for p, t in TABLES.items() if p != 6}, "rounds": game2,
             "standings": standings2},
        ],
        "standings": standings,
        "events": [],
    }


@pytest.fixture(scope="module")
def record(lexicon: Lexicon) -> Record:
    return build_record(lexicon)


def tampered(record: Record, change: Callable[[Record], None]) -> Record:
    copied = copy.deepcopy(record)
    change(copied)
    return copied


def slip_of(record: Record, game: int, round_: int, player: int) -> dict[str, Any]:
    return next(s for s in record["games"][game - 1]["rounds"][round_ - 1]["slips"] if s["player"] == player)


def fields(differences: Iterable[Difference]) -> list[tuple[str, str]]:
    return [(difference.where, difference.field) for difference in differences]


# --- the consistent record ---------------------------------------------------------------


def test_consistent_record_has_no_difference(record: Record, lexicon: Lexicon) -> None:
    assert verify_record(record, lexicon) == []


def test_record_survives_a_json_round_trip(record: Record, lexicon: Lexicon, tmp_path: Path) -> None:
    path = tmp_path / "torneo.json"
    path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    assert verify_record(load_record(path), lexicon) == []


# --- slips (III.20, III.23, III.25, III.29) --------------------------------------------------


def test_changed_slip_score_is_found_III_23(record: Record, lexicon: Lexicon) -> None:
    bad = tampered(record, lambda r: slip_of(r, 1, 1, 3).update(score=13))
    (difference,) = verify_record(bad, lexicon)
    assert (difference.where, difference.field) == ("partida 1, ronda 1, mesa 13", "score")
    assert (difference.recorded, difference.expected) == (13, 12)


def test_changed_slip_status_is_found_III_20(record: Record, lexicon: Lexicon) -> None:
    bad = tampered(record, lambda r: slip_of(r, 1, 2, 5).update(status="misplaced"))
    (difference,) = verify_record(bad, lexicon)
    assert (difference.where, difference.field) == ("partida 1, ronda 2, mesa 15", "status")
    assert (difference.recorded, difference.expected) == ("misplaced", "not_connected")
    assert "no toca" in difference.message


def test_late_slip_must_score_zero_III_25_b(record: Record, lexicon: Lexicon) -> None:
    bad = tampered(record, lambda r: slip_of(r, 2, 1, 3).update(score=12))
    assert fields(verify_record(bad, lexicon)) == [("partida 2, ronda 1, mesa 13", "score")]


def test_unmarked_blank_given_points_is_found_III_25_a(record: Record, lexicon: Lexicon) -> None:
    bad = tampered(record, lambda r: slip_of(r, 1, 2, 3).update(status="valid", score=12, move="4H-COSAs"))
    assert fields(verify_record(bad, lexicon)) == [("partida 1, ronda 2, mesa 13", "status"),
                                                   ("partida 1, ronda 2, mesa 13", "score")]


def test_master_of_annulled_round_must_be_annulled_III_29(record: Record, lexicon: Lexicon) -> None:
    bad = tampered(record, lambda r: slip_of(r, 2, 1, 1).update(status="valid", score=20, move="H4-CASAS"))
    differences = verify_record(bad, lexicon)
    assert fields(differences) == [("partida 2, ronda 1, mesa 11", "status"), ("partida 2, ronda 1, mesa 11", "score")]
    assert differences[0].expected == "annulled"


def test_annulled_status_only_in_an_annulled_round_III_29(record: Record, lexicon: Lexicon) -> None:
    bad = tampered(record, lambda r: slip_of(r, 1, 1, 1).update(status="annulled", score=0))
    differences = verify_record(bad, lexicon)
    assert ("partida 1, ronda 1, mesa 11", "status") in fields(differences)
    assert differences[0].expected == "valid"


def test_valid_slip_with_another_move_is_found(record: Record, lexicon: Lexicon) -> None:
    bad = tampered(record, lambda r: slip_of(r, 1, 1, 2).update(move="H4-CASAS"))
    assert fields(verify_record(bad, lexicon)) == [("partida 1, ronda 1, mesa 12", "move")]


def test_missing_slip_is_found(record: Record, lexicon: Lexicon) -> None:
    def drop(r: Record) -> None:
        r["games"][0]["rounds"][1]["slips"] = [s for s in r["games"][0]["rounds"][1]["slips"] if s["player"] != 4]

    (difference,) = verify_record(tampered(record, drop), lexicon)
    assert (difference.where, difference.field) == ("partida 1, ronda 2, mesa 14", "slips")
    assert "falta la papeleta del jugador 4 (Diego)" in difference.message


def test_second_slip_of_a_player_is_found(record: Record, lexicon: Lexicon) -> None:
    bad = tampered(record, lambda r: r["games"][0]["rounds"][0]["slips"].append(slip(3, "H8-CASAS", "valid", 16)))
    assert fields(verify_record(bad, lexicon)) == [("partida 1, ronda 1, mesa 13", "slips")]


def test_oriented_slip_without_the_setting_is_a_syntax_error_III_20_1_b(record: Record, lexicon: Lexicon) -> None:
    bad = tampered(record, lambda r: r["tournament"]["settings"].update(oriented_notation=False))
    differences = verify_record(bad, lexicon)
    assert ("partida 2, ronda 1, mesa 12", "status") in fields(differences)
    assert differences[0].expected == "syntax"


# --- bonuses (III.24) ---------------------------------------------------------------------


def test_added_bonus_is_found_III_24(record: Record, lexicon: Lexicon) -> None:
    bad = tampered(record, lambda r: r["games"][0]["rounds"][0]["bonuses"].update({"1": 10}))
    (difference,) = verify_record(bad, lexicon)
    assert (difference.where, difference.field, difference.recorded, difference.expected) == (
        "partida 1, ronda 1, mesa 11", "bonuses", 10, None)


def test_removed_bonus_is_found_III_24(record: Record, lexicon: Lexicon) -> None:
    bad = tampered(record, lambda r: r["games"][0]["rounds"][1].update(bonuses={}))
    (difference,) = verify_record(bad, lexicon)
    assert (difference.where, difference.field, difference.recorded, difference.expected) == (
        "partida 1, ronda 2, mesa 11", "bonuses", None, 10)


def test_automatic_bonus_ten_to_the_only_player_at_the_top_III_24() -> None:
    assert round_bonuses({1: 30, 2: 20}, 30, "automatic") == {1: 10}
    assert round_bonuses({1: 30, 2: 30, 3: 20}, 30, "automatic") == {}   # two at the top: nobody


def test_automatic_bonus_five_to_the_only_best_below_the_top_III_24() -> None:
    assert round_bonuses({1: 25, 2: 20}, 30, "automatic") == {1: 5}
    assert round_bonuses({1: 25, 2: 25}, 30, "automatic") == {}
    assert round_bonuses({1: 0, 2: 0}, 30, "automatic") == {}
    assert round_bonuses({1: 0}, 30, "automatic") == {}                  # best score 0: no bonus


def test_manual_and_off_bonus_III_24() -> None:
    assert round_bonuses({1: 25, 2: 20}, 30, "manual", 5) == {1: 5}
    assert round_bonuses({1: 30, 2: 30}, 30, "manual", 10) == {}
    assert round_bonuses({1: 30, 2: 20}, 30, "off") == {}


def test_manual_bonus_value_outside_the_rules_is_reported_III_24(record: Record, lexicon: Lexicon) -> None:
    # Manual mode, 7 points (III.24 allows 5 or 10): reported, then applied as recorded —
    # Ana alone best in round 2 (12), Bea alone best in game 2 (20): 7 each instead of 10.
    def change(r: Record) -> None:
        r["tournament"]["settings"].update(bonus_mode="manual", bonus_value=7)
        r["games"][0]["rounds"][1]["bonuses"] = {"1": 7}
        r["games"][0]["standings"][0].update(total=39, bonus=7)
        r["games"][1]["rounds"][0]["bonuses"] = {"2": 7}
        r["games"][1]["standings"][0].update(total=27, bonus=7)
        r["standings"][0]["total"], r["standings"][1]["total"] = 53, 39

    assert fields(verify_record(tampered(record, change), lexicon)) == [("torneo", "bonus_value")]


# --- boards and masters (III.15, III.29) ------------------------------------------------------


def test_changed_master_score_is_found(record: Record, lexicon: Lexicon) -> None:
    bad = tampered(record, lambda r: r["games"][0]["rounds"][1].update(master_score=14))
    assert [(d.where, d.field, d.recorded, d.expected) for d in verify_record(bad, lexicon)] == [
        ("partida 1, ronda 2", "master_score", 14, 12)]


def test_altered_board_is_found(record: Record, lexicon: Lexicon) -> None:
    board = "15/15/15/15/15/15/15/3COSAS7/15/15/15/15/15/15/15"
    bad = tampered(record, lambda r: r["games"][0]["rounds"][1].update(board_before=board))
    (difference,) = verify_record(bad, lexicon)
    assert (difference.where, difference.field) == ("partida 1, ronda 2", "board_before")
    assert difference.expected == "15/15/15/15/15/15/15/3CASAS7/15/15/15/15/15/15/15"


def test_illegal_master_is_found(record: Record, lexicon: Lexicon) -> None:
    bad = tampered(record, lambda r: r["games"][0]["rounds"][0].update(master="H4-CASOS"))
    differences = verify_record(bad, lexicon)
    assert ("partida 1, ronda 1", "master") in fields(differences)
    assert "CASOS" in differences[0].message


def test_changed_top_score_and_cumulative_are_found(record: Record, lexicon: Lexicon) -> None:
    def change(r: Record) -> None:
        r["games"][0]["rounds"][0].update(top_score=22, top_moves=["H4-CASAS"])
        r["games"][0]["rounds"][1].update(cumulative=33)

    assert fields(verify_record(tampered(record, change), lexicon)) == [
        ("partida 1, ronda 1", "top_score"), ("partida 1, ronda 1", "top_moves"), ("partida 1, ronda 2", "cumulative")]


# --- standings (III.23, III.28, IV.31) -------------------------------------------------------


def test_swapped_game_positions_are_found_III_23(record: Record, lexicon: Lexicon) -> None:
    def swap(r: Record) -> None:
        lines = r["games"][0]["standings"]
        lines[0]["position"], lines[1]["position"] = lines[1]["position"], lines[0]["position"]

    assert [(d.where, d.field, d.recorded, d.expected) for d in verify_record(tampered(record, swap), lexicon)] == [
        ("partida 1, clasificación, jugador 1 (Ana)", "position", 2, 1),
        ("partida 1, clasificación, jugador 2 (Bea)", "position", 1, 2),
    ]


def test_game_percentage_within_tolerance_is_accepted(record: Record, lexicon: Lexicon) -> None:
    bad = tampered(record, lambda r: r["games"][0]["standings"][1].update(percentage=81.2500000001))
    assert verify_record(bad, lexicon) == []
    bad = tampered(record, lambda r: r["games"][0]["standings"][1].update(percentage=81.3))
    assert fields(verify_record(bad, lexicon)) == [("partida 1, clasificación, jugador 2 (Bea)", "percentage")]


def test_changed_tournament_value_is_found_IV_31(record: Record, lexicon: Lexicon) -> None:
    bad = tampered(record, lambda r: r["standings"][2].update(value=2.0))
    (difference,) = verify_record(bad, lexicon)
    assert (difference.where, difference.field, difference.recorded, difference.expected) == (
        "clasificación del torneo, jugador 3 (Carlos)", "value", 2.0, 2.5)


def test_missing_player_in_tournament_standings_is_found(record: Record, lexicon: Lexicon) -> None:
    bad = tampered(record, lambda r: r["standings"].pop())
    assert fields(verify_record(bad, lexicon)) == [("clasificación del torneo, jugador 6 (Fermín)", "player")]


def test_without_tie_breaks_tied_players_share_the_position_III_28(record: Record, lexicon: Lexicon) -> None:
    # Game standings are unchanged (no tie there was broken). The tournament breaks Ana–Bea
    # by III.28 over all rounds only when the need is announced (IV.31, issue 25 §5):
    # without it they share the first place, and Ana's stored 2nd is a difference.
    bad = tampered(record, lambda r: r["tournament"]["settings"].update(tie_breaks=False))
    assert [(d.where, d.field, d.recorded, d.expected) for d in verify_record(bad, lexicon)] == [
        ("clasificación del torneo, jugador 1 (Ana)", "position", 2, 1)]

    def shared(r: Record) -> None:
        r["tournament"]["settings"]["tie_breaks"] = False
        r["standings"][1]["position"] = 1

    assert verify_record(tampered(record, shared), lexicon) == []


@pytest.mark.parametrize(
    ("criterion", "expected"),
    [
        # Sum of game totals: Bea 26+30, Ana 42+0, Carlos 12; the three at 0 tie on III.28 too.
        ("total", {2: (1, 56.0), 1: (2, 42.0), 3: (3, 12.0), 4: (4, 0.0), 5: (4, 0.0), 6: (4, 0.0)}),
        # 100 × mean of score/master over the 3 rounds (masters 20, 12, 20):
        # Bea (1 + 6/12 + 1)/3 = 83.33…, Ana (1 + 1 + 0)/3 = 66.66…, Carlos (12/20)/3 = 20.
        ("average_percentage", {2: (1, 250 / 3), 1: (2, 200 / 3), 3: (3, 20.0), 4: (4, 0.0), 5: (4, 0.0),
                                6: (4, 0.0)}),
        # sqrt(sum of squared gaps)/3: Bea sqrt(6²)/3 = 2, Ana sqrt(20²)/3, Carlos sqrt(8²+12²+20²)/3,
        # the others sqrt(20²+12²+20²)/3 (Fermín's missed round counts 0).
        ("deviation", {2: (1, 2.0), 1: (2, 20 / 3), 3: (3, 608 ** 0.5 / 3), 4: (4, 944 ** 0.5 / 3),
                       5: (4, 944 ** 0.5 / 3), 6: (4, 944 ** 0.5 / 3)}),
    ],
)
def test_tournament_criteria_IV_31(record: Record, lexicon: Lexicon, criterion: str,
                                   expected: dict[int, tuple[int, float]]) -> None:
    def change(r: Record) -> None:
        r["tournament"]["settings"]["criterion"] = criterion
        r["standings"] = [{"player": player, "position": position, "value": value, "total": 0}
                          for player, (position, value) in expected.items()]
        totals = {1: 42, 2: 56, 3: 12}
        for line in r["standings"]:
            line["total"] = totals.get(line["player"], 0)

    assert verify_record(tampered(record, change), lexicon) == []


def test_game_tie_breaks_in_order_III_28() -> None:
    # Masters 10 and 10. Players 1–4 all total 15 (plus player 5 with 0).
    # 1: 10+5 — one round at the master, sole top in round 1, worst gap 5.
    # 2: 5+10 — one round at the master, sole top in round 2, worst gap 5.
    # 3: 8+7 — no round at the master, worst gap 3; 4: 9+6 — no round at the master, worst gap 4.
    rounds = [
        RoundResult(10, 10, {1: 10, 2: 5, 3: 8, 4: 9, 5: 0}, {}),
        RoundResult(10, 10, {1: 5, 2: 10, 3: 7, 4: 6, 5: 0}, {}),
    ]
    with_ties = game_standings(rounds, [1, 2, 3, 4, 5], tie_breaks=True)
    assert {p: s.position for p, s in with_ties.items()} == {1: 1, 2: 1, 3: 3, 4: 4, 5: 5}
    without = game_standings(rounds, [1, 2, 3, 4, 5], tie_breaks=False)
    assert {p: s.position for p, s in without.items()} == {1: 1, 2: 1, 3: 1, 4: 1, 5: 5}
    assert with_ties[3].percentage == 75.0                             # 100 × 15/20


def test_sole_top_tie_break_III_28() -> None:
    # Masters 10, 10, 10. Ana 10+5+5 = 20, Bea 6+10+4 = 20: each reaches the master once; Ana is
    # the only top scorer in rounds 1 and 3, Bea never (Carlos also has 10 in round 2): Ana first.
    rounds = [RoundResult(10, 10, {1: 10, 2: 6, 3: 0}, {}), RoundResult(10, 10, {1: 5, 2: 10, 3: 10}, {}),
              RoundResult(10, 10, {1: 5, 2: 4, 3: 0}, {})]
    standings = game_standings(rounds, [1, 2, 3], tie_breaks=True)
    assert {p: s.position for p, s in standings.items()} == {1: 1, 2: 2, 3: 3}
    # The tournament applies the same III.28 order over all its rounds when announced (IV.31).
    tournament = tournament_standings([(rounds, standings)], "total", tie_breaks=True)
    shared = tournament_standings([(rounds, standings)], "total")
    assert {p: s.position for p, s in shared.items()} == {1: 1, 2: 1, 3: 3}
    assert {p: (s.position, s.value, s.total) for p, s in tournament.items()} == {
        1: (1, 20.0, 20), 2: (2, 20.0, 20), 3: (3, 10.0, 10)}


# --- lexicon and broken files ---------------------------------------------------------------


def test_wrong_lexicon_hash_is_reported_first(record: Record, lexicon: Lexicon) -> None:
    bad = tampered(record, lambda r: r["tournament"].update(lexicon_hash="0" * 64))
    bad["games"][0]["rounds"][0]["slips"][2]["score"] = 11
    differences = verify_record(bad, lexicon)
    assert fields(differences) == [("torneo", "lexicon_hash"), ("partida 1, ronda 1, mesa 13", "score")]
    assert differences[0].expected == lexicon.content_hash


def test_broken_json_gives_a_clear_record_error(tmp_path: Path) -> None:
    path = tmp_path / "roto.json"
    path.write_text('{"format": "duplicada-tournament-1", ', encoding="utf-8")
    with pytest.raises(RecordError, match=r"roto\.json: no es JSON válido \(línea 1"):
        load_record(path)


def test_wrong_format_and_missing_keys_give_record_errors(record: Record, tmp_path: Path) -> None:
    path = tmp_path / "otro.json"
    path.write_text(json.dumps({**record, "format": "duplicada-game-1"}), encoding="utf-8")
    with pytest.raises(RecordError, match="otro.json: formato 'duplicada-game-1' desconocido"):
        load_record(path)
    broken = copy.deepcopy(record)
    del broken["games"][0]["rounds"][1]["slips"][3]["status"]
    path.write_text(json.dumps(broken), encoding="utf-8")
    with pytest.raises(RecordError, match=r"en games\[0\]\.rounds\[1\]\.slips\[3\] falta la clave «status»"):
        load_record(path)
    broken = copy.deepcopy(record)
    broken["games"][0]["rounds"][0]["master_score"] = "20"
    with pytest.raises(RecordError, match="«master_score» debe ser un número entero"):
        verify_record(broken, None)  # type: ignore[arg-type]
    with pytest.raises(RecordError, match="no existe"):
        load_record(tmp_path / "nada.json")


def test_run_verify_reports_and_exit_codes(record: Record, lexicon_path: Path, tmp_path: Path) -> None:
    path = tmp_path / "torneo.json"
    path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    out = io.StringIO()
    # A record without its event log (hand-made here) cannot show its decisions: said once.
    assert run_verify(path, lexicon_path, out) == 1
    assert "1 diferencia" in out.getvalue() and "no trae historial de eventos" in out.getvalue()

    bad = tampered(record, lambda r: slip_of(r, 1, 1, 3).update(score=13))
    path.write_text(json.dumps(bad, ensure_ascii=False), encoding="utf-8")
    out = io.StringIO()
    assert run_verify(path, lexicon_path, out) == 1
    assert "partida 1, ronda 1, mesa 13 — score: registrado 13, esperado 12." in out.getvalue()

    path.write_text("no es json", encoding="utf-8")
    out = io.StringIO()
    assert run_verify(path, lexicon_path, out) == 2
    assert out.getvalue().startswith("Error: ") and "no es JSON válido" in out.getvalue()


# --- format versions and the file's size (issue 36 §5) ----------------------------------------


@pytest.mark.parametrize(("version", "shown"), [
    (15, "15"), (99, "99"), (0, "0"), (-1, "-1"), ("14", '"14"'), (14.0, "14.0"), (True, "true"), (None, "null"),
    ([14], "[14]"),
])
def test_an_unknown_or_ill_typed_format_version_is_refused_naming_it(record: Record, tmp_path: Path,
                                                                      version: object, shown: str) -> None:
    path = tmp_path / "version.json"
    path.write_text(json.dumps({**record, "format_version": version}), encoding="utf-8")
    with pytest.raises(RecordError) as refused:
        load_record(path)
    message = str(refused.value)
    assert message.startswith(f"{path}: ")
    assert f"«format_version» {shown} no es una versión" in message or f"formato {shown}, posterior" in message
    assert "conoce las versiones 1 a 14" in message


def test_format_version_1_written_out_is_refused(record: Record, tmp_path: Path, lexicon: Lexicon) -> None:
    # The first records have no «format_version» (read as 1); version 2 added the key.
    path = tmp_path / "uno.json"
    path.write_text(json.dumps({**record, "format_version": 1}), encoding="utf-8")
    with pytest.raises(RecordError, match=r"se declara del formato 1 .*«format_version» \(formato 2\) en el registro"):
        load_record(path)
    assert verify_record(record, lexicon) == []          # without the key: a record of format 1


def test_a_record_over_the_size_limit_is_refused_unread(record: Record, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    import duplicate.record.reading as reading

    monkeypatch.setattr(reading, "RECORD_MAX_BYTES", 4096)
    path = tmp_path / "enorme.json"
    with path.open("wb") as sparse:
        sparse.truncate(4097)                            # a sparse file: nothing written, 4,097 bytes long

    def never(*_: object, **__: object) -> None:
        raise AssertionError("a record over the limit is not opened")

    monkeypatch.setattr(Path, "open", never)
    monkeypatch.setattr(Path, "read_bytes", never)
    with pytest.raises(RecordError) as refused:
        load_record(path)
    assert str(refused.value) == (f"{path}: 4097 bytes (0.0 MiB), más que el máximo de un registro de torneo (JSON), "
                                  "4096 bytes (0.0 MiB); no se lee: ¿es el registro que escribe «duplicada export»?")


def test_the_documented_size_limit_is_above_a_very_large_tournament() -> None:
    # bench/record_memory.py: 500 players × 20 games × 22 rounds, double entry: 239 MiB.
    from duplicate.record.reading import RECORD_MAX_BYTES

    assert RECORD_MAX_BYTES == 512 * 2**20 > 2 * 239 * 2**20


def test_repeated_texts_of_a_record_are_one_object_once_loaded(record: Record, tmp_path: Path) -> None:
    # A record is held once as text, and its parsed values do not repeat the same short text
    # in every slip and event (issue 36 §5: a very large record loads in a fifth less memory).
    path = tmp_path / "torneo.json"
    path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    loaded = load_record(path)
    slips = [slip for game in loaded["games"] for round_ in game["rounds"] for slip in round_["slips"]]
    assert len({id(slip["entered_by"]) for slip in slips}) == 1 < len(slips)
    assert len({id(slip["status"]) for slip in slips if slip["status"] == "valid"}) == 1
    assert loaded == json.loads(path.read_text(encoding="utf-8"))          # the same record
