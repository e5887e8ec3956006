"""The app shell: the PWA's pages and the files its rules worker boots from."""

from __future__ import annotations

from pathlib import PurePosixPath

from flask import Blueprint, Response, abort, current_app, send_from_directory

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
    ".webmanifest": "application/manifest+json",
}


def _send(folder_key: str, filename: str) -> Response:
    """Send ``filename`` from the configured folder with an explicit type."""
    mimetype = MIME_TYPES.get(PurePosixPath(filename).suffix.lower())
    if mimetype is None:
        abort(404)
    return send_from_directory(current_app.config[folder_key], filename, mimetype=mimetype)


@bp.get("/")
def index() -> Response:
    return _send("PWA_DIR", "index.html")


@bp.get("/pwa/<path:filename>")
def pwa_file(filename: str) -> Response:
    return _send("PWA_DIR", filename)


@bp.get("/pyodide/<path:filename>")
def pyodide_file(filename: str) -> Response:
    return _send("WEB_BUILD_DIR", f"pyodide/{filename}")


@bp.get("/shared_rules.zip")
def shared_rules_zip() -> Response:
    return _send("WEB_BUILD_DIR", "shared_rules.zip")
