"""A tablet starts from its snapshot of the folded log, not from operation 1 (pwa/app/store.js).

A judge's tablet on a 32-player event after two rounds saves a snapshot once the log has grown past it;
the server dies, the tablet restarts offline: it folds only the log after the snapshot and shows the same
event. A snapshot from other rules (an app update) is not used: the start folds from operation 1 and a
new snapshot replaces it.
"""

from __future__ import annotations

import json
import urllib.request

from bench.events import operations_log
from tests.browser.helpers import open_page, rules, shot, wait_controlled, wait_js, wait_ready, wait_synced

#: Every fold request the page sends its rules worker: whether it starts from a snapshot, and how much log.
RECORD_FOLDS_JS = """(() => {
  globalThis.__folds = [];
  const post = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (data, ...rest) {
    if (typeof data === "string" && data.includes('"fn":"fold"')) {
      const { args } = JSON.parse(data);
      globalThis.__folds.push({ reset: args.reset, snapshot: args.snapshot ? args.snapshot.cursor : null,
                                confirmed: args.confirmed.length, known: args.known ?? null,
                                text: typeof args.snapshot?.state_json === "string" });
    }
    return post.call(this, data, ...rest);
  };
})();"""

SNAPSHOT_JS = """async (eventId) => {
  const { getSnapshot } = await import('/pwa/data/db.js');
  const s = await getSnapshot(eventId);
  return s ? { cursor: s.cursor, rules_build: s.rules_build, device: s.device } : null;
}"""


def _api(url: str, path: str, body=None, token: str | None = None):
    request = urllib.request.Request(
        url + path,
        data=json.dumps(body).encode() if body is not None else None,
        headers={"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})},
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def _event_on_server(url: str) -> tuple[str, str, str, int]:
    """A 32-player Pokémon event after 2 rounds made by the organizer's desk: its id, the desk's token, a
    judge's code, its log length."""
    ops = operations_log(32, 2)
    create = ops[0]["payload"]
    made = _api(url, "/api/events", {"ruleset": create["ruleset"], "name": create["name"]})
    eid, token = made["event_id"], made["token"]
    batch = [{"seq": i, "op": {"type": op["type"], "payload": op["payload"]}} for i, op in enumerate(ops[1:], 1)]
    answer = _api(url, f"/api/events/{eid}/push", {"device": "desk", "ops": batch}, token)
    assert all(r["status"] == "accepted" for r in answer["results"]), answer
    code = _api(url, f"/api/events/{eid}/invitations", {"role": "judge"}, token)["code"]
    return eid, token, code, len(ops)


def test_a_restart_folds_from_the_snapshot_and_other_rules_snapshots_are_not_used(browser, app_process) -> None:
    server = app_process
    eid, desk, code, log_length = _event_on_server(server.url)
    context, tablet = open_page(browser)
    context.add_init_script("localStorage.setItem('topcut.snapshotEvery', '20')")
    context.add_init_script(RECORD_FOLDS_JS)
    tablet.goto(f"{server.url}/#join={code}")
    wait_ready(tablet, "judge")
    wait_controlled(tablet)
    wait_synced(tablet)
    saved = wait_js(
        tablet,
        f"async () => {{ const s = await ({SNAPSHOT_JS})({json.dumps(eid)}); "
        f"return s && s.cursor === {log_length} ? s : null; }}",
    )

    cards = "() => [...document.querySelectorAll('.match-card')].map((c) => c.dataset.table + ' ' + c.className)"
    cards_synced = tablet.evaluate(cards)
    state_synced = rules(tablet, "state", {"event_id": eid})

    # ---- a restart with nothing after the snapshot: the page reads the state from it, the worker sends none back
    tablet.reload()
    wait_ready(tablet, "judge")
    folds = tablet.evaluate("() => globalThis.__folds")
    assert folds[0] == {"reset": True, "snapshot": log_length, "confirmed": 0, "known": "snapshot", "text": True}, folds
    assert tablet.evaluate(cards) == cards_synced
    assert rules(tablet, "state", {"event_id": eid}) == state_synced
    shot(tablet, "snapshot-restart-nothing-after")
    tablet.set_viewport_size({"width": 390, "height": 844})
    shot(tablet, "snapshot-restart-nothing-after-phone")
    tablet.set_viewport_size({"width": 1280, "height": 800})
    assert tablet.evaluate(f"() => import('/pwa/app/store.js').then((m) => m.storeFor({json.dumps(eid)}).state)") == (
        state_synced
    )

    # ---- later: the desk drops two players (the log grows past the snapshot, by less than its interval)
    drops = [
        {"seq": log_length + i, "op": {"type": "player.drop", "payload": {"player": f"p{30 + i}"}}} for i in (0, 1)
    ]
    answer = _api(server.url, f"/api/events/{eid}/push", {"device": "desk", "ops": drops}, desk)
    assert all(r["status"] == "accepted" for r in answer["results"]), answer
    wait_js(
        tablet,
        "([eid, n]) => import('/pwa/data/db.js').then((m) => m.getSession(eid)).then((s) => s.cursor === n)",
        [eid, log_length + 2],
    )
    assert tablet.evaluate(SNAPSHOT_JS, eid)["cursor"] == log_length

    # ---- the hall's server dies; the judge issues a warning offline (it waits on the tablet)
    server.kill()
    tablet.select_option("#penalty-player", "p3")
    tablet.select_option("#penalty-kind", "warning")
    tablet.fill("#penalty-reason", "Slow play")
    tablet.click("button:has-text('Issue penalty')")
    tablet.wait_for_selector("#penalty-msg:has-text('Penalty recorded')")
    tablet.wait_for_selector("#sync[data-waiting='1']")
    before = rules(tablet, "state", {"event_id": eid})
    assert before["players"][30]["dropped_after"] is not None and before["penalties"], (
        "the drops and the warning are in the state"
    )
    cards_before = tablet.evaluate(cards)
    assert len(cards_before) == 16

    # ---- the tablet restarts (a reload: same profile, same IndexedDB), still offline
    tablet.reload()
    wait_ready(tablet, "judge")
    folds = tablet.evaluate("() => globalThis.__folds")
    assert folds[0] == {"reset": True, "snapshot": log_length, "confirmed": 2, "known": None, "text": True}, folds
    assert rules(tablet, "state", {"event_id": eid}) == before
    assert tablet.evaluate(cards) == cards_before
    assert tablet.locator("#sync").get_attribute("data-waiting") == "1"
    shot(tablet, "snapshot-restart-offline")

    # ---- an app update brought other rules: their snapshot is not this worker's to start from
    tablet.evaluate(
        """async (eventId) => {
          const { getSnapshot, putSnapshot } = await import('/pwa/data/db.js');
          await putSnapshot({ ...(await getSnapshot(eventId)), rules_build: 'an-older-build' });
        }""",
        eid,
    )
    tablet.reload()
    wait_ready(tablet, "judge")
    folds = tablet.evaluate("() => globalThis.__folds")
    assert folds[0] == {"reset": True, "snapshot": None, "confirmed": log_length + 2, "known": None, "text": False}, (
        folds
    )
    assert rules(tablet, "state", {"event_id": eid}) == before
    again = wait_js(
        tablet,
        f"async () => {{ const s = await ({SNAPSHOT_JS})({json.dumps(eid)}); "
        "return s && s.rules_build !== 'an-older-build' ? s : null; }",
    )
    assert again["rules_build"] == saved["rules_build"] and again["device"] == saved["device"]
    assert again["cursor"] == log_length + 2, "folded again from operation 1: a new snapshot at the log's end"
    assert tablet.errors == []
    context.close()
