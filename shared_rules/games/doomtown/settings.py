"""What the Settings screen offers a Doomtown TO, and the Floor Rules' warnings about it (3.A, 5.A, 5.B, 5.C)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from ..settings import (
    Notice,
    Setting,
    SettingsContext,
    SettingsSection,
    best_of_settings,
    cut_setting,
    date_setting,
    round_minutes_setting,
    rounds_setting,
    structure_setting,
)
from . import ruleset, structures

__all__ = ["SECTIONS", "ROUNDUP_MINIMUMS", "warnings"]

#: Doomtown Floor Rules 5.A: attendance minimums by kind of sanctioned roundup (players who start round 1).
ROUNDUP_MINIMUMS: Mapping[str, tuple[str, int]] = {
    "convention": ("Official Convention, Badge or Destination roundup", 8),
    "season": ("Official Organized Play Season or Social roundup", 4),
}

SECTIONS: tuple[SettingsSection, ...] = (
    SettingsSection(
        title="Event",
        fields=(
            date_setting(),
            Setting(
                key="roundup",
                label="Kind of roundup",
                kind="choice",
                hint="Sets the attendance minimum for sanctioning: 8 players, or 4 for Season and Social roundups.",
                source="Doomtown Floor Rules 5.A",
                choices=tuple((key, label) for key, (label, _) in ROUNDUP_MINIMUMS.items()),
                unset="not given",
            ),
        ),
    ),
    SettingsSection(
        title="Structure",
        hint="Announce the rounds at or before the start of round 1: once announced they cannot change (5.B).",
        fields=(
            # The structure sets the rounds while they are not given: fixed with them (5.B).
            replace(
                structure_setting(
                    structures.NAMES,
                    "Doomtown Floor Rules 5.B",
                    {"single-day": "Single day (Top 8 from 33 players)", "multi-day": "Multi-day (Top 16 from 33)"},
                ),
                fixed_once_paired="Doomtown Floor Rules 5.B",
            ),
            rounds_setting("Doomtown Floor Rules 5.B", fixed="Doomtown Floor Rules 5.B"),
            cut_setting("Doomtown Floor Rules 5.B"),
        ),
    ),
    SettingsSection(
        title="Time",
        fields=(
            round_minutes_setting(
                ruleset.TIME_LIMITS["round_minutes"],
                "Doomtown Floor Rules 3.A",
                "The announced hour; the event's secret d6 is added to every round when the round starts.",
            ),
            Setting(
                key="cut_untimed",
                label="Elimination rounds without a time limit",
                kind="toggle",
                hint="Recommended and expected for the Top 2; once chosen it stays for the rest of the roundup. "
                "The Start round form then offers untimed elimination rounds.",
                source="Doomtown Floor Rules 5.C",
                unset="timed",
            ),
        ),
    ),
    SettingsSection(
        title="Top cut",
        fields=best_of_settings("Doomtown Floor Rules 5.C", best=None, final=ruleset.TOP_2_BEST_OF),
    ),
)


def warnings(ctx: SettingsContext) -> list[Notice]:
    """The attendance minimum for the kind of roundup, the fixed rounds and the secret time."""
    out: list[Notice] = []
    kind = ctx.settings.get("roundup")
    if isinstance(kind, str) and kind in ROUNDUP_MINIMUMS:
        label, minimum = ROUNDUP_MINIMUMS[kind]
        if ctx.players < minimum:
            out.append(
                Notice(
                    text=f"{ctx.players} players: an {label} needs at least {minimum} who start round 1 to stay "
                    "sanctioned (players who drop before round 1 do not count); report to PBE if it falls short.",
                    source="Doomtown Floor Rules 5.A",
                    key="roundup",
                )
            )
    if ctx.rounds_paired:
        out.append(
            Notice(
                text="Round 1 is paired: the number of rounds was announced and cannot change.",
                source="Doomtown Floor Rules 5.B",
                key="rounds",
                level="info",
            )
        )
    hour = ruleset.TIME_LIMITS["round_minutes"]
    base = ctx.settings.get("round_minutes", hour)
    if base != hour:
        out.append(
            Notice(
                text=f"Rounds of {base} minutes instead of the hour: a change to 1 hour + d6 must be cleared with "
                "PBE and announced before the roundup date.",
                source="Doomtown Floor Rules 3.A",
                key="round_minutes",
            )
        )
    if ctx.seed:
        minutes = ruleset.secret_d6(ctx.seed, int(ruleset.TIME_LIMITS["secret_d6_sides"]))
        warning = ruleset.TIME_LIMITS["warning_minute"]
        told = f"; the warning is at minute {warning}" if warning < base else ""
        out.append(
            Notice(
                text=f"This event's secret d6 is {minutes}: rounds end after {base} + {minutes} minutes{told}. "
                "Players are not told.",
                source="Doomtown Floor Rules 3.A, 3.D",
                key="round_minutes",
                level="info",
            )
        )
    if ctx.before.get("cut_untimed") is True and ctx.settings.get("cut_untimed") is not True:
        out.append(
            Notice(
                text="Untimed elimination rounds, once chosen, remain in effect for the rest of the roundup.",
                source="Doomtown Floor Rules 5.C",
                key="cut_untimed",
            )
        )
    return out
