"""The player's view of the log: what a player's phone pulls (drafts held back, other devices aliased,
other players' penalties voided, a secret seed withheld), and the cache of its shared parts."""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from flask import current_app
from sqlalchemy import func, or_, select

from backend.auth import Principal
from backend.db import db
from backend.errors import ApiError
from backend.ledger.log import (
    SERVER_DEVICE,
    _keyed,
    _withdrawn,
    cache_key,
    device_alias,
    dumps,
    event_state,
)
from backend.models import Device, Event, Operation, Token, now_ms
from shared_rules.errors import RulesError
from shared_rules.state import ALLOWED, WITHHELD_PREFIX, secret_time_sides
from shared_rules.state.calls import call_owner

# ---------------------------------------------------------------- the player's view of the log
#
# Staff pull the log as it is. A player's pull is the same log with three changes, chosen so that the
# player's device still folds exactly the state the server had at the returned cursor, up to renaming:
#
# 1. it stops before the first operation that placed a round which is still a draft (round.pair,
#    round.swap, cut.make): drafted pairings are not posted yet; the rest follows once the round is
#    published or started (a draft round imported with a document is not held back);
# 2. devices of other tokens appear under a stable alias ("dev-" + 16 hex digits, keyed with the app's
#    SECRET_KEY) in ``device`` and ``op_id``; a result.confirm naming a report by its aliased op_id is
#    translated back when the player pushes it; ``devices`` lists only the player's own devices, and
#    ``?device=`` must be one of them;
# 3. another player's penalties are not in it (issue 22: players' pulls carry only their own penalties):
#    each ``penalty.issue`` and ``penalty.rescind`` about someone else becomes a ``device.void`` in the same
#    slot (the device's sequence stays gapless), except that a penalty which dropped the player from the
#    event (a disqualification, an ejection) becomes the ``player.drop`` it amounts to, so every phone folds
#    the same roster; the player's own penalties come whole (reason and all), and a rescission of one names
#    it by the op_id their pull shows. A penalty counts only its own player's history, so nothing a phone
#    folds depends on the penalties it is not given;
# 4. in an event with secret round time (Doomtown's d6, Floor Rules 3.A: "The exact length of rounds will
#    not be announced to the players") the event's seed, from which every device draws the d6, is
#    replaced by "withheld-" + a digest, in event.create and in an imported document; the player's
#    device then folds every round's ``secret_s`` as None and its clock runs to the announced hour only;
# 5. another player's deck list and deck checks are not in it (issue 28: a player sees only their own list
#    during the event; opponents never see it): each ``decklist.submit`` and ``deckcheck.record`` about
#    someone else becomes a ``device.void`` in the same slot, and an imported document's ``decklists`` and
#    ``deckchecks`` keep only the player's own. Nothing a phone folds depends on another player's list.
#    Published lists (after the event, as the organizer chose) are read from their own endpoint
#    (backend/decklists.py), not from the log.
# 6. another player's calls are not in it (a judge called to their table, staff calling them, the answers):
#    each ``call.judge``, ``call.player`` and ``call.answer`` about someone else becomes a ``device.void`` in
#    the same slot; a call.answer names the call by the op_id the player's pull shows. Staff judge calls that
#    concern no player are voided for every player.

_PAIRING_PREFIXES = tuple(f'{{"type":"{t}"' for t in ("round.pair", "round.swap", "cut.make"))


def _withheld_seed(event_id: str, seed: Any) -> str:
    return WITHHELD_PREFIX + _keyed("seed", event_id, str(seed))[:12]


def seed_is_secret(state: dict[str, Any]) -> bool:
    """Whether players must not learn the event's seed: the d6 of its secret round time is drawn from it."""
    try:
        return secret_time_sides(state) is not None
    except RulesError:
        return False


def _owns(owner: Token | None, principal: Principal) -> bool:
    """A device belongs to the principal: its token, or a withdrawn token of the same role and player."""
    return owner is not None and (
        owner.id == principal.token_id
        or (_withdrawn(owner) and owner.role == principal.role and owner.player == principal.player)
    )


def _hold_point(event: Event) -> int | None:
    """The server seq of the first operation that placed a still-draft round (None: no draft round)."""
    _, state = event_state(event)
    drafts = [(r["number"], r["stage"]) for r in state["rounds"] if r["status"] == "draft"]
    if not drafts:
        return None
    rows = db.session.execute(
        select(Operation.server_seq, Operation.op)
        .where(
            Operation.event_id == event.id,
            Operation.server_seq.is_not(None),
            Operation.server_seq <= event.head_seq,
            or_(*(Operation.op.startswith(prefix, autoescape=True) for prefix in _PAIRING_PREFIXES)),
        )
        .order_by(Operation.server_seq)
    ).all()
    for seq, text in rows:
        op = json.loads(text)
        p = op.get("payload") or {}
        if op["type"] == "cut.make":
            hit = any(stage == "elimination" for _, stage in drafts)
        else:
            stage = p.get("stage") or ("swiss" if op["type"] == "round.pair" else None)
            hit = any(number == p.get("number") and (stage is None or stage == s) for number, s in drafts)
        if hit:
            return seq
    return None


@dataclass(frozen=True)
class _Penalty:
    """What a player's view needs to know of a logged penalty: whose it is, and whether it dropped them."""

    player: str
    dropped: int | None


def penalty_facts(state: dict[str, Any]) -> dict[str, _Penalty]:
    """Penalty op_id -> its player and the round it dropped them after (None: it did not drop them)."""
    facts = {}
    for entry in state["penalties"]:
        if isinstance(entry, dict) and isinstance(entry.get("op_id"), str):
            dropped = entry.get("dropped")
            facts[entry["op_id"]] = _Penalty(str(entry.get("player")), dropped if isinstance(dropped, int) else None)
    return facts


#: Roles that may drop a player (shared_rules/state/authorize.py): a drop shown in place of a penalty keeps
#: its actor when it could have made the drop itself, else it is the head judge's (a floor judge's third
#: Shatterpoint warning ejects by rule).
_DROPPING_ROLES = ALLOWED["player.drop"] - {"player"}


def _penalty_hidden(op: dict[str, Any], facts: dict[str, _Penalty]) -> dict[str, Any]:
    """Another player's penalty operation as a player's pull shows it: the drop it made, or nothing."""
    fact = facts.get(op.get("op_id", "")) if op.get("type") == "penalty.issue" else None
    if fact is not None and fact.dropped is not None:
        actor: dict[str, Any] = op["actor"] if isinstance(op.get("actor"), dict) else {}
        role = actor.get("role") if actor.get("role") in _DROPPING_ROLES else "head-judge"
        return dict(
            op, type="player.drop", actor={"role": role}, payload={"player": fact.player, "after": fact.dropped}
        )
    return dict(op, type="device.void", payload={})


def _penalized(op: dict[str, Any], facts: dict[str, _Penalty]) -> str | None:
    """The player a penalty operation is about (None: not a penalty operation, or unknown to the state)."""
    payload: dict[str, Any] = op["payload"] if isinstance(op.get("payload"), dict) else {}
    if op.get("type") == "penalty.issue":
        return payload.get("player") if isinstance(payload.get("player"), str) else None
    if op.get("type") == "penalty.rescind":
        fact = facts.get(payload.get("penalty", "")) if isinstance(payload.get("penalty"), str) else None
        return fact.player if fact is not None else None
    return None


_LIST_TYPES = ("decklist.submit", "deckcheck.record")
_LIST_PREFIXES = tuple(f'{{"type":"{t}"' for t in _LIST_TYPES)


def _listed(op: dict[str, Any]) -> str | None:
    """The player a deck-list operation is about (None: not one)."""
    payload: dict[str, Any] = op["payload"] if isinstance(op.get("payload"), dict) else {}
    who = payload.get("player") if op.get("type") in _LIST_TYPES else None
    return who if isinstance(who, str) else None


_CALL_TYPES = ("call.judge", "call.player", "call.answer")
_CALL_PREFIXES = tuple(f'{{"type":"{t}"' for t in _CALL_TYPES)


def _called(op: dict[str, Any], state: dict[str, Any] | None) -> str | None:
    """The player a call operation is about: who called, who is called, whose call is answered (None: nobody)."""
    payload: dict[str, Any] = op["payload"] if isinstance(op.get("payload"), dict) else {}
    actor: dict[str, Any] = op["actor"] if isinstance(op.get("actor"), dict) else {}
    if op.get("type") == "call.judge":
        who = actor.get("player") if actor.get("role") == "player" else None
    elif op.get("type") == "call.player":
        who = payload.get("player")
    elif op.get("type") == "call.answer" and state is not None and isinstance(payload.get("call"), str):
        who = call_owner(state, payload["call"])
    else:
        who = None
    return who if isinstance(who, str) else None


def _player_op(
    event_id: str,
    text: str,
    player: str | None,
    own: set[str],
    hide_seed: bool,
    facts: dict[str, _Penalty] | None = None,
    state: dict[str, Any] | None = None,
) -> str:
    """One logged operation as the player ``player`` sees it (their own devices ``own`` unaliased)."""
    op = json.loads(text)
    if op.get("type") in _CALL_TYPES and (player is None or _called(op, state) != player):
        op = dict(op, type="device.void", payload={})  # another player's call, or a staff-only one
    if op.get("type") in ("penalty.issue", "penalty.rescind") and (
        player is None or _penalized(op, facts or {}) != player
    ):
        op = _penalty_hidden(op, facts or {})
    if op.get("type") in _LIST_TYPES and (player is None or _listed(op) != player):
        op = dict(op, type="device.void", payload={})  # another player's list or deck check
    if hide_seed and op.get("type") == "event.create":
        payload = op.get("payload") if isinstance(op.get("payload"), dict) else {}
        # no seed in the payload: the reducer uses the op_id, which is no secret either
        op["payload"] = dict(payload, seed=_withheld_seed(event_id, payload.get("seed") or op.get("op_id")))
    device = op.get("device")
    if device not in own and device != SERVER_DEVICE:
        alias = device_alias(event_id, device)
        op["device"] = alias
        op["op_id"] = f"{alias}:{op['op_id'].rpartition(':')[2]}"
    payload = op.get("payload")
    if isinstance(payload, dict):
        named = payload.get("report") if op["type"] == "result.confirm" else None
        if op["type"] == "penalty.rescind":
            named = payload.get("penalty")
        if op["type"] == "call.answer":
            named = payload.get("call")
        if isinstance(named, str):
            name, _, seq = named.rpartition(":")
            if name not in own and name != SERVER_DEVICE:
                key = {"result.confirm": "report", "call.answer": "call"}.get(op["type"], "penalty")
                op["payload"] = dict(op["payload"], **{key: f"{device_alias(event_id, name)}:{seq}"})
    return dumps(op)


@dataclass(frozen=True)
class _SharedView:
    """A logged operation as every player sees it unless it is theirs: all devices aliased, no penalty
    shown; plus what decides whether it is some player's own (then it is rendered for them)."""

    text: str
    penalized: str | None = None  # penalty.issue, penalty.rescind: the player penalized
    listed: str | None = None  # decklist.submit, deckcheck.record: the player whose list it is
    confirmed_device: str | None = None  # result.confirm: the device whose report it confirms
    called: str | None = None  # call.judge, call.player, call.answer: the player the call is about


#: Operations whose shared player view one app process keeps (about 0.3 kB each).
PLAYER_VIEW_CACHE_OPS = 200_000


class _PlayerViews:
    """(event cache key, server seq) -> _SharedView, bounded (least recently used dropped first), thread-safe.

    A logged operation never changes and its aliases and placeholders are keyed by SECRET_KEY only, so
    every process computes the same entries and none ever goes stale: a player's first sync on a big
    event splices cached text instead of parsing and re-encoding the whole log.
    """

    def __init__(self, size: int = PLAYER_VIEW_CACHE_OPS) -> None:
        self._lock = threading.Lock()
        self._size = size
        self._views: OrderedDict[tuple[str, int], _SharedView] = OrderedDict()

    def get_many(self, event_id: str, seqs: list[int]) -> dict[int, _SharedView]:
        with self._lock:
            found = {}
            for seq in seqs:
                view = self._views.get((event_id, seq))
                if view is not None:
                    self._views.move_to_end((event_id, seq))
                    found[seq] = view
            return found

    def put_many(self, event_id: str, views: dict[int, _SharedView]) -> None:
        with self._lock:
            for seq, view in views.items():
                self._views[(event_id, seq)] = view
            while len(self._views) > self._size:
                self._views.popitem(last=False)


def _player_views() -> _PlayerViews:
    return current_app.extensions.setdefault("topcut_player_views", _PlayerViews())


_PENALTY_PREFIXES = ('{"type":"penalty.issue"', '{"type":"penalty.rescind"')


def _shared_view(
    event_id: str, text: str, facts: dict[str, _Penalty], state: dict[str, Any] | None = None
) -> _SharedView:
    """A logged operation's shared view; a penalty's never changes (its drop and its player are for good)."""
    shared = _player_op(event_id, text, None, set(), False, facts)
    if text.startswith(_CALL_PREFIXES):  # a call's player never changes either
        return _SharedView(shared, called=_called(json.loads(text), state))
    if text.startswith(_LIST_PREFIXES):
        return _SharedView(shared, listed=_listed(json.loads(text)))
    if text.startswith(_PENALTY_PREFIXES) or text.startswith('{"type":"result.confirm"'):
        op = json.loads(text)
        payload = op.get("payload") if isinstance(op.get("payload"), dict) else {}
        if op.get("type") in ("penalty.issue", "penalty.rescind"):
            return _SharedView(shared, penalized=_penalized(op, facts))
        report = payload.get("report")
        if isinstance(report, str):
            return _SharedView(shared, confirmed_device=report.rpartition(":")[0])
    return _SharedView(shared)


def _player_rows(
    event: Event, rows: list[Any], principal: Principal, own: set[str], hide_seed: bool
) -> list[tuple[int, str]]:
    """The player's view of logged rows ``(server_seq, device, op text)``: shared views from the cache, and
    the player's own operations (their devices, their penalties, confirmations of their reports) rendered."""
    event_id, key = event.id, cache_key(event)
    cache = _player_views()
    cached = cache.get_many(key, [seq for seq, _, _ in rows])
    made: dict[int, _SharedView] = {}
    facts: dict[str, _Penalty] | None = None
    state: dict[str, Any] | None = None
    out = []
    for seq, device, text in rows:
        if facts is None and text.startswith(_PENALTY_PREFIXES) and seq not in cached:
            facts = penalty_facts(event_state(event)[1])  # the state's penalties: who, and what each dropped
        if state is None and text.startswith('{"type":"call.answer"'):
            state = event_state(event)[1]  # the calls answered: whose each one is
        if device in own or text.startswith('{"type":"event.create"'):
            out.append((seq, _player_op(event_id, text, principal.player, own, hide_seed, facts, state)))
            continue
        view = cached.get(seq)
        if view is None:
            view = made[seq] = _shared_view(event_id, text, facts or {}, state)
        if (
            (view.penalized is not None and view.penalized == principal.player)
            or (view.confirmed_device is not None and view.confirmed_device in own)
            or (view.listed is not None and view.listed == principal.player)
            or (view.called is not None and view.called == principal.player)
        ):
            if facts is None:
                facts = penalty_facts(event_state(event)[1])
            out.append((seq, _player_op(event_id, text, principal.player, own, hide_seed, facts, state)))
        else:
            out.append((seq, view.text))
    if made:
        cache.put_many(key, made)
    return out


def _player_base(event_id: str, text: str, principal: Principal, hide_seed: bool) -> str:
    doc = json.loads(text)
    if hide_seed:
        doc["seed"] = _withheld_seed(event_id, doc.get("seed", ""))
    own = doc.get("state") if isinstance(doc.get("state"), dict) else None
    if own is not None and isinstance(own.get("penalties"), list):
        own["penalties"] = [p for p in own["penalties"] if isinstance(p, dict) and p.get("player") == principal.player]
    if isinstance(doc.get("decklists"), dict):
        doc["decklists"] = {pid: entry for pid, entry in doc["decklists"].items() if pid == principal.player}
    if isinstance(doc.get("deckchecks"), list):
        doc["deckchecks"] = [
            c for c in doc["deckchecks"] if isinstance(c, dict) and c.get("player") == principal.player
        ]
    return dumps(doc)


def _cap_held_devices(event_id: str, devices: dict[str, dict[str, int]], hold: int) -> None:
    """A player's own operations held back with a draft round are not yet "processed" for their devices.

    The device keeps them (sent, folded on top of the log) until the pull carries them, so a change the
    player made while a round is in draft never vanishes from their phone.
    """
    if not devices:
        return
    first_held = db.session.execute(
        select(Operation.device, func.min(Operation.device_seq))
        .where(Operation.event_id == event_id, Operation.server_seq >= hold, Operation.device.in_(list(devices)))
        .group_by(Operation.device)
    ).all()
    for name, seq in first_held:
        progress = devices[name]
        progress["last_seq"] = min(progress["last_seq"], seq - 1)
        progress["last_accepted"] = min(progress["last_accepted"], seq - 1)


def pull_body(event: Event, cursor: int, limit: int, device: str | None, principal: Principal | None = None) -> str:
    """The pull response as JSON text (stored operations are spliced in verbatim for speed).

    ``principal`` a player: the player's view (see above); staff (or None): the whole log.
    """
    if cursor > event.head_seq:
        raise ApiError(
            409,
            "cursor-ahead",
            f"cursor {cursor} is beyond the event's last operation ({event.head_seq}); pull from 0",
            head=event.head_seq,
        )
    viewer = principal if principal is not None and principal.role == "player" else None
    player_view = viewer is not None
    # Devices first, then operations: every sequence the devices map reports is in the log we read next.
    progress = db.session.execute(
        select(Device, Token).join(Token, Token.id == Device.token_id, isouter=True).where(Device.event_id == event.id)
    ).all()
    own: set[str] = set()
    if viewer is not None:
        own = {row.device for row, owner in progress if _owns(owner, viewer)}
        if device is not None and device not in own and any(row.device == device for row, _ in progress):
            raise ApiError(403, "not-your-device", "a player may only ask for the rejections of their own devices")
    devices = {
        row.device: {"last_seq": row.last_seq, "last_accepted": row.last_accepted}
        for row, _ in progress
        if not player_view or row.device in own
    }
    # Staff devices by the names the organizer gave their invitations ("Floor Judge Bo"), for the staff screens'
    # disputes, refusals and history, offline too (the device keeps the last ones it pulled).
    staff = (
        {}
        if player_view
        else {
            row.device: owner.label
            for row, owner in progress
            if owner is not None and owner.label and owner.role != "player"
        }
    )
    query = select(Operation.server_seq, Operation.device, Operation.op).where(
        Operation.event_id == event.id, Operation.server_seq > cursor
    )
    hold = _hold_point(event) if player_view else None
    hide_seed = player_view and seed_is_secret(event_state(event)[1])
    if hold is not None:
        query = query.where(Operation.server_seq < hold)
        _cap_held_devices(event.id, devices, hold)
    read = db.session.execute(query.order_by(Operation.server_seq).limit(limit + 1)).all()
    more = len(read) > limit
    logged = [(int(seq or 0), name, text) for seq, name, text in read[:limit]]  # server_seq > cursor: never None
    if viewer is not None:
        rows = _player_rows(event, logged, viewer, own, hide_seed)
    else:
        rows = [(seq, text) for seq, _, text in logged]
    new_cursor = rows[-1][0] if rows else cursor
    rejections: list[dict[str, Any]] = []
    if device is not None:
        rejected = db.session.execute(
            select(Operation.device_seq, Operation.reason, Operation.error)
            .where(Operation.event_id == event.id, Operation.device == device, Operation.accepted.is_(False))
            .order_by(Operation.device_seq.desc())
            .limit(100)
        ).all()
        rejections = [{"seq": s, "reason": r, "error": e} for s, r, e in reversed(rejected)]
    ops = ",".join(f'{{"server_seq":{seq},"op":{text}}}' for seq, text in rows)
    base = event.base_document if (cursor == 0 and event.base_document) else "null"
    if viewer is not None and base != "null":
        base = _player_base(event.id, base, viewer, hide_seed)
    return (
        f'{{"event_id":{dumps(event.id)},"cursor":{new_cursor},"more":{"true" if more else "false"},'
        f'"ops":[{ops}],"devices":{dumps(devices)},"staff":{dumps(staff)},"rejections":{dumps(rejections)},'
        f'"base":{base},'
        f'"server_time":{now_ms()}}}'
    )


def accepted_ops(event_id: str) -> Iterable[dict[str, Any]]:
    rows = db.session.execute(
        select(Operation.op)
        .where(Operation.event_id == event_id, Operation.server_seq.is_not(None))
        .order_by(Operation.server_seq)
    ).scalars()
    return (json.loads(text) for text in rows)
