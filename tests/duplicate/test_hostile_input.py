"""Hostile input at the service's door (issue 26 §3): CSV files, numbers, texts.

Each input is refused with a ``TournamentError`` (nothing stored) or taken exactly as
written — never a traceback, never a hang."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from duplicate.bounds import DB_INT_MAX, NumberError, checked_int, whole_number
from duplicate.csv_files import HEADER_MAX, CsvFileError, read_csv_rows, separator
from duplicate.service.errors import TournamentError
from duplicate.service.facade import TournamentService
from duplicate.storage.database import open_database
from lexicon.lexicon import Lexicon
from tests.credentials import JUDGE_PIN

SNIFFER_TRAP = ',"a",' + '"' * 400 + "x"
"""A header line on which ``csv.Sniffer`` backtracks for seconds (cubic in the quotes:
150 quotes 0.5 s, 400 about 10 s, 1,000 minutes)."""


@pytest.fixture
def service(tmp_path: Path, spanish_lexicon: Lexicon) -> TournamentService:
    service = TournamentService(open_database(str(tmp_path / "t.db")), station="mesa", lexicon=spanish_lexicon,
                                pin=JUDGE_PIN)
    service.create_tournament("Hostil")
    for name in ("Ana", "Blas", "Carmen"):
        service.add_player(name)
    service.create_game(rounds=2, seed=1)
    service.set_rack(1, "CASAMOS")
    service.choose_master(1)
    return service


class NoSniffer:
    """Stands for ``csv.Sniffer``: the dialect must be chosen without it."""

    def __init__(self) -> None:
        raise AssertionError("csv.Sniffer backtracks on crafted lines; choose the separator by counting")


def test_the_separator_is_counted_outside_quotes() -> None:
    assert separator("nombre;club;pais") == ";"
    assert separator("nombre\tclub") == "\t"
    assert separator('"Pérez, Ana";club;pais') == ";"           # the comma is inside quotes
    assert separator("nombre") == "," and separator("") == ","
    assert separator("a,b;c") == ","                           # a tie: the comma
    assert separator("x" * HEADER_MAX + ";;;;") == ","          # only the first HEADER_MAX characters


def test_the_sniffer_trap_is_read_without_the_sniffer(service: TournamentService, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(csv, "Sniffer", NoSniffer)
    players = tmp_path / "jugadores.csv"
    players.write_text(f"{SNIFFER_TRAP}\nAna,Club\n", encoding="utf-8")
    with pytest.raises(TournamentError):
        service.import_players(players)                        # no «nombre» column: refused at once
    slips = tmp_path / "papeletas.csv"
    slips.write_text(f"{SNIFFER_TRAP}\n1,H8-CASAMOS\n", encoding="utf-8")
    with pytest.raises(TournamentError):
        service.import_slips(1, slips)
    players.write_text("nombre;club\nDaniel;Club D\n", encoding="utf-8")
    assert len(service.import_players(players)) == 1            # a semicolon file, still without the sniffer
    assert [person.club for _, person in service.entries()][-1] == "Club D"


def test_imported_names_are_stored_exactly_as_written(service: TournamentService, tmp_path: Path) -> None:
    # Neutralising formulas belongs to the files written (spreadsheets.neutralised), not to import.
    players = tmp_path / "jugadores.csv"
    players.write_text('nombre,club\n=HYPERLINK("http://x";"y"),+cmd|x\n@SUM(1),-1\n', encoding="utf-8")
    service.import_players(players)
    stored = [(person.name, person.club) for _, person in service.entries()][-2:]
    assert stored == [('=HYPERLINK("http://x";"y")', "+cmd|x"), ("@SUM(1)", "-1")]
    # A leading tab is not silently dropped: a control character in a name is refused, nothing added.
    players.write_text('nombre,club\nEva,E\n"\tFede",F\n', encoding="utf-8")
    before = len(service.entries())
    with pytest.raises(TournamentError):
        service.import_players(players)
    assert len(service.entries()) == before


@pytest.mark.parametrize("table", ["²", "1²", "¹", "٣", "1" * 5000, "-1", "0", str(DB_INT_MAX + 1), "1.0"])
def test_slip_import_refuses_numbers_it_cannot_store(service: TournamentService, tmp_path: Path, table: str) -> None:
    slips = tmp_path / "papeletas.csv"
    slips.write_text(f"mesa,jugada\n{table},H8-CASAMOS\n", encoding="utf-8")
    with pytest.raises(TournamentError):
        service.import_slips(1, slips)
    slips.write_text(f"mesa,jugada,ronda\n1,H8-CASAMOS,{table}\n", encoding="utf-8")
    with pytest.raises(TournamentError):
        service.import_slips(1, slips)
    assert service.slips(1, 1) == []


def test_a_trailing_comma_is_an_empty_cell(service: TournamentService, tmp_path: Path) -> None:
    slips = tmp_path / "papeletas.csv"
    slips.write_text("mesa,jugada,\n1,H8-CASAMOS,\n2,H8-CASAMOS,,\n", encoding="utf-8")
    assert [result.table for result in service.import_slips(1, slips)] == [1, 2]
    slips.write_text("mesa,jugada\n3,H8-CASAMOS,sobra\n", encoding="utf-8")
    with pytest.raises(TournamentError):
        service.import_slips(1, slips)
    assert len(service.slips(1, 1)) == 2


def test_csv_files_that_are_not_files_are_refused(tmp_path: Path) -> None:
    import os

    fifo = tmp_path / "tubo.csv"
    os.mkfifo(fifo)
    with pytest.raises(CsvFileError):
        read_csv_rows(fifo)                                     # never blocks waiting for a writer
    latin = tmp_path / "latin.csv"
    latin.write_bytes("nombre\nAna\nNúñez\n".encode("latin-1"))
    with pytest.raises(CsvFileError) as refused:
        read_csv_rows(latin)
    assert refused.value.line == 3


def test_numbers_have_their_range() -> None:
    assert checked_int(DB_INT_MAX, "la mesa") == DB_INT_MAX and whole_number(" 12 ", "la mesa") == 12
    for value in (0, DB_INT_MAX + 1, 10**5000, True, 1.0, "1"):
        with pytest.raises(NumberError):
            checked_int(value, "la mesa")
    for text in ("²", "١", "1e3", "+1", "9" * 11, "9" * 5000):
        with pytest.raises(NumberError):
            whole_number(text, "la mesa")


@pytest.mark.parametrize("invisible", ["\u202e", "\u200f", "\u200b", "\ufeff", "\u2066", "\u00ad", "\u2028"])
def test_invisible_and_bidi_characters_are_refused_everywhere(service: TournamentService, invisible: str) -> None:
    # Issue 26 §3: «Ana\u202eZ» looks like another name; refused at the service's door.
    events = len(service.history())
    calls = [lambda text: service.add_player(text), lambda text: service.add_player("Eva", club=text),
             lambda text: service.add_player("Eva", country=text),
             lambda text: service.add_player("Eva", federation_id=text),
             lambda text: service.create_tournament(text),
             lambda text: service.file_claim(1, 1, 1, text),
             lambda text: service.enter_slip(1, 1, f"H8-CASAMOS{text}")]
    for call in calls:
        with pytest.raises(TournamentError):
            call(f"Ana{invisible}Z")
    assert len(service.history()) == events and len(service.entries()) == 3


def test_a_bare_carriage_return_is_refused_in_claims_and_reasons(service: TournamentService) -> None:
    with pytest.raises(TournamentError):
        service.file_claim(1, 1, 1, "dice\rotra cosa")
    with pytest.raises(TournamentError):
        service.end_game(1, reason="motivo\rreescrito")
    claim = service.file_claim(1, 1, 1, "dos líneas\r\nde Windows\ny una más")     # line breaks are text
    assert claim


def test_stored_text_is_printed_with_control_characters_visible() -> None:
    from duplicate.texts import visible

    assert visible("\x1b]0;pwned\x07ok\rAna\u202eZ") == "U+001B]0;pwnedU+0007okU+000DAnaU+202EZ"
    assert visible("línea\nsiguiente\tcol") == "líneaU+000AsiguienteU+0009col"
    assert visible("línea\nsiguiente\tcol", lines=True) == "línea\nsiguiente\tcol"
    assert visible("Ñandú 8") == "Ñandú 8"


@pytest.mark.parametrize("plant", ["file", "folder", "out", "hard"])
def test_publish_never_writes_through_a_planted_link(service: TournamentService, tmp_path: Path, plant: str) -> None:
    # Issue 26 §3: links planted in the output folder made publish overwrite their targets.
    import os

    from duplicate.publishing.site import publish_results

    service.enter_slip(1, 1, "H8-CASAMOS")
    service.close_round(1, 1)
    target = tmp_path / "ajeno"
    target.mkdir()
    victim = target / "importante.txt"
    victim.write_text("no tocar", encoding="utf-8")
    out = tmp_path / "web"
    out.mkdir()
    if plant == "file":
        (out / "datos").mkdir()
        (out / "datos" / "clasificacion-general.csv").symlink_to(victim)
    elif plant == "folder":
        (out / "datos").symlink_to(target)
    elif plant == "hard":
        os.link(victim, out / "estilo.css")
    else:
        out.rmdir()
        out.symlink_to(target)
    with pytest.raises(TournamentError):
        publish_results(service, out, formats=["csv"], workers=1)
    assert victim.read_text(encoding="utf-8") == "no tocar" and sorted(os.listdir(target)) == ["importante.txt"]


def test_publish_into_a_plain_folder_still_works(service: TournamentService, tmp_path: Path) -> None:
    from duplicate.publishing.site import publish_results

    service.enter_slip(1, 1, "H8-CASAMOS")
    service.close_round(1, 1)
    publish_results(service, tmp_path / "web", formats=["csv"], workers=1)
    publication = publish_results(service, tmp_path / "web", formats=["csv"], workers=1)     # again, replacing
    assert (publication.out / "datos" / "clasificacion-general.csv").exists()


def test_verify_reads_long_numbers_and_lone_surrogates_without_a_traceback(service: TournamentService,
                                                                           tmp_path: Path) -> None:
    import io
    import json

    from duplicate.record.reading import RecordError, load_record
    from duplicate.record.verify import run_verify

    service.enter_slip(1, 2, "H8-QZQZ")
    text = json.dumps(service.export(), ensure_ascii=False)
    huge = tmp_path / "huge.json"
    huge.write_text(text.replace('"seed": 1', '"seed": ' + "9" * 5000, 1), encoding="utf-8")
    with pytest.raises(RecordError):
        load_record(huge)
    lone = tmp_path / "lone.json"
    lone.write_text(text.replace('"H8-QZQZ"', '"H8-QZ\\ud800QZ"'), encoding="utf-8")
    out = io.StringIO()
    assert run_verify(lone, None, out) == 1
    report = out.getvalue()
    report.encode("utf-8")                                    # printable: the surrogate is shown as U+D800
    assert "U+D800" in report
    for path in ("/dev/zero", str(tmp_path)):
        with pytest.raises(RecordError):
            load_record(path)


def test_an_assistants_pin_and_tables_are_stored_together_or_not_at_all(service: TournamentService, tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    # Issue 36 §5: «tournament pin assistant --tables 1-99999999999» saved the PIN, then failed
    # on PostgreSQL storing the tables. The tables are checked first, and both go in one transaction.
    import sqlite3

    from duplicate.bounds import table_span
    from duplicate.service.registration import Registration
    from tests.credentials import ASSISTANT_PINS

    def stored() -> tuple[list[tuple[object, ...]], list[tuple[object, ...]], int]:
        with sqlite3.connect(tmp_path / "t.db") as connection:
            result = (connection.execute("SELECT name FROM credentials WHERE role = 'assistant'").fetchall(),
                      connection.execute("SELECT assistant, first_table, last_table FROM assistant_ranges").fetchall(),
                      connection.execute("SELECT count(*) FROM events").fetchone()[0])
        connection.close()
        return result

    before = stored()
    pin = ASSISTANT_PINS["aux1"]
    for tables in ((1, DB_INT_MAX + 1), (0, 3), (5, 4), (1, 10**20), (True, 2)):
        with pytest.raises(TournamentError):
            service.set_pin("assistant", pin, name="aux1", tables=tables)      # type: ignore[arg-type]
    with pytest.raises(TournamentError):
        service.set_pin("judge", "otro-pin-del-juez", tables=(1, 2))
    with pytest.raises(TournamentError):
        service.set_assistant_range("aux1", 1, DB_INT_MAX + 1)
    assert stored() == before

    def fails(*_args: object) -> None:
        raise RuntimeError("falla al guardar las mesas")

    monkeypatch.setattr(Registration, "_assign_tables", fails)           # a failure after the PIN is written
    with pytest.raises(RuntimeError):
        service.set_pin("assistant", pin, name="aux1", tables=(1, 3))
    monkeypatch.undo()
    assert stored() == before
    service.set_pin("assistant", pin, name="aux1", tables=(1, DB_INT_MAX))
    credentials, ranges, events = stored()
    assert (credentials, ranges, events) == ([("aux1",)], [("aux1", 1, DB_INT_MAX)], before[2] + 2)
    assert table_span(f"1-{DB_INT_MAX}") == (1, DB_INT_MAX)
    for text in ("1-99999999999", "0-3", "4-2", "1-٣", "1_0", "", "1-" + "9" * 5000):
        with pytest.raises(NumberError, match="tramo de mesas"):
            table_span(text)
