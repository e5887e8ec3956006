"""The rules engine shipped in pieces, one per package folder (scripts/build_assets.py rule_pieces): the worker
writes them into Pyodide's filesystem, and a rules change re-downloads only the pieces whose bytes changed."""

from __future__ import annotations

import importlib.util
import io
import json
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("build_assets_for_pieces", ROOT / "scripts" / "build_assets.py")
build_assets = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(build_assets)


def _zip(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in files.items():
            archive.writestr(zipfile.ZipInfo(name, build_assets.ZIP_TIMESTAMP), data)
    return buffer.getvalue()


def unpack(piece: bytes) -> dict[str, bytes]:
    """A piece's files by path, read as rules-worker.js reads them."""
    assert piece.startswith(build_assets.PIECE_MAGIC)
    header, _, body = piece[len(build_assets.PIECE_MAGIC) :].partition(b"\n")
    out, at = {}, 0
    for path, size in json.loads(header):
        out[path] = body[at : at + size]
        at += size
    assert at == len(body)
    return out


def test_each_package_folder_is_a_piece_with_its_bytecode_where_the_importer_looks() -> None:
    rules = {
        "rules_api.py": b"x = 1\n",
        "rules_api.pyc": b"pyc-api",
        "pkg/__init__.py": b"",
        "pkg/__init__.pyc": b"pyc-init",
        "pkg/sub/mod.py": b"y = 2\n",
        "pkg/sub/mod.pyc": b"pyc-mod",
    }
    pieces = build_assets.rule_pieces(_zip(rules), "cpython-314")
    assert sorted(pieces) == ["pkg.pack", "pkg.sub.pack", "top.pack"]
    assert unpack(pieces["pkg.sub.pack"]) == {
        "pkg/sub/__pycache__/mod.cpython-314.pyc": b"pyc-mod",
        "pkg/sub/mod.py": b"y = 2\n",
    }
    assert unpack(pieces["top.pack"]) == {
        "__pycache__/rules_api.cpython-314.pyc": b"pyc-api",
        "rules_api.py": b"x = 1\n",
    }


def test_a_change_to_one_module_changes_only_its_piece() -> None:
    rules = {"pkg/__init__.py": b"", "pkg/a/one.py": b"a = 1\n", "pkg/b/two.py": b"b = 1\n"}
    before = build_assets.rule_pieces(_zip(rules), "cpython-314")
    after = build_assets.rule_pieces(_zip({**rules, "pkg/b/two.py": b"b = 2\n"}), "cpython-314")
    assert [name for name in before if before[name] != after[name]] == ["pkg.b.pack"]


def test_the_built_pieces_hold_the_whole_engine_and_import(web_build, tmp_path: Path) -> None:
    index = json.loads((web_build / "rules" / "index.json").read_text(encoding="utf-8"))
    assert index["build"] and len(index["pieces"]) > 10
    for piece in index["pieces"]:
        name = piece["url"].removeprefix("/rules/")
        data = (web_build / "rules" / name).read_bytes()
        assert build_assets.content_hash(data) == piece["hash"]
        for path, content in unpack(data).items():
            (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / path).write_bytes(content)
    sources = {p.relative_to(ROOT).as_posix() for p in build_assets.rules_sources()}
    assert sources <= {p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*.py")}
    # This CPython ignores Pyodide's bytecode (another version's tag) and imports the sources laid out as pieces.
    out = subprocess.run(
        [
            sys.executable,
            "-I",
            "-c",
            "import sys; sys.path.insert(0, '.'); import rules_api, shared_rules; print(shared_rules.__file__)",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.startswith(str(tmp_path))
