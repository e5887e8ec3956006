"""Synthetic events for benchmarks: N players, R Swiss rounds, seeded results.

The default event is a plain Swiss event; the keyword options add what real
events have (drops, late players, earned byes, Pokémon divisions and a day
two, unreported and disputed results) so the same generator can feed output
comparisons as well as timings.
"""

from __future__ import annotations

from typing import Any

from shared_rules.seeded import Rng

__all__ = ["CUSTOM_SETTINGS", "RULESET_IDS", "swiss_event"]

_RESULTS = {
    "pokemon-tcg": (("win", "loss"), ("loss", "win"), ("tie", "tie")),
    "doomtown": (("win", "loss"), ("loss", "win"), ("win-at-time", "loss")),
    "agot": (("win", "loss"), ("loss", "win"), ("modified-win", "modified-loss"), ("draw", "draw")),
    "startrek-1e": (("full-win", "full-loss"), ("full-loss", "full-win"), ("modified-win", "modified-loss")),
    "shatterpoint": (("win", "loss"), ("loss", "win"), ("draw", "draw")),
    "custom": (("win", "loss"), ("loss", "win"), ("tie", "tie")),
}
_RESULTS["pokemon-vg"] = _RESULTS["pokemon-tcg"]
_RESULTS["startrek-2e"] = _RESULTS["startrek-1e"]

#: The one-player loss a ruleset records for a round a late player missed (None: no result at all).
_MISSED = {
    "pokemon-tcg": "late",
    "pokemon-vg": "late",
    "shatterpoint": "unpaired-loss",
    "startrek-1e": "missed-game",
    "startrek-2e": "missed-game",
}

#: ``custom``'s house rules in the benchmark event: the common points table and a few tiebreakers.
CUSTOM_SETTINGS = {
    "points": {"win": 3, "tie": 1, "loss": 0, "bye": 3},
    "tiebreakers": ["mwp", "omwp", "oowp", "random"],
}

#: Every ruleset id the generator makes a valid event for.
RULESET_IDS = (
    "pokemon-tcg",
    "pokemon-vg",
    "doomtown",
    "shatterpoint",
    "agot",
    "startrek-1e",
    "startrek-2e",
    "tribbles",
    "custom",
)


def swiss_event(
    players: int,
    rounds: int,
    ruleset: str = "pokemon-tcg",
    seed: str = "bench",
    *,
    drops: int = 0,
    late: int = 0,
    earned: int = 0,
    divisions: bool = False,
    day_two: int = 0,
    pending: int = 0,
) -> dict[str, Any]:
    """A complete event document: rounds paired by points (adjacent pairs), random results.

    ``drops`` players drop after a random round, ``late`` players miss the
    first one or two rounds, ``earned`` players get an earned bye in round 1
    (Pokémon and Star Trek), ``divisions`` spreads Pokémon players over the
    three age divisions, ``day_two`` makes the last rounds a Pokémon day two
    for the top half, ``pending`` leaves that many matches per round
    unreported or disputed. All default to none: the benchmark's event.

    ``tribbles`` plays pods of eight (and a smaller last pod) that stay
    together five rounds and then re-form by total score (Star Trek OP Guide
    7.2, 7.6); its options other than ``pending`` are ignored.
    """
    if ruleset == "tribbles":
        return _tribbles_event(players, rounds, seed, pending=pending)
    rng = Rng(seed, "bench-event")
    ids = [f"p{i:05d}" for i in range(1, players + 1)]
    points = {pid: 0 for pid in ids}
    results = _RESULTS.get(ruleset, _RESULTS["pokemon-tcg"])
    extra_rng = Rng(seed, "bench-event-extra")
    shuffled = extra_rng.shuffled(ids) if (drops or late or earned) else []
    dropped_after = {pid: 1 + extra_rng.below(max(1, rounds - 1)) for pid in shuffled[:drops]}
    late_until = {pid: 1 + extra_rng.below(2) for pid in shuffled[drops : drops + late]}
    earned_ids = (
        set(shuffled[drops + late : drops + late + earned])
        if ruleset in ("pokemon-tcg", "pokemon-vg", "startrek-1e", "startrek-2e")
        else set()
    )
    missed = _MISSED.get(ruleset)
    day_two_from = rounds - day_two + 1 if ruleset == "pokemon-tcg" and 0 < day_two < rounds else rounds + 1
    in_day_two: set[str] = set()
    bye = "bye"
    doc_rounds = []
    for number in range(1, rounds + 1):
        stage = "swiss" if number < day_two_from else "swiss-day2"
        if number == day_two_from:
            best = sorted(ids, key=lambda pid: (-points[pid], pid))
            in_day_two = {pid for pid in best[: len(best) // 2] if pid not in dropped_after}
        matches: list[dict[str, Any]] = []
        active = []
        for pid in ids:
            if pid in dropped_after and number > dropped_after[pid]:
                continue
            if stage == "swiss-day2" and pid not in in_day_two:
                continue
            if pid in late_until and number <= late_until[pid]:
                if missed is not None:
                    matches.append({"players": [pid], "outcomes": [missed]})
                continue
            if number == 1 and pid in earned_ids:
                outcome = "earned-bye" if ruleset.startswith("startrek") else bye
                match = {"players": [pid], "outcomes": [outcome]}
                if ruleset == "pokemon-tcg" and extra_rng.below(2):
                    match["earned"] = True
                matches.append(match)
                points[pid] += 3
                continue
            active.append(pid)
        order = sorted(rng.shuffled(active), key=lambda pid: -points[pid])
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
            if pending and table <= pending:
                if table % 2:
                    match["outcomes"] = None
                else:
                    match["disputed"] = True
            matches.append(match)
            for pid, o in zip((a, b), outcome):
                points[pid] += {"win": 3, "tie": 1}.get(o, 0)
        doc_rounds.append({"number": number, "stage": stage, "matches": matches})
    doc_players = []
    for i, pid in enumerate(ids, start=1):
        row: dict[str, Any] = {"id": pid, "name": pid, "entry": i}
        if pid in dropped_after:
            row["dropped_after"] = dropped_after[pid]
        if pid in late_until:
            row["late"] = True
        if pid in earned_ids and ruleset.startswith("startrek"):
            row["earned_byes"] = 1
        elif pid in earned_ids and extra_rng.below(2):
            row["earned_byes"] = 1
        if divisions and ruleset.startswith("pokemon"):
            row["division"] = ("masters", "senior", "junior")[extra_rng.below(3)]
        doc_players.append(row)
    return _document(ruleset, players, rounds, seed, doc_players, doc_rounds)


def _document(
    ruleset: str,
    players: int,
    rounds: int,
    seed: str,
    doc_players: list[dict[str, Any]],
    doc_rounds: list[dict[str, Any]],
) -> dict[str, Any]:
    settings: dict[str, Any] = {"rounds": rounds}
    if ruleset == "custom":
        settings.update(CUSTOM_SETTINGS)
    return {
        "format": "topcut-event/1",
        "ruleset": ruleset,
        "name": f"Bench {players}x{rounds}",
        "seed": seed,
        "settings": settings,
        "players": doc_players,
        "rounds": doc_rounds,
    }


def _tribbles_event(players: int, rounds: int, seed: str, *, pending: int = 0) -> dict[str, Any]:
    """Tribbles pods: eight a pod, re-formed by total score every five rounds; one or two go out, or time."""
    if players < 3:
        raise ValueError("a Tribbles event needs at least three players")
    rng = Rng(seed, "bench-event")
    ids = [f"p{i:05d}" for i in range(1, players + 1)]
    total = {pid: 0 for pid in ids}
    pods: list[list[str]] = []
    doc_rounds = []
    for number in range(1, rounds + 1):
        if (number - 1) % 5 == 0:  # 7.6: a pod plays five rounds together
            order = rng.shuffled(ids) if number == 1 else sorted(ids, key=lambda pid: (-total[pid], pid))
            count = -(-len(order) // 8)
            size, extra = divmod(len(order), count)
            pods, start = [], 0
            for k in range(count):
                end = start + size + (1 if k < extra else 0)
                pods.append(order[start:end])
                start = end
        matches: list[dict[str, Any]] = []
        for table, pod in enumerate(pods, start=1):
            match: dict[str, Any] = {"table": table, "players": list(pod)}
            if rng.below(10) == 0:  # time called: nobody went out
                outcomes = ["loss"] * len(pod)
                match["ending"] = "time"
                scores = [10 * rng.below(20) for _ in pod]
            else:
                winners = {rng.below(len(pod))}
                if rng.below(8) == 0:
                    winners.add(rng.below(len(pod)))
                outcomes = ["win" if seat in winners else "loss" for seat in range(len(pod))]
                scores = [(1000 if seat in winners else 0) + 10 * rng.below(20) for seat in range(len(pod))]
            match["outcomes"] = outcomes
            match["scores"] = scores
            if pending and table <= pending:
                if table % 2:
                    match["outcomes"] = None
                else:
                    match["disputed"] = True
            else:
                for pid, score in zip(pod, scores):
                    total[pid] += score
            matches.append(match)
        doc_rounds.append({"number": number, "stage": "swiss", "matches": matches})
    doc_players = [{"id": pid, "name": pid, "entry": i} for i, pid in enumerate(ids, start=1)]
    return _document("tribbles", players, rounds, seed, doc_players, doc_rounds)


def operations_log(players: int, rounds: int, ruleset: str = "pokemon-tcg") -> list[dict[str, Any]]:
    """An event's operations as the organizer's device writes them: create, register ``players``, then per round
    pair (by the rules engine), start and one result per table (the lower number wins)."""
    from shared_rules.run import load_event, pair_next_round_json
    from shared_rules.state import apply_in_place, initial_state, to_event_document

    ops: list[dict[str, Any]] = []
    state = initial_state()

    def add(type_: str, payload: dict[str, Any]) -> None:
        op = {
            "type": type_,
            "op_id": f"bench:{len(ops) + 1}",
            "device": "bench",
            "actor": {"role": "organizer"},
            "at": 1_700_000_000_000 + len(ops),
            "payload": payload,
        }
        apply_in_place(state, op)  # checked as it is written; in place: a copy per operation is quadratic
        ops.append(op)

    add("event.create", {"ruleset": ruleset, "name": f"Bench {players}", "seed": "bench"})
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
