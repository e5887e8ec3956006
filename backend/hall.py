"""The hall network: the address tablets reach this server at, and the certificate authority they trust.

``make run`` (:mod:`backend.serve`) serves the app twice: plain HTTP on this
laptop (``http://127.0.0.1:8000``) and HTTPS on every interface
(``https://<LAN address>:8443``) with a certificate of the laptop's own
authority (:mod:`backend.hall_tls`). It tells both processes ``HALL_URL`` and
``HALL_TLS_DIR``. An organizer working on the laptop itself then hands out
links and QR codes that name the hall address, never 127.0.0.1, which no
tablet can reach.
"""

from __future__ import annotations

import ipaddress
import os

from flask import Blueprint, current_app, request, send_file

from backend.errors import ApiError
from backend.hall_tls import CA_FILE

bp = Blueprint("hall", __name__)

__all__ = ["bp", "public_origin"]


def _is_loopback(host: str) -> bool:
    name = host.rsplit(":", 1)[0] if host.count(":") == 1 else host
    name = name.strip("[]").lower()
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def hall_url() -> str | None:
    """The HTTPS address tablets on the hall network use (``HALL_URL``), or None when none is served."""
    url = current_app.config.get("HALL_URL")
    return str(url).rstrip("/") if url else None


def public_origin() -> str:
    """The origin to put in links and QR codes handed to other devices.

    The request's own origin, except on this machine's loopback address when a hall address is
    served: a tablet cannot reach 127.0.0.1.
    """
    hall = hall_url()
    if hall and _is_loopback(request.host):
        return hall
    return request.host_url.rstrip("/")


def _ca_path() -> str | None:
    directory = current_app.config.get("HALL_TLS_DIR")
    path = os.path.join(str(directory), CA_FILE) if directory else None
    return path if path and os.path.isfile(path) else None


@bp.get("/api/hall")
def hall():
    """Where tablets on the hall network open the app.
    ---
    get:
      summary: The hall network's HTTPS address and its certificate authority (no token)
      responses:
        200:
          description: >
            ``hall_url``: the HTTPS address tablets use (null when this server offers none);
            ``ca_url``: the certificate each tablet installs once (null when there is none);
            ``origin``: what links and QR codes handed to other devices use, seen from this request.
    """
    return {"hall_url": hall_url(), "ca_url": "/hall-ca.crt" if _ca_path() else None, "origin": public_origin()}


@bp.get("/hall-ca.crt")
def hall_ca():
    """The hall's certificate authority, for installing on each tablet once.
    ---
    get:
      summary: The hall network's certificate authority (PEM; public, no token)
      responses:
        200:
          description: the certificate (application/x-x509-ca-cert), to install on each tablet once
    """
    path = _ca_path()
    if path is None:
        raise ApiError(
            404,
            "no-hall-ca",
            "this server has no hall certificate authority: it was not started "
            "by `make run` with HTTPS for the hall network",
        )
    response = send_file(
        path, mimetype="application/x-x509-ca-cert", as_attachment=True, download_name="topcut-hall-ca.crt", max_age=0
    )
    return response
