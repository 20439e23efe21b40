"""Rewrite the expected files of the golden games (issue 34 §6) when a change is meant to
alter them: ``python -m tests.golden.rewrite [GAME ...]`` (default: every game) replays
each script as the test does and replaces ``tests/golden/GAME/expected/`` with what it
wrote, then lists the files that changed. Review ``git diff tests/golden`` before
committing: every difference is a change of the program's output."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from tests.golden import replay


def main(argv: list[str]) -> int:
    os.environ.setdefault("DUPLICADA_TEST_SCRYPT_N", "16")           # as tests/conftest.py sets it
    chosen = argv or replay.games()
    unknown = sorted(set(chosen) - set(replay.games()))
    if unknown:
        print(f"unknown golden game(s): {', '.join(unknown)}; known: {', '.join(replay.games())}", file=sys.stderr)
        return 2
    for game in chosen:
        with tempfile.TemporaryDirectory() as work:
            outputs = replay.replay(game, Path(work) / game)
        changed = replay.differences(game, outputs) if (replay.HERE / game / replay.EXPECTED).exists() else ["(new)"]
        replay.write_expected(game, outputs)
        print(f"{game}: {len(outputs)} files; " + ("unchanged" if not changed else f"{len(changed)} changed:"))
        for line in changed:
            print(f"  {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
