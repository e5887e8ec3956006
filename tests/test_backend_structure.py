"""The backend's shape stays easy to change: short functions, no star imports, no package importing itself back."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BACKEND = ROOT / "backend"
#: The longest a backend function may be, in lines (decorators, docstring and OpenAPI text included).
MAX_FUNCTION_LINES = 80
#: Alembic revisions are history, written once and never changed: their upgrade() stays as it was made.
FROZEN = BACKEND / "migrations" / "versions"


def _modules() -> list[Path]:
    return sorted(path for path in BACKEND.rglob("*.py") if FROZEN not in path.parents)


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def test_no_backend_function_is_longer_than_80_lines():
    long = []
    for path in _modules():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                start = min([node.lineno] + [d.lineno for d in node.decorator_list])
                lines = (node.end_lineno or node.lineno) - start + 1
                if lines > MAX_FUNCTION_LINES:
                    long.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name}: {lines} lines")
    assert long == [], "split these functions:\n" + "\n".join(long)


def test_the_backend_has_no_star_imports():
    stars = [
        f"{path.relative_to(ROOT)}:{node.lineno} from {node.module} import *"
        for path in _modules()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ImportFrom) and any(alias.name == "*" for alias in node.names)
    ]
    assert stars == []


def _top_level_imports(path: Path) -> set[str]:
    """The backend modules a module imports when it loads (imports inside functions are late: not counted)."""
    found = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("backend"):
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name.startswith("backend"))
    return found


def test_no_package_module_imports_its_package_back():
    """A package's __init__ that loads a submodule must not be read by it (half-made names, star cycles)."""
    modules = {_module_name(path): path for path in _modules()}
    back = []
    for name, path in modules.items():
        if path.name != "__init__.py":
            continue
        loaded = {m for m in _top_level_imports(path) if m.startswith(name + ".") and m in modules}
        for sub in sorted(loaded):
            if name in _top_level_imports(modules[sub]) - {sub}:
                back.append(f"{sub} imports {name}, which imports it")
    assert back == []


def test_star_trek_server_code_lives_in_its_package():
    flat = {path.name for path in BACKEND.glob("*.py")}
    assert not flat & {"leagues.py", "league_backups.py", "ratings.py"}
    assert {"leagues.py", "league_backups.py", "ratings.py", "schemas.py"} <= {
        path.name for path in (BACKEND / "startrek").glob("*.py")
    }


def test_no_role_set_is_typed_out_in_the_backend():
    """Role sets come from the shared role table (shared_rules/state/roles.py), never written out again."""
    from shared_rules.state.roles import ROLES

    typed = []
    for path in _modules():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Set | ast.Tuple | ast.List):
                words = [e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
                if len(words) == len(node.elts) and len(set(words) & set(ROLES)) >= 2:
                    typed.append(f"{path.relative_to(ROOT)}:{node.lineno} {words}")
    assert typed == []
