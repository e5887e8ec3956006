"""The OpenAPI description at /api/openapi.json, built by apispec from the views' docstrings and schemas."""

from __future__ import annotations

import re

from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin
from apispec_webframeworks.flask import FlaskPlugin
from flask import Blueprint, Flask, current_app, jsonify

from backend import schemas

bp = Blueprint("openapi", __name__, url_prefix="/api")

#: Every operation may answer with these (the error contract).
ERROR_STATUSES = {
    "400": "malformed JSON or text",
    "401": "missing, unknown or revoked token",
    "403": "the token's role may not do this",
    "404": "unknown event, token, player or code",
    "405": "method not allowed",
    "409": "conflict with the event's state",
    "410": "code already used",
    "413": "body too large",
    "415": "not JSON",
    "422": "invalid request",
}

API_BLUEPRINTS = ("events", "sync", "invitations", "tokens", "players", "public")


def build_spec(app: Flask) -> dict:
    spec = APISpec(title="Topcut sync API", version="1", openapi_version="3.0.3",
                   plugins=[FlaskPlugin(), MarshmallowPlugin()],
                   info={"description": "Event sourcing and sync for judge tablets and player phones. "
                                        "Every error is JSON {error, message} with a 4xx status."})
    spec.components.security_scheme("bearer", {"type": "http", "scheme": "bearer"})
    spec.components.schema("Error", schema=schemas.ErrorSchema)
    for name in dir(schemas):
        obj = getattr(schemas, name)
        if isinstance(obj, type) and issubclass(obj, schemas.Schema) and obj is not schemas.Schema \
                and name.endswith("Schema") and name != "ErrorSchema":
            try:
                spec.components.schema(name[: -len("Schema")], schema=obj)
            except Exception:  # already registered through a nested reference
                pass
    with app.test_request_context():
        for rule in app.url_map.iter_rules():
            blueprint = rule.endpoint.partition(".")[0]
            if blueprint not in API_BLUEPRINTS:
                continue
            spec.path(view=app.view_functions[rule.endpoint], app=app)
    document = spec.to_dict()
    for url, path in document.get("paths", {}).items():
        names = re.findall(r"{([^}]+)}", url)
        if names:
            path["parameters"] = [{"in": "path", "name": name, "required": True,
                                   "schema": {"type": "string", "pattern": "^[A-Za-z0-9_-]{1,64}$"}}
                                  for name in names]
        for operation in path.values():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            for status, description in ERROR_STATUSES.items():
                operation["responses"].setdefault(status, {
                    "description": description,
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}})
            for status, response in operation["responses"].items():
                response.setdefault("description", "OK" if status.startswith("2") else "error")
    return document


@bp.get("/openapi.json")
def openapi_json():
    document = current_app.extensions.get("topcut_openapi")
    if document is None:
        document = current_app.extensions["topcut_openapi"] = build_spec(current_app)
    return jsonify(document)
