"""Shared steps of the PWA browser tests."""

from __future__ import annotations

import re
import time
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


def wait_js(page, expression: str, arg=None, timeout: int = 30_000):
    """Poll ``expression`` (a JS function of ``arg``, may be async) until it returns something truthy.

    ``page.wait_for_function`` evaluates its predicate with ``eval``, which the app's CSP
    forbids, and it does not await promises; ``page.evaluate`` does both.
    """
    deadline = time.monotonic() + timeout / 1000
    while True:
        value = page.evaluate(expression, arg)
        if value:
            return value
        assert time.monotonic() < deadline, f"still false after {timeout} ms: {expression}"
        time.sleep(0.1)


def wait_controlled(page) -> None:
    """The service worker controls the page (so the app works offline from here on)."""
    wait_js(page, "() => navigator.serviceWorker.controller !== null", timeout=BOOT_MS)


def wait_synced(page, timeout: int = 60_000) -> None:
    page.wait_for_selector("#sync[data-online=online][data-waiting='0'][data-syncing=no]", timeout=timeout)


def rules(page, fn: str, args: dict):
    """Call the page's rules worker (the same module instance the screens use)."""
    return page.evaluate(
        "([fn, args]) => import('/pwa/rules/rules-client.js').then((m) => m.rules(fn, args))", [fn, args]
    )


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


class PushablePage:
    """A page allowed to show notifications, with the DevTools handle that delivers pushes.

    ``registrations`` maps each service worker scope URL to its registration id,
    as ``ServiceWorker.deliverPushMessage`` needs; ``errors`` collects page errors.
    """

    def __init__(self, browser, origin: str) -> None:
        self.context = browser.new_context()
        self.context.grant_permissions(["notifications"], origin=origin)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.cdp = self.context.new_cdp_session(self.page)
        self.registrations: dict[str, str] = {}
        self.cdp.on("ServiceWorker.workerRegistrationUpdated", self._seen)
        self.cdp.send("ServiceWorker.enable")

    def _seen(self, event: dict) -> None:
        self.registrations.update(
            {r["scopeURL"]: r["registrationId"] for r in event["registrations"] if not r.get("isDeleted")}
        )

    def deliver(self, origin: str, scope: str, data: str, timeout_s: float = 10) -> None:
        """Hand a push message to the worker registered for ``scope``, as the push service would."""
        deadline = time.monotonic() + timeout_s
        while scope not in self.registrations and time.monotonic() < deadline:
            self.page.wait_for_timeout(50)
        self.cdp.send(
            "ServiceWorker.deliverPushMessage",
            {"origin": origin, "registrationId": self.registrations[scope], "data": data},
        )

    def deliver_until_shown(
        self, origin: str, scope: str, data: str, tag: str, attempts: int = 3, wait_ms: int = 10_000
    ) -> list[dict]:
        """Deliver a push and return the notifications then shown under ``tag``.

        A DevTools delivery is occasionally lost on a loaded machine (nothing reaches the worker, no
        error); it is then delivered again: the same tag replaces, so at most one notification shows.
        """
        for _ in range(attempts):
            self.deliver(origin, scope, data)
            shown = self.page.evaluate(_SHOWN_UNDER_TAG, [scope, tag, wait_ms])
            if shown:
                return shown
        return []

    def close(self) -> None:
        self.context.close()


# Poll in the page (one evaluate) for the notifications of the worker at a scope under a tag.
_SHOWN_UNDER_TAG = """async ([scope, tag, ms]) => {
  const registration = await navigator.serviceWorker.getRegistration(scope);
  for (let waited = 0; registration && waited < ms; waited += 50) {
    const found = await registration.getNotifications({ tag });
    if (found.length) {
      return found.map((n) => ({ title: n.title, body: n.body, tag: n.tag, url: n.data && n.data.url,
                                 table: n.data && n.data.table }));
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return [];
}"""


def open_page(browser, viewport: dict | None = None, sync_ms: int = 700, **context_args):
    """A fresh browser context and page that syncs every ``sync_ms`` and collects uncaught errors in ``page.errors``."""
    context = browser.new_context(viewport=viewport or {"width": 1280, "height": 900}, **context_args)
    context.add_init_script(f"localStorage.setItem('topcut.syncMs', '{sync_ms}')")
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    return context, page


def create_event(page, url: str, name: str, ruleset: str | None = None) -> str:
    """From the home screen: create an event (made on the device, registered by its first sync); its id."""
    page.goto(url + "/")
    page.wait_for_selector("#status[data-state=ready]", timeout=BOOT_MS)
    page.fill("#create-title ~ .field input[type=text]", name)
    if ruleset:
        page.select_option("#create-title ~ .field select", ruleset)
    page.click("text=Create event")
    wait_ready(page, "players")
    return event_id(page)
