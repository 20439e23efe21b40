"""Signed venue records (issue 35 §2): each tournament's Ed25519 key signs its exports;
``verify`` checks the signature and names the key's fingerprint; the organiser registers each
offline venue's key and ``venue import`` takes only records of that venue signed by it.

The issue's attack: a venue record edited after export — a player's score raised, the
standings and the hash chain recomputed — passed ``verify`` and ``venue import``; signed,
it is refused. Venue records come from ``tests.duplicate.test_venues`` (two rooms that
played one prepared game on their own databases, each exported by its judge: signed)."""

from __future__ import annotations

import copy
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from sqlalchemy import select

from duplicate.prepared.file import PreparedGame
from duplicate.record.chain import GENESIS, event_hash
from duplicate.record.event_kinds import EventKind
from duplicate.record.verify import verify_record
from duplicate.service.errors import CredentialRefused, InvalidFile
from duplicate.service.facade import TournamentService
from duplicate.storage.database import open_database
from duplicate.storage.models import TournamentKey
from lexicon.lexicon import Lexicon
from tests.command_line import judge_command_line
from tests.credentials import JUDGE_PIN
from tests.duplicate.test_venues import BONUSES, prepared, records  # noqa: F401 — the module's fixtures
from tests.fuzz import tamperings
from tests.fuzz.tamperings import events_of, polish, slip_event
from tui.cli.main import main

Record = dict[str, Any]


def pem_of(raw_base64_or_key: str | Ed25519PublicKey) -> bytes:
    """The PEM of a public key as ``tournament key`` writes it (given as the record's base64
    of its raw bytes, or as a key)."""
    import base64

    key = (Ed25519PublicKey.from_public_bytes(base64.b64decode(raw_base64_or_key))
           if isinstance(raw_base64_or_key, str) else raw_base64_or_key)
    return key.public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)


def phone_fingerprint(raw: bytes) -> str:
    """The fingerprint as the docs define it: the first 20 hex digits of the SHA-256 of the
    raw key, in groups of four."""
    digits = hashlib.sha256(raw).hexdigest()[:20]
    return " ".join(digits[index:index + 4] for index in range(0, 20, 4))


def organiser(path: Path, lexicon: Lexicon, game: PreparedGame) -> TournamentService:
    service = TournamentService(open_database(str(path)), station="organizador", lexicon=lexicon, pin=JUDGE_PIN)
    service.create_tournament("Simultáneo", venue="Barcelona", settings=BONUSES)
    service.create_game(prepared=game)
    return service


def raised_score(record: Record, lexicon: Lexicon) -> tuple[Record, int]:
    """The issue's forgery of a venue record: a player's zero in the last round turned into
    the master (text, status, score, move), in the round and in the log's ``slip_entered``;
    standings and bonuses recomputed as ``verify`` expects them, the chain of hashes and its
    head recomputed. The signature block is left as it was (the forger has no key). Returns
    the forged record and the player whose total went up."""
    forged = copy.deepcopy(record)
    round_ = forged["games"][0]["rounds"][-1]
    good = next(slip for slip in round_["slips"] if slip["status"] == "valid")
    zero = next(slip for slip in round_["slips"] if slip["score"] == 0)
    zero.update(text=good["text"], status="valid", score=good["score"], move=good["move"], reason="")
    slip_event(forged, 1, round_["number"], zero["player"])["payload"].update(
        text=good["text"], status="valid", score=good["score"], move=good["move"], reason="")
    tamperings.POLISH_LEXICON[:] = [lexicon]
    polish(forged)
    previous = GENESIS
    for event in forged["events"]:
        event["previous_hash"] = previous
        previous = event_hash(previous, event)
    forged["events_head"] = previous
    return forged, zero["player"]


def total_of(record: Record, player: int) -> int:
    return next(int(line["total"]) for line in record["standings"] if line["player"] == player)


def test_a_venue_record_edited_after_export_is_refused_and_verify_says_the_signature_is_bad(
        tmp_path: Path, spanish_lexicon: Lexicon, prepared: PreparedGame,  # noqa: F811
        records: dict[str, Record]) -> None:
    honest = records["Lloret"]
    forged, player = raised_score(honest, spanish_lexicon)
    assert total_of(forged, player) > total_of(honest, player)
    # Everything a hash chain can check holds: only the signature tells.
    assert verify_record(honest, spanish_lexicon) == []
    assert [difference.field for difference in verify_record(forged, spanish_lexicon)] == ["signature"]
    path = tmp_path / "lloret-cambiado.json"
    path.write_text(json.dumps(forged, ensure_ascii=False), encoding="utf-8")
    checked = CliRunner().invoke(main, ["verify", str(path)])
    assert checked.exit_code == 1, checked.output
    assert "FIRMA NO VÁLIDA" in checked.output and "el registro se cambió después de exportarlo" in checked.output
    service = organiser(tmp_path / "org.db", spanish_lexicon, prepared)
    service.register_venue_key("Lloret", pem_of(honest["signature"]["public_key"]))
    events = len(service.history())
    with pytest.raises(InvalidFile, match="firma no válida"):
        service.import_venue(forged, "Lloret")
    stripped = {key: value for key, value in forged.items() if key != "signature"}   # the forger drops it
    with pytest.raises(InvalidFile, match="no está firmado, y la sede tiene registrada la clave de huella"):
        service.import_venue(stripped, "Lloret", unsigned=True)
    assert service.venues() == [] and len(service.history()) == events
    view = service.import_venue(honest, "Lloret")
    assert view.signed_by == honest["signature"]["fingerprint"]


def test_a_record_of_another_installation_is_refused_naming_both_fingerprints(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, spanish_lexicon: Lexicon,
        prepared: PreparedGame, records: dict[str, Record]) -> None:  # noqa: F811
    service = organiser(tmp_path / "org.db", spanish_lexicon, prepared)
    service.db.dispose()
    other = Ed25519PrivateKey.generate().public_key()
    other_raw = other.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    key_file = tmp_path / "vendrell.pem"
    key_file.write_bytes(pem_of(other))
    record_file = tmp_path / "vendrell.json"
    record_file.write_text(json.dumps(records["El Vendrell"], ensure_ascii=False), encoding="utf-8")
    run = cli(monkeypatch, tmp_path / "org.db")
    registered = run("venue", "key", "El Vendrell", str(key_file)).output
    assert f"huella {phone_fingerprint(other_raw)}" in registered
    events = len(TournamentService(open_database(str(tmp_path / "org.db"))).history())
    refused = run("venue", "import", str(record_file), "--venue", "El Vendrell", code=1).output
    signed_with = records["El Vendrell"]["signature"]["fingerprint"]
    assert f"está firmado con la clave de huella {signed_with}" in refused
    assert f"no con la registrada para la sede (huella {phone_fingerprint(other_raw)})" in refused
    assert "otra instalación" in refused
    after = TournamentService(open_database(str(tmp_path / "org.db")))
    assert after.venues() == [] and len(after.history()) == events
    # A file that is not a key is refused with the file named, nothing registered.
    (tmp_path / "nada.pem").write_text("no es una clave\n", encoding="utf-8")
    assert "nada.pem no es una clave pública Ed25519" in run("venue", "key", "Lloret", str(tmp_path / "nada.pem"),
                                                              code=1).output
    assert after.venue_keys() == {"El Vendrell": phone_fingerprint(other_raw)}


def cli(monkeypatch: pytest.MonkeyPatch, db: Path) -> Any:
    return judge_command_line(monkeypatch, db, "organizador")


def test_a_venue_without_a_key_imports_only_unsigned_and_the_log_says_so(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, spanish_lexicon: Lexicon,
        prepared: PreparedGame, records: dict[str, Record]) -> None:  # noqa: F811
    organiser(tmp_path / "org.db", spanish_lexicon, prepared).db.dispose()
    record_file = tmp_path / "lloret.json"
    record_file.write_text(json.dumps(records["Lloret"], ensure_ascii=False), encoding="utf-8")
    run = cli(monkeypatch, tmp_path / "org.db")
    refused = run("venue", "import", str(record_file), "--venue", "Lloret", code=1).output
    assert "la sede no tiene clave registrada" in refused and "--unsigned" in refused
    said = run("venue", "import", str(record_file), "--venue", "Lloret", "--unsigned").output
    assert "SIN FIRMA" in said and "--unsigned" in said
    imported = [event for event in TournamentService(open_database(str(tmp_path / "org.db"))).history()
                if event.kind == EventKind.VENUE_IMPORTED.value]
    assert len(imported) == 1
    assert imported[0].payload.get("unsigned") is True and "signed_by" not in imported[0].payload
    assert "sin firma" in imported[0].reason


def test_tournament_key_writes_the_public_key_and_prints_its_fingerprint(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run = cli(monkeypatch, tmp_path / "sede.db")
    run("tournament", "create", "Simultáneo", "--venue", "Lloret")
    said = run("tournament", "key", "--out", str(tmp_path / "sede.pem")).output
    key = serialization.load_pem_public_key((tmp_path / "sede.pem").read_bytes())
    assert isinstance(key, Ed25519PublicKey)
    raw = key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    shown = phone_fingerprint(raw)
    assert f"Huella: {shown}" in said and "nueva" not in said        # made with the tournament
    assert len(shown) == 24                                          # five groups of four hex digits
    exported = run("export", str(tmp_path / "sede.json")).output
    assert f"Firmado con la clave del torneo, huella {shown}." in exported
    text = (tmp_path / "sede.json").read_text(encoding="utf-8")
    record = json.loads(text)
    assert record["signature"]["fingerprint"] == shown and record["signature"]["algorithm"] == "Ed25519"
    checked = run("verify", str(tmp_path / "sede.json")).output
    assert f"firma Ed25519 válida, clave del torneo con huella {shown}" in checked
    # The sealed private key is in the database, never in the record nor in the log.
    database = open_database(str(tmp_path / "sede.db"))
    with database.read() as session:
        sealed = session.scalars(select(TournamentKey.sealed)).one()
    assert sealed.startswith("scrypt-aesgcm$") and sealed.split("$")[-1] not in text
    made = [event for event in record["events"] if event["kind"] == EventKind.SIGNING_KEY_MADE.value]
    assert [set(event["payload"]) for event in made] == [{"public_key", "fingerprint"}]
    # Without the judge's PIN the export is written unsigned, and says so.
    monkeypatch.delenv("DUPLICADA_PIN")
    assert "Registro sin firmar" in run("export", str(tmp_path / "sin.json")).output
    assert "sin firmar (exportado sin el PIN" in run("verify", str(tmp_path / "sin.json")).output


def test_a_judge_pin_change_keeps_the_key_and_the_signing(tmp_path: Path, spanish_lexicon: Lexicon) -> None:
    service = TournamentService(open_database(str(tmp_path / "t.db")), station="juez", lexicon=spanish_lexicon,
                                pin=JUDGE_PIN)
    service.create_tournament("Open")
    before = service.tournament_key()
    service.set_pin("judge", "otro-pin-del-juez")
    judge = service.with_pin("otro-pin-del-juez")
    after = judge.tournament_key()
    assert (after.fingerprint, after.pem, after.made) == (before.fingerprint, before.pem, False)
    record = judge.export()
    assert record["signature"]["fingerprint"] == before.fingerprint
    assert verify_record(record, spanish_lexicon) == []
    # The old PIN neither signs nor opens the key any more.
    assert "signature" not in service.with_pin(None).export()
    with pytest.raises(CredentialRefused):
        service.with_pin(JUDGE_PIN).tournament_key()


def test_only_the_content_signed_verifies(tmp_path: Path, spanish_lexicon: Lexicon) -> None:
    """What the chain cannot see (the time of export, the standings' order of keys) is
    still signed; the layout of the file is not (keys in another order verify)."""
    service = TournamentService(open_database(str(tmp_path / "t.db")), station="juez", lexicon=spanish_lexicon,
                                pin=JUDGE_PIN)
    service.create_tournament("Open")
    service.add_player("Ana")
    record = json.loads(json.dumps(service.export()))
    reordered = dict(reversed(list(record.items())))
    assert verify_record(reordered, spanish_lexicon) == []
    later = {**record, "exported_at": "2030-01-01T00:00:00+00:00"}
    assert [difference.field for difference in verify_record(later, spanish_lexicon)] == ["signature"]
    wrong = copy.deepcopy(record)
    wrong["signature"]["fingerprint"] = "0000 0000 0000 0000 0000"
    assert "la huella anotada" in str(verify_record(wrong, spanish_lexicon)[0])
    with pytest.raises(CredentialRefused):           # the key is the judge's: another PIN never opens it
        service.with_pin("no-es-el-pin").export()


def test_events_and_newer_formats(tmp_path: Path, spanish_lexicon: Lexicon) -> None:
    """A record of a format newer than this checker's is refused (exit 2), never half-checked."""
    service = TournamentService(open_database(str(tmp_path / "t.db")), station="juez", lexicon=spanish_lexicon,
                                pin=JUDGE_PIN)
    service.create_tournament("Open")
    record = service.export()
    assert [event["kind"] for event in events_of(record, EventKind.SIGNING_KEY_MADE.value)] == ["signing_key_made"]
    newer = {**record, "format_version": 15}
    path = tmp_path / "nuevo.json"
    path.write_text(json.dumps(newer, ensure_ascii=False), encoding="utf-8")
    result = CliRunner().invoke(main, ["verify", str(path)])
    assert result.exit_code == 2 and "formato 15, posterior a esta versión" in result.output
