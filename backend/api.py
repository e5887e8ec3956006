"""Small helpers every API blueprint uses: strict JSON in, schema-checked JSON out."""

from __future__ import annotations

import json
from typing import Any

from flask import Response, current_app, jsonify, request
from flask.json.provider import DefaultJSONProvider
from marshmallow import Schema

from backend.errors import ApiError

__all__ = ["StrictJSONProvider", "load_body", "load_args", "respond"]


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _check_text(value: Any) -> None:
    """Refuse NUL characters and unpaired surrogates anywhere (no database can store them as text)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if "\x00" in item:
                raise ValueError("text must not contain NUL characters")
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                raise ValueError("text must be valid Unicode (unpaired surrogate)") from None
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


class StrictJSONProvider(DefaultJSONProvider):
    """Request bodies: no NaN/Infinity, no NUL, no lone surrogates (a ValueError becomes a 400)."""

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        kwargs.setdefault("parse_constant", _no_constant)
        value = json.loads(s, **kwargs)
        _check_text(value)
        return value


def load_body(schema: Schema) -> dict[str, Any]:
    """The request's JSON body loaded through ``schema`` (415 if not JSON, 400 if malformed, 422 if invalid)."""
    if not request.is_json:
        raise ApiError(415, "unsupported-media-type", "send the body as JSON (Content-Type: application/json)")
    raw = request.get_data(cache=True)  # 413 beyond MAX_CONTENT_LENGTH
    if not raw.strip():
        raise ApiError(400, "malformed-json", "the request body is empty; send a JSON object")
    try:
        data = current_app.json.loads(raw)
    except ValueError as exc:  # includes UnicodeDecodeError and RecursionError's cousins below
        raise ApiError(400, "malformed-json", f"the request body is not valid JSON: {exc}") from None
    except RecursionError:
        raise ApiError(400, "malformed-json", "the request body is nested too deeply") from None
    return schema.load(data)


def load_args(schema: Schema) -> dict[str, Any]:
    args = {}
    fields = schema.fields
    for key, value in request.args.items():
        if key not in fields:
            raise ApiError(422, "invalid-request", f"{key}: unknown query parameter")
        field = fields[key]
        if field.__class__.__name__ == "Integer":
            try:
                args[key] = int(value, 10)
            except ValueError:
                raise ApiError(422, "invalid-request", f"{key}: expected a whole number") from None
        else:
            args[key] = value
    return schema.load(args)


def respond(schema: Schema, data: Any, status: int = 200) -> Response:
    response = jsonify(schema.dump(data))
    response.status_code = status
    return response
