"""Importers that turn other programs' files into ``topcut-event/1`` documents."""

from __future__ import annotations

from .tom import TomPod, import_tdf, tom_dnf, tom_final_standings, tom_pods

__all__ = ["TomPod", "import_tdf", "tom_dnf", "tom_final_standings", "tom_pods"]
