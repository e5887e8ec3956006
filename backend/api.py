"""Small helpers every API blueprint uses: strict JSON in, schema-checked JSON out."""

from __future__ import annotations

import json
import re
from typing import Any

from flask import Response, current_app, jsonify, request
from flask.json.provider import DefaultJSONProvider
from marshmallow import Schema

from backend.errors import ApiError

__all__ = [
    "MAX_JSON_DEPTH",
    "MAX_SAFE_INTEGER",
    "BodyRefused",
    "StrictJSONProvider",
    "load_body",
    "load_args",
    "respond",
]


#: Deepest nesting of arrays and objects a request body may have (the rules engine recurses on values).
MAX_JSON_DEPTH = 32
_INTEGER = re.compile(r"[0-9]+")


class BodyRefused(ValueError):
    """A parsed body the server refuses; its message is ours (safe to show), unlike the parser's."""


class NumberRefused(BodyRefused):
    """Well-formed JSON holding a whole number a tablet cannot hold exactly (422, not 400)."""


def _no_constant(name: str) -> Any:
    raise BodyRefused("NaN and Infinity are not JSON")


#: The largest whole number a tablet's JavaScript holds exactly (Number.MAX_SAFE_INTEGER is 2^53 - 1).
MAX_SAFE_INTEGER = 2**53 - 1


def _check_text(value: Any) -> None:
    """Refuse NUL characters, unpaired surrogates (no database can store them as text) and deep nesting."""
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            if "\x00" in item:
                raise BodyRefused("text must not contain NUL characters")
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                raise BodyRefused("text must be valid Unicode (unpaired surrogate)") from None
        elif isinstance(item, (dict, list)):
            if depth >= MAX_JSON_DEPTH:
                raise BodyRefused(f"the request body is nested more than {MAX_JSON_DEPTH} levels deep")
            if isinstance(item, dict):
                stack.extend((key, depth + 1) for key in item.keys())
                stack.extend((child, depth + 1) for child in item.values())
            else:
                stack.extend((child, depth + 1) for child in item)


def _check_numbers(value: Any) -> None:
    """Refuse whole numbers a tablet's JavaScript would round (beyond 2^53), naming where they are."""
    stack: list[tuple[Any, str]] = [(value, "body")]
    while stack:
        item, path = stack.pop()
        if isinstance(item, int) and not isinstance(item, bool):
            if abs(item) > MAX_SAFE_INTEGER:
                raise NumberRefused(
                    f"{path}: {item} is beyond 2^53, which a tablet cannot hold exactly "
                    "(JavaScript numbers); send a smaller number"
                )
        elif isinstance(item, dict):
            stack.extend((child, f"{path}.{key}") for key, child in item.items())
        elif isinstance(item, list):
            stack.extend((child, f"{path}[{i}]") for i, child in enumerate(item))


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
    raw = _body_bytes()
    if not raw.strip():
        raise ApiError(400, "malformed-json", "the request body is empty; send a JSON object")
    try:
        data = current_app.json.loads(raw)
        _check_numbers(data)
    except NumberRefused as exc:
        raise ApiError(422, "invalid-request", str(exc)) from None
    except BodyRefused as exc:  # our own checks: the message names the problem
        raise ApiError(400, "malformed-json", str(exc)) from None
    except ValueError:  # the parser's text (and UnicodeDecodeError's) is not for clients: a fixed message
        raise ApiError(400, "malformed-json", "the request body is not valid UTF-8 JSON") from None
    except RecursionError:
        raise ApiError(
            400, "malformed-json", f"the request body is nested more than {MAX_JSON_DEPTH} levels deep"
        ) from None
    return schema.load(data)


def _body_bytes() -> bytes:
    """The raw body; 413 beyond MAX_CONTENT_LENGTH, also when it comes chunked (no Content-Length)."""
    limit = request.max_content_length  # the app's MAX_CONTENT_LENGTH unless a view set its own
    if request.content_length is not None or not limit:
        return request.get_data(cache=True)  # Werkzeug answers 413 beyond MAX_CONTENT_LENGTH
    # Chunked: the server (gunicorn) de-chunks wsgi.input; read one byte past the limit to know.
    raw = request.environ["wsgi.input"].read(limit + 1)
    if len(raw) > limit:
        raise ApiError(413, "too-large", f"the request body is larger than {limit // (1024 * 1024)} MiB")
    return raw


def load_args(schema: Schema) -> dict[str, Any]:
    args: dict[str, Any] = {}
    fields = schema.fields
    for key, value in request.args.items():
        if key not in fields:
            raise ApiError(422, "invalid-request", f"{key}: unknown query parameter")
        if len(request.args.getlist(key)) > 1:
            raise ApiError(422, "invalid-request", f"{key}: give this query parameter once")
        field = fields[key]
        if field.__class__.__name__ == "Integer":
            if not _INTEGER.fullmatch(value) or len(value) > 20:
                raise ApiError(422, "invalid-request", f"{key}: expected a whole number (digits 0-9 only)")
            args[key] = int(value, 10)
        else:
            args[key] = value
    return schema.load(args)


def respond(schema: Schema, data: Any, status: int = 200) -> Response:
    response = jsonify(schema.dump(data))
    response.status_code = status
    return response
