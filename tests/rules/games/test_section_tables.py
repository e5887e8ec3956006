"""Every game package's docstring is a complete table from document section to code: each module of the
package (its subpackages' modules through the subpackage) is named in the table's right column.
unittest only: the same file runs under pytest and in Pyodide (which has the source files too)."""

from __future__ import annotations

import importlib
import re
import unittest
from pathlib import Path

from shared_rules.games import PACKAGES

#: A name the right column gives: :mod:`.structures`, ``ruleset.OUTCOMES``, :func:`.ruleset.build`.
_REFERENCE = re.compile(r"`\.?([A-Za-z_][\w.]*)")


def table_references(package: str) -> set[str]:
    """The dotted names, relative to the game package, that its docstring table's right column gives."""
    doc = importlib.import_module(f"shared_rules.games.{package}").__doc__ or ""
    lines = doc.splitlines()
    rules = [i for i, line in enumerate(lines) if re.fullmatch(r"=+ +=+", line)]
    if len(rules) != 3:
        raise AssertionError(f"{package}: its docstring has no section table (three ==== rules)")
    column = lines[rules[0]].index(" =") + 1
    prefix = f"shared_rules.games.{package}."
    names = set()
    for line in lines[rules[1] + 1 : rules[2]]:
        for name in _REFERENCE.findall(line[column:]):
            names.add(name.removeprefix(prefix))
    return names


def package_modules(package: str) -> list[str]:
    """Every module of a game package, dotted relative to it (``tom.importer``), ``__init__`` left out."""
    root = Path(importlib.import_module(f"shared_rules.games.{package}").__file__ or "").parent
    return sorted(
        ".".join(path.relative_to(root).with_suffix("").parts)
        for path in root.rglob("*.py")
        if path.name != "__init__.py"
    )


def is_named(module: str, references: set[str]) -> bool:
    """Whether the table names the module, something in it, or the subpackage holding it."""
    parts = module.split(".")
    covering = {".".join(parts[:i]) for i in range(1, len(parts) + 1)}
    return any(ref in covering or ref.startswith(module + ".") for ref in references)


class SectionTableTest(unittest.TestCase):
    def test_every_module_of_every_game_package_is_named_in_its_table(self) -> None:
        for package in PACKAGES:
            references = table_references(package)
            with self.subTest(package=package):
                missing = [m for m in package_modules(package) if not is_named(m, references)]
                self.assertEqual([], missing, f"{package}: modules its section table does not name")

    def test_star_trek_table_names_leagues_and_the_report(self) -> None:
        references = table_references("startrek")
        self.assertIn("leagues", references)  # OP Guide 12
        self.assertIn("report", references)  # OP Guide 8, Appendix A

    def test_a_module_left_out_of_a_table_is_found(self) -> None:
        self.assertFalse(is_named("leagues.table", {"ratings", "ruleset.OUTCOMES"}))
        self.assertTrue(is_named("leagues.table", {"leagues"}))
        self.assertTrue(is_named("ruleset", {"ruleset.OUTCOMES"}))
        self.assertFalse(is_named("game", {"game_end"}))


if __name__ == "__main__":
    unittest.main()
