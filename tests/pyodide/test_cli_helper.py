"""The Pyodide CLI helper runs modules like `python -m` does under CPython."""

from __future__ import annotations

from tests.pyodide_helper import (
    run_in_cpython_cli,
    run_in_pyodide_cli,
    run_many_in_pyodide_cli,
)

ECHO_TOOL = """\
import json, pathlib, sys
data = pathlib.Path(sys.argv[1]).read_text(encoding="utf-8")
print(json.dumps({"args": sys.argv[1:], "data": data}, ensure_ascii=False, sort_keys=True))
print("warning: Pokémon ✓", file=sys.stderr)
sys.exit(3)
"""

WHERE_AM_I = "import sys\nprint(sys.platform, sys.version_info[:2] >= (3, 11))\n"


def test_pyodide_run_gives_exit_code_stdout_and_stderr() -> None:
    files = {"echo_tool.py": ECHO_TOOL, "in/event.json": '{"name": "Regionals – Ünïcode"}\n'}
    result = run_in_pyodide_cli(["in/event.json", "--flag", "two words"], files, module="echo_tool")
    assert result == (
        3,
        '{"args": ["in/event.json", "--flag", "two words"], "data": "{\\"name\\": \\"Regionals – Ünïcode\\"}\\n"}\n',
        "warning: Pokémon ✓\n",
    )
    assert result == run_in_cpython_cli(["in/event.json", "--flag", "two words"], files, module="echo_tool")


def test_pyodide_runs_really_are_inside_pyodide_and_separate() -> None:
    results = run_many_in_pyodide_cli(
        [
            ([], {"where_am_i.py": WHERE_AM_I}),
            ([], {}),  # a fresh working folder: the first run's module is gone
        ],
        module="where_am_i",
    )
    assert results[0] == (0, "emscripten True\n", "")
    code, stdout, stderr = results[1]
    assert (code, stdout) == (1, "")
    assert "No module named where_am_i" in stderr


def test_shared_rules_cli_gives_the_same_bytes_in_pyodide_and_cpython() -> None:
    args = ["structure", "pokemon-tcg", "32"]
    assert run_in_pyodide_cli(args) == run_in_cpython_cli(args)
