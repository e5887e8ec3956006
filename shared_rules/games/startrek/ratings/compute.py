"""Recompute every rating from the event history, in order (Star Trek OP Guide 8, 11)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from ....errors import RulesError
from .elo import UNIT, WEIGHT, clamp, event_change, expected_table
from .games import identities, rated_games, rating_of
from .rules import CEILING, FLOOR, SCORE_OF_PAIR, START

if TYPE_CHECKING:  # pragma: no cover
    from ....event.model import Event

__all__ = ["compute_ratings"]


class _Person:
    __slots__ = ("constructed", "sealed", "overall", "constructed_games", "sealed_games")

    def __init__(self) -> None:
        self.constructed = self.sealed = self.overall = START
        self.constructed_games = self.sealed_games = 0

    def to_json(self) -> dict[str, int]:
        return {
            "constructed": self.constructed,
            "sealed": self.sealed,
            "overall": self.overall,
            "games": self.constructed_games + self.sealed_games,
            "constructed_games": self.constructed_games,
            "sealed_games": self.sealed_games,
        }


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
    people: dict[str, dict[str, _Person]] = {}
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
        pool = people.setdefault(event.ruleset, {})
        for p in event.players:
            if ids[p.id] not in pool:
                pool[ids[p.id]] = _Person()
        # Star Trek OP Guide 8: each player's rating depends on their matches and the
        # ratings of the opponents "during that specific tournament": every game of
        # the event is scored against the ratings the players brought to it.
        before_kind = {rid: getattr(pool[rid], kind) for rid in ids.values()}
        before_all = {rid: pool[rid].overall for rid in ids.values()}
        games = rated_games(event) if event.ruleset == "tribbles" else _two_player_games(event)
        if not all(pid == rid for pid, rid in ids.items()):
            games = [(ids[g[0]], ids[g[1]], *g[2:]) for g in games]
        sums = _weighted_sums if event.ruleset == "tribbles" else _sums
        acc_kind, acc_all = sums(games, before_kind, before_all, gained, twice_expected)
        played = Counter(map(itemgetter(0), games))
        played.update(map(itemgetter(1), games))
        k = rating.k
        changes: dict[str, Any] = {}
        for rid in sorted(before_kind):
            if not played.get(rid):
                continue
            person = pool[rid]
            new_kind = clamp(before_kind[rid] + event_change(k, acc_kind[rid]))
            new_all = clamp(before_all[rid] + event_change(k, acc_all[rid]))
            setattr(person, kind, new_kind)
            person.overall = new_all
            setattr(person, f"{kind}_games", getattr(person, f"{kind}_games") + played[rid])
            changes[rid] = {
                "games": played[rid],
                kind: {"before": before_kind[rid], "after": new_kind, "change": new_kind - before_kind[rid]},
                "overall": {"before": before_all[rid], "after": new_all, "change": new_all - before_all[rid]},
            }
        row.update(rated=True, level=rating.level, k=k, format=kind, changes=changes)
        out_events.append(row)
    ratings = {ruleset: {rid: pool[rid].to_json() for rid in sorted(pool)} for ruleset, pool in sorted(people.items())}
    return {"ratings": ratings, "events": out_events}


def _sums(
    games: Any, before: dict[str, int], before_all: dict[str, int], gained: list[int], twice_expected: list[int]
) -> tuple[dict[str, int], dict[str, int]]:
    """Each player's sums of (score - expected) over two-player ``(a, b, score)`` games against the
    format's ratings (``before``) and the overall ones (``before_all``), in halves x billionths x WEIGHT
    (elo.event_change). One pass gives both.

    Exact whole numbers, so the order of the games cannot matter; the two
    players of a game get exactly opposite terms.
    """
    acc = dict.fromkeys(before, 0)
    acc_all = dict.fromkeys(before, 0)
    span = CEILING - FLOOR
    for a, b, score in games:
        won = gained[score]
        term = won - twice_expected[before[a] - before[b] + span]
        acc[a] += term
        acc[b] -= term
        term = won - twice_expected[before_all[a] - before_all[b] + span]
        acc_all[a] += term
        acc_all[b] -= term
    return acc, acc_all


def _weighted_sums(
    games: Any, before: dict[str, int], before_all: dict[str, int], gained: list[int], twice_expected: list[int]
) -> tuple[dict[str, int], dict[str, int]]:
    """``_sums`` for ``(a, b, score, weight)`` games (Tribbles pod pairings weigh WEIGHT / (n - 1))."""
    acc = dict.fromkeys(before, 0)
    acc_all = dict.fromkeys(before, 0)
    span = CEILING - FLOOR
    for a, b, score, weight in games:
        won = gained[score]
        term = (won - twice_expected[before[a] - before[b] + span]) // WEIGHT * weight
        acc[a] += term
        acc[b] -= term
        term = (won - twice_expected[before_all[a] - before_all[b] + span]) // WEIGHT * weight
        acc_all[a] += term
        acc_all[b] -= term
    return acc, acc_all


def _two_player_games(event: Event) -> list[tuple[str, str, int]]:
    """``games.rated_games`` for 1E/2E without the weight, inlined for speed (bench.ratings)."""
    score_of = SCORE_OF_PAIR.get  # None for a pending match, a bye, a Missed Game, a game not played
    return [
        (m.players[0], m.players[1], score)
        for rnd in event.rounds
        for m in rnd.matches
        if (score := score_of(m.outcomes)) is not None  # type: ignore[arg-type]
        and not (m.extra and m.extra.get("disputed"))
    ]
