"""An independent minimal Pokémon standings program: the anchor ``bench.standings`` times the CLI against.

    .venv/bin/python bench/minimal_pokemon.py EVENT.json > standings.json

Written from Pokémon TOP 3.1.4.1 as RULES.md reads it, sharing no code with ``shared_rules``: points
(win 3, tie 1, bye 3), the W-L-T record, win % (a tie half a win, a random bye left out, a ``late`` loss a
lost round, floor 25 %, cap 75 % for a dropped player short of the planned rounds), OWP and OOWP rounded
half-even to four significant figures of the percentage, a dropped player's OWP and OOWP frozen at the
round they dropped. It reads what ``bench.events.swiss_event`` writes (late losses as rows, pending and
disputed results, drops), not day two, earned byes or pods, and prints the CLI's JSON shape.
"""

import json
import sys

HALF_WINS = {"win": 2, "bye": 2, "tie": 1, "loss": 0, "late": 0}
RESULT = {"win": 0, "bye": 0, "loss": 1, "late": 1, "tie": 2}


def _half_even(num: int, den: int) -> int:
    """num / den * 10,000 rounded half to even (the value lies in [0, 1])."""
    q, r = divmod(num * 10000, den)
    return q + 1 if 2 * r > den or (2 * r == den and q & 1) else q


def standings(doc: dict) -> list[tuple]:
    """(player, points, (wins, losses, ties), owp k, oowp k, late, entry, dropped) per player; OWP = k / 10,000."""
    ids = [p["id"] for p in doc["players"]]
    by_round: dict[int, list[tuple[str, str | None, str]]] = {}
    record = {pid: [0, 0, 0] for pid in ids}  # wins, losses, ties
    paired = set()
    for rnd in doc["rounds"]:
        paired.add(rnd["number"])
        seats = by_round.setdefault(rnd["number"], [])
        for m in rnd["matches"]:
            ids_, outcomes = m["players"], m.get("outcomes")
            if outcomes is None or m.get("disputed"):
                continue
            for i, pid in enumerate(ids_):
                seats.append((pid, ids_[1 - i] if len(ids_) == 2 else None, outcomes[i]))
                record[pid][RESULT[outcomes[i]]] += 1
    planned = max(len(paired), doc.get("settings", {}).get("rounds", 0))
    dropped = {p["id"]: p["dropped_after"] for p in doc["players"] if p.get("dropped_after") is not None}
    last = max((n for n, seats in by_round.items() if seats), default=0)
    unit = 4 * 27720 * 2  # a multiple of 4 and of 2 * rounds for any count of rounds up to 12
    tally = {pid: [0, 0, 0] for pid in ids}  # half wins, rounds counted, games, so far
    opps: dict[str, list[str]] = {pid: [] for pid in ids}
    frozen: dict[str, tuple[int, int]] = {}

    def freeze(at: int, who: list[str]) -> None:  # OWP and OOWP as of round ``at``
        rate: dict[str, int] = {}
        owp: dict[str, int] = {}

        def rate_of(q: str) -> int:
            if q not in rate:
                half, counted, games = tally[q]
                capped = dropped.get(q, last + 1) <= at and games < planned
                rate[q] = min(
                    3 * unit // 4 if capped else unit, max(unit // 4, half * unit // (2 * counted) if counted else 0)
                )
            return rate[q]

        def owp_of(q: str) -> int:
            if q not in owp:
                owp[q] = frozen[q][0] if q in frozen else mean([rate_of(o) for o in opps[q]], unit)
            return owp[q]

        for pid in who:
            frozen[pid] = (owp_of(pid), mean([owp_of(o) for o in opps[pid]], 10000))

    stops = {d for d in dropped.values() if d < last}
    for at in range(1, last + 1):
        for pid, opp, outcome in by_round.get(at, ()):
            t = tally[pid]
            t[2] += 1
            if opp is not None or outcome != "bye":  # TOP 3.1.4.1: a bye is not considered at all
                t[1] += 1
                t[0] += HALF_WINS[outcome]
            if opp is not None:
                opps[pid].append(opp)
        if at in stops:
            freeze(at, [p for p, d in dropped.items() if d == at])
    freeze(last, [pid for pid in ids if pid not in frozen])
    late = {p["id"] for p in doc["players"] if p.get("late")}
    rows = []
    for entry, pid in enumerate(ids):
        wins, losses, ties = record[pid]
        rows.append((pid, 3 * wins + ties, (wins, losses, ties), *frozen[pid], pid in late, entry, pid in dropped))
    rows.sort(key=lambda r: (-r[1], r[5], -r[3], -r[4], r[6]))
    return rows


def mean(values: list[int], den: int) -> int:
    """The mean of numerators over ``den``, as k / 10,000 (0 for none)."""
    return _half_even(sum(values), len(values) * den) if values else 0


def text(rows: list[tuple]) -> str:
    """The rows as the CLI prints standings (the same shape, hence about the same size)."""
    lines = [
        {
            "rank": rank,
            "player": pid,
            "points": points,
            "record": "{}-{}-{}".format(*record),
            "tiebreakers": {"owp": owp / 10000, "oowp": oowp / 10000},
            "dropped": dropped,
        }
        for rank, (pid, points, record, owp, oowp, _, _, dropped) in enumerate(rows, start=1)
    ]
    return json.dumps({"standings": lines}, ensure_ascii=False, indent=1)


if __name__ == "__main__":
    with open(sys.argv[1], encoding="utf-8") as fh:
        sys.stdout.write(text(standings(json.loads(fh.read()))) + "\n")
