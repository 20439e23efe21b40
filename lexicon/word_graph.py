"""The letter graph of a compiled lexicon (``graph.bin``, ``docs/lexicon.md``): the words
(rules I.2) as a minimised DAWG — one ``dict`` per node (``Node``: ``{letter_code:
child_node}``, ``FINAL`` on nodes that end a word, ``REACH`` masks the move generator
prunes with) and its flat form in the file (node edge offsets, edge letters, edge
targets, final flags, reach masks; little-endian, checked when read).

``build_graph`` builds it from sorted words (Daciuk et al., 2000); ``lexicon.lexicon``
writes and reads it in the compiled file.
"""

from __future__ import annotations

import io
import sys
from array import array
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from lexicon.word_limits import MAX_TILES

__all__ = ["FINAL", "REACH", "GraphFile", "Node", "build_graph", "graph_from_file", "graph_to_bytes", "read_graph",
           "reach_masks", "walk"]

FINAL = -1
"""Key present in a graph node (with value ``True``) when the path to it spells a word."""

REACH = -2
"""Key of a graph node's reach masks: a tuple of ``MAX_TILES`` ints, bit ``L`` of
item ``d`` set when letter ``L`` can stand ``d`` letters below the node on the
way to a word (item 0: the node's own edges). The move generator prunes with it."""

Node = dict[int, Any]
"""A graph node: ``{letter_code: child_node, FINAL: True?, REACH: masks}``;
negative keys are not letters."""


def build_graph(words: list[tuple[int, ...]]) -> Node:
    """A minimised DAWG of ``words`` (sorted, distinct) — Daciuk et al. (2000),
    incremental construction from sorted data. Returns the root node."""
    root: Node = {}
    register: dict[tuple[tuple[int, int], ...], Node] = {}
    unchecked: list[tuple[Node, int, Node]] = []
    previous: tuple[int, ...] = ()

    def minimise(down_to: int) -> None:
        while len(unchecked) > down_to:
            parent, letter, child = unchecked.pop()
            signature = tuple((key, id(value)) for key, value in child.items())
            existing = register.get(signature)
            if existing is None:
                register[signature] = child
            else:
                parent[letter] = existing

    for word in words:
        common = 0
        limit = min(len(word), len(previous))
        while common < limit and word[common] == previous[common]:
            common += 1
        minimise(common)
        node = unchecked[-1][2] if unchecked else root
        for letter in word[common:]:
            child: Node = {}
            node[letter] = child
            unchecked.append((node, letter, child))
            node = child
        node[FINAL] = True
        previous = word
    minimise(0)
    return root


def walk(node: Node, prefix: list[int]) -> Iterator[tuple[int, ...]]:
    """The words below ``node`` (``prefix`` spelling the way to it), in the graph's order."""
    if FINAL in node:
        yield tuple(prefix)
    for letter, child in node.items():
        if letter < 0:
            continue
        prefix.append(letter)
        yield from walk(child, prefix)
        prefix.pop()


def graph_to_bytes(root: Node) -> bytes:
    """``graph.bin``: the graph under ``root`` in flat little-endian arrays (node 0 the root)."""
    order: list[Node] = []
    index: dict[int, int] = {}
    stack = [root]
    index[id(root)] = 0
    while stack:
        node = stack.pop()
        order.append(node)
        for letter, child in node.items():
            if letter >= 0 and id(child) not in index:
                index[id(child)] = -1
                stack.append(child)
    for position, node in enumerate(order):
        index[id(node)] = position
    first = array("I", [0])
    letters = array("B")
    targets = array("I")
    finals = array("B")
    reach_of = reach_masks(root)
    reach = array("I")
    for node in order:
        reach.extend(reach_of[id(node)])
        finals.append(1 if FINAL in node else 0)
        for letter, child in node.items():
            if letter < 0:
                continue
            letters.append(letter)
            targets.append(index[id(child)])
        first.append(len(letters))
    if sys.byteorder != "little":
        first.byteswap()
        targets.byteswap()
        reach.byteswap()
    buffer = io.BytesIO()
    header = array("I", [len(order), len(letters)])
    if sys.byteorder != "little":
        header.byteswap()
    for part in (header, first, finals, letters, targets, reach):
        buffer.write(part.tobytes())
    return buffer.getvalue()


@dataclass(frozen=True)
class GraphFile:
    """``graph.bin`` read into numpy arrays (little-endian, checked): ``first`` edge of
    each node (``nodes + 1``), ``finals`` (``nodes``), edge ``letters`` and ``targets``,
    ``reach`` masks (``nodes × MAX_TILES``). Node 0 is the root."""

    first: np.ndarray
    finals: np.ndarray
    letters: np.ndarray
    targets: np.ndarray
    reach: np.ndarray


def read_graph(blob: bytes, letter_count: int) -> GraphFile:
    """Read ``graph_to_bytes`` output; ``ValueError`` if it is inconsistent."""
    if len(blob) < 8:
        raise ValueError("grafo truncado")
    node_count, edge_count = (int(value) for value in np.frombuffer(blob, dtype="<u4", count=2))
    sizes = [("first", "<u4", node_count + 1), ("finals", "u1", node_count), ("letters", "u1", edge_count),
             ("targets", "<u4", edge_count), ("reach", "<u4", MAX_TILES * node_count)]
    if 8 + sum(np.dtype(kind).itemsize * count for _, kind, count in sizes) != len(blob):
        raise ValueError("tamaño del grafo incoherente")
    parts: dict[str, np.ndarray] = {}
    offset = 8
    for name, kind, count in sizes:
        parts[name] = np.frombuffer(blob, dtype=kind, count=count, offset=offset)
        offset += np.dtype(kind).itemsize * count
    first = parts["first"]
    if node_count < 1 or first[0] != 0 or first[-1] != edge_count or bool(np.any(np.diff(first.astype(np.int64)) < 0)):
        raise ValueError("desplazamientos de aristas incoherentes")
    if edge_count and (int(parts["targets"].max()) >= node_count or int(parts["letters"].max()) >= letter_count):
        raise ValueError("arista hacia un nodo o letra inexistente")
    return GraphFile(first, parts["finals"], parts["letters"], parts["targets"],
                      parts["reach"].reshape(node_count, MAX_TILES))


def graph_from_file(graph: GraphFile) -> Node:
    """The graph as one ``dict`` per node (for the pure-Python walker and listings)."""
    reach = [tuple(row) for row in graph.reach.tolist()]
    nodes: list[Node] = [{FINAL: True, REACH: masks} if final else {REACH: masks}
                         for final, masks in zip(graph.finals.tolist(), reach)]
    letters, targets, first = graph.letters.tolist(), graph.targets.tolist(), graph.first.tolist()
    start = 0
    for node, end in zip(nodes, first[1:]):
        for edge in range(start, end):
            node[letters[edge]] = nodes[targets[edge]]
        start = end
    return nodes[0]


def reach_masks(root: Node) -> dict[int, tuple[int, ...]]:
    """Reach masks (see ``REACH``) of every node, by ``id``."""
    masks: dict[int, tuple[int, ...]] = {}

    def visit(node: Node) -> tuple[int, ...]:
        known = masks.get(id(node))
        if known is not None:
            return known
        here = [0] * MAX_TILES
        for letter, child in node.items():
            if letter < 0:
                continue
            here[0] |= 1 << letter
            below = visit(child)
            for depth in range(1, MAX_TILES):
                here[depth] |= below[depth - 1]
        result = tuple(here)
        masks[id(node)] = result
        return result

    visit(root)
    return masks

