"""Issue 22's conformance suite: for each of the nine rulesets, one event run through the screens only.

One organizer device (Chromium, the app served by the test server) creates the event on the home screen,
registers its players from a CSV file on the players screen (Pokémon with birth years), pairs, publishes
and starts the Swiss rounds the players screen suggests, and enters every result the game's form offers
on the results screen: each quick button once and each outcome pair the two outcome selects let a judge
pick, read from the form at run time (no outcome list is written here), with the stats, scores and
best-of-three games the form asks for. In the last Swiss round the mildest penalty the form offers is
issued and rescinded with a reason. Where the ruleset has a cut (its structure's, or a top 2 for a game
whose document has cuts only at larger sizes) the cut is made and played to a champion. The event is
closed on the staff screen and downloaded with its export button; the standings screen must then show
exactly what ``python -m shared_rules standings`` says of the downloaded document (rank order, names,
points, record, every tiebreaker column), and the server must have taken every change.

A step the screen refuses fails with the step, the table and the screen's own words.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from tests.browser.conformance import Desk, Entry, StepFailed, as_screen_shows, cli_standings, same_standings
from tests.browser.helpers import BOOT_MS, open_page


@dataclass(frozen=True)
class Plan:
    """How one ruleset's event is run: its players (their number sets the Swiss rounds) and its cut."""

    ruleset: str
    event: str
    names: tuple[str, ...]
    cut: int | None = None  # the cut's size; 0: the size the structure suggests; None: no cut
    birth_years: bool = False  # Pokémon: birth years in the roster (TOP 3.1.1 age divisions)


PLANS = (
    Plan("pokemon-tcg", "Cerulean League Cup", ("Ash", "Misty", "Brock", "Gary", "Erika", "Sabrina"), 2, True),
    Plan("pokemon-vg", "Saffron Premier Challenge", ("Red", "Blue", "Leaf", "Ethan", "Lyra", "Silver"), 0, True),
    Plan("doomtown", "Gomorra Roundup", ("Hank", "Lula", "Ivor", "Jonah", "Kate", "Maza"), 0),
    Plan("shatterpoint", "Mustafar Showdown", ("Ahsoka", "Maul", "Rex", "Bane", "Cody", "Ventress"), 2),
    Plan("agot", "Winterfell Joust", ("Arya", "Bran", "Cersei", "Davos", "Ellaria", "Jaime"), 2),
    # Star Trek: eight players (four rounds of four tables), its form offering the most results.
    Plan("startrek-1e", "Khitomer Open", ("Picard", "Riker", "Troi", "Crusher", "Laforge", "Yar", "Data", "Worf")),
    Plan("startrek-2e", "Deep Space Open", ("Sisko", "Dukat", "Kira", "Garak", "Odo", "Quark", "Nog", "Rom")),
    Plan("tribbles", "Station K7 Pods", ("Cyrano", "Koloth", "Korax", "Uhura", "Chekov", "Scotty")),
    Plan("custom", "Friday Night Custom", ("Alice", "Bob", "Carol", "Dave", "Eve", "Frank")),
)


@pytest.fixture(scope="module")
def desk(browser, live_server):
    """The organizer's device, shared by the nine events (the rules engine boots once)."""
    context, page = open_page(browser, viewport={"width": 1200, "height": 900})
    page.goto(live_server.url + "/")
    page.wait_for_selector("#status[data-state=ready]", timeout=BOOT_MS)
    try:
        yield Desk(page, live_server.url)
    finally:
        context.close()


def roster_csv(plan: Plan) -> str:
    """The CSV file the organizer imports: names, and birth years (all adults) where the game divides by age."""
    if plan.birth_years:
        return "Name,Birth year\n" + "".join(f"{n},{1980 + 3 * i}\n" for i, n in enumerate(plan.names))
    return "Name\n" + "".join(f"{n}\n" for n in plan.names)


def play_swiss(desk: Desk, plan: Plan) -> None:
    """The structure's Swiss rounds, every result the form offers entered at least once."""
    entries: list[Entry] | None = None
    entered: set[Entry] = set()
    done = 0
    rounds = desk.swiss_rounds(len(plan.names))
    for number in range(1, rounds + 1):
        desk.pair_publish_start(number)
        tables = desk.tables()
        for k, (table, size) in enumerate(tables):
            what = f"round {number}"
            if size > 2:  # a pod: a different player goes out first each round
                desk.enter_pod(table, (number + k) % size, what)
                continue
            if entries is None:
                entries = desk.offer(table).entries()
            entry = entries[done % len(entries)]
            desk.enter(table, entry, what)
            entered.add(entry)
            done += 1
        if number == rounds:  # a warning at the last table, given in error: rescinded with the reason
            desk.penalty_and_rescind(plan.names[1], "Slow play", "Issued to the wrong player")
        desk.wait_round_complete(number)
    missing = [str(e) for e in entries or [] if e not in entered]
    if missing:
        raise StepFailed(f"the form offers {len(entries)} results; {done} tables were too few for: {missing}")


def play_cut(desk: Desk, plan: Plan) -> str:
    """The cut from the rounds screen, each elimination round played (seeds alternate winning) to a champion."""
    number = desk.make_cut(plan.cut or None)
    while True:
        desk.publish_start(number)
        for k, (table, _) in enumerate(desk.tables()):
            desk.enter_winner(table, (number + k) % 2, f"elimination round {number}")
        desk.wait_round_complete(number)
        champion = desk.champion()
        if champion:
            return champion
        number += 1
        desk.pair_next_elimination(number)


@pytest.mark.parametrize("plan", PLANS, ids=[p.ruleset for p in PLANS])
def test_an_event_run_on_the_screens_ends_with_the_command_lines_standings(desk, plan, tmp_path) -> None:
    desk.page.errors.clear()
    desk.create(plan.event, plan.ruleset)
    roster = tmp_path / "roster.csv"
    roster.write_text(roster_csv(plan), encoding="utf-8")
    desk.register_csv(roster, len(plan.names))

    play_swiss(desk, plan)
    if plan.cut is not None:
        assert play_cut(desk, plan) in plan.names

    desk.synced("before closing")
    desk.close_event()
    document = desk.export(tmp_path / "event.topcut.json")
    assert document["state"]["closed"] is True
    names = {p["id"]: p["name"] for p in document["players"]}
    expected = [as_screen_shows(line, names) for line in cli_standings(tmp_path / "event.topcut.json")]
    heads, rows = desk.standings()
    desk.shot(f"conformance-{plan.ruleset}-standings")
    assert heads[:4] == ["Rank", "Player", "Points", "Record"], heads
    assert same_standings(rows, expected) == []
    assert len(heads) == len(expected[0]), (heads, expected[0])
    desk.synced("after closing")
    assert desk.page.errors == []
