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
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, current_app, request
from sqlalchemy import select

from backend.api import load_args
from backend.auth import Principal, authenticate
from backend.errors import ApiError
from backend.ledger import dumps, event_state
from backend.ledger.log import SERVER_DEVICE, cache_key, device_alias
from backend.models import Device, Event, Token, now_ms
from backend.schemas import ViewQuerySchema
from shared_rules.errors import RulesError
from shared_rules.state.player_view import VIEW_VERSION, SharedParts, player_view, shared_parts

bp = Blueprint("view", __name__, url_prefix="/api/events")

_lock = threading.Lock()
_REVISION: list[str] = []
#: Log positions whose shared parts one process keeps (a few events being played).
_KEPT = 16


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
    who = hashlib.sha256(player.encode("utf-8", "surrogatepass")).hexdigest()[:12]
    return f'"v{VIEW_VERSION}-{code_revision()}-{event.created_at}-{head}-{who}"'


def _shared(event: Event, seq: int, state: dict[str, Any]) -> tuple[SharedParts, str, str, str | None]:
    """The shared parts of the event at ``seq`` and their JSON text (info, standings or null), made once."""
    key = (cache_key(event), seq)
    kept: OrderedDict[tuple[str, int], Any] = current_app.extensions.setdefault("topcut_view_parts", OrderedDict())
    with _lock:
        hit = kept.get(key)
        if hit is not None:
            kept.move_to_end(key)
            return hit
    parts = shared_parts(state)
    standings = parts.standings
    shown = {k: standings[k] for k in ("after", "rows", "labels")} if standings["after"] else None
    made = (parts, dumps(parts.info), dumps(shown), standings["note"])
    with _lock:
        kept[key] = made
        while len(kept) > _KEPT:
            kept.popitem(last=False)
    return made


def _own_devices(event_id: str, player: str) -> set[str]:
    """The devices of the player's tokens (shown under their own names; every other device is aliased)."""
    rows = db_devices(event_id)
    return {device for device, role, owner in rows if role == "player" and owner == player}


def db_devices(event_id: str) -> list[tuple[str, str | None, str | None]]:
    """(device, its token's role, its token's player) of every device of the event."""
    from backend.db import db

    found = db.session.execute(
        select(Device.device, Token.role, Token.player)
        .join(Token, Token.id == Device.token_id, isouter=True)
        .where(Device.event_id == event_id)
    ).all()
    return [(d, r, p) for d, r, p in found]


def render(event: Event, player: str) -> tuple[int, str]:
    """(log position, the player's view as JSON text) at the event's head."""
    seq, state = event_state(event)
    parts, info, standings, note = _shared(event, seq, state)
    own = _own_devices(event.id, player)

    def alias(device: str) -> str:
        return device if device in own or device == SERVER_DEVICE else device_alias(event.id, device)

    at = now_ms()
    try:
        view = player_view(state, player, at, shared=parts, alias=alias)
    except RulesError:
        raise ApiError(
            404, "unknown-player", f"this event has no player '{player[:40]}': check the roster's player id"
        ) from None
    return seq, (
        f'{{"version":{VIEW_VERSION},"cursor":{seq},"server_ms":{at},"me":{dumps(player)},'
        f'"state":{dumps(view["state"])},"info":{info},"clock":{dumps(view["clock"])},'
        f'"standings":{standings},"standings_note":{dumps(note)},"decklist":{dumps(view["decklist"])},'
        f'"calls":{dumps(view["calls"])}}}'
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
    sent = request.headers.get("If-None-Match", "")
    return any(tag.strip() in (etag, f"W/{etag}") for tag in sent.split(",")) if sent else False


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
    principal = authenticate(event_id)
    args = load_args(ViewQuerySchema())
    player = _viewer(principal, args.get("player"))
    from backend.db import db

    event = db.session.get(Event, event_id)
    if event is None:  # deleted between the token check and now
        raise ApiError(404, "unknown-event", f"there is no event '{event_id[:40]}'")
    etag = view_etag(event, event.head_seq, player)
    if _not_modified(etag):
        return _headers(Response(status=304), etag)
    seq, body = render(event, player)
    return _headers(Response(body, mimetype="application/json"), view_etag(event, seq, player))


def _headers(response: Response, etag: str) -> Response:
    response.headers["ETag"] = etag
    response.headers["Cache-Control"] = "no-cache"
    return response


__all__ = ["bp", "code_revision", "render", "view_etag"]
