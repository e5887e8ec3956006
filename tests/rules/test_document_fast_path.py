"""The loader's, the pairing state's and the table numbers' fast paths against their reference paths (issue #27).

- The loader reads a reported table of two written as ``{"table", "players", "outcomes"}`` in fewer
  steps (``document._TABLE_KEYS``, and with the app's operational ``state`` field); the reference is the
  same loader with that tier switched off.
- :func:`~shared_rules.pairing.next_round.pairing_state` reads a reported table of two that is not
  disputed in fewer steps; the references are a plain count of points and opponents written here, and
  the pair answers of the same events with other extra fields and with disputed, delayed and unreported
  tables, which take the general branch.
- Table numbers order tables of two by a flattened key; the reference is the general key, sorted here.

Both must give the same event, the same ``pair`` answer (the command's bytes too), and the same error,
on the golden events (every prefix of their rounds) and on generated events of every ruleset (byes,
drops, late players, earned byes, disputed and unreported tables, pods). unittest only: the file also
runs in Pyodide (tests/pyodide/run_rules.mjs).
"""

from __future__ import annotations

import contextlib
import copy
import glob
import io
import json
import os
import unittest
from collections.abc import Iterator
from typing import Any
from unittest import mock

from shared_rules import cli
from shared_rules.errors import RulesError
from shared_rules.event import document
from shared_rules.event.document import dump_event
from shared_rules.games import RULESET_IDS, game_of, get_ruleset
from shared_rules.pairing.next_round import pairing_state
from shared_rules.pairing.tables import number_tables
from shared_rules.run import load_event, next_round
from shared_rules.seeded import Rng
from tests.rules.helpers import GOLDEN, json_file

RULESETS = RULESET_IDS  # all nine, in the registry's order


@contextlib.contextmanager
def reference_loader() -> Iterator[None]:
    """The loader without its table-of-two tier (no JSON object's keys equal this set)."""
    with mock.patch.object(document, "_TABLE_KEYS", frozenset({0})):
        with mock.patch.object(document, "_TABLE_STATE_KEYS", frozenset({0})):
            yield


def with_inert_extra(doc: dict[str, Any]) -> dict[str, Any]:
    """The document with an extra field no rule reads on every Swiss match (the general branches)."""
    out = copy.deepcopy(doc)
    for rnd in out.get("rounds", []):
        if isinstance(rnd, dict) and rnd.get("stage", "swiss") != "elimination":
            for match in rnd.get("matches", []):
                if isinstance(match, dict):
                    match["note"] = "inert"
    return out


def with_state(doc: dict[str, Any]) -> dict[str, Any]:
    """The document as the app exports it with its operational fields: a ``state`` on every match."""
    out = copy.deepcopy(doc)
    for rnd in out.get("rounds", []):
        for i, match in enumerate(rnd.get("matches", [])):
            match["state"] = {"status": "settled" if "outcomes" in match else "pending", "reports": [{"n": i}]}
    return out


def loaded(doc: Any) -> tuple[str, Any]:
    """``("ok", dumped event)`` or ``("error", message)``."""
    try:
        return "ok", dump_event(load_event(copy.deepcopy(doc)))
    except RulesError as exc:
        return "error", str(exc)


def paired(doc: Any) -> tuple[str, Any]:
    """``("ok", next_round answer)`` or ``("error", message)``: what ``pair`` gives."""
    try:
        return "ok", next_round(load_event(copy.deepcopy(doc)))
    except RulesError as exc:
        return "error", str(exc)


def golden_events() -> list[tuple[str, dict[str, Any]]]:
    """Every golden event document."""
    out = []
    for path in sorted(glob.glob(os.path.join(GOLDEN, "*.json"))):
        with open(path, encoding="utf-8") as fh:
            doc = json.load(fh)
        if isinstance(doc, dict) and "ruleset" in doc and "players" in doc:
            out.append((os.path.basename(path), doc))
    return out


def prefixes(doc: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The event after each of its rounds (and before the first)."""
    rounds = doc.get("rounds", [])
    for k in range(len(rounds) + 1):
        yield {**doc, "rounds": rounds[:k]}


def _results(ruleset: str) -> list[tuple[str, str]]:
    """Outcome pairs a table of two may carry under the ruleset (its result pairs without a solo outcome)."""
    rs = get_ruleset(ruleset, {})
    solo = {o.key for o in rs.outcomes if o.solo}
    pairs = [(p.first, p.second) for p in rs.result_pairs if p.first not in solo and p.second not in solo]
    if ruleset.startswith("startrek"):  # a modified result needs both final scores (OP Guide 7.4): left out
        pairs = [p for p in pairs if "modified-win" not in p]
    return pairs + [(b, a) for a, b in pairs if a != b]


def _pods(active: list[str], rng: Rng) -> list[dict[str, Any]]:
    """Tribbles pods of four to seven players (OP Guide 7.6.2), one winner each."""
    pods = [active[i : i + 4] for i in range(0, len(active) - len(active) % 4, 4)]
    if len(active) % 4:
        pods[-1] += active[len(active) - len(active) % 4 :]
    out = []
    for t, pod in enumerate(pods, start=1):
        winner = rng.below(len(pod))
        outcomes = ["win" if i == winner else "loss" for i in range(len(pod))]
        out.append(
            {"table": t, "players": pod, "outcomes": outcomes, "scores": [100 * (i == winner) for i in range(len(pod))]}
        )
    return out


def generated_event(ruleset: str, seed: str, n: int, rounds: int, *, tables: bool = True) -> dict[str, Any]:
    """A Swiss event as the app writes it: numbered tables, byes, drops, late players, earned byes."""
    rng = Rng(seed, ruleset, n, rounds)
    ids = [f"p{i:03d}" for i in range(n)]
    players: list[dict[str, Any]] = [{"id": pid, "name": f"Player {pid}", "entry": i + 1} for i, pid in enumerate(ids)]
    dropped = {pid: 1 + rng.below(rounds) for pid in rng.shuffled(ids)[: max(1, n // 10)]}
    late = {pid: 2 for pid in rng.shuffled([p for p in ids if p not in dropped])[: max(1, n // 20)]}
    for row in players:
        if row["id"] in dropped:
            row["dropped_after"] = dropped[row["id"]]
        if row["id"] in late:
            row["late"] = True
    earned: dict[str, int] = {}
    if ruleset.startswith("startrek"):
        pid = next(p for p in ids if p not in dropped and p not in late)
        earned[pid] = 1
        players[ids.index(pid)]["earned_byes"] = 1
    results = _results(ruleset)
    outcomes = get_ruleset(ruleset, {}).outcomes
    bye_key = next((o.key for o in outcomes if o.solo and o.key == "bye"), None)
    missed_key = next((o.key for o in outcomes if o.solo and o.result == "loss"), None)
    out = []
    for r in range(1, rounds + 1):
        matches: list[dict[str, Any]] = []
        active = [p for p in ids if (p not in dropped or r <= dropped[p]) and not (p in late and r < late[p])]
        for pid in [p for p in active if r <= earned.get(p, 0)]:
            active.remove(pid)
            matches.append({"players": [pid], "outcomes": ["earned-bye"]})
        for pid in [p for p in ids if p in late and r < late[p] and missed_key]:
            matches.append({"players": [pid], "outcomes": [missed_key]})  # a late player's missed round
        active = rng.shuffled(active)
        if ruleset == "tribbles":
            matches += _pods(active, rng)
            out.append({"number": r, "stage": "swiss", "matches": matches})
            continue
        if len(active) % 2:
            pid = active.pop()  # sits out without a match where the ruleset has no bye
            if bye_key:
                matches.append({"players": [pid], "outcomes": [bye_key]})
        for t, i in enumerate(range(0, len(active), 2), start=1):
            row: dict[str, Any] = {"players": [active[i], active[i + 1]], "outcomes": list(rng.choice(results))}
            if tables:
                row = {"table": t, **row}
            if ruleset.startswith("startrek"):  # final scores for the differential (OP Guide 7.4)
                tie = row["outcomes"][0] == row["outcomes"][1]
                row["scores"] = [60, 60] if tie else [100, 40] if row["outcomes"][0] == "full-win" else [40, 100]
            if ruleset == "shatterpoint":  # its tiebreakers need both players' numbers (Tiebreakers)
                stats = {"struggle": rng.below(4), "wounds": rng.below(9)}
                draw = row["outcomes"][0] == row["outcomes"][1]  # a draw needs equal numbers (End of Match)
                row["stats"] = [stats, stats if draw else {"struggle": rng.below(4), "wounds": rng.below(9)}]
            matches.append(row)
        out.append({"number": r, "stage": "swiss", "matches": matches})
    return {
        "format": "topcut-event/1",
        "ruleset": ruleset,
        "seed": seed,
        "name": f"{ruleset} generated",
        "settings": {"rounds": rounds + 2},
        "players": players,
        "rounds": out,
    }


def broken(doc: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """The document with one later table of two broken in each way the table-of-two tier checks."""
    rnd = len(doc["rounds"]) - 1
    index = max(i for i, m in enumerate(doc["rounds"][rnd]["matches"]) if len(m["players"]) >= 2)
    match = doc["rounds"][rnd]["matches"][index]
    a, b = match["players"][:2]
    oa, ob = match["outcomes"][:2]
    changes: dict[str, dict[str, Any]] = {
        "negative table": {"table": -1},
        "float table": {"table": 1.5},
        "bool table": {"table": True},
        "string table": {"table": "3"},
        "player twice": {"players": [a, a]},
        "unknown player": {"players": [a, "nobody"]},
        "number as player": {"players": [a, 7]},
        "players not a list": {"players": a + b},
        "three players": {"players": [a, b, "p000" if "p000" not in (a, b) else "p001"]},
        "one player": {"players": [a]},
        "outcome not in vocabulary": {"outcomes": ["nonsense", ob]},
        "outcome not a string": {"outcomes": [1, ob]},
        "one outcome": {"outcomes": [oa]},
        "outcomes not a list": {"outcomes": oa},
        "both win": {"outcomes": [oa, oa] if oa != ob else ["nonsense", "nonsense"]},
        "outcomes in a tuple-like object": {"outcomes": {"a": oa}},
    }
    for label, change in changes.items():
        out = copy.deepcopy(doc)
        out["rounds"][rnd]["matches"][index].update(change)
        yield label, out


class LoaderFastPathTest(unittest.TestCase):
    """The table-of-two tier gives the reference loader's event and errors."""

    def assertSameLoad(self, doc: Any, label: str) -> None:
        fast = loaded(doc)
        with reference_loader():
            reference = loaded(doc)
        self.assertEqual(reference, fast, label)

    def test_golden_events(self) -> None:
        for name, doc in golden_events():
            self.assertSameLoad(doc, name)
            self.assertSameLoad(with_state(doc), f"{name} state")

    def test_generated_events(self) -> None:
        for ruleset in RULESETS:
            for n, rounds in ((9, 3), (24, 5)):
                doc = generated_event(ruleset, "fast", n, rounds)
                self.assertSameLoad(doc, f"{ruleset} {n}")
                self.assertSameLoad(with_inert_extra(doc), f"{ruleset} {n} extra")
                self.assertSameLoad(with_state(doc), f"{ruleset} {n} state")

    def test_the_generated_tables_have_the_tiers_shape(self) -> None:
        """Most generated tables are what the tier reads (else the comparisons above would prove little)."""
        for ruleset in ("pokemon-tcg", "doomtown", "agot", "custom"):
            doc = generated_event(ruleset, "fast", 24, 5)
            matches = [m for r in doc["rounds"] for m in r["matches"]]
            shaped = [m for m in matches if m.keys() == document._TABLE_KEYS and len(m["players"]) == 2]
            self.assertGreater(len(shaped), 0.8 * len(matches), ruleset)
            stated = [m for r in with_state(doc)["rounds"] for m in r["matches"]]
            shaped = [m for m in stated if m.keys() == document._TABLE_STATE_KEYS and len(m["players"]) == 2]
            self.assertGreater(len(shaped), 0.8 * len(matches), ruleset)

    def test_broken_tables_get_the_same_error(self) -> None:
        for ruleset in RULESETS:
            doc = generated_event(ruleset, "broken", 12, 3)
            for label, bad in broken(doc):
                fast = loaded(bad)
                with reference_loader():
                    reference = loaded(bad)
                self.assertEqual(reference, fast, f"{ruleset}: {label}")
                if label in ("negative table", "bool table", "player twice", "unknown player"):
                    self.assertEqual("error", fast[0], f"{ruleset}: {label}")


class PairFastPathTest(unittest.TestCase):
    """``pair`` gives the same answer and errors with the fast paths as with the reference paths."""

    def assertSamePair(self, doc: dict[str, Any], label: str) -> None:
        fast = paired(doc)
        with reference_loader():
            reference = paired(doc)
        self.assertEqual(reference, fast, label)
        general = paired(with_inert_extra(doc))
        self.assertEqual(reference, general, f"{label} (other extra fields)")
        stated = with_state(doc)
        fast = paired(stated)
        with reference_loader():
            self.assertEqual(paired(stated), fast, f"{label} (state fields)")

    def test_golden_events_after_each_round(self) -> None:
        for name, doc in golden_events():
            for k, prefix in enumerate(prefixes(doc)):
                self.assertSamePair(prefix, f"{name} after {k} rounds")

    def test_generated_events(self) -> None:
        for ruleset in RULESETS:
            for n, rounds in ((9, 2), (17, 3), (40, 4)):
                doc = generated_event(ruleset, "pair", n, rounds)
                self.assertSamePair(doc, f"{ruleset} {n}")
                self.assertSamePair(
                    generated_event(ruleset, "pair", n, rounds, tables=False), f"{ruleset} {n} no tables"
                )

    def test_unreported_and_disputed_tables(self) -> None:
        for ruleset in RULESETS:
            doc = generated_event(ruleset, "pending", 16, 3)
            unreported = copy.deepcopy(doc)
            [m for m in unreported["rounds"][-1]["matches"] if len(m["players"]) >= 2][-1].pop("outcomes")
            disputed = copy.deepcopy(doc)
            [m for m in disputed["rounds"][-1]["matches"] if len(m["players"]) >= 2][0]["disputed"] = True
            delayed = copy.deepcopy(unreported)  # Star Trek OP Guide 13.4: a delayed result pairs at 2 VP
            [m for m in delayed["rounds"][-1]["matches"] if "outcomes" not in m][0]["delayed"] = True
            for label, variant in (("unreported", unreported), ("disputed", disputed), ("delayed", delayed)):
                self.assertSamePair(variant, f"{ruleset} {label}")

    def test_pairing_state_against_a_plain_count(self) -> None:
        """Points and opponents as the documents say them, counted here without any shortcut."""
        for ruleset in RULESETS:
            doc = generated_event(ruleset, "count", 30, 4)
            game = game_of(ruleset)
            points_of = {o.key: o.points for o in get_ruleset(ruleset, {}).outcomes}
            for variant in (doc, with_inert_extra(doc), with_state(doc)):
                points = {p["id"]: 0 for p in doc["players"]}
                opponents: dict[str, set[str]] = {p["id"]: set() for p in doc["players"]}
                for rnd in doc["rounds"]:  # every round is Swiss: within every rematch scope
                    for match in rnd["matches"]:
                        for i, pid in enumerate(match["players"]):
                            points[pid] += points_of[match["outcomes"][i]]
                            opponents[pid].update(o for o in match["players"] if o != pid)
                state = pairing_state(load_event(variant), game, 5)
                self.assertEqual(points, dict(state.points), ruleset)
                self.assertEqual({k: frozenset(v) for k, v in opponents.items()}, dict(state.opponents), ruleset)

    def test_pairing_state_ignores_other_extra_fields(self) -> None:
        for ruleset in RULESETS:
            doc = generated_event(ruleset, "state", 30, 4)
            game = game_of(ruleset)
            states = [pairing_state(load_event(d), game, 5) for d in (doc, with_inert_extra(doc))]
            fast, general = states
            self.assertEqual(dict(general.points), dict(fast.points), ruleset)
            self.assertEqual(dict(general.opponents), dict(fast.opponents), ruleset)
            self.assertEqual(dict(general.had_bye), dict(fast.had_bye), ruleset)
            self.assertEqual(general.earned_last_round, fast.earned_last_round, ruleset)
            self.assertEqual(general.present, fast.present, ruleset)

    def test_the_command_prints_the_same_bytes(self) -> None:
        docs = [(name, doc) for name, doc in golden_events() if name.startswith("pair-")]
        docs += [(ruleset, generated_event(ruleset, "cli", 21, 3)) for ruleset in RULESETS]
        for name, doc in docs:
            path = json_file(self, doc)
            fast = _command(["pair", path])
            with reference_loader():
                reference = _command(["pair", path])
            self.assertEqual(reference, fast, name)


class TableNumbersTest(unittest.TestCase):
    """Tables of two are ordered by a flattened key: the same order as the general key (tables.py)."""

    def test_tables_of_two_in_the_general_order(self) -> None:
        for trial in range(40):
            rng = Rng("tables", trial)
            ids = rng.shuffled([f"p{i:03d}" for i in range(2 * (1 + rng.below(40)))])
            groups = [tuple(ids[i : i + 2]) for i in range(0, len(ids), 2)]
            points = {pid: rng.below(5) * (1.5 if trial % 2 else 1) for pid in ids}
            pools = {pid: rng.below(3) for pid in ids} if trial % 3 else {}
            tables, warnings = number_tables(groups, points, {}, pools)

            def general(g: tuple[str, ...]) -> tuple[object, ...]:
                ps = sorted((points[pid] for pid in g), reverse=True)
                return (min(pools.get(pid, 0) for pid in g), [-p for p in ps], sorted(g))

            expected = {g: n for n, g in enumerate(sorted(groups, key=general), start=1)}
            self.assertEqual([expected[g] for g in groups], tables, trial)
            self.assertEqual([], warnings)


def _command(argv: list[str]) -> tuple[int, str, str]:
    """Exit status, stdout and stderr of ``python -m shared_rules ARGV`` run in this process."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = cli.main(argv)
    return status, out.getvalue(), err.getvalue()


if __name__ == "__main__":
    unittest.main()
