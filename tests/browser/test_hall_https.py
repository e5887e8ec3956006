"""`make run` in a hall: the organizer works on the laptop (http://127.0.0.1), the judge tablets on the
hall's HTTPS address. The invitation the organizer makes names the hall address; two tablets that trust
the hall's certificate open it, get the service worker, and keep working when the network drops — an
offline reload included."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from backend.hall_tls import primary_lan_address, spki_sha256
from tests.browser.helpers import enter_result, event_id, rules, shot, wait_controlled, wait_js, wait_ready, wait_synced
from tests.conftest import CHROMIUM, CHROMIUM_ARGS

ROOT = Path(__file__).resolve().parent.parent.parent
NAMES = ["Ada", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def hall(tmp_path):
    """``python -m backend.serve`` (what ``make run`` starts) on free ports, with its own instance folder."""
    address = primary_lan_address()
    if address is None:
        pytest.skip("this machine has no LAN address")
    port, hall_port = _free_port(), _free_port()
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL" and not k.startswith("TOPCUT_")}
    env["TOPCUT_INSTANCE_PATH"] = str(tmp_path / "instance")
    log = open(tmp_path / "serve.log", "wb")
    process = subprocess.Popen(
        [sys.executable, "-m", "backend.serve", "--port", str(port), "--hall-port", str(hall_port)],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=log,
        start_new_session=True,
    )
    local = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(local + "/api/hall", timeout=2):
                break
        except OSError:
            assert process.poll() is None and time.monotonic() < deadline, (tmp_path / "serve.log").read_text()
            time.sleep(0.2)
    try:
        yield local, f"https://{address}:{hall_port}", tmp_path / "instance" / "hall-tls"
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=30)
        finally:
            try:
                os.killpg(process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        log.close()


def _tablet(browser, url: str):
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    context.add_init_script("localStorage.setItem('topcut.syncMs', '1500')")
    page = context.new_page()
    page.goto(url)
    wait_ready(page, "judge")
    wait_controlled(page)
    return context, page


def test_tablets_on_the_hall_https_address_work_offline(browser, hall) -> None:
    local, hall_url, tls_dir = hall
    # ---- the organizer on the laptop itself (localhost: a secure origin with no certificate)
    org_ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    org = org_ctx.new_page()
    org.goto(local + "/")
    org.wait_for_selector("#status[data-state=ready]", timeout=120_000)
    assert org.locator("#insecure-banner").is_hidden()
    org.fill("#create-title ~ .field input[type=text]", "Hall Cup")
    org.select_option("#create-title ~ .field select", "agot")
    org.click("text=Create event")
    wait_ready(org, "players")
    eid = event_id(org)
    org.fill("textarea", "\n".join(NAMES))
    org.click("#register")
    org.wait_for_selector(f"caption:has-text('{len(NAMES)} registered')")
    org.goto(f"{local}/#/event/{eid}/rounds")
    wait_ready(org, "rounds")
    org.click("#pair-next")
    org.wait_for_selector("#publish-round")
    org.click("#publish-round")
    org.wait_for_selector("caption:has-text('Round 1 (swiss) — published')")
    org.click("#start-round")
    org.wait_for_selector("#round-progress")
    wait_synced(org)

    # ---- the Staff screen names the hall address and the certificate; invitations point there
    org.goto(f"{local}/#/event/{eid}/staff")
    wait_ready(org, "staff")
    org.wait_for_selector("#hall-network:not([hidden])", timeout=30_000)
    assert org.get_attribute("#hall-url", "href") == hall_url + "/"
    assert org.get_attribute("#hall-ca", "href") == "/hall-ca.crt"
    links = []
    for _ in range(2):
        org.click("#invite")
        links.append(
            wait_js(
                org,
                "(n) => { const a = [...document.querySelectorAll('.invitation a')];"
                " return a.length > n && a[0].href; }",
                arg=len(links),
                timeout=30_000,
            )
        )
    assert all(link.startswith(hall_url + "/#join=") for link in links), links
    shot(org, "hall-staff-screen")

    # ---- two tablets with the hall's certificate installed (Chromium told to trust the hall server's key,
    # which is what installing the authority does) open their invitations on the hall address
    tablets = browser.browser_type.launch(
        executable_path=CHROMIUM,
        headless=True,
        args=CHROMIUM_ARGS + [f"--ignore-certificate-errors-spki-list={spki_sha256(tls_dir / 'server.crt')}"],
    )
    try:
        (ctx_a, tab_a), (ctx_b, tab_b) = (_tablet(tablets, link) for link in links)
        for tab in (tab_a, tab_b):
            assert tab.evaluate("isSecureContext") is True
            assert tab.locator("#insecure-banner").is_hidden()
            # Joined by code, the tablet lists the event by its name, not its id.
            assert (
                tab.evaluate(
                    "(eid) => import('/pwa/data/db.js').then((m) => m.getSession(eid)).then((s) => s.name)", eid
                )
                == "Hall Cup"
            )
        # ---- the hall's Wi-Fi drops: both keep entering results, one reloads with no network at all
        ctx_a.set_offline(True)
        ctx_b.set_offline(True)
        for tab in (tab_a, tab_b):
            tab.wait_for_selector(".match-card[data-table='4']", timeout=30_000)
        enter_result(tab_a, 1, "win-0")
        enter_result(tab_b, 2, "win-0")
        tab_a.wait_for_selector("#sync[data-online=offline][data-waiting='1']", timeout=30_000)
        tab_a.reload()
        wait_ready(tab_a, "judge")
        tab_a.wait_for_selector("#sync[data-online=offline][data-waiting='1']", timeout=30_000)
        shot(tab_a, "hall-tablet-reloaded-offline")
        # ---- the network is back: both results reach the laptop
        ctx_a.set_offline(False)
        ctx_b.set_offline(False)
        for tab in (tab_a, tab_b):
            tab.wait_for_selector("#sync[data-online=online][data-waiting='0'][data-syncing=no]", timeout=60_000)
        deadline = time.monotonic() + 60
        while True:  # the laptop's own copy (synced from the server) has both results
            matches = rules(org, "state", {"event_id": eid})["rounds"][0]["matches"]
            done = {m["table"] for m in matches if m["status"] != "pending"}
            if {1, 2} <= done:
                break
            assert time.monotonic() < deadline, matches
            org.wait_for_timeout(500)
        ctx_a.close()
        ctx_b.close()
    finally:
        tablets.close()
        org_ctx.close()
