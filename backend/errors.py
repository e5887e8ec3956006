"""One error contract: every bad request is JSON ``{"error": code, "message": one line}`` with a 4xx.

Views raise :class:`ApiError` (or let marshmallow, the rules engine or
werkzeug raise); the handlers registered by :func:`init_app` turn each into
that shape. Anything unexpected is logged and answered with a JSON 500 — the
tests assert it never happens.
"""

from __future__ import annotations

from typing import Any

from flask import Flask, jsonify
from marshmallow import ValidationError
from sqlalchemy.exc import IntegrityError, OperationalError
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from shared_rules.errors import DocumentError, RulesError

__all__ = ["ApiError", "init_app", "error_response", "validation_message"]

_HTTP_CODES = {
    400: "bad-request",
    401: "unauthorized",
    403: "forbidden",
    404: "not-found",
    405: "method-not-allowed",
    406: "not-acceptable",
    409: "conflict",
    410: "gone",
    413: "body-too-large",
    415: "unsupported-media-type",
    422: "unprocessable",
    429: "too-many-requests",
}


class ApiError(Exception):
    """A request refused with a status, a short code and a one-line message (plus optional fields)."""

    def __init__(self, status: int, error: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.error = error
        self.message = message
        self.extra = extra


def error_response(status: int, error: str, message: str, **extra: Any):
    body = {"error": error, "message": " ".join(str(message).split())[:500], **extra}
    response = jsonify(body)
    response.status_code = status
    return response


def _flatten(messages: Any, path: str = "") -> list[str]:
    if isinstance(messages, dict):
        out = []
        for key, value in messages.items():
            sub = f"{path}.{key}" if path else str(key)
            out.extend(_flatten(value, sub))
        return out
    if isinstance(messages, list):
        if all(isinstance(m, str) for m in messages):
            return [f"{path}: {' '.join(messages)}" if path else " ".join(messages)]
        out = []
        for m in messages:
            out.extend(_flatten(m, path))
        return out
    return [f"{path}: {messages}" if path else str(messages)]


def validation_message(exc: ValidationError) -> str:
    """marshmallow's nested messages as one line naming the fields."""
    parts = _flatten(exc.messages)
    return "; ".join(parts[:3]) + (f" (and {len(parts) - 3} more)" if len(parts) > 3 else "")


def init_app(app: Flask) -> None:
    @app.errorhandler(ApiError)
    def _api_error(exc: ApiError):
        response = error_response(exc.status, exc.error, exc.message, **exc.extra)
        if "retry_after_s" in exc.extra:
            response.headers["Retry-After"] = str(exc.extra["retry_after_s"])
        return response

    @app.errorhandler(ValidationError)
    def _validation(exc: ValidationError):
        return error_response(422, "invalid-request", validation_message(exc))

    @app.errorhandler(DocumentError)
    def _document(exc: DocumentError):
        return error_response(422, exc.code, str(exc))

    @app.errorhandler(RulesError)
    def _rules(exc: RulesError):
        code = getattr(exc, "code", "rules")
        status = 403 if code == "not-authorized" else 409
        return error_response(status, code, str(exc))

    @app.errorhandler(RequestEntityTooLarge)
    def _too_large(exc: RequestEntityTooLarge):
        from flask import has_request_context, request

        limit = request.max_content_length if has_request_context() else app.config.get("MAX_CONTENT_LENGTH")
        return error_response(413, "body-too-large", f"the request body is larger than {limit} bytes")

    @app.errorhandler(HTTPException)
    def _http(exc: HTTPException):
        status = exc.code or 500
        code = _HTTP_CODES.get(status, "http-error")
        message = exc.description or exc.name
        if status == 400 and "JSON" in (message or ""):
            code, message = "malformed-json", "the request body is not valid JSON"
        response = error_response(status, code, message)
        if status == 405 and exc.get_response().headers.get("Allow"):
            response.headers["Allow"] = exc.get_response().headers["Allow"]
        return response

    @app.errorhandler(IntegrityError)
    def _integrity(exc: IntegrityError):
        # The unique constraints are the last line of defence; the locks should make this unreachable.
        app.logger.warning("integrity error: %s", exc.orig)
        return error_response(409, "conflict", "the request collided with another one; send it again")

    @app.errorhandler(OperationalError)
    def _busy(exc: OperationalError):
        app.logger.warning("database unavailable: %s", exc.orig)
        response = error_response(503, "busy", "the database is busy or unavailable; try again shortly")
        response.headers["Retry-After"] = "2"
        return response

    @app.errorhandler(Exception)
    def _unexpected(exc: Exception):  # pragma: no cover - a bug; tests assert it never happens
        app.logger.exception("unexpected error")
        return error_response(500, "internal", "the server failed to handle this request")
