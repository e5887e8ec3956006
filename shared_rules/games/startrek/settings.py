"""What the Settings screen offers a Star Trek tournament director (1E, 2E, Tribbles), and the Guide's warnings.

Star Trek OP Guide 2 (sanctioning minimums), 3 (recommended rounds), 4.1 and 4.4 (formats, scenarios),
4.3 (variants), 6 (changing the number of rounds), 7.1 (a director playing in their own event), 8 and 11
(ratings: sanctioned, level), 10 (match play brackets, best-of), 13 (online events).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..settings import (
    Notice,
    Setting,
    SettingsContext,
    SettingsSection,
    best_of_settings,
    date_setting,
    round_minutes_setting,
    rounds_setting,
)
from . import structures
from .ratings.rules import FORMATS, K_BY_LEVEL, LEVEL_EVENTS, SCENARIOS

__all__ = ["sections", "warnings", "RATING"]

_VARIANT_LABELS: Mapping[str, str] = {
    "standard": "Standard",
    "warp-speed": "Warp Speed (4.3.4)",
    "slipstream": "Slipstream (4.3.6)",
    "id-draft": "ID Draft (4.3.7)",
}
#: Star Trek OP Guide 7.1: "highly recommended" that a playing director not play with more than 16 others.
_TD_MOST_OTHERS = 16

#: ``settings.rating``: what the ratings read (Star Trek OP Guide 1, 4.1, 4.4, 8, 11; ratings/games.py).
RATING = Setting(
    key="rating",
    label="Sanctioning and ratings",
    kind="group",
    hint="A sanctioned event with its level and format moves the players' ratings (trekcc.org ids on the roster).",
    source="Star Trek OP Guide 1, 8, 11",
    fields=(
        Setting(
            key="sanctioned",
            label="Sanctioned (registered on trekcc.org)",
            kind="toggle",
            hint="Registered on www.trekcc.org at least 24 hours before the start.",
            source="Star Trek OP Guide 2",
        ),
        Setting(
            key="level",
            label="Event level",
            kind="choice",
            hint="The level sets the rating's k-value.",
            source="Star Trek OP Guide 11",
            choices=tuple((level, f"Level {level}: {LEVEL_EVENTS[level]}, k {k}") for level, k in K_BY_LEVEL.items()),
            open_choice=True,
        ),
        Setting(
            key="format",
            label="Format",
            kind="choice",
            hint="Constructed events move the constructed rating; draft and sealed the sealed rating.",
            source="Star Trek OP Guide 4.1",
            choices=tuple((f, f.capitalize()) for f in FORMATS),
        ),
        Setting(
            key="scenario",
            label="Optional scenario",
            kind="choice",
            hint="An optional scenario is sanctioned but unrated (Biermeister: unsanctioned).",
            source="Star Trek OP Guide 4.4",
            choices=tuple((s, f"{s.replace('-', ' ').capitalize()} ({section})") for s, section in SCENARIOS.items()),
        ),
        Setting(
            key="date",
            label="Date (for the rating order)",
            kind="date",
            hint="Ratings are recomputed event by event, oldest first.",
            source="Star Trek OP Guide 8",
        ),
    ),
)

_TD_PLAYS = Setting(
    key="td_plays",
    label="The tournament director plays",
    kind="toggle",
    hint="Needs the approval of more than half of the other players, and a secondary and tertiary director.",
    source="Star Trek OP Guide 7.1",
    unset="no",
)
_ONLINE = Setting(
    key="online",
    label="Online event",
    kind="toggle",
    hint="Online time limits; a delayed result counts 2 VP each for pairing until it is known.",
    source="Star Trek OP Guide 13.3, 13.4",
    unset="in person",
)


def sections(ruleset_id: str, minutes: int, variants: tuple[str, ...] = ()) -> tuple[SettingsSection, ...]:
    """The settings of a Star Trek event; ``variants`` are the edition's (none for Tribbles)."""
    event: tuple[Setting, ...] = (date_setting(),)
    if variants:
        event += (
            Setting(
                key="variant",
                label="Variant",
                kind="choice",
                hint="Sets the round time and the differential's threshold.",
                source="Star Trek OP Guide 4.3",
                choices=tuple((v, _VARIANT_LABELS.get(v, v)) for v in variants),
                unset="Standard",
            ),
        )
    event += (_ONLINE, _TD_PLAYS)
    out = [
        SettingsSection(title="Event", fields=event),
        SettingsSection(
            title="Structure",
            hint="Changing the number of rounds once the event has begun needs every player's agreement (6).",
            fields=(rounds_setting("Star Trek OP Guide 2, 3"),),
        ),
        SettingsSection(
            title="Time",
            fields=(round_minutes_setting(minutes, "Star Trek OP Guide 7.2"),),
        ),
    ]
    if variants:  # match play (1E, 2E; Tribbles plays pods)
        best_of, final_best_of = best_of_settings("Star Trek OP Guide 10", best=None, final=None)
        bracket = Setting(
            key="bracket",
            label="Bracket",
            kind="choice",
            hint="The seeded bracket of a match-play event (announce it before the event).",
            source="Star Trek OP Guide 10, 10.2",
            choices=(("standard", "Standard"), ("modified-mcintyre", "Modified McIntyre")),
            unset="Standard",
        )
        out.append(SettingsSection(title="Match play", fields=(bracket, best_of, final_best_of)))
    out.append(SettingsSection(title="Sanctioning and ratings", fields=(RATING,)))
    return tuple(out)


def warnings(ctx: SettingsContext) -> list[Notice]:
    """Sanctioning minimums, recommended rounds, a playing director, a rating missing its level or format."""
    out: list[Notice] = []
    rating = ctx.settings.get("rating")
    rating = rating if isinstance(rating, Mapping) else {}
    sanctioned = rating.get("sanctioned") is True
    least_rounds = structures.MINIMUM_ROUNDS[ctx.ruleset]
    rounds = _rounds(ctx)
    if sanctioned:
        out += _sanctioning(ctx, rating, rounds, least_rounds)
    before = ctx.before.get("rounds")
    if ctx.rounds_paired and ctx.settings.get("rounds") != before:
        out.append(
            Notice(
                text="The event has begun: change the number of rounds only if every player agrees (or in an "
                "emergency), then correct the event's listing on trekcc.org before entering the results.",
                source="Star Trek OP Guide 6",
                key="rounds",
            )
        )
    if ctx.settings.get("td_plays") is True:
        out.append(
            Notice(
                text="A playing director needs more than half of the other players to approve, and names a "
                "secondary and a tertiary director for rulings on their games (enter them in the report).",
                source="Star Trek OP Guide 7.1",
                key="td_plays",
            )
        )
        others = ctx.players - 1
        if others > _TD_MOST_OTHERS:
            out.append(
                Notice(
                    text=f"{others} other players: it is highly recommended that a director not play with more "
                    f"than {_TD_MOST_OTHERS} others.",
                    source="Star Trek OP Guide 7.1",
                    key="td_plays",
                )
            )
        if ctx.players % 2 == 1:
            out.append(
                Notice(
                    text=f"{ctx.players} players with the director: their playing makes a bye, which the Guide "
                    "highly recommends against.",
                    source="Star Trek OP Guide 7.1",
                    key="td_plays",
                )
            )
    return out


def _rounds(ctx: SettingsContext) -> int | None:
    rounds = ctx.settings.get("rounds")
    if isinstance(rounds, int) and not isinstance(rounds, bool):
        return rounds
    if ctx.players >= structures.MINIMUM_PLAYERS:
        return structures.structure(
            ctx.ruleset, ctx.players, structures.TRIBBLES_NAMES[0] if ctx.ruleset == "tribbles" else structures.NAMES[0]
        ).swiss_rounds
    return None


def _sanctioning(ctx: SettingsContext, rating: Mapping[str, Any], rounds: int | None, least: int) -> list[Notice]:
    out: list[Notice] = []
    if ctx.players < structures.MINIMUM_PLAYERS:
        out.append(
            Notice(
                text=f"{ctx.players} players: a sanctioned event needs at least {structures.MINIMUM_PLAYERS}.",
                source="Star Trek OP Guide 2",
                key="rating",
            )
        )
    if rounds is not None and rounds < least:
        out.append(
            Notice(
                text=f"{rounds} rounds: a sanctioned {'Tribbles' if ctx.ruleset == 'tribbles' else ''} event "
                f"plays at least {least}.".replace("  ", " "),
                source="Star Trek OP Guide 2, 3",
                key="rounds",
            )
        )
    elif rounds is not None and ctx.ruleset != "tribbles" and ctx.players >= structures.MINIMUM_PLAYERS:
        table = structures.structure(ctx.ruleset, ctx.players, structures.NAMES[0]).swiss_rounds
        if rounds < table:
            out.append(
                Notice(
                    text=f"{rounds} rounds: Table 3.0.1 recommends at least {table} for {ctx.players} players.",
                    source="Star Trek OP Guide 3",
                    key="rounds",
                    level="info",
                )
            )
    scenario = rating.get("scenario")
    if scenario is None and rating.get("rated", True) is not False:
        if rating.get("level") is None:
            out.append(
                Notice(
                    text="A rated event needs its level: choose the event level.",
                    source="Star Trek OP Guide 11",
                    key="rating",
                )
            )
        elif rating.get("level") not in K_BY_LEVEL and rating.get("k") is None:
            out.append(
                Notice(
                    text=f"Level {rating.get('level')} has no k-value in the Guide: the event will not be rated.",
                    source="Star Trek OP Guide 11",
                    key="rating",
                )
            )
        if rating.get("format") is None:
            out.append(
                Notice(
                    text="A rated event needs its format: constructed, draft or sealed.",
                    source="Star Trek OP Guide 4.1",
                    key="rating",
                )
            )
    elif scenario is not None:
        out.append(
            Notice(
                text=f"Scenario events are {'unsanctioned and ' if scenario == 'biermeister' else 'sanctioned but '}"
                "unrated: the ratings will not move.",
                source=f"Star Trek OP Guide {SCENARIOS.get(str(scenario), '4.4')}",
                key="rating",
                level="info",
            )
        )
    return out
