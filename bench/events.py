"""Synthetic events for benchmarks: N players, R Swiss rounds, seeded results."""

from __future__ import annotations

from typing import Any

from shared_rules.seeded import Rng

__all__ = ["swiss_event"]

_RESULTS = {
    "pokemon-tcg": (("win", "loss"), ("loss", "win"), ("tie", "tie")),
    "doomtown": (("win", "loss"), ("loss", "win"), ("win-at-time", "loss")),
    "agot": (("win", "loss"), ("loss", "win"), ("modified-win", "modified-loss"), ("draw", "draw")),
    "startrek-1e": (("full-win", "full-loss"), ("full-loss", "full-win"), ("modified-win", "modified-loss")),
    "shatterpoint": (("win", "loss"), ("loss", "win"), ("draw", "draw")),
}


def swiss_event(players: int, rounds: int, ruleset: str = "pokemon-tcg", seed: str = "bench") -> dict[str, Any]:
    """A complete event document: rounds paired by points (adjacent pairs), random results."""
    rng = Rng(seed, "bench-event")
    ids = [f"p{i:05d}" for i in range(1, players + 1)]
    points = {pid: 0 for pid in ids}
    results = _RESULTS.get(ruleset, _RESULTS["pokemon-tcg"])
    bye = "bye"
    doc_rounds = []
    for number in range(1, rounds + 1):
        order = sorted(rng.shuffled(ids), key=lambda pid: -points[pid])
        matches = []
        if len(order) % 2:
            lone = order.pop()
            matches.append({"players": [lone], "outcomes": [bye]})
            points[lone] += 3
        for table, i in enumerate(range(0, len(order), 2), start=1):
            a, b = order[i], order[i + 1]
            outcome = list(rng.choice(results))
            match: dict[str, Any] = {"table": table, "players": [a, b], "outcomes": outcome}
            if ruleset == "shatterpoint":
                first = {"struggle": rng.below(4), "wounds": rng.below(12)}
                second = dict(first) if outcome[0] == "draw" else {"struggle": rng.below(4), "wounds": rng.below(12)}
                match["stats"] = [first, second]
            if ruleset.startswith("startrek"):
                match["scores"] = [rng.below(120), rng.below(120)]
            matches.append(match)
            for pid, o in zip((a, b), outcome):
                points[pid] += {"win": 3, "tie": 1}.get(o, 0)
        doc_rounds.append({"number": number, "stage": "swiss", "matches": matches})
    return {
        "format": "topcut-event/1", "ruleset": ruleset, "name": f"Bench {players}x{rounds}", "seed": seed,
        "settings": {"rounds": rounds},
        "players": [{"id": pid, "name": pid, "entry": i} for i, pid in enumerate(ids, start=1)],
        "rounds": doc_rounds,
    }
