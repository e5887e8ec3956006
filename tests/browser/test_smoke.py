"""Smoke tests: the app shell boots shared_rules in Pyodide, all from this server."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent.parent


def pyodide_python_version() -> str:
    """The CPython version the installed Pyodide release ships, e.g. '3.14.2'."""
    lock = json.loads((ROOT / "node_modules" / "pyodide" / "pyodide-lock.json").read_text(encoding="utf-8"))
    return lock["info"]["python"]


def test_app_shell_and_pyodide_files_are_served_with_browser_types(client, web_build) -> None:
    page = client.get("/")
    assert page.status_code == 200
    assert page.mimetype == "text/html"
    assert b'id="python-version"' in page.data

    wasm = client.get("/pyodide/pyodide.asm.wasm")
    assert wasm.status_code == 200
    assert wasm.mimetype == "application/wasm"
    assert wasm.data[:4] == b"\0asm"

    for path in ("/pyodide/pyodide.mjs", "/pwa/main.js", "/pwa/rules/rules-worker.js"):
        response = client.get(path)
        assert (path, response.status_code, response.mimetype) == (path, 200, "text/javascript")

    rules = client.get("/shared_rules.zip")
    assert (rules.status_code, rules.mimetype) == (200, "application/zip")
    assert client.get("/pyodide/../pyproject.toml").status_code == 404


def test_app_shell_runs_shared_rules_in_a_pyodide_worker(live_server, page, screenshot) -> None:
    requests: list[str] = []
    failures: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.on("requestfailed", lambda request: failures.append(f"{request.url}: {request.failure}"))
    page.on(
        "response",
        lambda response: response.status >= 400 and failures.append(f"{response.url}: HTTP {response.status}"),
    )
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))

    page.goto(live_server.url + "/")
    page.wait_for_selector("#status[data-state=ready], #status[data-state=error]", timeout=120_000)
    shot = screenshot("ready")

    assert page.get_attribute("#status", "data-state") == "ready", page.text_content("#status")
    assert page.text_content("#python-version") == f"Python {pyodide_python_version()}"
    assert (failures, errors) == ([], [])

    # The worker's own fetches are seen too, and every request stayed on this server.
    paths = {urlsplit(url).path for url in requests}
    assert {
        "/",
        "/pwa/rules/rules-worker.js",
        "/pyodide/pyodide.asm.wasm",
        "/rules/index.json",
        "/rules/shared_rules.state.pack",
    } <= paths
    assert {urlsplit(url).netloc for url in requests} == {f"{live_server.host}:{live_server.port}"}
    assert shot.is_file()
