"""The fuzz harness's targets (issue 14 §1, issue 26 §3): every way an untrusted input
enters, each with the one error it may raise. Anything else raised is a crash.

Issue 26 added: CSV files whose header line is a ``csv.Sniffer`` trap and slips' CSV files
(``csv_trap``), numbers out of every range through the service and the command line
(``numbers``), station names through the service and ``--station`` (``station``), and
copies of the tournament database with damaged pages or columns (``pages``).

Used by ``tests/duplicate/test_fuzz.py`` (Hypothesis, a CI-sized sample) and by
``bench/fuzz.py`` (≥ 100,000 inputs, the figure quoted in ``docs/robustness.md``).
The inputs are built from ``corpus.txt`` (nasty strings kept here) and random text.
"""

from __future__ import annotations

import codecs
import json
import random
import sqlite3
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from duplicate.record.reading import RecordError, load_record
from duplicate.record.verify import verify_record
from duplicate.rules.rack import parse_rack_text
from duplicate.rules.slips import judge_slip
from duplicate.rules.statuses import EntryStatus
from duplicate.service.errors import TournamentError
from duplicate.service.facade import TournamentService
from duplicate.service.settings import TournamentSettings
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
    pristine: bytes = b""
    """The tournament database's bytes after the set-up (WAL checkpointed), for ``pages``."""

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


    # --- issue 26 §3 -------------------------------------------------------------------------------
    def slips_csv(self, text: str) -> None:
        """A slips' CSV file for game 1 (all or nothing: ``TournamentError`` allowed)."""
        path = self.folder / "papeletas.csv"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        try:
            self.service.import_slips(1, path)
        except TournamentError:
            pass

    def number(self, value: Any, entry: int) -> None:
        """``value`` (any number, in range or not) through one of the service's numeric
        parameters, chosen by ``entry`` (``TournamentError`` allowed)."""
        calls: list[Callable[[], object]] = [
            lambda: self.service.enter_slip(value, 1, "H8-QZQZ"),
            lambda: self.service.enter_slip(1, value, "H8-QZQZ"),
            lambda: self.service.enter_slip(1, 1, "H8-QZQZ", round_number=value),
            lambda: self.service.slips(1, value),
            lambda: self.service.entries(value),
            lambda: self.service.set_entry_status(value, EntryStatus.ACTIVE),
            lambda: self.service.resolve_conflict(value, use_new=False),
            lambda: self.service.file_claim(1, 1, value, "texto"),
            lambda: self.service.game_standings(value),
            lambda: TournamentSettings(seconds_per_round=value),
            lambda: TournamentSettings(bonus_value=value),
            lambda: self.service.choose_master(1, value),
        ]
        try:
            calls[entry % len(calls)]()
        except TournamentError:
            pass

    def cli(self, args: list[str], database: str = "fuzz.db") -> None:
        """A command line on the fuzz tournament (or on ``database``, another file of the
        scratch folder, for commands that would create a tournament): exit 0–3 with a
        message, never a traceback."""
        from click.testing import CliRunner

        from tui.cli.main import main

        result = CliRunner().invoke(main, args, env={"DUPLICADA_DB": str(self.folder / database),
                                                    "DUPLICADA_PIN": "juez-de-prueba",
                                                    "DUPLICADA_STATION": "fuzz"})
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise Crash(f"{args!r}: {type(result.exception).__name__}: {result.exception}") from result.exception
        if result.exit_code not in (0, 1, 2, 3):
            raise Crash(f"{args!r}: estado {result.exit_code}")

    def station(self, text: str) -> None:
        """A station name: refused by the service (``TournamentError``) or stored, and then
        printed by ``history`` with no control character reaching the terminal."""
        try:
            other = TournamentService(self.service.db, station=text, lexicon=self.lexicon, pin="juez-de-prueba")
        except TournamentError:
            return
        try:
            other.enter_slip(1, 3, "H8-QZQZ")
        except TournamentError:
            pass

    def pages(self, damage: Callable[[Path], None]) -> None:
        """A copy of the tournament database ``damage``d: each read and a write either
        works or is a ``TournamentError`` (``StorageUnavailable``: Spanish, naming the file)."""
        from duplicate.service.opening import open_database_for

        path = self.folder / "dañada.db"
        for suffix in ("-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
        path.write_bytes(self.pristine)
        damage(path)
        try:
            database = open_database_for(str(path))
        except TournamentError:
            return
        try:
            service = TournamentService(database, station="fuzz", lexicon=self.lexicon, pin="juez-de-prueba")
            for call in (service.entries, service.history, lambda: service.game_standings(1), service.export,
                         service.tournament_standings, lambda: service.slips(1, 1),
                         lambda: service.add_player("Dora"), lambda: service.enter_slip(1, 1, "H8-QZQZ")):
                try:
                    call()
                except TournamentError:
                    pass
        finally:
            database.dispose()


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
    connection = sqlite3.connect(folder / "fuzz.db")
    connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    connection.close()
    return Targets(service, lexicon, folder, record, (folder / "fuzz.db").read_bytes())


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
    if kind == "csv_trap":
        return _csv_trap(targets, rng, pieces)
    if kind == "numbers":
        return _numbers(targets, rng, pieces)
    if kind == "station":
        text = mutated(rng.choice(["mesa-1", "aux", seed]), rng, pieces)
        if rng.random() < 0.2:
            return lambda: targets.cli(["history", "--station", text])
        return lambda: targets.station(text)
    if kind == "pages":
        return _pages(targets, rng)
    text = mutated_record(targets.record, rng, pieces)
    return lambda: targets.record_text(text)


def sniffer_trap(rng: random.Random) -> str:
    """A header line of the kind on which ``csv.Sniffer`` backtracks (quotes, separators,
    spaces and letters in long runs; 150–1,000 characters)."""
    unit = rng.choice(['"', '" ', "'", ',"', '";', "\"\t", '"a'])
    head = rng.choice([',"a",', '"a",', ';"a";', "\t'a'\t", ""])
    return head + unit * rng.randint(50, 500) + rng.choice(["x", "", ",", "\n"])


ODD_NUMBERS = ("²", "¹", "³", "١", "٣", "1²", "0", "-1", "+1", "1.0", "1e3", " 1", "1,", "9" * 11, "9" * 5000,
               str(2**31 - 1), str(2**31), str(2**63), "", "0x1F")
"""Table, round and id texts that are not what an ``INTEGER`` column holds (or only just are)."""


def _csv_trap(targets: Targets, rng: random.Random, pieces: list[str]) -> Callable[[], None]:
    """A players' or slips' CSV with a sniffer-trap header, odd numbers or trailing commas."""
    if rng.random() < 0.5:
        header = sniffer_trap(rng) if rng.random() < 0.6 else "nombre,club"
        text = f"{header}\n{mutated('Ana,Club', rng, pieces)}\n"
        return lambda: targets.players_csv(text)
    header = rng.choice(["mesa,jugada", "mesa;jugada;ronda", "mesa,jugada,", sniffer_trap(rng)])
    rows = [f"{rng.choice(ODD_NUMBERS + ('1', '2', '3'))},{rng.choice(['H8-QZQZ', '', mutated('H8-CASA', rng, pieces)])}"
            f"{rng.choice(['', ',', ',,', ',' + rng.choice(ODD_NUMBERS)])}" for _ in range(rng.randint(1, 4))]
    text = header + "\n" + "\n".join(rows) + "\n"
    return lambda: targets.slips_csv(text)


def _numbers(targets: Targets, rng: random.Random, pieces: list[str]) -> Callable[[], None]:
    """An integer out of (or at the edge of) its range, through the service or the command line."""
    value: Any = rng.choice([0, -1, 1, 2**31 - 1, 2**31, 2**63 - 1, 2**63, 10**20, -(2**63), 10**5000 - 1,
                             True, 1.5, float("nan"), "1", None])
    if rng.random() < 0.6:
        entry = rng.randrange(1000)
        return lambda: targets.number(value, entry)
    text = rng.choice(ODD_NUMBERS + (str(value) if isinstance(value, int) and value < 10**100 else "1", rng.choice(pieces)))
    args = rng.choice([["slip", "enter", text, "H8-QZQZ"], ["slip", "list", "--game", text],
                       ["slip", "list", "--round", text], ["player", "list", "--tournament", text],
                       ["player", "status", text, "active"], ["slip", "resolve", text],
                       ["claim", "file", "1", text, "x"], ["claim", "resolve", text, "--upheld", "--resolution", "x"],
                       ["assistant", "set", "aux", "1", text], ["elodi", "report", "--game", text],
                       ["game", "start", "--seed", text], ["tournament", "create", "T", "--seconds", text],
                       ["tournament", "create", "T", "--bonus-value", text], ["standings", "--game", text],
                       ["tables", "show", "--game", text], ["master", "choose", text], ["elodi", "history", text]])
    database = "otra.db" if args[:2] == ["tournament", "create"] else "fuzz.db"    # the fuzz tournament stays newest
    return lambda: targets.cli(args, database)


def _pages(targets: Targets, rng: random.Random) -> Callable[[], None]:
    """A damage to the database copy: random bytes over part of a page, a page zeroed, or
    a column given a value that does not parse (a datetime, JSON, a text for a number)."""
    size = len(targets.pristine)
    choice = rng.random()
    if choice < 0.5:
        start = rng.randrange(100, size)
        junk = bytes(rng.randrange(256) for _ in range(rng.choice([1, 8, 64, 512])))

        def damage(path: Path) -> None:
            with path.open("r+b") as handle:
                handle.seek(start)
                handle.write(junk)
    elif choice < 0.65:
        page = rng.randrange(1, max(2, size // 4096))

        def damage(path: Path) -> None:
            with path.open("r+b") as handle:
                handle.seek(page * 4096)
                handle.write(bytes(4096))
    else:
        table, column = rng.choice([("events", "created_at"), ("events", "payload"), ("tournaments", "settings"),
                                    ("tournaments", "start_date"), ("tournaments", "created_at"),
                                    ("slips", "score"), ("rounds", "board_before"), ("games", "seed"),
                                    ("entries", "status"), ("players", "name"), ("rounds", "rack"),
                                    ("games", "status"), ("seats", "table_number")])
        value: Any = rng.choice(["", "x", "{", "[1,", "[1, 2]", '{"bonus_value": "x"}', "2026-13-45", -1,
                                 2**62, "\x00", "NaN", "nul\x1b]0;t\x07", 1.5])

        def damage(path: Path) -> None:
            connection = sqlite3.connect(path)
            try:
                connection.execute(f"UPDATE {table} SET {column} = ?", (value,))  # noqa: S608 — fuzz data
                connection.commit()
            except sqlite3.Error:
                pass
            finally:
                connection.close()
    return lambda: targets.pages(damage)


KINDS = ("slip", "analyze", "csv", "words", "record", "trf", "csv_trap", "numbers", "station", "pages")
GROS_TRF = (Path(__file__).resolve().parent.parent / "ranking" / "data" / "gros-2010.trf").read_text(encoding="utf-8")
"""A real TRF (tests/ranking/data) for the ``trf`` target to mutate."""


def scratch() -> tempfile.TemporaryDirectory[str]:
    """A scratch folder for a run of the harness."""
    return tempfile.TemporaryDirectory(prefix="duplicada-fuzz-")
