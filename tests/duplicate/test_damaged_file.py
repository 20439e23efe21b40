"""A damaged database is never written and never hands over the judge's role (issue 36 §3).

The tournament file is damaged as the issue did it: an index's root page zeroed (SQLite's
``quick_check`` finds it, the commands that do not read that index used to write anyway),
and 16 KiB overwritten from the first page of ``tournament_access`` and of
``credentials`` — zeroed, and wiped to empty pages of the same kind (a damage
``quick_check`` does not see: the rows are gone, the file is consistent). Every write
command is refused in Spanish naming the damage and ``duplicada restore``, with a non-zero
status, no traceback, and the file's bytes as they were; ``tournament pin judge`` gives
the judge's role to nobody. A tournament from before credentials still gets its first
judge PIN.
"""

from __future__ import annotations

import contextlib
import hashlib
import shutil
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from sqlalchemy import event

from duplicate.service.errors import CredentialRefused, DamagedAccess, DamagedData
from duplicate.service.facade import TournamentService
from duplicate.storage.database import DatabaseDamaged, open_database
from lexicon.lexicon import Lexicon
from tests.credentials import JUDGE_PIN
from tests.duplicate.test_stations import database_url  # noqa: F401 — the sqlite/postgresql fixture
from tui.cli.main import main

STRANGER_PIN = "pin-de-un-extraño"
"""A PIN nobody gave: whoever holds the file and wants the judge's role."""

SPAN = 16 * 1024
"""Bytes overwritten over the access tables, as in the issue."""


def played(url: str, lexicon: Lexicon) -> TournamentService:
    """The judge's handle on a fresh tournament «Dañado» at ``url``: two players, game 1 with
    its rack and master."""
    service = TournamentService(open_database(url), station="mesa", lexicon=lexicon, pin=JUDGE_PIN)
    service.create_tournament("Dañado")
    for name in ("Ana", "Blas"):
        service.add_player(name)
    service.create_game(rounds=2, seed=1)
    service.set_rack(1, "CASAMOS")
    service.choose_master(1)
    return service


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory, spanish_lexicon: Lexicon) -> Path:
    """A tournament file (``played``, and a slip at table 2), checkpointed: all of it in the
    main file."""
    path = tmp_path_factory.mktemp("dañado") / "torneo.db"
    service = played(str(path), spanish_lexicon)
    service.enter_slip(1, 2, "H8-QZQZ")
    service.db.dispose()
    with contextlib.closing(sqlite3.connect(path)) as connection:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return path


def _root_page(path: Path, kind: str, name: str) -> int:
    with contextlib.closing(sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)) as connection:
        return int(connection.execute("SELECT rootpage FROM sqlite_master WHERE type = ? AND name = ?",
                                      (kind, name)).fetchone()[0])


def _page_size(path: Path) -> int:
    with contextlib.closing(sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)) as connection:
        return int(connection.execute("PRAGMA page_size").fetchone()[0])


def zeroed(data: bytes, offset: int, size: int, _page_size: int) -> bytes:
    """``data`` with ``size`` bytes from ``offset`` set to zero."""
    return data[:offset] + bytes(size) + data[offset + size:]


def wiped(data: bytes, offset: int, size: int, page_size: int) -> bytes:
    """``data`` with each page from ``offset`` (``size`` bytes, whole pages) rewritten as an
    empty b-tree leaf of its own kind (table or index): the rows are gone, yet the file is
    consistent — a damage ``quick_check`` does not see."""
    out = bytearray(data)
    for start in range(offset, offset + size, page_size):
        kind = out[start]
        leaf = 0x0A if kind in (0x02, 0x0A) else 0x0D          # index pages stay index pages
        page = bytearray(page_size)
        page[0] = leaf
        page[5:7] = page_size.to_bytes(2, "big")                 # cell content starts at the end: no cell
        out[start:start + page_size] = page
    return bytes(out)


Damage = Callable[[bytes, int, int, int], bytes]


def damaged_copy(pristine: Path, folder: Path, damage: Damage, kind: str, name: str, size: int | None = None) -> Path:
    """A copy of ``pristine`` in ``folder`` with ``damage`` applied from the root page of the
    table or index ``name`` (``kind``) over ``size`` bytes (default: that one page)."""
    path = folder / "torneo.db"
    shutil.copyfile(pristine, path)
    page_size = _page_size(path)
    offset = (_root_page(path, kind, name) - 1) * page_size
    path.write_bytes(damage(path.read_bytes(), offset, size or page_size, page_size))
    return path


def digest(path: Path) -> str:
    """The SHA-256 of the file and of its WAL, if any (what was written shows in either)."""
    wal = path.with_name(path.name + "-wal")
    return hashlib.sha256(path.read_bytes() + (wal.read_bytes() if wal.exists() else b"")).hexdigest()


def quick_check(path: Path) -> list[str]:
    with contextlib.closing(sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)) as connection:
        try:
            return [str(row[0]) for row in connection.execute("PRAGMA quick_check")]
        except sqlite3.DatabaseError as error:
            return [str(error)]


def command_line(monkeypatch: pytest.MonkeyPatch, path: Path, pin: str) -> Callable[..., Result]:
    monkeypatch.setenv("DUPLICADA_DB", str(path))
    monkeypatch.setenv("DUPLICADA_STATION", "mesa-1")
    monkeypatch.setenv("DUPLICADA_PIN", pin)

    def run(*args: str) -> Result:
        return CliRunner().invoke(main, list(args), prog_name="duplicada")

    return run


def write_commands(pin_file: Path) -> list[tuple[str, ...]]:
    """The writes of the issue: a slip, a player, the judge's PIN (read from ``pin_file``)."""
    return [("slip", "enter", "1", "H8-CASAMOS"), ("player", "add", "Zoe"),
            ("tournament", "pin", "juez", "--new-pin-file", str(pin_file))]


def assert_refused(result: Result, path: Path, *words: str) -> None:
    """Refused with status 1, a Spanish message naming the file, the damage, ``duplicada
    restore`` and a backup copy; no traceback."""
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit), result.exception
    output = " ".join(result.output.split())
    assert "Traceback" not in output
    assert str(path) in output and "dañad" in output, output
    assert "duplicada restore" in output and "copia de seguridad" in output, output
    for word in words:
        assert word in output, output


@pytest.mark.parametrize("index", ["ix_games_tournament_id", "ix_events_tournament_id",
                                   "sqlite_autoindex_players_1"])
def test_a_zeroed_index_page_is_never_written(pristine: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              index: str) -> None:
    # Issue 36 §3: «slip enter» and «player add» succeeded on a file integrity_check calls malformed.
    path = damaged_copy(pristine, tmp_path, zeroed, "index", index)
    assert quick_check(path) != ["ok"]
    pin_file = tmp_path / "pin-nuevo.txt"
    pin_file.write_text(STRANGER_PIN + "\n", encoding="utf-8")
    run = command_line(monkeypatch, path, JUDGE_PIN)
    before = digest(path)
    for command in write_commands(pin_file):
        assert_refused(run(*command), path, "quick_check")
        assert digest(path) == before, command


@pytest.mark.parametrize("table", ["tournament_access", "credentials"])
@pytest.mark.parametrize("damage", [zeroed, wiped], ids=["zeroed", "wiped"])
@pytest.mark.parametrize("pin", [JUDGE_PIN, STRANGER_PIN], ids=["judge", "stranger"])
def test_16_kib_over_the_access_tables_hand_the_judges_role_to_nobody(
        pristine: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, table: str, damage: Damage,
        pin: str) -> None:
    # Issue 36 §3: «este torneo aún no tiene PIN de juez árbitro», then «tournament pin
    # judge» took a new judge PIN from anyone.
    path = damaged_copy(pristine, tmp_path, damage, "table", table, SPAN)
    if damage is wiped:
        assert quick_check(path) == ["ok"]              # the logical check, not SQLite's, must see it
    pin_file = tmp_path / "pin-nuevo.txt"
    pin_file.write_text(STRANGER_PIN + "-2\n", encoding="utf-8")
    run = command_line(monkeypatch, path, pin)
    before = digest(path)
    for command in write_commands(pin_file):
        result = run(*command)
        assert_refused(result, path)
        assert "aún no tiene PIN" not in result.output
        assert digest(path) == before, command
    if damage is wiped:                                  # reads go on: the record can still be exported
        listed = run("player", "list")
        assert listed.exit_code == 0 and "Blas" in listed.output, listed.output


def test_a_tournament_whose_access_tables_were_wiped_is_exported_and_restored(
        pristine: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The way out the refusal points to: the log still reads, so it exports (unsigned: no
    # PIN opens the tournament any more) and ``duplicada restore`` makes a new database
    # whose judge is whoever restores it with the judge's PIN.
    for folder in ("uno", "dos"):
        (tmp_path / folder).mkdir()
    first = damaged_copy(pristine, tmp_path / "uno", wiped, "table", "tournament_access", SPAN)
    path = damaged_copy(first, tmp_path / "dos", wiped, "table", "credentials", SPAN)
    monkeypatch.delenv("DUPLICADA_PIN", raising=False)
    monkeypatch.setenv("DUPLICADA_DB", str(path))
    record = tmp_path / "registro.json"
    exported = CliRunner().invoke(main, ["export", str(record)], prog_name="duplicada")
    assert exported.exit_code == 0, exported.output
    restored_file = tmp_path / "nueva.db"
    run = command_line(monkeypatch, restored_file, JUDGE_PIN)
    restored = run("restore", str(record))
    assert restored.exit_code == 0, restored.output
    added = run("player", "add", "Zoe")
    assert added.exit_code == 0, added.output


@pytest.fixture
def service_on(spanish_lexicon: Lexicon) -> Iterator[Callable[[str], TournamentService]]:
    """``open(url)``: the judge's handle on a fresh tournament at ``url`` (two players, game 1
    with its rack and master)."""
    opened: list[TournamentService] = []

    def make(url: str) -> TournamentService:
        service = played(url, spanish_lexicon)
        opened.append(service)
        return service

    yield make
    for service in opened:
        service.db.dispose()


def _delete(service: TournamentService, *tables: str) -> None:
    """Lose the rows of ``tables`` as a damage would (on SQLite or PostgreSQL)."""
    with service.db.engine.begin() as connection:
        for table in tables:
            connection.exec_driver_sql(f"DELETE FROM {table}")  # noqa: S608 — test data


@pytest.mark.parametrize("lost", [("tournament_access",), ("credentials",), ("credentials", "tournament_access")])
def test_the_service_refuses_a_tournament_whose_access_rows_were_lost(
        database_url: str, service_on: Callable[[str], TournamentService], lost: tuple[str, ...]) -> None:  # noqa: F811
    judge = service_on(database_url)
    _delete(judge, "sign_in_sources", *lost)
    fresh = TournamentService(judge.db, station="otra", pin=JUDGE_PIN, lexicon=judge.context.lexicon)
    stranger = fresh.with_pin(STRANGER_PIN)
    with judge.db.read() as session:
        events = session.connection().exec_driver_sql("SELECT count(*) FROM events").scalar()
    for handle in (fresh, stranger):
        for action in (lambda h=handle: h.enter_slip(1, 1, "H8-CASAMOS"), lambda h=handle: h.add_player("Zoe"),
                       lambda h=handle: h.set_pin("judge", STRANGER_PIN + "-2"),
                       lambda h=handle: h.set_pin("assistant", "auxiliar-nuevo", name="aux")):
            with pytest.raises(DamagedAccess) as refused:
                action()
            assert isinstance(refused.value, DamagedData) and refused.value.tournament == "Dañado"
            expected = {"tournament_access": "tournament_access", "credentials": "judge_credential"}
            assert set(refused.value.missing) == {expected[table] for table in lost}
            assert "duplicada restore" in str(refused.value) and "«Dañado»" in str(refused.value)
    with judge.db.read() as session:
        assert session.connection().exec_driver_sql("SELECT count(*) FROM events").scalar() == events
        assert session.connection().exec_driver_sql("SELECT count(*) FROM credentials").scalar() == \
            (0 if "credentials" in lost else 1)
    assert len(judge.entries()) == 2                    # reads go on


def test_a_tournament_from_before_credentials_still_gets_its_first_judge_pin(
        tmp_path: Path, service_on: Callable[[str], TournamentService]) -> None:
    # As migration 0003 left a tournament made before credentials: no access row, no
    # credential, no key, and every event appended without a role.
    judge = service_on(f"sqlite:///{tmp_path / 'antiguo.db'}")
    _delete(judge, "sign_in_sources", "credentials", "tournament_access", "tournament_keys")
    with judge.db.engine.begin() as connection:
        connection.exec_driver_sql("UPDATE events SET role = ''")
    first = TournamentService(judge.db, station="otra", pin=STRANGER_PIN, lexicon=judge.context.lexicon)
    with pytest.raises(CredentialRefused, match="aún no tiene PIN de juez árbitro"):
        first.add_player("Zoe")
    first.set_pin("judge", STRANGER_PIN)
    first.add_player("Zoe")
    assert "Zoe" in [player.name for _entry, player in first.entries()]


def test_quick_check_runs_once_per_database_before_its_first_write(
        pristine: Path, tmp_path: Path, spanish_lexicon: Lexicon) -> None:
    path = tmp_path / "torneo.db"
    shutil.copyfile(pristine, path)
    database = open_database(str(path))
    checks: list[str] = []
    @event.listens_for(database.engine, "before_cursor_execute")
    def seen(_connection, _cursor, statement, *_args):  # type: ignore[no-untyped-def]
        if "quick_check" in statement:
            checks.append(statement)

    service = TournamentService(database, station="mesa", lexicon=spanish_lexicon, pin=JUDGE_PIN)
    service.entries()
    assert checks == []                                  # reads do not check
    service.add_player("Zoe")
    service.add_player("Yago")
    assert checks == ["PRAGMA quick_check"]              # the first write only
    database.dispose()


def test_a_damaged_file_is_not_migrated(pristine: Path, tmp_path: Path) -> None:
    path = damaged_copy(pristine, tmp_path, zeroed, "index", "ix_games_tournament_id")
    with contextlib.closing(sqlite3.connect(path)) as connection:
        connection.execute("UPDATE alembic_version SET version_num = '0011'")
        connection.commit()
    before = digest(path)
    with pytest.raises(DatabaseDamaged, match="duplicada restore"):
        open_database(str(path))
    assert digest(path) == before
