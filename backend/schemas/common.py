"""What every schema module shares: strict integers and the no-NUL rule (imported, never star-imported)."""

from __future__ import annotations

from typing import Any

from marshmallow import fields, validate

NO_NUL = validate.Regexp(r"^[^\x00]*$", error="must not contain NUL characters")


def strict_int(**kwargs: Any) -> fields.Integer:
    """An integer field that refuses strings and floats ("3", 3.0)."""
    return fields.Integer(strict=True, **kwargs)


_int = strict_int
