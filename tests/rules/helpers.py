"""Helpers shared by the tests in tests/rules (not a test module itself).

Standard library and shared_rules only: tests/rules is a unittest suite that
also runs inside Pyodide (tests/pyodide/run_rules.mjs).
"""

from __future__ import annotations

import json
import os
import tempfile
import unittest
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from shared_rules.errors import DocumentError
from shared_rules.games import get_ruleset
from shared_rules.run import compute_standings, load_event, standings_json
from shared_rules.seeded import Rng
from shared_rules.standings import StandingsContext

HERE = os.path.dirname(os.path.abspath(__file__))
GOLDEN = os.path.join(HERE, os.pardir, "golden")


# ---------------------------------------------------------------- event documents


def json_file(case: unittest.TestCase, doc: Any) -> str:
    """``doc`` written to a temporary .json file, removed when the test ends (for command-line tests)."""
    handle = tempfile.NamedTemporaryFile("w", suffix=".json", delete=False, encoding="utf-8")
    with handle:
        json.dump(doc, handle)
    case.addCleanup(os.unlink, handle.name)
    return handle.name


def players(ids: str, **dropped: int) -> list[dict[str, Any]]:
    """One player per character of ``ids``, entered in that order; ``x=2`` drops x after round 2."""
    return [
        {"id": p, "entry": i + 1, **({"dropped_after": dropped[p]} if p in dropped else {})} for i, p in enumerate(ids)
    ]


def event_doc(ruleset: str, ids: str, *rounds: list[dict[str, Any]], seed: str = "t", **dropped: int) -> dict[str, Any]:
    """An event document of ``ruleset``: the players of ``ids`` and one round per list of matches."""
    return {
        "ruleset": ruleset,
        "seed": seed,
        "players": players(ids, **dropped),
        "rounds": [{"number": i + 1, "matches": ms} for i, ms in enumerate(rounds)],
    }


def m(a: str, b: str, oa: str = "win", ob: str = "loss") -> dict[str, Any]:
    """A two-player match with its outcomes."""
    return {"players": [a, b], "outcomes": [oa, ob]}


def bye(a: str) -> dict[str, Any]:
    return {"players": [a], "outcomes": ["bye"]}


def ranking(d: dict[str, Any]) -> list[str]:
    """Player ids in standings order."""
    return [s.player for s in compute_standings(load_event(d))]


def lines(d: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Player id -> that player's row of ``standings_json``."""
    return {row["player"]: row for row in standings_json(load_event(d))["standings"]}


def context(d: dict[str, Any]) -> StandingsContext:
    """The standings context of a document, under the document's own ruleset."""
    return StandingsContext(load_event(d), get_ruleset(d["ruleset"]))


def exact(d: dict[str, Any], key: str) -> dict[str, Fraction]:
    """The exact values of metric ``key`` for every player."""
    return dict(context(d).metric(key).exact)  # type: ignore[attr-defined]


class RejectsDocuments:
    """Mixin for a TestCase: ``assertRejected`` checks the field a DocumentError names."""

    def assertRejected(self, d: dict[str, Any], path: str) -> None:
        test: Any = self
        with test.assertRaises(DocumentError) as caught:
            load_event(d)
        test.assertEqual(path, caught.exception.path, str(caught.exception))


# ---------------------------------------------------------------- random events (property tests)


def random_swiss_event(
    ruleset: str, seed: str, n: int, rounds: int, results: Sequence[tuple[str, str]]
) -> dict[str, Any]:
    """A plausible Swiss event: random pairings with results drawn from ``results``, byes, one drop."""
    rng = Rng(seed, f"{ruleset}-event")
    ids = [f"p{i:02d}" for i in range(n)]
    dropper = rng.choice(ids)
    drop_after = 1 + rng.below(rounds)
    out = []
    for r in range(1, rounds + 1):
        active = rng.shuffled([p for p in ids if p != dropper or r <= drop_after])
        matches: list[dict[str, Any]] = []
        if len(active) % 2:
            matches.append(bye(active.pop()))
        for i in range(0, len(active), 2):
            matches.append(m(active[i], active[i + 1], *rng.choice(results)))
        out.append({"number": r, "stage": "swiss", "matches": matches})
    pl = [{"id": p, "entry": i + 1} for i, p in enumerate(ids)]
    pl[ids.index(dropper)]["dropped_after"] = drop_after
    return {"ruleset": ruleset, "seed": seed, "players": pl, "rounds": out}


def shuffled_document(d: dict[str, Any], seed: str) -> dict[str, Any]:
    """The same event with players, rounds, matches and seats listed in another order."""
    rng = Rng(seed, "reorder")
    out = json.loads(json.dumps(d))
    out["players"] = rng.shuffled(out["players"])
    out["rounds"] = rng.shuffled(out["rounds"])
    for rnd in out["rounds"]:
        rnd["matches"] = rng.shuffled(rnd["matches"])
        for match in rnd["matches"]:
            if rng.below(2):
                for key in ("players", "outcomes", "stats"):
                    if key in match:
                        match[key] = match[key][::-1]
    return out


def check_ranks_uniquely_and_reproducibly(
    test: unittest.TestCase, events: Callable[[int], dict[str, Any]], prefix: str, count: int = 25
) -> None:
    """For k < count, the event ``events(k)`` ranks every player once, 1..n, and the same again,
    also when its document lists everything in another order (reordered with seed ``prefix-k``)."""
    for k in range(count):
        d = events(k)
        first = standings_json(load_event(d))
        test.assertEqual(list(range(1, len(d["players"]) + 1)), [row["rank"] for row in first["standings"]])
        test.assertEqual(len(d["players"]), len({row["player"] for row in first["standings"]}))
        test.assertEqual(first, standings_json(load_event(d)))
        test.assertEqual(first, standings_json(load_event(shuffled_document(d, f"{prefix}-{k}"))))


def check_ordered_by(test: unittest.TestCase, d: dict[str, Any], *tiebreakers: str) -> None:
    """The standings rows are in descending order of (points, *tiebreakers)."""
    rows = standings_json(load_event(d))["standings"]
    keys = [(r["points"], *(r["tiebreakers"][t] for t in tiebreakers)) for r in rows]
    test.assertEqual(sorted(keys, reverse=True), keys)


# ---------------------------------------------------------------- TOM fixtures

TOM_FIXTURES = os.path.join(HERE, os.pardir, "fixtures", "tom")

#: The saves in tests/fixtures/tom that hold TOM's final standings.
TOM_FINALIZED = (
    "cup-finalized.tdf",
    "harness/challenge/11-final.tdf",
    "harness/cup-solo/19-final.tdf",
    "harness/cup/19-final.tdf",
    "harness/drop-after-swiss/challenge-final.tdf",
    "harness/drop-after-swiss/combined-final.tdf",
    "harness/drop-after-swiss/cup-final.tdf",
    "harness/earned-challenge/11-final.tdf",
)


def tom_fixture_path(relative: str) -> str:
    """Absolute path of a fixture given relative to tests/fixtures/tom."""
    return os.path.join(TOM_FIXTURES, *relative.split("/"))


def read_tom_fixture(relative: str) -> str:
    """A TOM fixture's text."""
    with open(tom_fixture_path(relative), encoding="utf-8") as handle:
        return handle.read()
