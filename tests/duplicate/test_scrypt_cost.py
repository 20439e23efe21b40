"""The scrypt cost is kept with each tournament's salt (issue 24 §3): the test suite makes its
digests cheap through ``$DUPLICADA_TEST_SCRYPT_N`` (``tests/conftest.py``), the default stays
the full cost, and digests made at any cost — or before the cost was kept — still verify.

The expected digests are computed here with ``hashlib.scrypt`` directly (RFC 7914).
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
from pathlib import Path

import pytest

from duplicate.service.access import TEST_SCRYPT_N_VARIABLE, new_salt, pin_digest
from duplicate.service.errors import CredentialRefused, TournamentError
from duplicate.service.facade import TournamentService
from duplicate.storage.database import open_database
from lexicon.lexicon import Lexicon
from tests.credentials import JUDGE_PIN


def scrypt(pin: str, salt_hex: str, n: int) -> str:
    return hashlib.scrypt(pin.encode("utf-8"), salt=bytes.fromhex(salt_hex), n=n, r=8, p=1, dklen=32).hex()


def test_the_suite_runs_at_a_low_cost_set_by_conftest() -> None:
    assert int(os.environ[TEST_SCRYPT_N_VARIABLE]) < 2**14


def test_the_default_cost_is_the_full_one_and_kept_with_the_salt(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(TEST_SCRYPT_N_VARIABLE, raising=False)
    mark, n, r, p, salt_hex = new_salt().split("$")
    assert (mark, n, r, p, len(salt_hex)) == ("scrypt", str(2**14), "8", "1", 32)
    assert len(new_salt()) <= 64                                      # the column's width


def test_the_test_cost_is_kept_with_the_salt_and_used(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(TEST_SCRYPT_N_VARIABLE, "16")
    salt = new_salt()
    assert salt.startswith("scrypt$16$8$1$")
    monkeypatch.delenv(TEST_SCRYPT_N_VARIABLE)                        # the salt, not the variable, decides
    assert pin_digest("abcdef", salt) == scrypt("abcdef", salt.split("$")[-1], 16)


def test_a_bare_salt_made_before_the_cost_was_kept_means_the_default_cost(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(TEST_SCRYPT_N_VARIABLE, "16")
    assert pin_digest("abcdef", "ab" * 16) == scrypt("abcdef", "ab" * 16, 2**14)


@pytest.mark.parametrize("value", ["0", "1", "1000", "32768", "abc", "-16"])
def test_a_test_cost_that_is_not_a_power_of_two_below_the_default_is_refused(
        monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv(TEST_SCRYPT_N_VARIABLE, value)
    with pytest.raises(TournamentError):
        new_salt()


@pytest.mark.parametrize("created_at_n", ["16", ""])
def test_a_tournament_signs_in_whatever_cost_its_pins_were_made_with(
        tmp_path: Path, spanish_lexicon: Lexicon, monkeypatch: pytest.MonkeyPatch, created_at_n: str) -> None:
    monkeypatch.setenv(TEST_SCRYPT_N_VARIABLE, created_at_n)
    judge = TournamentService(open_database(str(tmp_path / "t.db")), lexicon=spanish_lexicon, pin=JUDGE_PIN)
    tournament_id = judge.create_tournament("Coste")
    monkeypatch.setenv(TEST_SCRYPT_N_VARIABLE, "32" if created_at_n else "16")   # another cost now
    again = TournamentService(open_database(str(tmp_path / "t.db")), lexicon=spanish_lexicon, pin=JUDGE_PIN)
    assert again.sign_in(tournament_id).role == "judge"
    with pytest.raises(CredentialRefused):
        again.with_pin("otro-pin-cualquiera").sign_in(tournament_id)


def test_a_tournament_stored_before_the_cost_was_kept_still_signs_in(
        tmp_path: Path, spanish_lexicon: Lexicon, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "t.db"
    judge = TournamentService(open_database(str(path)), lexicon=spanish_lexicon, pin=JUDGE_PIN)
    tournament_id = judge.create_tournament("Antiguo")
    bare = "cd" * 16                                 # as issue 12 stored it: a bare salt, the default cost
    with sqlite3.connect(path) as connection:
        connection.execute("UPDATE tournament_access SET salt = ?", (bare,))
        connection.execute("UPDATE credentials SET digest = ? WHERE role = 'judge'",
                           (scrypt(JUDGE_PIN, bare, 2**14),))
    again = TournamentService(open_database(str(path)), lexicon=spanish_lexicon, pin=JUDGE_PIN)
    assert again.sign_in(tournament_id).role == "judge"
