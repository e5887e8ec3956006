"""PWA speed in headless Chromium: the offline cold start of an event's screen, and standings and pairing of a
512-player event on the device.

    .venv/bin/python -m bench.pwa [--runs 5] [--screen rounds] [--players 512] [--rounds 3] [--cold-only]
                                  [--network-off] [--no-snapshot] [--changes 5] [--tail 499] [--json RUNS.json]

* offline cold start, as a tablet has it when the hall's server dies and the browser is started again: a
  persistent browser profile visits the app online and joins a 512-player, 3-round Pokémon event (1,287
  operations, put on a real gunicorn process beforehand) as an organizer's second device, syncs all of it and
  opens the event's screen, and waits until the tablet has saved its snapshot of the folded log (pwa/app/store.js;
``--no-snapshot``: it keeps none, as until late on 2026-11-26, and every start folds from operation 1); the browser is
closed and the server process is killed (SIGKILL). Then, ``--runs``
  times: the browser is started again on the same profile (server still dead; the network itself is up, so
  the page's sync attempts fail at once with "connection refused") and the time is taken from navigation
  start of ``/#/event/<id>/rounds`` until that screen is usable: ``body[data-ready]`` is set, the view's root
  carries the ``data-version`` it drew, and it shows the event (round 3, 256 of 256 results in). Printed per
  phase, median of the runs, with the machine's load average; the phases of the event (IndexedDB reads, the
  fold in the rules worker, the drawing) are taken by a script the bench adds to the page (nothing in the
  app measures itself beyond the rules worker's boot marks);
* snapshot + tail (``--tail``, default 499): the restarts above are made twice, at the snapshot and with that many
  operations after it (the most a tablet holds before its next snapshot): the tablet is opened online once more
  while the desk pairs, starts and reports the next round, pulls that much of it and is closed mid-round; the
  screen must then show the next round with those results in. Both series are printed one after the other;
* a change on the tablet, online, before the restarts (``--changes``, 3 s apart): from the tap until the screen
  has drawn it, and until the server has it and the tablet has folded its answer;
* the same, reloading the page in the running browser (the old "cold start": HTTP cache, compiled-code
  caches and the service worker all warm);
* standings / pairing: the same event folded in the page's rules worker from the generated log (no IndexedDB),
  then ``standings`` and ``pair_draft`` timed there (the same calls the screens make).

Targets: offline cold start <= 2 s at 2,048 x 9 with 499 operations after the snapshot (issue 27), standings <= 0.3 s, pairing <= 0.5 s. Figures: bench/README.md.

Before (bench/pwa.py up to 2026-11): the "cold start" was a reload in the same browser and ended when the
rules worker said ready, before the event was read from IndexedDB and folded. Its phases then (medians of 5
reloads, ms since navigation): worker created 199 -> 210, loadPyodide done 2413 -> 1460, ready 2628 -> 1466,
before and after the standard library and shared_rules came as bytecode (python_stdlib.pyc.zip, zipimport).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu"]
BOOT_MS = 120_000

#: Added to every page before the app's scripts: when the event's phases happen, in ms since navigation start.
INSTRUMENT_JS = r"""(() => {
  const b = globalThis.__bench = {};
  const mark = (name, at = performance.now()) => { if (!(name in b)) b[name] = at; };
  const get = IDBObjectStore.prototype.get;
  IDBObjectStore.prototype.get = function (...args) {
    const request = get.apply(this, args);
    if (this.name === "sessions" && !("session_read" in b)) {
      mark("session_read_start");
      request.addEventListener("success", () => mark("session_read"));
    }
    if (this.name === "snapshots" && !("snapshot_read" in b)) {
      request.addEventListener("success", () => { mark("snapshot_read"); b.snapshot_cursor = request.result?.cursor; });
    }
    return request;
  };
  const getAll = IDBObjectStore.prototype.getAll;
  IDBObjectStore.prototype.getAll = function (...args) {
    const request = getAll.apply(this, args);
    if (this.name === "log" && !("log_read_start" in b)) {
      mark("log_read_start");
      request.addEventListener("success", () => { mark("log_read"); b.log_rows = request.result.length; });
    }
    return request;
  };
  // The first fold: when the page sends it, and when its answer reaches the page (before the page parses it).
  const NativeWorker = globalThis.Worker;
  globalThis.Worker = class extends NativeWorker {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (event) => {
        if (b.fold_id !== undefined && !("fold_answered" in b) && typeof event.data === "string"
            && event.data.startsWith(`{"type":"reply","id":${b.fold_id},`)) {
          mark("fold_answered");
          b.fold_reply_chars = event.data.length;
        }
      });
    }
  };
  const post = NativeWorker.prototype.postMessage;
  NativeWorker.prototype.postMessage = function (data, ...rest) {
    if (b.fold_id === undefined && typeof data === "string" && data.includes('"fn":"fold"')) {
      b.fold_id = JSON.parse(data).id;
      b.fold_request_chars = data.length;
      mark("fold_sent");
    }
    return post.call(this, data, ...rest);
  };
  new MutationObserver(() => {
    if (document.getElementById("view")?.dataset.version !== undefined) mark("drawn");
    if (document.body?.dataset.ready !== undefined && !("usable" in b)) {
      mark("usable");
      requestAnimationFrame(() => mark("painted"));
    }
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-version", "data-ready"] });
})();"""

#: Milliseconds since navigation start at each phase: the page's, the rules worker's and the bench's marks.
PHASES_JS = """() => {
  const nav = performance.getEntriesByType('navigation')[0];
  return { html: nav.responseEnd, dom_interactive: nav.domInteractive, ...(globalThis.topcutReady?.phases || {}),
           ...globalThis.__bench };
}"""
#: (label, mark): printed in order of their medians, each with the time since the previous one.
PHASES = (
    ("page HTML from the SW cache", "html"),
    ("page parsed (DOM interactive)", "dom_interactive"),
    ("rules worker created by the page", "worker_created"),
    ("worker script running (pyodide.mjs imported)", "worker_start"),
    ("wasm runtime compiled and instantiated", "runtime_up"),
    ("the rules' pieces in Pyodide's filesystem", "zip_in_place"),
    ("loadPyodide done (Python up)", "pyodide_loaded"),
    ("shared_rules + rules_api imported", "imported"),
    ("page told: rules worker ready", "ready"),
    ("[IndexedDB] session read", "session_read"),
    ("[IndexedDB] snapshot read", "snapshot_read"),
    ("[IndexedDB] event log read", "log_read"),
    ("fold sent to the rules worker", "fold_sent"),
    ("fold answered (state back in the page)", "fold_answered"),
    ("screen drawn (view data-version)", "drawn"),
    ("screen usable (body data-ready)", "usable"),
    ("next frame", "painted"),
)


def load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


def print_phases(runs: list[dict]) -> None:
    print("  phase (median of runs; the IndexedDB reads overlap the worker's boot)   at (ms)   step (ms)")
    rows = []
    for label, key in PHASES:
        values = [r[key] for r in runs if r.get(key) is not None]
        if values:
            rows.append((statistics.median(values), label))
    previous = 0.0
    for at, label in sorted(rows):
        print(f"  {label:<70} {at:8.0f}   {at - previous:8.0f}")
        previous = at
    extra = runs[-1]
    if extra.get("log_rows") is not None:
        snapshot = extra.get("snapshot_cursor")
        print(
            f"  (snapshot: {'none' if snapshot is None else f'at operation {snapshot}'}; log rows read: "
            f"{extra['log_rows']}; fold request {extra.get('fold_request_chars', 0) / 1e3:.0f} kB, "
            f"answer {extra.get('fold_reply_chars', 0) / 1e3:.0f} kB of JSON)"
        )


def event_ops(players: int = 512, rounds: int = 3) -> list[dict]:
    sys.path.insert(0, str(ROOT))
    from bench.events import operations_log

    return [{"server_seq": i, "op": op} for i, op in enumerate(operations_log(players, rounds), start=1)]


def api(url: str, method: str, path: str, body: dict | None = None, token: str | None = None) -> dict:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(
        url + path, data=json.dumps(body).encode() if body is not None else None, headers=headers, method=method
    )
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())


def put_event_on_server(url: str, ops: list[dict]) -> tuple[str, str, Any]:
    """The event made by the organizer's desk on the server; an organizer invitation code for the tablet; and
    ``push(ops)``, which sends the desk's next operations."""
    create = ops[0]["op"]["payload"]
    made = api(url, "POST", "/api/events", {"ruleset": create["ruleset"], "name": create["name"]})
    eid, token = made["event_id"], made["token"]
    sent = [0]

    def push(rows: list[dict]) -> None:
        rest = [{"type": row["op"]["type"], "payload": row["op"]["payload"]} for row in rows]
        for start in range(0, len(rest), 500):  # a push takes at most 500 operations
            batch = [{"seq": sent[0] + i + 1, "op": op} for i, op in enumerate(rest[start : start + 500])]
            answer = api(url, "POST", f"/api/events/{eid}/push", {"device": "desk", "ops": batch}, token)
            assert all(v["status"] == "accepted" for v in answer["results"]), answer
            sent[0] += len(batch)

    push(ops[1:])
    code = api(url, "POST", f"/api/events/{eid}/invitations", {"role": "organizer"}, token)["code"]
    return eid, code, push


def wait_usable(page, screen: str, done: int, tables: int, rounds: int) -> dict:
    """The screen is usable: ready, drawn from a folded state, showing the event (round ``rounds`` with ``done``
    of ``tables`` results in); then its phases."""
    page.wait_for_selector("#status[data-state=ready]", timeout=BOOT_MS)
    page.wait_for_selector(f"body[data-ready='{screen}']", timeout=BOOT_MS)
    page.wait_for_selector("#view[data-version]", timeout=BOOT_MS)
    if screen == "rounds":
        progress = page.text_content("#round-progress")
        caption = page.text_content("#view table.matches caption")
        assert progress.startswith(f"{done} of {tables} results in"), progress
        assert caption.startswith(f"Round {rounds} (swiss)"), caption
    return page.evaluate(PHASES_JS)


#: The tablet's store, brought up to the server's log ``head`` (a sync); then its cursor and its snapshot's.
SYNCED_JS = """async ([eid, head]) => {
  const { storeFor } = await import('/pwa/app/store.js');
  const { getSnapshot } = await import('/pwa/data/db.js');
  const store = storeFor(eid);
  while (store.workerCursor < head) { await store.syncNow(); await new Promise((r) => setTimeout(r, 100)); }
  return { cursor: store.workerCursor, snapshot: (await getSnapshot(eid))?.cursor ?? 0 };
}"""


#: Between two changes a judge reads, walks, talks: the tablet is idle (its worker makes its spare copy then).
CHANGE_IDLE_MS = 3000

#: ``n`` changes made on the open screen as a judge makes them (a warning to the first player), each timed from
#: the tap (``store.act``) until the screen has drawn it (the view's ``data-version`` moves), and until the
#: server has it and the tablet has folded its answer (nothing waiting, not syncing).
CHANGES_JS = """async ([eid, n, idle]) => {
  const { storeFor } = await import('/pwa/app/store.js');
  const store = storeFor(eid);
  const view = document.getElementById('view');
  const until = async (ok) => { while (!ok()) await new Promise((r) => setTimeout(r, 5)); };
  const player = store.state.players[0].id;
  const out = [];
  for (let i = 0; i < n; i += 1) {
    await new Promise((r) => setTimeout(r, idle));
    const before = Number(view.dataset.version);
    const t = performance.now();
    const acted = store.act('penalty.issue', { player, reason: 'bench ' + i, kind: 'warning' });
    await until(() => Number(view.dataset.version) > before);
    const shown = performance.now() - t;
    await acted;
    await until(() => document.querySelector("#sync[data-waiting='0'][data-syncing=no]"));
    out.push({ shown, synced: performance.now() - t });
  }
  return out;
}"""


def judge_changes(page, eid: str, n: int) -> list[dict]:
    """Time ``n`` changes made on the tablet's open screen, online (see CHANGES_JS)."""
    return page.evaluate(CHANGES_JS, [eid, n, CHANGE_IDLE_MS])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="browser restarts (and reloads) to take the median of")
    parser.add_argument("--screen", default="rounds", help="the event's screen to open (an organizer may see it)")
    parser.add_argument("--players", type=int, default=512)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--cold-only", action="store_true", help="skip the standings and pairing figures")
    parser.add_argument(
        "--network-off",
        action="store_true",
        help="restart the browser with its network off too (default: only the server is dead)",
    )
    parser.add_argument(
        "--no-snapshot",
        action="store_true",
        help="the tablet keeps no snapshot of the folded log (as until late on 2026-11-26): every start folds from operation 1",
    )
    parser.add_argument(
        "--changes", type=int, default=5, help="changes made on the tablet online, before the restarts (0: none)"
    )
    parser.add_argument(
        "--tail",
        type=int,
        default=499,
        help="operations after the tablet's snapshot for the second series of restarts (0: none; a tablet saves a "
        "snapshot every 500, so up to 499 wait after it)",
    )
    parser.add_argument("--json", type=Path, help="write every run's phases (ms since navigation) to this file")
    args = parser.parse_args()

    from playwright.sync_api import sync_playwright

    from tests.browser.appserver import AppProcess

    subprocess.run([sys.executable, str(ROOT / "scripts" / "build_assets.py"), "--quiet"], check=True)
    ops = event_ops(args.players, args.rounds)
    tables = args.players // 2
    tail_ops: list[dict] = []
    if args.tail and not args.no_snapshot:  # the next round, as far as it goes in ``--tail`` operations
        longer = event_ops(args.players, args.rounds + 1)
        assert [r["op"] for r in longer[: len(ops)]] == [r["op"] for r in ops]
        tail_ops = longer[len(ops) :]
    tmp = Path(tempfile.mkdtemp(prefix="bench-pwa-"))
    profile = tmp / "chromium-profile"
    server = AppProcess(tmp)
    server.start()
    try:
        eid, code, push = put_event_on_server(server.url, ops)
        screen_url = f"{server.url}/#/event/{eid}/{args.screen}"
        with sync_playwright() as p:

            def launch(offline: bool = False, where: Path = profile):
                context = p.chromium.launch_persistent_context(
                    str(where),
                    executable_path=CHROMIUM,
                    headless=True,
                    args=ARGS,
                    offline=offline,
                    viewport={"width": 1280, "height": 800},
                )
                context.add_init_script(INSTRUMENT_JS)
                if args.no_snapshot:
                    context.add_init_script("localStorage.setItem('topcut.snapshotEvery', '1000000000')")
                return context, (context.pages[0] if context.pages else context.new_page())

            # ---- online, once: join as a second organizer device, sync the whole event, open its screen
            context, page = launch()
            page.goto(f"{server.url}/#join={code}")
            page.wait_for_selector("body[data-ready]", timeout=BOOT_MS)
            deadline = time.monotonic() + BOOT_MS / 1000
            while not page.evaluate("() => navigator.serviceWorker.controller !== null"):
                assert time.monotonic() < deadline, "the service worker never took the page"
                time.sleep(0.1)
            page.goto(screen_url)
            wait_usable(page, args.screen, tables, tables, args.rounds)
            page.wait_for_selector("#sync[data-online=online][data-waiting='0'][data-syncing=no]", timeout=60_000)
            changes = judge_changes(page, eid, args.changes) if args.changes else []
            if not args.no_snapshot:  # a tablet in use has saved one by the time it restarts
                snapshot_js = f"""async () => {{
                  const {{ getSnapshot }} = await import('/pwa/data/db.js');
                  return (await getSnapshot({json.dumps(eid)}))?.cursor ?? 0;
                }}"""
                while page.evaluate(snapshot_js) < len(ops):
                    assert time.monotonic() < deadline + 60, "the tablet never saved a snapshot"
                    time.sleep(0.2)
            head = len(ops) + len(changes)
            synced = page.evaluate(SYNCED_JS, [eid, head])
            context.close()
            # Each case: (browser profile, results in on the screen, its round, operations after the snapshot).
            cases = [(profile, tables, args.rounds, synced["cursor"] - synced["snapshot"])]
            if tail_ops:
                # The same tablet once more online while the desk goes on with the next round: it pulls the log up
                # to ``--tail`` operations past its snapshot (and so saves no new one), then is closed mid-round.
                shutil.copytree(profile, tmp / "profile-at-snapshot")
                cases[0] = (tmp / "profile-at-snapshot", *cases[0][1:])
                more = tail_ops[: args.tail - (synced["cursor"] - synced["snapshot"])]
                push(more)
                context, page = launch()
                page.goto(screen_url)
                page.wait_for_selector("#view[data-version]", timeout=BOOT_MS)
                after = page.evaluate(SYNCED_JS, [eid, synced["cursor"] + len(more)])
                assert after["snapshot"] == synced["snapshot"], f"a new snapshot was saved: {after}"
                page.wait_for_selector("#sync[data-waiting='0'][data-syncing=no]", timeout=60_000)
                context.close()
                results = sum(1 for row in more if row["op"]["type"] == "result.report")
                cases.append((profile, results, args.rounds + 1, after["cursor"] - after["snapshot"]))
            server.kill()  # SIGKILL: the hall's server is gone

            # ---- browser restarts, server dead: at the snapshot, then (``--tail``) with the log after it
            series = []
            load_before = load()
            for where, done, round_no, after_snapshot in cases:
                cold, runs = [], []
                for i in range(args.runs):
                    context, page = launch(offline=args.network_off, where=where)
                    started = time.monotonic()
                    page.goto(screen_url, wait_until="commit")
                    phases = wait_usable(page, args.screen, done, tables, round_no)
                    runs.append(phases)
                    cold.append(phases["usable"] / 1000)
                    fold = (phases["fold_answered"] - phases["fold_sent"]) / 1000
                    print(
                        f"  {after_snapshot} operations after the snapshot, restart {i + 1}: usable at "
                        f"{phases['usable'] / 1000:.2f} s, worker ready at {phases['ready'] / 1000:.2f} s, fold "
                        f"{fold:.2f} s (goto to usable {time.monotonic() - started:.2f} s); load {load()}",
                        flush=True,
                    )
                    if i < args.runs - 1 or where != cases[-1][0]:
                        context.close()
                series.append((after_snapshot, cold, runs))
            load_after = load()

            # ---- reloads in the running browser (the old figure)
            warm, warm_runs = [], []
            for _ in range(args.runs):
                page.reload(wait_until="commit")
                phases = wait_usable(page, args.screen, cases[-1][1], tables, cases[-1][2])
                warm_runs.append(phases)
                warm.append(phases["usable"] / 1000)
            load_reloads = load()
            if args.json:
                args.json.write_text(
                    json.dumps(
                        {
                            "restarts": {str(n): r for n, _, r in series},
                            "reloads": warm_runs,
                            "load": [load_before, load_after, load_reloads],
                        },
                        indent=1,
                    )
                )

            print(
                f"machine: {os.cpu_count()} cores; load average {load_before} before the restarts, "
                f"{load_after} after, {load_reloads} after the reloads"
            )
            print(
                f"event: {args.players} players, {args.rounds} rounds, {len(ops)} operations; "
                f"screen #/event/<id>/{args.screen}"
            )
            for after_snapshot, cold, series_runs in series:
                print(
                    f"offline cold start with {after_snapshot} operations after the snapshot (browser restarted, "
                    f"server dead{', network off' if args.network_off else ''}; navigation -> screen usable): "
                    f"median {statistics.median(cold):.2f} s, runs {', '.join(f'{c:.2f}' for c in cold)}"
                    "  (target <= 2 s at 2,048 x 9 with 499 after it)"
                )
                print_phases(series_runs)
            if changes:
                shown = [c["shown"] / 1000 for c in changes]
                synced = [c["synced"] / 1000 for c in changes]
                print(
                    f"a change on the tablet (online, {CHANGE_IDLE_MS / 1000:.0f} s apart): on screen median "
                    f"{statistics.median(shown):.3f} s (runs {', '.join(f'{x:.3f}' for x in shown)}), "
                    f"sent and folded back median {statistics.median(synced):.3f} s"
                )
            print(
                f"same-browser reload (server dead; navigation -> screen usable): "
                f"median {statistics.median(warm):.2f} s, runs {', '.join(f'{c:.2f}' for c in warm)}"
            )
            print_phases(warm_runs)
            if args.cold_only:
                context.close()
                return 0
            timings = page.evaluate(
                """async (ops) => {
              const { rules } = await import('/pwa/rules/rules-client.js');
              let t = performance.now();
              await rules('fold', {event_id: 'bench', reset: true, base: null, confirmed: ops, pending: [], with_state: false});
              const fold = performance.now() - t;
              t = performance.now();
              await rules('fold', {event_id: 'bench2', reset: true, base: null, confirmed: ops, pending: []});
              const foldWithState = performance.now() - t;
              const standings = [], pairing = [];
              for (let i = 0; i < 5; i++) {
                t = performance.now(); await rules('standings', {event_id: 'bench'}); standings.push(performance.now() - t);
                t = performance.now(); await rules('pair_draft', {event_id: 'bench'}); pairing.push(performance.now() - t);
              }
              return {fold, foldWithState, standings, pairing};
            }""",
                ops,
            )
            med = lambda xs: statistics.median(xs) / 1000  # noqa: E731
            print(
                f"{args.players} players, {args.rounds} rounds ({len(ops)} operations): fold of the log in the "
                f"worker {timings['fold'] / 1000:.2f} s, {timings['foldWithState'] / 1000:.2f} s with the state sent back"
            )
            print(f"standings on the device: median {med(timings['standings']):.3f} s of 5  (target <= 0.3 s)")
            print(
                f"pairing round {args.rounds + 1} on the device: median {med(timings['pairing']):.3f} s of 5"
                "  (target <= 0.5 s)"
            )
            context.close()
    finally:
        server.kill()
        shutil.rmtree(tmp, ignore_errors=True)  # the browser profile and the server's database
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
