"""The league document (``topcut-league/1``): a WCT league, its season and what its director enters.

See docs/event-format-additions.md ("The league document") for every field.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from ....errors import DocumentError

__all__ = ["FORMAT", "SCHEDULES", "League", "LeagueEvent", "Sprint", "Bonus", "load_league"]

FORMAT = "topcut-league/1"

#: Star Trek OP Guide 12.2: the season's sprints, ``(regular sprints, playoff sprints, events per sprint)``.
#: Standard: two regular halves and a playoff sprint of four events each (twelve in all); truncated:
#: a four-event regular season and a two-event playoff (six in all).
SCHEDULES: Mapping[str, tuple[int, int, tuple[int, ...]]] = MappingProxyType(
    {
        "standard": (2, 1, (4, 4, 4)),
        "truncated": (1, 1, (4, 2)),
    }
)

_DATE = re.compile(r"\d{4}-\d{2}-\d{2}\Z")
_EMPTY: Mapping[str, Any] = MappingProxyType({})


@dataclass(frozen=True, slots=True)
class Sprint:
    """One sprint of the season: ``regular`` or ``playoff``, by its events or its dates."""

    id: str
    kind: str
    name: str = ""
    events: tuple[str, ...] | None = None
    start: str | None = None
    end: str | None = None


@dataclass(frozen=True, slots=True)
class LeagueEvent:
    """A tournament flagged as a league event (OP Guide 12.2, Appendix A "League Event?").

    ``places``: persons best first, when the director awards the places (OP Guide 12.4,
    unsanctioned formats with no clear places); otherwise the event's final standings decide.
    """

    id: str
    places: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class Bonus:
    """Bonus points the director entered for one person at one event (OP Guide 12.5)."""

    event: str
    person: str
    points: int
    scheme: str = ""
    note: str = ""


@dataclass(frozen=True, slots=True)
class League:
    """A WCT league and one season of it (OP Guide 12)."""

    id: str
    name: str
    director: Mapping[str, Any]
    season: str
    schedule: str
    sprints: tuple[Sprint, ...]
    events: tuple[LeagueEvent, ...]
    qualify_per_sprint: int | None = None
    qualified: tuple[str, ...] | None = None
    bonus: tuple[Bonus, ...] = ()
    lifetime: Mapping[str, int] = field(default_factory=lambda: _EMPTY)
    names: Mapping[str, str] = field(default_factory=lambda: _EMPTY)
    seed: str = ""
    champions_minimum: int = 100
    champions_waived: tuple[str, ...] = ()

    def event(self, event_id: str) -> LeagueEvent | None:
        """The league event with that id, or None when the event is not flagged."""
        for ev in self.events:
            if ev.id == event_id:
                return ev
        return None


def _str(value: Any, path: str, empty: bool = False) -> str:
    if not isinstance(value, str) or (not empty and not value.strip()):
        raise DocumentError(path, f"expected a non-empty string, got {value!r}")
    return value


def _int(value: Any, path: str, low: int | None = 0) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or (low is not None and value < low):
        floor = "" if low is None else f" of at least {low}"
        raise DocumentError(path, f"expected a whole number{floor}, got {value!r}")
    return value


def _date(value: Any, path: str) -> str:
    if not isinstance(value, str) or not _DATE.match(value):
        raise DocumentError(path, f"expected a date YYYY-MM-DD, got {value!r}")
    return value


def _list(value: Any, path: str) -> list[Any]:
    if not isinstance(value, list):
        raise DocumentError(path, f"expected a list, got {type(value).__name__}")
    return value


def _obj(value: Any, path: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise DocumentError(path, f"expected an object, got {type(value).__name__}")
    return value


def _persons(value: Any, path: str) -> tuple[str, ...]:
    out = tuple(_str(p, f"{path}[{i}]") for i, p in enumerate(_list(value, path)))
    seen: dict[str, int] = {}
    for i, p in enumerate(out):
        if p in seen:
            raise DocumentError(f"{path}[{i}]", f"'{p}' is also {path}[{seen[p]}]")
        seen[p] = i
    return out


def load_league(doc: Mapping[str, Any]) -> League:
    """Validate a league document and build the :class:`League`; a bad field raises ``DocumentError``.

    >>> league = load_league({"id": "l1", "name": "Neutral Zone League", "director": {"name": "Q"},
    ...     "season": {"name": "2026-27", "schedule": "truncated", "sprints": [
    ...         {"id": "regular", "kind": "regular", "events": ["e1", "e2", "e3", "e4"]},
    ...         {"id": "playoffs", "kind": "playoff", "events": ["e5", "e6"]}]},
    ...     "events": ["e1", "e2", "e3", "e4", "e5", "e6"], "qualification": {"per_sprint": 4}})
    >>> league.schedule, [s.kind for s in league.sprints], league.qualify_per_sprint
    ('truncated', ['regular', 'playoff'], 4)
    """
    doc = _obj(doc, "")
    fmt = doc.get("format", FORMAT)
    if fmt != FORMAT:
        raise DocumentError("format", f"expected '{FORMAT}', got {fmt!r}")
    league_id = _str(doc.get("id"), "id")
    name = _str(doc.get("name"), "name")
    director = doc.get("director")
    if isinstance(director, str):
        director = {"name": _str(director, "director")}
    director = dict(_obj(director, "director")) if director is not None else None
    if director is None:
        raise DocumentError("director", "a league needs its League Director (Star Trek OP Guide 12.1)")
    _str(director.get("name"), "director.name")
    if "handle" in director:
        _str(director["handle"], "director.handle")

    season = _obj(doc.get("season"), "season")
    season_name = _str(season.get("name", ""), "season.name", empty=True)
    schedule = season.get("schedule", "standard")
    if schedule not in SCHEDULES:
        raise DocumentError(
            "season.schedule",
            f"{schedule!r} is not a league schedule of Star Trek OP Guide 12.2 (use {', '.join(SCHEDULES)})",
        )
    sprints = _sprints(season.get("sprints"), schedule)

    events = _events(doc.get("events"))
    listed = {e.id for e in events}
    for s_i, sprint in enumerate(sprints):
        for e_i, ev in enumerate(sprint.events or ()):
            if ev not in listed:
                raise DocumentError(
                    f"season.sprints[{s_i}].events[{e_i}]", f"'{ev}' is not a league event (add it to events)"
                )

    qualify_per_sprint, qualified = _qualification(doc.get("qualification"))
    bonus = _bonus(doc.get("bonus", []), listed)
    lifetime = _lifetime(doc.get("lifetime", {}))
    names = {}
    for person, text in _obj(doc.get("names", {}), "names").items():
        names[person] = _str(text, f"names.{person}")
    seed = _str(doc.get("seed", league_id), "seed")
    champions = _obj(doc.get("champions_league", {}), "champions_league")
    minimum = _int(champions.get("minimum", 100), "champions_league.minimum")
    waived = _persons(champions.get("waived", []), "champions_league.waived")
    return League(
        league_id,
        name,
        MappingProxyType(director),
        season_name,
        schedule,
        sprints,
        events,
        qualify_per_sprint,
        qualified,
        bonus,
        MappingProxyType(lifetime),
        MappingProxyType(names),
        seed,
        minimum,
        waived,
    )


def _sprints(raw: Any, schedule: str) -> tuple[Sprint, ...]:
    regular, playoff, _ = SCHEDULES[schedule]
    out: list[Sprint] = []
    seen: dict[str, int] = {}
    claimed: dict[str, str] = {}
    for i, obj in enumerate(_list(raw, "season.sprints")):
        path = f"season.sprints[{i}]"
        obj = _obj(obj, path)
        sid = _str(obj.get("id"), f"{path}.id")
        if sid in seen:
            raise DocumentError(f"{path}.id", f"'{sid}' is also season.sprints[{seen[sid]}]")
        seen[sid] = i
        kind = obj.get("kind")
        if kind not in ("regular", "playoff"):
            raise DocumentError(f"{path}.kind", f"expected 'regular' or 'playoff', got {kind!r}")
        name = _str(obj.get("name", ""), f"{path}.name", empty=True)
        events = None
        if "events" in obj:
            events = _persons(obj["events"], f"{path}.events")
            for j, ev in enumerate(events):
                if ev in claimed:
                    raise DocumentError(f"{path}.events[{j}]", f"'{ev}' is already in sprint '{claimed[ev]}'")
                claimed[ev] = sid
        start = _date(obj["from"], f"{path}.from") if "from" in obj else None
        end = _date(obj["to"], f"{path}.to") if "to" in obj else None
        if events is None and (start is None or end is None):
            raise DocumentError(path, "a sprint needs its events, or its dates 'from' and 'to'")
        if start is not None and end is not None and end < start:
            raise DocumentError(f"{path}.to", f"{end} is before {start}")
        out.append(Sprint(sid, kind, name, events, start, end))
    kinds = [s.kind for s in out]
    expected = ["regular"] * regular + ["playoff"] * playoff
    if kinds != expected:
        raise DocumentError(
            "season.sprints",
            f"a {schedule} season has {regular} regular sprint(s) then "
            f"{playoff} playoff sprint (Star Trek OP Guide 12.2), got {kinds or 'none'}",
        )
    for i, (a, b) in enumerate(zip(out, out[1:])):
        if a.end is not None and b.start is not None and b.start <= a.end:
            raise DocumentError(
                f"season.sprints[{i + 1}].from", f"{b.start} is not after sprint '{a.id}' ends ({a.end})"
            )
    return tuple(out)


def _events(raw: Any) -> tuple[LeagueEvent, ...]:
    out: list[LeagueEvent] = []
    seen: dict[str, int] = {}
    for i, obj in enumerate(_list(raw, "events")):
        path = f"events[{i}]"
        places = None
        if isinstance(obj, str):
            eid = _str(obj, path)
        else:
            obj = _obj(obj, path)
            eid = _str(obj.get("id"), f"{path}.id")
            if "places" in obj:
                places = _persons(obj["places"], f"{path}.places")
        if eid in seen:
            raise DocumentError(path, f"'{eid}' is also events[{seen[eid]}]")
        seen[eid] = i
        out.append(LeagueEvent(eid, places))
    return tuple(out)


def _qualification(raw: Any) -> tuple[int | None, tuple[str, ...] | None]:
    if raw is None:
        return None, None
    raw = _obj(raw, "qualification")
    per_sprint = None
    qualified = None
    if "per_sprint" in raw:
        per_sprint = _int(raw["per_sprint"], "qualification.per_sprint", 1)
    if "players" in raw:
        qualified = _persons(raw["players"], "qualification.players")
    if per_sprint is not None and qualified is not None:
        raise DocumentError(
            "qualification",
            "give either per_sprint (top N of each regular sprint) or "
            "players (the qualified players as announced), not both",
        )
    if per_sprint is None and qualified is None:
        raise DocumentError(
            "qualification", "expected per_sprint (top N of each regular sprint, Star Trek OP Guide 12.6) or players"
        )
    return per_sprint, qualified


def _bonus(raw: Any, listed: set[str]) -> tuple[Bonus, ...]:
    out = []
    for i, obj in enumerate(_list(raw, "bonus")):
        path = f"bonus[{i}]"
        obj = _obj(obj, path)
        event = _str(obj.get("event"), f"{path}.event")
        if event not in listed:
            raise DocumentError(
                f"{path}.event",
                f"'{event}' is not a league event: bonus points are awarded at league events (Star Trek OP Guide 12.5)",
            )
        person = _str(obj.get("person"), f"{path}.person")
        points = _int(obj.get("points"), f"{path}.points", None)
        scheme = _str(obj.get("scheme", ""), f"{path}.scheme", empty=True)
        note = _str(obj.get("note", ""), f"{path}.note", empty=True)
        out.append(Bonus(event, person, points, scheme, note))
    return tuple(out)


def _lifetime(raw: Any) -> dict[str, int]:
    out = {}
    for person, points in _obj(raw, "lifetime").items():
        out[person] = _int(points, f"lifetime.{person}")
    return out
