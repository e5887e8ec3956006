"""The update banner: never on a first visit, and offered (not forced) when a new version waits.

The server here reads a build folder of its own (links to build/web/ plus its
own precache manifest), so the test can change the build's version the way a
deploy does: the service worker's bytes change with the version it is stamped
with, the browser installs the new worker, and it waits for the page's
"Reload now".
"""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from backend import create_app
from tests.browser.helpers import shot, wait_controlled

VERSION_JS = """() => new Promise((resolve) => {
  const channel = new MessageChannel();
  channel.port1.onmessage = (event) => resolve(event.data.version);
  navigator.serviceWorker.controller.postMessage({ type: "VERSION" }, [channel.port2]);
})"""


class VersionedServer:
    def __init__(self, web_build: Path, tmp: Path) -> None:
        self.build = tmp / "web"
        self.build.mkdir()
        for name in ("pyodide", "vendor", "shared_rules.zip", "rules"):
            (self.build / name).symlink_to(web_build / name)
        self.manifest = json.loads((web_build / "precache-manifest.json").read_text(encoding="utf-8"))
        self.set_version("v1")
        from werkzeug.serving import make_server

        app = create_app(
            {
                "INSTANCE_PATH": tmp / "instance",
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp / 'db.sqlite'}",
                "WEB_BUILD_DIR": str(self.build),
            }
        )
        self.server = make_server("127.0.0.1", 0, app, threaded=True)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        self.url = f"http://127.0.0.1:{self.server.server_port}"

    def set_version(self, version: str) -> None:
        (self.build / "precache-manifest.json").write_text(
            json.dumps({**self.manifest, "version": version}), encoding="utf-8"
        )

    def stop(self) -> None:
        self.server.shutdown()
        self.thread.join(timeout=10)


@pytest.fixture
def versioned(web_build, tmp_path):
    server = VersionedServer(web_build, tmp_path)
    try:
        yield server
    finally:
        server.stop()


def banner_shown(page) -> bool:
    return page.evaluate("getComputedStyle(document.getElementById('update-banner')).display !== 'none'")


def test_no_banner_on_first_visit_then_offered_for_a_new_version(browser, versioned) -> None:
    context = browser.new_context(viewport={"width": 900, "height": 500})
    context.add_init_script("localStorage.setItem('topcut.updateCheckMs', '500')")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    navigations: list[str] = []
    page.on("framenavigated", lambda frame: frame == page.main_frame and navigations.append(frame.url))

    # ---- first visit: the first worker installs and takes over; nothing to offer
    page.goto(versioned.url + "/")
    wait_controlled(page)
    page.wait_for_selector("#status[data-state=ready]", timeout=120_000)
    page.wait_for_timeout(1500)  # a few update checks: the server has nothing new
    assert not banner_shown(page)
    assert page.evaluate(VERSION_JS) == "v1"
    shot(page, "update-01-first-visit-no-banner")

    # ---- a later visit, same version: still nothing
    page.reload()
    page.wait_for_selector("#status[data-state=ready]", timeout=120_000)
    page.wait_for_timeout(1500)
    assert not banner_shown(page)

    # ---- a deploy: the open page hears of it by itself and offers it, without reloading
    before = len(navigations)
    versioned.set_version("v2")
    page.wait_for_selector("#update-banner:not([hidden])", timeout=60_000)
    assert banner_shown(page)
    assert page.get_attribute("#update-banner", "data-version") == "v2"
    assert page.evaluate(VERSION_JS) == "v1"  # still the old version until asked
    assert len(navigations) == before
    assert page.evaluate("navigator.serviceWorker.getRegistration().then((r) => r.waiting !== null)")
    shot(page, "update-02-new-version-waiting")

    # ---- "Reload now": the new worker takes over and the page reloads into it
    with page.expect_navigation(timeout=60_000):
        page.click("#update-reload")
    page.wait_for_selector("#status[data-state=ready]", timeout=120_000)
    wait_controlled(page)
    assert page.evaluate(VERSION_JS) == "v2"
    assert not banner_shown(page)
    # The new version's files are the old one's: it kept every group's cache (named by content, not version).
    caches = page.evaluate("caches.keys()")
    groups = {f"topcut-precache-{g['name']}-{g['hash']}" for g in versioned.manifest["groups"]}
    assert {c for c in caches if c.startswith("topcut-precache-")} == {"topcut-precache-index", *groups}
    shot(page, "update-03-reloaded-into-new-version")
    assert errors == []
    context.close()
