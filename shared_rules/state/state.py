"""The state of an event: a plain JSON dict, the fold of its operations.

Shape (every key always present, in this order)::

    {"format": "topcut-state/1",
     "ruleset": "custom" | None, "name": "", "seed": "", "settings": {},
     "players": [{"id", "name", "entry", "birth_year", "late", "dropped_after",
                  "earned_byes", "checked_in", "ejected", "extra"}],
     "rounds": [{"number", "stage", "status", "paired_by", "timer", "matches", "extra"}],
     "disputes": [{"round", "stage", "match", "table", "players", "reports"}],
     "penalties": [{"op_id", "at", "by", "player", "round", "kind", "level",
                    "infraction", "reason", "effect", "scorecard"}
                   + "dropped": round, when the penalty dropped the player
                   + {"rescinded": {"op_id", "at", "by", "reason"}} once rescinded],
     "cut": None | size, "closed": False, "created_by": None | device,
     "devices": {device: last sequence applied}, "extra": {},
     "decklists": {player id: {"sections": {section key: text},
                               "changes": [{"op_id", "at", "by", "reason", "locked"}]}},
     "deckchecks": [{"op_id", "at", "by", "player", "round", "table", "outcome", "note", "penalty"}],
     "calls": [{"id", "kind", "by", "player", "table", "round", "reason", "where", "note", "at",
                "on_my_way", "answered_by", "answered_at"}] (calls.py; not part of the event document)}

A match is ``{"table", "players", "outcomes", "scores", "stats", "ending",
"games", "status", "reports", "extra"}``: the result fields hold the official
result (only while ``status`` is ``confirmed`` or ``resolved``); ``reports``
is every report in log order, ``{"op_id", "device", "actor", "at", "kind",
"result", "reason"}``, and ``status`` is recomputed from them by :func:`settle`.
A round's ``timer`` is ``{"started_at", "duration_s", "paused_at", "paused_ms",
"extended_s"}`` so any device can render it from its own clock
(:func:`timer_remaining_ms`), plus ``"secret_s"`` for a round with secret time
(Doomtown's d6): the seconds added to the announced length, or ``None`` on a
device the event's seed is withheld from (a player's); ``paired_by`` is ``{"device", "op_id", "at"}`` of the
winning pairing (plus ``swapped_by``: the last ``round.swap``, and ``swaps``: how many since it was paired). ``rounds`` is in play order; round numbers run
on across stages when rounds are paired by operations.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ..errors import DocumentError, RulesError
from ..event.document import FORMAT, dump_event
from ..run import load_event
from .index import has_open

__all__ = [
    "STATE_FORMAT",
    "ROUND_STATUSES",
    "MATCH_STATUSES",
    "SETTLED",
    "FINAL_KINDS",
    "RESULT_FIELDS",
    "initial_state",
    "new_player",
    "new_round",
    "new_match",
    "settle",
    "refresh_match",
    "refresh_round",
    "refresh_disputes",
    "timer_remaining_ms",
    "to_event_document",
    "WITHHELD_PREFIX",
    "is_withheld",
    "from_event_document",
    "clone",
]

STATE_FORMAT = "topcut-state/1"
#: What a value withheld from a player's view of the log starts with (another player's penalty reason,
#: the seed of an event with secret round time); a real seed may not (the server refuses it).
WITHHELD_PREFIX = "withheld-"
ROUND_STATUSES = ("draft", "published", "started", "complete")
MATCH_STATUSES = ("pending", "reported", "confirmed", "disputed", "resolved")
#: Statuses whose result counts (standings, pairing, round completion).
SETTLED = frozenset({"confirmed", "resolved"})


def _is_settled(match: Mapping[str, Any]) -> bool:
    """Whether a match's result counts (its status is settled)."""
    return match["status"] in SETTLED


#: Report kinds that decide a match outright; the latest of them wins over every other report.
#: ``pairing``: a bye given with the pairings; ``late``: Pokémon 3.1.3 late loss; ``import``: from a document;
#: ``missed``: a loss for a round missed before rejoining (Shatterpoint Pairings; Star Trek 7.5.1).
FINAL_KINDS = frozenset({"correct", "resolve", "pairing", "late", "missed", "import", "import-disputed"})
#: The result fields of a match, in document order.
RESULT_FIELDS = ("outcomes", "scores", "stats", "ending", "games")


def clone(value: Any) -> Any:
    """A deep copy of a JSON value (faster than :func:`copy.deepcopy` for plain data).

    >>> a = {"x": [1, {"y": 2}]}; b = clone(a); b["x"][1]["y"] = 3; a["x"][1]["y"]
    2
    """
    if isinstance(value, dict):
        return {k: clone(v) for k, v in value.items()}
    if isinstance(value, list):
        return [clone(v) for v in value]
    return value


def initial_state() -> dict[str, Any]:
    """The state before ``event.create``.

    >>> initial_state()["rounds"], initial_state()["closed"]
    ([], False)
    """
    return {
        "format": STATE_FORMAT,
        "ruleset": None,
        "name": "",
        "seed": "",
        "settings": {},
        "players": [],
        "rounds": [],
        "disputes": [],
        "penalties": [],
        "cut": None,
        "closed": False,
        "created_by": None,
        "devices": {},
        "extra": {},
        "decklists": {},
        "deckchecks": [],
        "calls": [],
    }


def new_player(
    pid: str,
    name: str,
    entry: int,
    *,
    birth_year: int | None = None,
    late: bool = False,
    dropped_after: int | None = None,
    earned_byes: int = 0,
    checked_in: bool = False,
    ejected: bool = False,
    extra: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """One player row."""
    return {
        "id": pid,
        "name": name,
        "entry": entry,
        "birth_year": birth_year,
        "late": late,
        "dropped_after": dropped_after,
        "earned_byes": earned_byes,
        "checked_in": checked_in,
        "ejected": ejected,
        "extra": dict(extra or {}),
    }


def new_round(
    number: int,
    stage: str,
    matches: list[dict[str, Any]],
    *,
    status: str = "draft",
    paired_by: Mapping[str, Any] | None = None,
    timer: Mapping[str, Any] | None = None,
    extra: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """One round row."""
    return {
        "number": number,
        "stage": stage,
        "status": status,
        "paired_by": dict(paired_by) if paired_by is not None else None,
        "timer": dict(timer) if timer is not None else None,
        "matches": matches,
        "extra": dict(extra or {}),
    }


def new_match(
    players: list[str],
    table: int | None = None,
    reports: list[dict[str, Any]] | None = None,
    extra: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """One match row, settled from its reports."""
    match = {
        "table": table,
        "players": list(players),
        "outcomes": None,
        "scores": None,
        "stats": None,
        "ending": None,
        "games": None,
        "status": "pending",
        "reports": list(reports or []),
        "extra": dict(extra or {}),
    }
    refresh_match(match)
    return match


def _actor_key(report: Mapping[str, Any]) -> tuple[str, str, str]:
    actor = report["actor"]
    return (report["device"], actor["role"], actor.get("player") or "")


def _effective(reports: Iterable[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The latest report of each (device, actor): a re-entry from the same device replaces the earlier one."""
    latest: dict[tuple[str, str, str], Mapping[str, Any]] = {}
    for r in reports:
        latest[_actor_key(r)] = r
    return sorted(latest.values(), key=lambda r: r["op_id"])


def _distinct(reports: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    seen: list[dict[str, Any]] = []
    for r in reports:
        if r["result"] not in seen:
            seen.append(r["result"])
    return seen


def settle(players: list[str], reports: list[dict[str, Any]]) -> tuple[str, dict[str, Any] | None, list[str]]:
    """A match's status, official result and conflicting report ids, from its reports.

    The dispute table. Disagreement is never silent: like Tabbycat's double-entry ballots and
    Companion's disputed results, two versions of one game become a dispute with both kept, for the
    head judge to settle (``result.resolve``) or a judge to correct (``result.correct``).

    1. a final report (correction, resolution, pairing bye, late or missed-round loss, import):
       the latest one in the log decides (``resolved`` for a judge's correction or resolution,
       ``confirmed`` otherwise) against every report made before it, wherever those stand in the
       log (a report the judge saw, or one made before the correction that a phone or tablet
       pushed later, does not reopen it). Only a *judge's correction* can be contested, by a
       player: a player's report made after it (``at`` later than the correction's, by the
       devices' clocks) with another result reopens the match as ``disputed`` (the correction
       and that report); one with the same result changes nothing. Staff who disagree with a
       correction correct it again (a staff entry after it is ignored). A head judge's
       resolution, and the pairing's, late, missed-round and imported results, are never reopened;
    2. else staff reports (judge, scorekeeper, head judge, organizer): two that differ →
       ``disputed``; one distinct result → ``confirmed`` unless a player's report differs from it,
       in either order (a player's contrary report against a judge's entry, or a judge's entry
       against a player's report) → ``disputed``, the staff reports and the contrary player
       reports conflicting; a player's report that agrees changes nothing;
    3. else player reports: two that differ → ``disputed``; one result reported
       by one player → ``reported`` (awaiting the opponent); the same result from
       two players of the match (or the only player of a one-player match) →
       ``confirmed``;
    4. no report → ``pending``.

    Only the latest report of each (device, actor) counts, so a reporter fixes
    a typo by reporting again from the same device (a player who reports the
    judge's result again ends the dispute they opened); the same result twice is
    a confirmation, never a dispute.

    >>> r = lambda op, who, res, at=0: {"op_id": op, "device": op.split(":")[0], "kind": "report", "at": at,
    ...     "actor": {"role": "player", "player": who} if who else {"role": "judge"}, "result": {"outcomes": res}}
    >>> settle(["a", "b"], [r("t1:1", "a", ["win", "loss"])])[0]
    'reported'
    >>> settle(["a", "b"], [r("t1:1", "a", ["win", "loss"]), r("t2:1", "b", ["win", "loss"])])[0]
    'confirmed'
    >>> settle(["a", "b"], [r("t1:1", "a", ["win", "loss"]), r("t2:1", "b", ["loss", "win"])])
    ('disputed', None, ['t1:1', 't2:1'])
    >>> settle(["a", "b"], [r("j:1", None, ["win", "loss"]), r("t2:1", "b", ["loss", "win"])])
    ('disputed', None, ['j:1', 't2:1'])
    >>> fix = dict(r("j:2", None, ["loss", "win"], at=5), kind="correct")
    >>> settle(["a", "b"], [r("t1:1", "a", ["win", "loss"], at=9), fix])[0]
    'disputed'
    >>> settle(["a", "b"], [fix, r("t1:1", "a", ["win", "loss"], at=3)])[0]
    'resolved'
    """
    finals = [r for r in reports if r["kind"] in FINAL_KINDS]
    if finals:
        last = finals[-1]
        if last["kind"] == "import-disputed":
            return "disputed", None, [last["op_id"]]
        if last["kind"] == "correct":
            own_after = (r for r in reports if r["kind"] not in FINAL_KINDS and r["actor"]["role"] == "player")
            after = [r for r in _effective(own_after) if r.get("at", 0) > last.get("at", 0)]
            contrary = [r["op_id"] for r in after if r["result"] != last["result"]]
            if contrary:
                return "disputed", None, [last["op_id"], *contrary]
        return ("resolved" if last["kind"] in ("correct", "resolve") else "confirmed"), last["result"], []
    staff = _effective(r for r in reports if r["actor"]["role"] != "player")
    own = _effective(r for r in reports if r["actor"]["role"] == "player")
    if staff:
        results = _distinct(staff)
        if len(results) > 1:
            return "disputed", None, [r["op_id"] for r in staff]
        contrary = [r for r in own if r["result"] != results[0]]
        if contrary:
            return (
                "disputed",
                None,
                sorted([r["op_id"] for r in staff] + [r["op_id"] for r in contrary], key=_log_key(reports)),
            )
        return "confirmed", results[0], []
    if not own:
        return "pending", None, []
    results = _distinct(own)
    if len(results) > 1:
        return "disputed", None, [r["op_id"] for r in own]
    reporters = {r["actor"]["player"] for r in own}
    if len(reporters) >= min(2, len(players)):
        return "confirmed", results[0], []
    return "reported", None, []


def _log_key(reports: list[dict[str, Any]]) -> Any:
    """Sort key: a report id's place in the match's log."""
    order = {r["op_id"]: i for i, r in enumerate(reports)}
    return order.__getitem__


def refresh_match(match: dict[str, Any]) -> None:
    """Recompute a match's status and official result from its reports (in place)."""
    status, result, _ = settle(match["players"], match["reports"])
    match["status"] = status
    for key in RESULT_FIELDS:
        match[key] = clone(result.get(key)) if result is not None else None


def refresh_round(rnd: dict[str, Any]) -> None:
    """A started round is ``complete`` exactly while every match's result is settled (in place)."""
    if rnd["status"] in ("started", "complete"):
        # After every report: the matches seen open are looked at first, not the whole round (index.py).
        rnd["status"] = "started" if has_open(rnd["matches"], _is_settled) else "complete"


def refresh_disputes(state: dict[str, Any]) -> None:
    """Rebuild the head judge's dispute queue, in play order (in place)."""
    queue = []
    for rnd in state["rounds"]:
        for index, match in enumerate(rnd["matches"]):
            if match["status"] == "disputed":
                _, _, conflicting = settle(match["players"], match["reports"])
                queue.append(
                    {
                        "round": rnd["number"],
                        "stage": rnd["stage"],
                        "match": index,
                        "table": match["table"],
                        "players": list(match["players"]),
                        "reports": conflicting,
                    }
                )
    state["disputes"] = queue


def is_withheld(value: Any) -> bool:
    """Whether a value is a placeholder the server put in a player's view in place of the real one.

    >>> is_withheld("withheld-3fa2"), is_withheld("cup-2024")
    (True, False)
    """
    return isinstance(value, str) and value.startswith(WITHHELD_PREFIX)


def timer_remaining_ms(timer: Mapping[str, Any] | None, now_ms: int) -> int | None:
    """Milliseconds left on a round's clock at ``now_ms`` (negative: overtime; None: untimed).

    Secret time (``secret_s``) counts when this device knows it; where it is withheld (``None``,
    a player's device) the clock runs to the end of the announced length only.

    >>> t = {"started_at": 0, "duration_s": 60, "paused_at": None, "paused_ms": 0, "extended_s": 30}
    >>> timer_remaining_ms(t, 10_000)
    80000
    >>> timer_remaining_ms(dict(t, paused_at=5_000), 99_000)
    85000
    >>> timer_remaining_ms(dict(t, secret_s=240), 10_000), timer_remaining_ms(dict(t, secret_s=None), 10_000)
    (320000, 80000)
    """
    if timer is None or not timer.get("duration_s"):
        return None
    now = timer["paused_at"] if timer["paused_at"] is not None else now_ms
    elapsed = max(0, now - timer["started_at"] - timer["paused_ms"])
    remaining: int = (timer["duration_s"] + timer["extended_s"] + (timer.get("secret_s") or 0)) * 1000 - elapsed
    return remaining


# ---------------------------------------------------------------- documents


def _drop_none(row: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in row.items() if v is not None}


def to_event_document(state: Mapping[str, Any], *, operational: bool = True) -> dict[str, Any]:
    """The event as a ``topcut-event/1`` document.

    Only settled results are written; a disputed match carries ``"disputed": true``
    (standings skip it). With ``operational`` (default) each object also carries
    a ``"state"`` field (check-ins, round status and timer, reports, penalties…),
    which the format keeps as a project-added field, so
    :func:`from_event_document` restores the state exactly.
    """
    if state["ruleset"] is None:
        raise RulesError("no event yet: nothing to export")
    players = []
    for p in state["players"]:
        row = _drop_none(
            {
                "id": p["id"],
                "name": p["name"],
                "entry": p["entry"],
                "birth_year": p["birth_year"],
                "dropped_after": p["dropped_after"],
            }
        )
        if p["late"]:
            row["late"] = True
        if p["earned_byes"]:
            row["earned_byes"] = p["earned_byes"]
        row.update(clone(p["extra"]))
        if operational:
            row["state"] = {"checked_in": p["checked_in"], "ejected": p["ejected"]}
        players.append(row)
    rounds = []
    for rnd in state["rounds"]:
        matches = []
        for m in rnd["matches"]:
            row = _drop_none({"table": m["table"], "players": list(m["players"])})
            if m["status"] in SETTLED:
                row.update(_drop_none({k: clone(m[k]) for k in RESULT_FIELDS}))
            if m["status"] == "disputed":
                row["disputed"] = True
            row.update(clone(m["extra"]))
            if operational:
                row["state"] = {"status": m["status"], "reports": clone(m["reports"])}
            matches.append(row)
        row = {"number": rnd["number"], "stage": rnd["stage"], "matches": matches, **clone(rnd["extra"])}
        if operational:
            row["state"] = {"status": rnd["status"], "paired_by": clone(rnd["paired_by"]), "timer": clone(rnd["timer"])}
        rounds.append(row)
    doc: dict[str, Any] = {
        "format": FORMAT,
        "ruleset": state["ruleset"],
        "name": state["name"],
        "seed": state["seed"],
        "settings": clone(state["settings"]),
        "players": players,
        "rounds": rounds,
        **clone(state["extra"]),
    }
    if operational and state["decklists"]:
        doc["decklists"] = clone(state["decklists"])  # players' lists: with the event, never in its public views
    if operational and state["deckchecks"]:
        doc["deckchecks"] = clone(state["deckchecks"])
    if operational:
        doc["state"] = {
            "penalties": clone(state["penalties"]),
            "cut": state["cut"],
            "closed": state["closed"],
            "created_by": state["created_by"],
            "devices": clone(state["devices"]),
        }
    return doc


def _import_reports(match: dict[str, Any], disputed: bool) -> list[dict[str, Any]]:
    result = _drop_none({k: match.get(k) for k in RESULT_FIELDS})
    if "outcomes" not in result:
        return []
    return [
        {
            "op_id": "import:0",
            "device": "import",
            "actor": {"role": "organizer"},
            "at": 0,
            "kind": "import-disputed" if disputed else "import",
            "result": result,
            "reason": None,
        }
    ]


def from_event_document(doc: Any) -> dict[str, Any]:
    """The state of an imported ``topcut-event/1`` document (validated with ``load_event``).

    Without ``"state"`` fields: results present are settled (``import``), a
    ``"disputed": true`` match is disputed, a round with every result in is
    ``complete``, one with some is ``started``, one with none ``published``.
    """
    try:
        event = load_event(doc)
    except ImportError:
        raise DocumentError("ruleset", "that ruleset is not available on this device") from None
    try:
        return _from_event(event)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        if isinstance(exc, RulesError):
            raise
        raise DocumentError("state", "the operational fields are malformed; import the document without them") from None


def _imported_lists(raw: Any, players: set[str]) -> dict[str, Any]:
    """An imported document's ``decklists``: each player's sections (text) and changes, checked."""
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise DocumentError("decklists", "expected an object of player id -> list")
    out = {}
    for pid, entry in raw.items():
        if pid not in players:
            raise DocumentError(f"decklists.{pid}", "not a player of this event")
        if not isinstance(entry, dict) or not isinstance(entry.get("sections"), dict):
            raise DocumentError(f"decklists.{pid}", "expected {sections: {section: text}, changes: [...]}")
        if not all(isinstance(text, str) for text in entry["sections"].values()):
            raise DocumentError(f"decklists.{pid}.sections", "each section is its lines as text")
        changes = entry.get("changes", [])
        out[pid] = {
            "sections": clone(entry["sections"]),
            "changes": clone(changes if isinstance(changes, list) else []),
        }
    return out


def _from_event(event: Any) -> dict[str, Any]:
    norm = dump_event(event)
    state = initial_state()
    own = norm.pop("state", None) if isinstance(norm.get("state"), dict) else None
    raw_rounds = [r["matches"] for r in norm["rounds"]]
    for key in ("format", "ruleset", "name", "seed", "settings", "players", "rounds"):
        value = norm.pop(key)
        if key in ("ruleset", "name", "seed", "settings"):
            state[key] = value
    lists = norm.pop("decklists", None)
    checks = norm.pop("deckchecks", None)
    state["decklists"] = _imported_lists(lists, {p.id for p in event.players})
    if checks is not None and not (isinstance(checks, list) and all(isinstance(c, dict) for c in checks)):
        raise DocumentError("deckchecks", "expected a list of deck checks ({player, outcome, ...})")
    state["deckchecks"] = clone(checks) if checks is not None else []
    state["extra"] = norm
    for p in event.players:
        extra = dict(p.extra)
        ops = extra.pop("state", None) if isinstance(extra.get("state"), dict) else {}
        state["players"].append(
            new_player(
                p.id,
                p.name,
                p.entry,
                birth_year=p.birth_year,
                late=p.late,
                dropped_after=p.dropped_after,
                earned_byes=p.earned_byes,
                checked_in=bool(ops.get("checked_in", False)),
                ejected=bool(ops.get("ejected", False)),
                extra=clone(extra),
            )
        )
    for raw_round, rnd in zip(raw_rounds, event.rounds):
        extra = dict(rnd.extra)
        ops = extra.pop("state", None) if isinstance(extra.get("state"), dict) else None
        matches = []
        for raw, m in zip(raw_round, rnd.matches):
            mextra = dict(m.extra)
            disputed = bool(mextra.pop("disputed", False))
            mops = mextra.pop("state", None) if isinstance(mextra.get("state"), dict) else None
            reports = clone(mops["reports"]) if mops is not None else _import_reports(raw, disputed)
            matches.append(new_match(list(m.players), m.table, reports, clone(mextra)))
        if ops is not None:
            status, paired_by, timer = ops.get("status", "started"), ops.get("paired_by"), ops.get("timer")
        else:
            settled = [m["status"] in SETTLED for m in matches]
            status = "complete" if all(settled) else "started" if any(m["reports"] for m in matches) else "published"
            paired_by, timer = None, None
        if status not in ROUND_STATUSES:
            raise DocumentError(f"rounds[{len(state['rounds'])}].state.status", f"'{status}' is not a round status")
        new = new_round(
            rnd.number, rnd.stage, matches, status=status, paired_by=paired_by, timer=timer, extra=clone(extra)
        )
        refresh_round(new)
        state["rounds"].append(new)
    if own is not None:
        state["penalties"] = clone(own.get("penalties", []))
        state["cut"] = own.get("cut")
        state["closed"] = bool(own.get("closed", False))
        state["created_by"] = own.get("created_by")
        state["devices"] = dict(sorted(clone(own.get("devices", {})).items()))
    elif any(r["stage"] == "elimination" for r in state["rounds"]):
        first = next(r for r in state["rounds"] if r["stage"] == "elimination")
        state["cut"] = sum(len(m["players"]) for m in first["matches"])
    refresh_disputes(state)
    return state
