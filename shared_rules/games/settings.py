"""The event settings a game offers an organizer, and the checks and warnings that go with them.

A game declares its settings as data (:class:`Setting` fields in :class:`SettingsSection` groups, each with
its label, hint, kind, limits and the document section behind it) and, where its documents state them, a
function of :class:`SettingsContext` giving sanctioning warnings (:class:`Notice`). The Settings screen draws
whatever the declaration says; the reducer checks every declared key of an ``event.configure`` against it
(:func:`check_changes`), so a refusal names the field in the organizer's words. Nothing here names a game.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

__all__ = [
    "KINDS",
    "Setting",
    "SettingsSection",
    "SettingsContext",
    "Notice",
    "SettingsWarnings",
    "check_changes",
    "fixed_once_paired",
    "find_setting",
    "descriptor",
    "structure_setting",
    "rounds_setting",
    "cut_setting",
    "round_minutes_setting",
    "date_setting",
    "best_of_settings",
    "STANDINGS_POLICY",
    "GENERIC_SECTIONS",
]

#: The kinds of input a setting is: a whole number, one of a list, yes/no, a date, free text, a group of
#: settings kept together in one object (``settings.rating``), a table of whole numbers by word (``points``:
#: outcome → points, its ``choices`` the words offered) or an ordered list of some of its ``choices`` (``order``:
#: tiebreaker keys).
KINDS = ("number", "choice", "toggle", "date", "text", "group", "points", "order")
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}\Z")
_WORD = re.compile(r"[a-z][a-z0-9-]{0,39}\Z")
_TEXT_MAX = 200


@dataclass(frozen=True, slots=True, kw_only=True)
class Setting:
    """One event setting: ``settings[key]`` (inside its group's object for a group's fields)."""

    key: str
    label: str
    kind: str
    hint: str = ""
    #: The document section the setting comes from (shown beside it).
    source: str = ""
    minimum: int | None = None
    maximum: int | None = None
    #: ``(value, label)`` pairs of a choice (values may be numbers, text or objects).
    choices: tuple[tuple[Any, str], ...] = ()
    #: A choice that also keeps a value not listed (checked by the game's own rules instead).
    open_choice: bool = False
    #: What applies while the setting is not given, in words ("the document's table").
    unset: str = ""
    #: A group's fields.
    fields: tuple[Setting, ...] = ()
    #: Not to change once round 1 is paired: the document section that says so (refused by the reducer).
    fixed_once_paired: str = ""
    #: Number settings whose value must be 0 or at least this (a cut of 1 player is no cut).
    zero_or_at_least: int | None = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"setting {self.key}: kind {self.kind!r} is not one of {', '.join(KINDS)}")

    def problem(self, value: Any) -> str | None:
        """What is wrong with ``value`` for this setting, in the organizer's words, or None."""
        if self.kind == "number":
            return self._number_problem(value)
        if self.kind == "choice":
            if self.open_choice or any(value == v for v, _ in self.choices):
                return None
            return f"choose one of: {', '.join(label for _, label in self.choices)}"
        if self.kind == "toggle":
            return None if isinstance(value, bool) else "answer yes or no"
        if self.kind == "date":
            return None if _is_date(value) else "give a date as YYYY-MM-DD (for example 2026-03-14)"
        if self.kind == "text":
            if not isinstance(value, str):
                return "give it as text"
            return None if len(value) <= _TEXT_MAX else f"keep it to {_TEXT_MAX} characters"
        if self.kind == "points":
            return self._points_problem(value)
        if self.kind == "order":
            return self._order_problem(value)
        if not isinstance(value, Mapping):
            return "expected its fields together"
        for sub in self.fields:
            if sub.key in value and value[sub.key] is not None:
                wrong = sub.problem(value[sub.key])
                if wrong is not None:
                    return f"{sub.label}: {wrong}"
        return None

    def _label_of(self, key: Any) -> str:
        return next((label for v, label in self.choices if v == key), str(key))

    def _points_problem(self, value: Any) -> str | None:
        if not isinstance(value, Mapping) or not value:
            return "give points for at least one outcome"
        for key, points in value.items():
            if not isinstance(key, str) or not _WORD.match(key):
                return f"'{key}' is not an outcome word (lower-case letters, digits and hyphens)"
            if not self.open_choice and not any(key == v for v, _ in self.choices):
                return f"'{key}' is not an outcome here: use {', '.join(label for _, label in self.choices)}"
            wrong = self._number_problem(points)
            if wrong is not None:
                return f"{self._label_of(key)}: {wrong}"
        return None

    def _order_problem(self, value: Any) -> str | None:
        if not isinstance(value, list) or not value:
            return "choose at least one, in order"
        seen: set[Any] = set()
        for key in value:
            if not any(key == v for v, _ in self.choices):
                return f"'{key}' is not one of: {', '.join(label for _, label in self.choices)}"
            if key in seen:
                return f"{self._label_of(key)} is listed twice: list each once"
            seen.add(key)
        return None

    def _number_problem(self, value: Any) -> str | None:
        low, high = self.minimum, self.maximum
        span = (
            f"from {low} to {high}"
            if low is not None and high is not None
            else f"of at least {low}"
            if low is not None
            else f"of at most {high}"
            if high is not None
            else ""
        )
        if isinstance(value, bool) or not isinstance(value, int):
            return f"give a whole number {span}".rstrip()
        if (low is not None and value < low) or (high is not None and value > high):
            return f"{value} is out of range: give a whole number {span}"
        least = self.zero_or_at_least
        if least is not None and 0 < value < least:
            return f"{value} is not allowed: give 0 for none, or at least {least}"
        return None

    def to_json(self) -> dict[str, Any]:
        """The screen's descriptor of this setting (plain JSON)."""
        out: dict[str, Any] = {"key": self.key, "label": self.label, "kind": self.kind, "hint": self.hint}
        if self.source:
            out["source"] = self.source
        if self.minimum is not None:
            out["min"] = self.minimum
        if self.maximum is not None:
            out["max"] = self.maximum
        if self.choices:
            out["choices"] = [{"value": v, "label": label} for v, label in self.choices]
        if self.open_choice:
            out["open"] = True
        if self.unset:
            out["unset"] = self.unset
        if self.fields:
            out["fields"] = [f.to_json() for f in self.fields]
        if self.fixed_once_paired:
            out["fixed_once_paired"] = self.fixed_once_paired
        return out


@dataclass(frozen=True, slots=True, kw_only=True)
class SettingsSection:
    """A titled group of settings on the screen (Structure, Time, Bracket, Rating…)."""

    title: str
    fields: tuple[Setting, ...]
    hint: str = ""

    def to_json(self) -> dict[str, Any]:
        """The section as the screen reads it."""
        return {"title": self.title, "hint": self.hint, "fields": [f.to_json() for f in self.fields]}


@dataclass(frozen=True, slots=True, kw_only=True)
class SettingsContext:
    """What a game's sanctioning warnings look at: the settings as they would be, and the event's progress."""

    ruleset: str
    settings: Mapping[str, Any]
    before: Mapping[str, Any]
    #: Players registered and not dropped before round 1 (Doomtown 5.B: those are the attendance).
    players: int
    #: Swiss rounds paired so far (0: round 1 not paired yet).
    rounds_paired: int
    #: The event's seed (a game's secret round time is drawn from it).
    seed: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class Notice:
    """A warning or a note shown beside a setting: ``level`` is "warning" or "info"."""

    text: str
    source: str = ""
    key: str = ""
    level: str = "warning"

    def to_json(self) -> dict[str, str]:
        """The notice as the screen reads it."""
        return {"text": self.text, "source": self.source, "key": self.key, "level": self.level}


#: A game's sanctioning warnings and notes for the settings in hand.
SettingsWarnings = Callable[[SettingsContext], list[Notice]]


def _is_date(value: Any) -> bool:
    if not isinstance(value, str) or not _DATE.match(value):
        return False
    try:
        date.fromisoformat(value)
    except ValueError:
        return False
    return True


def find_setting(sections: Sequence[SettingsSection], key: str) -> Setting | None:
    """The declared top-level setting ``key``, or None.

    >>> s = SettingsSection(title="T", fields=(Setting(key="rounds", label="Swiss rounds", kind="number"),))
    >>> find_setting([s], "rounds").label
    'Swiss rounds'
    """
    for section in sections:
        for f in section.fields:
            if f.key == key:
                return f
    return None


def check_changes(sections: Sequence[SettingsSection], changes: Mapping[str, Any]) -> str | None:
    """The first declared setting in ``changes`` with a wrong value, as "<label>: <what to do>", or None.

    ``None`` values delete a setting and are always allowed here; keys the game does not declare are left to
    its own rules.

    >>> s = SettingsSection(title="T", fields=(Setting(key="rounds", label="Swiss rounds", kind="number",
    ...     minimum=1, maximum=20),))
    >>> check_changes([s], {"rounds": 0})
    'Swiss rounds: 0 is out of range: give a whole number from 1 to 20'
    >>> check_changes([s], {"rounds": None, "other": "x"}) is None
    True
    """
    for key, value in changes.items():
        declared = find_setting(sections, key)
        if declared is None or value is None:
            continue
        wrong = declared.problem(value)
        if wrong is not None:
            return f"{declared.label}: {wrong}"
    return None


def fixed_once_paired(
    sections: Sequence[SettingsSection], before: Mapping[str, Any], changes: Mapping[str, Any]
) -> str | None:
    """A refusal for a setting the documents fix once round 1 is paired, or None (call it only then)."""
    for key, value in changes.items():
        declared = find_setting(sections, key)
        if declared is None or not declared.fixed_once_paired:
            continue
        if before.get(key) != value:
            return (
                f"{declared.label} cannot change once round 1 is paired ({declared.fixed_once_paired}: "
                "announced before round 1, then fixed)"
            )
    return None


def descriptor(sections: Sequence[SettingsSection]) -> dict[str, Any]:
    """The whole settings descriptor a screen reads (``rules_api.ruleset_info()["settings"]``)."""
    return {"sections": [s.to_json() for s in sections]}


# ---------------------------------------------------------------- settings many games share


def structure_setting(names: Sequence[str], source: str, labels: Mapping[str, str] | None = None) -> Setting:
    """``settings.structure``: which of the document's tables sets the rounds and cut."""
    labels = labels or {}
    return Setting(
        key="structure",
        label="Structure",
        kind="choice",
        hint="The document's table of Swiss rounds and cut by the number of players; the table for this "
        "event's players is shown beside it.",
        source=source,
        choices=tuple((n, labels.get(n, n.replace("-", " ").capitalize())) for n in names),
        unset=labels.get(names[0], names[0].replace("-", " ").capitalize()),
    )


def rounds_setting(source: str, *, fixed: str = "", maximum: int = 30) -> Setting:
    """``settings.rounds``: the Swiss rounds, else the document's table for the players who start round 1."""
    return Setting(
        key="rounds",
        label="Swiss rounds",
        kind="number",
        hint="Leave empty to follow the document's table for the players who start round 1.",
        source=source,
        minimum=1,
        maximum=maximum,
        unset="the document's table",
        fixed_once_paired=fixed,
    )


def cut_setting(source: str, *, hint: str = "") -> Setting:
    """``settings.cut``: the players in the elimination bracket (0: no cut), else the document's table."""
    return Setting(
        key="cut",
        label="Top cut (players)",
        kind="number",
        hint=hint
        or "Players in the elimination bracket after Swiss; 0 for no cut. Leave empty to follow the document's table.",
        source=source,
        minimum=0,
        maximum=1024,
        zero_or_at_least=2,
        unset="the document's table",
    )


def round_minutes_setting(minutes: int | None, source: str, hint: str = "") -> Setting:
    """``settings.round_minutes``: the round length the Start round form offers (and a start without one uses)."""
    return Setting(
        key="round_minutes",
        label="Round length (minutes)",
        kind="number",
        hint=(hint + " " if hint else "")
        + "The Start round form offers this length; the judge can still change it for one round.",
        source=source,
        minimum=1,
        maximum=600,
        unset=f"{minutes} minutes (the document)" if minutes else "50 minutes",
    )


def date_setting() -> Setting:
    """``settings.date``: the day the event is played."""
    return Setting(
        key="date",
        label="Event date",
        kind="date",
        hint="The day the event is played, as the official reports and the ratings read it.",
    )


def best_of_settings(source: str, *, best: int | None, final: int | None) -> tuple[Setting, Setting]:
    """``settings.best_of`` and ``settings.final_best_of``: games per elimination match (1 or 3)."""
    choices = ((1, "Best of one"), (3, "Best of three"))

    def said(value: int | None) -> str:
        return f"best of {value} (the document)" if value else "not fixed by the document: best of one"

    return (
        Setting(
            key="best_of",
            label="Elimination matches",
            kind="choice",
            hint="Games per elimination match (the final too, unless set below).",
            source=source,
            choices=choices,
            unset=said(best),
        ),
        Setting(
            key="final_best_of",
            label="Final",
            kind="choice",
            hint="Games in the final match.",
            source=source,
            choices=choices,
            unset=said(final),
        ),
    )


#: ``settings.standings_policy``: when players, the public page and the big screen see standings
#: (shared_rules/state/published.py). Every game offers it; the values are published.POLICIES.
STANDINGS_POLICY = Setting(
    key="standings_policy",
    label="Players see standings",
    kind="choice",
    hint="When players' phones, the public page and the big screen show standings. Mid-round standings rank "
    "players by whoever finished first.",
    source="project decision (TOM and the Companion app post standings after each complete round)",
    choices=(
        ("after-round", "After each round is complete"),
        ("live", "Live, as results come in"),
        ("after-swiss", "Only after the Swiss rounds"),
        ("end", "Only at the end of the event"),
    ),
    unset="after each round is complete",
)

#: The settings every game offers after its own (games/base.py adds them to each ``Game.settings_ui``).
GENERIC_SECTIONS: tuple[SettingsSection, ...] = (SettingsSection(title="Standings", fields=(STANDINGS_POLICY,)),)
