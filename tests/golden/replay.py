"""Replaying a golden game (issue 34 §6): a script of ``duplicada`` commands run in one
process, on a fixed clock, into fresh databases in a work folder; what it writes is
compared byte for byte with the files checked in beside the script.

A golden game is a folder of ``tests/golden/`` holding

- ``commands.txt``: one ``duplicada`` command a line, as typed in a shell (``shlex``
  quoting), ``#`` comments and blank lines ignored. A line ending in ``> FILE`` writes the
  command's standard output to ``FILE``; a line starting with ``!`` is a command that must
  be refused (non-zero exit status, e.g. a slip for a closed round); every other command
  must succeed. Paths are relative to the work folder; ``--db FILE`` picks a database,
  ``torneo.db`` by default (``$DUPLICADA_DB``). The judge's PIN is ``$DUPLICADA_PIN``;
  ``--pin-file pin-NAME.txt`` signs in as the assistant ``NAME`` of ``tests.credentials``
  (the files are written in the work folder before the first command). The station is
  ``juez`` unless ``--station`` says otherwise.
- ``inputs/`` (optional): files the script reads (a players' or slips' CSV), copied
  into the work folder first;
- ``expected/``: every file the script writes under ``salida/`` (the record, the
  standings CSV, Eliot XML, HTML pages…) and ``transcript.txt``, each command with what
  it printed (standard output and error, as a user sees them) and its exit status when
  not 0.

**Determinism.** The script uses the command line only (no module path), so it survives
any regrouping of the code. What would differ from one run to the next is fixed here, in
one place:

- the clock: while command *k* (0, 1, …) of the script runs, every ``datetime.now()``,
  ``datetime.utcnow()`` and ``date.today()`` of the process gives ``START + k × STEP``
  (``FixedClock``): timestamps, the hash chain of the events (which covers them), publish
  dates and the round timer are the same on every run, and a command calling the clock
  more or fewer times does not shift the others; ``time.perf_counter`` follows it, so a
  command that reports how long it took (``publish``) says 0 s;
- the local time zone is UTC (``TZ``), the station's name ``juez``, the scrypt cost of
  the PINs the suite's (``DUPLICADA_TEST_SCRYPT_N``; digests are never in a record);
- random draws come from the seeds the script gives (``game start --seed``,
  ``prepared create --seed``); ``publish`` runs with ``--workers 1`` in the scripts.

Nothing is normalised after the fact: the outputs, hashes included, are compared as
written.
"""

from __future__ import annotations

import datetime as _datetime_module
import hashlib
import os
import shlex
import sys
import time
import traceback
from collections.abc import Iterator
from contextlib import chdir, contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from click.testing import CliRunner
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from duplicate.publishing.site import MANIFEST as PUBLICATION_MANIFEST
from tests.credentials import ASSISTANT_PINS, JUDGE_PIN

HERE = Path(__file__).resolve().parent
SCRIPT = "commands.txt"
EXPECTED = "expected"
OUTPUT = "salida"
"""The folder of the work directory whose files are compared (``expected/`` holds them)."""
TRANSCRIPT = "transcript.txt"
INPUTS = "inputs"
"""A game's folder of input files (players' or slips' CSV), copied into the work folder."""

START = _datetime_module.datetime(2026, 11, 21, 9, 0, tzinfo=_datetime_module.UTC)
"""The clock while the script's first command runs."""
STEP = _datetime_module.timedelta(minutes=1)
"""How far the clock moves from one command to the next."""

ENVIRONMENT = {
    "DUPLICADA_DB": "torneo.db",
    "DUPLICADA_STATION": "juez",
    "DUPLICADA_PIN": JUDGE_PIN,
    "DUPLICADA_TEST_SCRYPT_N": "16",
    "DUPLICADA_LEXICON": None,
    "DUPLICADA_PURE_PYTHON": None,
    "TZ": "UTC",
}
"""The environment every command runs in (None: unset)."""

_PACKAGES = ("duplicate", "ranking", "tui", "lexicon", "data")
"""The project's packages: their modules' references to the clock classes are swapped."""


def games() -> list[str]:
    """The names of the golden games (folders of ``tests/golden`` with a script), sorted."""
    return sorted(path.parent.name for path in HERE.glob(f"*/{SCRIPT}"))


@dataclass(frozen=True)
class Command:
    """One line of a script: ``args`` after ``duplicada``; ``stdout_to`` the file its
    output goes to (None: only the transcript); ``refused`` when it must fail."""

    line: int
    text: str
    args: tuple[str, ...]
    stdout_to: str | None
    refused: bool


def read_script(path: Path) -> list[Command]:
    """The commands of the script at ``path``; ``ValueError`` naming the line for a line
    that is not a ``duplicada`` command."""
    commands = []
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        text = raw.strip()
        if not text or text.startswith("#"):
            continue
        refused = text.startswith("!")
        words = shlex.split(text.removeprefix("!"))
        stdout_to = None
        if len(words) >= 2 and words[-2] == ">":
            stdout_to, words = words[-1], words[:-2]
        if not words or words[0] != "duplicada":
            raise ValueError(f"{path}:{number}: not a duplicada command: {raw!r}")
        commands.append(Command(number, text, tuple(words[1:]), stdout_to, refused))
    return commands


# --- the fixed clock ------------------------------------------------------------------------
_REAL_DATETIME = _datetime_module.datetime
_REAL_DATE = _datetime_module.date


class FixedClock:
    """The moment ``now()`` gives while a script runs (aware, UTC)."""

    moment: _datetime_module.datetime = START


class _LikeDatetime(type):
    def __instancecheck__(cls, instance: object) -> bool:
        return isinstance(instance, _REAL_DATETIME)

    def __subclasscheck__(cls, subclass: type) -> bool:
        return issubclass(subclass, _REAL_DATETIME)


class _LikeDate(type):
    def __instancecheck__(cls, instance: object) -> bool:
        return isinstance(instance, _REAL_DATE)

    def __subclasscheck__(cls, subclass: type) -> bool:
        return issubclass(subclass, _REAL_DATE)


class FixedDatetime(_REAL_DATETIME, metaclass=_LikeDatetime):
    """``datetime`` whose ``now`` is ``FixedClock.moment`` (a real ``datetime`` is returned;
    without a zone, the moment in UTC as the process's ``TZ`` is UTC)."""

    @classmethod
    def now(cls, tz: _datetime_module.tzinfo | None = None) -> _REAL_DATETIME:  # type: ignore[override]
        moment = FixedClock.moment
        return moment.replace(tzinfo=None) if tz is None else moment.astimezone(tz)

    @classmethod
    def utcnow(cls) -> _REAL_DATETIME:  # type: ignore[override]
        return FixedClock.moment.replace(tzinfo=None)

    @classmethod
    def today(cls) -> _REAL_DATETIME:  # type: ignore[override]
        return cls.now()


class FixedDate(_REAL_DATE, metaclass=_LikeDate):
    """``date`` whose ``today`` is the date of ``FixedClock.moment``."""

    @classmethod
    def today(cls) -> _REAL_DATE:  # type: ignore[override]
        return FixedClock.moment.date()


_REAL_PERF_COUNTER = time.perf_counter


def fixed_perf_counter() -> float:
    """``time.perf_counter`` on the fixed clock: the seconds from ``START`` to
    ``FixedClock.moment`` (a command that times itself measures 0 s)."""
    return (FixedClock.moment - START).total_seconds()


_SWAPS: tuple[tuple[Any, Any], ...] = ((_REAL_DATETIME, FixedDatetime), (_REAL_DATE, FixedDate),
                                       (_REAL_PERF_COUNTER, fixed_perf_counter))


def _swap(module: ModuleType, pairs: tuple[tuple[Any, Any], ...]) -> None:
    try:
        names = list(vars(module).items())
    except TypeError:
        return
    for name, value in names:
        for old, new in pairs:
            if value is old:
                setattr(module, name, new)


@contextmanager
def fixed_clock() -> Iterator[type[FixedClock]]:
    """While open, the stdlib's ``datetime.datetime``, ``datetime.date`` and
    ``time.perf_counter`` and every reference to them in the project's modules are the
    fixed ones (modules imported meanwhile get them too); on closing, every module that
    holds one gets the real one back."""
    _swap(_datetime_module, _SWAPS)
    _swap(time, _SWAPS)
    for name, module in list(sys.modules.items()):
        if name.split(".")[0] in _PACKAGES and module is not None:
            _swap(module, _SWAPS)
    try:
        yield FixedClock
    finally:
        back = tuple((new, old) for old, new in _SWAPS)
        for module in list(sys.modules.values()):
            if module is not None:
                _swap(module, back)
        FixedClock.moment = START


@contextmanager
def _environment() -> Iterator[None]:
    saved = {key: os.environ.get(key) for key in ENVIRONMENT}
    try:
        for key, value in ENVIRONMENT.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        time.tzset()
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        time.tzset()


# --- the fixed keys -------------------------------------------------------------------------
_REAL_GENERATE = Ed25519PrivateKey.__dict__["generate"]


@contextmanager
def fixed_keys(game: str) -> Iterator[None]:
    """While open, ``Ed25519PrivateKey.generate`` (a tournament's signing key, issue 35 §2,
    ``duplicate.service.signing``) gives the keys whose 32 private bytes are the SHA-256 of
    ``golden GAME N`` (``N``: 1 for the first key made, 2 for the next…), so that the keys,
    their fingerprints and the records' signatures (Ed25519's are deterministic) are the
    same on every run. Test harness only: the product always draws its keys from the
    operating system."""
    made = 0

    def generate(_cls: type) -> Ed25519PrivateKey:
        nonlocal made
        made += 1
        return Ed25519PrivateKey.from_private_bytes(hashlib.sha256(f"golden {game} {made}".encode()).digest())

    Ed25519PrivateKey.generate = classmethod(generate)  # type: ignore[assignment, method-assign]
    try:
        yield
    finally:
        Ed25519PrivateKey.generate = _REAL_GENERATE  # type: ignore[method-assign]


# --- the replay -----------------------------------------------------------------------------
class ScriptFailed(AssertionError):
    """A command did not end as its script line says (refused or not), or crashed."""


def replay(game: str, work: Path) -> dict[str, bytes]:
    """Run the script of golden game ``game`` in the empty folder ``work``; returns every
    output (path relative to ``expected/``, ``/``-separated → bytes): the files written
    under ``salida/`` and the transcript. Raises ``ScriptFailed`` naming the line of a
    command that crashed, or failed (succeeded) when its line says otherwise."""
    from lexicon.default import default_lexicon_path
    from tui.cli.main import main

    default_lexicon_path(None)             # compiled before the first command: nothing said on stderr
    commands = read_script(HERE / game / SCRIPT)
    work.mkdir(parents=True, exist_ok=True)
    for name, pin in ASSISTANT_PINS.items():
        (work / f"pin-{name}.txt").write_text(pin + "\n", encoding="utf-8")
    (work / "pin-juez.txt").write_text(JUDGE_PIN + "\n", encoding="utf-8")
    (work / OUTPUT).mkdir()
    inputs = HERE / game / INPUTS
    if inputs.is_dir():
        for path in sorted(inputs.iterdir()):
            (work / path.name).write_bytes(path.read_bytes())
    runner = CliRunner()
    transcript: list[str] = []
    with chdir(work), _environment(), fixed_keys(game), fixed_clock() as clock:
        for index, command in enumerate(commands):
            clock.moment = START + index * STEP
            result = runner.invoke(main, list(command.args), prog_name="duplicada", catch_exceptions=True)
            if result.exception is not None and not isinstance(result.exception, SystemExit):
                detail = "".join(traceback.format_exception(result.exception))
                raise ScriptFailed(f"{game}/{SCRIPT}:{command.line}: {command.text}\n{result.output}\n{detail}")
            if (result.exit_code != 0) != command.refused:
                raise ScriptFailed(f"{game}/{SCRIPT}:{command.line}: {command.text}\nexit status "
                                   f"{result.exit_code}, expected {'non-zero' if command.refused else 0}:\n"
                                   f"{result.output}")
            if command.stdout_to is not None:
                Path(command.stdout_to).write_bytes(result.stdout_bytes)
            transcript.append(f"$ {command.text}\n{result.output}"
                              + (f"[salida {result.exit_code}]\n" if result.exit_code else ""))
    outputs = {path.relative_to(work / OUTPUT).as_posix(): path.read_bytes()
               for path in sorted((work / OUTPUT).rglob("*")) if path.is_file() and path.name != PUBLICATION_MANIFEST}
    outputs[TRANSCRIPT] = "".join(transcript).encode("utf-8")
    return outputs


def expected(game: str) -> dict[str, bytes]:
    """The checked-in outputs of ``game`` (as ``replay`` returns them)."""
    folder = HERE / game / EXPECTED
    return {path.relative_to(folder).as_posix(): path.read_bytes()
            for path in sorted(folder.rglob("*")) if path.is_file()}


def write_expected(game: str, outputs: dict[str, bytes]) -> None:
    """Replace ``game``'s ``expected/`` folder by ``outputs``."""
    folder = HERE / game / EXPECTED
    if folder.exists():
        for path in sorted(folder.rglob("*"), reverse=True):
            path.unlink() if path.is_file() else path.rmdir()
    for name, data in outputs.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


def differences(game: str, outputs: dict[str, bytes]) -> list[str]:
    """What differs between ``outputs`` and the checked-in files: one line per missing,
    unexpected or different file (with its first differing line)."""
    wanted = expected(game)
    found: list[str] = []
    for name in sorted(wanted.keys() | outputs.keys()):
        if name not in outputs:
            found.append(f"{name}: expected, not written")
        elif name not in wanted:
            found.append(f"{name}: written, not expected")
        elif outputs[name] != wanted[name]:
            found.append(f"{name}: differs — {_first_difference(wanted[name], outputs[name])}")
    return found


def _first_difference(old: bytes, new: bytes) -> str:
    old_lines, new_lines = old.splitlines(), new.splitlines()
    for number, (a, b) in enumerate(zip(old_lines, new_lines), start=1):
        if a != b:
            return f"line {number}: expected {_short(a)}, got {_short(b)}"
    return f"expected {len(old_lines)} lines, got {len(new_lines)}"


def _short(line: bytes, width: int = 160) -> str:
    text: Any = line.decode("utf-8", "replace")
    return repr(text if len(text) <= width else text[:width] + "…")
