"""Recompute every rating from the event history, in order (Star Trek OP Guide 8, 11)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ....errors import RulesError
from .elo import UNIT, WEIGHT, expected_table
from .games import identities, rated_games, rating_of
from .rules import CEILING, FLOOR, SCORE_OF_PAIR, START

if TYPE_CHECKING:  # pragma: no cover
    from ....event.model import Event

__all__ = ["compute_ratings"]

#: What one game's pool keeps per person: the three ratings and the games behind the two formats.
_FIELDS = ("constructed", "sealed", "overall", "constructed_games", "sealed_games")
#: elo.event_change's denominator (halves x billionths x WEIGHT), inlined in the hot loop.
_DENOMINATOR = 2 * WEIGHT * UNIT
#: rules.SCORE_OF_PAIR as a plain dict: its look-up runs once per match (a mapping proxy's is slower).
_SCORE_OF_PAIR: dict[tuple[str, ...], int] = dict(SCORE_OF_PAIR)


def compute_ratings(events: Sequence[Event], labels: Sequence[str] | None = None) -> dict[str, Any]:
    """Ratings after ``events`` (oldest first), and each event's changes, as JSON-able data.

    ``labels`` name the events in messages and output (default: the event's
    name, else ``events[i]``). Pure: the same events give the same result.
    """
    table = expected_table()
    # twice_expected[d + span]: WEIGHT x 2 x billionths expected at a rating lead of d (-3000..3000);
    # gained[score]: WEIGHT x score in halves x UNIT.
    span = CEILING - FLOOR
    twice_expected = [WEIGHT * 2 * (UNIT - table[-d]) for d in range(-span, 0)] + [
        WEIGHT * 2 * table[d] for d in range(span + 1)
    ]
    gained = [WEIGHT * s * UNIT for s in range(3)]
    # ruleset -> field (_FIELDS) -> person -> value: each game's ratings are its own (OP Guide 1, 4.1).
    pools: dict[str, dict[str, dict[str, int]]] = {}
    out_events: list[dict[str, Any]] = []
    last_date: tuple[str, str] | None = None
    for i, event in enumerate(events):
        label = labels[i] if labels is not None else (event.name or f"events[{i}]")
        try:
            rating = rating_of(event)
            ids = identities(event)
        except RulesError as exc:
            raise RulesError(f"{label}: {exc}") from None
        if rating.date is not None:
            if last_date is not None and rating.date < last_date[0]:
                raise RulesError(
                    f"{label}: settings.rating.date: {rating.date} is before {last_date[1]}'s "
                    f"{last_date[0]}; give the events oldest first"
                )
            last_date = (rating.date, label)
        row: dict[str, Any] = {"event": label, "ruleset": event.ruleset}
        if rating.date is not None:
            row["date"] = rating.date
        if not rating.rated:
            row.update(rated=False, reason=rating.reason)
            out_events.append(row)
            continue
        kind = rating.kind
        assert kind is not None and rating.k is not None
        pool = pools.setdefault(event.ruleset, {f: {} for f in _FIELDS})
        by_kind, overall, games_of = pool[kind], pool["overall"], pool[f"{kind}_games"]
        people = sorted(ids.values())
        for rid in people:
            if rid not in overall:
                for f in _FIELDS:
                    pool[f][rid] = 0 if f.endswith("_games") else START
        # Star Trek OP Guide 8: each player's rating depends on their matches and the
        # ratings of the opponents "during that specific tournament": every game of
        # the event is scored against the ratings the players brought to it (no
        # rating changes before every sum is made).
        renamed = None if all(pid == rid for pid, rid in ids.items()) else ids
        if event.ruleset == "tribbles":
            acc_kind, acc_all, played = _pod_sums(event, renamed, by_kind, overall, gained, twice_expected)
        else:
            acc_kind, acc_all, played = _sums(event, renamed, by_kind, overall, gained, twice_expected)
        k = rating.k
        changes: dict[str, Any] = {}
        half, whole = _DENOMINATOR, 2 * _DENOMINATOR
        for rid in people:
            n = played[rid]
            if not n:
                continue
            before_kind, before_all = by_kind[rid], overall[rid]
            # elo.event_change (k x sum, rounded half away from zero) and elo.clamp, inlined (twice per player and event)
            total = k * acc_kind[rid]
            step = (2 * abs(total) + half) // whole
            new_kind = before_kind + (step if total >= 0 else -step)
            new_kind = FLOOR if new_kind < FLOOR else CEILING if new_kind > CEILING else new_kind
            total = k * acc_all[rid]
            step = (2 * abs(total) + half) // whole
            new_all = before_all + (step if total >= 0 else -step)
            new_all = FLOOR if new_all < FLOOR else CEILING if new_all > CEILING else new_all
            by_kind[rid], overall[rid] = new_kind, new_all
            games_of[rid] += n
            changes[rid] = {
                "games": n,
                kind: {"before": before_kind, "after": new_kind, "change": new_kind - before_kind},
                "overall": {"before": before_all, "after": new_all, "change": new_all - before_all},
            }
        row.update(rated=True, level=rating.level, k=k, format=kind, changes=changes)
        out_events.append(row)
    ratings = {
        ruleset: {rid: _person_json(pool, rid) for rid in sorted(pool["overall"])}
        for ruleset, pool in sorted(pools.items())
    }
    return {"ratings": ratings, "events": out_events}


def _person_json(pool: dict[str, dict[str, int]], rid: str) -> dict[str, int]:
    c, s = pool["constructed_games"][rid], pool["sealed_games"][rid]
    return {
        "constructed": pool["constructed"][rid],
        "sealed": pool["sealed"][rid],
        "overall": pool["overall"][rid],
        "games": c + s,
        "constructed_games": c,
        "sealed_games": s,
    }


def _sums(
    event: Event,
    renamed: dict[str, str] | None,
    before: dict[str, int],
    before_all: dict[str, int],
    gained: list[int],
    twice_expected: list[int],
) -> tuple[dict[str, int], dict[str, int], dict[str, int]]:
    """Each 1E/2E player's sums of (score - expected) against the format's ratings (``before``) and the
    overall ones (``before_all``), in halves x billionths x WEIGHT (elo.event_change), and their rated games.

    The games are ``games.rated_games``'s, read in the same pass (bench.ratings): a pending match, a bye, a
    Missed Game, a game not played or a disputed result is not rated. Exact whole numbers, so the order
    of the games cannot matter; the two players of a game get exactly opposite terms.
    """
    # Players by position: list arithmetic in the loop, one dictionary look-up per seat.
    players = [p.id for p in event.players]
    index = {pid: i for i, pid in enumerate(players)}
    people = [renamed[pid] for pid in players] if renamed is not None else players
    span = CEILING - FLOOR
    kind = [before[rid] for rid in people]
    kind_up = [r + span for r in kind]
    every = [before_all[rid] for rid in people]
    every_up = [r + span for r in every]
    n = len(people)
    acc, acc_all, played = [0] * n, [0] * n, [0] * n
    score_of = _SCORE_OF_PAIR.get
    for rnd in event.rounds:
        for m in rnd.matches:
            score = score_of(m.outcomes)  # type: ignore[arg-type]
            if score is None or (m.extra and m.extra.get("disputed")):
                continue
            a, b = m.players
            i, j = index[a], index[b]
            won = gained[score]
            term = won - twice_expected[kind_up[i] - kind[j]]
            acc[i] += term
            acc[j] -= term
            term = won - twice_expected[every_up[i] - every[j]]
            acc_all[i] += term
            acc_all[j] -= term
            played[i] += 1
            played[j] += 1
    return dict(zip(people, acc)), dict(zip(people, acc_all)), dict(zip(people, played))


def _pod_sums(
    event: Event,
    renamed: dict[str, str] | None,
    before: dict[str, int],
    before_all: dict[str, int],
    gained: list[int],
    twice_expected: list[int],
) -> tuple[dict[str, int], dict[str, int], dict[str, int]]:
    """``_sums`` for Tribbles: ``games.rated_games``' pod pairings, each weighing WEIGHT / (n - 1)."""
    games = rated_games(event)
    if renamed is not None:
        games = [(renamed[a], renamed[b], score, weight) for a, b, score, weight in games]
    people = renamed.values() if renamed is not None else [p.id for p in event.players]
    acc = dict.fromkeys(people, 0)
    acc_all = dict.fromkeys(people, 0)
    played = dict.fromkeys(people, 0)
    span = CEILING - FLOOR
    for a, b, score, weight in games:
        won = gained[score]
        term = (won - twice_expected[before[a] - before[b] + span]) // WEIGHT * weight
        acc[a] += term
        acc[b] -= term
        term = (won - twice_expected[before_all[a] - before_all[b] + span]) // WEIGHT * weight
        acc_all[a] += term
        acc_all[b] -= term
        played[a] += 1
        played[b] += 1
    return acc, acc_all, played
