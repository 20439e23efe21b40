"""import-linter contract types of our own, named in ``[tool.importlinter]`` of ``pyproject.toml``.

``acyclic_modules``: no import cycle among the modules of the given packages, at any
depth. import-linter's ``acyclic_siblings`` compares the children of each package (a
subpackage counted as one), so it cannot see a cycle between a package's ``__init__`` and
one of its own modules; this contract looks at every module, with every import grimp
finds (inside functions and ``TYPE_CHECKING`` blocks too, where cycles used to hide), and
names each cycle it finds: its modules, and a shortest cycle with the lines of its imports.
``lint-imports`` runs from the project's root, which puts this file's package on the path.
"""

from __future__ import annotations

from typing import Any

import grimp
from importlinter.application import output
from importlinter.domain import fields
from importlinter.domain.contract import Contract, ContractCheck


class AcyclicModulesContract(Contract):
    """Fails when the import graph of ``packages`` (and their descendants) has a cycle."""

    type_name = "acyclic_modules"

    packages = fields.ListField(subfield=fields.StringField())

    def check(self, graph: grimp.ImportGraph, verbose: bool) -> ContractCheck:
        roots: list[str] = list(self.packages)  # type: ignore[call-overload]
        modules = {module for module in graph.modules
                   if any(module == root or module.startswith(root + ".") for root in roots)}
        cycles = []
        for component in strongly_connected(modules, graph.find_modules_directly_imported_by):
            path = shortest_cycle(graph, component)
            imports = [(importer, imported, [detail["line_number"] for detail in
                                             graph.get_import_details(importer=importer, imported=imported)])
                       for importer, imported in zip(path, path[1:])]
            cycles.append({"modules": component, "imports": imports})
        output.verbose_print(verbose, f"{len(modules)} modules, {len(cycles)} import cycles.")
        return ContractCheck(kept=not cycles, warnings=None, metadata={"cycles": cycles})

    def render_broken_contract(self, check: ContractCheck) -> None:
        for cycle in check.metadata["cycles"]:
            modules = cycle["modules"]
            output.print_error(f"{len(modules)} modules import each other: {', '.join(modules)}.")
            output.print_error("A shortest cycle among them:")
            for importer, imported, lines in cycle["imports"]:
                output.print_error(f"- {importer} -> {imported} (l. {', '.join(map(str, lines))})")
            output.new_line()


def shortest_cycle(graph: grimp.ImportGraph, component: list[str]) -> list[str]:
    """A shortest import cycle through the first module of ``component`` (a strongly
    connected set of modules): ``[a, b, ..., a]``."""
    start = component[0]
    best: list[str] | None = None
    for following in sorted(graph.find_modules_directly_imported_by(start) & set(component)):
        chain = graph.find_shortest_chain(importer=following, imported=start)
        if chain is not None and (best is None or len(chain) + 1 < len(best)):
            best = [start, *chain]
    assert best is not None, component
    return best


def strongly_connected(nodes: set[str], successors: Any) -> list[list[str]]:
    """The strongly connected components of more than one node (each sorted, the list
    sorted too) of the graph on ``nodes`` whose edges are ``successors(node)`` (those
    outside ``nodes`` ignored): Tarjan's algorithm, iterative (no recursion limit)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []
    for start in sorted(nodes):
        if start in index:
            continue
        work = [(start, iter(sorted(set(successors(start)) & nodes)))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(set(successors(child)) & nodes))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        components.append(sorted(component))
    return sorted(components)
