"""A tablet that opens the app on the hall's LAN address over plain HTTP is told loudly that it has no
offline mode there, and where to go instead; on the server machine itself (localhost) nothing is said."""

from __future__ import annotations

import socket

import pytest

from tests.browser.appserver import AppProcess
from tests.browser.helpers import shot


def lan_address() -> str | None:
    """This machine's address on its network (no packet is sent)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("10.255.255.255", 1))
            address = s.getsockname()[0]
        except OSError:
            return None
    return None if address.startswith("127.") else address


@pytest.fixture
def lan_server(tmp_path):
    address = lan_address()
    if address is None:
        pytest.skip("this machine has no LAN address")
    server = AppProcess(tmp_path, host="0.0.0.0")
    server.start()
    try:
        yield server, f"http://{address}:{server.port}"
    finally:
        server.kill()


def test_a_plain_http_lan_address_warns_loudly(browser, lan_server) -> None:
    server, lan_url = lan_server
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    page = context.new_page()
    page.goto(lan_url + "/")
    banner = page.locator("#insecure-banner")
    banner.wait_for(state="visible", timeout=30_000)
    text = banner.inner_text()
    assert "cannot work offline" in text and lan_url in text and "HTTPS" in text, text
    assert ":8443/" in text, text  # the hall address with its port (make run serves HTTPS there)
    assert page.evaluate("'serviceWorker' in navigator") is False
    shot(page, "lan-http-warning")
    local = context.new_page()
    local.goto(server.url + "/")
    local.wait_for_selector("#status[data-state=ready]", timeout=120_000)
    assert local.locator("#insecure-banner").is_hidden()
    context.close()
