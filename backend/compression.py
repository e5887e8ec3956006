"""Compressed responses for phones and tablets on a hall's crowded Wi-Fi.

* **Answers made per request** (a sync pull, the API's JSON, the hall's pages): gzip (Flask-Compress) when the
  client accepts it and the body is over ``COMPRESS_MIN_SIZE`` bytes. A player's first pull of a 2,000-player
  event after 9 rounds is 2.6 MB of JSON and 0.25 MB gzipped (level 3: about 15 ms of the server's time).
* **The app's large files** (the Pyodide runtime: ``pyodide.asm.wasm`` is 9.6 MB, 3.5 MB gzipped) are gzipped
  once by the build (``scripts/build_assets.py`` writes ``NAME.gz`` beside them) and sent as they are
  (:func:`gzipped_name`): no work per download, however many phones install the app at the desk.

* **The app shell** (the PWA's JS, CSS, HTML and JSON: 0.7 MB as written, what every phone installs) is
  precompressed by the build too, into ``build/web/compressed/pwa/NAME.gz`` and ``NAME.br`` (brotli, which browsers
  ask for over HTTPS), and sent as such (:func:`precompressed_name`) while the copy is that of the file on disk
  (the copy carries its source's modification time: a file edited since the build goes out as it is).

Files sent straight from disk are left alone otherwise (``COMPRESS_STREAMS`` off): the zips are compressed
already. Every answer that can be
compressed says ``Vary: Accept-Encoding``, so no cache hands a compressed body to a client that did not ask.
"""

from __future__ import annotations

import os

from flask import Flask, request
from flask_compress import Compress
from werkzeug.security import safe_join

__all__ = ["compress", "init_app", "gzipped_name", "precompressed_name"]

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


#: Content-Encoding by the suffix the build gives a precompressed copy, best first.
ENCODINGS = ((".br", "br"), (".gz", "gzip"))


def precompressed_name(folder: str, filename: str, copies: str) -> tuple[str, str] | None:
    """``(path of the copy under copies, encoding)`` for the build's compressed copy of ``folder/filename`` that this
    request accepts (brotli before gzip), when the copy is of the file as it is now (same modification time), else
    None."""
    plain = safe_join(folder, filename)
    if plain is None or not os.path.isfile(plain):
        return None
    mtime = os.stat(plain).st_mtime_ns
    for suffix, encoding in ENCODINGS:
        if request.accept_encodings.quality(encoding) <= 0:
            continue
        copy = safe_join(copies, filename + suffix)
        if copy is not None and os.path.isfile(copy) and os.stat(copy).st_mtime_ns == mtime:
            return copy, encoding
    return None
