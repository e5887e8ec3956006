"""Recompute every rating from the event history, in order (Star Trek OP Guide 8, 11)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from ..errors import RulesError
from .elo import UNIT, clamp, event_change, expected_table
from .games import identities, rated_games, rating_of
from .rules import START

if TYPE_CHECKING:  # pragma: no cover
    from ..event.model import Event

__all__ = ["compute_ratings"]


class _Person:
    __slots__ = ("constructed", "sealed", "overall", "constructed_games", "sealed_games")

    def __init__(self) -> None:
        self.constructed = self.sealed = self.overall = START
        self.constructed_games = self.sealed_games = 0

    def to_json(self) -> dict[str, int]:
        return {"constructed": self.constructed, "sealed": self.sealed, "overall": self.overall,
                "games": self.constructed_games + self.sealed_games,
                "constructed_games": self.constructed_games, "sealed_games": self.sealed_games}


def compute_ratings(events: Sequence["Event"], labels: Sequence[str] | None = None) -> dict[str, Any]:
    """Ratings after ``events`` (oldest first), and each event's changes, as JSON-able data.

    ``labels`` name the events in messages and output (default: the event's
    name, else ``events[i]``). Pure: the same events give the same result.
    """
    table = expected_table()
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
                raise RulesError(f"{label}: settings.rating.date: {rating.date} is before {last_date[1]}'s "
                                 f"{last_date[0]}; give the events oldest first")
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
        acc_kind = dict.fromkeys(before_kind, 0)
        acc_all = dict.fromkeys(before_kind, 0)
        played = dict.fromkeys(before_kind, 0)
        for a, b, score, weight in rated_games(event):
            a, b = ids[a], ids[b]
            d = before_kind[a] - before_kind[b]
            e = table[d] if d >= 0 else UNIT - table[-d]          # billionths a expects
            delta = weight * (score * UNIT - 2 * e)
            acc_kind[a] += delta
            acc_kind[b] -= delta
            d = before_all[a] - before_all[b]
            e = table[d] if d >= 0 else UNIT - table[-d]
            delta = weight * (score * UNIT - 2 * e)
            acc_all[a] += delta
            acc_all[b] -= delta
            played[a] += 1
            played[b] += 1
        k = rating.k
        changes: dict[str, Any] = {}
        for rid in sorted(before_kind):
            if not played[rid]:
                continue
            person = pool[rid]
            new_kind = clamp(before_kind[rid] + event_change(k, acc_kind[rid]))
            new_all = clamp(before_all[rid] + event_change(k, acc_all[rid]))
            setattr(person, kind, new_kind)
            person.overall = new_all
            setattr(person, f"{kind}_games", getattr(person, f"{kind}_games") + played[rid])
            changes[rid] = {"games": played[rid],
                            kind: {"before": before_kind[rid], "after": new_kind,
                                   "change": new_kind - before_kind[rid]},
                            "overall": {"before": before_all[rid], "after": new_all,
                                        "change": new_all - before_all[rid]}}
        row.update(rated=True, level=rating.level, k=k, format=kind, changes=changes)
        out_events.append(row)
    ratings = {ruleset: {rid: pool[rid].to_json() for rid in sorted(pool)} for ruleset, pool in sorted(people.items())}
    return {"ratings": ratings, "events": out_events}
