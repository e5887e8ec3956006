"""Compressed responses for phones and tablets on a hall's crowded Wi-Fi.

* **Answers made per request** (a sync pull, the API's JSON, the hall's pages): gzip (Flask-Compress) when the
  client accepts it and the body is over ``COMPRESS_MIN_SIZE`` bytes. A player's first pull of a 2,000-player
  event after 9 rounds is 2.6 MB of JSON and 0.25 MB gzipped (level 3: about 15 ms of the server's time).
* **The app's large files** (the Pyodide runtime: ``pyodide.asm.wasm`` is 9.6 MB, 3.5 MB gzipped) are gzipped
  once by the build (``scripts/build_assets.py`` writes ``NAME.gz`` beside them) and sent as they are
  (:func:`gzipped_name`): no work per download, however many phones install the app at the desk.

Files sent straight from disk are left alone otherwise (``COMPRESS_STREAMS`` off): the zips are compressed
already, and the app's own scripts are small and cached by the service worker. Every answer that can be
compressed says ``Vary: Accept-Encoding``, so no cache hands a compressed body to a client that did not ask.
"""

from __future__ import annotations

import os

from flask import Flask, request
from flask_compress import Compress
from werkzeug.security import safe_join

__all__ = ["compress", "init_app", "gzipped_name"]

compress = Compress()

#: What is compressed per request: text the API and the pages write.
MIMETYPES = (
    "application/json",
    "application/problem+json",
    "text/html",
    "text/plain",
    "text/csv",
    "text/javascript",
    "text/css",
    "application/xml",
    "image/svg+xml",
)


def init_app(app: Flask) -> None:
    app.config.setdefault("COMPRESS_ALGORITHM", ["gzip"])  # every browser, on http:// as on https://
    app.config.setdefault("COMPRESS_LEVEL", 3)  # nearly level 9's size at a third of level 6's time
    app.config.setdefault("COMPRESS_MIN_SIZE", 1024)
    app.config.setdefault("COMPRESS_MIMETYPES", list(MIMETYPES))
    app.config.setdefault("COMPRESS_STREAMS", False)
    compress.init_app(app)


def gzipped_name(folder: str, filename: str) -> str | None:
    """``filename + ".gz"`` when the build made one beside ``filename`` in ``folder`` and this request accepts
    gzip, else None."""
    if request.accept_encodings.quality("gzip") <= 0:
        return None
    plain, gzipped = safe_join(folder, filename), safe_join(folder, filename + ".gz")
    if plain is None or gzipped is None or not (os.path.isfile(plain) and os.path.isfile(gzipped)):
        return None
    return filename + ".gz"
