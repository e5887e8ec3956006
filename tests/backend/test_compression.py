"""Compressed answers (backend/compression.py): gzip per request for the API, the build's gzipped runtime files."""

from __future__ import annotations

import gzip
import importlib.util
import json
import os
from pathlib import Path

import pytest

from backend import create_app
from tests.backend.conftest import dispose
from tests.backend.helpers import Api, pair_ops, register_ops

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("build_assets_for_gzip", ROOT / "scripts" / "build_assets.py")
build_assets = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(build_assets)

GZIP = {"Accept-Encoding": "gzip, deflate"}


@pytest.fixture
def web(tmp_path: Path) -> Path:
    """A build folder with a runtime file, gzipped as the build does."""
    folder = tmp_path / "web"
    (folder / "pyodide").mkdir(parents=True)
    (folder / "pyodide" / "pyodide.asm.wasm").write_bytes(b"\0asm" + bytes(range(256)) * 400)
    (folder / "pyodide" / "python_stdlib.pyc.zip").write_bytes(b"PK" * 2000)
    build_assets.gzip_files(folder / "pyodide")
    return folder


@pytest.fixture
def app(sqlite_url: str, tmp_path: Path, web: Path):
    app = create_app(
        {
            "TESTING": True,
            "INSTANCE_PATH": tmp_path / "instance",
            "SQLALCHEMY_DATABASE_URI": sqlite_url,
            "WEB_BUILD_DIR": str(web),
        }
    )
    yield app
    dispose(app)


def test_a_pull_is_gzipped_for_a_client_that_accepts_it_and_says_so(client):
    api = Api(client)
    created = api.create()
    eid, org = created["event_id"], created["token"]
    api.push_ok(eid, org, "desk", register_ops() + pair_ops(1))
    headers = {"Authorization": f"Bearer {org}"}
    plain = client.get(f"/api/events/{eid}/pull?cursor=0", headers=headers)
    packed = client.get(f"/api/events/{eid}/pull?cursor=0", headers={**headers, **GZIP})
    assert "Content-Encoding" not in plain.headers
    assert packed.headers["Content-Encoding"] == "gzip" and "Accept-Encoding" in packed.headers["Vary"]
    assert int(packed.headers["Content-Length"]) == len(packed.data) < len(plain.data)
    unpacked = json.loads(gzip.decompress(packed.data))
    assert unpacked["ops"] == plain.get_json()["ops"]


def test_small_answers_and_clients_that_refuse_gzip_get_the_body_as_it_is(client):
    small = client.get("/api/rulesets/nonesuch", headers=GZIP)
    assert "Content-Encoding" not in small.headers and small.get_json()["error"]
    api = Api(client)
    created = api.create()
    eid, org = created["event_id"], created["token"]
    api.push_ok(eid, org, "desk", register_ops())
    refused = client.get(
        f"/api/events/{eid}/pull?cursor=0", headers={"Authorization": f"Bearer {org}", "Accept-Encoding": "identity"}
    )
    assert "Content-Encoding" not in refused.headers and refused.get_json()["ops"]


def test_the_runtime_is_sent_as_the_build_gzipped_it_and_revalidates(client, web: Path):
    original = (web / "pyodide" / "pyodide.asm.wasm").read_bytes()
    packed = client.get("/pyodide/pyodide.asm.wasm", headers=GZIP)
    assert packed.status_code == 200 and packed.headers["Content-Encoding"] == "gzip"
    assert packed.mimetype == "application/wasm" and "Accept-Encoding" in packed.headers["Vary"]
    assert gzip.decompress(packed.data) == original and len(packed.data) < len(original) / 10
    plain = client.get("/pyodide/pyodide.asm.wasm")
    assert "Content-Encoding" not in plain.headers and plain.data == original
    refused = client.get("/pyodide/pyodide.asm.wasm", headers={"Accept-Encoding": "gzip;q=0, deflate"})
    assert "Content-Encoding" not in refused.headers and refused.data == original
    assert packed.headers["ETag"] != plain.headers["ETag"]  # two bodies: two validators
    again = client.get("/pyodide/pyodide.asm.wasm", headers={**GZIP, "If-None-Match": packed.headers["ETag"]})
    assert again.status_code == 304
    # Zips are sent as they are; they are compressed already.
    zipped = client.get("/pyodide/python_stdlib.pyc.zip", headers=GZIP)
    assert "Content-Encoding" not in zipped.headers and zipped.data == b"PK" * 2000


def test_a_gzipped_copy_without_its_file_is_never_sent(client, web: Path):
    (web / "pyodide" / "pyodide.asm.wasm").unlink()
    assert client.get("/pyodide/pyodide.asm.wasm", headers=GZIP).status_code == 404


def test_the_build_gzips_again_only_a_file_that_changed_and_drops_orphans(tmp_path: Path):
    folder = tmp_path / "pyodide"
    folder.mkdir()
    wasm = folder / "pyodide.asm.wasm"
    wasm.write_bytes(b"one" * 1000)
    assert build_assets.gzip_files(folder) == ["pyodide.asm.wasm.gz"]
    assert build_assets.gzip_files(folder) == []  # nothing changed
    wasm.write_bytes(b"two" * 1000)
    os.utime(wasm, ns=(1_000_000_000, 1_000_000_000))  # older than the copy: a runtime copied from an older npm file
    assert build_assets.gzip_files(folder) == ["pyodide.asm.wasm.gz"]
    assert gzip.decompress((folder / "pyodide.asm.wasm.gz").read_bytes()) == b"two" * 1000
    wasm.unlink()
    assert build_assets.gzip_files(folder) == [] and not (folder / "pyodide.asm.wasm.gz").exists()


@pytest.fixture
def shell_app(sqlite_url: str, tmp_path: Path):
    """An app whose shell is a small pwa/ folder, compressed by the build into its build folder."""
    pwa = tmp_path / "pwa"
    pwa.mkdir()
    (pwa / "index.html").write_text("<!doctype html><title>Topcut</title>" + "<p>shell</p>" * 300)
    (pwa / "main.js").write_text("console.log('the app');\n" * 300)
    (pwa / "icon.png").write_bytes(b"\x89PNG" + bytes(600))
    web = tmp_path / "web"
    build_assets.compress_shell(pwa, web / "compressed" / "pwa")
    app = create_app(
        {
            "TESTING": True,
            "INSTANCE_PATH": tmp_path / "instance",
            "SQLALCHEMY_DATABASE_URI": sqlite_url,
            "WEB_BUILD_DIR": str(web),
            "PWA_DIR": str(pwa),
        }
    )
    yield app, pwa
    dispose(app)


def test_the_shell_is_sent_as_the_build_compressed_it_brotli_first(shell_app):
    app, pwa = shell_app
    client = app.test_client()
    original = (pwa / "main.js").read_bytes()
    br = client.get("/pwa/main.js", headers={"Accept-Encoding": "gzip, deflate, br"})
    assert br.headers["Content-Encoding"] == "br" and "Accept-Encoding" in br.headers["Vary"]
    assert br.mimetype == "text/javascript" and br.headers["Cache-Control"] == "no-cache"
    assert build_assets._brotli().decompress(br.data) == original and len(br.data) < len(original) / 10
    gz = client.get("/pwa/main.js", headers=GZIP)
    assert gz.headers["Content-Encoding"] == "gzip" and gzip.decompress(gz.data) == original
    plain = client.get("/pwa/main.js")
    assert "Content-Encoding" not in plain.headers and plain.data == original
    assert len({br.headers["ETag"], gz.headers["ETag"], plain.headers["ETag"]}) == 3  # three bodies, three validators
    page = client.get("/", headers=GZIP)
    assert page.headers["Content-Encoding"] == "gzip" and gzip.decompress(page.data).startswith(b"<!doctype html>")
    icon = client.get("/pwa/icon.png", headers=GZIP)  # images are compressed already
    assert "Content-Encoding" not in icon.headers and icon.data == (pwa / "icon.png").read_bytes()


def test_a_shell_file_edited_after_the_build_is_sent_as_it_is_now(shell_app):
    app, pwa = shell_app
    (pwa / "main.js").write_text("console.log('edited');\n")
    os.utime(pwa / "main.js", ns=(2_000_000_000_000_000_000, 2_000_000_000_000_000_000))
    sent = app.test_client().get("/pwa/main.js", headers={"Accept-Encoding": "gzip, br"})
    assert "Content-Encoding" not in sent.headers and sent.data == b"console.log('edited');\n"


def test_the_build_compresses_the_shell_again_only_where_it_changed_and_drops_orphans(tmp_path: Path):
    pwa, dest = tmp_path / "pwa", tmp_path / "out"
    (pwa / "ui").mkdir(parents=True)
    (pwa / "ui" / "a.js").write_text("a" * 500)
    (pwa / "sw.js").write_text("stamped per request")
    assert sorted(build_assets.compress_shell(pwa, dest)) == ["ui/a.js.br", "ui/a.js.gz"]
    assert build_assets.compress_shell(pwa, dest) == []
    (pwa / "ui" / "a.js").unlink()
    assert build_assets.compress_shell(pwa, dest) == [] and not [f for f in dest.rglob("*") if f.is_file()]
