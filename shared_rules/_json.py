"""Small helpers about plain JSON values, shared by the document loader and the
operation vocabulary (their error messages name a value's JSON type the same way)."""

from __future__ import annotations

from typing import Any

__all__ = ["json_kind"]


def json_kind(value: Any) -> str:
    """The JSON type of ``value`` as an error message names it.

    >>> [json_kind(v) for v in (None, True, 2, 2.5, "x", [], {})]
    ['null', 'a boolean', 'a number', 'a number', 'a string', 'a list', 'an object']
    >>> json_kind({1, 2})
    'set'
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__
