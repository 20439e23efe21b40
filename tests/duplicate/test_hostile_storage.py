"""A damaged database and secrets in URLs (issue 26 §3): every storage error is a Spanish
message naming the database, nothing is written, and no password is ever shown."""

from __future__ import annotations

import random
import shutil
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from duplicate.service.errors import StorageUnavailable, TournamentError
from duplicate.service.facade import TournamentService
from duplicate.storage.database import DatabaseDamaged, masked_url, open_database
from lexicon.lexicon import Lexicon
from tests.credentials import JUDGE_PIN
from tui.cli.main import main

COMMANDS = (("standings",), ("history", "--all"), ("player", "list"), ("tournament", "show"),
            ("slip", "enter", "1", "H8-QZQZ"), ("export", "{out}"))


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory, spanish_lexicon: Lexicon) -> Path:
    """A tournament file (game 1 at round 1, one slip), checkpointed: everything in the main file."""
    path = tmp_path_factory.mktemp("dañada") / "torneo.db"
    service = TournamentService(open_database(str(path)), station="mesa", lexicon=spanish_lexicon, pin=JUDGE_PIN)
    service.create_tournament("Dañada")
    for name in ("Ana", "Blas"):
        service.add_player(name)
    service.create_game(rounds=2, seed=1)
    service.set_rack(1, "CASAMOS")
    service.choose_master(1)
    service.enter_slip(1, 2, "H8-QZQZ")
    service.db.dispose()
    connection = sqlite3.connect(path)
    connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    connection.close()
    return path


def run_all(path: Path, monkeypatch: pytest.MonkeyPatch, out: Path) -> list[tuple[int, str]]:
    monkeypatch.setenv("DUPLICADA_DB", str(path))
    monkeypatch.setenv("DUPLICADA_PIN", JUDGE_PIN)
    monkeypatch.setenv("DUPLICADA_STATION", "mesa-1")
    results = []
    for command in COMMANDS:
        args = [part.format(out=out) for part in command]
        result = CliRunner().invoke(main, args)
        assert result.exception is None or isinstance(result.exception, SystemExit), (args, result.exception)
        results.append((result.exit_code, result.output))
    return results


@pytest.mark.parametrize(("table", "column", "value"), [
    ("events", "created_at", "no es una fecha"),
    ("tournaments", "start_date", "31-02-2026"),
    ("tournaments", "settings", "{dañado"),
    ("tournaments", "settings", "[1, 2]"),
    ("events", "payload", "[1,"),
    ("slips", "score", "abc"),
])
def test_a_corrupt_column_is_said_in_spanish_and_nothing_is_written(pristine: Path, tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch, table: str,
                                                                    column: str, value: str) -> None:
    path = tmp_path / "torneo.db"
    shutil.copyfile(pristine, path)
    connection = sqlite3.connect(path)
    connection.execute(f"UPDATE {table} SET {column} = ?", (value,))     # noqa: S608 — test data
    connection.commit()
    slips_before = connection.execute("SELECT count(*) FROM slips").fetchone()
    connection.close()
    results = run_all(path, monkeypatch, tmp_path / "registro.json")
    refused = [output for code, output in results if code == 1]
    assert refused and all(str(path) in output for output in refused)     # names the file
    connection = sqlite3.connect(path)
    assert connection.execute("SELECT count(*) FROM slips").fetchone() == slips_before or \
        results[4][0] == 0                                                 # the slip was stored only if it said so
    connection.close()


def test_damaged_pages_never_give_a_traceback(pristine: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Issue 26 §3: 31 of 168 damaged copies crashed («database disk image is malformed»…).
    size = pristine.stat().st_size
    rng = random.Random(26)
    for attempt in range(12):
        path = tmp_path / f"torneo-{attempt}.db"
        data = bytearray(pristine.read_bytes())
        page = rng.randrange(1, size // 4096)
        start = page * 4096 + rng.randrange(0, 4000)
        data[start:start + 64] = bytes(rng.randrange(256) for _ in range(64))
        path.write_bytes(bytes(data))
        run_all(path, monkeypatch, tmp_path / "registro.json")


def test_the_service_reports_damage_as_storage_unavailable(pristine: Path, tmp_path: Path) -> None:
    path = tmp_path / "torneo.db"
    shutil.copyfile(pristine, path)
    connection = sqlite3.connect(path)
    connection.execute("UPDATE events SET created_at = 'x'")
    connection.commit()
    connection.close()
    service = TournamentService(open_database(str(path)), station="mesa", pin=JUDGE_PIN)
    with pytest.raises(StorageUnavailable):
        service.history()
    with pytest.raises(TournamentError) as refused:
        service.add_player("N" * 300)                   # the service's own refusals stay what they are
    assert not isinstance(refused.value, StorageUnavailable)
    assert issubclass(DatabaseDamaged, Exception)


@pytest.mark.parametrize("url", [
    "postgresql+psycopg://juez:S3creto@127.0.0.1:1/test",
    "postgresql+psycopg://juez@127.0.0.1:1/test?password=S3creto",
    "postgresql+psycopg:///test?host=127.0.0.1&port=1&user=juez&password=S3creto",
    "postgresql+psycopg://juez@127.0.0.1:1/test?sslpassword=S3creto&PASSWORD=S3creto",
    "postgresql+psycopg://juez:S3c@reto@127.0.0.1:1/test",
    "postgresql+psycopg://juez:S3c@r:et@o@127.0.0.1:1/test",
    "postgresql+nodriver://juez@127.0.0.1/test?password=S3creto",
    "postgresql+psycopg://juez:S3c%40reto@127.0.0.1:1/test",
])
def test_no_password_of_a_url_is_ever_shown(url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from sqlalchemy.engine import make_url

    secrets = ("S3creto", "S3c", "reto", "r:et", "S3c@reto", "S3c%40reto")
    assert not any(secret in masked_url(url) for secret in secrets)
    try:
        parsed = make_url(url)
    except ValueError:
        parsed = None
    if parsed is not None:
        assert not any(secret in masked_url(parsed) for secret in secrets)
    monkeypatch.delenv("DUPLICADA_DB", raising=False)
    result = CliRunner().invoke(main, ["player", "list", "--db", url])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)
    assert not any(secret in result.output for secret in secrets), result.output
    assert "127.0.0.1" in result.output                                     # the server is still named


@pytest.mark.parametrize("statement", ["DELETE FROM players WHERE name = 'Ana'", "DELETE FROM entries WHERE id = 1",
                                       "DELETE FROM seats WHERE table_number = 1"])
def test_rows_missing_under_their_references_are_damage_not_a_traceback(pristine: Path, tmp_path: Path,
                                                                        statement: str) -> None:
    # Found by the fuzz harness's «pages» target: a FOREIGN KEY failure on insert, a seat or
    # an entry whose row is gone.
    path = tmp_path / "torneo.db"
    shutil.copyfile(pristine, path)
    connection = sqlite3.connect(path)
    connection.executescript(f"PRAGMA foreign_keys = OFF; {statement};")
    connection.close()
    service = TournamentService(open_database(str(path)), station="mesa", pin=JUDGE_PIN)
    for call in (service.entries, service.export, service.tournament_standings, lambda: service.game_standings(1),
                 lambda: service.enter_slip(1, 1, "H8-QZQZ"), lambda: service.enter_slip(1, 2, "H8-QZQZ")):
        try:
            call()
        except TournamentError:
            pass
