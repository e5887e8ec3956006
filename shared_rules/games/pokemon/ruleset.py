"""``pokemon-tcg`` and ``pokemon-vg``: Play! Pokémon Tournament Operation Procedures (TOP).

Points win 3, tie 1, loss 0; a bye counts as a win; ``late`` is the loss a
late player receives for a round already started (3.1, 3.1.3). Ranking:
record (match points) → tardiness → OWP → OOWP → head-to-head → standing of
the last opponent (3.1.4.1) → roster order (RULES.md Decision). The document
gives no round time limits, so ``time_limits`` is empty.

Readings where the document is loose (RULES.md "Decision — match TOM" is
binding; the metric readings are detailed in ``shared_rules.games.pokemon.standings``):

- Win %: a tie is half a win; a normal bye is neither a win nor a round and
  is no opponent; an earned bye (``"earned": true`` on the one-player bye,
  or a bye in the player's opening rounds 1..``earned_byes``; a later bye is
  a random bye) is a won round and a 100 % opponent in that player's OWP. Floor 25 %; the 75 % cap only for a player
  who dropped before playing every Swiss round their pod plans
  (``settings.rounds_by_pod[pod]``, else ``settings.rounds``, never fewer than
  the rounds paired). A dropped player's OWP/OOWP are frozen at their drop.
  OWP/OOWP are rounded to 4 significant figures (half-even) before comparing,
  and OOWP averages the opponents' rounded OWP (the figure TOM shows). The TOM
  fixtures cannot tell this from averaging exact OWPs: 6 of their 154 OOWP
  values differ in the 4th figure, no placing changes.
- A player who dropped after the last Swiss round keeps their Swiss rank; if
  they play no top-cut match they are placed after the cut (TOM does this).
- Win % is computed over the Swiss stages only; top-cut results never change
  a Swiss rank (3.3.6).
- Record = match points (a 3-0-1 record outranks 3-1-0).
- Tardiness: a player is late when ``late`` is set or they have a ``late`` loss.
- Late losses (3.1.3): a ``late`` player without rows for day-one Swiss
  rounds of their pod played before their first row gets a ``late`` loss for
  each (win %, record, opponents' OWP), as the reducer writes them.
- Head-to-head decides only between exactly two tied players.
- Standing of the last opponent: the place of each tied player's last Swiss
  opponent in that opponent's division standings by all earlier tiebreakers,
  re-applied until stable (the document's recursion); a player without an
  opponent ranks below; what remains tied keeps roster order.
- Age divisions (3.1.1): the player's ``division`` field when present
  (``junior``/``senior``/``masters``), else the birth year against the
  event's season (``settings.season``, else the season of the event's date;
  Decision: Masters born <= season-16, Seniors season-15..season-12, Juniors
  >= season-11), else Masters (no birth year, or no season). Pairing refuses
  while they cannot be told for everyone (:mod:`.divisions`). Pairing may
  cross divisions (Age-Modified, 3.1.2) and every opponent counts in OWP,
  but each division is placed separately, as TOM's
  ``<standings>`` does: ranks restart at 1 in each division (``rank`` is the
  place within ``division``, docs/event-format-additions.md "Standings
  output"), divisions are listed Masters, Seniors, Juniors, and each row
  carries ``"division"`` when the event has more than one.
- Day two (3.3.5, 3.1.4.1): match points carry over; OWP/OOWP of a player
  who played on day two (``swiss-day2``) come from day-two rounds only.
  Day-two players are placed above everyone who did not play on day two,
  who keep their day-one order (like a cut, 3.3.6).
- Swiss plus Single Elimination (3.3.6): the top cut is placed by how far
  each player went; players eliminated in the same round (or still tied) by
  Swiss rank; an optional 3rd/4th playoff (a match marked
  ``"playoff": "third-place"``, or a match between two already eliminated
  players) places its winner 3rd and its loser 4th, below the losing
  finalist, whether it is recorded in the final's round or in a round of its
  own; everyone outside the cut keeps their Swiss place.
- Single Elimination only (no Swiss round, 3.2): one bracket whatever the
  ages (3.2.1); players eliminated in the same round rank by the final
  record (elimination wins, byes included) of the player who knocked them
  out (3.2.3), then roster order; their rows carry no tiebreakers.
- A disqualified player (``"disqualified": true``, as the TOM importer writes)
  stays in the Swiss computation (their matches count for opponents) but is
  listed after everyone else of their division (TOM lists them as "dnf").
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from ...errors import DocumentError
from ...event.model import SWISS_STAGES
from ...rulesets.base import Outcome, Policy, ResultPair, Ruleset
from ...standings.context import StandingsContext, is_counted
from ...standings.engine import Standing, format_record, standings_from_order
from .divisions import DIVISIONS, division_for, event_season_year, player_division
from .standings import elimination_depth, implied_late_record, late_losses, rank_universes

if TYPE_CHECKING:  # pragma: no cover
    from ...event.model import Event

__all__ = [
    "TITLES",
    "OUTCOMES",
    "TIEBREAKERS",
    "REPORTED",
    "POLICIES",
    "DIVISIONS",
    "STRUCTURES",
    "division_for",
    "player_division",
    "KINDS",
    "check_kind",
    "build",
    "pokemon_standings",
]

DOCUMENT = "Play! Pokémon Tournament Operation Procedures"

TITLES: Mapping[str, str] = MappingProxyType(
    {
        "pokemon-tcg": "Pokémon Trading Card Game",
        "pokemon-vg": "Pokémon Video Game",
    }
)

#: Pokémon TOP 3.1: win 3, tie 1, loss 0, a bye counts as a win; 3.1.3: a late player's missed round is a loss.
OUTCOMES: tuple[Outcome, ...] = (
    Outcome("win", 3, "win"),
    Outcome("loss", 0, "loss"),
    Outcome("tie", 1, "tie"),
    Outcome("bye", 3, "win", solo=True),
    Outcome("late", 0, "loss", solo=True),
)

#: Pokémon TOP 3.1: a match is won, lost or tied; a double loss (both players lose, as TOM records it,
#: e.g. both given a match loss) is the project's reading.
PAIRS: tuple[ResultPair, ...] = (
    ResultPair("win", "loss", "win / loss", quick=True),
    ResultPair("tie", "tie", "tie", quick=True),
    ResultPair("loss", "loss", "double loss"),
)
PAIRS_SOURCE = "Pokémon TOP 3.1"

#: Pokémon TOP 3.1.4.1 in order after match record, then roster order (RULES.md Decision).
TIEBREAKERS: tuple[str, ...] = ("pokemon-tardiness", "owp", "oowp", "pokemon-h2h", "pokemon-last-opponent", "entry")

#: EVENT-FORMAT.md output keys.
REPORTED: tuple[tuple[str, str], ...] = (("owp", "owp"), ("oowp", "oowp"))

POLICIES: Mapping[str, Policy] = MappingProxyType(
    {
        "styles": Policy("Swiss, Single Elimination, or Swiss plus Single Elimination", "Pokémon TOP 3"),
        "round-1": Policy("random pairings", "Pokémon TOP 3.1"),
        "pairing": Policy(
            "random within record brackets; an odd bracket pairs one player down to the next "
            "bracket, never a rematch; from the highest bracket to the lowest",
            "Pokémon TOP 3.1",
        ),
        "bye": Policy("random player of the lowest bracket", "Pokémon TOP 3.1"),
        "bye-limit": Policy("at most one bye per player", "Pokémon TOP 3.1"),
        "bye-tiebreakers": Policy("a bye counts as a win but not in tiebreakers", "Pokémon TOP 3.1, 3.1.4.1"),
        "divisions": Policy(
            "Junior / Senior / Masters by birth year; season-relative (RULES.md Decision)", "Pokémon TOP 3.1.1"
        ),
        "age-separated": Policy(
            "at least 6 players in each division: three pods reported as one event", "Pokémon TOP 3.1.1"
        ),
        "age-modified": Policy(
            "1-5 players in any division: same record and division best, else division "
            "beats record; the best of each division wins it",
            "Pokémon TOP 3.1.2",
        ),
        "late-entry": Policy(
            "losses for rounds already started; ranked below on-time players with the same "
            "record; not after round 2 at events awarding Championship Points",
            "Pokémon TOP 3.1.3",
        ),
        "late-entry-elimination": Policy(
            "no late entry once round 1 of Single Elimination started", "Pokémon TOP 3.2.2"
        ),
        "drop-elimination": Policy("a drop or disqualification in Single Elimination is a loss", "Pokémon TOP 3.2"),
        "elimination-seeding": Policy(
            "seeds at random; the top seeds get byes up to the next power of two", "Pokémon TOP 3.2"
        ),
        "elimination-placing": Policy(
            "by the final record of the opponent who knocked the player out", "Pokémon TOP 3.2.3"
        ),
        "third-place-playoff": Policy(
            "optional 3rd/4th playoff, announced before the event", "Pokémon TOP 3.2.3, 3.3.6"
        ),
        "top-cut": Policy(
            "a power of two, seeded by Swiss rank, about the same share of each division", "Pokémon TOP 3.3"
        ),
        "top-cut-placing": Policy(
            "eliminated players by Swiss rank within each elimination round; players "
            "outside the cut keep their Swiss place",
            "Pokémon TOP 3.3.6, 3.3.6.1",
        ),
        "flights": Policy(
            "Swiss plus Single Elimination only, division >= 64, flight >= 32, 2/4/8/16 flights, "
            "equal top-N (>= 2) per flight merged by Swiss standing",
            "Pokémon TOP 3.3.3",
        ),
        "day-two": Policy(
            "19+ match points or the top 32, whichever is more; OWP/OOWP not carried over", "Pokémon TOP 3.3.5, 3.1.4.1"
        ),
        "record-corrections": Policy(
            "re-pair the minimum number of players; a round's records cannot change "
            "after the second following round is paired",
            "Pokémon TOP 4",
        ),
        "pairings-locked": Policy("pairings cannot change once the round is started", "Pokémon TOP 4"),
        "final-tiebreak": Policy("roster (registration) order", "RULES.md Decision — match TOM"),
    }
)

#: ``settings.structure`` names (Pokémon TOP 3.3.5 tables).
STRUCTURES: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "pokemon-tcg": ("single-day", "two-day"),
        "pokemon-vg": ("premier", "international"),
    }
)


def _whole(settings: Mapping[str, Any], key: str, minimum: int) -> None:
    value = settings.get(key)
    if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < minimum):
        raise DocumentError(f"settings.{key}", f"expected a whole number of at least {minimum}")


#: TOM's event kinds: ``settings.kind`` is the ``type`` and ``mode`` of a TOM save's ``<tournament>``
#: (``tom/importer.py``), kept so a .tdf export reopens as the same kind of event; the labels are for screens.
KINDS: tuple[tuple[int, str, str], ...] = (
    (2, "LEAGUECHALLENGE", "League Challenge"),
    (3, "TCG1DAY", "League Cup"),
    (2, "TCG1DAY", "League Cup (new in TOM, not configured yet)"),
)
_MODE = re.compile(r"[A-Z0-9_]{1,40}\Z")


def check_kind(value: Any) -> None:
    """``settings.kind``: ``{"type": N, "mode": "WORD"}`` as TOM writes them (DocumentError otherwise).

    >>> check_kind({"type": 3, "mode": "TCG1DAY"})
    >>> check_kind("league-cup")
    Traceback (most recent call last):
    ...
    shared_rules.errors.DocumentError: settings.kind: expected TOM's event type and mode, as {"type": 3, "mode": "TCG1DAY"} (League Cup) or {"type": 2, "mode": "LEAGUECHALLENGE"} (League Challenge)
    """
    example = (
        'as {"type": 3, "mode": "TCG1DAY"} (League Cup) or {"type": 2, "mode": "LEAGUECHALLENGE"} (League Challenge)'
    )
    if not isinstance(value, Mapping) or set(value) != {"type", "mode"}:
        raise DocumentError("settings.kind", f"expected TOM's event type and mode, {example}")
    kind_type, mode = value["type"], value["mode"]
    if not isinstance(kind_type, int) or isinstance(kind_type, bool) or not 1 <= kind_type <= 99:
        raise DocumentError(
            "settings.kind.type", f"expected TOM's event type, a whole number such as 2 or 3 ({example})"
        )
    if not isinstance(mode, str) or not _MODE.match(mode):
        raise DocumentError(
            "settings.kind.mode", f"expected TOM's mode, capital letters such as TCG1DAY or LEAGUECHALLENGE ({example})"
        )


def _check_settings(ruleset_id: str, settings: Mapping[str, Any]) -> None:
    _whole(settings, "season", 1900)
    if settings.get("kind") is not None:
        check_kind(settings["kind"])
    _whole(settings, "rounds", 0)
    cut = settings.get("cut")
    _whole(settings, "cut", 0)
    if isinstance(cut, int) and cut > 1 and cut & (cut - 1):
        raise DocumentError("settings.cut", f"{cut} is not a power of two (Pokémon TOP 3.3)")


def _check_event(event: Event) -> None:
    """Divisions must be known words; only a one-player bye can be an earned bye."""
    for i, player in enumerate(event.players):
        given = player.extra.get("division")
        if given is not None and given not in DIVISIONS:
            raise DocumentError(f"players[{i}].division", f"'{given}' is not a division (use {', '.join(DIVISIONS)})")
    for i, rnd in enumerate(event.rounds):
        for j, match in enumerate(rnd.matches):
            earned = match.extra.get("earned")
            if earned is None:
                continue
            if not isinstance(earned, bool):
                raise DocumentError(f"rounds[{i}].matches[{j}].earned", "expected true or false")
            if earned and (len(match.players) != 1 or (match.outcomes is not None and match.outcomes != ("bye",))):
                raise DocumentError(f"rounds[{i}].matches[{j}].earned", "only a one-player bye can be an earned bye")


def build(ruleset_id: str, settings: Mapping[str, Any]) -> Ruleset:
    """The Pokémon ruleset (``pokemon-tcg`` or ``pokemon-vg``)."""
    _check_settings(ruleset_id, settings)
    return Ruleset(
        id=ruleset_id,
        title=TITLES[ruleset_id],
        document=DOCUMENT,
        outcomes=OUTCOMES,
        tiebreakers=TIEBREAKERS,
        match_sizes=(2, 2),
        policies=POLICIES,
        standings_hook=pokemon_standings,
        event_check=_check_event,
        reported=REPORTED,
        result_pairs=PAIRS,
        pairs_source=PAIRS_SOURCE,
        settings=MappingProxyType(dict(settings)),
    )


# ---------- standings ----------


def _single_elimination(event: Event, ruleset: Ruleset) -> list[Standing]:
    """Pokémon TOP 3.2.3: by how far each went, then the knock-out opponent's final record, then roster."""
    results = {o.key: o.result for o in ruleset.outcomes}
    ctx = StandingsContext(event, ruleset, stages=("elimination",))
    depth = elimination_depth(event, ctx.players, results)
    wins = {pid: ctx.record(pid)[0] for pid in ctx.players}
    knocked_by: dict[str, str] = {}
    for rnd in event.rounds:
        for match in rnd.matches:
            if rnd.stage != "elimination" or not is_counted(match) or len(match.players) != 2 or not match.outcomes:
                continue
            a, b = match.players
            if results[match.outcomes[0]] == "win" and results[match.outcomes[1]] != "win":
                knocked_by[b] = a
            elif results[match.outcomes[1]] == "win" and results[match.outcomes[0]] != "win":
                knocked_by[a] = b
    order = sorted(
        ctx.players, key=lambda pid: (-depth.get(pid, 0), -wins.get(knocked_by.get(pid, ""), 0), ctx.players[pid].entry)
    )
    return standings_from_order(ctx, order, reported=())


def _place_cut(event: Event, ruleset: Ruleset, swiss_order: list[str]) -> list[str]:
    """Pokémon TOP 3.3.6: the cut by how far each went, ties by Swiss rank; the rest keep Swiss order."""
    depth = elimination_depth(event, swiss_order, {o.key: o.result for o in ruleset.outcomes})
    position = {pid: i for i, pid in enumerate(swiss_order)}
    cut = sorted(depth, key=lambda pid: (-depth[pid], position[pid]))
    return cut + [pid for pid in swiss_order if pid not in depth]


def pokemon_standings(event: Event, ruleset: Ruleset) -> list[Standing]:
    """Final standings: each division placed separately, ranks 1..n within it (see the module docstring)."""
    stages = {r.stage for r in event.rounds}
    if "elimination" in stages and not stages & SWISS_STAGES:
        return _single_elimination(event, ruleset)
    season = event_season_year(event)
    division = {p.id: player_division(p, season) for p in event.players}
    present = [d for d in DIVISIONS if d in division.values()]
    ctx = StandingsContext(event, ruleset)
    universes = [[p.id for p in event.players if division[p.id] == d] for d in present]
    implied = late_losses(ctx)  # Pokémon TOP 3.1.3: a late player's missing late losses (0 points each)
    out: list[Standing] = []
    for name, swiss_order in zip(present, rank_universes(ctx, universes)):
        order = _place_cut(event, ruleset, swiss_order)
        disqualified = [pid for pid in order if ctx.players[pid].extra.get("disqualified") is True]
        order = [pid for pid in order if pid not in disqualified] + disqualified
        rows = standings_from_order(ctx, order)
        if implied:
            rows = [
                dataclasses.replace(row, record=format_record(*implied_late_record(ctx, row.player)))
                if row.player in implied
                else row
                for row in rows
            ]
        if len(present) > 1:
            rows = [dataclasses.replace(row, extra=MappingProxyType({"division": name})) for row in rows]
        out.extend(rows)
    return out
