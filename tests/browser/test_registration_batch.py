"""Registration at hall size: 512 pasted names (or a 512-row CSV) register as one batch with the count on
the button, a summary says what was registered and what was not (and why), the lines not registered stay in
the box, and the server ends up with every player; the 513th player added alone afterwards registers too."""

from __future__ import annotations

from tests.browser.helpers import ARTIFACTS, create_event, open_page, wait_js, wait_synced


def shot(page, name: str) -> None:
    """The screen as the user sees it (the viewport, not the 512-row page), under tests/artifacts/."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"pwa-{name}.png"))


NAMES = [f"Player {i:03d} Hallsize" for i in range(1, 513)]


def _watch_progress(page) -> None:
    """Record every count the Register button says while the batch runs (page.__counts)."""
    page.evaluate(
        """() => {
      globalThis.__counts = [];
      const seen = (el) => { const t = el.textContent; if (/of \\d+…$/.test(t) && !__counts.includes(t)) __counts.push(t); };
      new MutationObserver(() => document.querySelectorAll("#register, #csv-register").forEach(seen))
        .observe(document.body, { subtree: true, childList: true, characterData: true });
    }"""
    )


def test_512_pasted_names_register_as_one_batch_with_progress_and_a_summary(browser, app_process) -> None:
    ctx, org = open_page(browser, {"width": 1280, "height": 800})
    create_event(org, app_process.url, "Hall Regional", "pokemon-tcg")
    too_long = "x" * 201
    org.fill("textarea", "\n".join([*NAMES, too_long]))
    _watch_progress(org)
    org.click("#register")
    org.wait_for_selector(".batch-progress:not([hidden])")
    shot(org, "registration-progress")
    org.wait_for_selector("#register-done", timeout=60_000)
    counts = org.evaluate("() => __counts")
    assert counts and all(c.startswith("Registering ") and c.endswith(" of 512…") for c in counts), counts
    assert len(counts) >= 3, counts  # it moved while it ran
    done = org.locator("#register-done").inner_text()
    assert "512 players registered; 512 in the event" in done, done
    refused = org.locator("#register-refused").inner_text()
    assert "1 line was not registered" in refused and "longer than 200 characters" in refused, refused
    assert org.locator("textarea").input_value() == too_long  # nothing typed is lost
    assert org.locator("#register").inner_text() == "Register" and org.locator("#register").is_enabled()
    org.wait_for_selector("caption:has-text('512 registered')")
    org.locator("#register-done").scroll_into_view_if_needed()
    shot(org, "registration-512-done")
    wait_synced(org, timeout=120_000)
    server = org.evaluate(
        """async (id) => {
      const s = await import('/pwa/data/db.js').then((m) => m.getSession(id));
      const r = await fetch(`/api/events/${id}/state`, { headers: { Authorization: `Bearer ${s.token}` } });
      return (await r.json()).state.players.map((p) => p.name);
    }""",
        org.url.split("#/event/")[1].split("/")[0],
    )
    assert sorted(server) == NAMES

    # The 513th player, alone, into the 512-player event.
    org.fill("textarea", "")
    org.get_by_label("Player name").fill("Late Entry")
    org.click("#register")
    org.wait_for_selector("caption:has-text('513 registered')")
    assert org.errors == []
    ctx.close()


def test_the_paste_shows_its_progress_on_a_phone_sized_screen(browser, app_process) -> None:
    ctx, org = open_page(browser, {"width": 390, "height": 844})
    create_event(org, app_process.url, "Phone Desk", "doomtown")
    org.fill("textarea", "\n".join(NAMES[:300]))
    # A slow tablet (the CPU 8 times slower): the progress stays on screen long enough to be photographed.
    ctx.new_cdp_session(org).send("Emulation.setCPUThrottlingRate", {"rate": 8})
    org.click("#register")
    org.wait_for_selector(".batch-progress:not([hidden])")
    org.locator("#register").scroll_into_view_if_needed()
    shot(org, "registration-progress-phone")
    assert org.locator("#register").inner_text().startswith("Registering ")
    assert org.locator("#register").is_disabled()
    org.wait_for_selector("#register-done", timeout=60_000)
    assert "300 players registered" in org.locator("#register-done").inner_text()
    assert org.errors == []
    ctx.close()


def test_a_512_row_csv_registers_as_one_batch_with_progress(browser, app_process, tmp_path) -> None:
    ctx, org = open_page(browser, {"width": 1280, "height": 800})
    create_event(org, app_process.url, "CSV Regional", "pokemon-tcg")
    rows = ["Name,Player ID,Birth year"] + [f"{n},{1000000 + i},1990" for i, n in enumerate(NAMES)]
    path = tmp_path / "roster.csv"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    org.set_input_files("#csv-file", str(path))
    org.wait_for_selector("#csv-register")
    assert org.locator("#csv-register").inner_text() == "Register 512 players"
    _watch_progress(org)
    org.click("#csv-register")
    org.wait_for_selector("#csv-done", timeout=60_000)
    assert "512 players registered from roster.csv." in org.locator("#csv-done").inner_text()
    counts = wait_js(org, "() => __counts.length && __counts")
    assert all(c.endswith(" of 512…") for c in counts), counts
    org.wait_for_selector("caption:has-text('512 registered')")
    assert org.errors == []
    ctx.close()
