"""What an app update costs a tablet: a stylesheet fix downloads kilobytes, not Pyodide again.

The server here serves a copy of pwa/ and a build folder of its own (links to
build/web/'s Pyodide, vendor files and shared_rules.zip, plus a precache
manifest written by the build's own code for that copy), and counts the bytes
of every response body it sends. The test installs the app, changes one CSS
rule in the copy and writes the manifest again (a deploy of a CSS fix), lets
the open page find the new worker, and counts what the update fetched until
the new worker waits for "Reload now"; then what reloading into it costs.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import threading
from collections.abc import Iterable
from pathlib import Path

import pytest

import backend.shell
from backend import create_app
from tests.browser.helpers import BOOT_MS, ROOT, shot, wait_controlled, wait_js

#: An update that changes one stylesheet may fetch at most this much (the worker script and
#: its imports, the manifest, the changed file).
UPDATE_BUDGET = 200_000


def _build_assets():
    spec = importlib.util.spec_from_file_location("build_assets", ROOT / "scripts" / "build_assets.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class ByteCounter:
    """WSGI middleware: (path, status, body bytes) of every response, in the order they finish."""

    def __init__(self, app) -> None:
        self.app = app
        self.lock = threading.Lock()
        self.responses: list[tuple[str, int, int]] = []

    def __call__(self, environ, start_response) -> Iterable[bytes]:
        path = environ.get("PATH_INFO", "")
        status = [0]

        def start(line, headers, exc_info=None):
            status[0] = int(line.split()[0])
            return start_response(line, headers, exc_info)

        body = self.app(environ, start)
        sent = 0
        try:
            for chunk in body:
                sent += len(chunk)
                yield chunk
        finally:
            getattr(body, "close", lambda: None)()
            with self.lock:
                self.responses.append((path, status[0], sent))

    def mark(self) -> int:
        with self.lock:
            return len(self.responses)

    def since(self, mark: int) -> list[tuple[str, int, int]]:
        with self.lock:
            return self.responses[mark:]


class DeployableServer:
    """The app over a copy of pwa/ and a build folder of its own, which the test can redeploy."""

    def __init__(self, web_build: Path, tmp: Path) -> None:
        self.build_assets = _build_assets()
        self.pwa = tmp / "pwa"
        shutil.copytree(ROOT / "pwa", self.pwa, ignore=shutil.ignore_patterns("__pycache__"))
        self.build = tmp / "web"
        self.build.mkdir()
        for name in ("pyodide", "vendor", "shared_rules.zip", "rules"):
            (self.build / name).symlink_to(web_build / name)
        self.deploy()
        from werkzeug.serving import make_server

        app = create_app(
            {
                "INSTANCE_PATH": tmp / "instance",
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp / 'db.sqlite'}",
                "PWA_DIR": str(self.pwa),
                "WEB_BUILD_DIR": str(self.build),
            }
        )
        self.counter = ByteCounter(app.wsgi_app)
        app.wsgi_app = self.counter
        self.server = make_server("127.0.0.1", 0, app, threaded=True)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        self.url = f"http://127.0.0.1:{self.server.server_port}"

    def deploy(self) -> None:
        """Write the precache manifest for what the folders hold now (what the build step does)."""
        (self.build / "precache-manifest.json").write_bytes(self.build_assets.precache_manifest(self.pwa, self.build))

    def stop(self) -> None:
        self.server.shutdown()
        self.thread.join(timeout=10)


@pytest.fixture
def deployable(web_build, tmp_path):
    server = DeployableServer(web_build, tmp_path)
    try:
        yield server
    finally:
        server.stop()


def total(responses) -> int:
    return sum(sent for _, _, sent in responses)


def describe(responses) -> str:
    return ", ".join(f"{path} {status} {sent:,} B" for path, status, sent in responses)


def precache_caches(page) -> list[str]:
    return sorted(name for name in page.evaluate("caches.keys()") if name.startswith("topcut-precache-"))


PROBE_JS = "() => getComputedStyle(document.documentElement).getPropertyValue('--update-probe').trim()"


def test_a_stylesheet_fix_costs_kilobytes_and_keeps_pyodide(browser, deployable) -> None:
    server = deployable
    context = browser.new_context(viewport={"width": 900, "height": 500})
    context.add_init_script("localStorage.setItem('topcut.updateCheckMs', '500')")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))

    # ---- first visit: the app and its worker install (the page boots Pyodide meanwhile)
    start = server.counter.mark()
    page.goto(server.url + "/")
    page.wait_for_selector("#status[data-state=ready]", timeout=BOOT_MS)
    wait_controlled(page)
    page.wait_for_timeout(1500)  # a few update checks: nothing new
    first = server.counter.since(start)
    before = precache_caches(page)
    assert not page.evaluate(PROBE_JS)

    # ---- a deploy that fixes one stylesheet rule
    mark = server.counter.mark()
    style = server.pwa / "style.css"
    style.write_text(style.read_text(encoding="utf-8") + "\n:root { --update-probe: fixed; }\n", encoding="utf-8")
    server.deploy()
    page.wait_for_selector("#update-banner:not([hidden])", timeout=60_000)
    wait_js(page, "() => navigator.serviceWorker.getRegistration().then((r) => r.waiting !== null)")
    update = server.counter.since(mark)
    shot(page, "update-bytes-01-css-fix-waiting")

    # ---- "Reload now": the page comes back on the new version, with the fixed rule
    mark = server.counter.mark()
    with page.expect_navigation(timeout=60_000):
        page.click("#update-reload")
    page.wait_for_selector("#status[data-state=ready]", timeout=BOOT_MS)
    wait_controlled(page)
    assert page.evaluate(PROBE_JS) == "fixed"
    reload = server.counter.since(mark)
    after = precache_caches(page)
    shot(page, "update-bytes-02-reloaded")

    print(
        f"\nfirst install: {total(first):,} B in {len(first)} responses, over 100 kB: "
        f"{describe(r for r in first if r[2] > 100_000)}"
        f"\nCSS-fix update (until the new worker waits): {total(update):,} B in {len(update)} responses: "
        f"{describe(update)}"
        f"\nreload into the new version: {total(reload):,} B in {len(reload)} responses"
        f"\ncaches before: {before}\ncaches after: {after}"
    )

    fetched = [path for path, _, _ in update + reload]
    assert not [path for path in fetched if path.startswith(("/pyodide/", "/rules/"))], fetched
    assert "/pwa/style.css" in fetched
    assert total(update) < UPDATE_BUDGET, describe(update)
    assert total(reload) < UPDATE_BUDGET, describe(reload)
    # The first install did fetch Pyodide (the figures above mean something), its WebAssembly gzipped as the build
    # made it (backend/compression.py): 9.6 MB on disk, about 3.5 MB sent.
    wasm = max(size for path, _, size in first if path == "/pyodide/pyodide.asm.wasm")
    assert 2_000_000 < wasm < 5_000_000, describe(first)
    assert total(first) > 8_000_000
    # The unchanged groups kept their caches; the shell's is new, the old one gone.
    changed = sorted(set(before) ^ set(after))
    assert len(changed) == 2 and all("-shell-" in name for name in changed), (before, after)
    assert errors == []
    context.close()


VERSION_JS = """() => new Promise((resolve) => {
  const channel = new MessageChannel();
  channel.port1.onmessage = (event) => resolve(event.data.version);
  navigator.serviceWorker.controller.postMessage({ type: "VERSION" }, [channel.port2]);
})"""


def test_a_worker_installs_when_the_manifest_is_of_another_version(browser, deployable, monkeypatch) -> None:
    """A deploy between the browser fetching sw.js and the worker fetching the manifest: the worker
    installs what the manifest lists (what the server serves now) and works offline from it."""
    monkeypatch.setattr(backend.shell, "build_version", lambda: "stamped-before-the-deploy")
    context = browser.new_context(viewport={"width": 900, "height": 500})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(deployable.url + "/")
    page.wait_for_selector("#status[data-state=ready]", timeout=BOOT_MS)
    wait_controlled(page)
    assert page.evaluate(VERSION_JS) == "stamped-before-the-deploy"
    manifest = json.loads(deployable.build_assets.precache_manifest(deployable.pwa, deployable.build))
    groups = {f"topcut-precache-{g['name']}-{g['hash']}" for g in manifest["groups"]}
    assert set(precache_caches(page)) == {"topcut-precache-index", *groups}

    # ---- with the server gone, a reload comes from those caches, Pyodide included
    deployable.stop()
    page.reload()
    page.wait_for_selector("#status[data-state=ready]", timeout=BOOT_MS)
    shot(page, "update-bytes-03-offline-after-mismatched-install")
    assert errors == []
    context.close()


def test_a_changed_file_the_server_says_is_unchanged_is_fetched_past_the_http_cache(browser, deployable) -> None:
    """The worker asks the server to confirm the HTTP cache's copy first (a first visit shares Pyodide's
    download with the page); a file changed without its size or time changing gets confirmed wrongly
    (304), and the worker, seeing bytes that are not the manifest's, fetches it past the HTTP cache."""
    server = deployable
    style = server.pwa / "style.css"
    style.write_text(style.read_text(encoding="utf-8") + "\n:root { --update-probe: stale; }\n", encoding="utf-8")
    server.deploy()
    context = browser.new_context(viewport={"width": 900, "height": 500})
    context.add_init_script("localStorage.setItem('topcut.updateCheckMs', '500')")
    page = context.new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("#status[data-state=ready]", timeout=BOOT_MS)
    wait_controlled(page)
    assert page.evaluate(PROBE_JS) == "stale"

    mark = server.counter.mark()
    stat = style.stat()
    style.write_text(style.read_text(encoding="utf-8").replace("stale;", "fixed;"), encoding="utf-8")
    os.utime(style, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # same size, same time: the same ETag
    server.deploy()
    page.wait_for_selector("#update-banner:not([hidden])", timeout=60_000)
    update = server.counter.since(mark)
    assert [(path, status) for path, status, _ in update if path == "/pwa/style.css"] == [
        ("/pwa/style.css", 304),
        ("/pwa/style.css", 200),
    ], describe(update)
    with page.expect_navigation(timeout=60_000):
        page.click("#update-reload")
    page.wait_for_selector("#status[data-state=ready]", timeout=BOOT_MS)
    assert page.evaluate(PROBE_JS) == "fixed"
    context.close()
