"""Deck lists: reading a typed or pasted list, the checks that need no card database, the lock, publication
and the seeded pick of players for a deck check.

Generic: handed the game's :class:`~.model.DeckLists` and the event's settings, never naming a game.
A list is ``{section key: text}``, the text one line per title (``3 Name``; ``3x Name``; a name alone
counts one) or, in a points section, one unit per line with its cost (``5 Cad Bane``). Blank lines and
lines starting with ``#`` or ``//`` are skipped.

The organizer's choices are ``settings.decklists``::

    {"required": true, "deadline": 1718000000000, "publish": "never" | "top-cut" | "all",
     "min_cards": 60, "max_cards": 60, "copies": 3, "points": 20}

``deadline`` (ms) absent: the lists lock when round 1 starts (Shatterpoint "Strike Team": no change
"once the event begins"); ``min_cards``/``max_cards``/``copies`` apply to the game's main section,
``points`` to each points section (a squad). Each is optional.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import RulesError
from ..seeded import Rng
from .model import GENERIC_DECKLISTS, DeckLists, ListSection

__all__ = [
    "DeckLists",
    "ListSection",
    "GENERIC_DECKLISTS",
    "PUBLISH",
    "ListSettings",
    "Line",
    "settings_of",
    "parse_lines",
    "check_list",
    "lock_at",
    "pick_for_check",
    "is_empty",
    "published_players",
]

#: Who sees the lists once the event is over (never before, unless the organizer says "all" after it).
PUBLISH = ("never", "top-cut", "all")
_INT_KEYS = ("deadline", "min_cards", "max_cards", "copies", "points")
_LINE = re.compile(r"^(\d{1,4})\s*[xX×]?\s+(\S.*)$")
_SPACE = re.compile(r"\s+")


@dataclass(frozen=True, slots=True)
class ListSettings:
    """The organizer's deck-list choices for one event (``settings.decklists``)."""

    required: bool = False
    deadline: int | None = None
    publish: str = "never"
    min_cards: int | None = None
    max_cards: int | None = None
    copies: int | None = None
    points: int | None = None


def settings_of(settings: Mapping[str, Any] | None) -> ListSettings:
    """The event's ``settings.decklists``, checked; RulesError naming the bad field.

    >>> settings_of({"decklists": {"required": True, "publish": "all"}}).publish
    'all'
    >>> settings_of({"decklists": {"publish": "now"}})
    Traceback (most recent call last):
    ...
    shared_rules.errors.RulesError: settings.decklists.publish: 'now' is not one of never, top-cut, all
    """
    raw = (settings or {}).get("decklists")
    if raw is None:
        return ListSettings()
    if not isinstance(raw, Mapping):
        raise RulesError("settings.decklists: expected an object")
    known = {"required", "publish", *_INT_KEYS}
    for key in raw:
        if key not in known:
            raise RulesError(f"settings.decklists.{key}: not a deck-list setting (use {', '.join(sorted(known))})")
    required = raw.get("required", False)
    if not isinstance(required, bool):
        raise RulesError("settings.decklists.required: expected true or false")
    publish = raw.get("publish", "never")
    if publish not in PUBLISH:
        raise RulesError(f"settings.decklists.publish: {publish!r} is not one of {', '.join(PUBLISH)}")
    values: dict[str, int | None] = {}
    for key in _INT_KEYS:
        value = raw.get(key)
        if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 0):
            raise RulesError(f"settings.decklists.{key}: expected a whole number of at least 0")
        values[key] = value
    low, high = values["min_cards"], values["max_cards"]
    if low is not None and high is not None and low > high:
        raise RulesError(f"settings.decklists: min_cards {low} is more than max_cards {high}")
    return ListSettings(required=required, publish=str(publish), **values)


@dataclass(frozen=True, slots=True)
class Line:
    """One read line: its number in the section's text, quantity (or points), and name."""

    number: int
    quantity: int
    name: str

    @property
    def title(self) -> str:
        """The name as compared for duplicates and copies (case and spacing ignored)."""
        return _SPACE.sub(" ", self.name).strip().casefold()


def parse_lines(text: str, *, points: bool = False) -> tuple[list[Line], list[str]]:
    """The lines of one section's text, and the lines that cannot be read (in words); ``points``: the
    number is a unit's point cost, which may be 0 (a squad's primary unit).

    >>> lines, bad = parse_lines("3 Data\\n2x  Worf\\nOdo\\n# comment\\n0 Riker")
    >>> [(l.quantity, l.name) for l in lines], bad
    ([(3, 'Data'), (2, 'Worf'), (1, 'Odo')], ["line 5: '0 Riker': a quantity of 0"])
    """
    lines: list[Line] = []
    bad: list[str] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        row = raw.strip()
        if not row or row.startswith(("#", "//")):
            continue
        found = _LINE.match(row)
        if found is None:
            lines.append(Line(number, 1, row))
            continue
        quantity = int(found.group(1))
        if quantity == 0 and not points:
            bad.append(f"line {number}: '{row}': a quantity of 0")
            continue
        lines.append(Line(number, quantity, found.group(2).strip()))
    return lines, bad


def is_empty(sections: Mapping[str, Any] | None) -> bool:
    """Whether a list holds no line at all.

    >>> is_empty({"deck": "  \\n"}), is_empty({"deck": "1 Data"})
    (True, False)
    """
    return not any(isinstance(text, str) and parse_lines(text, points=True)[0] for text in (sections or {}).values())


def _problem(code: str, section: ListSection | None, message: str, source: str = "") -> dict[str, Any]:
    return {"code": code, "section": section.key if section else None, "message": message, "source": source}


def _count_problems(
    section: ListSection, total: int, low: int | None, high: int | None, source: str, unit: str
) -> list[dict[str, Any]]:
    """Too few or too many, against the document's or the organizer's counts."""
    if low is not None and low == high and total != low:
        return [_problem("count", section, f"{section.label}: {total} {unit}; it must be exactly {low}", source)]
    if low is not None and total < low:
        return [_problem("count", section, f"{section.label}: {total} {unit}; at least {low} are needed", source)]
    if high is not None and total > high:
        return [_problem("count", section, f"{section.label}: {total} {unit}; at most {high} are allowed", source)]
    return []


def _section_problems(spec: DeckLists, section: ListSection, text: str, config: ListSettings) -> list[dict[str, Any]]:
    lines, bad = parse_lines(text, points=section.points)
    out = [_problem("unreadable", section, f"{section.label}: {b}") for b in bad]
    if not lines:
        if section.required:
            out.append(_problem("missing-section", section, f"{section.label}: empty", section.source))
        return out
    seen: dict[str, Line] = {}
    for line in lines:
        first = seen.get(line.title)
        if first is not None:
            out.append(
                _problem(
                    "duplicate-line",
                    section,
                    f"{section.label}: '{line.name}' is on lines {first.number} and {line.number}; "
                    "put it on one line with the total",
                )
            )
        else:
            seen[line.title] = line
    if section.points:
        points = sum(line.quantity for line in lines)
        if config.points is not None and points > config.points:
            out.append(
                _problem(
                    "points",
                    section,
                    f"{section.label}: {points} points; the organizer allows at most {config.points}",
                    "organizer",
                )
            )
        return out
    total = sum(line.quantity for line in lines)
    low, high, source = section.minimum, section.maximum, section.source
    copies, copies_source = section.copies, section.source
    if section.key == spec.main:
        if config.min_cards is not None or config.max_cards is not None:
            low, high, source = config.min_cards, config.max_cards, "organizer"
        if config.copies is not None:
            copies, copies_source = config.copies, "organizer"
    out.extend(_count_problems(section, total, low, high, source, "cards"))
    if copies is not None:
        titles: dict[str, int] = {}
        for line in lines:
            titles[line.title] = titles.get(line.title, 0) + line.quantity
        for line in seen.values():
            if titles[line.title] > copies:
                out.append(
                    _problem(
                        "copies",
                        section,
                        f"{section.label}: {titles[line.title]} copies of '{line.name}'; at most {copies} of a title",
                        copies_source,
                    )
                )
    return out


def check_list(
    spec: DeckLists, settings: Mapping[str, Any] | None, sections: Mapping[str, Any] | None
) -> list[dict[str, Any]]:
    """What is wrong with a list, without a card database: each ``{code, section, message, source}``.

    Codes: ``unknown-section``, ``unreadable``, ``missing-section``, ``duplicate-line``, ``count``,
    ``copies``, ``points``. ``source`` names the document section, or ``organizer`` for the event's
    settings.

    >>> spec = DeckLists(sections=(ListSection(key="plot", label="Plot deck", minimum=7, maximum=7,
    ...     source="AGoT Deck Building"),), main="plot")
    >>> [p["message"] for p in check_list(spec, {}, {"plot": "6 Wildfire"})]
    ['Plot deck: 6 cards; it must be exactly 7']
    """
    config = settings_of(settings)
    given = dict(sections or {})
    out: list[dict[str, Any]] = []
    for key in given:
        if spec.section(key) is None:
            out.append(_problem("unknown-section", None, f"'{key}' is not a section of this game's {spec.noun}"))
    for section in spec.sections:
        text = given.get(section.key)
        out.extend(_section_problems(spec, section, text if isinstance(text, str) else "", config))
    return out


def lock_at(settings: Mapping[str, Any] | None, rounds: Sequence[Mapping[str, Any]]) -> int | None:
    """When the lists lock (ms): the organizer's deadline, else the start of round 1 (None: not yet known).

    >>> lock_at({}, [{"timer": {"started_at": 5000}}]), lock_at({"decklists": {"deadline": 9}}, [])
    (5000, 9)
    """
    config = settings_of(settings)
    if config.deadline is not None:
        return config.deadline
    for rnd in rounds:
        timer = rnd.get("timer")
        if isinstance(timer, Mapping) and isinstance(timer.get("started_at"), int):
            return int(timer["started_at"])
        if rnd.get("status") in ("started", "complete"):
            return 0  # started without a clock (an imported round): locked since the event began
    return None


def pick_for_check(seed: str, round_number: int, draw: int, candidates: Iterable[str], count: int) -> list[str]:
    """``count`` players picked for a deck check, the same on every device for the same seed, round and draw.

    >>> pick_for_check("s", 1, 0, ["a", "b", "c"], 2) == pick_for_check("s", 1, 0, ["c", "b", "a"], 2)
    True
    """
    pool = sorted(set(candidates))
    return Rng(seed, "deck-check", round_number, draw).shuffled(pool)[: max(0, count)]


def published_players(
    settings: Mapping[str, Any] | None, closed: bool, rounds: Sequence[Mapping[str, Any]], ranking: Sequence[str]
) -> tuple[list[str], str]:
    """Whose lists anyone may read now, and why (never before the event is over).

    ``top-cut``: the players of the elimination rounds; an event without a cut publishes its first two
    (the 1st and 2nd place lists a TO submits, Doomtown Floor Rules 2.A). ``ranking``: the final standings.

    >>> published_players({"decklists": {"publish": "all"}}, False, [], ["a", "b"])
    ([], 'Lists are published when the event is over.')
    >>> published_players({"decklists": {"publish": "top-cut"}}, True, [], ["a", "b", "c"])[0]
    ['a', 'b']
    """
    config = settings_of(settings)
    if config.publish == "never":
        return [], "The organizer does not publish the lists."
    if not closed:
        return [], "Lists are published when the event is over."
    if config.publish == "all":
        return list(ranking), "Every list, published after the event."
    cut: list[str] = []
    for rnd in rounds:
        if rnd.get("stage") == "elimination":
            for match in rnd.get("matches") or []:
                cut.extend(pid for pid in match.get("players") or [] if pid not in cut)
    if not cut:
        return list(ranking[:2]), "The first two lists, published after the event (no cut)."
    order = {pid: i for i, pid in enumerate(ranking)}
    return sorted(cut, key=lambda pid: order.get(pid, len(order))), "The top cut's lists, published after the event."
