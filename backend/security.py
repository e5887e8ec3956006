"""Security headers on every response: a Content-Security-Policy the PWA passes, and the usual companions.

The policy allows exactly what the app does: its own scripts, styles, images
(plus ``data:``/``blob:`` images for QR codes and printed slips), fetches to
its own API, its own workers, and WebAssembly compilation for Pyodide
(``'wasm-unsafe-eval'``, never ``'unsafe-eval'``). No inline script, no
framing by other sites (``frame-ancestors 'none'``; ``X-Frame-Options`` for
older browsers), no MIME sniffing, no referrer leaking event ids to other
sites. ``CONTENT_SECURITY_POLICY`` in the config replaces the policy (a
deployment that serves the app under another origin, say).

Every API answer says ``Cache-Control: no-store``: tokens, codes and histories
are kept by no browser or proxy cache.

``HSTS_MAX_AGE`` (seconds; 0, the default, sends none) adds
``Strict-Transport-Security`` to answers given over HTTPS: the scale-out
deployment sets it (docs/deploy.md). The hall network's HTTPS port of
``make run`` sends none, on purpose (docs/deploy.md: HSTS).
"""

from __future__ import annotations

from flask import Flask, Response, request

__all__ = ["CONTENT_SECURITY_POLICY", "init_app"]

CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self' 'wasm-unsafe-eval'",
        "worker-src 'self'",
        "connect-src 'self'",
        "img-src 'self' data: blob:",
        "style-src 'self'",
        "font-src 'self'",
        "manifest-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)


def init_app(app: Flask) -> None:
    policy = app.config.get("CONTENT_SECURITY_POLICY") or CONTENT_SECURITY_POLICY
    hsts = int(app.config.get("HSTS_MAX_AGE") or 0)

    @app.after_request
    def _headers(response: Response) -> Response:
        headers = response.headers
        headers.setdefault("Content-Security-Policy", policy)
        headers.setdefault("X-Content-Type-Options", "nosniff")
        headers.setdefault("Referrer-Policy", "no-referrer")
        headers.setdefault("X-Frame-Options", "DENY")
        headers.setdefault("Cross-Origin-Opener-Policy", "same-origin")
        headers.setdefault("Permissions-Policy", "camera=(self), microphone=(), geolocation=()")
        if request.path.startswith("/api/"):  # tokens, codes, histories: kept by no cache (OWASP ASVS 8.2.1)
            headers.setdefault("Cache-Control", "no-store")
        if hsts > 0 and request.is_secure:  # behind a proxy: X-Forwarded-Proto from a trusted one (backend/limits.py)
            headers.setdefault("Strict-Transport-Security", f"max-age={hsts}")
        return response
