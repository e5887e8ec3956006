"""The Swiss pairing policy model (bye rule, rematch scope, round 1, pair-down); each game declares its own
in its package (``shared_rules/games/<game>/game.py``); :meth:`shared_rules.games.base.Game.pairing_policy`
applies an event's settings to it.

Readings where the documents are loose (the project's):

- Doomtown Floor Rules 3 and 5 say Swiss rounds are played but give no
  pairing method and no bye rule. We pair like AGoT and Shatterpoint (same
  points at random, odd group paired down at random, no rematch in the
  Swiss) and give the bye to the lowest-ranked player without one, ranked by
  Doomtown's own standings (7); the bye is a win inside time (7.E).
- Pokémon day two (3.3.5) is the same Swiss as day one: records carry over,
  a day-one opponent is still a rematch and a day-one bye still counts.
- Shatterpoint (Pairings): "a single stage ends when a progression cut is
  made" — only rounds of the same stage are rematches. AGoT (Swiss Rounds):
  no rematch during the Swiss rounds. Star Trek 7.6: no rematch "during any
  in-person tournament" — every round of the event counts.
- Star Trek 7.6's "no player paired down more than once each round" and
  "VP totals similar" are what minimising the total squared point gap gives;
  criterion 5 ("ability to pair future rounds") is the lookahead of
  :mod:`.lookahead` (``future_lookahead``): among the pairings equal on
  criteria 1-4, one after which the remaining rounds can still be paired
  without rematches (and without second byes) is preferred; it runs only
  when the event is small enough for the future to fail.
- The bye is chosen inside the optimization (:func:`.swiss.choose_bye`), in
  the order ``PairingPolicy.criteria`` records: no rematch; no second bye
  while a pairing without one exists; the bye rule's preference; then equal
  and similar points. Star Trek 7.6 lists "maximum one bye per player" (4)
  after similar VP (3), but 7.6's bye paragraph allows a second bye only when
  "every possible combination of pairings would result in two players having
  to play each other for a second time": a second bye is weighed against
  rematches only, never against VP gaps.
- Where no legal pairing exists at all (the exact matcher proves it), other
  rulesets than Star Trek pair the fewest rematches (with a warning naming
  them); Star Trek gives both players byes instead (7.5.1, 7.6).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["PairingPolicy", "ROUND_ONE", "BYE_RULES", "REMATCH_SCOPES", "SWISS_CRITERIA"]

#: How round 1 is paired.
ROUND_ONE = ("random", "scorecards", "pods")
#: Who receives the bye of an odd round after round 1.
BYE_RULES = ("random-lowest-bracket", "lowest-ranked-without-bye", "lowest-points-random", "none")
#: Which earlier rounds make a pairing a rematch.
REMATCH_SCOPES = ("stage", "swiss", "event")
#: The usual pairing objective, most important first.
SWISS_CRITERIA: tuple[str, ...] = (
    "no rematch",
    "no second bye",
    "the bye rule's preference",
    "equal points",
    "similar points",
)


@dataclass(frozen=True, slots=True, kw_only=True)
class PairingPolicy:
    """How one ruleset pairs a Swiss round, with the sections that say so.

    >>> PairingPolicy(ruleset="x", source="house rules").bye_rule
    'lowest-ranked-without-bye'
    """

    ruleset: str
    #: How round 1 is paired (ROUND_ONE).
    round_one: str = "random"
    #: Who receives the bye of an odd round after round 1 (BYE_RULES).
    bye_rule: str = "lowest-ranked-without-bye"
    #: Which earlier rounds make a pairing a rematch (REMATCH_SCOPES).
    rematch_scope: str = "swiss"
    bye_outcome: str | None = "bye"
    earned_bye_outcome: str | None = None
    #: What happens when only rematches remain: "both-byes" (Star Trek 7.5.1) or "allow-rematch".
    rematch_fallback: str = "allow-rematch"
    #: Points a pending (delayed) result counts for pairing, or None: pairing then waits for it.
    pending_points: float | None = None
    #: Pokémon age divisions (Age-Separated pods / Age-Modified pairing).
    divisions: bool = False
    #: Earned-bye holders are paired first against the highest point group (Star Trek 7.6).
    earned_bye_first: bool = False
    #: Tribbles pods kept for this many rounds, 0 for two-player Swiss.
    pod_rounds: int = 0
    source: str
    #: Prefer, among equally good pairings, one that keeps the remaining rounds pairable (Star Trek 7.6, 5).
    future_lookahead: bool = False
    #: The pairing objective, most important first (what :func:`.swiss.choose_bye` and the matcher minimise).
    criteria: tuple[str, ...] = SWISS_CRITERIA
    #: The bye outcome exists only when ``settings.points`` names it (house rules).
    bye_from_points: bool = False
