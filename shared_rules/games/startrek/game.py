"""The startrek game declarations (:class:`~shared_rules.games.base.Game`): what the registry hands out.

The section table is in the package docstring (``__init__.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from types import MappingProxyType
from typing import Any

from ...brackets.rules import MCINTYRE, BracketRules
from ...pairing.policies import PairingPolicy
from ...structures._model import Structure
from ..base import Game, PenaltySystem, PlayerIdField, ResultForm, TimeCalled, fixed_structure
from . import (
    game_end,
    ruleset,
    settings,
    structures,
)
from .decklists import decklists_of

__all__ = ["PAIRING", "BRACKETS", "PENALTIES", "SCORES", "GAMES"]

# Star Trek OP Guide 7.6, criteria 1-5 (4 read with 7.6's bye paragraph: see shared_rules.pairing.policies).
STARTREK_CRITERIA: tuple[str, ...] = (
    "1 no duplicate opponent",
    "4 maximum one bye per player (else both players get byes)",
    "the bye to the lowest VP total",
    "2 victory point totals match",
    "3 victory point totals are similar",
    "earned-bye players against the highest VP total",
    "5 ability to pair future rounds",
)
# Star Trek OP Guide 7.2 (scorecards), 7.5.1 (byes), 7.6 (later rounds), 13.4 (delayed results).
PAIRING = PairingPolicy(
    ruleset="startrek-1e",
    round_one="scorecards",
    bye_rule="lowest-points-random",
    rematch_scope="event",
    earned_bye_outcome="earned-bye",
    rematch_fallback="both-byes",
    pending_points=2,
    earned_bye_first=True,
    source="Star Trek OP Guide 7.2, 7.5.1, 7.6, 13.4",
    future_lookahead=True,
    criteria=STARTREK_CRITERIA,
)
# Star Trek OP Guide 10 / 10.2: Standard or Modified McIntyre, best-of-one or three, ties to the
# higher seed; 7.5.1: a player who drops leaves their opponent a bye.
BRACKETS = BracketRules(ruleset="startrek-1e", tie_to_higher_seed=True, source="Star Trek OP Guide 10, 10.2")
# Star Trek OP Guide 10.2: the bracket a match-play event names in settings.bracket.
BRACKET_NAMES: Mapping[str, str] = MappingProxyType({"standard": "standard", "modified-mcintyre": MCINTYRE})
# Star Trek OP Guide Appendix B: levels 0-4; a repeat of the same infraction at the event is
# upgraded one level per earlier one (capped at 4); floor judges issue levels 0 and 1.
PENALTIES = PenaltySystem(
    name="levels",
    levels=MappingProxyType(
        {
            0: ("verbal-warning", None, "Level 0 — verbal warning"),
            1: ("written-warning", None, "Level 1 — written warning"),
            2: ("turn-loss", "turn-loss", "Level 2 — turn loss"),
            3: ("game-loss", "game-loss", "Level 3 — game loss"),
            4: ("disqualification", "disqualification", "Level 4 — disqualification"),
        }
    ),
    floor=("0", "1"),
    infraction_field=True,
    hint="Star Trek OP Guide Appendix B: a repeat of the same infraction is upgraded one level.",
    source="Star Trek OP Guide Appendix B",
    consequences=MappingProxyType(
        {
            "3": "Level 3 [Game Loss]: during a game, a Full Loss for the player now and a Full Win for their "
            "opponent; between games, it applies to the player's next game. Enter it at their table with Correct "
            "(ending: game loss).",
            "4": "Level 4 [Disqualification]: the player is dropped from the tournament at once, dismissed from the "
            "venue and forfeits all prizes; during a game, a Full Loss for them and a Full Win for their opponent "
            "(enter it with Correct). Report it to your Organized Play Coordinator and the Director of Organized "
            "Play.",
        }
    ),
    # Appendix B, Index of Penalties (the level each section gives; B3 is "Level 3 Level 4": 3 is offered).
    # C3 Stalling: the index says Level 1, its section "C3. Stalling [Level 2]": the section is followed.
    infractions=(
        ("A1", "Procedural error, minor", 0),
        ("A2", "Procedural error, major", 1),
        ("A3", "Procedural error, severe", 2),
        ("B1", "Misconduct, minor", 1),
        ("B2", "Misconduct, major", 2),
        ("B3", "Misconduct, severe", 3),
        ("C1", "Contempt: deception", 4),
        ("C2", "Contempt: collusion", 4),
        ("C3", "Contempt: stalling", 2),
        ("D1", "Deck error: illegal deck", 2),
        ("D2", "Deck error: illegal deck list", 2),
        ("D3", "Deck error: non-random presentation", 0),
        ("D4", "Deck error: marked cards", 1),
    ),
)
# Star Trek OP Guide 7.3: each player's final score goes on the scorecard.
SCORES: Mapping[str, Any] = MappingProxyType({"legend": "Final scores", "min": None})


#: Star Trek OP Guide 7 ("Players should bring: their www.trekcc.org forum handle"), 7.2 (it goes on the
#: scorecard: "the primary source of tracking a player's results and ratings"), 8: the person across events. No form is given.
PLAYER_ID = PlayerIdField(label="trekcc.org forum handle", person="trekcc_id", source="Star Trek OP Guide 7, 7.2, 8")


def report_details(raw: Any) -> object:
    """``settings.report`` checked (Star Trek OP Guide 8, Appendix A); the report module loads only when asked."""
    from .report import check_report_details

    return check_report_details(raw)


def _game(ruleset_id: str, inputs: tuple[str, ...]) -> Game:
    edition = ruleset_id.removeprefix("startrek-")

    def build(n: int, name: str) -> Structure:
        return structures.structure(ruleset_id, n, name)

    def time_called(args: Mapping[str, Any]) -> Any:
        return game_end.time_called(ruleset_id, args["scores"], args.get("planet_missions"), args.get("space_missions"))

    return Game(
        id=ruleset_id,
        build=lambda settings: ruleset.build(ruleset_id, settings),
        pairing=replace(PAIRING, ruleset=ruleset_id),
        brackets=replace(BRACKETS, ruleset=ruleset_id),
        bracket_names=BRACKET_NAMES,
        structure_names=structures.NAMES,
        structure=fixed_structure(ruleset_id, build),
        # Star Trek OP Guide 7.8: the modified win at time reads the final scores (2E: and missions).
        time_called=TimeCalled(decide=time_called, inputs=inputs, uses="scores"),
        penalties=PENALTIES,
        result_form=ResultForm(scores=SCORES),
        report_details=report_details,
        decklists=decklists_of(ruleset_id),  # Star Trek OP Guide 7, Appendix B D1, D2
        player_id=PLAYER_ID,
        settings_ui=settings.sections(
            ruleset_id,
            ruleset.TIME_LIMITS[(edition, "standard")]["in-person"],
            tuple(v for v, editions in ruleset.VARIANTS.items() if edition in editions),
        ),
        settings_warnings=settings.warnings,
    )


GAMES: Mapping[str, Game] = MappingProxyType(
    {
        "startrek-1e": _game("startrek-1e", ()),
        "startrek-2e": _game("startrek-2e", ("planet_missions", "space_missions")),
    }
)
