"""Prepared games (III.15, last paragraph: «duplicada maestra»): the file, its digest, the
generator with quality filters, a game taken from a tournament record, and the
independent check catching each kind of tampering.

The expected values come from the engine (``duplicate.rules.game.Game``) replaying the seed,
never from the module under test.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from duplicate.prepared.check import check_prepared
from duplicate.prepared.file import PREPARED_FORMAT, PreparedFileError, PreparedGame, content_digest
from duplicate.prepared.generation import FiltersNotMet, QualityFilters, generate, generate_filtered
from duplicate.prepared.rounds import PreparedMismatch, apply_master, apply_rack
from duplicate.rules.game import Game
from duplicate.rules.next_scores import next_score_groups
from duplicate.rules.notation import format_move
from lexicon.lexicon import Lexicon

SEED = 7


@pytest.fixture(scope="module")
def prepared(spanish_lexicon: Lexicon) -> PreparedGame:
    return generate(spanish_lexicon, SEED, 12)


def sealed(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` sealed again (a tamperer who recomputes the digest)."""
    data["digest"] = content_digest({key: value for key, value in data.items() if key != "digest"})
    return data


def test_generated_racks_and_masters_are_the_engines_from_the_seed(prepared: PreparedGame,
                                                                   spanish_lexicon: Lexicon) -> None:
    # III.12, III.15, III.17, III.19: every rack the bag draws, every master the rules' choice.
    engine = Game(spanish_lexicon, seed=SEED, rounds=12)
    played = engine.play_all()
    assert [(r.rack, r.leftover, r.master, r.score, r.cumulative) for r in played.rounds] == [
        (r.rack, r.leftover, r.master, r.score, r.cumulative) for r in prepared.rounds]
    assert all(r.drawn and r.rank == 0 for r in prepared.rounds)
    assert prepared.total == played.total
    assert prepared.bingos == sum(1 for r in played.rounds if r.tiles_placed == 7)
    assert prepared.lexicon_hash == spanish_lexicon.content_hash and prepared.seed == SEED


def test_the_file_round_trips_and_its_digest_seals_the_canonical_form(prepared: PreparedGame) -> None:
    data = json.loads(prepared.to_json())
    assert data["format"] == PREPARED_FORMAT and data["format_version"] == 1
    assert PreparedGame.from_json(prepared.to_json()) == prepared
    body = {key: value for key, value in data.items() if key != "digest"}
    assert data["digest"] == content_digest(body) and len(data["digest"]) == 64
    # Key order and spacing are not content: the digest is the same.
    assert content_digest(json.loads(json.dumps(body, indent=4, sort_keys=False))) == data["digest"]


def test_the_same_seed_gives_the_same_file(spanish_lexicon: Lexicon, prepared: PreparedGame) -> None:
    assert generate(spanish_lexicon, SEED, 12).to_json() == prepared.to_json()


def test_a_sound_file_checks_clean(prepared: PreparedGame, spanish_lexicon: Lexicon) -> None:
    assert check_prepared(json.loads(prepared.to_json()), spanish_lexicon) == []


def test_a_changed_digest_is_caught(prepared: PreparedGame, spanish_lexicon: Lexicon) -> None:
    data = json.loads(prepared.to_json())
    data["digest"] = "0" * 64
    problems = check_prepared(data, spanish_lexicon)
    assert [problem.round for problem in problems] == [None] and "digest" in problems[0].message


def test_a_content_change_without_resealing_breaks_the_digest(prepared: PreparedGame, spanish_lexicon: Lexicon) -> None:
    data = json.loads(prepared.to_json())
    data["origin"]["kind"] = "record"
    assert any("digest" in problem.message for problem in check_prepared(data, spanish_lexicon))


def test_a_master_that_is_not_a_top_is_caught(prepared: PreparedGame, spanish_lexicon: Lexicon) -> None:
    # III.15: the master is a move of top score. Round 3 gets a legal move scoring less,
    # with its score and the cumulatives made consistent and the file sealed again.
    engine = Game(spanish_lexicon, seed=SEED, rounds=12)
    for round_ in prepared.rounds[:2]:
        apply_rack(engine, round_)
        apply_master(engine, round_)
    pending = apply_rack(engine, prepared.rounds[2]).pending
    lower = next_score_groups(engine.board, pending.rack.tiles, spanish_lexicon, 1)[0]
    data = json.loads(prepared.to_json())
    delta = lower.score - data["rounds"][2]["score"]
    data["rounds"][2].update(master=format_move(lower.move, spanish_lexicon.alphabet), score=lower.score)
    for item in data["rounds"][2:]:
        item["cumulative"] += delta
    data["total"] += delta
    problems = check_prepared(sealed(data), spanish_lexicon)
    assert [problem.round for problem in problems] == [3]
    assert "máxima puntuación" in problems[0].message


def test_a_rack_not_from_the_bag_is_caught(prepared: PreparedGame, spanish_lexicon: Lexicon) -> None:
    # III.12, III.17: round 4's rack replaced by the next round's (other tiles), sealed again.
    data = json.loads(prepared.to_json())
    data["rounds"][3]["rack"] = data["rounds"][5]["rack"]
    problems = check_prepared(sealed(data), spanish_lexicon)
    assert [problem.round for problem in problems] == [4]
    assert "bolsa" in problems[0].message


def test_a_judge_rack_in_a_generated_file_is_caught(prepared: PreparedGame, spanish_lexicon: Lexicon) -> None:
    data = json.loads(prepared.to_json())
    data["rounds"][1]["drawn"] = False
    problems = check_prepared(sealed(data), spanish_lexicon)
    assert [problem.round for problem in problems] == [2]


def test_a_wrong_score_is_caught(prepared: PreparedGame, spanish_lexicon: Lexicon) -> None:
    data = json.loads(prepared.to_json())
    data["rounds"][5]["score"] += 1
    problems = check_prepared(sealed(data), spanish_lexicon)
    assert [problem.round for problem in problems] == [6]
    assert "puntos" in problems[0].message


def test_a_wrong_cumulative_or_total_is_caught(prepared: PreparedGame, spanish_lexicon: Lexicon) -> None:
    data = json.loads(prepared.to_json())
    data["rounds"][7]["cumulative"] -= 2
    assert [problem.round for problem in check_prepared(sealed(data), spanish_lexicon)] == [8]
    data = json.loads(prepared.to_json())
    data["total"] += 5
    problems = check_prepared(sealed(data), spanish_lexicon)
    assert [problem.round for problem in problems] == [None] and "total" in problems[0].message


def test_another_lexicon_is_named(prepared: PreparedGame, make_lexicon: Any) -> None:
    other = make_lexicon(["CASA", "COSA"])
    problems = check_prepared(json.loads(prepared.to_json()), other)
    assert "léxico" in problems[0].message


@pytest.mark.parametrize("text", ["", "[]", '{"format": "otro"}', '{"format": "duplicada-prepared-1"}',
                                  '{"format": "duplicada-prepared-1", "alphabet": "x", "lexicon": {}, "rounds": []}'])
def test_unreadable_files_are_refused_in_spanish(text: str) -> None:
    with pytest.raises(PreparedFileError) as caught:
        PreparedGame.from_json(text)
    assert any(word in str(caught.value) for word in ("JSON", "formato", "debe ser"))


def test_quality_filters_redraw_seeds_until_met(spanish_lexicon: Lexicon) -> None:
    plain = generate(spanish_lexicon, 3)
    filters = QualityFilters(min_total=plain.total + 1)
    game = generate_filtered(spanish_lexicon, 3, None, filters, attempts=40)
    assert game.total > plain.total and game.seed != 3
    assert game.origin["first_seed"] == 3 and game.origin["attempt"] > 1
    assert check_prepared(json.loads(game.to_json()), spanish_lexicon) == []
    assert generate_filtered(spanish_lexicon, 3, None, filters, attempts=40) == game     # reproducible


def test_quality_filters_on_rounds_and_bingos(spanish_lexicon: Lexicon) -> None:
    game = generate_filtered(spanish_lexicon, 11, None, QualityFilters(min_rounds=18, max_rounds=22, min_bingos=2))
    assert 18 <= len(game.rounds) <= 22 and game.bingos >= 2


def test_filters_never_met_stop_after_the_attempts_with_a_spanish_error(spanish_lexicon: Lexicon) -> None:
    with pytest.raises(FiltersNotMet) as caught:
        generate_filtered(spanish_lexicon, 5, 3, QualityFilters(min_total=5000), attempts=3)
    assert "ninguna de las 3 partidas" in str(caught.value) and "más cercana" in str(caught.value)


def test_apply_rack_names_the_round_the_bag_does_not_give(prepared: PreparedGame, spanish_lexicon: Lexicon) -> None:
    engine = Game(spanish_lexicon, seed=SEED + 1, rounds=12)
    with pytest.raises(PreparedMismatch) as caught:
        apply_rack(engine, prepared.rounds[0])
    assert caught.value.round == 1
