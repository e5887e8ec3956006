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
