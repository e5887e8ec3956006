"""Run ``python -m shared_rules ...`` both in Pyodide (under Node) and in CPython.

Tests use the pair to prove the browser and the server give the same bytes::

    files = {"event.json": FIXTURES / "event.json"}
    assert run_in_pyodide_cli(["standings", "event.json"], files) == \\
        run_in_cpython_cli(["standings", "event.json"], files)

``files`` maps a relative name, as the arguments refer to it, to a host path,
``bytes`` or ``str`` (UTF-8).  Both runs start in a fresh working folder holding
just those files.  Each Pyodide boot costs a few seconds: to run many
invocations at once use ``run_many_in_pyodide_cli``.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUN_CLI = ROOT / "tests" / "pyodide" / "run_cli.mjs"

FileSource = str | bytes | os.PathLike
Result = tuple[int, str, str]


class PyodideRunnerError(RuntimeError):
    """The Node runner itself failed (not the Python code it ran)."""


def _bytes(source: FileSource) -> bytes:
    if isinstance(source, bytes):
        return source
    if isinstance(source, str):
        return source.encode("utf-8")
    return Path(source).read_bytes()


def _node() -> str:
    node = shutil.which("node")
    if node is None:
        raise PyodideRunnerError("node is not on PATH")
    if not (ROOT / "node_modules" / "pyodide").is_dir():
        raise PyodideRunnerError("node_modules/pyodide is missing: run `npm ci` (make test does)")
    return node


def run_many_in_pyodide_cli(
    invocations: Sequence[tuple[Sequence[str], Mapping[str, FileSource]]],
    module: str = "shared_rules",
    timeout: float = 300,
) -> list[Result]:
    """Run each ``(args, files)`` as ``python -m module *args`` in one Pyodide."""
    spec = [
        {
            "module": module,
            "args": list(args),
            "files": {name: base64.b64encode(_bytes(src)).decode("ascii") for name, src in files.items()},
        }
        for args, files in invocations
    ]
    with tempfile.TemporaryDirectory(prefix="topcut-pyodide-") as tmp:
        spec_path = Path(tmp) / "spec.json"
        spec_path.write_text(json.dumps(spec), encoding="utf-8")
        proc = subprocess.run(
            [_node(), str(RUN_CLI), "--batch", str(spec_path)],
            cwd=ROOT,
            capture_output=True,
            timeout=timeout,
            stdin=subprocess.DEVNULL,
        )
    if proc.returncode != 0:
        raise PyodideRunnerError(f"run_cli.mjs exited {proc.returncode}:\n{proc.stderr.decode('utf-8', 'replace')}")
    lines = proc.stdout.decode("utf-8").strip().splitlines()
    return [(item["code"], _decode(item["stdout"]), _decode(item["stderr"])) for item in json.loads(lines[-1])]


def _decode(b64: str) -> str:
    return base64.b64decode(b64).decode("utf-8")


def run_in_pyodide_cli(
    args: Sequence[str], files: Mapping[str, FileSource] | None = None, module: str = "shared_rules"
) -> Result:
    """``python -m module *args`` inside Pyodide: (exit code, stdout, stderr)."""
    return run_many_in_pyodide_cli([(args, files or {})], module=module)[0]


def run_in_cpython_cli(
    args: Sequence[str],
    files: Mapping[str, FileSource] | None = None,
    module: str = "shared_rules",
    timeout: float = 300,
) -> Result:
    """The same invocation under this CPython: (exit code, stdout, stderr)."""
    env = dict(os.environ, PYTHONUTF8="1", PYTHONIOENCODING="utf-8")
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    env.pop("PYTHONSTARTUP", None)
    with tempfile.TemporaryDirectory(prefix="topcut-cpython-") as tmp:
        for name, src in (files or {}).items():
            target = Path(tmp) / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(_bytes(src))
        proc = subprocess.run(
            [sys.executable, "-m", module, *args],
            cwd=tmp,
            env=env,
            capture_output=True,
            timeout=timeout,
            stdin=subprocess.DEVNULL,
        )
    return proc.returncode, proc.stdout.decode("utf-8"), proc.stderr.decode("utf-8")
