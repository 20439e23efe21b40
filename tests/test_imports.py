"""Issue 38: a read-only command starts without the modules it never uses.

``standings`` reads the projected tables: it must not load numpy (0.08 s), the compiled
lexicon or its move generator, nor cryptography (the record's signatures); nor the
service's task modules it does not call (the façade builds each on first use,
``duplicate.service.facade.TaskModules``), the projector and the events it applies (a
write's), EloDI (a hook's), the game engine's replay, a venue import's checks, nor the view
dataclasses. Checked on a real database, in a fresh interpreter, by what ``sys.modules``
holds after the command."""

from __future__ import annotations

import gc
import inspect
import os
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from duplicate.service.facade import TournamentService
from duplicate.service.slip_entry import SlipEntry
from duplicate.service.venues import Venues
from duplicate.storage.database import open_database
from tests.credentials import JUDGE_PIN
from tui.cli.main import main

NEVER_LOADED = ("numpy", "lexicon.lexicon", "lexicon.movegen", "lexicon.gaddag", "duplicate.rules.tie_ranking",
                "cryptography",
                # task modules ``standings`` does not call, and what only a write or a hook loads
                "duplicate.service.corrections", "duplicate.service.slip_entry", "duplicate.service.slip_batch",
                "duplicate.service.rounds", "duplicate.service.masters", "duplicate.service.results",
                "duplicate.service.record", "duplicate.service.restore", "duplicate.service.signing",
                "duplicate.storage.projector", "duplicate.record.events", "duplicate.storage.classic_models",
                "duplicate.storage.rating_models", "ranking.ratings", "duplicate.rules.game",
                "duplicate.record.verify", "duplicate.prepared.check", "duplicate.service.views")

SCRIPT = """
import sys
from tui.cli.main import main
try:
    main(sys.argv[1:], standalone_mode=False)
except SystemExit:
    pass
print("CARGADOS=" + ",".join(name for name in {names!r} if name in sys.modules))
"""


def test_standings_loads_neither_numpy_nor_the_generator_nor_cryptography(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    made = CliRunner().invoke(main, ["simulate", "--players", "6", "--games", "1", "--rounds", "3", "--seed", "4",
                                     "--db", str(db)], env={"DUPLICADA_PIN": JUDGE_PIN})
    assert made.exit_code == 0, made.output
    root = Path(__file__).resolve().parents[1]
    result = subprocess.run([sys.executable, "-c", SCRIPT.format(names=NEVER_LOADED), "standings", "--db", str(db)],
                            capture_output=True, text=True, timeout=120, cwd=root, check=True,
                            env={**os.environ, "PYTHONPATH": str(root)})
    lines = result.stdout.strip().splitlines()
    # The command did its work: the table lists the six players (puesto 1..6) …
    assert sum(1 for line in lines if line.strip()[:1].isdigit()) >= 6, result.stdout[-800:]
    # … and loaded none of the modules it does not use.
    assert lines[-1] == "CARGADOS=", result.stdout[-800:] + result.stderr[-800:]


def test_the_facade_shows_the_task_modules_methods_before_loading_them(tmp_path: Path) -> None:
    """A façade method named without importing its module (``delegate.TaskClass``) still
    shows the module's docstring and signature, and calls it."""
    assert TournamentService.enter_slip.__doc__ == SlipEntry.enter_slip.__doc__ and SlipEntry.enter_slip.__doc__
    assert TournamentService.venues.__doc__ == Venues.venues.__doc__
    service = TournamentService(open_database(str(tmp_path / "t.db")), pin=JUDGE_PIN)
    assert inspect.signature(service.enter_slip) == inspect.signature(service.modules.slip_entry.enter_slip)
    assert service.modules.slip_entry is service.modules.slip_entry          # built once, on first use
    assert service.modules.corrections.slip_entry is service.modules.slip_entry
    tournament = service.create_tournament("Abierto")
    assert TournamentService.tournament(service, tournament).name == "Abierto"    # called on the class, too
    assert service.venues(tournament) == [] and service.entry_names(tournament) == {}


def test_standings_gives_the_garbage_collector_back(tmp_path: Path) -> None:
    """``standings`` runs with the cyclic collector paused (``tui.cli.main.GC_PAUSED``) and
    enables it again when it returns, even when it fails."""
    assert gc.isenabled()
    db = tmp_path / "t.db"
    made = CliRunner().invoke(main, ["simulate", "--players", "4", "--games", "1", "--rounds", "2", "--seed", "3",
                                     "--db", str(db)], env={"DUPLICADA_PIN": JUDGE_PIN})
    assert made.exit_code == 0, made.output
    shown = CliRunner().invoke(main, ["standings", "--db", str(db)])
    assert shown.exit_code == 0, shown.output
    assert gc.isenabled()
    failed = CliRunner().invoke(main, ["standings", "--db", str(db), "--game", "9"])
    assert failed.exit_code != 0 and gc.isenabled()
