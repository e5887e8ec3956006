"""Playing a bracket on: match winners, the next elimination round, drops, and a JSON view.

Readings where the documents are loose:
- A double loss in an elimination match (Doomtown 3.D: an unreported result)
  sends nobody on; the player who would have met the winner gets a bye.
- A tied elimination match is refused except in Star Trek match play, where
  it goes to the higher seed (Star Trek OP Guide 10).
- A qualified player who drops after the cut: Pokémon marks them the loser of
  their match, whatever its result (TOP 3.2); every other game gives the
  opponent a bye (Doomtown Floor Rules 3.G; Star Trek OP Guide 7.5.1; read the
  same way for AGoT and for Shatterpoint once the stage has started). The
  dropped player stays in the round as a one-player match with no result and
  ``"dropped": true``, so the final placing still counts them as eliminated
  in that round. Shatterpoint (Progression Cut): before any game of the stage
  is reported, the next-ranked player replaces them as the lowest seed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from ..errors import RulesError
from ..event.model import Event, Match, Player, Round
from ..matches.winner import elimination_rounds_of, match_winner, seed_map
from .cut import make_cut
from .rules import GAME_NUMBERS, MCINTYRE, STANDARD, BracketRules
from .seeding import fold_pairs

if TYPE_CHECKING:  # pragma: no cover
    from ..games.base import Game

__all__ = [
    "SlotResult",
    "slot_results",
    "match_winner",
    "next_elimination_round",
    "apply_drop_in_bracket",
    "bracket_view",
    "round_name",
]


@dataclass(frozen=True, slots=True)
class SlotResult:
    """One slot of an elimination round once its result is known (or not)."""

    slot: int
    players: tuple[str, ...]
    seeds: tuple[int | None, ...]
    winner: str | None
    decided: bool
    bye: bool = False
    dropped: str | None = None
    table: int | None = None


def _round_best_of(rules: BracketRules, rnd: Round) -> int | None:
    slots = rnd.extra.get("bracket", {}).get("slots") or sum(1 for m in rnd.matches if not m.extra.get("playoff"))
    return rules.best_of_for(2 * slots)


def slot_results(event: Event, rnd: Round, game: Game) -> list[SlotResult]:
    """The round's slots in order (a dropped player's placeholder is folded into its slot)."""
    rules = game.bracket_rules(event.settings)
    ruleset = game.ruleset(event.settings)
    best = _round_best_of(rules, rnd)
    by_slot: dict[int, list[Match]] = {}
    for index, m in enumerate(rnd.matches):
        if m.extra.get("playoff"):
            continue
        by_slot.setdefault(int(m.extra.get("slot", index + 1)), []).append(m)
    slots = int(rnd.extra.get("bracket", {}).get("slots", max(by_slot, default=0)))
    out: list[SlotResult] = []
    for slot in range(1, slots + 1):
        matches = by_slot.get(slot, [])
        players = tuple(p for m in matches for p in m.players)
        seeds = tuple(s for m in matches for s in (m.extra.get("seeds") or [None] * len(m.players)))
        decided, winner, dropped, table = True, None, None, None
        for m in matches:
            d, w = match_winner(event, m, best_of=best, rules=rules, ruleset=ruleset)
            decided = decided and d
            winner = winner or w
            table = table or m.table
            if m.extra.get("dropped") is True:
                dropped = m.players[0]
            elif isinstance(m.extra.get("dropped"), str):
                dropped = m.extra["dropped"]
        bye = len(players) == 1 and dropped is None
        out.append(SlotResult(slot, players, seeds, winner, decided, bye, dropped, table))
    return out


def _is_dropped(player: Player, before_round: int) -> bool:
    return player.dropped_after is not None and player.dropped_after < before_round


def _slot_matches(
    event: Event, rules: BracketRules, slot: int, entry: Sequence[tuple[str, int | None]], number: int
) -> list[Match]:
    """Matches for one slot of a new round, applying drops."""
    extra = {"slot": slot}
    live = [(p, s) for p, s in entry if not _is_dropped(event.player(p), number)]
    gone = [(p, s) for p, s in entry if _is_dropped(event.player(p), number)]
    if rules.drop == "loss" and len(entry) == 2 and len(live) == 1:
        # Pokémon TOP 3.2: a player who drops is marked the loser of the game.
        (a, _), (d, _) = live[0], gone[0]
        players = tuple(p for p, _ in entry)
        outcomes = tuple("win" if p == a else "loss" for p in players)
        return [Match(players, outcomes, extra={**extra, "seeds": [s for _, s in entry], "dropped": d})]
    out: list[Match] = []
    if len(live) == 2:
        out.append(Match(tuple(p for p, _ in live), extra={**extra, "seeds": [s for _, s in live]}))
    elif len(live) == 1:
        out.append(Match((live[0][0],), ("bye",), extra={**extra, "seeds": [live[0][1]]}))
    for p, s in gone:
        # Doomtown Floor Rules 3.G: no replacement; the opponent receives a bye.
        out.append(Match((p,), None, extra={**extra, "seeds": [s], "dropped": True}))
    return out


def _number_tables(matches: list[Match]) -> tuple[Match, ...]:
    table = 0
    out = []
    for m in matches:
        if len(m.players) == 2:
            table += 1
            m = replace(m, table=table)
        out.append(m)
    return tuple(out)


def next_elimination_round(event: Event, game: Game) -> Round:
    """The next elimination round from the last one's results (winners on, losers out)."""
    rules = game.bracket_rules(event.settings)
    elim = elimination_rounds_of(event)
    if not elim:
        raise RulesError("rounds: no elimination round yet; make the cut first")
    last = elim[-1]
    scheme = last.extra.get("bracket", {}).get("scheme", rules.scheme)
    results = slot_results(event, last, game)
    pending = [r for r in results if not r.decided]
    if pending:
        where = ", ".join(f"table {r.table}" if r.table else f"slot {r.slot}" for r in pending)
        raise RulesError(f"round {last.number}: results still missing ({where})")
    for m in last.matches:
        if m.extra.get("playoff") and m.outcomes is None and not m.games:
            raise RulesError(f"round {last.number}: the third-place playoff has no result")
    if len(results) <= 1:
        champion = results[0].winner if results else None
        names = {p.id: p.name or p.id for p in event.players}
        raise RulesError(
            f"round {last.number}: the bracket is finished"
            + (f": {names.get(champion, champion)} is the champion" if champion else "")
        )
    seeds = seed_map(event)
    winners: list[str | None] = [r.winner for r in results]
    if not any(winners):
        raise RulesError(f"round {last.number}: the bracket is finished: nobody goes on (double losses or drops)")
    if scheme == MCINTYRE:
        # Reading of Star Trek OP Guide 10.2 (Modified McIntyre): re-seed every round, the
        # highest surviving seed meeting the lowest.
        survivors = sorted((w for w in winners if w is not None), key=lambda p: seeds.get(p, 10**9))
        alive: list[str | None] = list(survivors)
        if len(alive) % 2:
            alive.insert(1, None)  # the top surviving seed gets the bye
        pairs = fold_pairs(alive)
    elif scheme == GAME_NUMBERS:
        # AGoT Tournament Regulations, Single Elimination Rounds: winner of Game #1 v winner of
        # the last game (new Game #1), #2 v second-to-last...
        pairs = fold_pairs(winners)
    else:
        # Doomtown Floor Rules 5.B: a fixed bracket; neighbouring slots meet.
        pairs = [(winners[i], winners[i + 1]) for i in range(0, len(winners), 2)]
    number = max(r.number for r in event.rounds) + 1
    matches: list[Match] = []
    for slot, pair in enumerate(pairs, start=1):
        entry = [(p, seeds.get(p)) for p in pair if p is not None]
        matches.extend(_slot_matches(event, rules, slot, entry, number))
    if len(pairs) == 1 and rules.third_place:
        # Pokémon TOP 3.2.3 / 3.3.6: the losers of the Top 4 may play off for 3rd and 4th.
        losers = [
            p
            for r in results
            if r.winner is not None and len(r.players) == 2 and r.dropped is None
            for p in r.players
            if p != r.winner
        ]
        if len(losers) == 2:
            matches.append(
                Match(tuple(losers), extra={"playoff": "third-place", "seeds": [seeds.get(p) for p in losers]})
            )
    return Round(number, "elimination", _number_tables(matches), {"bracket": {"scheme": scheme, "slots": len(pairs)}})


def _with_player(event: Event, player: Player, rounds: tuple[Round, ...] | None = None) -> Event:
    players = tuple(player if p.id == player.id else p for p in event.players)
    return Event(
        event.ruleset,
        event.seed,
        players,
        event.rounds if rounds is None else rounds,
        event.name,
        event.settings,
        event.extra,
    )


def apply_drop_in_bracket(event: Event, game: Game, player_id: str) -> Event:
    """The event after a qualified player drops during the elimination stage (rules per game)."""
    rules = game.bracket_rules(event.settings)
    try:
        player = event.player(player_id)
    except KeyError:
        raise RulesError(f"player: unknown player '{player_id}'") from None
    if player.dropped_after is not None:
        raise RulesError(f"player: '{player_id}' has already dropped")
    elim = elimination_rounds_of(event)
    if not elim:
        raise RulesError("rounds: no cut yet; a player who drops before the cut is left out of it")
    last = elim[-1]
    index = next((i for i, m in enumerate(last.matches) if player_id in m.players and not m.extra.get("playoff")), None)
    played = index is not None and (last.matches[index].outcomes is not None or bool(last.matches[index].games))
    stage_started = any(m.outcomes is not None or m.games for r in elim for m in r.matches if len(m.players) == 2)
    if rules.replace_before_stage and len(elim) == 1 and not stage_started:
        # Shatterpoint Showdown, Progression Cut: the next-ranked player joins as the lowest seed.
        dropped = replace(player, dropped_after=last.number - 1)
        rest = tuple(r for r in event.rounds if r is not last)
        base = _with_player(event, dropped, rest)
        cut = last.extra.get("bracket", {}).get("cut")
        new_round = make_cut(base, game, cut)
        new_round = replace(new_round, number=last.number)
        return _with_player(base, dropped, rest + (new_round,))
    if index is None or (played and rules.drop != "loss") or len(last.matches[index].players) == 1:
        # Not in this round, already finished it, or had a bye: later rounds apply the drop.
        return _with_player(event, replace(player, dropped_after=last.number))
    dropped = replace(player, dropped_after=last.number - 1)
    match = last.matches[index]
    other = next(p for p in match.players if p != player_id)
    seeds = list(match.extra.get("seeds") or [None, None])
    seed_of = dict(zip(match.players, seeds))
    if rules.drop == "loss":
        # Pokémon TOP 3.2: marked the loser regardless of the actual outcome.
        outcomes = tuple("loss" if p == player_id else "win" for p in match.players)
        new = [replace(match, outcomes=outcomes, games=None, extra={**match.extra, "dropped": player_id})]
    else:
        base_extra = {k: v for k, v in match.extra.items() if k != "seeds"}
        new = [
            Match((other,), ("bye",), extra={**base_extra, "seeds": [seed_of[other]]}),
            Match((player_id,), None, extra={**base_extra, "seeds": [seed_of[player_id]], "dropped": True}),
        ]
    matches = list(last.matches[:index]) + new + list(last.matches[index + 1 :])
    new_last = replace(last, matches=_number_tables(matches))
    rounds = tuple(new_last if r is last else r for r in event.rounds)
    return _with_player(event, dropped, rounds)


def round_name(players: int) -> str:
    """A display name for a round that starts with ``players`` bracket places.

    >>> round_name(2), round_name(4), round_name(16)
    ('Final', 'Semifinals', 'Top 16')
    """
    return {2: "Final", 4: "Semifinals", 8: "Quarterfinals"}.get(players, f"Top {players}")


def bracket_view(event: Event, game: Game) -> dict[str, Any]:
    """The whole bracket as JSON for the UI: rounds, slots, seeds, winners, byes, what comes next."""
    rules = game.bracket_rules(event.settings)
    ruleset = game.ruleset(event.settings)
    elim = elimination_rounds_of(event)
    seeds = seed_map(event)
    view: dict[str, Any] = {
        "ruleset": event.ruleset,
        "scheme": elim[0].extra.get("bracket", {}).get("scheme", rules.scheme) if elim else rules.scheme,
        "best_of": rules.best_of,
        "final_best_of": rules.final_best_of,
        "third_place": rules.third_place,
        "source": rules.source,
        "seeds": [{"seed": s, "player": p} for p, s in sorted(seeds.items(), key=lambda kv: kv[1])],
        "rounds": [],
        "playoff": None,
        "champion": None,
    }
    slots_left = 0
    for rnd in elim:
        rows = []
        for r in slot_results(event, rnd, game):
            match_games = [m.games for m in rnd.matches if m.extra.get("slot") == r.slot and m.games]
            rows.append(
                {
                    "slot": r.slot,
                    "table": r.table,
                    "players": [{"player": p, "seed": s} for p, s in zip(r.players, r.seeds)],
                    "bye": r.bye,
                    "dropped": r.dropped,
                    "winner": r.winner if r.decided else None,
                    "decided": r.decided,
                    "games": list(match_games[0]) if match_games else None,
                }
            )
        slots_left = len(rows)
        view["rounds"].append(
            {
                "number": rnd.number,
                "name": round_name(2 * len(rows)),
                "best_of": rules.best_of_for(2 * len(rows)),
                "slots": rows,
            }
        )
        for m in rnd.matches:
            if m.extra.get("playoff") == "third-place":
                decided, winner = match_winner(event, m, best_of=rules.best_of, rules=rules, ruleset=ruleset)
                view["playoff"] = {
                    "round": rnd.number,
                    "table": m.table,
                    "players": list(m.players),
                    "winner": winner if decided else None,
                }
    if elim and slots_left == 1:
        final = view["rounds"][-1]["slots"][0]
        view["champion"] = final["winner"]
    # What is still to come: in a fixed bracket each slot is fed by two earlier slots.
    number = max((r.number for r in event.rounds), default=0)
    scheme = view["scheme"]
    while slots_left > 1:
        number += 1
        slots_left //= 2
        feeds: list[list[int] | None]
        if scheme == GAME_NUMBERS:
            feeds = [[k, 2 * slots_left + 1 - k] for k in range(1, slots_left + 1)]
        elif scheme == STANDARD:
            feeds = [[2 * k - 1, 2 * k] for k in range(1, slots_left + 1)]
        else:
            feeds = [None] * slots_left  # re-seeded: opponents depend on results
        view["rounds"].append(
            {
                "number": number,
                "name": round_name(2 * slots_left),
                "best_of": rules.best_of_for(2 * slots_left),
                "slots": [
                    {
                        "slot": k,
                        "table": None,
                        "players": [],
                        "bye": False,
                        "dropped": None,
                        "winner": None,
                        "decided": False,
                        "games": None,
                        "from": feeds[k - 1],
                    }
                    for k in range(1, slots_left + 1)
                ],
            }
        )
    return view
