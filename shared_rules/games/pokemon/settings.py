"""What the Settings screen offers a Pokémon organizer, and the TOP's warnings about it (TOP 3.1.1, 3.2, 3.3)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...errors import RulesError
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
from . import divisions, ruleset, structures

__all__ = ["sections", "warnings"]

_STRUCTURE_LABELS: Mapping[str, str] = {
    "single-day": "TCG single-day (League Cup, Challenge)",
    "two-day": "TCG two-day (Regional, International)",
    "premier": "VG Premier Challenge, Midseason Showdown, Regional",
    "international": "VG International",
}
#: Pokémon TOP 3.3.3: 2, 4, 8 or 16 flights per age division.
_FLIGHTS = (2, 4, 8, 16)
#: Pokémon TOP 3.3.3: flights only for a division of at least 64, each flight at least 32.
_FLIGHT_DIVISION, _FLIGHT_SIZE = 64, 32


def sections(ruleset_id: str) -> tuple[SettingsSection, ...]:
    """The settings of a Pokémon event (TCG or VG)."""
    best_of, final_best_of = best_of_settings("Pokémon TOP 3.2 (not fixed)", best=None, final=None)
    return (
        SettingsSection(
            title="Event",
            fields=(
                date_setting(),
                Setting(
                    key="season",
                    label="Season (age divisions)",
                    kind="number",
                    hint="The July-June season the age divisions are told in, by the year it begins: 2026 is "
                    "2026-27. Set from the event's date when the event is made.",
                    source="Pokémon TOP 3.1.1",
                    minimum=1900,
                    maximum=2200,
                    unset="the season of the event's date",
                ),
                Setting(
                    key="kind",
                    label="Kind of event (TOM)",
                    kind="choice",
                    hint="TOM's event type and mode, written to the .tdf save so TOM reopens the same kind of event.",
                    source="TOM .tdf",
                    choices=tuple(({"type": t, "mode": m}, label) for t, m, label in ruleset.KINDS),
                    open_choice=True,
                    unset="League Cup",
                ),
            ),
        ),
        SettingsSection(
            title="Structure",
            fields=(
                structure_setting(ruleset.STRUCTURES[ruleset_id], "Pokémon TOP 3.3.5", _STRUCTURE_LABELS),
                rounds_setting("Pokémon TOP 3.3.5"),
                Setting(
                    key="day_one_rounds",
                    label="Day-one Swiss rounds",
                    kind="number",
                    hint="Two-day events: the Swiss rounds of day one (day two: 19 match points or the top 32).",
                    source="Pokémon TOP 3.3.5",
                    minimum=1,
                    maximum=30,
                    unset="the document's table",
                ),
                cut_setting(
                    "Pokémon TOP 3.3",
                    hint="Players in the top cut, a power of two (0: Swiss only). Leave empty to follow the table.",
                ),
                Setting(
                    key="flights",
                    label="Flights per age division",
                    kind="choice",
                    hint="Large divisions only: a division of 64 or more, each flight at least 32; each halving "
                    "removes a round.",
                    source="Pokémon TOP 3.3.3",
                    choices=tuple((n, f"{n} flights") for n in _FLIGHTS),
                    unset="no flights",
                ),
            ),
        ),
        SettingsSection(
            title="Top cut",
            fields=(
                best_of,
                final_best_of,
                Setting(
                    key="playoff_3rd_4th",
                    label="Play off 3rd and 4th place",
                    kind="toggle",
                    hint="The two losing semi-finalists play one more match for 3rd place.",
                    source="Pokémon TOP 3.2, 3.3.6",
                    unset="no playoff",
                ),
            ),
        ),
        SettingsSection(
            title="Time",
            fields=(round_minutes_setting(None, "", "The TOP sets no round length: announce your own."),),
        ),
    )


def warnings(ctx: SettingsContext) -> list[Notice]:
    """The age divisions the season gives, and the TOP's limits on rounds, cut and flights."""
    out: list[Notice] = []
    season = _season(ctx.settings)
    if season is not None:
        bands = divisions.division_bands(season)
        words = []
        for i, band in enumerate(bands):
            low, high = band["from"], band["to"]
            last = i == len(bands) - 1  # the youngest: nobody is born after the season
            years = (
                f"born {high} or earlier" if low is None else f"born {low} or later" if last else f"born {low}–{high}"
            )
            words.append(f"{band['label']} {years}")
        out.append(
            Notice(
                text=f"Season {divisions.season_label(season)}: " + "; ".join(words) + ".",
                source="Pokémon TOP 3.1.1",
                key="season",
                level="info",
            )
        )
    given_date = ctx.settings.get("date")
    if season is not None and isinstance(given_date, str) and "season" in ctx.settings:
        try:
            dated = divisions.season_for(given_date)
        except ValueError:
            dated = season
        if dated != season:
            out.append(
                Notice(
                    text=f"The event's date {given_date} is in the {divisions.season_label(dated)} season, not "
                    f"{divisions.season_label(season)}: the age divisions follow the season set here.",
                    source="Pokémon TOP 3.1.1",
                    key="season",
                )
            )
    out += _structure_warnings(ctx)
    return out


def _structure_warnings(ctx: SettingsContext) -> list[Notice]:
    """Rounds against the TOP's table (3.3.5) and flights against its limits (3.3.3)."""
    out: list[Notice] = []
    name = ctx.settings.get("structure")
    name = name if name in ruleset.STRUCTURES[ctx.ruleset] else ruleset.STRUCTURES[ctx.ruleset][0]
    try:
        table = structures.structure(ctx.ruleset, max(ctx.players, structures.MINIMUM_PLAYERS), name)
    except RulesError:
        table = None
    if 0 < ctx.players < structures.MINIMUM_PLAYERS:
        out.append(
            Notice(
                text=f"{ctx.players} players registered: the tables start at {structures.MINIMUM_PLAYERS}.",
                source="Pokémon TOP 3.3.5",
                key="rounds",
            )
        )
    rounds = ctx.settings.get("rounds")
    counted = ctx.players >= structures.MINIMUM_PLAYERS
    if counted and table is not None and isinstance(rounds, int) and not isinstance(rounds, bool):
        if rounds < table.swiss_rounds - 1:
            out.append(
                Notice(
                    text=f"{rounds} Swiss rounds: the table gives {table.swiss_rounds} for {ctx.players} players, "
                    "and the organizer may run only one fewer.",
                    source="Pokémon TOP 3.3.5",
                    key="rounds",
                )
            )
        elif rounds > table.swiss_rounds:
            out.append(
                Notice(
                    text=f"{rounds} Swiss rounds: more than the {table.swiss_rounds} the table gives for "
                    f"{ctx.players} players.",
                    source="Pokémon TOP 3.3.5",
                    key="rounds",
                )
            )
    flights = ctx.settings.get("flights")
    if isinstance(flights, int) and not isinstance(flights, bool) and flights > 1:
        if ctx.settings.get("cut") == 0:
            out.append(
                Notice(
                    text="Flights are only for Swiss plus single elimination: this event has no top cut.",
                    source="Pokémon TOP 3.3.3.1",
                    key="flights",
                )
            )
        if ctx.players < _FLIGHT_DIVISION or ctx.players // flights < _FLIGHT_SIZE:
            out.append(
                Notice(
                    text=f"{flights} flights for {ctx.players} players: flights need a division of at least "
                    f"{_FLIGHT_DIVISION} and {_FLIGHT_SIZE} players in each flight.",
                    source="Pokémon TOP 3.3.3",
                    key="flights",
                )
            )
    return out


def _season(settings: Mapping[str, Any]) -> int | None:
    season = settings.get("season")
    if isinstance(season, int) and not isinstance(season, bool):
        return season
    given = settings.get("date")
    if isinstance(given, str) and len(given) == 10:
        try:
            return divisions.season_for(given)
        except ValueError:
            return None
    return None
