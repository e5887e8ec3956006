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
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Mapping

from ..errors import DocumentError
from .elo import WEIGHT
from .rules import (FORMATS, GAME_SCORES, K_BY_LEVEL, PLAYED_PAIRS, RULESETS, SCENARIOS,
                    UNSANCTIONED_SCENARIOS)

if TYPE_CHECKING:  # pragma: no cover
    from ..event.model import Event

__all__ = ["Rating", "rating_of", "rated_games", "identities"]

_DATE = re.compile(r"\d{4}-\d{2}-\d{2}\Z")
_STAGE_ORDER = {"swiss": 0, "swiss-day2": 1, "elimination": 2}


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


def rating_of(event: "Event") -> Rating:
    """Read and check ``settings.rating``.

    >>> from shared_rules.event import load_event
    >>> doc = {"ruleset": "startrek-2e", "players": [], "settings": {"rating": {
    ...     "sanctioned": True, "level": 4, "format": "draft"}}}
    >>> rating_of(load_event(doc))
    Rating(rated=True, reason='', level=4, k=52, kind='sealed', date=None)
    """
    if event.ruleset not in RULESETS:
        raise DocumentError("ruleset", f"'{event.ruleset}' has no ratings (Star Trek OP Guide 8 rates "
                            f"{', '.join(RULESETS)})")
    raw = event.settings.get("rating")
    if raw is None:
        return _unrated("no settings.rating: not known to be a sanctioned, rated event (Star Trek OP Guide 1)")
    if not isinstance(raw, Mapping):
        raise DocumentError("settings.rating", "expected an object such as "
                            '{"sanctioned": true, "level": 2, "format": "constructed"}')
    date = raw.get("date")
    if date is not None and (not isinstance(date, str) or not _DATE.match(date)):
        raise DocumentError("settings.rating.date", f"expected YYYY-MM-DD, got {date!r}")
    for key in ("sanctioned", "rated"):
        if key in raw and not isinstance(raw[key], bool):
            raise DocumentError(f"settings.rating.{key}", f"expected true or false, got {raw[key]!r}")
    scenario = raw.get("scenario")
    if scenario is not None and scenario not in SCENARIOS:
        raise DocumentError("settings.rating.scenario", f"{scenario!r} is not an optional scenario of Star Trek "
                            f"OP Guide 4.4 (use {', '.join(SCENARIOS)})")
    level, k, kind = _level_k_kind(raw)
    if raw.get("sanctioned") is not True:
        return _unrated("not sanctioned: only sanctioned events are rated (Star Trek OP Guide 1)", date)
    if scenario in UNSANCTIONED_SCENARIOS:
        return _unrated(f"scenario {scenario}: unsanctioned and unrated (Star Trek OP Guide "
                        f"{SCENARIOS[scenario]})", date)
    if scenario is not None:
        return _unrated(f"scenario {scenario}: sanctioned but unrated (Star Trek OP Guide 4.4, "
                        f"{SCENARIOS[scenario]})", date)
    if raw.get("rated", True) is False:
        return _unrated("sanctioned but listed as unrated (Star Trek OP Guide 1)", date)
    if level is None:
        raise DocumentError("settings.rating.level", "a rated event needs its level (Star Trek OP Guide 11)")
    if kind is None:
        raise DocumentError("settings.rating.format", "a rated event needs its format: constructed, draft "
                            "or sealed (Star Trek OP Guide 4.1)")
    if k is None:
        raise DocumentError("settings.rating.k", f"level {level} has no k-value in Star Trek OP Guide 11 "
                            f"(levels {', '.join(map(str, K_BY_LEVEL))}); give settings.rating.k")
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
        raise DocumentError("settings.rating.k", f"level {level} has k-value {listed} (Star Trek OP Guide 11), "
                            f"not {k}")
    fmt = raw.get("format")
    if fmt is not None and fmt not in FORMATS:
        raise DocumentError("settings.rating.format", f"{fmt!r} is not a format of Star Trek OP Guide 4.1 "
                            f"(use {', '.join(FORMATS)})")
    return level, (listed if listed is not None else k), (FORMATS[fmt] if fmt is not None else None)


def identities(event: "Event") -> dict[str, str]:
    """Player id -> the person's rating identity (``players[].rating_id``, else the id)."""
    out: dict[str, str] = {}
    seen: dict[str, int] = {}
    for i, p in enumerate(event.players):
        rid = p.extra.get("rating_id", p.id)
        if not isinstance(rid, str) or not rid.strip():
            raise DocumentError(f"players[{i}].rating_id", f"expected a non-empty string, got {rid!r}")
        if rid in seen:
            raise DocumentError(f"players[{i}].rating_id", f"'{rid}' is also players[{seen[rid]}]")
        seen[rid] = i
        out[p.id] = rid
    return out


def rated_games(event: "Event") -> list[tuple[str, str, int, int]]:
    """The event's rated games as ``(player, opponent, score in halves for player, weight)``.

    In a defined order whatever the document's order: by stage, round, then
    table (a match without a table after those with one), then the players.
    Left out (Star Trek OP Guide 7.5.1, 13.5): byes, earned byes, Missed Games
    (a drop or lateness: every Missed Game of 7.5.1 is one of those), a Full
    Win or Full Loss against a Bye or Missed Game, pending and disputed matches.
    A Tribbles pod round of n players is every pairing of two of them, decided
    by the round's scores, each weighing 1/(n-1) of a game.
    """
    rounds = sorted(event.rounds, key=lambda r: (r.number, _STAGE_ORDER.get(r.stage, 3)))
    games: list[tuple[str, str, int, int]] = []
    tribbles = event.ruleset == "tribbles"
    for rnd in rounds:
        matches = sorted((m for m in rnd.matches if m.outcomes is not None and len(m.players) >= 2
                          and not m.extra.get("disputed")),
                         key=lambda m: (m.table is None, m.table or 0, sorted(m.players)))
        for match in matches:
            if tribbles:
                games.extend(_pod_games(match))
                continue
            a, b = match.players
            oa, ob = match.outcomes  # type: ignore[misc]
            if (oa, ob) not in PLAYED_PAIRS:
                continue
            if b < a:
                a, b, oa, ob = b, a, ob, oa
            games.append((a, b, GAME_SCORES[oa], WEIGHT))
    return games


def _pod_games(match: Any) -> list[tuple[str, str, int, int]]:
    seats = sorted(zip(match.players, match.scores), key=lambda seat: seat[0])
    weight = WEIGHT // (len(seats) - 1)
    out = []
    for i, (a, sa) in enumerate(seats):
        for b, sb in seats[i + 1:]:
            out.append((a, b, 2 if sa > sb else 1 if sa == sb else 0, weight))
    return out
