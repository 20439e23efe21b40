"""How many tamperings of a real record ``duplicada verify`` catches (issue 26 §2).

Plays the small tournament of ``tests/fuzz/tamperings.py`` through the service (SQLite in
a temporary folder, the default lexicon), exports its record, checks that the record
itself verifies, then applies every tampering of the corpus and counts those ``verify``
reports (at least one difference) and those it passes. Prints one line per tampering
and the total; ``--json OUT`` writes them.

Usage: ``python bench/tamper.py [--json OUT]``. Figure quoted in docs/robustness.md.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from duplicate.record.verify import verify_record
from duplicate.service.facade import TournamentService
from duplicate.storage.database import open_database
from lexicon.default import default_lexicon_path
from lexicon.lexicon import Lexicon
from tests.fuzz.tamperings import JUDGE, POLISH_LEXICON, TAMPERINGS, play_tournament, tamper


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    lexicon = Lexicon.load(default_lexicon_path(None))
    POLISH_LEXICON[:] = [lexicon]
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        service = TournamentService(open_database(str(Path(folder) / "t.db")), lexicon=lexicon, pin=JUDGE)
        play_tournament(service)
        record = json.loads(json.dumps(service.export()))
        service.db.dispose()
    honest = verify_record(record, lexicon)
    print(f"registro honrado: {len(honest)} diferencias; {len(record['events'])} eventos; "
          f"format_version {record.get('format_version')}")
    for difference in honest:
        print(f"  ! {difference}")
    rows = []
    for tampering in TAMPERINGS:
        found = verify_record(json.loads(json.dumps(tamper(record, tampering))), lexicon)
        rows.append({"name": tampering.name, "kind": tampering.kind, "caught": bool(found),
                     "fields": sorted({difference.field for difference in found})})
        mark = "detectada" if found else "PASA     "
        print(f"{mark}  [{tampering.kind}] {tampering.name}: {', '.join(rows[-1]['fields'][:6])}")
    passed = sum(not row["caught"] for row in rows)
    print(f"\n{len(rows) - passed} de {len(rows)} manipulaciones detectadas; {passed} pasan "
          f"({time.perf_counter() - started:.1f} s)")
    if args.json:
        args.json.write_text(json.dumps({"honest_differences": len(honest), "tamperings": rows}, ensure_ascii=False,
                                        indent=1), encoding="utf-8")
    return 0 if not honest else 1


if __name__ == "__main__":
    raise SystemExit(main())
