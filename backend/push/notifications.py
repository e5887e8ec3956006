"""What to send for which accepted operation: outbox rows, written in the operation's own transaction.

:func:`enqueue_for_ops` is the single hook the ledger calls after a batch of
operations is accepted and before it commits. It reads the event's push
subscriptions (one query, only when an operation can notify anyone) and
inserts one ``push_outbox`` row per (notification, subscription) with
``INSERT ... ON CONFLICT (key) DO NOTHING``. Keys are content-addressed, so the
same news is never queued twice: a round that is published and then started
notifies each player once; a swap or re-pairing notifies only the players
whose table or opponent changed.

Notifications (``kind``; who; when):

* ``round.paired`` — each player of a round: table and opponent(s), or the bye,
  when the round is published or started (a ``round.pair`` alone is a draft
  the desk may still swap), and again for a player whose seat changes after.
* ``cut.made`` / ``cut.posted`` — when the first elimination round is
  published or started: its players learn their table and opponent, every
  other subscribed player that the cut is posted.
* ``result.reported`` — the opponent(s) of a player who reported, while the
  match awaits their confirmation.
* ``result.disputed`` — both players and the staff devices, once per dispute.
* ``result.resolved`` — the players, when a judge resolves or corrects.
* ``time.warning`` — each player of an unfinished match, ``PUSH_TIME_WARNING_MINUTES``
  before the round's clock ends (scheduled when the round starts; moved by
  pause, resume and extensions; cancelled when the match's result settles).
* ``round.complete`` — staff devices, when every result of a round is in.
* ``result.confirmed`` — the player who reported, when the opponent (or a staff member) confirms it.
* ``call.player`` — the player staff call to a table or the judge station.
* ``call.judge`` — staff devices, when a judge is called to a table (shared_rules/state/calls.py).
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
import threading
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from flask import current_app
from sqlalchemy import Dialect, Update, bindparam, select, update

from backend.audience import audience_version
from backend.db import db
from backend.models import PushOutbox, PushSubscription, Token, now_ms
from shared_rules.state.lookup import current_round, find_match, find_player, find_round
from shared_rules.state.operations import OperationRejected
from shared_rules.state.roles import holders
from shared_rules.state.state import SETTLED

__all__ = [
    "enqueue_for_ops",
    "NOTIFYING_TYPES",
    "player_url",
    "short_name",
    "PENDING_WAKE",
    "collapse_tag",
    "fit_payload",
    "MAX_PAYLOAD_BYTES",
]

#: Operation types that may queue a notification (anything else costs nothing).
NOTIFYING_TYPES = frozenset(
    {
        "round.publish",
        "round.start",
        "round.swap",
        "round.pair",
        "cut.make",
        "result.report",
        "result.confirm",
        "result.correct",
        "result.resolve",
        "timer.pause",
        "timer.resume",
        "timer.extend",
        "call.judge",
        "call.player",
    }
)
#: (TTL seconds, urgency) per kind: how long the push service may hold it, and how eagerly it delivers.
DELIVERY = {
    "round.paired": (3600, "high"),
    "cut.made": (6 * 3600, "high"),
    "cut.posted": (6 * 3600, "normal"),
    "result.reported": (1800, "high"),
    "result.disputed": (3600, "high"),
    "result.resolved": (3600, "normal"),
    "time.warning": (300, "high"),
    "round.complete": (1800, "normal"),
    "result.confirmed": (1800, "normal"),
    "call.player": (900, "high"),
    "call.judge": (900, "high"),
}
#: Kinds without an entry here: an hour, normal urgency.
DEFAULT_DELIVERY = (3600, "normal")
#: Kinds that share one slot on a player's phone (one tag and Web Push ``Topic`` per player per group): a
#: newer pairing replaces the older, a judge's ruling replaces "confirm this result". A kind not listed is
#: its own group (``call.player``, ``result.confirmed``, ...).
COLLAPSE = {
    "round.paired": "pairing",
    "cut.made": "pairing",
    "cut.posted": "pairing",
    "result.reported": "result",
    "result.disputed": "result",
    "result.resolved": "result",
}
#: Push services refuse an encrypted body over 4,096 bytes (RFC 8030 §7.2; FCM, Apple, Mozilla). aes128gcm in
#: one record adds 86 header bytes, a delimiter and a 16-byte tag (RFC 8188, 8291): the JSON stays well under.
MAX_PUSH_BYTES = 4096
MAX_PAYLOAD_BYTES = MAX_PUSH_BYTES - 86 - 17 - 193  # 3,800 bytes of JSON: room to spare
#: What a lock screen has room for anyway (characters).
NAME_CHARS = 32
TITLE_CHARS = 80
BODY_CHARS = 400
STAFF_ROLES = holders("staff")  # the shared role table (shared_rules/state/roles.py)
#: The session.info flag that tells the commit hook to wake this process's drainer.
PENDING_WAKE = "topcut_push_wake"
FAR_FUTURE_MS = 2**62

log = logging.getLogger(__name__)


def player_url(event_id: str) -> str:
    return f"/#/event/{event_id}/player"


def screen_url(event_id: str, screen: str) -> str:
    """A screen of the app's router (pwa/main.js SCREENS): disputes, rounds, bracket, ..."""
    return f"/#/event/{event_id}/{screen}"


def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, with an ellipsis when something was cut."""
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def short_name(name: str) -> str:
    """'Misty Williams' -> 'Misty W.' (what a lock screen shows of the opponent), at most 32 characters."""
    words = name.split()
    if len(words) < 2 or not words[-1][0].isalpha():
        return clip(" ".join(words), NAME_CHARS)
    return clip(words[0], NAME_CHARS - 3) + f" {words[-1][0]}."


def collapse_tag(event_id: str, kind: str, player: str | None) -> str:
    """The notification ``tag`` (and, hashed, the Web Push ``Topic``) of a kind: one per player per group."""
    return f"{event_id}:{COLLAPSE.get(kind, kind)}:{player if player is not None else 'staff'}"


def _encoded(payload: dict[str, Any]) -> str:
    return json.dumps(payload, separators=(",", ":"), ensure_ascii=False)


def fit_payload(payload: dict[str, Any]) -> str | None:
    """The payload as JSON of at most ``MAX_PAYLOAD_BYTES`` (title and body clipped, then the extras dropped).

    Checked before queueing: a push service refuses a larger body for good, and a player would never hear.
    """
    payload = {**payload, "title": clip(payload["title"], TITLE_CHARS), "body": clip(payload["body"], BODY_CHARS)}
    text = _encoded(payload)
    if len(text.encode("utf-8")) <= MAX_PAYLOAD_BYTES:
        return text
    payload["data"] = {k: v for k, v in payload["data"].items() if isinstance(v, int | bool) or v is None}
    payload["body"] = clip(payload["body"], 160)
    text = _encoded(payload)
    return text if len(text.encode("utf-8")) <= MAX_PAYLOAD_BYTES else None


def _join(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _digest(*parts: Any) -> str:
    return hashlib.sha256("\x1f".join(map(str, parts)).encode("utf-8", "surrogatepass")).hexdigest()[:40]


def _topic(tag: str) -> str:
    """Web Push ``Topic`` (<= 32 base64url characters): a newer message of the same topic replaces an undelivered one."""
    return hashlib.sha256(tag.encode()).hexdigest()[:32]


class _Batch:
    """The notifications of one batch of operations, expanded to subscriptions."""

    def __init__(
        self,
        event_id: str,
        state: dict[str, Any],
        audience: _Audience,
        config: dict[str, Any],
    ) -> None:
        self.event_id = event_id
        self.state = state
        # Read only: the audience is this process's cached grouping of the event's subscriptions.
        self.by_player: dict[str, list[str]] = audience.by_player
        self.staff: list[str] = audience.staff
        self.rows: list[dict[str, Any]] = []
        self.updates: list[tuple[dict[str, Any], dict[str, Any]]] = []  # (where, values)
        self.now = now_ms()
        self.title = clip(state.get("name") or "Topcut", TITLE_CHARS)
        self.warn_minutes = config.get("PUSH_TIME_WARNING_MINUTES", 5)

    def name(self, pid: str) -> str:
        """The player's short name (the id of a player the roster does not have)."""
        try:
            name = find_player(self.state, pid)["name"]  # the roster's index, not a dict of every player per push
        except OperationRejected:
            name = pid
        return short_name(name)

    def add(
        self,
        kind: str,
        targets: Iterable[str],
        ident: tuple,
        body: str,
        url: str,
        tag: str | None = None,
        player: str | None = None,
        ref: str = "",
        data: dict[str, Any] | None = None,
        not_before: int | None = None,
        expires_at: int | None = None,
    ) -> None:
        """Queue ``kind`` for ``targets`` (subscription ids); ``ident`` says what news it is (its key).

        A player's notification is tagged once per player per kind's group (:func:`collapse_tag`), whatever
        ``tag`` says, so the newest replaces the older on the phone and at the push service (``Topic``),
        and queueing it drops that player's older pending sends of the group (:func:`enqueue_for_ops`).
        ``tag`` names a staff notification's own slot (one per dispute); the kind's group otherwise.
        """
        ttl, urgency = DELIVERY.get(kind, DEFAULT_DELIVERY)
        if player is not None or tag is None:
            tag = collapse_tag(self.event_id, kind, player)
        base = _digest(kind, *ident)
        payload = fit_payload(
            {
                "v": 1,
                "id": base,
                "kind": kind,
                "event": self.event_id,
                "title": self.title,
                "body": body,
                "url": url,
                "tag": tag,
                "data": data or {},
            }
        )
        if payload is None:
            log.error("push: a %s notification of event %s cannot be made small enough; not sent", kind, self.event_id)
            return
        due = self.now if not_before is None else not_before
        expiry = expires_at if expires_at is not None else max(due, self.now) + ttl * 1000
        topic = _topic(tag)
        for sid in targets:
            self.rows.append(
                {
                    "key": f"{self.event_id}:{kind}:{base}:{sid}",
                    "event_id": self.event_id,
                    "subscription_id": sid,
                    "kind": kind,
                    "ref": ref,
                    "player": player,
                    "payload": payload,
                    "ttl": ttl,
                    "urgency": urgency,
                    "topic": topic,
                    "state": "pending",
                    "attempts": 0,
                    "next_attempt_at": due,
                    "created_at": self.now,
                    "expires_at": expiry,
                }
            )

    # ------------------------------------------------------------ rounds

    def _round(self, number: int | None, stage: str | None) -> dict[str, Any] | None:
        try:
            if number is None:
                return current_round(self.state)
            return find_round(self.state, number, stage)[1]
        except Exception:
            return None

    def round_label(self, rnd: dict[str, Any]) -> str:
        return f"Round {rnd['number']}"

    def paired(self, rnd: dict[str, Any]) -> None:
        if rnd["status"] == "draft":
            return
        elim = [r for r in self.state["rounds"] if r["stage"] == "elimination"]
        is_cut = rnd["stage"] == "elimination" and self.state.get("cut") and elim and elim[0] is rnd
        label = self.round_label(rnd)
        ref = f"{rnd['stage']}:{rnd['number']}"
        seated: set[str] = set()
        url = player_url(self.event_id)
        for match in rnd["matches"]:
            players = match["players"]
            seated.update(players)
            for pid in players:
                targets = self.by_player.get(pid)
                if not targets:
                    continue
                others = [q for q in players if q != pid]
                table = match["table"]
                where = f"{label} — table {table}" if table is not None else label
                if others:
                    names = [self.name(q) for q in others]
                    text = f"{where} vs {_join(names)}"
                else:
                    text = f"{label} — you have a bye"
                kind = "round.paired"
                if is_cut:
                    kind = "cut.made"
                    text = f"You made the top {self.state['cut']}! {text}"
                self.add(
                    kind,
                    targets,
                    (ref, table, sorted(others), pid),
                    text,
                    url,
                    f"{self.event_id}:round:{ref}",
                    player=pid,
                    ref=ref,
                    data={
                        "round": rnd["number"],
                        "stage": rnd["stage"],
                        "table": table,
                        "opponents": [self.name(q) for q in others],
                        "bye": not others,
                    },
                )
        if is_cut:
            text = f"The top {self.state['cut']} cut is posted"
            for pid, targets in self.by_player.items():
                if pid not in seated:
                    self.add(
                        "cut.posted",
                        targets,
                        (ref, pid),
                        text,
                        screen_url(self.event_id, "bracket"),
                        f"{self.event_id}:cut",
                        player=pid,
                        ref=ref,
                        data={"cut": self.state["cut"]},
                    )

    # ------------------------------------------------------------ clock

    def schedule_warnings(self, rnd: dict[str, Any]) -> None:
        timer = rnd.get("timer")
        if not timer or not timer.get("duration_s") or not self.warn_minutes:
            return
        ref = f"{rnd['stage']}:{rnd['number']}"
        where = {"event_id": self.event_id, "kind": "time.warning", "ref": ref}
        if timer["paused_at"] is not None:
            self.updates.append((where, {"next_attempt_at": FAR_FUTURE_MS, "expires_at": FAR_FUTURE_MS}))
            return
        # A round with secret time (Doomtown's d6) warns before the end of the announced length, never
        # before its real end: the warning's moment would tell players the d6 (Floor Rules 3.A, 5.C).
        secret = "secret_s" in timer
        end = timer["started_at"] + timer["paused_ms"] + (timer["duration_s"] + timer["extended_s"]) * 1000
        warn_at = end - self.warn_minutes * 60_000
        if warn_at <= timer["started_at"]:
            return
        self.updates.append((where, {"next_attempt_at": warn_at, "expires_at": end}))
        if end <= self.now:
            return
        text = f"{self.warn_minutes} minutes left in {self.round_label(rnd).lower()}"
        if secret:
            text = (
                f"{self.warn_minutes} minutes to the announced end of {self.round_label(rnd).lower()}, "
                "then secret time: the round ends at any moment after that"
            )
        for match in rnd["matches"]:
            if match["status"] in SETTLED:
                continue
            for pid in match["players"]:
                targets = self.by_player.get(pid)
                if targets:
                    self.add(
                        "time.warning",
                        targets,
                        (ref, self.warn_minutes, pid),
                        text,
                        player_url(self.event_id),
                        f"{self.event_id}:time:{ref}",
                        player=pid,
                        ref=ref,
                        data={"round": rnd["number"], "minutes": self.warn_minutes},
                        not_before=warn_at,
                        expires_at=end,
                    )

    # ------------------------------------------------------------ results

    def result(self, op: dict[str, Any]) -> None:
        p = op.get("payload") or {}
        rnd = self._round(p.get("round"), p.get("stage"))
        if rnd is None:
            return
        try:
            index, match = find_match(rnd, p.get("table"), p.get("match"))
        except Exception:
            return
        ref = f"{rnd['stage']}:{rnd['number']}"
        table = match["table"]
        where = (
            f"{self.round_label(rnd)}, table {table}"
            if table is not None
            else f"{self.round_label(rnd)}, match {index + 1}"
        )
        at = _Spot(rnd, index, match, ref, table, where, f"{self.event_id}:result:{ref}:{index}")
        status = match["status"]
        self._cancel_stale(at)
        if op["type"] == "result.report" and status == "reported":
            self._reported(op, at)
        elif op["type"] in ("result.confirm", "result.report") and status == "confirmed":
            self._confirmed(op, at)
        elif status == "disputed":
            self._disputed(at)
        elif op["type"] in ("result.resolve", "result.correct") and status == "resolved":
            self._resolved(op, at)
        if rnd["status"] == "complete" and self.staff:
            self.add(
                "round.complete",
                self.staff,
                (ref,),
                f"{self.round_label(rnd)}: every result is in.",
                screen_url(self.event_id, "rounds"),
                f"{self.event_id}:complete:{ref}",
                ref=ref,
                data={"round": rnd["number"]},
            )

    def _cancel_stale(self, at: _Spot) -> None:
        """A settled match cancels its time warning; any state but reported cancels a "confirm it" not yet sent."""
        players = list(at.match["players"])
        if at.match["status"] in SETTLED:
            self.updates.append(
                (
                    {"event_id": self.event_id, "kind": "time.warning", "ref": at.ref, "players": players},
                    {"state": "cancelled"},
                )
            )
        if at.match["status"] != "reported":
            self.updates.append(
                (
                    {"event_id": self.event_id, "kind": "result.reported", "ref": at.ref, "players": players},
                    {"state": "cancelled"},
                )
            )

    def _outcome(self, kind: str, op: dict[str, Any], at: _Spot, pid: str, mine: str, text: str) -> None:
        """A notice to one player about the result recorded (or reported) for them at a table."""
        self.add(
            kind,
            self.by_player[pid],
            (op["op_id"], pid),
            text,
            player_url(self.event_id),
            at.tag,
            player=pid,
            ref=at.ref,
            data={"round": at.rnd["number"], "table": at.table, "outcome": mine},
        )

    def _reported(self, op: dict[str, Any], at: _Spot) -> None:
        """Each player who has not reported is asked to confirm the result reported for them."""
        match = at.match
        reporter = (op.get("actor") or {}).get("player")
        reported = {r["actor"].get("player") for r in match["reports"] if r["actor"]["role"] == "player"}
        latest = [r for r in match["reports"] if r["op_id"] == op["op_id"]]
        outcomes = latest[-1]["result"]["outcomes"] if latest else []
        for i, pid in enumerate(match["players"]):
            if pid in reported or pid == reporter or not self.by_player.get(pid):
                continue
            mine = outcomes[i] if i < len(outcomes) else "?"
            who = self.name(reporter) if reporter else "Your opponent"
            self._outcome(
                "result.reported", op, at, pid, mine, f"{at.where}: {who} reported a {mine} for you. Tap to confirm."
            )

    def _confirmed(self, op: dict[str, Any], at: _Spot) -> None:
        """Each player who reported (but not whoever confirmed it) learns the result is recorded."""
        by = (op.get("actor") or {}).get("player")
        reporters = {r["actor"].get("player") for r in at.match["reports"] if r["actor"]["role"] == "player"}
        outcomes = at.match.get("outcomes") or []
        for i, pid in enumerate(at.match["players"]):
            if pid == by or pid not in reporters or not self.by_player.get(pid):
                continue
            mine = outcomes[i] if i < len(outcomes) else "?"
            self._outcome("result.confirmed", op, at, pid, mine, f"{at.where}: your {mine} is confirmed.")

    # ------------------------------------------------------------ calls

    def call(self, op: dict[str, Any]) -> None:
        """A staff call reaches the player's phone; a judge call reaches every staff device."""
        entry = next((c for c in self.state.get("calls", []) if c["id"] == op["op_id"]), None)
        if entry is None:
            return
        table = entry.get("table")
        if entry["kind"] == "player":
            pid = entry["player"]
            targets = self.by_player.get(pid)
            if not targets:
                return
            where = f"table {table}" if table is not None else "the judge station"
            note = f" ({entry['note'][:80]})" if entry.get("note") else ""
            self.add(
                "call.player",
                targets,
                (op["op_id"], pid),
                f"Please come to {where}{note}.",
                player_url(self.event_id),
                f"{self.event_id}:call:{pid}",
                player=pid,
                ref=op["op_id"],
                data={"call": op["op_id"], "where": entry.get("where"), "table": table},
            )
        elif self.staff:
            where = f"table {table}" if table is not None else self.name(entry["player"] or "") or "the desk"
            reason = (entry.get("reason") or "")[:80]
            self.add(
                "call.judge",
                self.staff,
                (op["op_id"],),
                f"Judge called to {where}: {reason}",
                screen_url(self.event_id, "judge"),
                f"{self.event_id}:judgecall:{op['op_id']}",
                ref=op["op_id"],
                data={"call": op["op_id"], "table": table},
            )

    def _disputed(self, at: _Spot) -> None:
        """A dispute tells both players a judge is coming, and the staff that one is needed."""
        conflicting = sorted(r["op_id"] for r in at.match["reports"])
        for pid in at.match["players"]:
            if self.by_player.get(pid):
                self.add(
                    "result.disputed",
                    self.by_player[pid],
                    (at.ref, at.index, conflicting, pid),
                    f"{at.where}: the reported results disagree. A judge will come to your table.",
                    player_url(self.event_id),
                    at.tag,
                    player=pid,
                    ref=at.ref,
                    data={"round": at.rnd["number"], "table": at.table},
                )
        if self.staff:
            self.add(
                "result.disputed",
                self.staff,
                (at.ref, at.index, conflicting, "staff"),
                f"Dispute at {at.where.lower()}: a judge is needed.",
                screen_url(self.event_id, "disputes"),
                f"{self.event_id}:dispute:{at.ref}:{at.index}",
                ref=at.ref,
                data={"round": at.rnd["number"], "table": at.table},
            )

    def _resolved(self, op: dict[str, Any], at: _Spot) -> None:
        """A judge's ruling tells each player the result recorded for them."""
        outcomes = at.match.get("outcomes") or []
        for i, pid in enumerate(at.match["players"]):
            if self.by_player.get(pid):
                mine = outcomes[i] if i < len(outcomes) else "?"
                self._outcome("result.resolved", op, at, pid, mine, f"{at.where}: a judge recorded a {mine} for you.")


@dataclass(frozen=True)
class _Spot:
    """Where a result happened: its round, match (and index), round ref, table, words for it and push tag."""

    rnd: dict[str, Any]
    index: int
    match: dict[str, Any]
    ref: str
    table: Any
    where: str
    tag: str


def _subscriptions(event_id: str) -> list[tuple[str, str, str | None]]:
    return [
        (row[0], row[1], row[2])
        for row in db.session.execute(
            select(PushSubscription.id, PushSubscription.role, PushSubscription.player)
            .join(Token, Token.id == PushSubscription.token_id)
            .where(PushSubscription.event_id == event_id, Token.revoked_at.is_(None))
        ).all()
    ]


@dataclass(frozen=True)
class _Audience:
    """An event's live subscriptions grouped as the notifications address them (never changed once made)."""

    count: int  # every live subscription, addressed or not
    by_player: dict[str, list[str]]  # player id -> their phones' subscription ids
    staff: list[str]  # the staff devices' subscription ids


_NOBODY = _Audience(0, {}, [])
#: Events whose grouped subscriptions one process keeps (least recently used dropped first).
AUDIENCE_EVENTS = 64
_audience_lock = threading.Lock()


def _group(subscriptions: list[tuple[str, str, str | None]]) -> _Audience:
    by_player: dict[str, list[str]] = {}
    staff: list[str] = []
    for sid, role, player in subscriptions:
        if role == "player" and player is not None:
            by_player.setdefault(player, []).append(sid)
        elif role in STAFF_ROLES:
            staff.append(sid)
    return _Audience(len(subscriptions), by_player, staff)


def _audience(event_id: str) -> _Audience:
    """The event's live subscriptions, grouped: this process's copy while the event's audience version holds."""
    version = audience_version(event_id)
    kept: OrderedDict[str, tuple[int | None, _Audience]] = current_app.extensions.setdefault(
        "topcut_push_audiences", OrderedDict()
    )
    with _audience_lock:
        found = kept.get(event_id)
        if found is not None and found[0] == version:
            kept.move_to_end(event_id)
            return found[1]
    # Read after the version: a subscription committed in between is in the list, not the version, so the next
    # push reads the list again; the copy is never older than its version.
    subscriptions = _subscriptions(event_id)
    audience = _group(subscriptions) if subscriptions else _NOBODY
    with _audience_lock:
        kept[event_id] = (version, audience)
        kept.move_to_end(event_id)
        while len(kept) > AUDIENCE_EVENTS:
            kept.popitem(last=False)
    return audience


_COLUMNS = (
    "key",
    "event_id",
    "subscription_id",
    "kind",
    "ref",
    "player",
    "payload",
    "ttl",
    "urgency",
    "topic",
    "state",
    "attempts",
    "next_attempt_at",
    "created_at",
    "expires_at",
)


def _insert_ignore(rows: list[dict[str, Any]]) -> None:
    """``INSERT ... ON CONFLICT (key) DO NOTHING`` as one DBAPI executemany (1,000 rows in a few ms)."""
    connection = db.session.connection()
    marker = "?" if connection.dialect.paramstyle == "qmark" else "%s"
    sql = (
        f"INSERT INTO {PushOutbox.__tablename__} ({', '.join(_COLUMNS)}) "
        f"VALUES ({', '.join([marker] * len(_COLUMNS))}) ON CONFLICT (key) DO NOTHING"
    )
    connection.exec_driver_sql(sql, [tuple(row[c] for c in _COLUMNS) for row in rows])


def _collect(batch: _Batch, relevant: list[dict[str, Any]], state: dict[str, Any]) -> None:
    seen_rounds: set[int] = set()
    for op in relevant:
        kind, p = op["type"], op.get("payload") or {}
        if kind in ("round.publish", "round.start", "round.swap", "round.pair", "cut.make"):
            stage = p.get("stage") or {"cut.make": "elimination", "round.pair": "swiss"}.get(kind)
            rnd = batch._round(p.get("number"), stage) if p.get("number") is not None else None
            if rnd is None and kind == "cut.make":
                elim = [r for r in state["rounds"] if r["stage"] == "elimination"]
                rnd = elim[0] if elim else None
            if rnd is not None and id(rnd) not in seen_rounds:
                seen_rounds.add(id(rnd))
                batch.paired(rnd)
            if kind == "round.start" and rnd is not None:
                batch.schedule_warnings(rnd)
        elif kind.startswith("timer."):
            rnd = batch._round(p.get("round"), p.get("stage"))
            if rnd is not None:
                batch.schedule_warnings(rnd)
        elif kind.startswith("call."):
            batch.call(op)
        else:
            batch.result(op)


def _pending_of_topics(dialect: Dialect, count: int) -> str:
    """The SELECT of an event's pending sends of ``count`` tags (``Topic``), through ``ix_push_outbox_topic``.

    With ``topic IN`` of two tags or more SQLite's planner, without statistics, prefers the one equality on
    ``state`` and walks the "due" index: every pending notification of the server. ``INDEXED BY`` (SQLite only)
    keeps it on the topic index; PostgreSQL's planner picks that index by itself.
    """
    marker = "?" if dialect.paramstyle == "qmark" else "%s"
    table = PushOutbox.__tablename__
    hint = " INDEXED BY ix_push_outbox_topic" if dialect.name == "sqlite" else ""
    return (
        f'SELECT id, "key", subscription_id, topic FROM {table}{hint} '
        f"WHERE topic IN ({', '.join([marker] * count)}) AND state = 'pending' AND event_id = {marker}"
    )


def _supersede(event_id: str, rows: list[dict[str, Any]]) -> None:
    """Drop the pending sends these rows replace: same device, same tag (``Topic``), older news.

    A phone that was offline must not get round 1's table after round 2's: when round 2's pairing is
    queued, round 1's still waiting (a retry, a device the push service could not reach) is ``superseded``.
    The rows just offered are kept (a key already queued is the same news, offered again).
    """
    fresh = {(row["subscription_id"], row["topic"]) for row in rows}
    keys = {row["key"] for row in rows}
    topics = sorted({topic for _, topic in fresh})
    connection = db.session.connection()
    stale: list[int] = []
    for start in range(0, len(topics), 500):
        chunk = topics[start : start + 500]
        for rid, key, sid, topic in connection.exec_driver_sql(
            _pending_of_topics(connection.dialect, len(chunk)), (*chunk, event_id)
        ).all():
            if (sid, topic) in fresh and key not in keys:
                stale.append(rid)
    for start in range(0, len(stale), 500):
        db.session.execute(
            update(PushOutbox)
            .where(PushOutbox.id.in_(stale[start : start + 500]), PushOutbox.state == "pending")
            .values(state="superseded", last_error="replaced by newer news of the same kind")
        )


def pending_notices(where: dict[str, Any]) -> Update:
    """The UPDATE of an event's pending notices of one kind about one ref (a round), or of some players' only.

    One statement per kind: with ``kind IN (...)`` SQLite's planner leaves the (event, kind, ref, player) index
    for the outbox's "due" index and walks every pending notification of the server. The player is in that index
    (migration 0011): a settled match's two players' notices are found without walking the round's others.
    """
    statement = update(PushOutbox).where(
        PushOutbox.event_id == where["event_id"],
        PushOutbox.kind == where["kind"],
        PushOutbox.ref == where["ref"],
        PushOutbox.state == "pending",
    )
    if "players" in where:
        statement = statement.where(PushOutbox.player.in_(where["players"]))
    return statement


@functools.cache
def _notices_update(with_players: bool, columns: tuple[str, ...]) -> Update:
    """:func:`pending_notices` with ``values`` of ``columns``, made once per shape: everything is bound at execution."""
    where: dict[str, Any] = {
        "event_id": bindparam("w_event_id"),
        "kind": bindparam("w_kind"),
        "ref": bindparam("w_ref"),
    }
    if with_players:
        where["players"] = bindparam("w_players", expanding=True)
    return pending_notices(where).values({column: bindparam(f"v_{column}") for column in columns})


def _update_notices(where: dict[str, Any], values: dict[str, Any]) -> None:
    """Run :func:`pending_notices`'s UPDATE of ``where`` with ``values`` through its statement made once."""
    params = {f"w_{key}": value for key, value in where.items()} | {f"v_{key}": value for key, value in values.items()}
    db.session.connection().execute(_notices_update("players" in where, tuple(sorted(values))), params)


def enqueue_for_ops(event_id: str, ops: list[dict[str, Any]], state: dict[str, Any], config: dict[str, Any]) -> int:
    """Queue the notifications ``ops`` (accepted, in log order) cause; ``state`` is the state after them.

    Runs inside the accepting transaction (so the outbox commits or rolls back
    with the operations); returns the number of rows offered to the outbox.
    """
    if not config.get("PUSH_ENABLED", True):
        return 0
    relevant = [op for op in ops if op.get("type") in NOTIFYING_TYPES]
    if not relevant:
        return 0
    audience = _audience(event_id)
    if not audience.count:
        return 0
    batch = _Batch(event_id, state, audience, config)
    try:
        _collect(batch, relevant, state)
    except Exception:  # a bug here must never refuse the operations themselves
        log.exception("push: could not work out the notifications of event %s", event_id)
        return 0
    if batch.rows:
        _insert_ignore(batch.rows)
        _supersede(event_id, batch.rows)
    for where, values in batch.updates:
        _update_notices(where, values)
    if batch.rows:
        db.session.info[PENDING_WAKE] = True
    return len(batch.rows)
