"""A player's view of the event, rendered from the folded state: what a player's phone shows, without folding
the log on the phone (issue 26).

The view keeps the state's keys and shapes, cut to what the player may see (the same privacy as the player's
pull of the log, backend/ledger/player_view.py):

* no draft round: drafted pairings are not posted yet;
* every other round with its round-level fields and only the player's own matches;
* the players: the player, and everyone they play against; no one else's birth year, game ID or notes;
* the player's own penalties, deck list and deck checks only;
* the event's seed withheld, and every round's secret time (Doomtown's d6, Floor Rules 3.A: "The exact length
  of rounds will not be announced to the players") None: the clock counts to the announced length only;
* other devices under the names ``alias`` gives them (the server's stable aliases), none listed.

Besides the state: the ruleset's ``info`` (``answers.ruleset_info``), the ``clock`` at ``now_ms``, the published
``standings`` (``published.py``: when the organizer's standings policy shows them, else None with
``standings_note`` saying why), the player's ``decklist`` sheet, their open ``calls`` and the posted ``bracket``.

What every player shares (the ruleset's info, the published standings) is :func:`shared_parts`, made once per
event state and handed to each :func:`player_view`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..errors import RulesError
from .answers import decklist_sheet, posted_bracket, published_standings, round_clocks, ruleset_info
from .state import WITHHELD_PREFIX

__all__ = ["VIEW_VERSION", "SharedParts", "shared_parts", "seat_index", "player_view"]

#: The view's format (``version`` in the body).
VIEW_VERSION = 1

#: Player fields only the player themself (and staff) see.
_PRIVATE_PLAYER_FIELDS: dict[str, Any] = {"birth_year": None, "extra": {}}


@dataclass(frozen=True, slots=True)
class SharedParts:
    """What every player's view of one event state holds alike: made once, handed to each view."""

    info: dict[str, Any] | None
    standings: dict[str, Any]
    #: Player id -> (round index, match index) of each of their matches in a posted round.
    seats: dict[str, list[tuple[int, int]]] | None = None
    #: The posted bracket (``answers.posted_bracket``), None before a cut round is posted.
    bracket: dict[str, Any] | None = None


def seat_index(state: Mapping[str, Any]) -> dict[str, list[tuple[int, int]]]:
    """Where each player sits: player id -> (round index, match index) in every round but a draft, in order."""
    seats: dict[str, list[tuple[int, int]]] = {}
    for r, rnd in enumerate(state["rounds"]):
        if rnd["status"] == "draft":
            continue
        for i, match in enumerate(rnd["matches"]):
            for pid in match["players"]:
                seats.setdefault(pid, []).append((r, i))
    return seats


def shared_parts(state: Mapping[str, Any]) -> SharedParts:
    """The ruleset's info and the published standings (rows with names) of an event state."""
    info = None
    if state["ruleset"] is not None:
        try:
            info = ruleset_info(state["ruleset"], state["settings"])
        except RulesError:
            info = None
    standings = published_standings(state)
    names = {p["id"]: p["name"] for p in state["players"]}
    rows = [{**row, "name": names.get(row["player"], row["player"])} for row in standings["rows"]]
    return SharedParts(info, {**standings, "rows": rows}, seat_index(state), posted_bracket(state))


def _same(device: str) -> str:
    return device


def _aliased_id(op_id: Any, alias: Callable[[str], str]) -> Any:
    """``device:seq`` with the device under its alias."""
    if not isinstance(op_id, str) or ":" not in op_id:
        return op_id
    device, _, seq = op_id.rpartition(":")
    return f"{alias(device)}:{seq}"


def _report(report: Mapping[str, Any], alias: Callable[[str], str]) -> dict[str, Any]:
    return {**report, "device": alias(report["device"]), "op_id": _aliased_id(report["op_id"], alias)}


def _match(match: Mapping[str, Any], alias: Callable[[str], str]) -> dict[str, Any]:
    return {**match, "reports": [_report(r, alias) for r in match["reports"]]}


def _list(entry: Mapping[str, Any], alias: Callable[[str], str]) -> dict[str, Any]:
    """A deck list (or a deck-list sheet row) with its changes' op_ids aliased."""
    changes = [{**c, "op_id": _aliased_id(c.get("op_id"), alias)} for c in entry.get("changes") or []]
    return {**entry, "changes": changes}


def _timer(timer: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """A round's clock with its secret time withheld (the key kept: the round has secret time)."""
    if timer is None:
        return None
    return {**timer, "secret_s": None} if "secret_s" in timer else dict(timer)


def _player(row: Mapping[str, Any], me: str) -> dict[str, Any]:
    return dict(row) if row["id"] == me else {**row, **_PRIVATE_PLAYER_FIELDS}


def _is_mine(call: Mapping[str, Any], me: str) -> bool:
    by = call.get("by")
    caller = by.get("player") if isinstance(by, Mapping) else by
    return call.get("player") == me or caller == me


def player_view(
    state: Mapping[str, Any],
    player_id: str,
    now_ms: int,
    *,
    shared: SharedParts | None = None,
    alias: Callable[[str], str] | None = None,
) -> dict[str, Any]:
    """The player ``player_id``'s view of a folded event state at ``now_ms`` (plain JSON, deterministic).

    ``shared``: :func:`shared_parts` of the same state, when already made; ``alias``: the name a device is shown
    under (the server's stable aliases; the player's own devices unchanged). Raises RulesError for a player
    the event does not have.
    """
    me = player_id
    if not any(p["id"] == me for p in state["players"]):
        raise RulesError(f"there is no player '{me}' in this event")
    alias = alias or _same
    parts = shared if shared is not None else shared_parts(state)
    rounds = []
    opponents: set[str] = {me}
    seats = parts.seats if parts.seats is not None else seat_index(state)
    where: dict[int, list[int]] = {}
    for r, i in seats.get(me, ()):
        where.setdefault(r, []).append(i)
    for r, rnd in enumerate(state["rounds"]):
        if rnd["status"] == "draft":
            continue  # drafted pairings are not posted yet
        mine = [rnd["matches"][i] for i in where.get(r, ())]
        for m in mine:
            opponents.update(m["players"])
        rounds.append(
            {
                **rnd,
                "paired_by": None,
                "timer": _timer(rnd["timer"]),
                "matches": [_match(m, alias) for m in mine],
            }
        )
    disputes = [
        # A dispute's reports are the conflicting reports' op ids (state.refresh_disputes), not reports.
        {**d, "reports": [_report(r, alias) if isinstance(r, dict) else _aliased_id(r, alias) for r in d["reports"]]}
        for d in state["disputes"]
        if me in d["players"]
    ]
    own_list = state["decklists"].get(me)
    view_state: dict[str, Any] = {
        "format": state["format"],
        "ruleset": state["ruleset"],
        "name": state["name"],
        "seed": WITHHELD_PREFIX + "view",
        "settings": state["settings"],
        "players": [_player(p, me) for p in state["players"] if p["id"] in opponents],
        "rounds": rounds,
        "disputes": disputes,
        "penalties": [
            {**p, "op_id": _aliased_id(p.get("op_id"), alias)}
            for p in state["penalties"]
            if isinstance(p, dict) and p.get("player") == me
        ],
        "cut": state["cut"],
        "closed": state["closed"],
        "created_by": None,
        "devices": {},
        "extra": {},
        "decklists": {me: _list(own_list, alias)} if own_list is not None else {},
        "deckchecks": [c for c in state["deckchecks"] if c.get("player") == me],
    }
    calls = [c for c in state.get("calls") or [] if _is_mine(c, me) and c.get("answered_at") is None]
    if "calls" in state:
        view_state["calls"] = calls
    decklist = None
    if state["ruleset"] is not None:
        try:
            decklist = decklist_sheet(state, now_ms, only={me})
            decklist["players"] = [_list(row, alias) for row in decklist["players"]]
        except RulesError:
            decklist = None
    standings = parts.standings
    return {
        "version": VIEW_VERSION,
        "server_ms": now_ms,
        "me": me,
        "state": view_state,
        "info": parts.info,
        "clock": round_clocks(view_state, now_ms),
        "standings": {k: standings[k] for k in ("after", "rows", "labels")} if standings["after"] else None,
        "standings_note": standings["note"],
        "decklist": decklist,
        "calls": calls,
        "bracket": parts.bracket,
    }
