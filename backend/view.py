"""What a player's phone shows, rendered on the server: ``GET /api/events/<id>/view`` (issue 26).

Phones stop folding the log: the server folds it once and renders each player's view from the folded state
(``shared_rules/state/player_view.py``: the player's own matches of every posted round, their opponents, their
penalties, deck list and calls, the ruleset's info, the clock at the server's time, the published standings).
The privacy is the player's pull's (backend/ledger/player_view.py): no drafts, no other player's penalties,
deck lists, birth years or game IDs, no secret round time, other devices under their stable aliases.

* **Up to date** (``If-None-Match`` names the current ETag): 304 with no body, decided from the token and the
  event's head alone, no state work. The ETag names the event (and its creation), the log's head, the player
  and the code's revision, so every worker gives the same one.
* **Shared parts**: what every player's view of one log position holds alike (the ruleset's info, the published
  standings with names, as JSON text) is made once per process and position, then spliced into each body.
"""

from __future__ import annotations

import hashlib
import json
import marshal
import struct
import sys
import threading
import time
import zlib
from collections import OrderedDict
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, current_app, request
from sqlalchemy import bindparam, select
from sqlalchemy.exc import IntegrityError, OperationalError

from backend.api import load_args
from backend.auth import Principal, authenticate, bearer, hash_secret, valid_id
from backend.db import begin_write, db
from backend.errors import ApiError
from backend.ledger import AFTER_COMMIT, Accepted, dumps, event_state
from backend.ledger.log import SERVER_DEVICE, UNKNOWN, base_state, cache_key, device_alias
from backend.models import Device, Event, Operation, Token, ViewParts, now_ms
from backend.schemas import ViewQuerySchema
from shared_rules.errors import RulesError
from shared_rules.state import apply_in_place
from shared_rules.state.answers import posted_bracket
from shared_rules.state.player_view import VIEW_VERSION, SharedParts, player_view, seat_index, shared_parts
from shared_rules.state.published import published_round, published_state, standings_policy
from shared_rules.state.state import clone

bp = Blueprint("view", __name__, url_prefix="/api/events")

_lock = threading.Lock()
_REVISION: list[str] = []


def code_revision() -> str:
    """A digest of the rules engine's and this module's source: a deploy changes every ETag."""
    with _lock:
        if not _REVISION:
            root = Path(__file__).resolve().parent.parent
            digest = hashlib.sha256(str(VIEW_VERSION).encode())
            for path in sorted((root / "shared_rules").rglob("*.py")) + [Path(__file__).resolve()]:
                digest.update(path.read_bytes())
            _REVISION.append(digest.hexdigest()[:12])
        return _REVISION[0]


def view_etag(event: Event, head: int, player: str) -> str:
    """The ETag of a player's view at log position ``head`` (strong: the same bytes, whatever the worker)."""
    return _etag(event.id, event.created_at, head, player)


def _etag(event_id: str, created_at: int, head: int, player: str) -> str:
    who = hashlib.sha256(player.encode("utf-8", "surrogatepass")).hexdigest()[:12]
    return f'"v{VIEW_VERSION}-{code_revision()}-{created_at}-{head}-{who}"'


class _Held:
    """One event's state as this process's views read it: folded forward in place, under its lock."""

    def __init__(self, seq: int, state: dict[str, Any]) -> None:
        self.lock = threading.Lock()
        self.seq = seq
        self.state = state
        #: The shared parts of the state at ``parts_seq``.
        self.parts: _Parts | None = None
        self.parts_seq = -1


#: Events whose state one process keeps for the players' views (least recently used dropped first).
_HELD_EVENTS = 8


def _held(event: Event) -> _Held:
    """This process's held state of the event (loaded from the log's snapshot the first time)."""
    key = cache_key(event)
    states: OrderedDict[str, _Held] = current_app.extensions.setdefault("topcut_view_states", OrderedDict())
    with _lock:
        held = states.get(key)
        if held is not None:
            states.move_to_end(key)
            return held
    held = _load(event)
    with _lock:
        states[key] = states.get(key, held)
        states.move_to_end(key)
        while len(states) > _HELD_EVENTS:
            states.popitem(last=False)
        return states[key]


def _load(event: Event) -> _Held:
    """A private copy of the event's state from the newest snapshot in the database (the views' own, written
    when a round is posted or completes, else the log's, every SNAPSHOT_EVERY operations), or from the start:
    a cold worker reads it and folds only the operations after it."""
    mine = db.session.execute(
        select(ViewParts.state_seq).where(ViewParts.event_id == event.id, ViewParts.state_format == STATE_FORMAT)
    ).scalar()
    logs = db.session.execute(select(Event.snapshot_seq).where(Event.id == event.id)).scalar() or 0
    if mine is not None and logs <= mine <= event.head_seq:
        data = db.session.execute(select(ViewParts.state).where(ViewParts.event_id == event.id)).scalar()
        if data is not None:
            try:
                return _Held(mine, marshal.loads(data))
            except (ValueError, EOFError, TypeError):
                pass  # unreadable: the log's snapshot below
    snap = db.session.execute(select(Event.snapshot, Event.snapshot_seq).where(Event.id == event.id)).first()
    if snap is not None and snap.snapshot is not None and snap.snapshot_seq <= event.head_seq:
        return _Held(snap.snapshot_seq, json.loads(snap.snapshot))
    return _Held(0, base_state(event))


#: The views' state snapshots are this interpreter's ``marshal`` (another interpreter's are not read).
STATE_FORMAT = f"marshal-{marshal.version}-py{sys.version_info[0]}.{sys.version_info[1]}"


def _forward(event: Event, held: _Held, head: int) -> None:
    """Fold the operations after the held state's position up to ``head``, in place (call under its lock)."""
    if held.seq >= head:
        return
    rows = db.session.execute(
        select(Operation.op)
        .where(Operation.event_id == event.id, Operation.server_seq > held.seq, Operation.server_seq <= head)
        .order_by(Operation.server_seq)
    ).scalars()
    try:
        for text in rows:
            apply_in_place(held.state, json.loads(text))
    except Exception:  # the log does not fold onto this copy: take the log's own fold (which says why, if it fails)
        held.state = clone(event_state(event, head)[1])
        held.parts, held.parts_seq = None, -1
    held.seq = head


def parts_key(state: dict[str, Any]) -> str:
    """What the shared parts depend on: the ruleset, settings and roster, and the results of the rounds the
    published standings count (a correction in a complete round changes them too)."""
    results = [
        (m["players"], m["outcomes"], m["scores"], m["stats"], m["games"], m["ending"], m["status"])
        for r in published_state(state)["rounds"]
        for m in r["matches"]
    ]
    facts = [state["ruleset"], state["settings"], state["players"], published_round(state), results]
    text = json.dumps(facts, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


class _Parts:
    """The shared parts of one event state: what they are valid for (``key``), as the renderer reads them
    (``shared``), and as JSON text: ``info``, ``standings`` (or "null"), ``note``; then the end of every view's
    body made of them (``tail``), compressed once (``deflated``: raw deflate, spliced after each player's part)."""

    def __init__(self, key: str, shared: SharedParts, info: str, standings: str, note: str | None) -> None:
        self.key, self.shared, self.info, self.standings, self.note = key, shared, info, standings, note
        self.tail = f',"info":{info},"standings":{standings},"standings_note":{dumps(note)}}}'.encode()
        self.made = time.monotonic()
        self._deflated: bytes | None = None
        #: The log position ``shared.seats`` was made at (``_parts`` makes it again when the log has moved).
        self.seats_seq = -1

    def deflated(self) -> bytes:
        """The tail as raw deflate from a fresh compressor, finished: made once, spliced after each player's part."""
        if self._deflated is None:
            packer = zlib.compressobj(GZIP_LEVEL, zlib.DEFLATED, -15)
            self._deflated = packer.compress(self.tail) + packer.flush(zlib.Z_FINISH)
        return self._deflated


#: How often a worker ranks the whole event again under a live standings policy while results come in (s).
LIVE_REFRESH_S = 10.0

#: The compression level of a view's body (backend/compression.py's: nearly level 9's size at a third of the time).
GZIP_LEVEL = 3


def _made(key: str, parts: SharedParts) -> _Parts:
    standings = parts.standings
    shown = {k: standings[k] for k in ("after", "rows", "labels")} if standings["after"] else None
    return _Parts(key, parts, dumps(parts.info), dumps(shown), standings["note"])


def _parts(event: Event, held: _Held) -> _Parts:
    """The shared parts of the held state, with where each player sits at the held position (call under its lock).

    The parts' key is what the published standings count, not the pairings: a round posted, started or swapped
    keeps the key but moves players' seats and the bracket, so both are made again whenever the log has moved."""
    parts = _standing_parts(event, held)
    if parts.seats_seq != held.seq:
        shared = parts.shared
        parts.shared = SharedParts(shared.info, shared.standings, seat_index(held.state), posted_bracket(held.state))
        parts.seats_seq = held.seq
    return parts


def _standing_parts(event: Event, held: _Held) -> _Parts:
    """The shared parts of the held state: this process's, else the cluster's (``view_parts``), else made and
    kept there for the other workers (call under the held state's lock)."""
    if held.parts is not None and held.parts_seq == held.seq:
        return held.parts
    if (
        held.parts is not None
        and standings_policy(held.state) == "live"
        and time.monotonic() - held.parts.made < LIVE_REFRESH_S
    ):
        return held.parts  # live standings: at most one ranking of the whole event per worker every few seconds
    key = parts_key(held.state)
    if held.parts is None or held.parts.key != key:
        row = db.session.get(ViewParts, event.id)
        if row is not None and row.parts_key == key:
            # The standings are spliced in as stored text: the rendering needs the info and the seats only.
            shown: dict[str, Any] = {"after": None, "rows": [], "labels": {}, "note": row.note}
            parts = SharedParts(json.loads(row.info), shown)  # seats and bracket: made by _parts
            held.parts = _Parts(key, parts, row.info, row.standings, row.note)
        else:
            held.parts = _made(key, shared_parts(held.state))
            held.parts.seats_seq = held.seq  # shared_parts made the seats and the bracket of this very state
            _keep(event.id, held.seq, held.parts)
    held.parts_seq = held.seq
    return held.parts


def _keep(event_id: str, seq: int, made: _Parts | None, state: bytes | None = None) -> None:
    """Store the shared parts (and the state, ``marshal``-ed) at ``seq`` for the other workers. Best effort: a
    busy database skips it (the next view that needs them makes them again)."""
    if made is None and state is None:
        return
    try:
        begin_write()
        row = db.session.get(ViewParts, event_id)
        if row is None and made is None:
            db.session.rollback()
            return  # the state goes with parts: the first view makes them
        if row is None:
            row = ViewParts(event_id=event_id)
            db.session.add(row)
        if made is not None:
            row.parts_key, row.seq, row.info = made.key, seq, made.info
            row.standings, row.note, row.made_at = made.standings, made.note, now_ms()
        if state is not None and (row.state_seq is None or row.state_seq < seq):
            row.state_seq, row.state, row.state_format = seq, state, STATE_FORMAT
        db.session.commit()
    except (OperationalError, IntegrityError):
        db.session.rollback()


def make_parts_after_round_change(accepted: Accepted) -> None:
    """After-commit hook: when the published standings move to another round, or a round is posted, started or
    cut (phones arrive at once), or the roster, settings or close change them, make the shared parts now from the
    pushing process's state, so the phones arriving next find them in the database on every worker. A result
    reported or corrected while the published round stays put costs a look at the rounds' statuses only: a
    correction in a counted round makes the parts stale, and the first view that needs them makes them
    (``_standing_parts``), once for a burst of corrections, not once per pushing request."""
    state = accepted.state
    if not accepted.logged:
        return  # nothing new in the log (a push of replays and refusals)
    if standings_policy(state) == "live":
        return  # live standings change with every result: each worker makes them when a view needs them
    after = published_round(state)
    before = accepted.published_before
    if before is not UNKNOWN and before == after and all(op["type"] in _LAZY for op in accepted.ops):
        return  # this push left the published round where it was (another push made its parts, if anyone did)
    parts = parts_key(state)
    row_key = db.session.execute(select(ViewParts.parts_key).where(ViewParts.event_id == accepted.event.id)).scalar()
    made = _made(parts, shared_parts(state)) if row_key != parts else None
    posted = any(op["type"] in _POSTING for op in accepted.ops) or made is not None
    _keep(accepted.event.id, accepted.logged[-1][0], made, marshal.dumps(state) if posted else None)


#: Operations after which phones arrive at once (a round posted, started, the cut made): the state is kept for
#: cold workers then (about 20 ms of the pushing device's request at 2,000 players).
_POSTING = frozenset({"round.publish", "round.start", "cut.make"})

#: Operations that change the published standings only by completing a round (or undoing its completion),
#: which the hook sees in the round they are after.
_IN_PLAY = frozenset(
    {"result.report", "result.confirm", "decklist.submit", "deckcheck.record", "device.void", "player.check_in"}
    | {"timer.extend", "timer.pause", "timer.resume", "round.pair", "round.swap", "round.discard", "round.publish"}
    | {"round.start"}
)

#: What the hook leaves to the views while the published round stays put: the operations above, and a result
#: corrected (in a round in play it changes nothing published; in a counted one the view remakes the parts).
_LAZY = (_IN_PLAY - _POSTING) | {"result.correct"}


def _own_devices(event_id: str, player: str) -> set[str]:
    """The devices of the player's tokens (shown under their own names; every other device is aliased)."""
    found = db.session.execute(
        select(Device.device)
        .join(Token, Token.id == Device.token_id)
        .where(Device.event_id == event_id, Token.role == "player", Token.player == player)
    ).scalars()
    return set(found)


def render(event: Event, player: str, gzipped: bool = False) -> tuple[int, bytes]:
    """(log position, the player's view as JSON, gzipped if asked) at the event's head.

    The body ends with the shared parts, so a gzipped body is the player's part compressed (flushed to a byte
    boundary, the compressor's memory reset) followed by the shared tail compressed once for every player: a
    valid gzip stream whose decompressed bytes are exactly the JSON body.
    """
    own = _own_devices(event.id, player)
    held = _held(event)
    with held.lock:
        _forward(event, held, event.head_seq)
        parts = _parts(event, held)
        head = _head(event, held.seq, held.state, player, own, parts.shared).encode()
        tail, seq = parts.tail, held.seq
        if not gzipped:
            return seq, head + tail
        deflated = parts.deflated()
    packer = zlib.compressobj(GZIP_LEVEL, zlib.DEFLATED, -15)
    body = packer.compress(head) + packer.flush(zlib.Z_FULL_FLUSH)
    crc = zlib.crc32(tail, zlib.crc32(head))  # the whole body's (about 0.1 ms for 300 kB)
    size = (len(head) + len(tail)) & 0xFFFFFFFF
    return seq, _GZIP_HEADER + body + deflated + struct.pack("<II", crc, size)


#: A gzip member's header: deflate, no name, no time, unknown OS (RFC 1952).
_GZIP_HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"


def _head(event: Event, seq: int, state: dict[str, Any], player: str, own: set[str], shared: SharedParts) -> str:
    """The player's own part of the body: everything but the shared tail (no closing brace)."""

    def alias(device: str) -> str:
        return device if device in own or device == SERVER_DEVICE else device_alias(event.id, device)

    at = now_ms()
    try:
        view = player_view(state, player, at, shared=shared, alias=alias)
    except RulesError:
        raise ApiError(
            404, "unknown-player", f"this event has no player '{player[:40]}': check the roster's player id"
        ) from None
    return (
        f'{{"version":{VIEW_VERSION},"cursor":{seq},"server_ms":{at},"me":{dumps(player)},'
        f'"state":{dumps(view["state"])},"clock":{dumps(view["clock"])},"decklist":{dumps(view["decklist"])},'
        f'"calls":{dumps(view["calls"])},"bracket":{dumps(view["bracket"])}'
    )


def _viewer(principal: Principal, asked: str | None) -> str:
    """Whose view the token may read: a player's own; staff name a player with ``?player=``."""
    if principal.role == "player":
        if asked is not None and asked != principal.player:
            raise ApiError(403, "not-your-view", "a player's phone shows only that player's own view")
        return str(principal.player)
    if asked is None:
        raise ApiError(
            403,
            "staff-token",
            "this is a player's view: staff devices pull the whole log (GET /api/events/<id>/pull), "
            "or name the player whose view to show with ?player=<player id>",
        )
    return asked


def _not_modified(etag: str) -> bool:
    """Whether If-None-Match names the ETag (as sent, or as compression marked it: ``"...:gzip"``)."""
    sent = request.headers.get("If-None-Match", "")
    for tag in sent.split(",") if sent else ():
        tag = tag.strip().removeprefix("W/").strip('"')
        if tag.partition(":")[0] == etag.strip('"'):
            return True
    return False


@bp.get("/<event_id>/view")
def view(event_id: str):
    """A player's view.
    ---
    get:
      summary: What a player's phone shows, rendered on the server (the player's token; 304 when up to date)
      description: >-
        The player's own matches of every posted round (no draft), their opponents (no one else's birth year or
        game ID), their own penalties, deck list and calls, the ruleset's info, every started round's clock at
        `server_ms` (secret time withheld), and the standings the organizer's standings policy publishes
        (`standings` null with `standings_note` saying why). `ETag` + `If-None-Match` give a 304 with no body
        while the event's log has not moved. Staff tokens name a player with `?player=`.
      security: [{bearer: []}]
      parameters:
      - in: query
        schema: ViewQuerySchema
      responses:
        200:
          content:
            application/json:
              schema: PlayerViewSchema
        304:
          description: the view named by If-None-Match is still the current one (no body)
    """
    principal, head = _token_and_head(event_id)
    player = _viewer(principal, load_args(_VIEW_ARGS).get("player"))
    etag = _etag(event_id, head.created_at, head.head_seq, player)
    if _not_modified(etag):
        return _headers(Response(status=304), etag)
    event = db.session.get(Event, event_id)
    if event is None:
        raise ApiError(404, "unknown-event", f"there is no event '{event_id[:40]}'")
    gzipped = request.accept_encodings["gzip"] > 0
    seq, body = render(event, player, gzipped)
    response = Response(body, mimetype="application/json")
    response.vary.add("Accept-Encoding")
    if not gzipped:
        return _headers(response, view_etag(event, seq, player))
    response.headers["Content-Encoding"] = "gzip"  # compressed here: Flask-Compress leaves it as it is
    return _headers(response, view_etag(event, seq, player)[:-1] + ':gzip"')


_VIEW_ARGS = ViewQuerySchema()

#: The token and its event's head in one prepared statement: what an up-to-date view's 304 needs, and no more.
_TOKEN_AND_HEAD = (
    select(
        Token.id,
        Token.event_id,
        Token.role,
        Token.player,
        Token.revoked_at,
        Token.expires_at,
        Event.head_seq,
        Event.created_at,
    )
    .join(Event, Event.id == Token.event_id)
    .where(Token.token_hash == bindparam("digest"))
)


def _token_and_head(event_id: str) -> tuple[Principal, Any]:
    """The request's token (as :func:`authenticate` judges it) and the event's ``head_seq`` and ``created_at``.

    Phones ask every few seconds, so the usual case is one query; anything unusual (no token, an unknown,
    revoked or expired one, another event's) goes through :func:`authenticate` for its exact error."""
    secret = bearer() if valid_id(event_id) else None
    # Core, not the ORM session: the row is read, never an object (about a third of the query's cost).
    row = db.session.connection().execute(_TOKEN_AND_HEAD, {"digest": hash_secret(secret)}).first() if secret else None
    usual = (
        row is not None
        and row.event_id == event_id
        and row.revoked_at is None
        and (row.expires_at is None or row.expires_at > now_ms())
    )
    if usual:
        assert row is not None
        return Principal(row.id, row.event_id, row.role, row.player, row.expires_at), row
    principal = authenticate(event_id)
    head = db.session.execute(select(Event.head_seq, Event.created_at).where(Event.id == event_id)).first()
    if head is None:  # deleted between the token check and now
        raise ApiError(404, "unknown-event", f"there is no event '{event_id[:40]}'")
    return principal, head


def _headers(response: Response, etag: str) -> Response:
    response.headers["ETag"] = etag
    response.headers["Cache-Control"] = "no-cache"
    return response


if make_parts_after_round_change not in AFTER_COMMIT:  # once, however often the module is imported
    AFTER_COMMIT.append(make_parts_after_round_change)

__all__ = ["bp", "code_revision", "make_parts_after_round_change", "parts_key", "render", "view_etag"]
