"""Pokémon TOP 3.1.1 age divisions: the event's season, each player's division, and what stops pairing.

Readings (the TOP gives the 2019 divisions only: "Junior (born in 2008 or
later), Senior (born in 2004, 2005, 2006, or 2007), and Masters (born in 2003
or earlier)"; RULES.md makes them season-relative):

- The season is ``settings.season``, else the season of the event's date
  (``date`` at the top of the document, else ``settings.date``; YYYY-MM-DD).
  ``season`` numbers the July-June season by the calendar year it began in,
  as the TOM importer established on TOM's own saves (``tom/importer.py``,
  "Season"): 2026-07-01 … 2027-06-30 is season 2026. An event made with
  ``event.create`` gets ``settings.season`` from its ``date`` setting, else
  from the day of the operation's ``at`` (:func:`creation_settings`), so the
  server and every tablet derive the same season from the log, never from a
  clock, and the organizer sees it in the settings. A document imported on
  the server without a season or date, with birth years, gets the season of
  the day it is imported (:func:`import_settings`).
- Divisions by birth year against the season (:func:`division_for`); a
  player's ``division`` field is the organizer's (or TOM's) word for it.
- Pairing a Swiss round (3.1.1, 3.1.2) is refused, with every player named,
  when the divisions cannot be told for everyone present: when some players
  have a birth year (or division) and others have neither, when players have
  a birth year but the event has no season, when a birth year falls after the
  season (no division holds a player born after the event), or when a
  player's ``division`` is not the one their birth year gives. An event where
  nobody has a birth year or division pairs everyone as Masters (one pool), as
  before. Single Elimination uses no ages (3.2.1) and is never refused.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from ...errors import RulesError

if TYPE_CHECKING:  # pragma: no cover
    from ...event.model import Event, Player

__all__ = [
    "DIVISIONS",
    "DIVISION_LABELS",
    "SEASON_START_MONTH",
    "Season",
    "DivisionsUnknown",
    "season_for",
    "season_label",
    "division_for",
    "division_bands",
    "player_division",
    "event_season",
    "division_problems",
    "check_divisions",
    "creation_settings",
    "division_view",
    "import_settings",
]

#: Pokémon TOP 3.1.1 divisions, in the order standings list them (TOM: Masters, Seniors, Juniors).
DIVISIONS: tuple[str, ...] = ("masters", "senior", "junior")
DIVISION_LABELS: Mapping[str, str] = {"masters": "Masters", "senior": "Senior", "junior": "Junior"}
#: A Play! Pokémon season runs July-June (the TOM importer's reading, checked on TOM's saves).
SEASON_START_MONTH = 7
_DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})\Z")
#: At most this many players are named in one refusal; the rest are counted.
_NAMED = 8


class DivisionsUnknown(RulesError):
    """Pairing refused: some present players' age divisions cannot be told (TOP 3.1.1)."""

    code = "divisions-unknown"


@dataclass(frozen=True, slots=True)
class Season:
    """The season an event's divisions are reckoned in, and where it came from."""

    year: int
    #: ``settings.season``, ``date`` or ``settings.date``.
    basis: str

    @property
    def label(self) -> str:
        """The season as people say it.

        >>> Season(2026, "date").label
        '2026-27'
        """
        return season_label(self.year)


def season_label(season: int) -> str:
    """``2026`` -> ``'2026-27'`` (July 2026 to June 2027).

    >>> season_label(1999)
    '1999-00'
    """
    return f"{season}-{(season + 1) % 100:02d}"


def season_for(iso_date: str) -> int:
    """The season of a date (YYYY-MM-DD): the year, or the year before for January-June.

    >>> [season_for(d) for d in ("2026-06-30", "2026-07-01", "2027-01-15")]
    [2025, 2026, 2026]
    """
    year, month = int(iso_date[:4]), int(iso_date[5:7])
    return year if month >= SEASON_START_MONTH else year - 1


def division_for(birth_year: int, season: int) -> str:
    """Pokémon TOP 3.1.1 with RULES.md's season-relative Decision (the document's example is 2019).

    >>> [division_for(y, 2019) for y in (2003, 2004, 2007, 2008)]
    ['masters', 'senior', 'senior', 'junior']
    """
    if birth_year <= season - 16:
        return "masters"
    if birth_year >= season - 11:
        return "junior"
    return "senior"


def division_bands(season: int) -> list[dict[str, Any]]:
    """Each division's birth years in a season (``from``/``to`` inclusive; None: open), oldest first.

    >>> [(b["division"], b["from"], b["to"]) for b in division_bands(2019)]
    [('masters', None, 2003), ('senior', 2004, 2007), ('junior', 2008, 2020)]
    """
    return [
        {"division": "masters", "label": "Masters", "from": None, "to": season - 16},
        {"division": "senior", "label": "Senior", "from": season - 15, "to": season - 12},
        # Nobody can be born after the season ends (June of the following year).
        {"division": "junior", "label": "Junior", "from": season - 11, "to": season + 1},
    ]


def player_division(player: Player, season: int | None) -> str:
    """The player's ``division`` field, else by birth year and season, else Masters."""
    given = player.extra.get("division")
    if isinstance(given, str) and given in DIVISIONS:
        return given
    if player.birth_year is not None and season is not None:
        return division_for(player.birth_year, season)
    return "masters"


def _date_of(value: Any) -> str | None:
    if isinstance(value, str) and (m := _DATE.match(value)) and 1 <= int(m.group(2)) <= 12:
        return value
    return None


def event_season(event: Event) -> Season | None:
    """``settings.season``, else the season of the event's date; None when the event gives neither."""
    given = event.settings.get("season")
    if isinstance(given, int) and not isinstance(given, bool):
        return Season(given, "settings.season")
    for basis, value in (("date", event.extra.get("date")), ("settings.date", event.settings.get("date"))):
        date = _date_of(value)
        if date is not None:
            return Season(season_for(date), basis)
    return None


def event_season_year(event: Event) -> int | None:
    """The season's year (see :func:`event_season`)."""
    season = event_season(event)
    return season.year if season is not None else None


def _names(players: Sequence[Player], describe: Callable[[Player], str] | None = None) -> str:
    shown = [describe(p) if describe else p.name for p in players[:_NAMED]]
    more = len(players) - len(shown)
    return ", ".join(shown) + (f" and {more} more" if more > 0 else "")


def division_problems(event: Event, present: Sequence[str]) -> list[str]:
    """What keeps the present players' divisions from being known (empty: pairing may go on)."""
    by_id = {p.id: p for p in event.players}
    players = [by_id[pid] for pid in present if pid in by_id]
    given = [p for p in players if p.birth_year is not None or isinstance(p.extra.get("division"), str)]
    if not given:
        return []  # nobody's age is recorded: one pool, everyone Masters (as before)
    season = event_season(event)
    problems = []
    known = {p.id for p in given}
    missing = [p for p in players if p.id not in known]
    if missing:
        problems.append(
            f"{len(missing)} of {len(players)} players {'has' if len(missing) == 1 else 'have'} no birth year "
            f"({_names(missing)}): "
            "enter each one's birth year in the roster on the Players screen"
        )
    by_year = [p for p in given if not isinstance(p.extra.get("division"), str)]
    if season is None:
        if by_year:
            problems.append(
                f"{_names(by_year)} {'has' if len(by_year) == 1 else 'have'} a birth year but the event has no season "
                "and no date to tell the divisions by: set the event's season (settings.season) or its date"
            )
        return problems
    late = [p for p in given if p.birth_year is not None and p.birth_year > season.year + 1]
    unborn = {p.id for p in late}
    if late:
        problems.append(
            f"{_names(late, lambda p: f'{p.name} (born {p.birth_year})')}: born after the "
            f"{season.label} season, so in no division: correct the birth year"
        )
    disagree = [
        p
        for p in given
        if p.id not in unborn
        and p.birth_year is not None
        and isinstance(p.extra.get("division"), str)
        and p.extra["division"] != division_for(p.birth_year, season.year)
    ]
    if disagree:

        def entered(p: Player) -> str:
            told = DIVISION_LABELS.get(p.extra["division"], p.extra["division"])
            by_birth = DIVISION_LABELS[division_for(p.birth_year or 0, season.year)]
            return f"{p.name} (entered as {told}, born {p.birth_year}: {by_birth})"

        problems.append(
            f"{_names(disagree, entered)}: the division does not match the birth year in the {season.label} "
            "season: correct the birth year or the division"
        )
    return problems


def check_divisions(event: Event, present: Sequence[str], round_number: int) -> None:
    """Raise DivisionsUnknown, for the organizer, when the present players' divisions cannot all be told."""
    problems = division_problems(event, present)
    if problems:
        raise DivisionsUnknown(
            f"round {round_number} cannot be paired: Pokémon age divisions (TOP 3.1.1) pair every player in their "
            f"division, and {'; '.join(problems)}. Then pair again."
        )


def creation_settings(settings: Mapping[str, Any], at_ms: int) -> dict[str, Any]:
    """The settings an event starts with: ``season`` from ``settings.date``, else from the day of ``at_ms`` (UTC).

    >>> creation_settings({}, 1_793_000_000_000)  # 2026-10-26
    {'season': 2026}
    >>> creation_settings({"date": "2027-03-01"}, 0), creation_settings({"season": 2019}, 0)
    ({'date': '2027-03-01', 'season': 2026}, {'season': 2019})
    """
    out = dict(settings)
    if "season" not in out:
        date = _date_of(out.get("date")) or datetime.fromtimestamp(at_ms / 1000, tz=UTC).strftime("%Y-%m-%d")
        out["season"] = season_for(date)
    return out


def division_view(event: Event) -> dict[str, Any]:
    """What the Players screen shows: the season, each division's birth years, each player's division, problems.

    ``players`` maps every player to their division, or None while it cannot be told (no birth year, or no
    season); ``problems`` are what would stop the next Swiss round being paired (players still in the event);
    ``note`` says so when nobody's age is recorded (everyone is one Masters division); ``counts`` are
    ``[division or None, players still in the event]``, oldest division first.
    """
    season = event_season(event)
    players: dict[str, str | None] = {}
    for p in event.players:
        given = p.extra.get("division")
        if isinstance(given, str) and given in DIVISIONS:
            players[p.id] = given
        elif p.birth_year is not None and season is not None:
            players[p.id] = division_for(p.birth_year, season.year)
        else:
            players[p.id] = None
    present = [p for p in event.players if p.dropped_after is None]
    active = [p.id for p in present]
    note = None
    if not any(p.birth_year is not None or isinstance(p.extra.get("division"), str) for p in present):
        note = "No player has a birth year yet: without them everyone is paired and placed as one Masters division."
    return {
        "season": None if season is None else {"year": season.year, "label": season.label, "basis": season.basis},
        "bands": division_bands(season.year) if season is not None else [],
        "labels": dict(DIVISION_LABELS),
        "players": players,
        "problems": division_problems(event, active),
        "note": note,
        # Players still in the event per division (Age-Separated needs 6 in each, 3.1.1), None: not told yet.
        "counts": [[d, sum(1 for pid in active if players[pid] == d)] for d in (*DIVISIONS, None)],
    }


def import_settings(event: Event, at_ms: int) -> dict[str, Any] | None:
    """An imported event's settings with the season of the day it is imported, when birth years need one.

    None (keep the document as it is) when the event has a season or a date, or when no player's division
    hangs on a birth year; otherwise the settings :func:`creation_settings` gives for ``at_ms``.
    """
    if event_season(event) is not None:
        return None
    if not any(p.birth_year is not None and not isinstance(p.extra.get("division"), str) for p in event.players):
        return None
    return creation_settings(event.settings, at_ms)
