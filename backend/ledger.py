"""The event's operation log: folding it into state, appending pushes, reading pulls.

* The log (``operations`` rows with a ``server_seq``) is the truth; an event's
  state is ``replay`` of it on top of ``initial_state()`` or the imported
  document. Each app keeps an in-memory ``(seq, state)`` per event and the
  database keeps a snapshot every ``SNAPSHOT_EVERY`` operations; both are only
  ever caches — a state at seq N is valid forever because the log is
  append-only.
* A push holds the event's write lock for its whole transaction (PostgreSQL:
  ``SELECT ... FOR UPDATE`` on the event row; SQLite: ``BEGIN IMMEDIATE``), so
  server sequence numbers are gapless and unique across processes; the unique
  constraints (event, server_seq) and (event, device, device_seq) are the last
  line of defence.
"""

from __future__ import annotations

import json
import logging
import threading
from dataclasses import dataclass
from typing import Any, Iterable

from flask import current_app
from sqlalchemy import insert, select

from backend.auth import Principal, new_code, hash_secret, new_id
from backend.db import begin_write, db
from backend.errors import ApiError
from backend.models import Device, Event, Invitation, Operation, Token, now_ms
from shared_rules.errors import RulesError
from shared_rules.state import apply, from_event_document, initial_state, replay

__all__ = ["SERVER_DEVICE", "dumps", "event_state", "push", "pull_body", "create_claim", "Verdict",
           "lock_event", "append_server_op"]

log = logging.getLogger(__name__)

#: The device id the server uses for the operations it writes itself (event.create).
SERVER_DEVICE = "server"
SNAPSHOT_EVERY = 250


def dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


class _StateCache:
    """event id -> (server seq, state): this app's folded states (never mutated in place)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._states: dict[str, tuple[int, dict[str, Any]]] = {}

    def get(self, event_id: str) -> tuple[int, dict[str, Any]] | None:
        with self._lock:
            return self._states.get(event_id)

    def put(self, event_id: str, seq: int, state: dict[str, Any]) -> None:
        with self._lock:
            current = self._states.get(event_id)
            if current is None or current[0] <= seq:
                self._states[event_id] = (seq, state)


def _cache() -> _StateCache:
    return current_app.extensions.setdefault("topcut_state_cache", _StateCache())


def base_state(event: Event) -> dict[str, Any]:
    if event.base_document:
        return from_event_document(json.loads(event.base_document))
    return initial_state()


def event_state(event: Event, upto: int | None = None) -> tuple[int, dict[str, Any]]:
    """(seq, state) after the log up to ``upto`` (default: the event's head); never mutate the state."""
    upto = event.head_seq if upto is None else upto
    cached = _cache().get(event.id)
    if cached is not None and cached[0] <= upto:
        seq, state = cached
    elif event.snapshot is not None and event.snapshot_seq <= upto:
        seq, state = event.snapshot_seq, json.loads(event.snapshot)
    else:
        seq, state = 0, base_state(event)
    if seq < upto:
        rows = db.session.execute(
            select(Operation.op).where(Operation.event_id == event.id, Operation.server_seq > seq,
                                       Operation.server_seq <= upto).order_by(Operation.server_seq)
        ).scalars()
        try:
            state = replay((json.loads(text) for text in rows), state)
        except RulesError as exc:  # the log no longer folds: a rules change broke an old operation
            raise ApiError(409, "log-does-not-fold", f"the event's log no longer replays: {exc}") from None
        seq = upto
    _cache().put(event.id, seq, state)
    return seq, state


def lock_event(event_id: str) -> Event:
    """Start a write transaction holding the event's lock; 404 for an unknown event."""
    begin_write()
    event = db.session.execute(select(Event).where(Event.id == event_id).with_for_update()).scalar_one_or_none()
    if event is None:
        raise ApiError(404, "unknown-event", f"there is no event '{event_id}'")
    return event


def create_claim(event_id: str, player: str, created_by: str | None) -> Invitation:
    """A player's claim code (kept readable: staff list and hand them out)."""
    code = new_code()
    invitation = Invitation(id=new_id(), event_id=event_id, code_hash=hash_secret(code), code=code,
                            role="player", player=player, created_by=created_by, created_at=now_ms())
    db.session.add(invitation)
    return invitation


def _registered_player(op: dict[str, Any]) -> str | None:
    if op["type"] != "player.register":
        return None
    player = (op.get("payload") or {}).get("player") or {}
    pid = player.get("id") if isinstance(player, dict) else None
    return pid if isinstance(pid, str) else None


@dataclass
class Verdict:
    seq: int
    status: str  # accepted | rejected
    server_seq: int | None = None
    reason: str | None = None
    error: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"seq": self.seq, "status": self.status, "server_seq": self.server_seq, "reason": self.reason,
                "error": self.error}


def _stored_verdict(row: Operation) -> Verdict:
    if row.accepted:
        return Verdict(row.device_seq, "accepted", row.server_seq)
    return Verdict(row.device_seq, "rejected", None, row.reason, row.error)


def _try_apply(state: dict[str, Any], op: dict[str, Any]) -> tuple[dict[str, Any] | None, str | None, str | None]:
    """(new state, None, None) or (None, reason, error code)."""
    try:
        return apply(state, op), None, None
    except RulesError as exc:
        return None, str(exc), getattr(exc, "code", "operation-rejected")
    except Exception as exc:  # a bug in the rules engine must not lose the device's sequence
        log.exception("rules engine failed on %s", op.get("op_id"))
        return None, f"{op.get('type')}: the rules engine failed on this operation ({type(exc).__name__})", \
            "rules-failure"


def _try_replay(state: dict[str, Any], ops: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The state after every operation of the batch, or None if any of them is refused."""
    try:
        return replay(ops, state)
    except Exception:
        return None


def append_server_op(event: Event, state: dict[str, Any], op: dict[str, Any]) -> dict[str, Any]:
    """Append an operation the server writes itself (under the event lock); raises RulesError."""
    new_state = apply(state, op)
    event.head_seq += 1
    db.session.add(Operation(event_id=event.id, device=op["device"], device_seq=int(op["op_id"].rpartition(":")[2]),
                             server_seq=event.head_seq, accepted=True, op=dumps(op), received_at=now_ms()))
    return new_state


def push(event_id: str, principal: Principal, device: str, items: list[dict[str, Any]]) -> dict[str, Any]:
    """Process a device's batch (already validated: consecutive seqs) inside the event lock; commits."""
    event = lock_event(event_id)
    live = db.session.execute(select(Token.id).where(Token.id == principal.token_id,
                                                     Token.revoked_at.is_(None))).first()
    if live is None:  # revoked since the request was authenticated
        raise ApiError(401, "token-revoked", "this token was revoked")
    progress = db.session.get(Device, (event_id, device))
    if progress is None:
        progress = Device(event_id=event_id, device=device, token_id=principal.token_id, last_seq=0, last_accepted=0)
        db.session.add(progress)
    elif progress.token_id != principal.token_id:
        owner = db.session.get(Token, progress.token_id)
        if owner is not None and owner.revoked_at is None:
            raise ApiError(403, "device-taken", f"device '{device}' belongs to another token; use another device id")
        progress.token_id = principal.token_id  # the old token was revoked: the device was re-invited

    first = items[0]["seq"]
    if first > progress.last_seq + 1:
        raise ApiError(409, "sequence-gap", f"device '{device}' must push seq {progress.last_seq + 1} next, "
                       f"not {first}", expected_seq=progress.last_seq + 1)

    verdicts: list[Verdict] = []
    replayed = [item["seq"] for item in items if item["seq"] <= progress.last_seq]
    if replayed:
        rows = db.session.execute(
            select(Operation).where(Operation.event_id == event_id, Operation.device == device,
                                    Operation.device_seq.in_(replayed))
        ).scalars()
        stored = {row.device_seq: row for row in rows}
        for seq in replayed:
            row = stored.get(seq)
            verdicts.append(_stored_verdict(row) if row is not None else
                            Verdict(seq, "rejected", None, "no record of this operation", "unknown-operation"))

    fresh = [item for item in items if item["seq"] > progress.last_seq]
    if fresh:
        seq0, state = event_state(event)
        new_claims = []
        received = now_ms()
        ops, rows = [], []
        for item in fresh:
            body = item["op"]
            at = body.get("at")
            ops.append({"type": body["type"], "op_id": f"{device}:{item['seq']}", "device": device,
                        "actor": principal.actor, "at": at if at is not None else received,
                        "payload": body.get("payload") if body.get("payload") is not None else {}})
        # Fast path: the whole batch folds (one copy of the state); otherwise one operation at a time.
        batch_state = _try_replay(state, ops) if len(ops) > 1 else None
        for item, op in zip(fresh, ops):
            if batch_state is not None:
                new_state, reason, error = batch_state, None, None
            else:
                new_state, reason, error = _try_apply(state, op)
            row = {"event_id": event_id, "device": device, "device_seq": item["seq"], "op": dumps(op),
                   "token_id": principal.token_id, "received_at": received, "server_seq": None,
                   "accepted": False, "reason": None, "error": None}
            if new_state is not None:
                event.head_seq += 1
                state = new_state
                row["server_seq"], row["accepted"] = event.head_seq, True
                progress.last_accepted = item["seq"]
                verdicts.append(Verdict(item["seq"], "accepted", event.head_seq))
                pid = _registered_player(op)
                if pid is not None:
                    new_claims.append(pid)
            else:
                row["reason"], row["error"] = reason, error
                verdicts.append(Verdict(item["seq"], "rejected", None, reason, error))
            progress.last_seq = item["seq"]
            rows.append(row)
        db.session.execute(insert(Operation), rows)
        for pid in new_claims:
            create_claim(event_id, pid, principal.token_id)
        if event.head_seq - event.snapshot_seq >= SNAPSHOT_EVERY:
            event.snapshot, event.snapshot_seq = dumps(state), event.head_seq
        head = event.head_seq
        db.session.commit()
        _cache().put(event_id, head, state)
    else:
        head = event.head_seq
        db.session.commit()
    return {"device": device, "results": [v.to_json() for v in verdicts], "last_seq": progress.last_seq,
            "last_accepted": progress.last_accepted, "cursor": head}


def pull_body(event: Event, cursor: int, limit: int, device: str | None) -> str:
    """The pull response as JSON text (stored operations are spliced in verbatim for speed)."""
    # Devices first, then operations: every sequence the devices map reports is in the log we read next.
    devices = {row.device: {"last_seq": row.last_seq, "last_accepted": row.last_accepted}
               for row in db.session.execute(select(Device).where(Device.event_id == event.id)).scalars()}
    rows = db.session.execute(
        select(Operation.server_seq, Operation.op)
        .where(Operation.event_id == event.id, Operation.server_seq > cursor)
        .order_by(Operation.server_seq).limit(limit + 1)
    ).all()
    more = len(rows) > limit
    rows = rows[:limit]
    new_cursor = rows[-1][0] if rows else cursor
    rejections: list[dict[str, Any]] = []
    if device is not None:
        rejected = db.session.execute(
            select(Operation.device_seq, Operation.reason, Operation.error)
            .where(Operation.event_id == event.id, Operation.device == device, Operation.accepted.is_(False))
            .order_by(Operation.device_seq.desc()).limit(100)
        ).all()
        rejections = [{"seq": s, "reason": r, "error": e} for s, r, e in reversed(rejected)]
    ops = ",".join(f'{{"server_seq":{seq},"op":{text}}}' for seq, text in rows)
    base = event.base_document if (cursor == 0 and event.base_document) else "null"
    return (f'{{"event_id":{dumps(event.id)},"cursor":{new_cursor},"more":{"true" if more else "false"},'
            f'"ops":[{ops}],"devices":{dumps(devices)},"rejections":{dumps(rejections)},"base":{base}}}')


def accepted_ops(event_id: str) -> Iterable[dict[str, Any]]:
    rows = db.session.execute(select(Operation.op).where(Operation.event_id == event_id,
                                                         Operation.server_seq.is_not(None))
                              .order_by(Operation.server_seq)).scalars()
    return (json.loads(text) for text in rows)
