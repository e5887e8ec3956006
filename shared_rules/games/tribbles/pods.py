"""Tribbles pods (Star Trek OP Guide 7.2, 7.6).

- Round 1: players split at random (seeded) into pods of four to eight of
  approximately equal size (:func:`shared_rules.games.startrek.structures.tribbles_pods`).
- Pods stay together for five rounds (7.6): rounds 2-5 repeat the previous
  round's pods.
- After the fifth round (rounds 6, 11, ...), pods are re-formed by score: the
  highest scoring player of each pod forms the top pod, which is filled by the
  remaining highest scoring players; later pods take the rest by score (7.6).
  "Score" is the Tribbles ranking (7.7: total score, rounds won, random), as
  the standings compute it.

Readings: a dropped player leaves their pod (pods are not rebalanced inside
a block of five rounds) unless fewer than three remain in it, who then join the
smallest other pods (Section 2: three players is the smallest game; a field
of three plays as one pod of three); a newcomer joins the smallest pod (the first one on
a tie); when there are more pods than seats in the top pod, the best-ranked
pod winners take those seats and the other winners fall to the next pods by
rank; every pod has its own table, the top pod at table 1.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...event.model import Event
from ...seeded import Rng
from ..startrek.structures import tribbles_pods
from .ruleset import POD_SIZES, SMALLEST_POD

__all__ = ["ROUNDS_PER_POD", "block_starts", "form_pods"]

#: Star Trek OP Guide 7.6: players stay in their pods for five rounds.
ROUNDS_PER_POD = 5


def block_starts(round_number: int, rounds_per_pod: int = ROUNDS_PER_POD) -> bool:
    """Whether pods are (re-)formed in this round: rounds 1, 6, 11, ...

    >>> [r for r in range(1, 12) if block_starts(r)]
    [1, 6, 11]
    """
    return (round_number - 1) % rounds_per_pod == 0


def _previous_pods(event: Event, round_number: int) -> list[list[str]]:
    earlier = [r for r in event.rounds if r.stage != "elimination" and r.number < round_number]
    if not earlier:
        return []
    last = max(earlier, key=lambda r: r.number)
    ordered = sorted(last.matches, key=lambda m: (m.table is None, m.table or 0, m.players))
    return [list(m.players) for m in ordered]


def form_pods(
    event: Event,
    round_number: int,
    present: Sequence[str],
    ranking: Sequence[str],
    rounds_per_pod: int = ROUNDS_PER_POD,
) -> list[list[str]]:
    """The pods of this round, top pod first."""
    present_set = set(present)
    if not present:
        return []
    previous = _previous_pods(event, round_number)
    if round_number == 1 or not previous:
        # Star Trek OP Guide 7.2: random pods of approximately equal size.
        order = Rng(event.seed, "tribbles-pods", round_number).shuffled(sorted(present))
        return _chunk(order, tribbles_pods(len(order)))
    position = {pid: i for i, pid in enumerate(ranking)}
    rank = lambda pid: position.get(pid, len(position))  # noqa: E731
    if not block_starts(round_number, rounds_per_pod):
        # Star Trek OP Guide 7.6: pods are kept for five rounds.
        pods = [[pid for pid in pod if pid in present_set] for pod in previous]
        pods = [pod for pod in pods if pod]
        if len(pods) > 1:
            pods = _rehome_small_pods(pods)
        seated = {pid for pod in pods for pid in pod}
        for pid in sorted((p for p in present if p not in seated), key=rank):
            smallest = min(range(len(pods)), key=lambda i: (len(pods[i]), i)) if pods else None
            if smallest is None:
                pods.append([pid])
            else:
                pods[smallest].append(pid)
        # Star Trek OP Guide 7.2: a pod seats at most eight; one that rejoining players or a re-homed pod
        # would take past eight splits into pods of about equal size.
        return [
            part
            for pod in pods
            for part in (_chunk(pod, tribbles_pods(len(pod))) if len(pod) > POD_SIZES[1] else [pod])
        ]
    # Star Trek OP Guide 7.6: the best of each pod together, then by score.
    sizes = tribbles_pods(len(present))
    winners = []
    for pod in previous:
        members = [pid for pid in pod if pid in present_set]
        if members:
            winners.append(min(members, key=rank))
    winners.sort(key=rank)
    top = winners[: sizes[0]]
    chosen = set(top)
    rest = sorted((pid for pid in present if pid not in chosen), key=rank)
    fill = sizes[0] - len(top)
    first = top + rest[:fill]
    return [first] + _chunk(rest[fill:], sizes[1:])


def _rehome_small_pods(pods: list[list[str]]) -> list[list[str]]:
    """Players of a pod that drops left with fewer than three join the smallest other pods, one by one."""
    kept = [pod for pod in pods if len(pod) >= SMALLEST_POD]
    if not kept:
        return [[pid for pod in pods for pid in pod]]
    for pod in pods:
        if len(pod) >= SMALLEST_POD:
            continue
        for pid in pod:
            min(kept, key=len).append(pid)
    return kept


def _chunk(ids: Sequence[str], sizes: Sequence[int]) -> list[list[str]]:
    out, start = [], 0
    for size in sizes:
        out.append(list(ids[start : start + size]))
        start += size
    return [pod for pod in out if pod]
