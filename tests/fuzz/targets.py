"""The fuzz harness's targets (issue 14 §1): every way an untrusted input enters, each
with the one error it may raise. Anything else raised is a crash.

Used by ``tests/duplicate/test_fuzz.py`` (Hypothesis, a CI-sized sample) and by
``bench/fuzz.py`` (≥ 100,000 inputs, the figure quoted in ``docs/robustness.md``).
The inputs are built from ``corpus.txt`` (nasty strings kept here) and random text.
"""

from __future__ import annotations

import codecs
import json
import random
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from duplicate.rack import parse_rack_text
from duplicate.service import TournamentError, TournamentService
from duplicate.slips import judge_slip
from duplicate.verify import RecordError, load_record, verify_record
from lexicon.board import Board
from lexicon.default import read_lines
from lexicon.lexicon import Lexicon, LexiconError, build
from tui.cli.engine_commands import analyze_position

CORPUS_FILE = Path(__file__).with_name("corpus.txt")


def corpus() -> list[str]:
    """The nasty inputs of ``corpus.txt`` (Python escapes decoded; lone surrogates kept)."""
    lines = CORPUS_FILE.read_text(encoding="utf-8").splitlines()
    return [codecs.decode(line, "unicode_escape", errors="surrogatepass") if "\\" in line else line
            for line in lines if line and not line.startswith("# ")]


class Crash(AssertionError):
    """An input made a target raise something other than its own error."""


@dataclass
class Targets:
    """The targets, sharing one tournament (a game at round 1 with its master), the
    lexicon and a scratch folder."""

    service: TournamentService
    lexicon: Lexicon
    folder: Path
    record: dict[str, Any]

    def slip(self, text: str) -> None:
        """A slip through the judge (any text: a verdict, never an exception) and the
        service (``TournamentError`` allowed: refused, nothing stored)."""
        view = self.service.rounds(1)[-1]
        board = Board.from_cgp(view.board_before, self.lexicon.alphabet)
        judge_slip(board, parse_rack_text(view.rack, self.lexicon.alphabet), text, self.lexicon)
        try:
            self.service.enter_slip(1, 1, text)
        except TournamentError:
            pass

    def analyze(self, line: str) -> None:
        """An ``analyze`` line: a result or ``{"error": …}``, never an exception."""
        result = analyze_position(line, self.lexicon)
        if not isinstance(result, dict):
            raise Crash(f"analyze devolvió {result!r}")

    def players_csv(self, text: str) -> None:
        """A players' CSV file (all or nothing: ``TournamentError`` allowed)."""
        path = self.folder / "jugadores.csv"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        try:
            self.service.import_players(path)
        except TournamentError:
            pass

    def word_list(self, data: bytes, suffix: str = ".txt") -> None:
        """A word list file, plain or compressed (``LexiconError`` allowed)."""
        path = self.folder / f"palabras{suffix}"
        path.write_bytes(data)
        try:
            build(read_lines(path), self.folder / "palabras.lex", source=path.name)
        except LexiconError:
            pass

    def trf(self, text: str) -> None:
        """A TRF-16 file for ``classic pair`` (``TrfError`` allowed; once read, the next
        round is paired by gacrux or refused with ``PairingError``, never another error)."""
        from ranking.classic.engines import PairingError, PairingSystem, pair_next_round
        from ranking.classic.trf import TrfError, decode, read_trf

        try:
            trf = read_trf(decode(text.encode("utf-8", "surrogatepass")))
        except TrfError:
            return
        try:
            pair_next_round(trf, PairingSystem.DUTCH_2026)
        except PairingError:
            pass

    def record_text(self, text: str) -> None:
        """A tournament record file for ``verify`` (``RecordError`` allowed; once read,
        differences are reported, never raised)."""
        path = self.folder / "registro.json"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        try:
            record = load_record(path)
        except RecordError:
            return
        verify_record(record, self.lexicon)


def make_targets(folder: Path, lexicon: Lexicon) -> Targets:
    """A tournament of 3 players (game 1, round 1: rack CASAMO?, master placed), and its record."""
    from duplicate.storage.database import open_database

    service = TournamentService(open_database(str(folder / "fuzz.db")), station="fuzz", lexicon=lexicon,
                                pin="juez-de-prueba")
    service.create_tournament("Fuzz", judge_name="Lucía")
    for name in ("Ana", "Blas", "Carmen"):
        service.add_player(name)
    service.create_game(rounds=3, seed=11)
    service.set_rack(1, "CASAMO?")
    master = service.choose_master(1).master
    assert master is not None
    service.enter_slip(1, 2, master)
    service.enter_slip(1, 3, "H8-QZQZ")
    record = json.loads(json.dumps(service.export()))
    return Targets(service, lexicon, folder, record)


# --- random inputs from the corpus (bench/fuzz.py; Hypothesis has its own) -----------------------
NASTY_CHARACTERS = "\x00\x1b\n\r\t\ud800\udfff\u202e\u200b\ufeff\u0301٨８¹[](){}\"',;=+-@→↓?" + "HhCcLlRrÑñ8159AEIOU"


def mutated(text: str, rng: random.Random, pieces: list[str]) -> str:
    """``text`` with a few random edits: characters inserted, deleted or replaced, a
    corpus piece spliced in, a run repeated."""
    chars = list(text)
    for _ in range(rng.randint(1, 4)):
        choice = rng.random()
        position = rng.randint(0, len(chars))
        if choice < 0.3:
            chars.insert(position, rng.choice(NASTY_CHARACTERS))
        elif choice < 0.5 and chars:
            del chars[min(position, len(chars) - 1)]
        elif choice < 0.7 and chars:
            chars[min(position, len(chars) - 1)] = rng.choice(NASTY_CHARACTERS)
        elif choice < 0.9:
            chars[position:position] = list(rng.choice(pieces))
        else:
            chars[position:position] = list(rng.choice(NASTY_CHARACTERS) * rng.choice((2, 50, 5000)))
    return "".join(chars)


def mutated_record(record: dict[str, Any], rng: random.Random, pieces: list[str]) -> str:
    """The record as JSON with one value somewhere replaced (or a key removed)."""
    copy = json.loads(json.dumps(record))
    node: Any = copy
    for _ in range(rng.randint(1, 6)):
        if isinstance(node, dict) and node:
            key = rng.choice(list(node))
            if rng.random() < 0.3 or not isinstance(node[key], (dict, list)) or not node[key]:
                replacement = rng.choice([None, -1, 0, 10**30, 1.5, "", "???????", "H8-QZQZ", [], {}, True,
                                          rng.choice(pieces), "x" * 5000])
                if rng.random() < 0.15:
                    del node[key]
                else:
                    node[key] = replacement
                break
            node = node[key]
        elif isinstance(node, list) and node:
            node = rng.choice(node)
        else:
            break
    return json.dumps(copy, ensure_ascii=False)


def run_one(targets: Targets, kind: str, rng: random.Random, pieces: list[str]) -> Callable[[], None]:
    """A random input for the target ``kind``, ready to run."""
    seed = rng.choice(pieces)
    if kind == "slip":
        text = mutated(rng.choice(["H8-CASAMOS", "8H-CASAMO", "H8-[ch]ORRO", seed]), rng, pieces)
        return lambda: targets.slip(text)
    if kind == "analyze":
        base = "/".join(["15"] * 15)
        text = mutated(rng.choice([f"{base} CASAMO?", f"{base} AE??RST", seed]), rng, pieces)
        return lambda: targets.analyze(text)
    if kind == "csv":
        text = mutated(rng.choice(["nombre,club\nAna,Club\n", "nombre;club;pais\nBlas;C;ES\n", seed]), rng, pieces)
        return lambda: targets.players_csv(text)
    if kind == "words":
        data = mutated(rng.choice(["casa\nperro\nñu\n", "chorro\nllave\n", seed]), rng, pieces).encode(
            "utf-8", "surrogatepass")
        suffix = rng.choice([".txt", ".txt", ".xz", ".gz", ".bz2"])
        if suffix != ".txt" and rng.random() < 0.5:
            import bz2
            import gzip
            import lzma

            packed = {".xz": lzma.compress, ".gz": gzip.compress, ".bz2": bz2.compress}[suffix](data)
            data = packed[: rng.randint(0, len(packed))]           # often cut short
        return lambda: targets.word_list(data, suffix)
    if kind == "trf":
        text = mutated(rng.choice([GROS_TRF, GROS_TRF, seed]), rng, pieces)
        return lambda: targets.trf(text)
    text = mutated_record(targets.record, rng, pieces)
    return lambda: targets.record_text(text)


KINDS = ("slip", "analyze", "csv", "words", "record", "trf")
GROS_TRF = (Path(__file__).resolve().parent.parent / "ranking" / "data" / "gros-2010.trf").read_text(encoding="utf-8")
"""A real TRF (tests/ranking/data) for the ``trf`` target to mutate."""


def scratch() -> tempfile.TemporaryDirectory[str]:
    """A scratch folder for a run of the harness."""
    return tempfile.TemporaryDirectory(prefix="duplicada-fuzz-")
