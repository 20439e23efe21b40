#!/usr/bin/env python3
"""Build the default lexicon ``data/lexicon-es.txt.xz`` from the free sources (issue 15).

Run from the repository root, with the project installed with its ``lexicon-build`` extra
(spylls, which parses the affix files)::

    pip install -e '.[lexicon-build]'
    python scripts/build_default_wordlist.py [--sources DIR] [--out FILE] [--list]

``--sources`` is the folder of ``shared/lexicon-sources`` (RLA-ES 2.9, COES, wspanish;
default ``../shared/lexicon-sources`` beside the repository, or ``$DUPLICADA_LEXICON_SOURCES``).
The output depends only on those files: the same sources give a byte-identical file (UTF-8,
one word a line, sorted; xz preset 9). The summary lists what each step adds and removes;
``--list`` also prints the forms the small filters removed. Steps and the FISE admission
principles they implement: ``scripts/default_lexicon/build.py`` and ``docs/lexicon.md``.

This is NOT the official FISE lexicon; see ``data/LICENSE-lexicon-es.txt``.
"""

from __future__ import annotations

import argparse
import lzma
import os
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from scripts.default_lexicon.build import build  # noqa: E402
from scripts.default_lexicon.sources import SourceError  # noqa: E402

DEFAULT_SOURCES = REPO.parent / "shared" / "lexicon-sources"
DEFAULT_OUT = REPO / "data" / "lexicon-es.txt.xz"


def compressed(words: list[str]) -> bytes:
    """The word list file's bytes: one word a line, UTF-8, xz preset 9 (deterministic)."""
    return lzma.compress(("\n".join(words) + "\n").encode("utf-8"), format=lzma.FORMAT_XZ, preset=9)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[1])
    parser.add_argument("--sources", type=Path,
                        default=Path(os.environ.get("DUPLICADA_LEXICON_SOURCES", DEFAULT_SOURCES)))
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--list", action="store_true", help="también las formas quitadas por los filtros pequeños")
    args = parser.parse_args(argv)
    start = time.monotonic()
    try:
        words, steps, listed = build(args.sources)
    except (SourceError, ValueError) as error:
        print(f"Error: {error}", file=sys.stderr)
        return 1
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_bytes(compressed(words))
    width = max(len(step.label) for step in steps)
    for step in steps:
        change = f"+{step.added:,}" if step.added else f"({step.included:,})" if step.included else f"-{step.removed:,}"
        print(f"{step.label:<{width}}  {change:>10}")
    print(f"final: {len(words):,} palabras -> {args.out} ({args.out.stat().st_size:,} bytes)")
    print(f"tiempo: {time.monotonic() - start:.1f} s")
    if args.list:
        for label, removed in listed.items():
            print(f"\n# {label} ({len(removed)}):\n" + " ".join(sorted(removed)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
