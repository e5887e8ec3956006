"""The league table: league points per event, season and lifetime totals, bonus points, playoffs, 12.7 seeding."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ....errors import DocumentError
from ....event.model import Event
from ....seeded import draw_key
from ... import event_standings
from ..ratings.games import identities
from .document import SCHEDULES, League, Sprint
from .points import league_points
from .tiebreakers import PLAYOFF_RANKING, SEASON_RANKING, Record, get_metric, rank_records

__all__ = ["LEAGUE_RULESETS", "league_table"]

#: Star Trek OP Guide 12: WCT leagues are Star Trek CCG leagues (First Edition, Second Edition, Tribbles).
LEAGUE_RULESETS = ("startrek-1e", "startrek-2e", "tribbles")

_DATE = re.compile(r"\d{4}-\d{2}-\d{2}\Z")


@dataclass(frozen=True, slots=True)
class _Played:
    """One league event as played: its sprint, participants and each person's place and points."""

    id: str
    name: str
    date: str | None
    sprint: Sprint
    players: int
    places: Mapping[str, int]
    points: Mapping[str, int]
    complete: bool


def _event_id(event: Event, i: int, ids: Sequence[str] | None = None) -> str:
    eid = ids[i] if ids is not None else event.extra.get("id")
    if not isinstance(eid, str) or not eid.strip():
        raise DocumentError(
            f"events[{i}].id", "a league event document needs its id (the id the league document's events list names)"
        )
    return eid


def _event_date(event: Event, i: int) -> str | None:
    date = event.extra.get("date")
    path = f"events[{i}].date"
    for key in ("report", "rating"):  # the Star Trek report's date, else the rating's
        section = event.settings.get(key)
        if date is None and isinstance(section, Mapping) and section.get("date") is not None:
            date, path = section["date"], f"events[{i}].settings.{key}.date"
    if date is None:
        return None
    if not isinstance(date, str) or not _DATE.match(date):
        raise DocumentError(path, f"expected a date YYYY-MM-DD, got {date!r}")
    return date


def _sprint_of(league: League, eid: str, date: str | None, i: int) -> Sprint:
    for sprint in league.sprints:
        if sprint.events is not None and eid in sprint.events:
            return sprint
    for sprint in league.sprints:
        if sprint.events is None and date is not None and sprint.start <= date <= sprint.end:  # type: ignore[operator]
            return sprint
    when = f"dated {date}" if date else "with no date"
    raise DocumentError(f"events[{i}]", f"league event '{eid}' ({when}) is in no sprint of the season")


def _persons(event: Event) -> dict[str, str]:
    return identities(event)


def _play(league: League, event: Event, i: int, eid: str) -> _Played:
    if event.ruleset not in LEAGUE_RULESETS:
        raise DocumentError(
            f"events[{i}].ruleset",
            f"'{event.ruleset}' is not a Star Trek CCG game: WCT "
            f"leagues (Star Trek OP Guide 12) play {', '.join(LEAGUE_RULESETS)}",
        )
    date = _event_date(event, i)
    sprint = _sprint_of(league, eid, date, i)
    person_of = _persons(event)
    count = len(event.players)
    flagged = league.event(eid)
    places: dict[str, int] = {}
    if flagged is not None and flagged.places is not None:
        # Star Trek OP Guide 12.4: no clear places; the League Director awards them.
        known = set(person_of.values())
        for j, person in enumerate(flagged.places):
            if person not in known:
                k = next(k for k, ev in enumerate(league.events) if ev.id == eid)
                raise DocumentError(f"league.events[{k}].places[{j}]", f"'{person}' did not play in '{eid}'")
            places[person] = j + 1
    else:
        for line in event_standings(event):
            places[person_of[line.player]] = line.rank
    points = {person: league_points(count, place) for person, place in places.items()}
    complete = bool(event.rounds) and all(m.reported for r in event.rounds for m in r.matches)
    return _Played(eid, event.name, date, sprint, count, places, points, complete)


def league_table(league: League, events: Sequence[Event], ids: Sequence[str] | None = None) -> dict[str, Any]:
    """The league's tables from its events (``topcut-event/1``), as JSON-able data.

    An event's id is ``ids[i]`` when given (e.g. the server's event ids), else the document's ``id``.
    Events the league does not flag are skipped (listed in ``skipped``). See the package docstring
    for the readings of Star Trek OP Guide 12 this makes.
    """
    if ids is not None:
        ids = list(ids)
        if len(ids) != len(events) or not all(isinstance(e, str) and e.strip() for e in ids):
            raise DocumentError("ids", "expected one non-empty event id per event")
    played: list[_Played] = []
    skipped: list[str] = []
    seen: dict[str, int] = {}
    names: dict[str, str] = {}
    for i, event in enumerate(events):
        eid = _event_id(event, i, ids)
        if eid in seen:
            raise DocumentError(f"events[{i}].id", f"'{eid}' is also events[{seen[eid]}]")
        seen[eid] = i
        if league.event(eid) is None:
            skipped.append(eid)
            continue
        played.append(_play(league, event, i, eid))
        for pid, person in _persons(event).items():
            names[person] = event.player(pid).name or person
    order = {s.id: k for k, s in enumerate(league.sprints)}
    played.sort(key=lambda p: (order[p.sprint.id], p.date or "", seen[p.id]))
    names.update(league.names)
    _check_bonus(league, played, seen)

    persons = sorted({p for ev in played for p in ev.places} | set(league.lifetime))
    records = {person: _record(league, played, person, None) for person in persons}
    season_rows = _season_rows(league, played, records, names)
    qualified = _qualified(league, played, names)
    q_persons = [q["person"] for q in qualified]
    playoff_records = [records[p] if p in records else _record(league, played, p, None) for p in q_persons]
    ranking = []
    for rank, (record, values, why) in enumerate(rank_records(playoff_records, PLAYOFF_RANKING, league.seed), 1):
        ranking.append(
            {
                "rank": rank,
                "person": record.person,
                "name": names.get(record.person, record.person),
                "points": record.playoff_points,
                "events": record.playoff_events,
                "tiebreakers": values,
                "decided_by": why,
            }
        )
    lifetime_rows: list[dict[str, Any]] = sorted(
        (
            {
                "person": p,
                "name": names.get(p, p),
                "points": records[p].lifetime_points,
                "before": league.lifetime.get(p, 0),
                "season": records[p].season_points,
                "events": records[p].league_events,
            }
            for p in persons
        ),
        key=lambda row: (-row["points"], row["person"]),
    )
    for rank, row in enumerate(lifetime_rows, 1):
        row["rank"] = rank
    return {
        "league": {
            "id": league.id,
            "name": league.name,
            "director": dict(league.director),
            "season": league.season,
            "schedule": league.schedule,
            "sprints": [_sprint_json(s, played, k) for k, s in enumerate(league.sprints)],
            "qualification": (
                {"per_sprint": league.qualify_per_sprint}
                if league.qualify_per_sprint
                else {"players": list(league.qualified)}
                if league.qualified is not None
                else None
            ),
        },
        "events": [
            {
                "id": ev.id,
                "name": ev.name,
                "date": ev.date,
                "sprint": ev.sprint.id,
                "players": ev.players,
                "complete": ev.complete,
                "points": dict(ev.points),
                "places": dict(ev.places),
            }
            for ev in played
        ],
        "season": season_rows,
        "lifetime": lifetime_rows,
        "bonus": _bonus_rows(league, records, names),
        "playoffs": {
            "qualified": qualified,
            "ranking": ranking,
            "tiebreakers": [{"key": k, "label": get_metric(k).label} for k in PLAYOFF_RANKING],
        },
        "champions_league_seeding": _champions(league, records, names),
        "skipped": skipped,
        "warnings": _warnings(league, played),
    }


def _record(league: League, played: Sequence[_Played], person: str, through: int | None) -> Record:
    """The person's season record; ``through``: only regular sprints up to that index (qualification)."""
    season = playoff_pts = wins = playoff_events = attended = 0
    for ev in played:
        index = next(k for k, s in enumerate(league.sprints) if s.id == ev.sprint.id)
        if through is not None and (index > through or ev.sprint.kind != "regular"):
            continue
        if person not in ev.places:
            continue
        attended += 1
        season += ev.points[person]
        if ev.sprint.kind == "playoff":
            playoff_events += 1
            playoff_pts += ev.points[person]
            wins += ev.places[person] == 1
    return Record(person, season, playoff_pts, wins, playoff_events, attended, league.lifetime.get(person, 0) + season)


def _season_rows(
    league: League, played: Sequence[_Played], records: Mapping[str, Record], names: Mapping[str, str]
) -> list[dict[str, Any]]:
    active = [r for r in records.values() if r.league_events]
    rows = []
    for rank, (record, values, why) in enumerate(rank_records(active, SEASON_RANKING, league.seed), 1):
        by_sprint = {
            s.id: sum(ev.points.get(record.person, 0) for ev in played if ev.sprint.id == s.id) for s in league.sprints
        }
        rows.append(
            {
                "rank": rank,
                "person": record.person,
                "name": names.get(record.person, record.person),
                "points": record.season_points,
                "events": record.league_events,
                "sprints": by_sprint,
                "playoff_points": record.playoff_points,
                "playoff_wins": record.playoff_wins,
                "playoff_events": record.playoff_events,
                "lifetime_points": record.lifetime_points,
                "bonus": sum(b.points for b in league.bonus if b.person == record.person),
                "tiebreakers": values,
                "decided_by": why,
            }
        )
    return rows


def _qualified(league: League, played: Sequence[_Played], names: Mapping[str, str]) -> list[dict[str, Any]]:
    if league.qualified is not None:
        return [{"person": p, "name": names.get(p, p), "sprint": None, "rank": None} for p in league.qualified]
    if league.qualify_per_sprint is None:
        return []  # nothing announced yet: nobody has qualified
    out: list[dict[str, Any]] = []
    taken: set[str] = set()
    persons = sorted({p for ev in played for p in ev.places})
    for index, sprint in enumerate(league.sprints):
        if sprint.kind != "regular":
            continue
        if not any(ev.sprint.id == sprint.id for ev in played):
            continue  # a half with no league event played yet has qualified nobody
        # Star Trek OP Guide 12.6: at the end of each half, rank by that season's league point totals
        # (so far) and qualify the announced number; players already qualified are passed over.
        records = [_record(league, played, p, index) for p in persons]
        ranked = rank_records([r for r in records if r.league_events], SEASON_RANKING, league.seed)
        new = 0
        for rank, (record, _, _) in enumerate(ranked, 1):
            if new == league.qualify_per_sprint:
                break
            if record.person in taken:
                continue
            taken.add(record.person)
            new += 1
            out.append(
                {
                    "person": record.person,
                    "name": names.get(record.person, record.person),
                    "sprint": sprint.id,
                    "rank": rank,
                }
            )
    return out


def _check_bonus(league: League, played: Sequence[_Played], seen: Mapping[str, int]) -> None:
    by_id = {ev.id: ev for ev in played}
    for i, bonus in enumerate(league.bonus):
        ev = by_id.get(bonus.event)
        if ev is not None and bonus.person not in ev.places:
            raise DocumentError(f"league.bonus[{i}].person", f"'{bonus.person}' did not play in '{bonus.event}'")


def _bonus_rows(league: League, records: Mapping[str, Record], names: Mapping[str, str]) -> list[dict[str, Any]]:
    # Star Trek OP Guide 12.5: bonus points only affect this league; they are kept out of the
    # seasonal and lifetime league points.
    rows: dict[str, dict[str, Any]] = {}
    for bonus in league.bonus:
        record = records.get(bonus.person)
        row = rows.setdefault(
            bonus.person,
            {
                "person": bonus.person,
                "name": names.get(bonus.person, bonus.person),
                "points": record.season_points if record else 0,
                "bonus": 0,
                "events": record.league_events if record else 0,
                "entries": [],
            },
        )
        row["bonus"] += bonus.points
        row["entries"].append(
            {"event": bonus.event, "points": bonus.points, "scheme": bonus.scheme, "note": bonus.note}
        )
    out = sorted(rows.values(), key=lambda r: (-(r["points"] + r["bonus"]), r["person"]))
    for rank, row in enumerate(out, 1):
        row["total"] = row["points"] + row["bonus"]
        row["rank"] = rank
    return out


def _champions(league: League, records: Mapping[str, Record], names: Mapping[str, str]) -> list[dict[str, Any]]:
    # Star Trek OP Guide 12.7: at least 100 lifetime points (the director may waive it), seeded by
    # lifetime points; equal lifetime points are ordered by a draw from the league's seed.
    eligible = [
        r
        for r in records.values()
        if r.lifetime_points >= league.champions_minimum or r.person in league.champions_waived
    ]
    eligible.sort(key=lambda r: (-r.lifetime_points, draw_key(league.seed, "champions-league", r.person)))
    return [
        {
            "seed": k,
            "person": r.person,
            "name": names.get(r.person, r.person),
            "lifetime": r.lifetime_points,
            "waived": r.lifetime_points < league.champions_minimum,
        }
        for k, r in enumerate(eligible, 1)
    ]


def _sprint_json(sprint: Sprint, played: Sequence[_Played], index: int) -> dict[str, Any]:
    return {
        "id": sprint.id,
        "kind": sprint.kind,
        "name": sprint.name,
        "from": sprint.start,
        "to": sprint.end,
        "events": [ev.id for ev in played if ev.sprint.id == sprint.id],
        "planned": list(sprint.events) if sprint.events is not None else None,
    }


def _warnings(league: League, played: Sequence[_Played]) -> list[str]:
    out = []
    if league.qualify_per_sprint is None and league.qualified is None:
        out.append("no playoff qualification announced (Star Trek OP Guide 12.2: before the first league event)")
    sizes = SCHEDULES[league.schedule][2]
    for sprint, size in zip(league.sprints, sizes):
        count = len(sprint.events) if sprint.events is not None else sum(ev.sprint.id == sprint.id for ev in played)
        if count > size:
            out.append(
                f"sprint '{sprint.id}' has {count} league events; a {league.schedule} season plans "
                f"{size} (Star Trek OP Guide 12.2)"
            )
    for ev in played:
        if ev.players < 3:
            out.append(f"'{ev.id}' had {ev.players} players: no league points below 3 (Star Trek OP Guide 12.4)")
        if not ev.complete:
            out.append(f"'{ev.id}' is not finished: its places and points may still change")
    return out
