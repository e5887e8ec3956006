"""Ranking: apply a ruleset's tiebreaker keys in order to tied groups."""

from __future__ import annotations

import gc
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from itertools import repeat
from operator import attrgetter, is_not
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from .._json import dumps_indented, indented_into, number_text, string_text
from ..errors import RulesError
from ..event.model import Event
from ..matches.winner import match_winner
from .common import ExactValues
from .context import StandingsContext, is_counted
from .metrics import get_metric

if TYPE_CHECKING:  # pragma: no cover
    from ..brackets.rules import BracketRules
    from ..rulesets.base import Ruleset

__all__ = [
    "Standing",
    "order_groups",
    "rank_swiss",
    "compute_standings",
    "standings_json",
    "standings_text",
    "lines_text",
    "place_elimination",
    "format_record",
    "standing_line",
]


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of the standings."""

    rank: int
    player: str
    points: float
    record: str
    tiebreakers: Mapping[str, Any]
    dropped: bool
    extra: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))

    def to_json(self) -> dict[str, Any]:
        """The line as EVENT-FORMAT.md's ``standings`` entry."""
        points = self.points
        row = {
            "rank": self.rank,
            "player": self.player,
            "points": points if points.__class__ is int else _number(points),
            "record": self.record,
            "tiebreakers": {k: v if v.__class__ is int else _number(v) for k, v in self.tiebreakers.items()},
            "dropped": self.dropped,
        }
        row.update(self.extra)
        return row


_NO_EXTRA: Mapping[str, Any] = MappingProxyType({})
_new_object = object.__new__
_DROPPED_AFTER = attrgetter("dropped_after")
_int_text = int.__repr__
_RECORD_TEXT = "{}-{}-{}".format  # what format_record's f-string writes, without a call per line
_float_text = float.__repr__
_SETTERS = tuple(getattr(Standing, f.name).__set__ for f in fields(Standing))  # a new field fails the unpacking


def standing_line(
    rank: int,
    player: str,
    points: float,
    record: str,
    tiebreakers: Mapping[str, Any],
    dropped: bool,
    extra: Mapping[str, Any] = _NO_EXTRA,
) -> Standing:
    """``Standing(rank, player, points, record, tiebreakers, dropped, extra)``, built several times faster.

    The frozen dataclass's ``__init__`` sets each field through ``object.__setattr__``;
    this sets the slots directly: the same object (and an empty ``extra`` by default).

    >>> standing_line(1, "p1", 3, "1-0-0", {}, False) == Standing(1, "p1", 3, "1-0-0", {}, False)
    True
    """
    line = _new_object(Standing)
    set_rank, set_player, set_points, set_record, set_tiebreakers, set_dropped, set_extra = _SETTERS
    set_rank(line, rank)
    set_player(line, player)
    set_points(line, points)
    set_record(line, record)
    set_tiebreakers(line, tiebreakers)
    set_dropped(line, dropped)
    set_extra(line, extra)
    return line


def _number(value: Any) -> Any:
    if value.__class__ is int:
        return value
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return int(value)
    return value


def format_record(wins: int, losses: int, ties: int) -> str:
    """A W-L-T record.

    >>> format_record(3, 1, 0)
    '3-1-0'
    """
    return f"{wins}-{losses}-{ties}"


def order_groups(
    ctx: StandingsContext, ids: Sequence[str], keys: Sequence[str], two_tied_key: str | None = None
) -> list[list[str]]:
    """Ordered tie groups after applying ``keys`` in turn (a group stays together while tied)."""
    groups: list[list[str]] = [list(ids)]
    two_tied = get_metric(two_tied_key) if two_tied_key else None
    for key in keys:
        metric = get_metric(key)
        nxt: list[list[str]] = []
        for group in groups:
            if len(group) == 1:
                nxt.append(group)
                continue
            for part in metric.split(ctx, group):
                # Star Trek OP Guide 7.7: whenever exactly two remain tied, head-to-head decides.
                if two_tied is not None and len(part) == 2 and key != two_tied_key:
                    nxt.extend(two_tied.split(ctx, part))
                else:
                    nxt.append(part)
        groups = nxt
        if all(len(g) == 1 for g in groups):
            break
    return groups


def rank_swiss(ctx: StandingsContext, keys: Sequence[str] | None = None) -> list[str]:
    """Player ids best first, by points then the ruleset's tiebreakers; entry order last."""
    ruleset = ctx.ruleset
    keys = list(keys if keys is not None else ("points", *ruleset.tiebreakers))
    ids = sorted(ctx.players, key=lambda pid: ctx.players[pid].entry)
    groups = order_groups(ctx, ids, keys, ruleset.two_tied_key)
    out: list[str] = []
    for group in groups:
        out.extend(sorted(group, key=lambda pid: ctx.players[pid].entry) if len(group) > 1 else group)
    return out


def place_elimination(
    event: Event, swiss_order: Sequence[str], ruleset: Ruleset, *, bracket: BracketRules | None
) -> list[str]:
    """Final placing: players in the cut by how far they went, then Swiss order.

    Eliminated players of the same elimination round are ordered by Swiss rank
    (Pokémon TOP 3.3.6; the same reading for every game with a cut). Who won a
    match is the bracket's rule (best-of-three games, Star Trek's tie to the
    higher seed); the winner of a third-place playoff ranks above its loser.
    ``bracket`` is None for a game without a bracket or settings it refuses: no
    elimination match is then decided.
    """
    elim = sorted((r for r in event.rounds if r.stage == "elimination"), key=lambda r: r.number)
    if not elim:
        return list(swiss_order)
    rules = bracket
    depth: dict[str, int] = {}
    for step, rnd in enumerate(elim, start=1):
        for match in rnd.matches:
            playoff = match.extra.get("playoff") == "third-place"
            try:
                decided, winner = (
                    match_winner(event, match, rules=rules, ruleset=ruleset)
                    if rules is not None and (is_counted(match) or match.games)
                    else (False, None)
                )
            except RulesError:
                decided, winner = False, None
            for pid in match.players:
                if playoff:
                    if decided and pid == winner:
                        depth[pid] = depth.get(pid, 0) + 1
                    continue
                reached = 2 * step + (1 if decided and pid == winner else 0)
                depth[pid] = max(depth.get(pid, 0), reached)
    position = {pid: i for i, pid in enumerate(swiss_order)}
    cut = sorted(depth, key=lambda pid: (-depth[pid], position.get(pid, len(position))))
    return cut + [pid for pid in swiss_order if pid not in depth]


def compute_standings(event: Event, ruleset: Ruleset, *, bracket: BracketRules | None) -> list[Standing]:
    """The event's standings under its ruleset and bracket rules, best first, ranks 1..N (Pokémon: within each division)."""
    # Standings build many small tuples and no reference cycles: the cyclic garbage
    # collector's passes over the growing heap only cost time (a third of a large event).
    paused = gc.isenabled()
    if paused:
        gc.disable()
    try:
        return _compute_standings(event, ruleset, bracket)
    finally:
        if paused:
            gc.enable()


def _compute_standings(event: Event, ruleset: Ruleset, bracket: BracketRules | None) -> list[Standing]:
    if ruleset.standings_hook is not None:
        return list(ruleset.standings_hook(event, ruleset))
    ctx = StandingsContext(event, ruleset)
    order = place_elimination(event, rank_swiss(ctx), ruleset, bracket=bracket)
    return standings_from_order(ctx, order)


def standings_from_order(
    ctx: StandingsContext, order: Sequence[str], reported: Sequence[tuple[str, str]] | None = None
) -> list[Standing]:
    """Standings lines for an already ranked list of players."""
    pairs = tuple(reported if reported is not None else ctx.ruleset.reported)
    names = [name for name, _ in pairs]
    # Each field read in rank order at once (the reported columns, then one row of values per player),
    # and set on every line in one pass per field.
    columns = [_in_order(ctx.metric(key), order) for _, key in pairs]
    rows = zip(*columns) if columns else ((),) * len(order)
    players = ctx.players
    records = map(ctx.records().__getitem__, order)
    fields = (
        range(1, len(order) + 1),
        order,
        map(ctx.points.__getitem__, order),
        map(_RECORD_TEXT, *zip(*records)) if order else (),  # format_record's text
        map(dict, map(zip, repeat(names), rows)),
        map(is_not, map(_DROPPED_AFTER, map(players.__getitem__, order)), repeat(None)),
        repeat(_NO_EXTRA),
    )
    lines = list(map(_new_object, repeat(Standing, len(order))))
    for setter, values in zip(_SETTERS, fields):
        deque(map(setter, lines, values), 0)
    return lines


def _in_order(values: Mapping[str, Any], order: Sequence[str]) -> list[Any]:
    """``[values[pid] for pid in order]``, read without a call per player."""
    if isinstance(values, ExactValues):
        return values.in_order(order)
    return list(map(values.__getitem__, order))


def standings_json(event: Event, ruleset: Ruleset, *, bracket: BracketRules | None) -> dict[str, Any]:
    """EVENT-FORMAT.md's ``{"standings": [...]}``."""
    return {"standings": [s.to_json() for s in compute_standings(event, ruleset, bracket=bracket)]}


def standings_text(event: Event, ruleset: Ruleset, *, bracket: BracketRules | None) -> str:
    """``json.dumps(standings_json(...), ensure_ascii=False, indent=1)``: the command line's output."""
    return lines_text(compute_standings(event, ruleset, bracket=bracket))


def lines_text(lines: Sequence[Standing]) -> str:
    """``{"standings": [...]}`` of these lines as indented JSON text, written line by line.

    The same text as ``json.dumps({"standings": [s.to_json() ...]}, ensure_ascii=False, indent=1)``
    without building each line's dictionary first (a third of a 4,096-player command line's output time).

    >>> print(lines_text([standing_line(1, "p1", 3.0, "1-0-0", {"owp": 0.5}, False)]))
    {
     "standings": [
      {
       "rank": 1,
       "player": "p1",
       "points": 3,
       "record": "1-0-0",
       "tiebreakers": {
        "owp": 0.5
       },
       "dropped": false
      }
     ]
    }
    """
    lines = list(lines)  # read twice when a line needs the general writer
    parts: list[str] = []
    append = parts.append
    heads: dict[str, str] = {}  # each tiebreaker name's text, written once
    for line in lines:
        rank, player, value, record = line.rank, line.player, line.points, line.record
        points = _int_text(value) if value.__class__ is int else number_text(value)
        if (
            line.extra
            or points is None
            or rank.__class__ is not int
            or player.__class__ is not str
            or record.__class__ is not str
            or line.dropped.__class__ is not bool
        ):  # anything unusual: the general writer, for this line
            append("\n  ")
            if not indented_into(line.to_json(), parts, "\n  "):
                return dumps_indented({"standings": [s.to_json() for s in lines]})
            append(",")
            continue
        tiebreakers = line.tiebreakers
        if tiebreakers:
            inner = []
            for key, value in tiebreakers.items():
                text: str | None
                # A finite float with a fraction is its repr (number_text's answer), without the call.
                if value.__class__ is float and value - value == 0.0 and not value.is_integer():
                    text = _float_text(value)
                else:
                    text = number_text(value)
                head = heads.get(key) if key.__class__ is str else None
                if head is None:
                    if text is None or key.__class__ is not str:
                        return dumps_indented({"standings": [s.to_json() for s in lines]})
                    head = heads[key] = f"\n    {string_text(key)}: "  # the same names on every line
                elif text is None:
                    return dumps_indented({"standings": [s.to_json() for s in lines]})
                inner.append(head + text)
            values = "{" + ",".join(inner) + "\n   }"
        else:
            values = "{}"
        append(
            f'\n  {{\n   "rank": {rank},\n   "player": {string_text(player)},\n   "points": {points},'
            f'\n   "record": {string_text(record)},\n   "tiebreakers": {values},'
            f'\n   "dropped": {"true" if line.dropped else "false"}\n  }},'
        )
    if not parts:
        return '{\n "standings": []\n}'
    parts[-1] = parts[-1][:-1]  # no comma after the last line
    return '{\n "standings": [' + "".join(parts) + "\n ]\n}"
