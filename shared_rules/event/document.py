"""Load, validate and dump ``topcut-event/1`` documents (EVENT-FORMAT.md).

Validation names the exact field at fault, e.g.
``rounds[2].matches[5].outcomes: 'draw' is not an outcome of pokemon-tcg``.
Fields the format does not define are kept in ``extra`` and written back
unchanged, so a document round-trips through :func:`load_event` and
:func:`dump_event`.
"""

from __future__ import annotations

import gc
import itertools
import json
import math
import operator
from collections.abc import Callable, Mapping
from dataclasses import fields
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, cast

from .._json import json_kind as _kind
from ..errors import DocumentError
from .model import STAGES, Event, Match, Player, Round

if TYPE_CHECKING:
    from ..rulesets.base import Ruleset

__all__ = ["FORMAT", "RulesetOf", "load_event", "parse_event_json", "dump_event"]

#: How the loader finds the ruleset a document names: ``(ruleset id, settings) → Ruleset``, raising
#: :class:`DocumentError` for an unknown id. The caller hands it in (``shared_rules.run`` hands the
#: game registry's ``get_ruleset``), so this package never imports the games (issue #24).
RulesetOf = Callable[[str, Mapping[str, Any]], "Ruleset"]

FORMAT = "topcut-event/1"

_chain = itertools.chain.from_iterable
_PLAYERS_OF = operator.attrgetter("players")

_PLAYER_FIELDS = ("id", "name", "entry", "birth_year", "late", "dropped_after", "earned_byes")
_MATCH_FIELDS = ("table", "players", "outcomes", "scores", "stats", "ending", "games")
_ROUND_FIELDS = ("number", "stage", "matches")
_EVENT_FIELDS = ("format", "ruleset", "name", "seed", "settings", "players", "rounds")


def _frozen(value: Mapping[str, Any]) -> Mapping[str, Any]:
    return MappingProxyType(dict(value))


_NO_EXTRA: Mapping[str, Any] = MappingProxyType({})

# The model's frozen dataclasses set each field through object.__setattr__ in __init__; a
# document's thousands of matches and players are built faster by setting the slots directly
# (the same objects: every field given, in the order of the class; a field added to the class
# makes the unpacking of these setters fail at once).
_new_object = object.__new__
_MATCH_SLOTS = tuple(getattr(Match, f.name).__set__ for f in fields(Match))
_PLAYER_SLOTS = tuple(getattr(Player, f.name).__set__ for f in fields(Player))


def _extra(obj: Mapping[str, Any], known: tuple[str, ...]) -> Mapping[str, Any]:
    extra = {k: v for k, v in obj.items() if k not in known}
    return MappingProxyType(extra) if extra else _NO_EXTRA


def _need(obj: Mapping[str, Any], key: str, path: str) -> Any:
    if key not in obj:
        raise DocumentError(path, f"missing required field '{key}'")
    return obj[key]


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return (_is_int(value) or isinstance(value, float)) and math.isfinite(value)


def _int(value: Any, path: str, minimum: int | None = None) -> int:
    if not _is_int(value):
        raise DocumentError(path, f"expected a whole number, got {_kind(value)}")
    if minimum is not None and value < minimum:
        raise DocumentError(path, f"must be at least {minimum}, got {value}")
    return cast(int, value)


def _str(value: Any, path: str, allow_empty: bool = False) -> str:
    if not isinstance(value, str):
        raise DocumentError(path, f"expected a string, got {_kind(value)}")
    if not allow_empty and not value.strip():
        raise DocumentError(path, "must not be empty")
    return value


def _bool(value: Any, path: str) -> bool:
    if not isinstance(value, bool):
        raise DocumentError(path, f"expected true or false, got {_kind(value)}")
    return value


def _list(value: Any, path: str) -> list[Any]:
    if not isinstance(value, list):
        raise DocumentError(path, f"expected a list, got {_kind(value)}")
    return value


def _obj(value: Any, path: str) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise DocumentError(path, f"expected an object, got {_kind(value)}")
    return value


_PLAIN_PLAYER = frozenset(("id", "name", "entry"))


def _plain_player(obj: Any) -> Player | None:
    """The common entry (an object of only ``id``, ``name`` and ``entry``, all valid) without
    :func:`_player`'s field paths; None for anything else, which :func:`_player` then reads."""
    if obj.__class__ is not dict or not obj.keys() <= _PLAIN_PLAYER:
        return None
    pid = obj.get("id")
    name = obj.get("name", pid)
    entry = obj.get("entry")
    if (
        pid.__class__ is not str
        or name.__class__ is not str
        or entry.__class__ is not int
        or entry < 0
        or not pid.strip()
        or not name.strip()
    ):
        return None
    player = _new_object(Player)
    set_id, set_name, set_entry, set_birth_year, set_late, set_dropped, set_earned, set_extra = _PLAYER_SLOTS
    set_id(player, pid)
    set_name(player, name)
    set_entry(player, entry)
    set_birth_year(player, None)
    set_late(player, False)
    set_dropped(player, None)
    set_earned(player, 0)
    set_extra(player, _NO_EXTRA)
    return player


def _player(raw: Any, path: str) -> Player:
    obj = _obj(raw, path)
    pid = _str(_need(obj, "id", path), f"{path}.id")
    name = _str(obj.get("name", pid), f"{path}.name")
    entry = _int(_need(obj, "entry", path), f"{path}.entry", 0)
    birth_year = obj.get("birth_year")
    if birth_year is not None:
        birth_year = _int(birth_year, f"{path}.birth_year", 1900)
    late = _bool(obj.get("late", False), f"{path}.late")
    dropped = obj.get("dropped_after")
    if dropped is not None:
        dropped = _int(dropped, f"{path}.dropped_after", 0)
    earned = _int(obj.get("earned_byes", 0), f"{path}.earned_byes", 0)
    return Player(pid, name, entry, birth_year, late, dropped, earned, _extra(obj, _PLAYER_FIELDS))


def _per_player(value: Any, path: str, count: int) -> list[Any]:
    items = _list(value, path)
    if len(items) != count:
        raise DocumentError(path, f"expected {count} entries (one per player), got {len(items)}")
    return items


_MATCH_SET = frozenset(_MATCH_FIELDS)


def _match(raw: Any, path: str, ruleset: Any, known: Mapping[str, Player]) -> Match:
    # The checks, their order and their messages are those of the plain validators
    # (_obj, _need, _list, _per_player, _is_number); the common well-formed case
    # just skips building field paths and calling helpers.
    obj = raw if raw.__class__ is dict else _obj(raw, path)
    if "players" not in obj:
        raise DocumentError(path, "missing required field 'players'")
    ids = obj["players"]
    if ids.__class__ is not list:
        ids = _list(ids, f"{path}.players")
    count = len(ids)
    low, high = ruleset.match_sizes
    if not (count == 2 and low == 2) and (not 1 <= count <= high or 2 < count < low):
        sizes = "1" if high == 1 else f"1 or {low}" if low == high else f"1 or {low}-{high}"
        raise DocumentError(f"{path}.players", f"{count} players in a match; {ruleset.id} takes {sizes}")
    players: list[str] = []
    for i, pid in enumerate(ids):
        if pid.__class__ is not str or pid not in known:
            _str(pid, f"{path}.players[{i}]")
            raise DocumentError(f"{path}.players[{i}]", f"unknown player '{pid}'")
        if pid in players:
            raise DocumentError(f"{path}.players[{i}]", f"player '{pid}' is listed twice")
        players.append(pid)
    outcomes = None
    vocabulary = ruleset.outcome_keys
    raw_outcomes = obj.get("outcomes")
    if raw_outcomes is not None:
        if raw_outcomes.__class__ is list and len(raw_outcomes) == count:
            outcomes = tuple(raw_outcomes)
        else:
            outcomes = tuple(_per_player(raw_outcomes, f"{path}.outcomes", count))
        for value in outcomes:
            if value.__class__ is not str or value not in vocabulary:
                shown = f"'{value}'" if isinstance(value, str) else json.dumps(value)
                raise DocumentError(f"{path}.outcomes", f"{shown} is not an outcome of {ruleset.id}")
        ruleset.check_outcomes(tuple(players), outcomes, f"{path}.outcomes")
    table = obj.get("table")
    if table is not None and table.__class__ is not int:
        table = _int(table, f"{path}.table", 0)
    elif table is not None and table < 0:
        _int(table, f"{path}.table", 0)
    scores = None
    raw_scores = obj.get("scores")
    if raw_scores is not None:
        if raw_scores.__class__ is list and len(raw_scores) == count:
            scores = tuple(raw_scores)
        else:
            scores = tuple(_per_player(raw_scores, f"{path}.scores", count))
        for i, s in enumerate(scores):
            kind = s.__class__
            if not ((kind is int or kind is float) and math.isfinite(s)) and not _is_number(s):
                raise DocumentError(f"{path}.scores[{i}]", f"expected a number, got {_kind(s)}")
    stats = None
    raw_stats = obj.get("stats")
    if raw_stats is not None:
        if raw_stats.__class__ is not list or len(raw_stats) != count:
            raw_stats = _per_player(raw_stats, f"{path}.stats", count)
        stats = tuple(
            MappingProxyType(dict(s)) if s.__class__ is dict else _frozen(_obj(s, f"{path}.stats[{i}]"))
            for i, s in enumerate(raw_stats)
        )
        for i, s in enumerate(stats):
            for k, v in s.items():
                kind = v.__class__
                if not ((kind is int or kind is float) and math.isfinite(v)) and not _is_number(v):
                    raise DocumentError(f"{path}.stats[{i}].{k}", f"expected a number, got {_kind(v)}")
    ending = obj.get("ending")
    if ending is not None:
        _str(ending, f"{path}.ending")
        if ruleset.endings and ending not in ruleset.endings:
            raise DocumentError(
                f"{path}.ending", f"'{ending}' is not a game ending of {ruleset.id} (use {', '.join(ruleset.endings)})"
            )
    games = obj.get("games")
    if games is not None:
        games = tuple(_list(games, f"{path}.games"))
    extra = _NO_EXTRA if obj.keys() <= _MATCH_SET else _extra(obj, _MATCH_FIELDS)
    return Match(tuple(players), outcomes, table, scores, stats, ending, games, extra)


def _round(
    raw: Any,
    path: str,
    ruleset: Any,
    known: Mapping[str, Player],
    passed: set[tuple[int, tuple[str, ...]]] | None = None,
) -> Round:
    obj = _obj(raw, path)
    number = _int(_need(obj, "number", path), f"{path}.number", 1)
    stage = obj.get("stage", "swiss")
    if stage not in STAGES:
        raise DocumentError(f"{path}.stage", f"'{stage}' is not a stage (use {', '.join(STAGES)})")
    matches = _matches(
        _list(_need(obj, "matches", path), f"{path}.matches"), path, ruleset, known, set() if passed is None else passed
    )
    seated = list(_chain(map(_PLAYERS_OF, matches)))  # every seat of the round, gathered in C
    if len(set(seated)) != len(seated):
        seen: dict[str, int] = {}
        for i, m in enumerate(matches):
            for pid in m.players:
                if pid in seen:
                    raise DocumentError(
                        f"{path}.matches[{i}].players",
                        f"player '{pid}' is already in matches[{seen[pid]}] of this round",
                    )
                seen[pid] = i
    return Round(number, stage, matches, _extra(obj, _ROUND_FIELDS))


def _finite(value: Any) -> bool:
    kind = value.__class__
    return kind is int or (kind is float and math.isfinite(value))


_INTS = frozenset({int})


def _finite_values(stats: dict[str, Any]) -> bool:
    """Whether every value of a stats object is a finite number (whole numbers, the usual case, seen in C).

    >>> _finite_values({"a": 1, "b": 2}), _finite_values({"a": 1.5}), _finite_values({"a": True}), _finite_values({})
    (True, True, False, True)
    """
    values = stats.values()
    return _INTS.issuperset(map(type, values)) or all(map(_finite, values))


#: The keys of a reported table of two as the app writes it: ``{"table", "players", "outcomes"}``, and
#: with the app's operational ``state`` field (``shared_rules.state.to_event_document``).
_TABLE_KEYS = frozenset(("table", "players", "outcomes"))
_TABLE_STATE_KEYS = frozenset(("table", "players", "outcomes", "state"))


def _matches(
    raw: list[Any], path: str, ruleset: Any, known: Mapping[str, Player], passed: set[tuple[int, tuple[str, ...]]]
) -> tuple[Match, ...]:
    """The matches of one round.

    The common well-formed match is read here, without building field paths; any
    match this loop does not accept as it stands goes to :func:`_match`, which reads
    it field by field and names the first problem. ``passed`` remembers the
    (player count, outcomes) combinations ``ruleset.check_outcomes`` has accepted:
    its verdict depends on those alone (see :meth:`Ruleset.check_outcomes`).
    A reported table of two with exactly the keys ``table``, ``players`` and
    ``outcomes`` (and perhaps ``state``), whose outcomes are already in ``passed``, is
    read first, in fewer steps.
    """
    low, high = ruleset.match_sizes
    vocabulary = ruleset.outcome_keys
    endings = ruleset.endings
    set_players, set_outcomes, set_table, set_scores, set_stats, set_ending, set_games, set_extra = _MATCH_SLOTS
    out: list[Match] = []
    append = out.append
    for i, obj in enumerate(raw):
        if obj.__class__ is dict and (obj.keys() == _TABLE_KEYS or obj.keys() == _TABLE_STATE_KEYS):
            ids = obj["players"]
            outcomes = obj["outcomes"]
            table = obj["table"]
            if (
                ids.__class__ is list
                and outcomes.__class__ is list
                and table.__class__ is int
                and table >= 0
                and len(ids) == 2
                and len(outcomes) == 2
            ):
                a, b = ids
                oa, ob = outcomes
                # (2, outcomes) in passed: a table of two is a size this ruleset takes, and these
                # outcomes are in its vocabulary and were accepted by check_outcomes (loop below).
                if (
                    a.__class__ is str
                    and b.__class__ is str
                    and oa.__class__ is str
                    and ob.__class__ is str
                    and a != b
                    and a in known
                    and b in known
                    and (2, (oa, ob)) in passed
                ):
                    match = _new_object(Match)
                    set_players(match, (a, b))
                    set_outcomes(match, (oa, ob))
                    set_table(match, table)
                    set_scores(match, None)
                    set_stats(match, None)
                    set_ending(match, None)
                    set_games(match, None)
                    set_extra(match, _NO_EXTRA if len(obj) == 3 else MappingProxyType({"state": obj["state"]}))
                    append(match)
                    continue
        if obj.__class__ is not dict:
            append(_match(obj, f"{path}.matches[{i}]", ruleset, known))
            continue
        ids = obj.get("players")
        if ids.__class__ is not list:
            append(_match(obj, f"{path}.matches[{i}]", ruleset, known))
            continue
        count = len(ids)
        if count == 2:
            a, b = ids
            fine = (
                (low == 2 or high >= 2)
                and a.__class__ is str
                and b.__class__ is str
                and a != b
                and a in known
                and b in known
            )
        else:
            fine = (
                1 <= count <= high
                and not 2 < count < low
                and len(set(ids)) == count
                and all(pid.__class__ is str and pid in known for pid in ids)
            )
        outcomes = obj.get("outcomes")
        if fine and outcomes is not None:
            if outcomes.__class__ is list and len(outcomes) == count:
                outcomes = tuple(outcomes)
                for value in outcomes:
                    if value.__class__ is not str or value not in vocabulary:
                        fine = False
                        break
                else:
                    if (count, outcomes) not in passed:
                        ruleset.check_outcomes(tuple(ids), outcomes, f"{path}.matches[{i}].outcomes")
                        passed.add((count, outcomes))
            else:
                fine = False
        table = obj.get("table")
        if table is not None and (table.__class__ is not int or table < 0):
            fine = False
        scores = obj.get("scores")
        if fine and scores is not None:
            if scores.__class__ is list and len(scores) == count and all(map(_finite, scores)):
                scores = tuple(scores)
            else:
                fine = False
        stats = obj.get("stats")
        if fine and stats is not None:
            if stats.__class__ is list and len(stats) == count == 2:  # two seats: without generators
                sa, sb = stats
                if sa.__class__ is dict and sb.__class__ is dict and _finite_values(sa) and _finite_values(sb):
                    stats = (MappingProxyType(dict(sa)), MappingProxyType(dict(sb)))
                else:
                    fine = False
            elif (
                stats.__class__ is list
                and len(stats) == count
                and all(s.__class__ is dict and _finite_values(s) for s in stats)
            ):
                stats = tuple(MappingProxyType(dict(s)) for s in stats)
            else:
                fine = False
        ending = obj.get("ending")
        if ending is not None and (ending.__class__ is not str or ending not in endings):
            fine = False  # no vocabulary of endings, or not in it: _match reads it
        if not fine or "games" in obj and obj["games"] is not None:
            append(_match(obj, f"{path}.matches[{i}]", ruleset, known))
            continue
        match = _new_object(Match)  # Match(tuple(ids), outcomes, table, scores, stats, ending, None, extra)
        set_players(match, tuple(ids))
        set_outcomes(match, outcomes)
        set_table(match, table)
        set_scores(match, scores)
        set_stats(match, stats)
        set_ending(match, ending)
        set_games(match, None)
        set_extra(match, _NO_EXTRA if obj.keys() <= _MATCH_SET else _extra(obj, _MATCH_FIELDS))
        append(match)
    return tuple(out)


def load_event(doc: Any, ruleset_of: RulesetOf) -> Event:
    """Validate a decoded event document against the ruleset ``ruleset_of`` finds and build the :class:`Event`."""
    # Loading builds many small objects and no reference cycles: pause the cyclic
    # garbage collector, whose passes over the growing heap only cost time.
    paused = gc.isenabled()
    if paused:
        gc.disable()
    try:
        return _load_event(doc, ruleset_of)
    finally:
        if paused:
            gc.enable()


def _load_event(doc: Any, ruleset_of: RulesetOf) -> Event:
    obj = _obj(doc, "document")
    fmt = obj.get("format", FORMAT)
    if fmt != FORMAT:
        raise DocumentError("format", f"'{fmt}' is not supported (expected '{FORMAT}')")
    ruleset_id = _str(_need(obj, "ruleset", ""), "ruleset")
    settings = _obj(obj.get("settings", {}), "settings")
    ruleset = ruleset_of(ruleset_id, settings)
    seed = obj.get("seed", "")
    if not isinstance(seed, (str, int)) or isinstance(seed, bool):
        raise DocumentError("seed", f"expected a string, got {_kind(seed)}")
    players = tuple(
        _plain_player(p) or _player(p, f"players[{i}]")
        for i, p in enumerate(_list(_need(obj, "players", ""), "players"))
    )
    known: dict[str, Player] = {}
    for i, p in enumerate(players):
        if p.id in known:
            raise DocumentError(f"players[{i}].id", f"duplicate player id '{p.id}'")
        known[p.id] = p
    passed: set[tuple[int, tuple[str, ...]]] = set()
    rounds = tuple(
        _round(r, f"rounds[{i}]", ruleset, known, passed) for i, r in enumerate(_list(obj.get("rounds", []), "rounds"))
    )
    seen_rounds: dict[tuple[int, str], int] = {}
    for i, r in enumerate(rounds):
        if (r.number, r.stage) in seen_rounds:
            raise DocumentError(
                f"rounds[{i}].number",
                f"round {r.number} ({r.stage}) already appears as rounds[{seen_rounds[(r.number, r.stage)]}]",
            )
        seen_rounds[(r.number, r.stage)] = i
    _check_round_numbers(rounds)
    _check_seats(rounds, players, ruleset)
    name = obj.get("name", "")
    _str(name, "name", allow_empty=True)
    event = Event(ruleset_id, str(seed), players, rounds, name, _frozen(settings), _extra(obj, _EVENT_FIELDS))
    ruleset.check_event(event)
    return event


def _check_round_numbers(rounds: tuple[Round, ...]) -> None:
    """Round numbers run 1, 2, 3 ... without a gap (stages may share a number: Pokémon divisions, TOP 3.3.5)."""
    numbers = sorted({r.number for r in rounds})
    for expected, number in enumerate(numbers, start=1):
        if number != expected:
            i = next(i for i, r in enumerate(rounds) if r.number == number)
            missing = "round 1" if expected == 1 else f"round {expected}"
            raise DocumentError(
                f"rounds[{i}].number",
                f"round {number} is in the document but {missing} is not: "
                "round numbers must run 1, 2, 3 ... without a gap",
            )


def _check_seats(rounds: tuple[Round, ...], players: tuple[Player, ...], ruleset: Any) -> None:
    """Nobody plays twice in one round, nor after their ``dropped_after`` round."""
    dropped = {p.id: (i, p.dropped_after) for i, p in enumerate(players) if p.dropped_after is not None}
    losses = {o.key for o in ruleset.outcomes if o.result == "loss"}
    # Within one round nobody is seated twice (_round): only rounds sharing their number with
    # another round (another stage) can seat a player twice in that round number.
    numbers: dict[int, int] = {}
    for rnd in rounds:
        numbers[rnd.number] = numbers.get(rnd.number, 0) + 1
    seated: dict[tuple[int, str], tuple[int, int, int]] = {}
    for i, rnd in enumerate(rounds):
        shared = numbers[rnd.number] > 1
        if not shared and not dropped:
            continue
        if not shared:
            # Only a player seated after their drop needs a look: none in this round (a set
            # intersection in C) is the usual case, whatever the round's size.
            gone = {pid for pid, (_, last) in dropped.items() if rnd.number > last}
            if not gone or gone.isdisjoint(_chain(map(_PLAYERS_OF, rnd.matches))):
                continue
        for j, match in enumerate(rnd.matches):
            for k, pid in enumerate(match.players):
                if shared:
                    where = seated.setdefault((rnd.number, pid), (i, j, k))
                    if where != (i, j, k):
                        raise DocumentError(
                            f"rounds[{i}].matches[{j}].players[{k}]",
                            f"player '{pid}' already plays in round {rnd.number} "
                            "(rounds[{}].matches[{}].players[{}])".format(*where),
                        )
                if pid not in dropped or rnd.number <= dropped[pid][1]:
                    continue
                path = f"rounds[{i}].matches[{j}].players[{k}]"
                # A one-player loss (a Missed Game, Star Trek 7.5.1) may stand for a round after a drop.
                solo_loss = len(match.players) == 1 and match.outcomes is not None and match.outcomes[0] in losses
                # So may a bracket's placeholder keeping a dropped winner's slot (Doomtown 3.G: no replacement).
                # Pokémon TOP 3.2: or marked the loser of the game they dropped from.
                placeholder = rnd.stage == "elimination" and (
                    (len(match.players) == 1 and match.extra.get("dropped") is True)
                    or (
                        match.extra.get("dropped") == pid and match.outcomes is not None and match.outcomes[k] in losses
                    )
                )
                if not solo_loss and not placeholder:
                    index, last = dropped[pid]
                    raise DocumentError(
                        path,
                        f"player '{pid}' plays in round {rnd.number} but dropped after round "
                        f"{last} (players[{index}].dropped_after)",
                    )


def parse_event_json(text: str, ruleset_of: RulesetOf) -> Event:
    """Decode JSON text and validate it as an event document (see :func:`load_event`)."""
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DocumentError("document", f"not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None
    return load_event(doc, ruleset_of)


def _drop_none(obj: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in obj.items() if v is not None}


def dump_event(event: Event) -> dict[str, Any]:
    """The event as a plain JSON-able ``topcut-event/1`` document."""
    players = []
    for p in event.players:
        row = _drop_none(
            {"id": p.id, "name": p.name, "entry": p.entry, "birth_year": p.birth_year, "dropped_after": p.dropped_after}
        )
        if p.late:
            row["late"] = True
        if p.earned_byes:
            row["earned_byes"] = p.earned_byes
        row.update(p.extra)
        players.append(row)
    rounds = []
    for r in event.rounds:
        matches = []
        for m in r.matches:
            row = _drop_none(
                {
                    "table": m.table,
                    "players": list(m.players),
                    "outcomes": list(m.outcomes) if m.outcomes is not None else None,
                    "scores": list(m.scores) if m.scores is not None else None,
                    "stats": [dict(s) for s in m.stats] if m.stats is not None else None,
                    "ending": m.ending,
                    "games": list(m.games) if m.games is not None else None,
                }
            )
            row.update(m.extra)
            matches.append(row)
        rounds.append({"number": r.number, "stage": r.stage, "matches": matches, **r.extra})
    doc: dict[str, Any] = {
        "format": FORMAT,
        "ruleset": event.ruleset,
        "name": event.name,
        "seed": event.seed,
        "settings": dict(event.settings),
        "players": players,
        "rounds": rounds,
    }
    doc.update(event.extra)
    return doc
