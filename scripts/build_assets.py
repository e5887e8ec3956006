#!/usr/bin/env python3
"""Build the files the browser needs into build/web/ (standard library only).

* build/web/pyodide/      the Pyodide runtime copied from node_modules/pyodide
* build/web/shared_rules.zip   the rules engine (.py files only), packed
  deterministically, for the browser worker to unpack into Pyodide
* build/web/vendor/       front-end npm packages' ESM files (no bundler), e.g. idb
* build/web/precache-manifest.json   what the service worker precaches, and the
  version (a hash of all of it) that names its cache and marks an update

Idempotent and fast: a runtime file is copied only when its size or mtime
differs from the copy, and the zip is rewritten only when its bytes change.
Run it from anywhere: ``python3 scripts/build_assets.py``.
"""

from __future__ import annotations

import argparse
import io
import json
import shutil
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYODIDE_SRC = ROOT / "node_modules" / "pyodide"
WEB_DIR = ROOT / "build" / "web"
PYODIDE_DEST = WEB_DIR / "pyodide"
RULES_SRC = ROOT / "shared_rules"
RULES_ZIP = WEB_DIR / "shared_rules.zip"

# What loadPyodide() fetches from its indexURL to boot (pyodide.asm.mjs is
# named pyodide.asm.js in older releases, so either satisfies the build).
REQUIRED = ("pyodide.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
ASM_JS = ("pyodide.asm.mjs", "pyodide.asm.js")
# Shipped alongside; copied when present (classic-script loader, source maps
# the browser's dev tools ask for, the package metadata with the version).
OPTIONAL = ("pyodide.js", "pyodide.js.map", "pyodide.mjs.map", "package.json")

ZIP_TIMESTAMP = (1980, 1, 1, 0, 0, 0)

NODE_MODULES = ROOT / "node_modules"
VENDOR_DEST = WEB_DIR / "vendor"
PWA_SRC = ROOT / "pwa"
PRECACHE_MANIFEST = WEB_DIR / "precache-manifest.json"
#: npm ESM files served as-is: (source under node_modules, name under build/web/vendor/).
VENDOR_FILES = (("idb/build/index.js", "idb.js"),)
#: Pyodide files the worker fetches to boot (precached for offline starts).
PYODIDE_PRECACHE = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.js", "pyodide.asm.wasm",
                    "python_stdlib.zip", "pyodide-lock.json")
#: PWA files never precached: the service worker itself (the browser fetches and updates it).
PWA_SKIP = {"sw.js"}


class BuildError(Exception):
    """A missing input; the message says what to run."""


def runtime_files(src: Path = PYODIDE_SRC) -> list[str]:
    """The names of the Pyodide files to publish, checked to be complete."""
    if not src.is_dir():
        raise BuildError(f"{src} is missing: run `npm ci` (or `make run`) first")
    missing = [name for name in REQUIRED if not (src / name).is_file()]
    asm = [name for name in ASM_JS if (src / name).is_file()]
    if not asm:
        missing.append(" or ".join(ASM_JS))
    if missing:
        raise BuildError(f"{src} lacks {', '.join(missing)}: run `npm ci` again")
    return sorted([*REQUIRED, *asm, *(name for name in OPTIONAL if (src / name).is_file())])


def _same_file(src: Path, dest: Path) -> bool:
    if not dest.is_file():
        return False
    a, b = src.stat(), dest.stat()
    return a.st_size == b.st_size and int(a.st_mtime) == int(b.st_mtime)


def sync_runtime(src: Path = PYODIDE_SRC, dest: Path = PYODIDE_DEST) -> tuple[int, int]:
    """Copy the runtime into ``dest``; return (files copied, files removed)."""
    names = runtime_files(src)
    dest.mkdir(parents=True, exist_ok=True)
    copied = 0
    for name in names:
        if not _same_file(src / name, dest / name):
            tmp = dest / (name + ".tmp")
            shutil.copy2(src / name, tmp)
            tmp.replace(dest / name)
            copied += 1
    removed = 0
    for stale in dest.iterdir():
        if stale.name not in names:
            if stale.is_dir():
                shutil.rmtree(stale)
            else:
                stale.unlink()
            removed += 1
    return copied, removed


def rules_sources(src: Path = RULES_SRC) -> list[Path]:
    """Every .py file of the rules package, sorted, skipping caches."""
    if not (src / "__init__.py").is_file():
        raise BuildError(f"{src}/__init__.py is missing")
    return sorted(
        (p for p in src.rglob("*.py") if "__pycache__" not in p.relative_to(src).parts),
        key=lambda p: p.relative_to(src.parent).as_posix(),
    )


def pack_rules(src: Path = RULES_SRC) -> bytes:
    """The deterministic zip of the rules package: sorted names, fixed times."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for path in rules_sources(src):
            info = zipfile.ZipInfo(path.relative_to(src.parent).as_posix(), ZIP_TIMESTAMP)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            info.create_system = 3  # Unix, so the attributes above mean the same everywhere
            archive.writestr(info, path.read_bytes(), compresslevel=9)
    return buffer.getvalue()


def write_if_changed(path: Path, data: bytes) -> bool:
    """Write ``data`` unless the file already holds exactly it."""
    if path.is_file() and path.read_bytes() == data:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(data)
    tmp.replace(path)
    return True


def pyodide_version(src: Path = PYODIDE_SRC) -> str:
    try:
        return json.loads((src / "package.json").read_text(encoding="utf-8"))["version"]
    except (OSError, ValueError, KeyError):
        return "unknown"


def sync_vendor(src: Path = NODE_MODULES, dest: Path = VENDOR_DEST) -> int:
    """Copy the vendored npm ESM files; return how many were (re)written."""
    written = 0
    for source, name in VENDOR_FILES:
        path = src / source
        if not path.is_file():
            raise BuildError(f"{path} is missing: run `npm ci` again")
        written += write_if_changed(dest / name, path.read_bytes())
    return written


def precache_entries() -> list[tuple[str, Path]]:
    """(URL, file) for everything the app needs offline, sorted by URL."""
    entries = [("/", PWA_SRC / "index.html")]
    for path in sorted(PWA_SRC.rglob("*")):
        rel = path.relative_to(PWA_SRC).as_posix()
        if path.is_file() and rel not in PWA_SKIP and "__pycache__" not in rel and not rel.startswith("."):
            entries.append((f"/pwa/{rel}", path))
    for _, name in VENDOR_FILES:
        entries.append((f"/vendor/{name}", VENDOR_DEST / name))
    for name in PYODIDE_PRECACHE:
        if (PYODIDE_DEST / name).is_file():
            entries.append((f"/pyodide/{name}", PYODIDE_DEST / name))
    entries.append(("/shared_rules.zip", RULES_ZIP))
    return sorted(entries)


def precache_manifest() -> bytes:
    """``{"version", "urls"}``: the version hashes every precached URL and its bytes."""
    import hashlib

    digest = hashlib.sha256()
    urls = []
    for url, path in precache_entries():
        digest.update(url.encode("utf-8") + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
        urls.append(url)
    manifest = {"version": digest.hexdigest()[:16], "urls": urls}
    return (json.dumps(manifest, indent=1) + "\n").encode("utf-8")


def build(quiet: bool = False) -> None:
    copied, removed = sync_runtime()
    zipped = pack_rules()
    changed = write_if_changed(RULES_ZIP, zipped)
    sync_vendor()
    write_if_changed(PRECACHE_MANIFEST, precache_manifest())
    if not quiet:
        count = len(rules_sources())
        print(
            f"build: pyodide {pyodide_version()} -> build/web/pyodide/ "
            f"({copied} copied, {removed} removed); "
            f"shared_rules.zip {'written' if changed else 'unchanged'} ({count} modules)"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-q", "--quiet", action="store_true", help="print nothing on success")
    args = parser.parse_args(argv)
    try:
        build(quiet=args.quiet)
    except BuildError as error:
        print(f"build: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
