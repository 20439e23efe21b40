"""Where ``duplicada verify`` was made fast (issue 38), it still checks everything it checked.

Each speed-up here could hide a difference if it were wrong: a slip text judged once for
every player who wrote it, a move read once a round, the record parsed piece by piece, the
events hashed without a trip through JSON, the signature hashed game by game, the score of a
slip taken from the words the referee already found. Built on ``test_verify``'s hand-made
tournament (its fixtures).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import duplicate.record.reading as reading
from duplicate.record.chain import GENESIS, event_hash
from duplicate.record.reading import RecordError, load_record
from duplicate.record.signature import RecordDigest, canonical, record_message
from duplicate.rules.game import Game
from duplicate.rules.notation import check_move, format_move
from lexicon.lexicon import Lexicon
from lexicon.move import score_move
from tests.duplicate.test_verify import (  # noqa: F401 — the fixtures, by name
    Record,
    lexicon,
    lexicon_path,
    record,
    slip_of,
    tampered,
    verify_record,
)


def slip_differences(record: Record, lexicon: Lexicon, game: int, round_: int) -> list[tuple[str, str, Any, Any]]:
    """The differences of one round's slips: (where, field, recorded, expected)."""
    prefix = f"partida {game}, ronda {round_}, mesa "
    return [(d.where, d.field, d.recorded, d.expected) for d in verify_record(record, lexicon)
            if d.where.startswith(prefix)]


def same_text_as_ana(record: Record, player: int, **fields: Any) -> None:
    """Game 1, round 1: ``player`` wrote Ana's slip, «H4-CASAS» (20 points), with ``fields``."""
    slip_of(record, 1, 1, player).update({"text": "H4-CASAS", "status": "valid", "score": 20, "move": "H4-CASAS",
                                          **fields})


def test_the_same_text_twice_is_consistent(record: Record, lexicon: Lexicon) -> None:
    copied = tampered(record, lambda r: same_text_as_ana(r, 3))
    assert slip_differences(copied, lexicon, 1, 1) == []


def test_a_tampered_score_among_identical_slips_is_reported_where_it_is(record: Record, lexicon: Lexicon) -> None:
    copied = tampered(record, lambda r: same_text_as_ana(r, 3, score=21))
    assert slip_differences(copied, lexicon, 1, 1) == [("partida 1, ronda 1, mesa 13", "score", 21, 20)]
    # …and the other way round: the first of the two tampered, the second not.
    def first_tampered(r: Record) -> None:
        same_text_as_ana(r, 3)
        slip_of(r, 1, 1, 1).update(score=19)

    copied = tampered(record, first_tampered)
    assert slip_differences(copied, lexicon, 1, 1) == [("partida 1, ronda 1, mesa 11", "score", 19, 20)]


def test_a_tampered_move_among_identical_slips_is_reported_where_it_is(record: Record, lexicon: Lexicon) -> None:
    # Each move is read once a round: the second «H4-CASAS» slip claims another move.
    copied = tampered(record, lambda r: same_text_as_ana(r, 3, move="8D-CASAS"))
    assert slip_differences(copied, lexicon, 1, 1) == [("partida 1, ronda 1, mesa 13", "move", "8D-CASAS", None)]
    # Two slips with the same recorded move, one of them of another text: only that one.
    copied = tampered(record, lambda r: slip_of(r, 1, 1, 2).update(move="H4-CASAS"))
    assert slip_differences(copied, lexicon, 1, 1) == [("partida 1, ronda 1, mesa 12", "move", "H4-CASAS", None)]


def test_a_late_slip_with_the_text_of_a_valid_one_scores_nothing_III_25_b(record: Record, lexicon: Lexicon) -> None:
    copied = tampered(record, lambda r: same_text_as_ana(r, 3, status="late", score=0, move=None))
    assert slip_differences(copied, lexicon, 1, 1) == []
    copied = tampered(record, lambda r: same_text_as_ana(r, 3, status="late"))     # late, yet 20 points
    assert slip_differences(copied, lexicon, 1, 1) == [("partida 1, ronda 1, mesa 13", "score", 20, 0)]


def test_the_master_written_twice_in_an_annulled_round_is_annulled_twice_III_29(record: Record,
                                                                                 lexicon: Lexicon) -> None:
    # Game 2, round 1 is annulled; Ana played the master, «H4-CASAS» (annulled, 0). Carlos too:
    # once judged, the same text must be annulled for him as well, whatever he was given.
    def carlos(r: Record, **fields: Any) -> None:
        slip_of(r, 2, 1, 3).update({"text": "H4-CASAS", **fields})

    assert slip_differences(tampered(record, lambda r: carlos(r, status="annulled", score=0)), lexicon, 2, 1) == []
    found = slip_differences(tampered(record, lambda r: carlos(r, status="valid", score=20, move="H4-CASAS")),
                             lexicon, 2, 1)
    assert found == [("partida 2, ronda 1, mesa 13", "status", "valid", "annulled"),
                     ("partida 2, ronda 1, mesa 13", "score", 20, 0)]


def test_check_move_scores_as_score_move(lexicon: Lexicon) -> None:
    # check_move takes the score from the words it found; score_move finds them again.
    checked = 0
    for seed in range(1, 6):
        game = Game(lexicon, seed=seed, rounds=4)
        while (pending := game.draw()) is not None and pending.ranked:
            board = game.board.copy()
            for ranked in pending.ranked:
                placement = check_move(board, pending.rack.tiles, format_move(ranked.move, lexicon.alphabet), lexicon)
                assert placement.score == score_move(board, ranked.move) == ranked.score
                checked += 1
            game.play()
    assert checked > 10


# --- the record read piece by piece ------------------------------------------------------------


def whole(path: Path) -> dict[str, Any] | str:
    """What loading gave before issue 38, the whole text parsed at once: the record, or the
    message of its ``RecordError``."""
    saved = reading._streamed
    reading._streamed = lambda _path: None          # type: ignore[assignment]
    try:
        return load_record(path)
    except RecordError as error:
        return str(error)
    finally:
        reading._streamed = saved


def loaded(path: Path) -> dict[str, Any] | str:
    try:
        return load_record(path)
    except RecordError as error:
        return str(error)


@pytest.mark.parametrize("chunk", [1, 7, 64, 2**16])
def test_a_wide_record_read_in_pieces_is_the_same_record(record: Record, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              chunk: int) -> None:
    monkeypatch.setattr(reading, "_CHUNK", chunk)
    path = tmp_path / "torneo.json"
    # Beyond Latin-1 (the text would take 2 or 4 bytes a character whole), long numbers, a BOM.
    record = {**record, "tournament": {**record["tournament"], "venue": "Villanueva — «sala 😀»"},
              "events": [{"id": 123456789012345678901234567890 // 10**k, "payload": {"x": [1.5e300, -0.0, None]}}
                         for k in range(3)]}
    for text in (json.dumps(record, ensure_ascii=False, indent=1), json.dumps(record),
                 "\ufeff" + json.dumps(record, separators=(",", ":")), " \r\n" + json.dumps(record) + "\n\t "):
        path.write_text(text, encoding="utf-8")
        assert reading._streamed(path) == loaded(path) == whole(path) == json.loads(text.lstrip("\ufeff"))
        assert list(loaded(path)) == list(record)


def test_a_broken_record_read_in_pieces_says_what_it_said_whole(record: Record, tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reading, "_CHUNK", 5)
    path = tmp_path / "roto.json"
    # A character beyond Latin-1 (a wide text): read in pieces, whole only to say what is wrong.
    record = {**record, "tournament": {**record["tournament"], "venue": "Villanueva — sala"}}
    text = json.dumps(record, ensure_ascii=False, indent=1)
    for cut in range(0, len(text), max(1, len(text) // 150)):            # truncated anywhere
        path.write_text(text[:cut], encoding="utf-8")
        assert reading._streamed(path) is None
        assert loaded(path) == whole(path)
    hostile = [
        text + " {}",                                          # data after the record
        "\ufeff\ufeff" + text,                                 # a second BOM
        "[" + text + "]",                                      # not an object
        text.replace('"events": []', '"events": [1' + "0" * 40 + "]"),            # too long a number
        text.replace('"events": []', '"events": [-' + "1" * 30 + "]"),
        text.replace('"events": []', '"events": [' + "[" * 100_000 + "]" * 100_000 + "]"),   # too deep
        text.replace('"events": []', '"events": [{"a": 1,}]'),
        text.replace('"games": [', '"games": [1, '),
        text.replace('"format": ', '"format": "x", "format": '),   # a key twice: the last one counts
        text.replace("Villanueva", "Villa\x00nueva"),
    ]
    outcomes = []
    for broken in hostile:
        path.write_text(broken, encoding="utf-8")
        assert loaded(path) == whole(path)
        outcomes.append(isinstance(loaded(path), str))
        if broken is not hostile[7] and broken is not hostile[8]:     # those two are JSON: a shape error, none
            assert reading._streamed(path) is None
    assert outcomes == [True] * 8 + [False, True]           # the key given twice is no error: the last counts
    path.write_bytes(text.encode("utf-8")[:300] + b"\xff" + text.encode("utf-8")[300:])         # not UTF-8
    assert loaded(path) == whole(path) and "UTF-8" in str(loaded(path))


# --- the chain and the signature -----------------------------------------------------------------

_json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=6)),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=4), inner, max_size=4)),
    max_leaves=20)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.fixed_dictionaries({"id": st.integers(), "kind": st.text(max_size=8), "payload": _json_values,
                                       "created_at": st.just("2026-12-03T08:00:00.123456+01:00")}), max_size=4))
def test_a_parsed_event_hashes_as_it_did_through_json(events: list[dict[str, Any]]) -> None:
    parsed = json.loads(json.dumps(events))
    previous = slow = GENESIS
    for event in parsed:
        previous, slow = event_hash(previous, event, parsed=True), event_hash(slow, event)
        assert previous == slow


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.sampled_from(["games", "events", "players", "tournament", "x"]), _json_values, max_size=5))
def test_the_signature_hashed_in_pieces_is_over_the_same_message(record: dict[str, Any]) -> None:
    digest = RecordDigest()
    for key, value in record.items():
        digest.digests[key] = __import__("hashlib").sha256(canonical(value)).hexdigest()
    assert record_message(record) == digest.message()
