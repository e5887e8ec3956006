"""PWA speed in headless Chromium: offline cold start, and standings and pairing of a 512-player event on the device.

    .venv/bin/python -m bench.pwa

* offline cold start: after one online visit, a new page load with the network
  off, from navigation start to the rules worker ready (Pyodide + shared_rules),
  everything served by the service worker cache;
* standings / pairing: a 512-player event with three rounds played, folded in
  the page's rules worker, then ``standings`` and ``pair_draft`` timed there
  (the same calls the screens make).
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"


def event_ops(players: int = 512, rounds: int = 3) -> list[dict]:
    sys.path.insert(0, str(ROOT))
    from shared_rules.event import load_event
    from shared_rules.pairing.next_round import pair_next_round_json
    from shared_rules.state import apply, initial_state, to_event_document

    ops: list[dict] = []
    state = initial_state()

    def add(type_: str, payload: dict) -> None:
        nonlocal state
        op = {"type": type_, "op_id": f"bench:{len(ops) + 1}", "device": "bench", "actor": {"role": "organizer"},
              "at": 1_700_000_000_000 + len(ops), "payload": payload}
        state = apply(state, op)
        ops.append({"server_seq": len(ops) + 1, "op": op})

    add("event.create", {"ruleset": "pokemon-tcg", "name": "Bench 512", "seed": "bench"})
    for i in range(players):
        add("player.register", {"player": {"id": f"p{i}", "name": f"Player {i}"}})
    for r in range(1, rounds + 1):
        draft = pair_next_round_json(load_event(to_event_document(state, operational=False)))
        add("round.pair", {"number": draft["round"], "stage": draft["stage"], "matches": draft["matches"]})
        add("round.start", {"number": r, "duration_s": 3000})
        for m in draft["matches"]:
            if len(m["players"]) == 2:
                a, b = m["players"]
                outcomes = ["win", "loss"] if int(a[1:]) < int(b[1:]) else ["loss", "win"]
                add("result.report", {"round": r, "table": m["table"], "outcomes": outcomes})
    return ops


def main() -> int:
    from playwright.sync_api import sync_playwright

    from tests.browser.appserver import AppProcess

    subprocess_build = [sys.executable, str(ROOT / "scripts" / "build_assets.py"), "--quiet"]
    import subprocess

    subprocess.run(subprocess_build, check=True)
    ops = event_ops()
    tmp = Path(tempfile.mkdtemp(prefix="bench-pwa-"))
    server = AppProcess(tmp)
    server.start()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--disable-gpu"])
            context = browser.new_context()
            page = context.new_page()
            page.goto(server.url + "/")
            page.wait_for_selector("#status[data-state=ready]", timeout=120_000)
            page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=120_000)
            context.set_offline(True)
            server.kill()
            cold, boot = [], []
            for _ in range(3):
                page.reload()
                page.wait_for_selector("#status[data-state=ready]", timeout=60_000)
                cold.append(page.evaluate("globalThis.topcutReady.at") / 1000)
                boot.append(page.evaluate("globalThis.topcutReady.boot_ms") / 1000)
            print(f"offline cold start (navigation -> rules worker ready, SW cache): "
                  f"median {statistics.median(cold):.2f} s, runs {', '.join(f'{c:.2f}' for c in cold)}  (target <= 3 s); "
                  f"of which Pyodide + shared_rules boot in the worker: median {statistics.median(boot):.2f} s")
            timings = page.evaluate("""async (ops) => {
              const { rules } = await import('/pwa/rules-client.js');
              let t = performance.now();
              await rules('fold', {event_id: 'bench', reset: true, base: null, confirmed: ops, pending: [], with_state: false});
              const fold = performance.now() - t;
              const standings = [], pairing = [];
              for (let i = 0; i < 5; i++) {
                t = performance.now(); await rules('standings', {event_id: 'bench'}); standings.push(performance.now() - t);
                t = performance.now(); await rules('pair_draft', {event_id: 'bench'}); pairing.push(performance.now() - t);
              }
              return {fold, standings, pairing};
            }""", ops)
            med = lambda xs: statistics.median(xs) / 1000
            print(f"512 players, 3 rounds ({len(ops)} operations): fold of the log {timings['fold'] / 1000:.2f} s")
            print(f"standings on the device: median {med(timings['standings']):.3f} s of 5  (target <= 0.3 s)")
            print(f"pairing round 4 on the device: median {med(timings['pairing']):.3f} s of 5  (target <= 0.5 s)")
            browser.close()
    finally:
        server.kill()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
