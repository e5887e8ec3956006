"""Shared pytest fixtures: the Flask app, a live server and headless Chromium.

The rules tests (tests/rules) need none of these: they are plain unittest so
that they also run inside Pyodide.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from backend import create_app

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "tests" / "artifacts"
CHROMIUM = os.environ.get("TOPCUT_CHROMIUM", "/usr/bin/chromium")
# The machine's network is closed: keep Chromium from phoning home.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture
def app(tmp_path: Path):
    """A fresh app with its own instance folder and SQLite database."""
    app = create_app(
        {
            "TESTING": True,
            "INSTANCE_PATH": tmp_path / "instance",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'test.sqlite'}",
        }
    )
    yield app


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture(scope="session")
def web_build() -> Path:
    """Run the build step (fast when nothing changed); return build/web."""
    subprocess.run([sys.executable, str(ROOT / "scripts" / "build_assets.py"), "--quiet"], check=True)
    return ROOT / "build" / "web"


@dataclass(frozen=True)
class LiveServer:
    host: str
    port: int

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"


@pytest.fixture(scope="session")
def live_server(web_build: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """The real app on a free loopback port, served from a background thread."""
    from werkzeug.serving import make_server

    tmp = tmp_path_factory.mktemp("live-server")
    app = create_app(
        {
            "INSTANCE_PATH": tmp / "instance",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp / 'live.sqlite'}",
            # One server for the whole browser session, all from one address: the browser tests make far more
            # than a hall's 60 events an hour (the limit itself is tested in tests/backend).
            "CREATE_EVENT_LIMIT": "100000 per hour",
        }
    )
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, name="live-server", daemon=True)
    thread.start()
    try:
        yield LiveServer("127.0.0.1", server.server_port)
    finally:
        server.shutdown()
        thread.join(timeout=10)


@pytest.fixture(scope="session")
def browser():
    """Debian's Chromium, headless, driven by Playwright (never a downloaded browser)."""
    if not Path(CHROMIUM).is_file():
        pytest.fail(
            f"{CHROMIUM} is missing: `make test` installs Debian's chromium package "
            "(or run: apt-get install --no-install-recommends chromium)"
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def page(browser):
    """A page in a fresh browser context; closed after the test."""
    context = browser.new_context(viewport={"width": 800, "height": 600})
    page = context.new_page()
    try:
        yield page
    finally:
        context.close()


@pytest.fixture
def screenshot(page, request: pytest.FixtureRequest):
    """``screenshot("name")`` saves the page to tests/artifacts/<test>-name.png."""

    def take(name: str) -> Path:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        test = re.sub(r"[^A-Za-z0-9_.-]+", "_", request.node.name)
        path = ARTIFACTS / f"{test}-{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take
