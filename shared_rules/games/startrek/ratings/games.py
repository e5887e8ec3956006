"""Which events and games are rated (Star Trek OP Guide 1, 4.1, 4.4, 7.5.1, 8, 11).

``settings.rating`` of an event document (all optional except where said):

- ``sanctioned``: true for a sanctioned event (OP Guide 1); anything else is unrated
- ``rated``: false for a sanctioned event listed as unrated (OP Guide 1); default true
- ``level``: the event level, a whole number; required when rated
- ``k``: the k-value, only needed for a level OP Guide 11 does not list (e.g. 1);
  must agree with the Guide's value for levels 2-5
- ``format``: ``constructed``, ``draft`` or ``sealed`` (OP Guide 4.1); required when rated
- ``scenario``: an optional scenario of OP Guide 4.4 (``deck-lottery`` ... ``custom``): unrated
- ``date``: ``YYYY-MM-DD``; when given, events must come in date order

``players[].rating_id`` names the person across events (e.g. a trekcc.org
member id); without it ``players[].id`` does.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ....errors import DocumentError
from ....event.model import GAME_ID_FIELDS
from .elo import WEIGHT
from .rules import FORMATS, K_BY_LEVEL, RULESETS, SCENARIOS, SCORE_OF_PAIR, UNSANCTIONED_SCENARIOS

if TYPE_CHECKING:  # pragma: no cover
    from ....event.model import Event

__all__ = ["Rating", "rating_of", "rated_games", "identities"]

_DATE = re.compile(r"\d{4}-\d{2}-\d{2}\Z")


@dataclass(frozen=True, slots=True)
class Rating:
    """How an event counts: ``rated`` with its ``k`` and ``kind`` (constructed/sealed), or ``reason`` why not."""

    rated: bool
    reason: str = ""
    level: int | None = None
    k: int | None = None
    kind: str | None = None
    date: str | None = None


def _unrated(reason: str, date: str | None = None) -> Rating:
    return Rating(False, reason, date=date)


def rating_of(event: Event) -> Rating:
    """Read and check ``settings.rating``.

    >>> from shared_rules.run import load_event
    >>> doc = {"ruleset": "startrek-2e", "players": [], "settings": {"rating": {
    ...     "sanctioned": True, "level": 4, "format": "draft"}}}
    >>> rating_of(load_event(doc))
    Rating(rated=True, reason='', level=4, k=52, kind='sealed', date=None)
    """
    if event.ruleset not in RULESETS:
        raise DocumentError(
            "ruleset", f"'{event.ruleset}' has no ratings (Star Trek OP Guide 8 rates {', '.join(RULESETS)})"
        )
    raw = event.settings.get("rating")
    if raw is None:
        return _unrated("no settings.rating: not known to be a sanctioned, rated event (Star Trek OP Guide 1)")
    if not isinstance(raw, Mapping):
        raise DocumentError(
            "settings.rating", 'expected an object such as {"sanctioned": true, "level": 2, "format": "constructed"}'
        )
    date = raw.get("date")
    if date is not None and (not isinstance(date, str) or not _DATE.match(date)):
        raise DocumentError("settings.rating.date", f"expected YYYY-MM-DD, got {date!r}")
    for key in ("sanctioned", "rated"):
        if key in raw and not isinstance(raw[key], bool):
            raise DocumentError(f"settings.rating.{key}", f"expected true or false, got {raw[key]!r}")
    scenario = raw.get("scenario")
    if scenario is not None and scenario not in SCENARIOS:
        raise DocumentError(
            "settings.rating.scenario",
            f"{scenario!r} is not an optional scenario of Star Trek OP Guide 4.4 (use {', '.join(SCENARIOS)})",
        )
    level, k, kind = _level_k_kind(raw)
    if raw.get("sanctioned") is not True:
        return _unrated("not sanctioned: only sanctioned events are rated (Star Trek OP Guide 1)", date)
    if scenario in UNSANCTIONED_SCENARIOS:
        return _unrated(
            f"scenario {scenario}: unsanctioned and unrated (Star Trek OP Guide {SCENARIOS[scenario]})", date
        )
    if scenario is not None:
        return _unrated(
            f"scenario {scenario}: sanctioned but unrated (Star Trek OP Guide 4.4, {SCENARIOS[scenario]})", date
        )
    if raw.get("rated", True) is False:
        return _unrated("sanctioned but listed as unrated (Star Trek OP Guide 1)", date)
    if level is None:
        raise DocumentError("settings.rating.level", "a rated event needs its level (Star Trek OP Guide 11)")
    if kind is None:
        raise DocumentError(
            "settings.rating.format",
            "a rated event needs its format: constructed, draft or sealed (Star Trek OP Guide 4.1)",
        )
    if k is None:
        raise DocumentError(
            "settings.rating.k",
            f"level {level} has no k-value in Star Trek OP Guide 11 "
            f"(levels {', '.join(map(str, K_BY_LEVEL))}); give settings.rating.k",
        )
    return Rating(True, level=level, k=k, kind=kind, date=date)


def _level_k_kind(raw: Mapping[str, Any]) -> tuple[int | None, int | None, str | None]:
    level = raw.get("level")
    if level is not None and (not isinstance(level, int) or isinstance(level, bool) or level < 1):
        raise DocumentError("settings.rating.level", f"expected a whole number of at least 1, got {level!r}")
    k = raw.get("k")
    if k is not None and (not isinstance(k, int) or isinstance(k, bool) or k < 1):
        raise DocumentError("settings.rating.k", f"expected a whole number of at least 1, got {k!r}")
    listed = K_BY_LEVEL.get(level) if level is not None else None
    if listed is not None and k is not None and k != listed:
        raise DocumentError("settings.rating.k", f"level {level} has k-value {listed} (Star Trek OP Guide 11), not {k}")
    fmt = raw.get("format")
    if fmt is not None and fmt not in FORMATS:
        raise DocumentError(
            "settings.rating.format", f"{fmt!r} is not a format of Star Trek OP Guide 4.1 (use {', '.join(FORMATS)})"
        )
    return level, (listed if listed is not None else k), (FORMATS[fmt] if fmt is not None else None)


def identities(event: Event) -> dict[str, str]:
    """Player id -> the person's rating identity (the trekcc.org handle ``players[].game_id``, in older documents
    ``rating_id``; else the id)."""
    out: dict[str, str] = {}
    seen: dict[str, int] = {}
    for i, p in enumerate(event.players):
        key = next((k for k in GAME_ID_FIELDS if k in p.extra), None)
        rid = p.extra[key] if key is not None else p.id
        where = f"players[{i}].{key or 'id'}"
        if not isinstance(rid, str) or not rid.strip():
            raise DocumentError(where, f"expected a non-empty string, got {rid!r}")
        rid = rid.strip()
        if rid in seen:
            raise DocumentError(where, f"'{rid}' is also players[{seen[rid]}]")
        seen[rid] = i
        out[p.id] = rid
    return out


def rated_games(event: Event) -> list[tuple[str, str, int, int]]:
    """The event's rated games as ``(player, opponent, score in halves for player, weight)``.

    In document order. The order cannot change a rating: an event's games are
    scored against the ratings players brought to it and summed in whole
    numbers (``elo.py``), and a game gives its two players exactly opposite
    terms whichever seat is listed first.
    Left out (Star Trek OP Guide 7.5.1, 13.5): byes, earned byes, Missed Games
    (a drop or lateness: every Missed Game of 7.5.1 is one of those), a Full
    Win or Full Loss against a Bye or Missed Game, pending and disputed matches.
    A Tribbles pod round of n players is every pairing of two of them, decided
    by the round's scores, each weighing 1/(n-1) of a game.

    >>> from shared_rules.run import load_event
    >>> doc = {"ruleset": "startrek-1e", "players": [{"id": p, "entry": 1} for p in "abc"], "rounds": [
    ...     {"number": 1, "matches": [{"players": ["b", "a"], "outcomes": ["modified-win", "modified-loss"],
    ...                                "scores": [40, 30]}, {"players": ["c"], "outcomes": ["bye"]}]}]}
    >>> rated_games(load_event(doc))
    [('b', 'a', 2, 420)]
    """
    games: list[tuple[str, str, int, int]] = []
    tribbles = event.ruleset == "tribbles"
    for rnd in event.rounds:
        for match in rnd.matches:
            if match.outcomes is None or len(match.players) < 2 or (match.extra and match.extra.get("disputed")):
                continue
            if tribbles:
                games.extend(_pod_games(match))
                continue
            score = SCORE_OF_PAIR.get(match.outcomes)
            if score is not None:
                games.append((match.players[0], match.players[1], score, WEIGHT))
    return games


def _pod_games(match: Any) -> list[tuple[str, str, int, int]]:
    seats = list(zip(match.players, match.scores))
    weight = WEIGHT // (len(seats) - 1)
    out = []
    for i, (a, sa) in enumerate(seats):
        for b, sb in seats[i + 1 :]:
            out.append((a, b, 2 if sa > sb else 1 if sa == sb else 0, weight))
    return out
