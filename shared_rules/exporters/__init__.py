"""Exporters that write ``topcut-event/1`` documents as other programs' files."""

from __future__ import annotations

from .tom import to_tdf

__all__ = ["to_tdf"]
