"""The fuzz harness, CI-sized (issue 14 §1): slips, analyze lines, players' CSV files,
word lists, tournament records and TRF files (issue 16), and (issue 26 §3) CSV sniffer
traps and slips' CSV files, numbers out of range (service and command line), station
names and damaged database pages — the corpus of nasty inputs kept in
``tests/fuzz/corpus.txt``, then Hypothesis's own. Each target may raise only its own
error (``tests/fuzz/targets.py``); ``bench/fuzz.py`` runs the same targets on 100,000+
inputs."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from lexicon.lexicon import Lexicon
from tests.fuzz.targets import KINDS, Targets, corpus, make_targets, mutated_record, run_one

CORPUS = corpus()
FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                          HealthCheck.too_slow])
texts = st.one_of(st.sampled_from(CORPUS), st.text(max_size=120),
                  st.from_regex(r"[A-Oa-o]?[0-9]{1,3}[A-Oa-o]?[ \-→]?[A-Za-zÑñ\[\]()?]{0,20}", fullmatch=True))


@pytest.fixture(scope="module")
def targets(tmp_path_factory: pytest.TempPathFactory, spanish_lexicon: Lexicon) -> Targets:
    return make_targets(tmp_path_factory.mktemp("fuzz"), spanish_lexicon)


def test_the_corpus_is_there_and_nasty() -> None:
    assert len(CORPUS) > 60
    assert any("\x00" in text for text in CORPUS) and any("\ud800" in text for text in CORPUS)
    assert any(text.startswith("=") for text in CORPUS) and any("[/]" in text for text in CORPUS)


def test_every_corpus_input_through_every_target(targets: Targets) -> None:
    base = "/".join(["15"] * 15)
    for text in CORPUS:
        targets.slip(text)
        targets.analyze(text)
        targets.analyze(f"{base} {text}")
        targets.players_csv(f"nombre,club\n{text},{text}\n")
        targets.word_list(text.encode("utf-8", "surrogatepass"))
        targets.record_text(text)
        targets.trf(text)
    assert targets.service.slips(1, 1)                       # the good slips among them were stored


@FAST
@given(text=texts)
def test_slips(targets: Targets, text: str) -> None:
    targets.slip(text)


@FAST
@given(line=st.one_of(texts, texts.map(lambda rack: "/".join(["15"] * 15) + " " + rack),
                      st.text(alphabet="0123456789/?ABCÑ[]ch ", max_size=80)))
def test_analyze_lines(targets: Targets, line: str) -> None:
    targets.analyze(line)


@FAST
@given(text=st.one_of(st.text(max_size=200), texts.map(lambda cell: f"nombre,club\n{cell},x\n"),
                      st.text(alphabet='nombre,club;"\n\r\tAna=@+-', max_size=80)))
def test_players_csv(targets: Targets, text: str) -> None:
    targets.players_csv(text)


@FAST
@given(data=st.binary(max_size=300), suffix=st.sampled_from([".txt", ".xz", ".gz", ".bz2"]))
def test_word_lists(targets: Targets, data: bytes, suffix: str) -> None:
    targets.word_list(data, suffix)


@FAST
@given(seed=st.integers(0, 2**32 - 1))
def test_records(targets: Targets, seed: int) -> None:
    targets.record_text(mutated_record(targets.record, random.Random(seed), CORPUS))


@FAST
@given(seed=st.integers(0, 2**32 - 1))
def test_trf_files(targets: Targets, seed: int) -> None:
    # Issue 16: a TRF for «classic pair»: TrfError or a pairing (PairingError), nothing else.
    run_one(targets, "trf", random.Random(seed), CORPUS)()


SMALL = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                         HealthCheck.too_slow])


@SMALL
@given(seed=st.integers(0, 2**32 - 1), kind=st.sampled_from(["csv_trap", "numbers", "station", "pages"]))
# A damaged page whose last event's time does not parse, met by a player added through the
# batch append (issue 38): it raised ValueError instead of saying the database is damaged.
@example(seed=8388609, kind="pages")
def test_issue_26_targets(targets: Targets, seed: int, kind: str) -> None:
    # Sniffer traps, out-of-range numbers, station names, damaged pages: their own errors only.
    run_one(targets, kind, random.Random(seed), CORPUS)()


def test_a_sniffer_trap_reads_without_the_sniffer(targets: Targets, monkeypatch: pytest.MonkeyPatch) -> None:
    import csv

    from tests.fuzz.targets import sniffer_trap

    def no_sniffer() -> None:
        raise AssertionError("csv.Sniffer backtracks on these lines")

    monkeypatch.setattr(csv, "Sniffer", no_sniffer)
    rng = random.Random(7)
    for _ in range(20):
        targets.players_csv(f"{sniffer_trap(rng)}\nAna,Club\n")
        targets.slips_csv(f"{sniffer_trap(rng)}\n1,H8-QZQZ\n")


def test_the_pages_target_damages_a_copy_only(targets: Targets) -> None:
    before = len(targets.service.history())
    rng = random.Random(3)
    for _ in range(10):
        run_one(targets, "pages", rng, CORPUS)()
    assert len(targets.service.history()) == before                 # the fuzz tournament itself untouched


def test_a_mixed_random_sample(targets: Targets) -> None:
    # The benchmark's generator, a few hundred inputs (bench/fuzz.py runs 100,000+).
    rng = random.Random(2026)
    for index in range(300):
        run_one(targets, KINDS[index % len(KINDS)], rng, CORPUS)()


def test_the_harness_finds_a_crash(targets: Targets, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # The harness can fail: a parser that raises what it should not is caught.
    import tests.fuzz.targets as module

    def broken(line: str, lexicon: Lexicon) -> dict[str, object]:
        raise KeyError(line)

    monkeypatch.setattr(module, "analyze_position", broken)
    with pytest.raises(KeyError):
        targets.analyze("x")
