"""Size caps on operation payloads: what a server admits, field by field.

An operation may be well formed and still too big to be honest: a 48 kB
``games`` list on every result report, a 10,000-character player name. The
caps live beside each payload field (``req``/``opt`` take ``cap=``); a field
without its own cap gets the default of its kind (:data:`DEFAULT_CAPS`).

Caps are checked when a change is *admitted* (the server's push, a device's
``check_op``), never when a recorded log is replayed: an event already
recorded folds the same way whatever the caps become.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, fields
from typing import Any

__all__ = ["Cap", "DEFAULT_CAPS", "payload_problem"]


@dataclass(frozen=True, slots=True)
class Cap:
    """The most a field may hold: ``chars`` for a string, ``items`` and ``bytes`` (as JSON) otherwise."""

    chars: int | None = None
    items: int | None = None
    bytes: int | None = None


#: A field's cap when its declaration names none, by the field's check kind.
DEFAULT_CAPS: dict[str, Cap] = {
    "text": Cap(chars=2_000),  # a reason, an event name
    "name": Cap(chars=200),  # ids, names, kinds, stages
    "object": Cap(bytes=16_384),  # a player, a ruling, settings (settings declare more)
    "list": Cap(items=64, bytes=16_384),
    "names": Cap(items=16, bytes=4_096),  # outcomes: a pod seats at most 8 (Tribbles 7.2)
    "numbers": Cap(items=16, bytes=1_024),
    "objects": Cap(items=16, bytes=16_384),
}


def _size(value: Any) -> int:
    return len(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))


def _problem(value: Any, cap: Cap, path: str) -> str | None:
    if isinstance(value, str):
        if cap.chars is not None and len(value) > cap.chars:
            return f"{path}: {len(value):,} characters; the most allowed is {cap.chars:,}"
        return None
    if isinstance(value, list) and cap.items is not None and len(value) > cap.items:
        return f"{path}: {len(value):,} items; the most allowed is {cap.items:,}"
    if cap.bytes is not None and isinstance(value, (list, dict)):
        size = _size(value)
        if size > cap.bytes:
            return f"{path}: {size:,} bytes; the most allowed is {cap.bytes:,}"
    return None


def payload_problem(op_type: str, cls: type | None, payload: Any) -> str | None:
    """The first field of a payload (of dataclass ``cls``) over its cap, as one line; None when all fit.

    >>> payload_problem("x", None, {}) is None
    True
    """
    if cls is None or not isinstance(payload, dict):
        return None  # not an operation at all: parse_operation names that problem
    for f in fields(cls):
        value = payload.get(f.name)
        if value is None:
            continue
        cap = f.metadata.get("cap") or DEFAULT_CAPS.get(f.metadata["check"])
        if cap is None:
            continue
        problem = _problem(value, cap, f"payload.{f.name}")
        if problem is None and isinstance(value, list) and f.metadata["check"] == "names":
            problem = next(
                (
                    p
                    for i, item in enumerate(value)
                    if (p := _problem(item, DEFAULT_CAPS["name"], f"payload.{f.name}[{i}]"))
                ),
                None,
            )
        if problem is not None:
            return f"{op_type}: {problem}"
    return None
