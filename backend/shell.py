"""The app shell: the PWA's pages, its service worker and the files its rules worker boots from."""

from __future__ import annotations

import json
import os
from pathlib import Path, PurePosixPath

from flask import Blueprint, Response, abort, current_app, send_from_directory

from backend.compression import gzipped_name, precompressed_name

bp = Blueprint("shell", __name__)

# Browsers insist on these for module scripts and streaming WebAssembly
# compilation; Python's mimetypes table differs between versions, so be explicit.
MIME_TYPES = {
    ".html": "text/html",
    ".js": "text/javascript",
    ".mjs": "text/javascript",
    ".css": "text/css",
    ".wasm": "application/wasm",
    ".json": "application/json",
    ".map": "application/json",
    ".zip": "application/zip",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".py": "text/x-python",
    ".webmanifest": "application/manifest+json",
    ".pack": "application/octet-stream",
}

#: Replaced in sw.js by the build's version, so every change to a precached file is a new service worker.
VERSION_MARK = "__TOPCUT_VERSION__"


def _send(folder_key: str, filename: str) -> Response:
    """Send ``filename`` from the configured folder with an explicit type; gzipped as the build made it, when
    there is such a copy and the client accepts gzip (backend/compression.py)."""
    mimetype = MIME_TYPES.get(PurePosixPath(filename).suffix.lower())
    if mimetype is None:
        abort(404)
    folder = current_app.config[folder_key]
    gzipped = gzipped_name(folder, filename)
    response = send_from_directory(folder, gzipped or filename, mimetype=mimetype)
    if gzipped:
        response.headers["Content-Encoding"] = "gzip"
    response.vary.add("Accept-Encoding")
    return response


def _no_cache(response: Response) -> Response:
    """Revalidate every time (the service worker decides what is cached, and when it updates)."""
    response.headers["Cache-Control"] = "no-cache"
    return response


def build_version() -> str:
    """The precache manifest's version (``dev`` before the build step has run)."""
    path = os.path.join(current_app.config["WEB_BUILD_DIR"], "precache-manifest.json")
    try:
        with open(path, encoding="utf-8") as fh:
            return str(json.load(fh)["version"])
    except (OSError, ValueError, KeyError):
        return "dev"


@bp.get("/")
def index() -> Response:
    return _no_cache(_send_shell("index.html"))


@bp.get("/pwa/sw.js")
def service_worker() -> Response:
    """The service worker, scoped to the whole site and stamped with the build's version."""
    source = (Path(current_app.config["PWA_DIR"]) / "sw.js").read_text(encoding="utf-8")
    response = Response(source.replace(VERSION_MARK, build_version()), mimetype="text/javascript")
    response.headers["Service-Worker-Allowed"] = "/"
    return _no_cache(response)


@bp.get("/precache-manifest.json")
def precache_manifest() -> Response:
    return _no_cache(_send("WEB_BUILD_DIR", "precache-manifest.json"))


def _send_shell(filename: str, folder_key: str = "PWA_DIR", sub: str = "") -> Response:
    """An app shell file from PWA_DIR (or the rules' pieces from WEB_BUILD_DIR/rules), as the build's brotli or
    gzip copy when the client takes one (the shell is what every phone installs: 0.7 MB as written, about a fifth
    of that compressed)."""
    mimetype = MIME_TYPES.get(PurePosixPath(filename).suffix.lower())
    if mimetype is None:
        abort(404)
    copies = os.path.join(current_app.config["WEB_BUILD_DIR"], "compressed", sub or "pwa")
    folder = current_app.config[folder_key]
    found = precompressed_name(os.path.join(folder, sub) if sub else folder, filename, copies)
    if found is None:
        return _send(folder_key, f"{sub}/{filename}" if sub else filename)
    path, encoding = found
    response = send_from_directory(os.path.dirname(path), os.path.basename(path), mimetype=mimetype)
    response.headers["Content-Encoding"] = encoding
    response.vary.add("Accept-Encoding")
    return response


@bp.get("/pwa/<path:filename>")
def pwa_file(filename: str) -> Response:
    return _no_cache(_send_shell(filename))


@bp.get("/vendor/<path:filename>")
def vendor_file(filename: str) -> Response:
    return _send("WEB_BUILD_DIR", f"vendor/{filename}")


@bp.get("/pyodide/<path:filename>")
def pyodide_file(filename: str) -> Response:
    return _send("WEB_BUILD_DIR", f"pyodide/{filename}")


@bp.get("/shared_rules.zip")
def shared_rules_zip() -> Response:
    return _no_cache(_send("WEB_BUILD_DIR", "shared_rules.zip"))


@bp.get("/rules/<path:filename>")
def rules_piece(filename: str) -> Response:
    """The rules engine in pieces (one per package folder, and their index), as the rules worker loads them."""
    return _no_cache(_send_shell(filename, "WEB_BUILD_DIR", "rules"))
