"""What the hall sees: standings are published after a round whose results are all in, never mid-round.

A round in play has results missing; standings computed from it would rank
players by whoever happened to finish first. So the public page and the big
screen show the standings *after* the last round whose every result is
settled (round status ``complete``), and nothing before the first such round:
round 1 in play has no standings to show.

>>> state = {"rounds": [{"number": 1, "stage": "swiss", "status": "complete"},
...                     {"number": 2, "stage": "swiss", "status": "started"}]}
>>> published_round(state)
{'number': 1, 'stage': 'swiss'}
>>> [r["number"] for r in published_state(state)["rounds"]]
[1]
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["published_round", "published_state"]


def _complete_prefix(state: Mapping[str, Any]) -> int:
    """How many rounds, from the first, have every result settled."""
    count = 0
    for rnd in state["rounds"]:
        if rnd["status"] != "complete":
            break
        count += 1
    return count


def published_round(state: Mapping[str, Any]) -> dict[str, Any] | None:
    """The round the published standings are after (``number``, ``stage``), or None before any is complete."""
    count = _complete_prefix(state)
    if not count:
        return None
    last = state["rounds"][count - 1]
    return {"number": last["number"], "stage": last["stage"]}


def published_state(state: Mapping[str, Any]) -> dict[str, Any]:
    """The state cut to its complete rounds: what the published standings are computed from."""
    return {**state, "rounds": list(state["rounds"][: _complete_prefix(state)])}
