"""The sync protocol (in the spirit of Replicache): push a device's operations, pull the log.

Each device has an id and a gapless sequence of operations (1, 2, 3, ...).
A push is idempotent on (device, seq): a replayed seq gets its stored verdict;
a gap is refused (409 ``sequence-gap`` with ``expected_seq``); each new
operation is authorized and checked against the current state, then appended
with the next server sequence number, or rejected with a reason (recorded, so
the device's sequence still advances). A pull returns the accepted operations
after a cursor, and every device's last processed and last accepted seq, so a
device drops what the server has processed and re-applies its pending
operations on top.

Time: device clocks are not trusted. Every push and pull answer (and every
token grant) carries ``server_time``; a device takes the middle of the round
trip as the moment the server stamped it and keeps the difference as its
clock offset, so it stamps operations (``at``) and draws round clocks in the
server's time. The server refuses (``clock-ahead``, naming the field and how
far ahead) an operation whose ``at`` or ``payload.at`` is more than
``MAX_CLOCK_AHEAD_MS`` (2 minutes) after the moment the server received it: no
change can be made after it arrives, and a round started in the future would
freeze every clock. An earlier time is kept as it is: a device that was
offline pushes changes it made earlier, which no server can tell from a slow
clock.
"""

from __future__ import annotations

from flask import Blueprint, Response

from backend.api import load_args, load_body, respond
from backend.auth import authenticate, authenticate_pusher, require_event
from backend.ledger import pull_body, push
from backend.limits import push_limits
from backend.schemas import PullQuerySchema, PullResponseSchema, PushRequestSchema, PushResponseSchema
from backend.tokens import note_seen

bp = Blueprint("sync", __name__, url_prefix="/api/events")

#: Made once: a schema instance makes its nested schemas on first use and keeps them (no state per call).
_PUSH_REQUEST = PushRequestSchema()
_PUSH_RESPONSE = PushResponseSchema()


@bp.post("/<event_id>/push")
@push_limits
def push_ops(event_id: str):
    """Push a device's operations.
    ---
    post:
      summary: Push operations (idempotent on device and seq; the token's role is the actor)
      security: [{bearer: []}]
      requestBody:
        required: true
        content:
          application/json:
            schema: PushRequestSchema
      responses:
        200:
          content:
            application/json:
              schema: PushResponseSchema
    """
    principal = authenticate_pusher(event_id)  # before the body: no token, no schema details
    data = load_body(_PUSH_REQUEST)
    result = push(event_id, principal, data["device"], data["ops"])
    return respond(_PUSH_RESPONSE, result)


@bp.get("/<event_id>/pull")
def pull_ops(event_id: str):
    """Pull the log after a cursor.
    ---
    get:
      summary: Accepted operations after the cursor, plus each device's progress
      description: >-
        Staff get the whole log. A player gets the player's view: the log up to (not including) the first
        operation that placed a round still in draft; other tokens' devices under stable aliases (also in
        op_id); no other player's penalty (each such operation is a `device.void` in its slot, or the
        `player.drop` a disqualification or ejection made); only their own devices in `devices` and
        `?device=`. Folding it gives the server's state at `cursor` up to those renamings, less other
        players' penalties.
        A cursor beyond the event's last operation is a 409 `cursor-ahead`.
      security: [{bearer: []}]
      parameters:
      - in: query
        schema: PullQuerySchema
      responses:
        200:
          content:
            application/json:
              schema: PullResponseSchema
    """
    principal = authenticate(event_id)
    args = load_args(PullQuerySchema())
    event = require_event(event_id)
    body = pull_body(event, args["cursor"], args["limit"], args["device"], principal)
    note_seen(principal)  # the Staff screen's "last seen" (staff devices, at most once a minute)
    return Response(body, mimetype="application/json")


__all__ = ["bp", "PullResponseSchema"]
