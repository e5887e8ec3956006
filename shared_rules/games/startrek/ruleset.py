"""``startrek-1e`` and ``startrek-2e``: Star Trek CCG First and Second Edition
(The Continuing Committee, Organized Play Guide 5.1).

Readings where the document is loose (the project's; see also
``shared_rules/scoring/startrek.py`` for the differential):

- W-L-T record: Full Win, Modified Win, Bye and Earned Bye are wins; Full
  Loss, Modified Loss and Missed Game are losses; True Tie is a tie.
- A two-player match is either a game (Full Win v Full Loss, Modified Win v
  Modified Loss, True Tie v True Tie) or, per 7.5.1/13.5, a game not played:
  Full Win or Bye for one seat against Full Loss or Missed Game for the
  other, both Missed Games, or both Byes (7.5.1: two players who could only
  rematch "are awarded Byes instead").
- Endings other than ``normal`` (``outright``, ``concession``,
  ``game-loss``) end the game outside time, so they go with a Full Win v
  Full Loss; ``game-loss`` also goes with two True Ties (both players lost
  automatically, 7.10) and with a 13.5 Full Win / Full Loss against a Bye
  or a Missed Game.
- Scores are required on every reported game whose differential depends on
  them (never guessed): all games except True Ties, game losses, 2E
  concessions and games not played.
- Strength of Schedule (Glossary, 7.5.1): every round of the event is one
  entry — the final VP of the opponent faced; 0 for a Bye or a Missed
  Game; for an Earned Bye "the maximum possible", read as 4 VP × the
  Swiss rounds in the event so far (what an unbeaten opponent would
  have); then the single lowest entry is dropped. A seat with a Full Win or
  Full Loss against a Bye / Missed Game (13.5) counts that scheduled
  opponent.
- A player has a result for every Swiss round of the event: a round with no
  match for them in the document (they dropped, or arrived late and were
  not entered) is a Missed Game (7.5.1: "Any player wishing to drop from
  an event receives Missed Games for the remainder of the event"). It adds
  0 VP, 0 differential, a 0 entry to SoS, and their unchanged running total
  to CVP. The W-L-T record lists only the results written in the document.
- Head-to-head (7.7, Glossary) splits exactly two tied players by the games
  they played against each other (not a True Tie, not a game not played);
  it is re-applied whenever a step leaves exactly two tied.
- Earned byes (7.5.1: "for the opening round or opening two rounds") may
  only be recorded in rounds 1..``players[].earned_byes``.
- ``settings.variant``: ``standard`` (1E Modern/Open/Traditional, 2E
  Standard), ``warp-speed`` (1E only, 4.3.4), ``slipstream`` and
  ``id-draft`` (2E only, 4.3.6, 4.3.7).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, cast

from ...errors import DocumentError
from ...rulesets.base import Outcome, Policy, ResultPair, Ruleset
from .scoring import VARIANT_CAPS

if TYPE_CHECKING:  # pragma: no cover
    from ...event.model import Event

__all__ = [
    "OUTCOMES",
    "ENDINGS",
    "TIEBREAKERS",
    "REPORTED",
    "PAIRS",
    "VARIANTS",
    "TIME_LIMITS",
    "POLICIES",
    "StarTrekRuleset",
    "build",
    "edition_of",
    "variant_of",
]

DOCUMENT = "Star Trek CCG Organized Play Guide 5.1"

# Star Trek OP Guide 7.5.1: results and their victory points.
OUTCOMES: tuple[Outcome, ...] = (
    Outcome("full-win", 4, "win"),
    Outcome("modified-win", 3, "win"),
    Outcome("true-tie", 2, "tie"),
    Outcome("modified-loss", 1, "loss"),
    Outcome("full-loss", 1, "loss"),
    Outcome("missed-game", 0, "loss", solo=True),
    Outcome("bye", 4, "win", solo=True),
    Outcome("earned-bye", 4, "win", solo=True),
)

# Star Trek OP Guide 7.4.1, 7.9, 7.10: how a game ended, for the differential.
ENDINGS: tuple[str, ...] = ("normal", "outright", "concession", "game-loss")

# Star Trek OP Guide 7.7: VP, then head-to-head, SoS, differential, CVP, coin toss.
TIEBREAKERS: tuple[str, ...] = ("startrek-h2h", "startrek-sos", "startrek-differential", "startrek-cvp", "random")
REPORTED: tuple[tuple[str, str], ...] = (
    ("sos", "startrek-sos"),
    ("differential", "startrek-differential"),
    ("cvp", "startrek-cvp"),
)

#: Variant -> editions it may be used with (Star Trek OP Guide 4.3).
VARIANTS: Mapping[str, frozenset[str]] = MappingProxyType(
    {
        "standard": frozenset({"1e", "2e"}),
        "warp-speed": frozenset({"1e"}),  # 4.3.4
        "slipstream": frozenset({"2e"}),  # 4.3.6
        "id-draft": frozenset({"2e"}),  # 4.3.7
    }
)

# Round time limits in minutes, (edition, variant) -> {setting: minutes}.
TIME_LIMITS: Mapping[tuple[str, str], Mapping[str, int]] = MappingProxyType(
    {
        ("1e", "standard"): {"in-person": 75, "online": 105},  # 7.2, 13.3
        ("2e", "standard"): {"in-person": 60, "online": 75},  # 7.2, 13.3
        ("1e", "warp-speed"): {"in-person": 30, "online": 45},  # 4.3.4
        ("2e", "slipstream"): {"in-person": 30, "online": 45},  # 4.3.6
        ("2e", "id-draft"): {"in-person": 45, "online": 60},  # 4.3.7
    }
)

POLICIES: Mapping[str, Policy] = MappingProxyType(
    {
        "minimum-players": Policy("a sanctioned event needs at least 3 players", "Star Trek OP Guide 2"),
        "minimum-rounds": Policy(
            "at least 3 rounds; Table 3.0.1 recommends 3/4/5/6/7/8 rounds for 3-7/8-15/16-24/25-34/35-45/46+ players",
            "Star Trek OP Guide 2, 3",
        ),
        "three-player-event": Policy("each player plays two games and has a Bye in the third", "Star Trek OP Guide 2"),
        "round-one": Policy(
            "scorecards shuffled, top two paired, and so on; an odd player out gets the Bye", "Star Trek OP Guide 7.2"
        ),
        "pairing": Policy(
            "pair by VP totals; earned-bye players first against the highest VP group; odd groups "
            "pair down, nobody twice a round unless forced; no rematch; preference: no duplicate "
            "opponent, equal VP, similar VP, one bye per player, future rounds pairable",
            "Star Trek OP Guide 7.6",
        ),
        "bye": Policy(
            "odd player count: random in round 1, later the lowest VP total (random among ties); one per "
            "player unless only rematches remain, then both get Byes; 4 VP, 0 differential, SoS entry 0",
            "Star Trek OP Guide 7.2, 7.5.1, 7.6, Glossary",
        ),
        "earned-bye": Policy(
            "opening round or opening two rounds of high-level events; 4 VP, +100 differential "
            "(the format's cap), SoS entry = the maximum possible (4 VP x rounds); may be forfeited "
            "when handing in the scorecard; used only in the first heat played",
            "Star Trek OP Guide 7.2, 7.5.1, 9, Glossary",
        ),
        "missed-game": Policy(
            "absent within the first 5 minutes of a round (or over 15 minutes late to the event): "
            "0 VP, 0 differential; the opponent gets a Bye; not rated",
            "Star Trek OP Guide 7.5.1",
        ),
        "drop": Policy(
            "a dropped player receives Missed Games for the rest of the event; standings count every "
            "round after players[].dropped_after as a Missed Game",
            "Star Trek OP Guide 7.5.1",
        ),
        "time-called": Policy(
            "play on until both players have had equal turns; then Modified Win/Loss or True Tie "
            "(2E: highest score with planet and space completed, then one completed mission, "
            "then highest score; 1E: highest score)",
            "Star Trek OP Guide 7.4, 7.5.1",
        ),
        "concession": Policy(
            "Full Loss / Full Win; winner at the maximum score; 1E loser keeps points, 2E loser scores 0 (winner +100)",
            "Star Trek OP Guide 7.9",
        ),
        "automatic-loss": Policy(
            "Full Loss with -100 / Full Win with +100; both players: True Tie, 0",
            "Star Trek OP Guide 7.10, Appendix B Level 3",
        ),
        "disqualification": Policy(
            "dropped at once; a game in progress is a Full Loss", "Star Trek OP Guide Appendix B"
        ),
        "online-delayed": Policy(
            "until a delayed result is known both players count 2 VP for pairing", "Star Trek OP Guide 13.4"
        ),
        "online-incomplete": Policy(
            "the responsible player: Full Loss (-100) or Missed Game (0); the opponent: Full "
            "Win (+100) or Bye (0); nobody or both responsible: two Missed Games",
            "Star Trek OP Guide 13.5",
        ),
        "match-play": Policy(
            "seeded brackets; VP do not apply; a tied game or match goes to the higher seed; the "
            "loser of a game chooses who goes first next",
            "Star Trek OP Guide 10, 10.1",
        ),
        "heats": Policy(
            "two heats: heat 1 takes seeds 1, 2, 5, 6...; heat 2 takes 3, 4, 7, 8...", "Star Trek OP Guide 9"
        ),
        "ratings": Policy(
            "Elo from 1500 (0-3000); Missed Games from drops or lateness are not rated", "Star Trek OP Guide 7.5.1, 8"
        ),
    }
)

# Star Trek OP Guide 7.5.1: a game played ends in a Full Win / Full Loss (completed, conceded: 7.9), a
# Modified Win / Modified Loss or a True Tie (time: 7.4); 7.5.1, 13.5: a scheduled game not played.
PAIRS: tuple[ResultPair, ...] = (
    ResultPair("full-win", "full-loss", "Full Win / Full Loss", quick=True),
    ResultPair("modified-win", "modified-loss", "Modified Win / Modified Loss"),
    ResultPair("true-tie", "true-tie", "True Tie", quick=True),
    ResultPair("full-win", "missed-game", "Full Win / Missed Game (not played)"),
    ResultPair("bye", "full-loss", "Bye / Full Loss (not played)"),
    ResultPair("bye", "missed-game", "Bye / Missed Game (not played)"),
    ResultPair("missed-game", "missed-game", "two Missed Games (not played)"),
    ResultPair("bye", "bye", "two Byes (not played)"),
)
PAIRS_SOURCE = "Star Trek OP Guide 7.5.1, 13.5"
_ENDING_PAIRS: Mapping[str, frozenset[tuple[str, str]]] = MappingProxyType(
    {
        "outright": frozenset({("full-win", "full-loss")}),  # 7.4.1
        "concession": frozenset({("full-win", "full-loss")}),  # 7.9
        "game-loss": frozenset(
            {
                ("full-win", "full-loss"),
                ("true-tie", "true-tie"),  # 7.10, Appendix B
                ("full-win", "missed-game"),
                ("bye", "full-loss"),
            }
        ),  # 13.5
    }
)


def _pair(outcomes: tuple[str, ...]) -> tuple[str, str]:
    """The two outcomes in a canonical order (winner-ish first)."""
    a, b = outcomes
    return (a, b) if _PAIR_RANK[a] <= _PAIR_RANK[b] else (b, a)


_PAIR_RANK: Mapping[str, int] = MappingProxyType(
    {
        "full-win": 0,
        "modified-win": 1,
        "bye": 2,
        "true-tie": 3,
        "modified-loss": 4,
        "full-loss": 5,
        "missed-game": 6,
        "earned-bye": 7,
    }
)


def edition_of(ruleset_id: str) -> str:
    """``"1e"`` or ``"2e"``.

    >>> edition_of("startrek-1e")
    '1e'
    """
    return ruleset_id.rsplit("-", 1)[-1]


def variant_of(settings: Mapping[str, Any]) -> str:
    """The event's variant (``standard`` unless set).

    >>> variant_of({"variant": "slipstream"})
    'slipstream'
    """
    return cast(str, settings.get("variant", "standard"))


class StarTrekRuleset(Ruleset):
    """A Ruleset whose one- and two-player result checks follow 7.5.1 and 13.5."""

    __slots__ = ()

    def check_outcomes(self, players: tuple[str, ...], outcomes: tuple[str, ...], path: str) -> None:
        if len(players) == 1:
            if not self.outcome(outcomes[0]).solo:
                raise DocumentError(
                    path,
                    f"'{outcomes[0]}' needs an opponent; a one-player match takes "
                    "bye, earned-bye or missed-game (Star Trek OP Guide 7.5.1)",
                )
            return
        if "earned-bye" in outcomes:
            raise DocumentError(path, "'earned-bye' is for a one-player match (Star Trek OP Guide 7.5.1)")
        if not self.allows_pair(outcomes[0], outcomes[1]):
            raise DocumentError(path, self.pair_refusal(outcomes[0], outcomes[1]))


# Star Trek OP Guide 7.4, 7.4.1: the results whose differential needs both final scores.
_SCORED_PAIRS = frozenset({("full-win", "full-loss"), ("modified-win", "modified-loss")})


def _check_event(event: Event) -> None:
    """Whole-event checks: endings match results, scores where the differential needs them, earned byes."""
    edition = edition_of(event.ruleset)
    earned: dict[str, int] = {}
    allowed = {p.id: p.earned_byes for p in event.players}
    for i, rnd in enumerate(event.rounds):
        for j, match in enumerate(rnd.matches):
            ending = match.ending or "normal"
            if match.outcomes is None:
                continue
            if len(match.players) == 1:
                if ending != "normal":
                    raise DocumentError(
                        f"rounds[{i}].matches[{j}].ending", f"'{ending}' needs a game between two players"
                    )
            else:
                pair = _pair(match.outcomes)
                if ending != "normal" and pair not in _ENDING_PAIRS[ending]:
                    raise DocumentError(
                        f"rounds[{i}].matches[{j}].ending",
                        f"'{ending}' does not go with {list(match.outcomes)} (Star Trek OP Guide 7.4.1, 7.9, 7.10)",
                    )
                needs_scores = (
                    pair in _SCORED_PAIRS and ending != "game-loss" and not (ending == "concession" and edition == "2e")
                )
                if needs_scores and match.scores is None:
                    raise DocumentError(
                        f"rounds[{i}].matches[{j}].scores",
                        f"enter the final scores of {match.players[0]} and {match.players[1]}: both final scores "
                        "are needed for the differential (Star Trek OP Guide 7.4, 7.4.1)",
                    )
            if "earned-bye" not in match.outcomes:
                continue
            path = f"rounds[{i}].matches[{j}]"
            for seat, pid in enumerate(match.players):
                if match.outcomes[seat] != "earned-bye":
                    continue
                earned[pid] = earned.get(pid, 0) + 1
                if rnd.number > allowed[pid] or earned[pid] > allowed[pid]:
                    raise DocumentError(
                        f"{path}.outcomes",
                        f"'{pid}' has {allowed[pid]} earned bye(s) "
                        f"(players[].earned_byes) and cannot use one in round {rnd.number} "
                        "(Star Trek OP Guide 7.5.1: opening round or opening two rounds)",
                    )


def build(ruleset_id: str, settings: Mapping[str, Any]) -> Ruleset:
    """The ruleset for ``startrek-1e`` / ``startrek-2e`` with the event's variant.

    >>> build("startrek-2e", {"variant": "slipstream"}).time_limits["in-person"]
    30
    >>> build("startrek-1e", {"variant": "slipstream"})
    Traceback (most recent call last):
    ...
    shared_rules.errors.DocumentError: settings.variant: 'slipstream' is not a variant of startrek-1e (use standard, warp-speed)
    """
    edition = edition_of(ruleset_id)
    variant = variant_of(settings)
    usable = [v for v, editions in VARIANTS.items() if edition in editions]
    if not isinstance(variant, str) or variant not in usable:
        shown = f"'{variant}'" if isinstance(variant, str) else repr(variant)
        raise DocumentError("settings.variant", f"{shown} is not a variant of {ruleset_id} (use {', '.join(usable)})")
    title = {"1e": "Star Trek CCG First Edition", "2e": "Star Trek CCG Second Edition"}[edition]
    return StarTrekRuleset(
        id=ruleset_id,
        title=title if variant == "standard" else f"{title} ({variant})",
        document=DOCUMENT,
        outcomes=OUTCOMES,
        tiebreakers=TIEBREAKERS,
        match_sizes=(2, 2),
        endings=ENDINGS,
        policies=POLICIES,
        time_limits=MappingProxyType(dict(TIME_LIMITS[(edition, variant)])),
        event_check=_check_event,
        two_tied_key="startrek-h2h",  # Star Trek OP Guide 7.7, Glossary "Head-to-Head"
        reported=REPORTED,
        result_pairs=PAIRS,
        pairs_source=PAIRS_SOURCE,
        settings=MappingProxyType({**settings, "variant": variant, "differential_cap": VARIANT_CAPS[variant]}),
    )
