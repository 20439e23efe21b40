"""Why the move generator walks its own DAWG (issue 2, §3): measurements.

1. Cost of one walk step: ``dict.get`` on the loaded graph versus a prefix query on
   the ``dawg2`` structure (``CompletionDAWG.has_keys_with_prefix``), the only
   edge-by-edge operation dawg2 offers publicly.
2. Size: nodes and edges of the minimised DAWG versus a minimised GADDAG of the
   same words (on a random sample of the default word list, then the ratio).

Usage: ``python bench/structure.py [--sample N]``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import dawg

import data
from lexicon.alphabet import spanish
from lexicon.default import WORD_LIST, read_lines
from lexicon.lexicon import BuildReport, read_word_list
from lexicon.word_graph import build_graph


def count(root: dict) -> tuple[int, int]:
    seen: set[int] = set()
    edges = 0
    stack = [root]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        for key, child in node.items():
            if key >= 0:
                edges += 1
                stack.append(child)
    return len(seen), edges


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sample", type=int, default=60_000)
    args = parser.parse_args()
    alphabet = spanish()
    words = read_word_list(read_lines(data.path(WORD_LIST)), alphabet, BuildReport())
    root = build_graph(words)
    nodes, edges = count(root)
    print(f"DAWG of all {len(words)} words: {nodes} nodes, {edges} edges")

    # 1. Walk step cost: follow every prefix of 20,000 words, letter by letter.
    rng = random.Random(1)
    probe = rng.sample(words, 20_000)
    steps = sum(len(word) for word in probe)
    started = time.perf_counter()
    for word in probe:
        node = root
        for letter in word:
            node = node.get(letter)
    dict_ns = (time.perf_counter() - started) / steps * 1e9
    completion = dawg.CompletionDAWG("".join(chr(0x41 + c) for c in word) for word in words)
    started = time.perf_counter()
    for word in probe:
        key = "".join(chr(0x41 + c) for c in word)
        for end in range(1, len(key) + 1):
            completion.has_keys_with_prefix(key[:end])
    dawg2_ns = (time.perf_counter() - started) / steps * 1e9
    print(f"one walk step: dict graph {dict_ns:.0f} ns, dawg2 prefix query {dawg2_ns:.0f} ns ({dawg2_ns / dict_ns:.1f}×)")

    # 2. DAWG versus GADDAG size on a sample.
    sample = sorted(rng.sample(words, min(args.sample, len(words))))
    separator = alphabet.size
    gaddag_entries = sorted({tuple(reversed(word[:i])) + (separator,) + word[i:] for word in sample
                             for i in range(1, len(word) + 1)})
    d_nodes, d_edges = count(build_graph(sample))
    g_nodes, g_edges = count(build_graph(gaddag_entries))
    print(f"sample of {len(sample)} words: DAWG {d_nodes} nodes / {d_edges} edges; "
          f"GADDAG {g_nodes} nodes / {g_edges} edges ({g_edges / d_edges:.1f}× the edges)")


if __name__ == "__main__":
    main()
