"""What the hall sees: standings are published when the organizer's standings policy says, never mid-round
unless the organizer chose live standings.

A round in play has results missing; standings computed from it would rank
players by whoever happened to finish first. So by default (``after-round``, as
TOM and the Companion app do) the public page, the big screen and players'
phones show the standings *after* the last round whose every result is settled
(round status ``complete``), and nothing before the first such round: round 1
in play has no standings to show. The organizer may choose otherwise
(``settings.standings_policy``, declared in ``shared_rules/games/settings.py``):

* ``live``: as results come in, from every round started so far;
* ``after-swiss``: only once the Swiss is over (the cut made, or the event closed), after its last round;
* ``end``: only once the event is closed.

>>> state = {"rounds": [{"number": 1, "stage": "swiss", "status": "complete"},
...                     {"number": 2, "stage": "swiss", "status": "started"}]}
>>> published_round(state)
{'number': 1, 'stage': 'swiss'}
>>> [r["number"] for r in published_state(state)["rounds"]]
[1]
>>> published_round({**state, "settings": {"standings_policy": "live"}})
{'number': 2, 'stage': 'swiss'}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["POLICIES", "DEFAULT_POLICY", "standings_policy", "published_round", "published_state", "unpublished_note"]

#: The standings policies an organizer may choose, in the order the Settings screen offers them.
POLICIES = ("after-round", "live", "after-swiss", "end")
DEFAULT_POLICY = "after-round"


def standings_policy(state: Mapping[str, Any]) -> str:
    """The event's standings policy (``settings.standings_policy``; ``after-round`` when unset)."""
    settings = state.get("settings")
    chosen = settings.get("standings_policy") if isinstance(settings, Mapping) else None
    return chosen if chosen in POLICIES else DEFAULT_POLICY


def _complete_prefix(state: Mapping[str, Any]) -> int:
    """How many rounds, from the first, have every result settled."""
    count = 0
    for rnd in state["rounds"]:
        if rnd["status"] != "complete":
            break
        count += 1
    return count


def _shown(state: Mapping[str, Any]) -> int:
    """How many rounds, from the first, the published standings count under the event's policy."""
    policy = standings_policy(state)
    rounds = state["rounds"]
    if policy == "live":
        count = 0
        for rnd in rounds:
            if rnd["status"] not in ("started", "complete"):
                break
            count += 1
        return count
    count = _complete_prefix(state)
    if policy == "end":
        return count if state.get("closed") else 0
    if policy == "after-swiss":
        over = state.get("closed") or any(r["stage"] != "swiss" and r["status"] != "draft" for r in rounds)
        if not over:
            return 0
        return sum(1 for r in rounds[:count] if r["stage"] == "swiss")
    return count


def published_round(state: Mapping[str, Any]) -> dict[str, Any] | None:
    """The round the published standings are after (``number``, ``stage``), or None while none are shown."""
    count = _shown(state)
    if not count:
        return None
    last = state["rounds"][count - 1]
    return {"number": last["number"], "stage": last["stage"]}


def published_state(state: Mapping[str, Any]) -> dict[str, Any]:
    """The state cut to the rounds the published standings count: what they are computed from."""
    return {**state, "rounds": list(state["rounds"][: _shown(state)])}


_WAITING = {
    "after-round": "Standings are posted once round 1's results are all in.",
    "live": "Standings are posted once round 1 starts.",
    "after-swiss": "The organizer posts standings once the Swiss rounds are over.",
    "end": "The organizer posts standings at the end of the event.",
}


def unpublished_note(state: Mapping[str, Any]) -> str | None:
    """Why no standings are shown yet, in the players' words (None: some are shown)."""
    if published_round(state) is not None:
        return None
    if not state.get("ruleset") or not state["rounds"]:
        return "No rounds yet."
    return _WAITING[standings_policy(state)]
