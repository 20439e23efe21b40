"""Issue 38: a read-only command starts without the modules it never uses.

``standings`` reads the projected tables: it must not load numpy (0.08 s), the compiled
lexicon or its move generator, nor cryptography (the record's signatures). Checked on a
real database, in a fresh interpreter, by what ``sys.modules`` holds after the command."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from tests.credentials import JUDGE_PIN
from tui.cli.main import main

NEVER_LOADED = ("numpy", "lexicon.lexicon", "lexicon.movegen", "lexicon.gaddag", "duplicate.rules.tie_ranking",
                "cryptography")

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
