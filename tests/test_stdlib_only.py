"""shared_rules imports nothing outside the standard library (it also runs in Pyodide)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

RULES = Path(__file__).resolve().parent.parent / "shared_rules"
ALLOWED = frozenset(sys.stdlib_module_names) | {"shared_rules", "__future__"}
DYNAMIC_IMPORTERS = {"__import__", "import_module"}


def foreign_imports(source: str, filename: str = "<source>") -> list[str]:
    """'line: module' for each import of a module outside ALLOWED."""
    found = []
    for node in ast.walk(ast.parse(source, filename)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [] if node.level else [node.module or ""]
        elif (
            isinstance(node, ast.Call)
            and (getattr(node.func, "id", None) or getattr(node.func, "attr", None)) in DYNAMIC_IMPORTERS
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
            and not node.args[0].value.startswith(".")
        ):
            names = [node.args[0].value]
        else:
            continue
        found += [f"{node.lineno}: {name}" for name in names if name.split(".")[0] not in ALLOWED]
    return found


def test_the_checker_finds_third_party_imports() -> None:
    source = (
        "from __future__ import annotations\nimport json, os.path\nfrom . import errors\n"
        "from shared_rules.seeded import Rng\nimport requests\nfrom yaml import safe_load\n"
        "import importlib\nimportlib.import_module('numpy')\n"
    )
    assert foreign_imports(source) == ["5: requests", "6: yaml", "8: numpy"]


def test_shared_rules_imports_only_the_standard_library() -> None:
    modules = sorted(RULES.rglob("*.py"))
    assert modules, f"no modules found under {RULES}"
    offenders = [
        f"{path.relative_to(RULES.parent)}:{hit}"
        for path in modules
        if "__pycache__" not in path.parts
        for hit in foreign_imports(path.read_text(encoding="utf-8"), str(path))
    ]
    assert offenders == [], "shared_rules must use the standard library only"
