"""TOM 1.86 save files (``.tdf``), Pokémon's tournament software format: import and export.

:func:`import_tdf` reads a save file into an event document; :func:`to_tdf` writes
one back (the exporter's module docstring lists what a document made here lacks).
"""

from __future__ import annotations

from .exporter import to_tdf
from .importer import TomPod, import_tdf, tom_dnf, tom_final_standings, tom_pods

__all__ = ["TomPod", "import_tdf", "to_tdf", "tom_dnf", "tom_final_standings", "tom_pods"]
