"""What an event pairs next, from registration to the final: ``next_round(event, game)``.

- No elimination round yet and Swiss rounds left: the next Swiss round
  (:func:`.next_round.pair_next_round`).
- The Swiss is over: the cut's first round (:func:`..brackets.make_cut`,
  ``settings.cut`` or the document's table; flights merged, Pokémon TOP
  3.3.3.2), or an error saying the event is complete when it has no cut.
- An elimination round exists: the next one from its results
  (:func:`..brackets.next_elimination_round`: fixed brackets, AGoT game
  numbers, Star Trek Modified McIntyre, best-of-three, the 3rd/4th playoff),
  or an error naming the champion once the final is decided.
- ``settings.structure: "single-elimination"``: single elimination from the
  start (Pokémon TOP 3.2: random seeds, the top seeds take the byes, 53
  players give 11 byes; AGoT, Single Elimination Rounds: random byes and game
  numbers).
- ``settings.seeds``: a bracket seeded from outside the event, best first
  (Star Trek OP Guide 9 heats via :func:`..brackets.two_heat_seeds`, or a
  match-play event, 10).

The result speaks the event format's ``pair`` output: ``{"round", "stage",
"matches": [{"table", "players"}]}`` with byes as one-player matches carrying
their outcome, plus each elimination match's bracket fields (``slot``,
``seeds``, ``playoff``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..errors import RulesError
from ..event.model import Event, Round
from .next_round import check_results_complete, pair_next_round, swiss_rounds

if TYPE_CHECKING:  # pragma: no cover
    from ..games.base import Game

__all__ = ["SINGLE_ELIMINATION", "next_round", "round_json"]

#: ``settings.structure`` of an event that is single elimination from the start.
SINGLE_ELIMINATION = "single-elimination"


def next_round(event: Event, game: Game) -> dict[str, Any]:
    """The next round of the event, whatever stage it is in, as the ``pair`` command prints it."""
    # The brackets are imported only where a bracket is paired: a Swiss round's pairing starts without them.
    if any(r.stage == "elimination" for r in event.rounds):
        from ..brackets.advance import next_elimination_round

        return round_json(next_elimination_round(event, game))
    seeds = event.settings.get("seeds")
    if seeds is not None and not event.rounds:
        if not isinstance(seeds, list) or not all(isinstance(s, str) for s in seeds):
            raise RulesError("settings.seeds: expected a list of player ids, best first")
        from ..brackets.cut import seed_bracket

        return round_json(seed_bracket(event, game, seeds, cut=len(seeds)))
    if event.settings.get("structure") == SINGLE_ELIMINATION:
        if event.rounds:
            raise RulesError(
                "settings.structure: single elimination from the start, but the document has "
                f"Swiss round {event.rounds[0].number}"
            )
        from ..brackets.cut import start_single_elimination

        return round_json(start_single_elimination(event, game))
    played = max((r.number for r in event.rounds), default=0)
    if played < swiss_rounds(event, game):
        return pair_next_round(event, game).to_json()
    cut = event.settings.get("cut")
    if cut == 0:
        raise RulesError(
            f"all {played} Swiss rounds are played and settings.cut is 0: the event is complete "
            "(python -m shared_rules standings gives the final ranking)"
        )
    check_results_complete(event, played + 1, game.pairing_policy(event.settings))
    from ..brackets.cut import make_cut

    return round_json(make_cut(event, game))


def round_json(rnd: Round) -> dict[str, Any]:
    """An elimination round in the ``pair`` output's shape, with its bracket fields."""
    matches = []
    for m in rnd.matches:
        row: dict[str, Any] = {}
        if m.table is not None:
            row["table"] = m.table
        row["players"] = list(m.players)
        if m.outcomes is not None:  # a bye, or a game a dropped player forfeits (Pokémon TOP 3.2)
            row["outcomes"] = list(m.outcomes)
        row.update({k: v for k, v in dict(m.extra).items() if k not in ("state", "disputed")})
        matches.append(row)
    out: dict[str, Any] = {"round": rnd.number, "stage": rnd.stage, "matches": matches}
    out.update({k: v for k, v in dict(rnd.extra).items()})
    return out
