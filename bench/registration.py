"""Registration at hall size in headless Chromium: 512 names pasted into the Players screen, and a 512-row CSV
imported, timed until all of them are registered on the device and until the server has them.

    .venv/bin/python -m bench.registration [--players 512] [--runs 3] [--single 5]

Each run makes a new Pokémon event on the app (a real gunicorn process on SQLite, as ``make run`` serves it),
pastes the names into "Or several names" and presses Register; the time runs from the press until the roster
says "512 registered" (every operation stored in IndexedDB and folded by the rules worker) and until the sync
line says nothing waits (pushed and pulled back). Then the same with a CSV file read on the device ("Register
512 players"). ``--single``: then that many more players, one at a time through the single-name field, into
the full event (the 513th player's time). Goal: 512 players <= 5 s to registered. Figures: bench/README.md.

Before (main at 7df877d): each name was its own operation, IndexedDB transaction, fold and sync, and the screen
drew the whole roster after each: 176 s for 512 names, with a disabled button and no progress.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu"]
BOOT_MS = 120_000


def _create(page, url: str, name: str) -> None:
    page.goto(url + "/")
    page.wait_for_selector("#status[data-state=ready]", timeout=BOOT_MS)
    page.fill("#create-title ~ .field input[type=text]", name)
    page.select_option("#create-title ~ .field select", "pokemon-tcg")
    page.click("text=Create event")
    page.wait_for_selector("body[data-ready='players']", timeout=BOOT_MS)
    page.wait_for_selector("#sync[data-online=online][data-waiting='0'][data-syncing=no]", timeout=60_000)


#: Press the button and note, in the page, when the roster's caption first says the count and when the sync line
#: first says nothing waits (a MutationObserver: Playwright's own polling of a busy page adds seconds).
PRESS_JS = r"""([selector, registered]) => {
  const b = globalThis.__bench = { done: null, synced: null };
  const synced = () => document.querySelector("#sync[data-online=online][data-waiting='0'][data-syncing=no]");
  const look = () => {
    const now = performance.now();
    if (b.done === null && [...document.querySelectorAll("caption")].some((c) => c.textContent.includes(registered))) b.done = now;
    if (b.done !== null && b.synced === null && synced()) b.synced = now;
    if (b.synced !== null) observer.disconnect();
  };
  const observer = new MutationObserver(look);
  observer.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  b.t0 = performance.now();
  document.querySelector(selector).click();
}"""


def _timed(page, selector: str, registered: str) -> tuple[float, float]:
    """Seconds from pressing ``selector`` until the roster's caption says ``registered``, and until nothing waits
    to sync (both as the page saw them)."""
    page.evaluate(PRESS_JS, [selector, registered])
    page.wait_for_selector(f"caption:has-text('{registered}')", timeout=600_000)
    page.wait_for_selector("#sync[data-online=online][data-waiting='0'][data-syncing=no]", timeout=600_000)
    b = page.evaluate("() => __bench")
    if b["synced"] is None:  # the sync was over before the caption changed
        b["synced"] = b["done"]
    return (b["done"] - b["t0"]) / 1000, (b["synced"] - b["t0"]) / 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=512)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--single", type=int, default=5, help="players then added one at a time (0: none)")
    args = parser.parse_args()

    from playwright.sync_api import sync_playwright

    from tests.browser.appserver import AppProcess

    subprocess.run([sys.executable, str(ROOT / "scripts" / "build_assets.py"), "--quiet"], check=True)
    n = args.players
    names = [f"Player {i:04d} Bench" for i in range(1, n + 1)]
    tmp = Path(tempfile.mkdtemp(prefix="bench-registration-"))
    csv_path = tmp / "roster.csv"
    csv_path.write_text(
        "\n".join(["Name,Player ID,Birth year"] + [f"{x},{2000000 + i},1990" for i, x in enumerate(names)]) + "\n",
        encoding="utf-8",
    )
    server = AppProcess(tmp)
    server.start()
    figures: dict[str, list[float]] = {k: [] for k in ("paste", "paste synced", "csv", "csv synced", "one more")}
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
            for run in range(args.runs):
                context = browser.new_context(viewport={"width": 1280, "height": 800})
                page = context.new_page()
                _create(page, server.url, f"Paste {run}")
                page.fill("textarea", "\n".join(names))
                done, synced = _timed(page, "#register", f"{n} registered")
                figures["paste"].append(done)
                figures["paste synced"].append(synced)
                for k in range(args.single):
                    page.get_by_label("Player name").fill(f"Late Entry {k}")
                    done, _ = _timed(page, "#register", f"{n + k + 1} registered")
                    figures["one more"].append(done)

                _create(page, server.url, f"CSV {run}")
                page.set_input_files("#csv-file", str(csv_path))
                page.wait_for_selector("#csv-register", timeout=60_000)
                done, synced = _timed(page, "#csv-register", f"{n} registered")
                figures["csv"].append(done)
                figures["csv synced"].append(synced)
                context.close()
                print(
                    f"run {run + 1}: paste {figures['paste'][-1]:.2f} s (synced {figures['paste synced'][-1]:.2f} s), "
                    f"csv {figures['csv'][-1]:.2f} s (synced {figures['csv synced'][-1]:.2f} s)",
                    flush=True,
                )
            browser.close()
    finally:
        server.kill()
    load = os.getloadavg()
    print(f"\n{n} players, {args.runs} runs, load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")
    for key, values in figures.items():
        if values:
            print(
                f"{key:>14}: median {statistics.median(values):.2f} s (best {min(values):.2f}, worst {max(values):.2f})"
            )
    print("goal: 512 pasted names registered <= 5 s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
