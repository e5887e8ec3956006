"""The event's operation log: folding it into state, appending pushes.

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
* What a push's accepted operations cause besides the log (notifications, players'
  access and claim codes, the players' view cache) is in hooks: ``AFTER_ACCEPT``
  and ``AFTER_COMMIT``, filled by the package (``backend/ledger/__init__.py``).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from flask import current_app
from sqlalchemy import and_, bindparam, insert, select

from backend.auth import Principal
from backend.db import begin_write, db
from backend.errors import ApiError
from backend.models import Device, Event, Operation, Token, now_ms
from shared_rules.errors import RulesError
from shared_rules.state import (
    ALLOWED,
    OperationRejected,
    apply,
    apply_in_place,
    cap_problem,
    from_event_document,
    initial_state,
    replay,
)
from shared_rules.state.published import published_round
from shared_rules.state.state import clone

log = logging.getLogger(__name__)

#: The device id the server uses for the operations it writes itself (event.create).
SERVER_DEVICE = "server"
SNAPSHOT_EVERY = 250
#: An operation larger than this (its JSON, as applied) is refused without being tried.
#: A 4,096-player round's pairings fit; every field also has its own cap (shared_rules/state/caps.py).
MAX_OP_BYTES = 1536 * 1024
#: A rejected operation larger than this is stored as a digest of its body, not in full.
MAX_REJECTED_BODY_BYTES = 2 * 1024
#: After this many rejections one push stops; the rest of the batch is left for the device to push again.
MAX_REJECTIONS_PER_PUSH = 50
#: How far ahead of the server's clock an operation's time may be (ms). Devices stamp operations with the
#: server's time as measured on their last sync (pwa/sync.js); an operation stamped later than its own
#: arrival plus this margin comes from a clock that is wrong, and is refused (``clock-ahead``) rather than
#: trusted: a round started "in the future" would freeze every device's clock. Earlier times are taken as
#: they are: a device that was offline pushes changes it made earlier, which the server cannot tell apart
#: from a slow clock (devices correct their own clocks on every sync instead).
MAX_CLOCK_AHEAD_MS = 2 * 60 * 1000
#: Roles that see, print, reissue and revoke players' claim codes (sealed at rest: backend/claims.py).


def dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


#: Events whose folded state one app process keeps (each cache; least recently used dropped first).
STATE_CACHE_EVENTS = 32


class _StateCache:
    """event id -> (server seq, state), bounded (least recently used events dropped), thread-safe."""

    def __init__(self, size: int = STATE_CACHE_EVENTS) -> None:
        self._lock = threading.Lock()
        self._size = size
        self._states: OrderedDict[str, tuple[int, dict[str, Any]]] = OrderedDict()

    def get(self, event_id: str) -> tuple[int, dict[str, Any]] | None:
        with self._lock:
            found = self._states.get(event_id)
            if found is not None:
                self._states.move_to_end(event_id)
            return found

    def put(self, event_id: str, seq: int, state: dict[str, Any]) -> None:
        with self._lock:
            current = self._states.get(event_id)
            if current is None or current[0] <= seq:
                self._states[event_id] = (seq, state)
                self._states.move_to_end(event_id)
            while len(self._states) > self._size:
                self._states.popitem(last=False)

    def drop(self, event_id: str) -> tuple[int, dict[str, Any]] | None:
        with self._lock:
            return self._states.pop(event_id, None)


def cache_key(event: Event) -> str:
    """What this process's caches know an event by: its id and its creation instant, so an event made
    again under a deleted one's id (an offline device's choice) never meets the old one's cached data."""
    return f"{event.id}@{event.created_at}"


def _cache() -> _StateCache:
    """Readers' states: never mutated once cached (pulls, standings, pages read them concurrently)."""
    return current_app.extensions.setdefault("topcut_state_cache", _StateCache())


def _working() -> _StateCache:
    """The writer's private states, changed in place under the event's write lock (see :func:`push`)."""
    return current_app.extensions.setdefault("topcut_working_states", _StateCache())


def base_state(event: Event) -> dict[str, Any]:
    if event.base_document:
        return from_event_document(json.loads(event.base_document))
    return initial_state()


def event_state(event: Event, upto: int | None = None) -> tuple[int, dict[str, Any]]:
    """(seq, state) after the log up to ``upto`` (default: the event's head); never mutate the state."""
    upto = event.head_seq if upto is None else upto
    cached = _cache().get(cache_key(event))
    if cached is not None and cached[0] <= upto:
        seq, state = cached
    else:
        # The snapshot and its seq in ONE statement: under READ COMMITTED a lazy load of the (deferred)
        # snapshot could see a newer snapshot than the snapshot_seq loaded with the event row.
        snap = db.session.execute(select(Event.snapshot, Event.snapshot_seq).where(Event.id == event.id)).first()
        if snap is not None and snap.snapshot is not None and snap.snapshot_seq <= upto:
            seq, state = snap.snapshot_seq, json.loads(snap.snapshot)
        else:
            seq, state = 0, base_state(event)
    if seq < upto:
        rows = db.session.execute(
            select(Operation.op)
            .where(Operation.event_id == event.id, Operation.server_seq > seq, Operation.server_seq <= upto)
            .order_by(Operation.server_seq)
        ).scalars()
        try:
            state = replay((json.loads(text) for text in rows), state)
        except RulesError as exc:  # the log no longer folds: a rules change broke an old operation
            raise ApiError(409, "log-does-not-fold", f"the event's log no longer replays: {exc}") from None
        except RecursionError:  # a value nested too deeply, stored before bodies were depth-limited
            raise ApiError(409, "log-does-not-fold", "the event's log holds a value nested too deeply") from None
        seq = upto
    _cache().put(cache_key(event), seq, state)
    return seq, state


#: The statement of :func:`lock_event`, made once (the event is bound at execution).
_LOCK_EVENT = select(Event).where(Event.id == bindparam("event_id")).with_for_update()


def lock_event(event_id: str) -> Event:
    """Start a write transaction holding the event's lock; 404 for an unknown event."""
    begin_write()
    event = db.session.execute(_LOCK_EVENT, {"event_id": event_id}).scalar_one_or_none()
    if event is None:
        raise ApiError(404, "unknown-event", f"there is no event '{event_id}'")
    return event


@dataclass
class Verdict:
    seq: int
    status: str  # accepted | rejected
    server_seq: int | None = None
    reason: str | None = None
    error: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "status": self.status,
            "server_seq": self.server_seq,
            "reason": self.reason,
            "error": self.error,
        }


def _stored_verdict(row: Operation) -> Verdict:
    if row.accepted:
        return Verdict(row.device_seq, "accepted", row.server_seq)
    return Verdict(row.device_seq, "rejected", None, row.reason, row.error)


def _payload_digest(payload: Any) -> str:
    return "sha256:" + hashlib.sha256(dumps(payload).encode("utf-8", "surrogatepass")).hexdigest()


def _rejected_body(op: dict[str, Any], text: str) -> str:
    """What the log keeps of a rejected operation: all of it, or a digest of an oversized payload."""
    if len(text) <= MAX_REJECTED_BODY_BYTES:
        return text
    stub = {key: op[key] for key in ("type", "op_id", "device", "actor", "at")}
    stub["digest"], stub["size"] = _payload_digest(op["payload"]), len(text)
    return dumps(stub)


def _same_op(stored_text: str, body: dict[str, Any]) -> bool:
    """Whether a replayed push item is the operation stored for its seq (type, payload and ``at``)."""
    stored = json.loads(stored_text)
    payload = body.get("payload") if body.get("payload") is not None else {}
    if stored.get("type") != body["type"]:
        return False
    if body.get("at") is not None and stored.get("at") != body["at"]:
        return False  # no ``at``: the server's clock was used, whatever it was
    if "payload" in stored:
        return stored["payload"] == payload
    return stored.get("digest") == _payload_digest(payload)


def _ahead(ms: int) -> str:
    """A clock difference in words: "58 minutes", "3 hours 2 minutes", "45 seconds"."""
    seconds = round(ms / 1000)
    if seconds < 120:
        return f"{seconds} seconds"
    hours, minutes = divmod(round(ms / 60000), 60)
    if not hours:
        return f"{minutes} minutes"
    return f"{hours} hour{'s' if hours != 1 else ''}" + (f" {minutes} minutes" if minutes else "")


def _clock_check(op: dict[str, Any], received: int) -> tuple[str, str] | None:
    """Refuse an operation stamped too far in the future of the server's clock (see MAX_CLOCK_AHEAD_MS)."""
    stamps = [("at", op["at"])]
    payload = op["payload"]
    if isinstance(payload, dict) and isinstance(payload.get("at"), int) and not isinstance(payload["at"], bool):
        stamps.append(("payload.at", payload["at"]))  # round.start, timer.pause, timer.resume
    for name, value in stamps:
        if isinstance(value, int) and value - received > MAX_CLOCK_AHEAD_MS:
            return (
                f"{op['type']}: {name}: the device's clock was {_ahead(value - received)} ahead of the "
                f"server's when it made this change (at most {MAX_CLOCK_AHEAD_MS // 60000} minutes are "
                "allowed); the app sets its clock from the server at every sync: do it again"
            ), "clock-ahead"
    return None


def _precheck(principal: Principal, op: dict[str, Any], text: str, received: int) -> tuple[str, str] | None:
    """Cheap refusals that need no copy of the state: (reason, error) or None."""
    if len(text) > MAX_OP_BYTES:
        return f"{op['type']}: the operation is larger than {MAX_OP_BYTES} bytes", "operation-too-large"
    clock = _clock_check(op, received)
    if clock is not None:
        return clock
    allowed = ALLOWED.get(op["type"])
    if allowed is None:
        return f"{op['type']}: not an operation type", "operation-rejected"
    if principal.role not in allowed:
        return (
            f"{op['type']}: a {principal.role} may not do this (allowed: {', '.join(sorted(allowed))})",
            "not-authorized",
        )
    too_big = cap_problem(op["type"], op["payload"])
    if too_big is not None:
        return too_big, "field-too-large"
    return None


def _working_state(event: Event) -> dict[str, Any]:
    """The writer's state at the event's head, to change in place (call under the event's write lock).

    This process's working copy is brought up to the head by folding only the operations other
    processes appended since (cross-process coherence without a re-fold); without one, a copy of the
    readers' state (one copy, once). It is taken out of the cache while a push changes it, so a
    failed push never leaves a half-changed state behind.
    """
    entry = _working().drop(cache_key(event))
    if entry is not None and entry[0] <= event.head_seq:
        seq, state = entry
        if seq < event.head_seq:
            rows = db.session.execute(
                select(Operation.op)
                .where(
                    Operation.event_id == event.id, Operation.server_seq > seq, Operation.server_seq <= event.head_seq
                )
                .order_by(Operation.server_seq)
            ).scalars()
            try:
                for text in rows:
                    apply_in_place(state, json.loads(text))
            except Exception:  # the log no longer folds onto this copy: start again from the readers' state
                state = clone(event_state(event)[1])
        return state
    return clone(event_state(event)[1])


def _apply_to_working(state: dict[str, Any], op: dict[str, Any]) -> tuple[bool, str | None, str | None]:
    """(accepted, reason, error code) of one operation applied to the working state in place.

    A refusal (OperationRejected) leaves the state as it was; anything else is a bug in the rules
    engine, which must not lose the device's sequence: it is refused as ``rules-failure`` and the
    caller rebuilds the state (:class:`_Dirty`).
    """
    try:
        apply_in_place(state, op)
    except OperationRejected as exc:
        return False, str(exc), getattr(exc, "code", "operation-rejected")
    except Exception as exc:
        log.exception("rules engine failed on %s", op.get("op_id"))
        raise _Dirty(f"{op.get('type')}: the rules engine failed on this operation ({type(exc).__name__})") from exc
    return True, None, None


class _Dirty(Exception):
    """The working state may be half-changed by a failing handler: rebuild it before going on."""


def keep_summary(event: Event, state: dict[str, Any]) -> None:
    """The event row's name and ruleset as the event now has them (``event.configure`` renames, or changes the
    ruleset before round 1): lists, the summary, the delete confirmation and league checks read the row."""
    if state["name"] != event.name:
        event.name = state["name"]
    if state["ruleset"] is not None and state["ruleset"] != event.ruleset:
        event.ruleset = state["ruleset"]


def append_server_op(event: Event, state: dict[str, Any], op: dict[str, Any]) -> dict[str, Any]:
    """Append an operation the server writes itself (under the event lock); raises RulesError."""
    new_state = apply(state, op)
    keep_summary(event, new_state)
    event.head_seq += 1
    db.session.add(
        Operation(
            event_id=event.id,
            device=op["device"],
            device_seq=int(op["op_id"].rpartition(":")[2]),
            server_seq=event.head_seq,
            accepted=True,
            op=dumps(op),
            received_at=now_ms(),
        )
    )
    return new_state


@dataclass(frozen=True)
class Accepted:
    """What one push accepted, handed to each after-accept hook inside the push's transaction."""

    event: Event
    principal: Principal
    ops: list[dict[str, Any]]  # the accepted operations, in log order
    logged: list[tuple[int, str]]  # their server seqs and stored texts
    state: dict[str, Any]  # the event's state after them (not to be changed)
    received: int
    claims: list[dict[str, str]] = field(default_factory=list)  # claim codes a hook shows the pusher
    #: The round the published standings were after before these operations (``published_round``), or
    #: ``UNKNOWN``: an after-commit hook tells from it whether this push moved them.
    published_before: Any = field(default_factory=lambda: UNKNOWN)


#: ``Accepted.published_before`` when nobody worked it out.
UNKNOWN: Any = object()


AcceptHook = Callable[[Accepted], None]
#: Jobs run in order inside the push's transaction once its operations are inserted (backend/ledger/__init__.py
#: fills it: the push outbox, players' access and claim codes); whatever they write commits with the log.
AFTER_ACCEPT: list[AcceptHook] = []
#: Jobs run once the push committed (the shared parts of players' rendered views); what they write is their own
#: transaction, best effort, never part of the push.
AFTER_COMMIT: list[AcceptHook] = []


#: The statement of :func:`_device_progress`, made once (event, device and token are bound at execution).
_DEVICE_PROGRESS = (
    select(Token.revoked_at, Token.expires_at, Device)
    .select_from(Token)
    .outerjoin(Device, and_(Device.event_id == bindparam("event_id"), Device.device == bindparam("device")))
    .where(Token.id == bindparam("token_id"))
)


def _device_progress(event_id: str, principal: Principal, device: str) -> Device:
    """The device's progress row under the lock: 401 for a token withdrawn since, 403 a device taken.

    The token's state is read here, under the lock, in the same statement as the device's row: whatever the
    request's authentication saw (backend/auth.py may have it from memory), a token revoked, rotated or
    expired by another request or app server before this lock pushes nothing.
    """
    found = db.session.execute(
        _DEVICE_PROGRESS, {"event_id": event_id, "device": device, "token_id": principal.token_id}
    ).first()
    if found is None or found.revoked_at is not None:  # revoked (or gone with its event) since authenticated
        raise ApiError(401, "token-revoked", "this token was revoked")
    if found.expires_at is not None and found.expires_at <= now_ms():
        raise ApiError(401, "token-expired", "this device's access expired: join the event again with a new code")
    progress: Device | None = found.Device
    if progress is None:
        progress = Device(event_id=event_id, device=device, token_id=principal.token_id, last_seq=0, last_accepted=0)
        db.session.add(progress)
    elif progress.token_id != principal.token_id:
        owner = db.session.get(Token, progress.token_id)
        if owner is not None and (
            not _withdrawn(owner) or owner.role != principal.role or owner.player != principal.player
        ):
            raise ApiError(403, "device-taken", f"device '{device}' belongs to another token; use another device id")
        # The old token was revoked and this one has the same role (and player): the device was re-invited.
        progress.token_id = principal.token_id
    return progress


def _replayed_verdicts(event_id: str, device: str, progress: Device, items: list[dict[str, Any]]) -> list[Verdict]:
    """The stored verdicts of a batch's operations the server already has; 409 for a seq reused."""
    first = items[0]["seq"]
    if first > progress.last_seq + 1:
        raise ApiError(
            409,
            "sequence-gap",
            f"device '{device}' must push seq {progress.last_seq + 1} next, not {first}",
            expected_seq=progress.last_seq + 1,
        )
    replayed = [item["seq"] for item in items if item["seq"] <= progress.last_seq]
    if not replayed:
        return []
    rows = db.session.execute(
        select(Operation).where(
            Operation.event_id == event_id, Operation.device == device, Operation.device_seq.in_(replayed)
        )
    ).scalars()
    stored = {row.device_seq: row for row in rows}
    bodies = {item["seq"]: item["op"] for item in items}
    verdicts = []
    for seq in replayed:
        row = stored.get(seq)
        if row is not None and not _same_op(row.op, bodies[seq]):
            db.session.rollback()
            raise ApiError(
                409,
                "seq-reused",
                f"device '{device}' already used seq {seq} for another operation; "
                f"push new operations from seq {progress.last_seq + 1}",
                expected_seq=progress.last_seq + 1,
            )
        verdicts.append(
            _stored_verdict(row)
            if row is not None
            else Verdict(seq, "rejected", None, "no record of this operation", "unknown-operation")
        )
    return verdicts


def _as_logged(
    event_id: str, principal: Principal, device: str, fresh: list[dict[str, Any]], received: int
) -> list[dict[str, Any]]:
    """The batch's new operations as the log keeps them: op_id, device, actor and time filled in."""
    ops = []
    for item in fresh:
        body = item["op"]
        at = body.get("at")
        ops.append(
            {
                "type": body["type"],
                "op_id": f"{device}:{item['seq']}",
                "device": device,
                "actor": principal.actor,
                "at": at if at is not None else received,
                "payload": body.get("payload") if body.get("payload") is not None else {},
            }
        )
    if principal.role == "player":
        for op in ops:
            dealias_report(event_id, op)
    return ops


def _accept(
    event: Event, principal: Principal, device: str, progress: Device, fresh: list[dict[str, Any]]
) -> tuple[list[Verdict], Accepted]:
    """Apply the batch's new operations in order and insert their rows (accepted or not); caps rejections."""
    seq0, received = event.head_seq, now_ms()
    state = _working_state(event)  # changed in place below: cost proportional to the operations
    published_before = published_round(state)  # a look at the rounds' statuses, before they change
    ops = _as_logged(event.id, principal, device, fresh, received)
    verdicts: list[Verdict] = []
    accepted: list[dict[str, Any]] = []
    rows, logged, rejections = [], [], 0
    for item, op in zip(fresh, ops):
        if rejections >= MAX_REJECTIONS_PER_PUSH:
            break  # the rest waits for the next push (last_seq tells the device where to resume)
        text = dumps(op)
        reason: str | None
        error: str | None
        cheap = _precheck(principal, op, text, received)
        if cheap is not None:
            ok, reason, error = False, cheap[0], cheap[1]
        else:
            try:
                ok, reason, error = _apply_to_working(state, op)
            except _Dirty as dirty:
                # Rebuild: the log as committed, then this batch's accepted operations (pure, rare path).
                state = replay(accepted, event_state(event, seq0)[1])
                ok, reason, error = False, str(dirty), "rules-failure"
        row = {"event_id": event.id, "device": device, "device_seq": item["seq"], "op": text}
        row |= {"token_id": principal.token_id, "received_at": received, "server_seq": None, "accepted": ok}
        row |= {"reason": None, "error": None}
        if ok:
            event.head_seq += 1
            accepted.append(op)
            logged.append((event.head_seq, text))
            row["server_seq"] = event.head_seq
            progress.last_accepted = item["seq"]
            verdicts.append(Verdict(item["seq"], "accepted", event.head_seq))
        else:
            rejections += 1
            row["op"] = _rejected_body(op, text)
            row["reason"], row["error"] = reason, error
            verdicts.append(Verdict(item["seq"], "rejected", None, reason, error))
        progress.last_seq = item["seq"]
        rows.append(row)
    # Core, not the ORM's bulk insert: the rows are plain values and nothing reads them back as objects.
    db.session.connection().execute(insert(Operation.__table__), rows)
    return verdicts, Accepted(event, principal, accepted, logged, state, received, published_before=published_before)


def push(event_id: str, principal: Principal, device: str, items: list[dict[str, Any]]) -> dict[str, Any]:
    """Process a device's batch (already validated: consecutive seqs) inside the event lock; commits.

    The accepted operations go to each of ``AFTER_ACCEPT`` inside the transaction, then to each of
    ``AFTER_COMMIT`` once it committed.
    """
    event = lock_event(event_id)
    progress = _device_progress(event_id, principal, device)
    verdicts = _replayed_verdicts(event_id, device, progress, items)
    fresh = [item for item in items if item["seq"] > progress.last_seq]
    done: Accepted | None = None
    if fresh:
        more, done = _accept(event, principal, device, progress, fresh)
        verdicts += more
        for hook in AFTER_ACCEPT:
            hook(done)
        keep_summary(event, done.state)
        if event.head_seq - event.snapshot_seq >= SNAPSHOT_EVERY:
            event.snapshot, event.snapshot_seq = dumps(done.state), event.head_seq
    # Read before the commit, which expires the rows' attributes (reading one after it costs a query).
    head, key, last_seq, last_accepted = event.head_seq, cache_key(event), progress.last_seq, progress.last_accepted
    db.session.commit()
    if done is not None:
        _working().put(key, head, done.state)  # only now: a failed push left no half-changed state
        for hook in AFTER_COMMIT:
            hook(done)
    return {
        "device": device,
        "results": [v.to_json() for v in verdicts],
        "last_seq": last_seq,
        "last_accepted": last_accepted,
        "cursor": head,
        "claims": done.claims if done is not None else [],
        "server_time": now_ms(),
    }


def _keyed(*parts: str) -> str:
    key = str(current_app.config.get("SECRET_KEY") or "").encode("utf-8")
    message = "\x00".join(parts).encode("utf-8", "surrogatepass")
    return hmac.new(key, message, hashlib.sha256).hexdigest()


def device_alias(event_id: str, device: str) -> str:
    return "dev-" + _keyed("device", event_id, device)[:16]


def _withdrawn(token: Token) -> bool:
    """Revoked, expired, or rotated into another token: a device may move to a new token of the same holder."""
    return (
        token.revoked_at is not None
        or token.replaced_by is not None
        or (token.expires_at is not None and token.expires_at <= now_ms())
    )


def dealias_report(event_id: str, op: dict[str, Any]) -> None:
    """A player's result.confirm may name a report by the aliased op_id its pull showed: restore it."""
    payload = op.get("payload")
    report = payload.get("report") if isinstance(payload, dict) else None
    if not isinstance(payload, dict) or op.get("type") != "result.confirm":
        return
    if not isinstance(report, str) or not report.startswith("dev-"):
        return
    alias, _, seq = report.rpartition(":")
    for name in db.session.execute(select(Device.device).where(Device.event_id == event_id)).scalars():
        if device_alias(event_id, name) == alias:
            op["payload"] = dict(payload, report=f"{name}:{seq}")
            return
