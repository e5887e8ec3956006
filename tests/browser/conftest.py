"""Browser-test fixtures: the real server as its own process (gunicorn on SQLite), killed after each test."""

from __future__ import annotations

import pytest

from tests.browser.appserver import AppProcess


@pytest.fixture
def app_process(tmp_path):
    server = AppProcess(tmp_path)
    server.start()
    try:
        yield server
    finally:
        server.kill()
