"""Steps of the browser conformance suite: one organizer device runs an event through the screens only.

Every step clicks, types or picks what a person would (tabs, buttons, selects, the CSV file input, the
download button); the only things read past the screens are the ruleset's outcome words (what the form's
options mean: which is a win) and the downloaded event document. A refusal the screen shows fails the step
with the screen's own words, so a failure says which step, which table and what the app said.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from tests.browser.helpers import BOOT_MS, event_id, rules, shot, wait_ready, wait_synced

STEP_MS = 20_000

# The caption of the Rounds screen's match table: "Round 2 (swiss) — draft".
_ROUND_IS = """([n, status]) => [...document.querySelectorAll('table.matches caption')]
  .some((c) => c.textContent.startsWith(`Round ${n} (`) && c.textContent.endsWith(`— ${status}`))"""


def _penalty_rows(condition: str) -> str:
    """A JS function of ``[player, reason]``: ``condition`` of ``rows``, the innermost list items and table
    rows of the screen that name the player and the penalty's reason."""
    return f"""([player, reason]) => {{
      const named = [...document.querySelectorAll('#view li, #view tr')]
        .filter((row) => row.textContent.includes(player) && row.textContent.includes(reason));
      const rows = named.filter((row) => !named.some((other) => other !== row && row.contains(other)));
      return {condition};
    }}"""


# A select's offered options: their values, without the empty "—" and without disabled or hidden ones.
_OUTCOME_SELECTS = "#entry form.result-form select[aria-label^='Outcome for ']"
_PAIRS_MADE = """([a, b]) => {
  const offered = (s) => [...s.options].filter((o) => o.value !== '' && !o.disabled && !o.hidden).map((o) => o.value);
  const choose = (s, v) => { s.value = v; s.dispatchEvent(new Event('change', { bubbles: true })); };
  const made = new Map();
  for (const first of offered(a)) {
    choose(a, first);
    const seconds = b.disabled ? [b.value] : offered(b);
    for (const second of seconds) {
      choose(a, first);
      if (!b.disabled) choose(b, second);
      made.set(`${a.value}\u0000${b.value}`, [a.value, b.value]);
    }
  }
  return [...made.values()];
}"""
_OFFERED = """(s) => [...s.options].filter((o) => o.value !== '' && !o.disabled && !o.hidden)
  .map((o) => o.value)"""


@dataclass(frozen=True)
class Entry:
    """One way to fill a result form: a quick button (``quick``) or a pair picked in the outcome selects."""

    quick: str | None = None
    outcomes: tuple[str, ...] = ()

    def __str__(self) -> str:
        return f"quick button {self.quick!r}" if self.quick else f"outcomes {list(self.outcomes)}"


@dataclass(frozen=True)
class Offer:
    """What the result form of a two-player table offers: its quick buttons and the outcome pairs."""

    quick: tuple[tuple[str, str, tuple[str, ...]], ...]  # (data-quick, button text, the outcomes it sets)
    pairs: tuple[tuple[str, str], ...]  # every (seat 1, seat 2) the two selects let a judge pick

    def entries(self) -> list[Entry]:
        """Each quick button once, then each pair (either seat order) no quick button already makes."""
        made = {tuple(sorted(outcomes)) for _, _, outcomes in self.quick}
        out = [Entry(quick=key) for key, _, _ in self.quick]
        for pair in self.pairs:
            if tuple(sorted(pair)) not in made:
                made.add(tuple(sorted(pair)))
                out.append(Entry(outcomes=pair))
        return out


class StepFailed(AssertionError):
    """A step the screen refused or that never came to pass, with what the screen said."""


class Desk:
    """The organizer's device: one page, whose screens are reached by their tabs."""

    def __init__(self, page, url: str) -> None:
        self.page = page
        self.url = url
        self.results: dict[str, str] = {}  # outcome word -> win / tie / loss (the ruleset's own words)

    # ------------------------------------------------------------ waiting

    def until(self, what: str, done: str, arg=None, error: str | None = None, timeout: int = STEP_MS) -> None:
        """Poll ``done`` (a JS function of ``arg``) until true; a non-empty ``error`` element's text fails the step."""
        page = self.page
        deadline = time.monotonic() + timeout / 1000
        while True:
            if page.evaluate(done, arg):
                return
            if error:
                said = page.evaluate(
                    "(sel) => [...document.querySelectorAll(sel)].map((e) => e.textContent.trim()).filter(Boolean)",
                    error,
                )
                if said:
                    raise StepFailed(f"{what}: the screen says: {' | '.join(said)}")
            if time.monotonic() > deadline:
                raise StepFailed(f"{what}: nothing happened within {timeout} ms")
            page.wait_for_timeout(50)

    # ------------------------------------------------------------ navigation

    def screen(self, name: str) -> None:
        """Open an event screen by its tab (nothing to do when it is already up)."""
        page = self.page
        if page.evaluate("() => document.body.dataset.ready") == name:
            return
        tab = page.locator(f"#tabs a[data-screen='{name}']")
        if tab.count() == 0:
            raise StepFailed(f"no '{name}' tab on the organizer's device")
        tab.click()
        wait_ready(page, name)

    def home(self) -> None:
        page = self.page
        if page.locator("#create-title").count() == 0:
            page.click("header a.brand")
        page.wait_for_selector(
            "form[aria-labelledby=create-title] button[type=submit]:not([disabled])", timeout=BOOT_MS
        )

    # ------------------------------------------------------------ create and register

    def create(self, name: str, ruleset: str) -> str:
        """Create an event on the home screen; its id."""
        page = self.page
        self.home()
        form = page.locator("form[aria-labelledby=create-title]")
        form.get_by_label("Event name").fill(name)
        form.get_by_label("Game").select_option(ruleset)
        form.get_by_role("button", name="Create event").click()
        wait_ready(page, "players")
        page.wait_for_selector(f"#event-title:text-is({json.dumps(name)})")
        info = rules(page, "ruleset_info", {"ruleset": ruleset})
        self.results = {o["key"]: o["result"] for o in info["outcomes"]}
        return event_id(page)

    def register_csv(self, csv_path: Path, count: int) -> None:
        """Register the roster from a CSV file on the players screen (the import card)."""
        page = self.page
        self.screen("players")
        page.set_input_files("#csv-file", str(csv_path))
        self.until("read the CSV roster", "() => !!document.querySelector('#csv-register')", error="#csv-error")
        page.click("#csv-register")
        page.wait_for_selector("#csv-done")
        self.until(
            f"register {count} players",
            "(n) => document.querySelector('#roster-table caption')?.textContent.startsWith(`${n} registered`)",
            count,
        )

    # ------------------------------------------------------------ rounds

    def swiss_rounds(self, players: int) -> int:
        """The Swiss rounds the players screen's structure suggests for the players registered."""
        self.screen("players")
        self.until(
            "the structure for the players registered",
            r"(n) => new RegExp(`^${n} players: \\d+ Swiss rounds`).test(document.querySelector('p.suggestion')?.textContent)",
            players,
        )
        text = self.page.locator("p.suggestion").first.text_content()
        return int(re.search(r"(\d+) Swiss rounds", text).group(1))

    def rounds_error(self) -> str:
        return "#view > p.error[role=alert]"

    def pair_publish_start(self, number: int) -> None:
        """On the rounds screen: pair the next Swiss round as a draft, publish it, start its clock."""
        self.screen("rounds")
        self.page.click("#pair-next")
        self.until(f"pair round {number}", _ROUND_IS, [number, "draft"], error=self.rounds_error())
        self.publish_start(number)

    def publish_start(self, number: int) -> None:
        page = self.page
        page.click("#publish-round")
        self.until(f"publish round {number}", _ROUND_IS, [number, "published"], error=self.rounds_error())
        page.click("#start-round")
        self.until(f"start round {number}", _ROUND_IS, [number, "started"], error=self.rounds_error())

    def tables(self) -> list[tuple[int, int]]:
        """The tables of the round the results screen shows, with how many players sit at each (byes have none)."""
        self.screen("judge")
        self.page.wait_for_selector(".match-card")
        return [
            (table, size)
            for table, size in self.page.eval_on_selector_all(
                ".match-card[data-table]:not([data-table=bye])",
                "cards => cards.map((c) => [Number(c.dataset.table), c.querySelector('.players').textContent.split(' v ').length])",
            )
        ]

    def make_cut(self, size: int | None) -> int:
        """The rounds screen's "Make the cut" (``size`` typed, or the structure's); the elimination round's number."""
        page = self.page
        self.screen("rounds")
        # The card once it offers a cut (its step worked out from the last result, not the one before).
        page.wait_for_selector("#make-top-cut, #cut-early, #cut-size, details.other-cut")
        if size or page.locator("#make-top-cut").count() == 0:
            # Another size than the structure's, or a cut the structure does not plan (yet): the cut form,
            # behind "End the Swiss early…" or "Another cut size" / "Make a cut anyway".
            if page.locator("#cut-early").count():
                page.click("#cut-early")
            elif page.locator("details.other-cut").count():
                page.click("details.other-cut summary")
            page.wait_for_selector("#cut-size", state="visible")
            if size:
                page.fill("#cut-size", str(size))
            page.click("#make-cut")
        else:
            page.click("#make-top-cut")
        self.until(
            "make the cut",
            "() => [...document.querySelectorAll('table.matches caption')].some((c) => /\\(elimination\\) — draft$/.test(c.textContent))",
            error=self.rounds_error(),
        )
        caption = page.text_content("table.matches caption")
        return int(caption.split()[1])

    def pair_next_elimination(self, number: int) -> None:
        self.screen("rounds")
        self.page.click("#pair-elimination")
        self.until(f"pair elimination round {number}", _ROUND_IS, [number, "draft"], error=self.rounds_error())

    def champion(self) -> str | None:
        """The bracket screen's champion, once the cut has one."""
        self.screen("bracket")
        self.page.wait_for_selector(".bracket .bracket-round, .bracket > p")
        if self.page.locator(".bracket .bracket-round").count() == 0:
            raise StepFailed(f"the bracket after the cut: the screen says: {self.page.text_content('.bracket > p')}")
        text = self.page.locator(".champion").all_text_contents()
        return text[0].removeprefix("Champion: ") if text else None

    # ------------------------------------------------------------ results

    def open_table(self, table: int) -> None:
        page = self.page
        self.screen("judge")
        page.fill("#find-match", str(table))
        page.click(f".match-card[data-table='{table}'] .match-open")
        page.wait_for_selector("#entry:not([hidden]) form.result-form")

    def close_entry(self) -> None:
        self.page.click("#entry > button:has-text('Cancel')")
        self.page.wait_for_selector("#entry", state="hidden")

    def outcome_selects(self):
        return self.page.locator(_OUTCOME_SELECTS)

    def offer(self, table: int) -> Offer:
        """What the form of a two-player table offers, read from the screen: quick buttons, then select pairs."""
        page = self.page
        self.open_table(table)
        selects = self.outcome_selects()
        assert selects.count() == 2, f"table {table}: {selects.count()} outcome selects, expected two"
        quick = []
        for key, text in page.eval_on_selector_all(
            "#entry [data-quick]", "bs => bs.map((b) => [b.dataset.quick, b.textContent.trim()])"
        ):
            page.click(f"#entry [data-quick='{key}']")
            quick.append((key, text, tuple(selects.nth(i).input_value() for i in range(2))))
        self.close_entry()
        self.open_table(table)  # a fresh form: the quick buttons above may have narrowed the selects
        # Every pair the two selects can be left holding: each seat's choice may move the other seat's
        # (the form keeps the pair one the game allows), so what counts is what both hold afterwards.
        pairs = [tuple(p) for p in page.eval_on_selector_all(_OUTCOME_SELECTS, _PAIRS_MADE)]
        self.close_entry()
        return Offer(quick=tuple(quick), pairs=tuple(pairs))

    def enter(self, table: int, entry: Entry, what: str, elimination: bool = False) -> tuple[str, ...]:
        """Fill one table's form with ``entry`` (and the stats and scores its outcomes imply), save it."""
        page = self.page
        self.open_table(table)
        selects = self.outcome_selects()
        if entry.quick:
            page.click(f"#entry [data-quick='{entry.quick}']")
        else:
            for seat, outcome in enumerate(entry.outcomes):
                if not selects.nth(seat).is_disabled():  # a seat the form fills by itself keeps what it made
                    selects.nth(seat).select_option(outcome)
        if elimination:
            self._fill_games(tuple(selects.nth(i).input_value() for i in range(selects.count())))
        outcomes = tuple(selects.nth(i).input_value() for i in range(selects.count()))  # as the games left them
        self._fill_numbers(table, outcomes)
        page.click("#save-result")
        self.until(
            f"{what}, table {table}: save {entry} ({list(outcomes)})",
            "() => document.getElementById('entry').hidden",
            error="#entry form.result-form > p.error",
        )
        page.fill("#find-match", "")
        return outcomes

    def enter_pod(self, table: int, winner: int, what: str) -> tuple[str, ...]:
        """A pod (more than two players): the first win word for ``winner``, the first loss word for the rest."""
        self.open_table(table)
        selects = self.outcome_selects()
        offered = selects.nth(0).evaluate(_OFFERED)
        win = next(o for o in offered if self.results.get(o) == "win")
        loss = next(o for o in offered if self.results.get(o) == "loss")
        words = tuple(win if seat == winner else loss for seat in range(selects.count()))
        self.close_entry()
        return self.enter(table, Entry(outcomes=words), what)

    def enter_winner(self, table: int, seat: int, what: str) -> tuple[str, ...]:
        """An elimination game won by ``seat``: the quick button that makes that win (else the selects'
        first win and loss words), best-of-three games to match, saved."""
        page = self.page
        self.open_table(table)
        selects = self.outcome_selects()
        chosen: Entry | None = None
        for key in page.eval_on_selector_all("#entry [data-quick]", "bs => bs.map((b) => b.dataset.quick)"):
            page.click(f"#entry [data-quick='{key}']")
            results = [self.results.get(selects.nth(i).input_value()) for i in range(2)]
            if results[seat] == "win" and results[1 - seat] == "loss":
                chosen = Entry(quick=key)
                break
        if chosen is None:
            offered = selects.nth(0).evaluate(_OFFERED)
            win = next(o for o in offered if self.results.get(o) == "win")
            loss = next(o for o in offered if self.results.get(o) == "loss")
            chosen = Entry(outcomes=(win, loss) if seat == 0 else (loss, win))
        self.close_entry()
        return self.enter(table, chosen, what, elimination=True)

    def _fill_numbers(self, table: int, outcomes: tuple[str, ...]) -> None:
        """Stats (per player, e.g. struggle cards and wounds) and scores where the form asks for them:
        the winner ahead, equal for a tie, a little different at every table."""
        page = self.page
        results = [self.results.get(o, "loss") for o in outcomes]
        for seat, result in enumerate(results):
            row = page.locator("#entry fieldset.stats .row").nth(seat)
            if page.locator("#entry fieldset.stats .row").count() > seat:
                for k, field in enumerate(row.locator("input").all()):
                    top = field.get_attribute("max")
                    high = int(top) if top else 6 + table % 3
                    value = {"win": high, "tie": 1 + k}.get(result, (table + k) % max(high, 1))
                    field.fill(str(value))
            scores = page.locator("#entry fieldset.scores input")
            if scores.count() > seat:
                value = {"win": 100, "tie": 60}.get(result, 20 + 5 * ((table + seat) % 5))
                scores.nth(seat).fill(str(value))

    def _fill_games(self, outcomes: tuple[str, ...]) -> None:
        """Where the form asks for best-of-three games: the winner takes games 1 and 2."""
        page = self.page
        if page.locator("#entry fieldset.games").count() == 0:
            return
        winner = next(i for i, o in enumerate(outcomes) if self.results.get(o) == "win")
        for game in (1, 2):  # the options: not played, the first player, the second, tie
            page.get_by_label(f"Winner of game {game}").select_option(index=1 + winner)

    def wait_round_complete(self, number: int) -> None:
        self.screen("rounds")
        self.until(f"round {number} complete", _ROUND_IS, [number, "complete"], error=self.rounds_error())

    # ------------------------------------------------------------ penalties

    def penalty_and_rescind(self, player: str, reason: str, why_rescind: str) -> None:
        """Issue the mildest penalty the form offers (a warning: no confirm step) and rescind it.

        The rescind step follows the penalties screen's contract: each active penalty's row has a
        "Rescind" button, which asks "Reason for rescinding" and sends it with "Rescind penalty".
        """
        page = self.page
        has_tab = page.locator("#tabs a[data-screen='penalties']").count() > 0
        self.screen("penalties" if has_tab else "judge")
        page.select_option("#penalty-player", label=player)
        kind = page.locator("#penalty-kind option").first
        page.select_option("#penalty-kind", kind.get_attribute("value"))
        infraction = page.locator("#penalty-infraction")
        if infraction.count() and infraction.evaluate("(e) => e.required"):
            if infraction.evaluate("(e) => e.tagName") == "SELECT":
                infraction.select_option(index=1)
            else:
                infraction.fill("A1")
        page.fill("#penalty-reason", reason)
        page.get_by_role("button", name="Issue penalty").click()
        what = f"{kind.text_content()} for {player}"
        try:
            self.until(f"issue a {what}", _penalty_rows("rows.length > 0"), [player, reason])
        except StepFailed as failed:
            raise StepFailed(f"{failed} (the penalty form says {page.text_content('#penalty-msg')!r})") from None
        row = page.locator("li, tr").filter(has_text=player).filter(has_text=reason).last
        rescind = row.get_by_role("button", name="Rescind", exact=True)
        if rescind.count() == 0:
            raise StepFailed(
                f"rescind the {what}: its row has no 'Rescind' button (the row says {row.text_content()!r})"
            )
        rescind.click()
        page.get_by_label("Reason for rescinding").first.fill(why_rescind)
        page.get_by_role("button", name="Rescind penalty").click()
        # Rescinded: kept and said so, or gone from the active list; never still offered for rescinding.
        self.until(
            f"rescind the {what}",
            _penalty_rows(
                "rows.every((row) => /rescind/i.test(row.textContent)"
                " && ![...row.querySelectorAll('button')].some((b) => b.textContent.trim() === 'Rescind'))"
            ),
            [player, reason],
        )

    # ------------------------------------------------------------ close, export, standings

    def close_event(self) -> None:
        page = self.page
        self.screen("staff")
        page.click("#close-event-button")
        page.click("#close-confirm")
        self.until("close the event", "() => !!document.getElementById('closed-note')", error="#close-message")

    def export(self, path: Path) -> dict:
        """The Exports screen's "Download the event" file, saved at ``path``; its document."""
        page = self.page
        self.screen("exports")
        with page.expect_download() as download:
            page.get_by_role("button", name="Download the event (topcut-event/1 JSON)").click()
        download.value.save_as(path)
        return json.loads(path.read_text(encoding="utf-8"))

    def standings(self) -> tuple[list[str], list[list[str]]]:
        """The standings screen's table: its headings and its rows (the cells' text)."""
        page = self.page
        self.screen("standings")
        page.wait_for_selector("#standings-table tbody tr")
        heads = page.eval_on_selector_all("#standings-table thead th", "ths => ths.map((t) => t.textContent)")
        rows = page.eval_on_selector_all(
            "#standings-table tbody tr", "rows => rows.map((r) => [...r.cells].map((c) => c.textContent))"
        )
        return heads, rows

    def synced(self, what: str) -> None:
        """Everything this device did reached the server, and the server refused none of it."""
        try:
            wait_synced(self.page)
        except Exception as error:
            raise StepFailed(f"{what}: not synced: {self.page.text_content('#sync-text')}") from error
        rejected = self.page.get_attribute("#sync", "data-rejected")
        if rejected not in (None, "0"):
            raise StepFailed(f"{what}: the server refused {rejected} change(s): {self.page.text_content('#sync-text')}")

    def shot(self, name: str) -> Path:
        return shot(self.page, name)


def cli_standings(path: Path) -> list[dict]:
    """``python -m shared_rules standings`` on the exported document."""
    run = subprocess.run(
        [sys.executable, "-m", "shared_rules", "standings", str(path)], capture_output=True, text=True, timeout=60
    )
    if run.returncode != 0:
        raise StepFailed(f"python -m shared_rules standings {path.name}: {run.stderr.strip()}")
    return json.loads(run.stdout)["standings"]


def as_screen_shows(line: dict, names: dict[str, str]) -> list[str | float]:
    """A command line standing as the standings screen's row has it: rank, name, points, record, then each
    tiebreaker (numbers kept as numbers: the screen shows them to two decimals)."""
    tiebreakers = [
        v if isinstance(v, int | float) and not isinstance(v, bool) else str(v if v is not None else "")
        for v in (line.get("tiebreakers") or {}).values()
    ]
    name = names[line["player"]] + (" (dropped)" if line["dropped"] else "")
    return [str(line["rank"]), name, float(line["points"]), line["record"], *tiebreakers]


def same_standings(shown: list[list[str]], expected: list[list[str | float]]) -> list[str]:
    """Where the screen's rows differ from the command line's: text as is, points exactly, tiebreakers to
    the two decimals the screen rounds them to (either way at a half: JavaScript's toFixed rounds 1.625 up)."""

    def agrees(cell: str, want: str | float, column: int) -> bool:
        if isinstance(want, str):
            return cell == want
        try:
            return abs(float(cell) - want) <= (1e-9 if column == 2 else 0.005 + 1e-9)
        except ValueError:
            return False

    problems = []
    if len(shown) != len(expected):
        problems.append(f"{len(shown)} rows on screen, {len(expected)} from the command line")
    for i, (row, want) in enumerate(zip(shown, expected), 1):
        if len(row) != len(want) or not all(agrees(c, w, k) for k, (c, w) in enumerate(zip(row, want))):
            problems.append(f"row {i}: screen {row} != command line {want}")
    return problems
