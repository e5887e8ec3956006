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

import hashlib
import hmac
import json
import logging
import threading
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from flask import current_app
from sqlalchemy import func, insert, or_, select, update

from backend.auth import Principal, hash_code, new_code, new_id
from backend.claims import seal
from backend.db import begin_write, db
from backend.errors import ApiError
from backend.models import Device, Event, Invitation, Operation, Token, now_ms
from backend.push import on_ops_accepted
from backend.roster_links import auto_link, unlink_removed
from shared_rules.errors import RulesError
from shared_rules.state import (
    ALLOWED,
    WITHHELD_PREFIX,
    OperationRejected,
    apply,
    apply_in_place,
    cap_problem,
    from_event_document,
    initial_state,
    replay,
    secret_time_sides,
)
from shared_rules.state.state import clone

__all__ = [
    "SERVER_DEVICE",
    "CLAIM_READERS",
    "dumps",
    "event_state",
    "push",
    "pull_body",
    "create_claim",
    "claim_rows_for",
    "revoke_player_access",
    "Verdict",
    "lock_event",
    "append_server_op",
]

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
CLAIM_READERS = frozenset({"organizer", "head-judge", "scorekeeper"})


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


def lock_event(event_id: str) -> Event:
    """Start a write transaction holding the event's lock; 404 for an unknown event."""
    begin_write()
    event = db.session.execute(select(Event).where(Event.id == event_id).with_for_update()).scalar_one_or_none()
    if event is None:
        raise ApiError(404, "unknown-event", f"there is no event '{event_id}'")
    return event


def create_claim(event_id: str, player: str, created_by: str | None) -> tuple[Invitation, str]:
    """A player's claim code: found by its hash, kept sealed for CLAIM_READERS (backend/claims.py)."""
    code, invitation_id = new_code(), new_id()
    invitation = Invitation(
        id=invitation_id,
        event_id=event_id,
        code_hash=hash_code(code),
        code=seal(code, event_id, player, invitation_id),
        role="player",
        player=player,
        created_by=created_by,
        created_at=now_ms(),
    )
    db.session.add(invitation)
    return invitation, code


def claim_rows_for(
    event_id: str, players: list[str], created_by: str | None
) -> tuple[list[dict[str, Any]], list[dict[str, str]]]:
    """Rows for a bulk insert of players' claim codes (hashed, and sealed for staff), and the codes."""
    stamp = now_ms()
    rows, shown = [], []
    for pid in players:
        code, invitation_id = new_code(), new_id()
        rows.append(
            {
                "id": invitation_id,
                "event_id": event_id,
                "code_hash": hash_code(code),
                "code": seal(code, event_id, pid, invitation_id),
                "role": "player",
                "player": pid,
                "created_by": created_by,
                "created_at": stamp,
                "redeemed_at": None,
                "token_id": None,
                "revoked_at": None,
            }
        )
        shown.append({"player": pid, "code": code})
    return rows, shown


def _registered_player(op: dict[str, Any]) -> str | None:
    if op["type"] != "player.register":
        return None
    player = (op.get("payload") or {}).get("player") or {}
    pid = player.get("id") if isinstance(player, dict) else None
    return pid if isinstance(pid, str) else None


def _removed_player(op: dict[str, Any]) -> str | None:
    if op["type"] != "player.remove":
        return None
    pid = (op.get("payload") or {}).get("player")
    return pid if isinstance(pid, str) else None


def revoke_player_access(event_id: str, players: Iterable[str], stamp: int) -> None:
    """A removed player's claim codes stop working (wiped) and their phones' tokens are revoked."""
    players = list(players)
    if not players:
        return
    db.session.execute(
        update(Invitation)
        .where(Invitation.event_id == event_id, Invitation.player.in_(players), Invitation.revoked_at.is_(None))
        .values(revoked_at=stamp, code=None)
    )
    db.session.execute(
        update(Token)
        .where(
            Token.event_id == event_id, Token.player.in_(players), Token.role == "player", Token.revoked_at.is_(None)
        )
        .values(revoked_at=stamp)
    )


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


def push(event_id: str, principal: Principal, device: str, items: list[dict[str, Any]]) -> dict[str, Any]:
    """Process a device's batch (already validated: consecutive seqs) inside the event lock; commits."""
    event = lock_event(event_id)
    live = db.session.execute(
        select(Token.id).where(Token.id == principal.token_id, Token.revoked_at.is_(None))
    ).first()
    if live is None:  # revoked since the request was authenticated
        raise ApiError(401, "token-revoked", "this token was revoked")
    if principal.expires_at is not None and principal.expires_at <= now_ms():
        raise ApiError(401, "token-expired", "this device's access expired: join the event again with a new code")
    progress = db.session.get(Device, (event_id, device))
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

    first = items[0]["seq"]
    if first > progress.last_seq + 1:
        raise ApiError(
            409,
            "sequence-gap",
            f"device '{device}' must push seq {progress.last_seq + 1} next, not {first}",
            expected_seq=progress.last_seq + 1,
        )

    verdicts: list[Verdict] = []
    replayed = [item["seq"] for item in items if item["seq"] <= progress.last_seq]
    if replayed:
        rows = db.session.execute(
            select(Operation).where(
                Operation.event_id == event_id, Operation.device == device, Operation.device_seq.in_(replayed)
            )
        ).scalars()
        stored = {row.device_seq: row for row in rows}
        bodies = {item["seq"]: item["op"] for item in items}
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

    fresh = [item for item in items if item["seq"] > progress.last_seq]
    if fresh:
        seq0 = event.head_seq
        state = _working_state(event)  # changed in place below: cost proportional to the operations
        new_claims: list[str] = []
        registered: list[dict[str, Any]] = []  # the players of accepted player.register ops (automatic links)
        removed: set[str] = set()  # players removed by this batch: their earlier codes and phones are revoked
        shown_claims: list[dict[str, str]] = []
        received = now_ms()
        rejections = 0
        ops, rows = [], []
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
        texts = [dumps(op) for op in ops]
        accepted_ops: list[dict[str, Any]] = []
        for item, op, text in zip(fresh, ops, texts):
            if rejections >= MAX_REJECTIONS_PER_PUSH:
                break  # the rest waits for the next push (last_seq tells the device where to resume)
            cheap = _precheck(principal, op, text, received)
            if cheap is not None:
                ok, (reason, error) = False, cheap
            else:
                try:
                    ok, reason, error = _apply_to_working(state, op)
                except _Dirty as dirty:
                    # Rebuild: the log as committed, then this batch's accepted operations (pure, rare path).
                    state = replay(accepted_ops, event_state(event, seq0)[1])
                    ok, reason, error = False, str(dirty), "rules-failure"
            row = {
                "event_id": event_id,
                "device": device,
                "device_seq": item["seq"],
                "op": text,
                "token_id": principal.token_id,
                "received_at": received,
                "server_seq": None,
                "accepted": False,
                "reason": None,
                "error": None,
            }
            if ok:
                event.head_seq += 1
                accepted_ops.append(op)
                row["server_seq"], row["accepted"] = event.head_seq, True
                progress.last_accepted = item["seq"]
                verdicts.append(Verdict(item["seq"], "accepted", event.head_seq))
                pid = _registered_player(op)
                if pid is not None:
                    new_claims.append(pid)
                    registered.append(op["payload"]["player"])
                gone = _removed_player(op)
                if gone is not None:
                    removed.add(gone)
                    new_claims = [p for p in new_claims if p != gone]  # registered and removed in one batch
                    registered = [p for p in registered if p.get("id") != gone]
            else:
                rejections += 1
                row["op"] = _rejected_body(op, text)
                row["reason"], row["error"] = reason, error
                verdicts.append(Verdict(item["seq"], "rejected", None, reason, error))
            progress.last_seq = item["seq"]
            rows.append(row)
        db.session.execute(insert(Operation), rows)
        on_ops_accepted(event_id, [op for op, row in zip(ops, rows) if row["accepted"]], state)  # push outbox
        revoke_player_access(event_id, removed, received)  # before new codes: an id registered again keeps its new one
        unlink_removed(event_id, removed)  # before new links, for the same reason
        auto_link(event_id, registered)  # roster entries carrying a known game id (backend/roster_links.py)
        if new_claims:
            claim_rows, codes = claim_rows_for(event_id, new_claims, principal.token_id)
            db.session.execute(insert(Invitation), claim_rows)
            if principal.role in CLAIM_READERS:
                shown_claims = codes
        keep_summary(event, state)
        if event.head_seq - event.snapshot_seq >= SNAPSHOT_EVERY:
            event.snapshot, event.snapshot_seq = dumps(state), event.head_seq
        head = event.head_seq
        db.session.commit()
        _working().put(cache_key(event), head, state)  # only now: a failed push left no half-changed state cached
        # Players' pulls splice the shared view of these operations; make it now, outside any pull.
        facts = penalty_facts(state)
        _player_views().put_many(
            cache_key(event),
            {row["server_seq"]: _shared_view(event_id, row["op"], facts) for row in rows if row["accepted"]},
        )
    else:
        head = event.head_seq
        shown_claims = []
        db.session.commit()
    return {
        "device": device,
        "results": [v.to_json() for v in verdicts],
        "last_seq": progress.last_seq,
        "last_accepted": progress.last_accepted,
        "cursor": head,
        "claims": shown_claims,
        "server_time": now_ms(),
    }


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
#    device then folds every round's ``secret_s`` as None and its clock runs to the announced hour only.

_PAIRING_PREFIXES = tuple(f'{{"type":"{t}"' for t in ("round.pair", "round.swap", "cut.make"))


def _keyed(*parts: str) -> str:
    key = str(current_app.config.get("SECRET_KEY") or "").encode("utf-8")
    message = "\x00".join(parts).encode("utf-8", "surrogatepass")
    return hmac.new(key, message, hashlib.sha256).hexdigest()


def device_alias(event_id: str, device: str) -> str:
    return "dev-" + _keyed("device", event_id, device)[:16]


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
    if op.get("type") != "result.confirm" or not isinstance(report, str) or not report.startswith("dev-"):
        return
    alias, _, seq = report.rpartition(":")
    for name in db.session.execute(select(Device.device).where(Device.event_id == event_id)).scalars():
        if device_alias(event_id, name) == alias:
            op["payload"] = dict(payload, report=f"{name}:{seq}")
            return


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
_DROPPING_ROLES = frozenset({"organizer", "head-judge", "scorekeeper"})


def _penalty_hidden(op: dict[str, Any], facts: dict[str, _Penalty]) -> dict[str, Any]:
    """Another player's penalty operation as a player's pull shows it: the drop it made, or nothing."""
    fact = facts.get(op.get("op_id", "")) if op.get("type") == "penalty.issue" else None
    if fact is not None and fact.dropped is not None:
        actor = op.get("actor") if isinstance(op.get("actor"), dict) else {}
        role = actor.get("role") if actor.get("role") in _DROPPING_ROLES else "head-judge"
        return dict(
            op, type="player.drop", actor={"role": role}, payload={"player": fact.player, "after": fact.dropped}
        )
    return dict(op, type="device.void", payload={})


def _penalized(op: dict[str, Any], facts: dict[str, _Penalty]) -> str | None:
    """The player a penalty operation is about (None: not a penalty operation, or unknown to the state)."""
    payload = op.get("payload") if isinstance(op.get("payload"), dict) else {}
    if op.get("type") == "penalty.issue":
        return payload.get("player") if isinstance(payload.get("player"), str) else None
    if op.get("type") == "penalty.rescind":
        fact = facts.get(payload.get("penalty", "")) if isinstance(payload.get("penalty"), str) else None
        return fact.player if fact is not None else None
    return None


def _player_op(
    event_id: str,
    text: str,
    player: str | None,
    own: set[str],
    hide_seed: bool,
    facts: dict[str, _Penalty] | None = None,
) -> str:
    """One logged operation as the player ``player`` sees it (their own devices ``own`` unaliased)."""
    op = json.loads(text)
    if op.get("type") in ("penalty.issue", "penalty.rescind") and (
        player is None or _penalized(op, facts or {}) != player
    ):
        op = _penalty_hidden(op, facts or {})
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
        if isinstance(named, str):
            name, _, seq = named.rpartition(":")
            if name not in own and name != SERVER_DEVICE:
                key = "report" if op["type"] == "result.confirm" else "penalty"
                op["payload"] = dict(op["payload"], **{key: f"{device_alias(event_id, name)}:{seq}"})
    return dumps(op)


@dataclass(frozen=True)
class _SharedView:
    """A logged operation as every player sees it unless it is theirs: all devices aliased, no penalty
    shown; plus what decides whether it is some player's own (then it is rendered for them)."""

    text: str
    penalized: str | None = None  # penalty.issue, penalty.rescind: the player penalized
    confirmed_device: str | None = None  # result.confirm: the device whose report it confirms


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


def _shared_view(event_id: str, text: str, facts: dict[str, _Penalty]) -> _SharedView:
    """A logged operation's shared view; a penalty's never changes (its drop and its player are for good)."""
    shared = _player_op(event_id, text, None, set(), False, facts)
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
    out = []
    for seq, device, text in rows:
        if facts is None and text.startswith(_PENALTY_PREFIXES) and seq not in cached:
            facts = penalty_facts(event_state(event)[1])  # the state's penalties: who, and what each dropped
        if device in own or text.startswith('{"type":"event.create"'):
            out.append((seq, _player_op(event_id, text, principal.player, own, hide_seed, facts)))
            continue
        view = cached.get(seq)
        if view is None:
            view = made[seq] = _shared_view(event_id, text, facts or {})
        if (view.penalized is not None and view.penalized == principal.player) or (
            view.confirmed_device is not None and view.confirmed_device in own
        ):
            if facts is None:
                facts = penalty_facts(event_state(event)[1])
            out.append((seq, _player_op(event_id, text, principal.player, own, hide_seed, facts)))
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
    player_view = principal is not None and principal.role == "player"
    # Devices first, then operations: every sequence the devices map reports is in the log we read next.
    progress = db.session.execute(
        select(Device, Token).join(Token, Token.id == Device.token_id, isouter=True).where(Device.event_id == event.id)
    ).all()
    own: set[str] = set()
    if player_view:
        own = {row.device for row, owner in progress if _owns(owner, principal)}
        if device is not None and device not in own and any(row.device == device for row, _ in progress):
            raise ApiError(403, "not-your-device", "a player may only ask for the rejections of their own devices")
    devices = {
        row.device: {"last_seq": row.last_seq, "last_accepted": row.last_accepted}
        for row, _ in progress
        if not player_view or row.device in own
    }
    query = select(Operation.server_seq, Operation.device, Operation.op).where(
        Operation.event_id == event.id, Operation.server_seq > cursor
    )
    hold = _hold_point(event) if player_view else None
    hide_seed = player_view and seed_is_secret(event_state(event)[1])
    if hold is not None:
        query = query.where(Operation.server_seq < hold)
        _cap_held_devices(event.id, devices, hold)
    rows = db.session.execute(query.order_by(Operation.server_seq).limit(limit + 1)).all()
    more = len(rows) > limit
    rows = rows[:limit]
    if player_view:
        rows = _player_rows(event, rows, principal, own, hide_seed)
    else:
        rows = [(seq, text) for seq, _, text in rows]
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
    if player_view and base != "null":
        base = _player_base(event.id, base, principal, hide_seed)
    return (
        f'{{"event_id":{dumps(event.id)},"cursor":{new_cursor},"more":{"true" if more else "false"},'
        f'"ops":[{ops}],"devices":{dumps(devices)},"rejections":{dumps(rejections)},"base":{base},'
        f'"server_time":{now_ms()}}}'
    )


def accepted_ops(event_id: str) -> Iterable[dict[str, Any]]:
    rows = db.session.execute(
        select(Operation.op)
        .where(Operation.event_id == event_id, Operation.server_seq.is_not(None))
        .order_by(Operation.server_seq)
    ).scalars()
    return (json.loads(text) for text in rows)
