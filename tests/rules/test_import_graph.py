"""The import graph of ``shared_rules`` between its packages: the generic engines are handed their game
and never import the game registry, so no two packages import each other (issue #24).

What counts: every ``import`` and ``from ... import`` statement of every module, at module level or
inside a function (a late import still runs), read with ``ast`` from the source files; imports under
``if TYPE_CHECKING:`` are type-level only and do not count, nor do doctest examples. A node is a
top-level package of ``shared_rules`` (``games`` with every game in it) or a top-level module
(``errors``, ``cli``). unittest only: the same file runs under pytest and in Pyodide, which has the
source files too.
"""

from __future__ import annotations

import ast
import unittest
from collections.abc import Iterator
from pathlib import Path

import shared_rules

ROOT = Path(shared_rules.__file__).parent

#: The generic engines and models: handed their game (or its ruleset, policy, bracket rules), never
#: importing the registry. Only the top (``run``, ``state``, ``cli``, exporters, importers) resolves ids.
ENGINES = ("brackets", "event", "game_end", "matches", "pairing", "rulesets", "standings", "structures")


def module_name(path: Path) -> str:
    """``shared_rules/brackets/cut.py`` → ``shared_rules.brackets.cut`` (a package is its ``__init__``)."""
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def node(module: str) -> str:
    """The top-level package or module of ``shared_rules`` a module belongs to."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def runtime_imports(tree: ast.AST, module: str, is_package: bool) -> Iterator[tuple[str, int]]:
    """``(imported module, line)`` of every import that runs, at any depth, skipping TYPE_CHECKING blocks."""
    for child in ast.iter_child_nodes(tree):
        if isinstance(child, ast.If) and _is_type_checking(child.test):
            for statement in child.orelse:
                yield from runtime_imports(ast.Module(body=[statement], type_ignores=[]), module, is_package)
            continue
        if isinstance(child, ast.Import):
            for alias in child.names:
                yield alias.name, child.lineno
        elif isinstance(child, ast.ImportFrom):
            if child.level:
                base = module.split(".") if is_package else module.split(".")[:-1]
                base = base[: len(base) - (child.level - 1)]
                yield ".".join(base + ([child.module] if child.module else [])), child.lineno
            elif child.module:
                yield child.module, child.lineno
        yield from runtime_imports(child, module, is_package)


def package_graph() -> dict[str, dict[str, list[str]]]:
    """node → node it imports → where (``module:line``), between different nodes of shared_rules."""
    graph: dict[str, dict[str, list[str]]] = {}
    for path in sorted(ROOT.rglob("*.py")):
        module = module_name(path)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for imported, line in runtime_imports(tree, module, path.name == "__init__.py"):
            if imported.split(".")[0] != "shared_rules" or node(imported) == node(module):
                continue
            graph.setdefault(node(module), {}).setdefault(node(imported), []).append(f"{module}:{line}")
    return graph


def cycles(graph: dict[str, dict[str, list[str]]]) -> set[frozenset[str]]:
    """The strongly connected components of more than one node (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: set[frozenset[str]] = set()
    nodes = sorted(set(graph) | {b for targets in graph.values() for b in targets})
    for start in nodes:
        if start in index:
            continue
        work = [(start, iter(sorted(graph.get(start, {}))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            current, targets = work[-1]
            step = next(targets, None)
            if step is not None:
                if step not in index:
                    index[step] = low[step] = len(index)
                    stack.append(step)
                    on_stack.add(step)
                    work.append((step, iter(sorted(graph.get(step, {})))))
                elif step in on_stack:
                    low[current] = min(low[current], index[step])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[current])
            if low[current] == index[current]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == current:
                        break
                if len(component) > 1:
                    found.add(frozenset(component))
    return found


def mutual_imports(graph: dict[str, dict[str, list[str]]]) -> list[str]:
    """Every pair of nodes importing each other, with where, for a failure message."""
    return [
        f"{a} ↔ {b} ({graph[a][b][0]}; {graph[b][a][0]})"
        for a in sorted(graph)
        for b in sorted(graph[a])
        if a < b and a in graph.get(b, {})
    ]


class ImportGraphTest(unittest.TestCase):
    def test_no_two_packages_reach_each_other(self) -> None:
        graph = package_graph()
        self.assertEqual(set(), cycles(graph), "\n".join(mutual_imports(graph)))

    def test_the_engines_never_import_the_game_registry(self) -> None:
        graph = package_graph()
        for engine in ENGINES:
            with self.subTest(engine=engine):
                self.assertEqual([], graph.get(engine, {}).get("games", []))

    def test_the_standings_do_not_import_the_brackets(self) -> None:
        # Who won one match (``matches``) is shared by both; the cut ranks by the standings.
        self.assertNotIn("brackets", package_graph().get("standings", {}))
        self.assertNotIn("brackets", package_graph().get("matches", {}))

    def test_the_models_the_games_import_do_not_import_the_registry(self) -> None:
        for relative in ("brackets/rules.py", "pairing/policies.py", "rulesets/base.py", "structures/_model.py"):
            path = ROOT / relative
            module = module_name(path)
            imported = {m for m, _ in runtime_imports(ast.parse(path.read_text(encoding="utf-8")), module, False)}
            with self.subTest(module=module):
                self.assertEqual(set(), {m for m in imported if node(m) == "games"})

    def test_cycles_are_found_through_any_number_of_packages(self) -> None:
        graph = {"a": {"b": ["x"]}, "b": {"c": ["x"]}, "c": {"a": ["x"]}, "d": {"a": ["x"]}}
        self.assertEqual({frozenset({"a", "b", "c"})}, cycles(graph))
        self.assertEqual(set(), cycles({"a": {"b": ["x"]}, "b": {"c": ["x"]}}))

    def test_late_imports_count_and_type_checking_imports_do_not(self) -> None:
        source = (
            "from typing import TYPE_CHECKING\n"
            "if TYPE_CHECKING:\n    from ..games import Game\n"
            "def f():\n    from ..games import game_of\n"
        )
        found = [m for m, _ in runtime_imports(ast.parse(source), "shared_rules.brackets.cut", False)]
        self.assertEqual(["typing", "shared_rules.games"], found)


if __name__ == "__main__":
    unittest.main()
