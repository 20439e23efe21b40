"""Hostile input on the command line (issue 26 §3): numbers out of range, ``--station``,
PIN and lexicon files that are not files, stored text printed to terminals, secrets in
URLs. Each is a Spanish refusal (exit 1 or 2), never a traceback."""

from __future__ import annotations

from pathlib import Path

import click
import pytest
from click.testing import CliRunner, Result

from tests.credentials import JUDGE_PIN
from tests.duplicate.test_stations import database_url  # noqa: F401 — the fixture: SQLite and PostgreSQL
from tui.cli.main import main

BIG = str(2**31)
"""One more than an ``INTEGER`` column holds on PostgreSQL."""


@pytest.fixture
def run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("DUPLICADA_DB", str(tmp_path / "torneo.db"))
    monkeypatch.setenv("DUPLICADA_STATION", "mesa-1")
    monkeypatch.setenv("DUPLICADA_PIN", JUDGE_PIN)
    runner = CliRunner()

    def invoke(*args: str, code: int = 0) -> Result:
        result = runner.invoke(main, list(args))
        assert result.exit_code == code, (result.output, result.exception)
        if code:
            assert isinstance(result.exception, SystemExit), result.exception    # a refusal, not a crash
        return result

    return invoke


@pytest.fixture
def started(run):
    run("tournament", "create", "T")
    for name in ("Ana", "Blas"):
        run("player", "add", name)
    run("game", "start", "--rounds", "2", "--seed", "3")
    return run


def all_commands(command: click.Command, path: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], click.Command]]:
    found = [(path, command)]
    if isinstance(command, click.Group):
        context = click.Context(command)
        for name in command.list_commands(context):
            sub = command.get_command(context, name)
            assert sub is not None
            found += all_commands(sub, (*path, name))
    return found


def test_every_number_on_the_command_line_has_its_range() -> None:
    # Issue 26 §3: an unbounded integer reaches the database (PostgreSQL ≥ 2³¹, SQLite ≥ 2⁶³).
    unbounded = []
    for path, command in all_commands(main):
        for param in command.params:
            kind = param.type
            if isinstance(kind, click.types.IntParamType) and not (
                    isinstance(kind, click.IntRange) and kind.min is not None and kind.max is not None):
                unbounded.append(f"{' '.join(path)} {param.name}")
    assert unbounded == []


@pytest.mark.parametrize("args", [
    ("tournament", "create", "X", "--seconds", "100000000000000000000"),
    ("tournament", "create", "X", "--seconds", "1e20"),
    ("tournament", "create", "X", "--bonus-value", "1000000"),
    ("player", "list", "--tournament", BIG),
    ("player", "status", BIG, "active"),
    ("game", "start", "--seed", BIG),
    ("game", "start", "--seed", "9" * 5000),
    ("game", "start", "--seconds", "100000"),
    ("slip", "enter", BIG, "H8-CASA"),
    ("slip", "list", "--game", BIG),
    ("slip", "list", "--round", BIG),
    ("slip", "resolve", BIG),
    ("claim", "file", "1", BIG, "texto"),
    ("claim", "resolve", BIG, "--upheld", "--resolution", "x"),
    ("assistant", "set", "aux", "1", BIG),
    ("elodi", "report", "--game", BIG),
])
def test_out_of_range_numbers_are_refused_before_the_database(started, args: tuple[str, ...]) -> None:
    result = started(*args, code=2)
    assert "9" * 100 not in result.output                     # a long number is not echoed back whole


def test_a_huge_round_clock_never_reaches_a_game(run) -> None:
    run("tournament", "create", "T", "--seconds", "100000000000000000000", code=2)
    assert "no existe la base de datos" in run("player", "list", code=1).output     # nothing was created


def test_the_service_checks_the_same_ranges(tmp_path: Path) -> None:
    from duplicate.rules.statuses import EntryStatus
    from duplicate.service.errors import TournamentError
    from duplicate.service.facade import TournamentService
    from duplicate.service.settings import TournamentSettings
    from duplicate.service.opening import open_database_for

    for settings in ({"seconds_per_round": 10**20}, {"bonus_value": 10**6}, {"partial_every": 2**31}):
        with pytest.raises(TournamentError):
            TournamentSettings(**settings)                                  # type: ignore[arg-type]
    service = TournamentService(open_database_for(str(tmp_path / "t.db")), pin=JUDGE_PIN)
    service.create_tournament("T")
    service.add_player("Ana")
    for call in (lambda: service.create_game(seed=2**63), lambda: service.create_game(seconds_per_round=10**20),
                 lambda: service.create_game(rounds=2**31), lambda: service.entries(2**63),
                 lambda: service.set_entry_status(2**31, EntryStatus.ACTIVE)):
        with pytest.raises(TournamentError):
            call()
    number = service.create_game(rounds=1, seed=2**31 - 1)
    for call in (lambda: service.enter_slip(number, 2**31, "H8-CASA"), lambda: service.slips(2**31, None),
                 lambda: service.resolve_conflict(2**40, use_new=True)):
        with pytest.raises(TournamentError):
            call()


@pytest.mark.parametrize("station", ["\udcff\udcfe", "x" * 101, "puesto\x1b]0;hola\x07", "mesa\r1", "mesa\u202e1"])
def test_the_station_name_is_checked_like_every_text(started, monkeypatch: pytest.MonkeyPatch, station: str) -> None:
    # «--station» with invalid UTF-8 (surrogate-escaped by Python), too long, or with control characters.
    events = started("history", "--all").output.count("\n")
    started("player", "add", "Eva", "--station", station, code=2)
    monkeypatch.setenv("DUPLICADA_STATION", station)
    started("player", "add", "Eva", code=2)
    monkeypatch.setenv("DUPLICADA_STATION", "mesa-1")
    assert started("history", "--all").output.count("\n") == events and "Eva" not in started("player", "list").output


def test_the_service_checks_the_station_too(tmp_path: Path) -> None:
    from duplicate.service.errors import TournamentError
    from duplicate.service.facade import TournamentService
    from duplicate.service.opening import open_database_for

    database = open_database_for(str(tmp_path / "t.db"))
    for station in ("x" * 101, "a\x1bb", "a\u200bb", "\ud800"):
        with pytest.raises(TournamentError):
            TournamentService(database, station=station)


def test_stored_text_reaches_the_terminal_with_control_characters_visible(started, tmp_path: Path) -> None:
    # Text stored before these checks existed (or through another door) is printed inert.
    import sqlite3

    connection = sqlite3.connect(tmp_path / "torneo.db")
    connection.execute("UPDATE events SET station = ?, reason = ?", ("aux\x1b]0;titulo\x07", "dice\rotra"))
    connection.execute("UPDATE players SET name = ?, club = ? WHERE name = 'Ana'", ("Ana\x1b[2J", "C\u202eX"))
    connection.commit()
    connection.close()
    outputs = [started("history", "--all").output, started("player", "list").output,
               started("tables", "show").output, started("tournament", "list").output]
    for output in outputs:
        assert "\x1b" not in output and "\x07" not in output and "\r" not in output and "\u202e" not in output
    assert "auxU+001B]0;tituloU+0007" in outputs[0] and "AnaU+001B[2J" in outputs[1] and "AnaU+001B[2J" in outputs[2]


def test_pin_files_are_read_bounded_without_a_bom_or_spaces(run, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    monkeypatch.delenv("DUPLICADA_PIN")
    pin_file = tmp_path / "pin.txt"
    pin_file.write_bytes(b"\xef\xbb\xbf  " + JUDGE_PIN.encode() + b"  \r\nsegunda\n")     # Notepad's UTF-8
    run("tournament", "create", "T", "--pin-file", str(pin_file))
    plain = tmp_path / "plain.txt"
    plain.write_text(JUDGE_PIN + "\n", encoding="utf-8")
    run("player", "add", "Ana", "--pin-file", str(plain))                  # the same PIN as typed plainly
    fifo = tmp_path / "tubo"
    os.mkfifo(fifo)
    for path in ("/dev/zero", str(fifo)):
        result = run("player", "add", "Blas", "--pin-file", path, code=1)     # never blocks, never fills memory
        assert JUDGE_PIN not in result.output
    big = tmp_path / "big.txt"
    big.write_text(JUDGE_PIN + "\n" + "x" * 10_000, encoding="utf-8")
    run("player", "add", "Blas", "--pin-file", str(big), code=1)


def test_a_lexicon_that_is_not_a_file_is_refused(run, tmp_path: Path) -> None:
    import os

    fifo = tmp_path / "tubo.lex"
    os.mkfifo(fifo)
    for path in ("/dev/zero", str(fifo)):
        run("tournament", "create", "T", "--lexicon", path, code=1)
        run("lexicon", "words", "--lexicon", path, code=1)


def test_csv_written_by_the_command_line_never_holds_a_live_formula(run) -> None:
    import csv
    import io

    run("tournament", "create", "T")
    run("player", "add", "=1+1", "--club", "+cmd|' /C calc'!A0")
    run("player", "add", "@SUM(A1)", "--club", "-2+3")
    run("game", "start", "--rounds", "1", "--seed", "3")
    run("rack", "draw")
    run("master", "choose")
    run("slip", "enter", "1", "H8-QZQZ", "--arbiter", "=HYPERLINK(1)")
    cells = []
    for args in (("standings", "--format", "csv"), ("tables", "show", "--format", "csv"),
                 ("slip", "list", "--format", "csv")):
        cells += [cell for row in csv.reader(io.StringIO(run(*args).output)) for cell in row]
    assert "'=1+1" in cells and "'@SUM(A1)" in cells and "'+cmd|' /C calc'!A0" in cells
    assert not [cell for cell in cells if cell[:1] in ("=", "+", "-", "@", "\t", "\r")]
    table = run("tables", "show").output
    assert "=1+1" in table and "'=1+1" not in table                 # the table shown to people is as typed


@pytest.mark.parametrize("content", ['{"players": ' + "[" * 100_000 + "]" * 100_000 + "}",
                                     '{"players": [{"name": "A", "rating": ' + "9" * 5000 + "}]}"])
def test_elodi_rate_refuses_deep_or_huge_json(tmp_path: Path, content: str) -> None:
    game = tmp_path / "partida.json"
    game.write_text(content, encoding="utf-8")
    result = CliRunner().invoke(main, ["elodi", "rate", str(game)])
    assert result.exit_code == 2 and isinstance(result.exception, SystemExit) and str(game) in result.output
    result = CliRunner().invoke(main, ["elodi", "rate", "/dev/zero"])
    assert result.exit_code == 2 and isinstance(result.exception, SystemExit)


def test_analyze_names_the_file_line_and_column_of_a_file_not_in_utf8(tmp_path: Path,
                                                                         spanish_lexicon: object) -> None:
    import json

    empty = "/".join(["15"] * 15)
    utf16 = tmp_path / "utf16.txt"
    utf16.write_text(f"{empty} CASAMOS\n", encoding="utf-16")
    result = CliRunner().invoke(main, ["analyze", "--positions", str(utf16)])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)
    assert "utf16.txt, línea 1, columna 1" in result.output
    latin = tmp_path / "latin.txt"
    latin.write_bytes(f"{empty} CASAMOS\n{empty} ÑANDÚES\n".encode("latin-1"))
    result = CliRunner().invoke(main, ["analyze", "--positions", str(latin)])
    assert result.exit_code == 0, result.output
    first, second = (json.loads(line) for line in result.output.splitlines())
    assert first["best_score"] > 0                                        # the good line is analysed
    assert second["line"] == 2 and f"latin.txt, línea 2, columna {len(empty) + 2}" in second["error"]
    result = CliRunner().invoke(main, ["analyze", "--positions", "/dev/zero"])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)


@pytest.mark.parametrize("choice", ["9" * 5000, "²", "¹", "99999999999999999999"])
def test_a_master_choice_of_odd_digits_is_refused_in_spanish(started, choice: str) -> None:
    started("rack", "draw")
    result = started("master", "choose", choice, code=1)
    assert "dañada" not in result.output                 # a refusal of the input, not a database problem
    assert "9" * 100 not in result.output


@pytest.mark.parametrize("player", ["9" * 5000, "²", str(2**63)])
def test_elodi_history_looks_players_up_without_converting_digits(started, player: str) -> None:
    result = started("elodi", "history", player, code=1)
    assert "9" * 100 not in result.output


def another_programs_database(path: Path) -> bytes:
    """A SQLite file written by another program (a table of its own, one row); its bytes."""
    import sqlite3

    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE clientes (id INTEGER PRIMARY KEY, nombre TEXT)")
        connection.execute("INSERT INTO clientes (nombre) VALUES ('Ana')")
    connection.close()
    return path.read_bytes()


@pytest.mark.parametrize("args", [("standings",), ("player", "add", "Ana"), ("tournament", "create", "T")])
def test_another_programs_database_is_refused_and_left_byte_for_byte(run, tmp_path: Path,
                                                                      args: tuple[str, ...]) -> None:
    # Issue 35 §4: a failing command changed the file (WAL mode written into its header).
    path = tmp_path / "contabilidad.db"
    before = another_programs_database(path)
    result = run(*args, "--db", str(path), code=1)
    assert "no es una base de datos de duplicada" in result.output and "no se toca" in result.output
    assert path.read_bytes() == before
    assert sorted(item.name for item in tmp_path.iterdir()) == ["contabilidad.db"]      # no -wal, no -shm


def test_only_the_commands_that_make_a_tournament_create_a_database(run, tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    # Issue 35 §4: «standings --db "nosuch file.db"» left a new 299 KB database behind.
    monkeypatch.chdir(tmp_path)
    for args in (("standings",), ("player", "list"), ("tournament", "list"), ("export", "registro.json")):
        result = run(*args, "--db", "nosuch file.db", code=1)
        assert "no existe la base de datos" in result.output and "tournament create" in result.output, result.output
        assert not any(tmp_path.iterdir()), args
    run("tournament", "create", "T", "--db", "nosuch file.db")
    assert (tmp_path / "nosuch file.db").is_file()
    assert "T" in run("tournament", "list", "--db", "nosuch file.db").output


@pytest.mark.parametrize(("text", "said"), [("H8-" + "A" * 5003, "5006 caracteres"),
                                            ("H8-CA\x00SA", "carácter de control (U+0000)")])
def test_a_slip_import_refusing_a_text_names_the_file_and_line(started, tmp_path: Path, text: str, said: str) -> None:
    # Issue 35 §4: a 5,006-character slip, a NUL in a slip: refused without the file or line.
    started("rack", "draw")
    path = tmp_path / "papeletas.csv"
    path.write_text(f"mesa,jugada\n1,H8-CASA\n2,{text}\n", encoding="utf-8")
    result = started("slip", "import", str(path), code=1)
    assert f"{path}, línea 3: la papeleta de la mesa 2" in result.output and said in result.output
    assert "no se ha anotado nada" in result.output
    assert "H8-CASA" not in started("slip", "list").output


def _rows(url: str, sql: str) -> list[tuple[object, ...]]:
    """Rows of ``sql`` read straight from the database at ``url`` (SQLite or PostgreSQL)."""
    import sqlalchemy

    engine = sqlalchemy.create_engine(url)
    try:
        with engine.connect() as connection:
            return [tuple(row) for row in connection.exec_driver_sql(sql)]
    finally:
        engine.dispose()


def test_an_assistant_pin_with_tables_out_of_range_is_refused_whole(database_url: str, tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    # Issue 36 §5: «--tables 1-99999999999» was stored on SQLite; on PostgreSQL it failed after
    # the PIN was saved. The range is refused before anything is stored, and the PIN and the
    # tables are one transaction.
    from tests.credentials import ASSISTANT_PINS

    monkeypatch.setenv("DUPLICADA_DB", database_url)
    monkeypatch.setenv("DUPLICADA_STATION", "mesa-1")
    monkeypatch.setenv("DUPLICADA_PIN", JUDGE_PIN)
    runner = CliRunner()
    assert runner.invoke(main, ["tournament", "create", "T"]).exit_code == 0
    pin = tmp_path / "pin.txt"
    pin.write_text(ASSISTANT_PINS["aux1"] + "\n", encoding="utf-8")
    for tables in ("1-99999999999", "99999999999", f"{BIG}-{BIG}", "1-" + "9" * 5000, "1-\u0663", "1_0-20"):
        result = runner.invoke(main, ["tournament", "pin", "assistant", "--name", "aux1", "--tables", tables,
                                      "--new-pin-file", str(pin)])
        assert result.exit_code == 2 and isinstance(result.exception, SystemExit), (tables, result.output)
        assert "tramo de mesas" in result.output and "9" * 100 not in result.output, result.output
        assert _rows(database_url, "SELECT name FROM credentials WHERE role = 'assistant'") == []
        assert _rows(database_url, "SELECT assistant FROM assistant_ranges") == []
    said = runner.invoke(main, ["tournament", "pin", "assistant", "--name", "aux1", "--tables", f"1-{2**31 - 1}",
                                "--new-pin-file", str(pin)])
    assert said.exit_code == 0, said.output
    assert _rows(database_url, "SELECT name FROM credentials WHERE role = 'assistant'") == [("aux1",)]
    assert _rows(database_url, "SELECT assistant, first_table, last_table FROM assistant_ranges") == [
        ("aux1", 1, 2**31 - 1)]


def test_json_output_never_prints_invisible_characters_raw(started, tmp_path: Path) -> None:
    # Issue 36 §5: «standings --format json» printed U+202E raw. Every JSON output escapes
    # control, format and separator characters (\u202e): the text stays exact for a program
    # and inert on a terminal.
    import json
    import sqlite3

    name = "Ana\u202eX\x1b[2J\x7f\x85\u2028\u200b"
    with sqlite3.connect(tmp_path / "torneo.db") as connection:
        connection.execute("UPDATE players SET name = ? WHERE name = 'Ana'", (name,))
    connection.close()
    for args, key in ((("standings", "--format", "json"), "jugador"), (("tables", "show", "--format", "json"), None)):
        output = started(*args).output
        assert not any(char in output for char in "\u202e\x1b\x7f\x85\u2028\u200b"), args
        assert "\\u202e" in output, args
        rows = json.loads(output)
        assert name in [value for row in rows for value in row.values()], args          # the exact text
        if key is not None:
            assert name in [row[key] for row in rows]
