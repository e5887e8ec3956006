"""The OpenAPI description at /api/openapi.json, built by apispec from the views' docstrings and schemas."""

from __future__ import annotations

import re
from typing import Any

from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin
from apispec_webframeworks.flask import FlaskPlugin
from flask import Blueprint, Flask, current_app, jsonify
from marshmallow import Schema

from backend import schemas
from backend.schemas import people as people_schemas
from backend.startrek import schemas as startrek_schemas

bp = Blueprint("openapi", __name__, url_prefix="/api")

#: The error statuses of the contract, and what each means.
ERROR_STATUSES = {
    "400": "malformed JSON or text (also a NUL character anywhere in the URL)",
    "401": "missing, unknown or revoked token",
    "403": "the token's role may not do this",
    "404": "unknown event, token, player, person or code",
    "409": "conflict with the event's state",
    "410": "code already used, or revoked",
    "413": "body too large",
    "415": "not JSON",
    "422": "invalid request",
    "429": "rate limited (too many wrong codes, event creations or pushes); retry after the Retry-After header's seconds",
    "503": "the database is busy or unavailable; retry after the Retry-After header's seconds",
}

_TOKEN = ("401", "403")
_BODY = ("413", "415", "422")
#: The error statuses each operation can answer with (endpoint -> statuses; 400 and 503 are always possible).
ENDPOINT_ERRORS = {
    "events.create_event": _BODY + ("429",),
    "events.get_event": _TOKEN + ("404",),
    "events.get_state": _TOKEN + ("404", "409"),
    "events.export_event": _TOKEN + ("404", "409"),
    "sync.push_ops": _TOKEN + _BODY + ("404", "409", "429"),
    "sync.pull_ops": _TOKEN + ("404", "409", "422"),
    "invitations.invite": _TOKEN + _BODY + ("404",),
    "invitations.redeem": _BODY + ("404", "410", "429"),
    "invitations.list_invitations": _TOKEN + ("404",),
    "transfer.make_transfer": _TOKEN + ("404", "429"),
    "tokens.list_tokens": _TOKEN + ("404",),
    "tokens.revoke_token": _TOKEN + ("404", "409"),
    "tokens.rotate_token": _TOKEN + ("404",),
    "backups.get_backup": _TOKEN + ("404",),
    "backups.restore_backup": _TOKEN + _BODY + ("409",),
    "players.list_claims": _TOKEN + ("404", "409", "422"),
    "players.reissue_claim": _TOKEN + _BODY + ("404", "409"),
    "players.revoke_claim": _TOKEN + ("404", "409"),
    "players.my_matches": _TOKEN + ("404", "409"),
    "hall.hall": (),
    "hall.hall_ca": ("404",),
    "public.public": ("404", "409"),
    "public.pairings": ("404", "409"),
    "public.standings": ("404", "409"),
    "view.view": _TOKEN + ("404", "409", "422"),
    "people.search_people": _TOKEN + ("422", "429"),
    "people.create_person": _TOKEN + _BODY + ("409",),
    "people.event_people": _TOKEN + ("404", "409"),
    "people.link_player": _TOKEN + _BODY + ("404", "409", "429"),
    "people.unlink_player": _TOKEN + ("404", "409"),
    "people.my_history": _TOKEN + ("404", "409"),
    "people.person_history": _TOKEN + ("404", "409"),
    "people.merge_person": _TOKEN + _BODY + ("404", "409"),
    "ratings.ratings_list": ("409", "422"),
    "leagues.create_league": _BODY + ("429",),
    "leagues.get_league": _TOKEN + ("404",),
    "leagues.update_league": _TOKEN + _BODY + ("404", "409"),
    "leagues.add_event": _TOKEN + _BODY + ("404", "409"),
    "leagues.remove_event": _TOKEN + ("404",),
    "leagues.add_bonus": _TOKEN + _BODY + ("404", "409"),
    "leagues.remove_bonus": _TOKEN + ("404",),
    "leagues.table": ("404", "409"),
    "leagues.list_director_tokens": _TOKEN + ("404",),
    "leagues.add_director_token": _TOKEN + _BODY + ("404", "409"),
    "leagues.rotate_director_token": _TOKEN + ("404",),
    "leagues.revoke_director_token": _TOKEN + ("404", "409"),
    "league_backups.get_league_backup": _TOKEN + ("404",),
    "league_backups.restore_league_backup": _TOKEN + _BODY + ("409",),
}

#: Path parameters: event and token ids are generated (URL-safe, at most 32 characters); player ids are free text.
PATH_PARAMETERS: dict[str, dict[str, Any]] = {
    "event_id": {"type": "string", "pattern": "^[A-Za-z0-9_-]{1,32}$"},
    "token_id": {"type": "string", "pattern": "^[A-Za-z0-9_-]{1,32}$"},
    "player_id": {"type": "string", "minLength": 1},
    "person_id": {"type": "string", "pattern": "^[A-Za-z0-9_-]{1,32}$"},
    "league_id": {"type": "string", "pattern": "^[A-Za-z0-9_-]{1,32}$"},
    "bonus_id": {"type": "string", "pattern": "^[A-Za-z0-9_-]{1,32}$"},
}

API_BLUEPRINTS = (
    "events",
    "sync",
    "invitations",
    "tokens",
    "players",
    "public",
    "view",
    "push",
    "transfer",
    "hall",
    "people",
    "ratings",
    "leagues",
    "league_backups",
)


def build_spec(app: Flask) -> dict:
    spec = APISpec(
        title="Topcut sync API",
        version="1",
        openapi_version="3.0.3",
        plugins=[FlaskPlugin(), MarshmallowPlugin()],
        info={
            "description": "Event sourcing and sync for judge tablets and player phones. "
            "Every error is JSON {error, message} with a 4xx status."
        },
    )
    spec.components.security_scheme("bearer", {"type": "http", "scheme": "bearer"})
    spec.components.schema("Error", schema=schemas.ErrorSchema)
    for module in (schemas, people_schemas, startrek_schemas):
        for name in dir(module):
            obj = getattr(module, name)
            if (
                isinstance(obj, type)
                and issubclass(obj, Schema)
                and obj is not Schema
                and name.endswith("Schema")
                and name != "ErrorSchema"
            ):
                try:
                    spec.components.schema(name[: -len("Schema")], schema=obj)
                except Exception:  # already registered through a nested reference
                    pass
    endpoints: dict[tuple[str, str], str] = {}  # (OpenAPI path, method) -> endpoint
    with app.test_request_context():
        for rule in app.url_map.iter_rules():
            blueprint = rule.endpoint.partition(".")[0]
            if blueprint not in API_BLUEPRINTS:
                continue
            spec.path(view=app.view_functions[rule.endpoint], app=app)
            url = re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", r"{\1}", rule.rule)
            for method in rule.methods or ():
                endpoints[(url, method.lower())] = rule.endpoint
    document = spec.to_dict()
    for url, path in document.get("paths", {}).items():
        names = re.findall(r"{([^}]+)}", url)
        if names:
            path["parameters"] = [
                {
                    "in": "path",
                    "name": name,
                    "required": True,
                    "schema": dict(PATH_PARAMETERS.get(name, {"type": "string", "minLength": 1})),
                }
                for name in names
            ]
        for method, operation in path.items():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            endpoint = endpoints.get((url, method))
            statuses = ("400", "503") + ENDPOINT_ERRORS.get(endpoint or "", tuple(ERROR_STATUSES))
            for status in sorted(set(statuses)):
                response = {
                    "description": ERROR_STATUSES[status],
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
                }
                if status == "503":
                    response["headers"] = {
                        "Retry-After": {
                            "description": "seconds to wait before retrying",
                            "schema": {"type": "integer", "minimum": 0},
                        }
                    }
                operation["responses"].setdefault(status, response)
            for status, response in operation["responses"].items():
                response.setdefault("description", "OK" if status.startswith("2") else "error")
    return document


@bp.get("/openapi.json")
def openapi_json():
    document = current_app.extensions.get("topcut_openapi")
    if document is None:
        document = current_app.extensions["topcut_openapi"] = build_spec(current_app)
    return jsonify(document)
