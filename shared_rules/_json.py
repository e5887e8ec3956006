"""Small helpers about plain JSON values, shared by the document loader and the
operation vocabulary (their error messages name a value's JSON type the same way)."""

from __future__ import annotations

import json
import sys
from json.encoder import encode_basestring as _string  # the C function when _json is there, as json.dumps uses
from typing import Any

__all__ = ["json_kind", "dumps_indented", "indented_into", "string_text", "number_text"]

#: From Python 3.14 json's C encoder writes indented JSON too (Pyodide 314: 0.03 s against this
#: module's 0.09 s for 4,096 standings lines): then json.dumps itself is the faster.
_C_INDENT = sys.version_info >= (3, 14)
_INF = float("inf")
_float_repr = float.__repr__
_int_repr = int.__repr__


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


def dumps_indented(value: Any) -> str:
    """``json.dumps(value, ensure_ascii=False, indent=1)``, the same text, several times faster.

    Before Python 3.14 the standard encoder writes indented JSON in pure Python,
    one generator per container; this writes plain dicts, lists, tuples, strings, numbers, booleans
    and None directly. Anything else (a subclass, a non-string key, a nesting
    too deep) is handed to ``json.dumps`` itself, so the text, and any error, are
    the standard library's.

    >>> doc = {"a": [1, 2.5, None, True, "é\\n"], "b": {}, "c": [], "d": {"e": (float("inf"),)}}
    >>> dumps_indented(doc) == json.dumps(doc, ensure_ascii=False, indent=1)
    True
    """
    if _C_INDENT:
        return json.dumps(value, ensure_ascii=False, indent=1)
    parts: list[str] = []
    try:
        _write(value, parts, "\n")
    except (_Unusual, RecursionError):
        return json.dumps(value, ensure_ascii=False, indent=1)
    return "".join(parts)


class _Unusual(Exception):
    """A value :func:`dumps_indented` leaves to ``json.dumps``."""


#: A string as ``json.dumps(..., ensure_ascii=False)`` writes it.
string_text = _string


def number_text(value: Any) -> str | None:
    """An int or float as ``json.dumps`` writes it, an integral float as its int; None for anything else.

    >>> number_text(3), number_text(2.0), number_text(0.5), number_text(True), number_text("3")
    ('3', '2', '0.5', None, None)
    """
    kind = value.__class__
    if kind is int:
        return _int_repr(value)
    if kind is float:
        if value.is_integer() and abs(value) < 2**53:
            return _int_repr(int(value))
        return _float(value)
    return None


def indented_into(value: Any, parts: list[str], newline: str) -> bool:
    """Append ``value`` as :func:`dumps_indented` writes it at the indent ``newline`` gives; False (and
    ``parts`` left incomplete) for a value only ``json.dumps`` writes.

    >>> parts = []
    >>> indented_into({"a": [1]}, parts, "\\n "), "".join(parts)
    (True, '{\\n  "a": [\\n   1\\n  ]\\n }')
    """
    try:
        _write(value, parts, newline)
    except (_Unusual, RecursionError):
        return False
    return True


def _float(value: float) -> str:
    # json.encoder's floatstr with allow_nan=True.
    if value != value:
        return "NaN"
    if value == _INF:
        return "Infinity"
    if value == -_INF:
        return "-Infinity"
    return _float_repr(value)


def _write(value: Any, parts: list[str], newline: str) -> None:
    """Append ``value`` indented one space per level; ``newline`` is the line break and current indent."""
    append = parts.append
    kind = value.__class__
    if kind is dict:
        if not value:
            append("{}")
            return
        inner = newline + " "
        opener = "{" + inner
        between = "," + inner
        first = True
        for key, item in value.items():
            if key.__class__ is not str:
                raise _Unusual
            append((opener if first else between) + _string(key) + ": ")
            first = False
            kind = item.__class__
            if kind is str:
                append(_string(item))
            elif kind is int:
                append(_int_repr(item))
            elif item is None:
                append("null")
            elif item is True:
                append("true")
            elif item is False:
                append("false")
            elif kind is float:
                append(_float(item))
            else:
                _write(item, parts, inner)
        append(newline + "}")
    elif kind is list or kind is tuple:
        if not value:
            append("[]")
            return
        inner = newline + " "
        append("[")
        between = inner
        for item in value:
            append(between)
            between = "," + inner
            kind = item.__class__
            if kind is str:
                append(_string(item))
            elif kind is int:
                append(_int_repr(item))
            elif item is None:
                append("null")
            elif item is True:
                append("true")
            elif item is False:
                append("false")
            elif kind is float:
                append(_float(item))
            else:
                _write(item, parts, inner)
        append(newline + "]")
    elif kind is str:
        append(_string(value))
    elif kind is int:
        append(_int_repr(value))
    elif value is None:
        append("null")
    elif value is True:
        append("true")
    elif value is False:
        append("false")
    elif kind is float:
        append(_float(value))
    else:
        raise _Unusual
