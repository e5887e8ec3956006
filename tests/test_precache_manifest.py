"""The precache manifest the build writes: groups the device caches under their content hashes.

A group's hash (the name of its cache on the device) and a file's hash change when,
and only when, their bytes do; the version changes with any of them and with sw.js.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _build_assets():
    spec = importlib.util.spec_from_file_location("build_assets", ROOT / "scripts" / "build_assets.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


build_assets = _build_assets()


@pytest.fixture
def folders(tmp_path):
    """A small app: pwa/ (with sw.js) and a build folder with Pyodide, vendor files and the rules zip."""
    pwa = tmp_path / "pwa"
    (pwa / "sw").mkdir(parents=True)
    (pwa / "index.html").write_text("<!doctype html><title>t</title>")
    (pwa / "style.css").write_text("body { color: black; }\n")
    (pwa / "main.js").write_text("console.log('main');\n")
    (pwa / "sw.js").write_text("const VERSION = '__TOPCUT_VERSION__';\n")
    (pwa / "sw" / "precache.js").write_text("export const PREFIX = 'p';\n")
    web = tmp_path / "web"
    (web / "pyodide").mkdir(parents=True)
    for name in build_assets.PYODIDE_PRECACHE:
        (web / "pyodide" / name).write_bytes(name.encode() * 100)
    (web / "pyodide" / "python_stdlib.zip").write_bytes(b"never precached")
    (web / "vendor").mkdir()
    for _, name in build_assets.VENDOR_FILES:
        (web / "vendor" / name).write_text(f"// {name}\n")
    (web / "rules").mkdir()
    (web / "rules" / "index.json").write_text('{"build": "b1", "pieces": []}\n')
    (web / "rules" / "shared_rules.pack").write_bytes(b"piece: the package's top")
    (web / "rules" / "shared_rules.state.pack").write_bytes(b"piece: state")
    return pwa, web


def manifest(folders) -> dict:
    return json.loads(build_assets.precache_manifest(*folders))


def hashes(data: dict) -> tuple[str, dict[str, str]]:
    return data["version"], {group["name"]: group["hash"] for group in data["groups"]}


def test_groups_list_every_file_once_with_its_hash_and_size(folders) -> None:
    pwa, web = folders
    data = manifest(folders)
    assert [group["name"] for group in data["groups"]] == ["shell", "pyodide", "rules"]
    urls = {group["name"]: [file["url"] for file in group["files"]] for group in data["groups"]}
    assert urls["shell"] == [
        "/",
        "/pwa/index.html",
        "/pwa/main.js",
        "/pwa/style.css",
        "/pwa/sw/precache.js",
        "/vendor/idb.js",
    ]
    assert urls["pyodide"] == sorted(f"/pyodide/{name}" for name in build_assets.PYODIDE_PRECACHE)
    assert urls["rules"] == ["/rules/index.json", "/rules/shared_rules.pack", "/rules/shared_rules.state.pack"]
    style = next(file for file in data["groups"][0]["files"] if file["url"] == "/pwa/style.css")
    body = (pwa / "style.css").read_bytes()
    assert style == {"url": "/pwa/style.css", "hash": hashlib.sha256(body).hexdigest()[:16], "size": len(body)}
    assert all(len(group["hash"]) == 16 for group in data["groups"]) and len(data["version"]) == 16


def test_the_same_files_give_the_same_bytes(folders) -> None:
    assert build_assets.precache_manifest(*folders) == build_assets.precache_manifest(*folders)


def test_a_css_fix_changes_only_the_shell_group(folders) -> None:
    pwa, _ = folders
    version, groups = hashes(manifest(folders))
    (pwa / "style.css").write_text("body { color: #111; }\n")
    new_version, new_groups = hashes(manifest(folders))
    assert new_version != version
    assert new_groups["shell"] != groups["shell"]
    assert (new_groups["pyodide"], new_groups["rules"]) == (groups["pyodide"], groups["rules"])


def test_a_pyodide_upgrade_changes_only_the_pyodide_group(folders) -> None:
    _, web = folders
    before = manifest(folders)
    (web / "pyodide" / "pyodide.asm.wasm").write_bytes(b"\0asm new")
    after = manifest(folders)
    assert hashes(after)[1]["pyodide"] != hashes(before)[1]["pyodide"]
    assert [g for g in after["groups"] if g["name"] != "pyodide"] == [
        g for g in before["groups"] if g["name"] != "pyodide"
    ]
    changed = [(a["url"]) for a, b in zip(after["groups"][1]["files"], before["groups"][1]["files"]) if a != b]
    assert changed == ["/pyodide/pyodide.asm.wasm"]


def test_a_rules_change_changes_only_the_rules_group(folders) -> None:
    _, web = folders
    version, groups = hashes(manifest(folders))
    (web / "rules" / "shared_rules.state.pack").write_bytes(b"piece: state, changed")
    new_version, new_groups = hashes(manifest(folders))
    assert new_version != version and new_groups["rules"] != groups["rules"]
    assert (new_groups["shell"], new_groups["pyodide"]) == (groups["shell"], groups["pyodide"])


def test_the_service_worker_changes_the_version_not_the_groups(folders) -> None:
    pwa, _ = folders
    version, groups = hashes(manifest(folders))
    (pwa / "sw.js").write_text("const VERSION = '__TOPCUT_VERSION__'; // fixed\n")
    new_version, new_groups = hashes(manifest(folders))
    assert new_version != version and new_groups == groups


def test_a_file_moved_or_renamed_changes_its_group(folders) -> None:
    pwa, _ = folders
    _, groups = hashes(manifest(folders))
    shutil.move(pwa / "main.js", pwa / "app.js")
    assert hashes(manifest(folders))[1]["shell"] != groups["shell"]


def test_files_the_worker_never_asks_for_stay_out(folders) -> None:
    pwa, _ = folders
    (pwa / "__pycache__").mkdir()
    (pwa / "__pycache__" / "x.pyc").write_bytes(b"")
    urls = [file["url"] for group in manifest(folders)["groups"] for file in group["files"]]
    assert "/pwa/sw.js" not in urls and "/pyodide/python_stdlib.zip" not in urls
    assert not [url for url in urls if "__pycache__" in url]


def test_the_build_writes_the_manifest_of_the_real_app(web_build) -> None:
    data = json.loads((web_build / "precache-manifest.json").read_text(encoding="utf-8"))
    assert data == json.loads(build_assets.precache_manifest())
    sizes = {group["name"]: sum(file["size"] for file in group["files"]) for group in data["groups"]}
    urls = {file["url"] for group in data["groups"] for file in group["files"]}
    assert {
        "/",
        "/pwa/main.js",
        "/pwa/style.css",
        "/pwa/sw/precache.js",
        "/pwa/sw/strategies.js",
        "/pyodide/pyodide.asm.wasm",
        "/pyodide/python_stdlib.pyc.zip",
        "/rules/index.json",
        "/rules/shared_rules.state.pack",
    } <= urls
    assert sizes["pyodide"] > 10_000_000 > 1_000_000 > sizes["shell"]  # what the split saves an update


def test_only_staff_devices_install_pyodide_and_the_rules(folders) -> None:
    pwa, _ = folders
    (pwa / "rules").mkdir()
    (pwa / "rules" / "rules_api.py").write_text("def call(text): ...\n")
    (pwa / "rules" / "rules-client.js").write_text("export const x = 1;\n")
    groups = {group["name"]: group for group in manifest(folders)["groups"]}
    assert groups["pyodide"]["devices"] == groups["rules"]["devices"] == "staff"
    assert "devices" not in groups["shell"]  # every device, a player's phone too
    urls = {name: {file["url"] for file in group["files"]} for name, group in groups.items()}
    assert "/pwa/rules/rules_api.py" in urls["rules"] and "/pwa/rules/rules-client.js" in urls["shell"]


def test_a_players_install_of_the_real_app_is_under_a_megabyte(web_build) -> None:
    data = json.loads((web_build / "precache-manifest.json").read_text(encoding="utf-8"))
    player = sum(file["size"] for group in data["groups"] if "devices" not in group for file in group["files"])
    assert player < 1_000_000  # as written; the server sends it compressed (bench/install.py)
