"""Stale screens in a bigger event (issue 11, item 3).

A 128-player round on a head judge's tablet while the organizer's device starts
the round and results arrive in bursts: every drawing of the Rounds and Results
screens comes from one store snapshot whose version only moves forward (the view
root's ``data-version``), "Start round" disappears as soon as the round has
started, and no saved result card is left "pending" once the tablet has it.
"""

from __future__ import annotations

from tests.browser.helpers import open_page, shot, wait_js, wait_ready
from tests.browser.test_forms_survive_sync import Remote

PLAYERS = 128

RECORD_VERSIONS = """() => {
  const root = document.getElementById('view');
  window.drawnVersions = [];
  new MutationObserver(() => {
    if (root.dataset.version) window.drawnVersions.push(Number(root.dataset.version));
  }).observe(root, { attributes: true, attributeFilter: ['data-version'] });
}"""

SHOWN_IS_NEWEST = """async () => {
  const { storeFor } = await import('/pwa/app/store.js');
  const eid = location.hash.split('/')[2];
  const store = storeFor(eid);
  return Number(document.getElementById('view').dataset.version) === store.revision && !store.folding;
}"""


def test_rounds_and_results_screens_never_fall_behind_the_store(browser, live_server) -> None:
    remote = Remote(live_server.url, ruleset="pokemon-tcg", name="Regional Day 1")
    remote.push(*[("player.register", {"player": {"id": f"p{i}", "name": f"Player {i:03d}"}}) for i in range(PLAYERS)])
    matches = [{"table": t + 1, "players": [f"p{2 * t}", f"p{2 * t + 1}"]} for t in range(PLAYERS // 2)]
    remote.push(("round.pair", {"number": 1, "matches": matches}), ("round.publish", {"number": 1}))

    context, page = open_page(browser, {"width": 1100, "height": 900}, sync_ms=300)
    page.goto(f"{live_server.url}/#join={remote.invite('head-judge')}")
    wait_ready(page)
    page.goto(f"{live_server.url}/#/event/{remote.eid}/rounds")
    wait_ready(page, "rounds")
    page.wait_for_selector("#start-round")
    page.evaluate(RECORD_VERSIONS)

    # The organizer starts the round elsewhere, and results pour in while this tablet syncs every 300 ms.
    remote.push(("round.start", {"number": 1, "duration_s": 3000}))
    for burst in range(8):
        remote.push(
            *[
                ("result.report", {"round": 1, "table": t, "outcomes": ["win", "loss"]})
                for t in range(1 + burst * 8, 1 + (burst + 1) * 8)
            ]
        )
    page.wait_for_selector("#start-round", state="detached", timeout=15_000)
    page.wait_for_selector(f"#round-progress:has-text('{PLAYERS // 2} of {PLAYERS // 2} results in')", timeout=30_000)
    wait_js(page, SHOWN_IS_NEWEST, timeout=15_000)
    drawn = page.evaluate("() => window.drawnVersions")
    assert drawn and drawn == sorted(drawn), drawn  # nothing older was drawn over something newer
    assert page.locator("#start-round").count() == 0
    shot(page, "fresh-rounds-128")

    # The judge's own results on the Results screen: every card the tablet saved leaves "waiting to sync".
    remote.push(
        ("round.pair", {"number": 2, "matches": matches}),
        ("round.publish", {"number": 2}),
        ("round.start", {"number": 2, "duration_s": 3000}),
    )
    page.goto(f"{live_server.url}/#/event/{remote.eid}/judge")
    wait_ready(page, "judge")
    page.wait_for_selector("#find-match")
    wait_js(
        page,
        "() => document.querySelectorAll('.match-card').length === 64 && "
        "document.querySelector('#view .progress')?.textContent.startsWith('0 of 64')",
        timeout=30_000,
    )
    page.evaluate(RECORD_VERSIONS)
    saved = page.evaluate(
        """async (eid) => {
      const { storeFor } = await import('/pwa/app/store.js');
      const store = storeFor(eid);
      const acts = [];
      for (let t = 1; t <= 24; t += 1) acts.push(store.act('result.report', { round: 2, table: t, outcomes: ['loss', 'win'] }));
      await Promise.all(acts);
      return acts.length;
    }""",
        remote.eid,
    )
    assert saved == 24
    page.wait_for_selector("#sync[data-waiting='0'][data-syncing=no]", timeout=30_000)
    wait_js(page, SHOWN_IS_NEWEST, timeout=15_000)
    wait_js(page, "() => document.querySelectorAll('.match-card .badge.waiting').length === 0", timeout=15_000)
    reported = page.locator(".match-card[data-status='confirmed']").count()
    assert reported == 24, reported
    drawn = page.evaluate("() => window.drawnVersions")
    assert drawn == sorted(drawn), drawn
    shot(page, "fresh-results-128")
    assert page.errors == []
    context.close()
