"""Shared steps of the PWA browser tests."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
ARTIFACTS = ROOT / "tests" / "artifacts"
BOOT_MS = 120_000


def shot(page, name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"pwa-{re.sub(r'[^A-Za-z0-9_.-]+', '_', name)}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def wait_ready(page, screen: str | None = None) -> None:
    page.wait_for_selector("#status[data-state=ready]", timeout=BOOT_MS)
    selector = f"body[data-ready='{screen}']" if screen else "body[data-ready]"
    page.wait_for_selector(selector, timeout=BOOT_MS)


def wait_controlled(page) -> None:
    """The service worker controls the page (so the app works offline from here on)."""
    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=BOOT_MS)


def wait_synced(page, timeout: int = 60_000) -> None:
    page.wait_for_selector("#sync[data-online=online][data-waiting='0'][data-syncing=no]", timeout=timeout)


def rules(page, fn: str, args: dict):
    """Call the page's rules worker (the same module instance the screens use)."""
    return page.evaluate("([fn, args]) => import('/pwa/rules-client.js').then((m) => m.rules(fn, args))", [fn, args])


def event_id(page) -> str:
    return re.search(r"#/event/([^/]+)", page.url).group(1)


def enter_result(page, table: int, quick: str) -> None:
    """On the judge screen: find the table, tap the quick result, save."""
    page.fill("#find-match", str(table))
    page.click(f".match-card[data-table='{table}'] .match-open")
    page.click(f"#entry [data-quick='{quick}']")
    page.click("#save-result")
    page.wait_for_selector("#entry", state="hidden")
    page.fill("#find-match", "")
