"""The command line: lexicon build, analyze (JSON lines, errors per line), play (issue 2, §3 and §8)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from duplicate.rules.game_record import GameRecord
from lexicon.lexicon import Lexicon
from tui.cli.main import main

WORDS = """CASA
casas
Perro
chorrillos
kiwi
1x
a
ÁRBOL
ola
sol
osa
osas
as
sa
la
las
al
""".splitlines()

EMPTY = "/".join(["15"] * 15)


@pytest.fixture()
def compiled(tmp_path: Path) -> Path:
    words = tmp_path / "words.txt"
    words.write_text("\n".join(WORDS) + "\n", encoding="utf-8")
    output = tmp_path / "small.lex"
    result = CliRunner().invoke(main, ["lexicon", "build", str(words), "-o", str(output)])
    assert result.exit_code == 0, result.output
    return output


def test_lexicon_build_reports_skipped_lines(compiled: Path) -> None:
    lexicon = Lexicon.load(compiled)
    assert lexicon.word_count == 14  # 17 lines, minus kiwi, 1x, a
    assert lexicon.contains_text("ARBOL") and lexicon.contains_text("CHORRILLOS")


def test_lexicon_build_output_names_examples(tmp_path: Path) -> None:
    words = tmp_path / "w.txt"
    words.write_text("casa\nkiwi\nwat\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["lexicon", "build", str(words), "-o", str(tmp_path / "x.lex")])
    assert result.exit_code == 0
    assert "1 palabras compiladas" in result.output
    assert "2 líneas descartadas" in result.output and "kiwi" in result.output


def test_lexicon_build_with_no_word_is_an_error(tmp_path: Path) -> None:
    words = tmp_path / "w.txt"
    words.write_text("kiwi\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["lexicon", "build", str(words), "-o", str(tmp_path / "x.lex")])
    assert result.exit_code != 0 and "ninguna palabra" in result.output


def test_analyze_first_move_and_bad_lines(compiled: Path) -> None:
    positions = f"{EMPTY} CASAS\nnot-a-board CASA\n{EMPTY} CASK\n{EMPTY} OLA\n"
    result = CliRunner().invoke(main, ["analyze", "--lexicon", str(compiled)], input=positions)
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.output.splitlines()]
    assert len(lines) == 4
    first = lines[0]
    # CASAS on the first move, H4-H8 or 8D-8H: C on the double letter (3*2) + A + S + A + S = 10, ×2 = 20.
    assert first["best_score"] == 20
    assert first["top_moves"] == sorted(first["top_moves"]) and "H4-CASAS" in first["top_moves"]
    assert first["master"] in first["top_moves"] and first["master"].startswith("H")
    assert first["legal_moves"] > len(first["top_moves"])
    assert lines[1]["line"] == 2 and "error" in lines[1]
    assert lines[2]["line"] == 3 and "K" in lines[2]["error"].upper()
    assert lines[3]["best_score"] > 0


def test_play_writes_a_record(compiled: Path, tmp_path: Path) -> None:
    out = tmp_path / "game.json"
    result = CliRunner().invoke(main, ["play", "--seed", "3", "--rounds", "4", "--lexicon", str(compiled),
                                       "--json", str(out)])
    assert result.exit_code == 0, result.output
    record = GameRecord.from_json(out.read_text(encoding="utf-8"))
    assert record.seed == 3
    assert record.lexicon_hash == Lexicon.load(compiled).content_hash
    assert sum(round_.score for round_ in record.rounds) == record.total
    assert "Fin de la partida" in result.output


def test_missing_lexicon_is_a_clear_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["play", "--lexicon", str(tmp_path / "nope.lex")])
    assert result.exit_code != 0 and "nope.lex" in result.output


def test_lexicon_words_lists_a_lexicon_that_builds_back_the_same(compiled: Path, tmp_path: Path) -> None:
    # Issue 15: «lexicon words» prints any compiled lexicon in the notation the project reads,
    # so lists can be compared; built again, the list gives the same lexicon (same hash).
    result = CliRunner().invoke(main, ["lexicon", "words", "--lexicon", str(compiled)])
    assert result.exit_code == 0, result.output
    listed = result.output.splitlines()
    assert listed == sorted(listed, key=lambda word: Lexicon.load(compiled).alphabet.word_codes(word))
    again = tmp_path / "again.txt"
    again.write_text(result.output, encoding="utf-8")
    rebuilt = CliRunner().invoke(main, ["lexicon", "build", str(again), "-o", str(tmp_path / "again.lex")])
    assert rebuilt.exit_code == 0, rebuilt.output
    assert Lexicon.load(tmp_path / "again.lex").content_hash == Lexicon.load(compiled).content_hash
    assert len(listed) == Lexicon.load(compiled).word_count
