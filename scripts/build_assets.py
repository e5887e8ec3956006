#!/usr/bin/env python3
"""Build the files the browser needs into build/web/ (standard library only).

* build/web/pyodide/      the Pyodide runtime copied from node_modules/pyodide,
  plus what makes an offline cold start fast: python_stdlib.pyc.zip (Pyodide's
  standard library compiled to bytecode once, here, instead of on every start
  in the browser) and pyodide-lock.core.json (the lock file without its 350
  package entries: the worker loads no package)
* build/web/shared_rules.zip   the rules engine and pwa/rules/rules_api.py, packed
  deterministically, each module as source and bytecode (compiled for the
  worker's /home/pyodide/rules/ folder)
* build/web/rules/   the same files in pieces, one per package folder
  (``shared_rules.games.pokemon.pack``: its modules' source and
  ``__pycache__`` bytecode), and ``index.json`` listing them with their content
  hashes: the worker writes them into Pyodide's filesystem before the
  interpreter starts, and a rules change re-downloads only the pieces whose
  bytes changed (the precache reuses the others by their hashes)
* build/web/vendor/       front-end npm packages' ESM files (no bundler), e.g. idb
* pwa/rules/tables.json   the rulesets and roles the screens name, from the engine
  (rules_api.app_tables), kept in git and rewritten when the engine changes them
* build/web/precache-manifest.json   what the service worker precaches, in groups
  (shell, pyodide, rules), each with the content hash that names its cache on
  the device and every file's own hash, and the version (a hash of the groups
  and sw.js) that marks an update: an update fetches only what changed. The
  pyodide and rules groups say ``"devices": "staff"``: a player's phone never
  installs them (the app shell alone, under 1 MB), a staff device does
* build/web/compressed/pwa/   the app shell's text files (JS, CSS, HTML, JSON)
  precompressed, NAME.gz (gzip level 9) and NAME.br (brotli, when the brotli
  package is at hand: it is in the project's venv through flask-compress), which
  backend/shell.py sends with Content-Encoding to a browser that accepts them

Idempotent and fast: a runtime file is copied only when its size or mtime
differs from the copy, and the zip is rewritten only when its bytes change.
Bytecode must come from Pyodide's own CPython (its version differs from this
one), so the compiling runs Pyodide under Node (a few seconds), and only when
its inputs changed (their hash is kept in build/cache/).
Run it from anywhere: ``python3 scripts/build_assets.py``.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import importlib.util
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYODIDE_SRC = ROOT / "node_modules" / "pyodide"
WEB_DIR = ROOT / "build" / "web"
PYODIDE_DEST = WEB_DIR / "pyodide"
RULES_SRC = ROOT / "shared_rules"
RULES_ZIP = WEB_DIR / "shared_rules.zip"
RULES_PIECES = WEB_DIR / "rules"
#: Where the worker puts the rules in Pyodide's filesystem (pwa/rules/rules-worker.js RULES_DIR).
RULES_HOME = "/home/pyodide/rules/"
#: A piece: this line, then a JSON line ``[[path, size], ...]``, then the files' bytes one after another.
PIECE_MAGIC = b"topcut-rules-piece/1\n"

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
#: Made here from Pyodide's files (kept in build/web/pyodide/ by sync_runtime).
STDLIB_PYC = "python_stdlib.pyc.zip"
LOCK_CORE = "pyodide-lock.core.json"
#: Runtime files also written gzipped (``NAME.gz``, level 9), which the server sends to a browser that accepts
#: gzip (backend/compression.py): what a phone downloads once per install, 11 MB of it as 3.8 MB. Not the zips:
#: they are compressed already.
GZIPPED = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.js", "pyodide.asm.wasm")
GENERATED = (STDLIB_PYC, LOCK_CORE, *(name + ".gz" for name in GZIPPED))
#: Pyodide files the worker fetches to boot (precached for offline starts). Not the
#: source-only python_stdlib.zip nor the full pyodide-lock.json: the worker never asks for them.
PYODIDE_PRECACHE = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.js", "pyodide.asm.wasm", STDLIB_PYC, LOCK_CORE)
RULES_API = PWA_SRC / "rules" / "rules_api.py"
APP_TABLES = PWA_SRC / "rules" / "tables.json"
CACHE_DIR = ROOT / "build" / "cache"
#: Bump when the compiling below changes, so every compiled zip is made again.
COMPILER_VERSION = "2"  # 2: bytecode names /home/pyodide/rules/ (the worker's rules folder), not the zip
#: PWA files never precached: the service worker itself (the browser fetches and updates it;
#: its bytes are part of the version instead).
PWA_SKIP = {"sw.js"}
#: The precache's groups, each cached on the device under its own content hash, so that an
#: update fetches only the groups (and within a group only the files) whose bytes changed:
#: the app shell changes with every release, the 16 MB of Pyodide with a Pyodide upgrade,
#: the packed rules with a rules change.
PRECACHE_GROUPS = ("shell", "pyodide", "rules")
#: Groups only a device holding a staff session installs (it runs the rules itself, offline): a player's phone
#: reads the server's player view and needs neither Pyodide nor the rules (issue #26, "a light phone").
STAFF_GROUPS = frozenset({"pyodide", "rules"})
#: PWA files that belong to the rules group, not the shell: only the rules worker reads them.
PWA_RULES = {"rules/rules_api.py"}
COMPRESSED_DEST = WEB_DIR / "compressed"
#: The shell's files written precompressed (build/web/compressed/pwa/NAME.gz and .br).
COMPRESSIBLE = (".html", ".js", ".mjs", ".css", ".json", ".svg", ".webmanifest", ".py", ".pack")
#: Hex digits of SHA-256 kept in the manifest's hashes (the worker checks downloads against them).
HASH_CHARS = 16


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
        if stale.name not in names and stale.name not in GENERATED:
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


def pack_rules(src: Path = RULES_SRC, api: Path | None = RULES_API) -> bytes:
    """The deterministic zip of the rules package (and the worker's rules_api.py at its top): sorted names, fixed times."""
    files = [(path.relative_to(src.parent).as_posix(), path) for path in rules_sources(src)]
    if api is not None:
        files.append((api.name, api))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, path in sorted(files):
            info = zipfile.ZipInfo(name, ZIP_TIMESTAMP)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            info.create_system = 3  # Unix, so the attributes above mean the same everywhere
            archive.writestr(info, path.read_bytes(), compresslevel=9)
    return buffer.getvalue()


# Runs inside Pyodide (under Node): every .py of the zip at IN also as unchecked
# hash-based bytecode (.pyc next to it, which zipimport tries first; no source
# check at import), written deterministically to OUT. KEEP_SOURCE keeps the .py
# files (tracebacks show source lines); without them the zip is bytecode only.
_COMPILE_PY = r"""
import importlib.util, io, zipfile
from importlib._bootstrap_external import _code_to_hash_pyc

def _entry(name):
    info = zipfile.ZipInfo(name, (1980, 1, 1, 0, 0, 0))
    info.external_attr = 0o644 << 16
    info.create_system = 3
    info.compress_type = zipfile.ZIP_STORED if name.endswith("/") else zipfile.ZIP_DEFLATED
    return info

def compile_zip(src, dest, prefix, keep_source):
    out = io.BytesIO()
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(out, "w") as zout:
        entries = []
        for info in zin.infolist():
            data = zin.read(info)
            name = info.filename
            if name.endswith(".py"):
                try:
                    code = compile(data, prefix + name, "exec", dont_inherit=True)
                except SyntaxError:
                    entries.append((name, data))
                    continue
                entries.append((name[:-3] + ".pyc", bytes(_code_to_hash_pyc(code, importlib.util.source_hash(data), False))))
                if not keep_source:
                    continue
            entries.append((name, data))
        for name, data in sorted(entries):
            zout.writestr(_entry(name), data, compresslevel=9)
    with open(dest, "wb") as fh:
        fh.write(out.getvalue())
"""

_COMPILE_MJS = r"""
import { readFileSync, writeFileSync } from "node:fs";
const [pyodideUrl, jobsJson] = process.argv.slice(1);
const { loadPyodide } = await import(pyodideUrl);
const pyodide = await loadPyodide();
pyodide.runPython(readFileSync(0, "utf8"));
const compileZip = pyodide.globals.get("compile_zip");
for (const [i, job] of JSON.parse(jobsJson).entries()) {
  pyodide.FS.writeFile(`/tmp/in${i}.zip`, readFileSync(job.src));
  compileZip(`/tmp/in${i}.zip`, `/tmp/out${i}.zip`, job.prefix, job.keep_source);
  writeFileSync(job.dest, pyodide.FS.readFile(`/tmp/out${i}.zip`));
}
"""


def _python_tag(src: Path = PYODIDE_SRC) -> str:
    """``python314`` for Pyodide's CPython 3.14 (the name of its standard library zip)."""
    lock = json.loads((src / "pyodide-lock.json").read_text(encoding="utf-8"))
    major, minor = lock["info"]["python"].split(".")[:2]
    return f"python{major}{minor}"


def compile_with_pyodide(jobs: list[dict], src: Path = PYODIDE_SRC) -> None:
    """Run the jobs ``{src, dest, prefix, keep_source}`` (zip paths) in one Pyodide under Node."""
    node = shutil.which("node")
    if node is None:
        raise BuildError("node is missing: install Node 20+ (the build compiles Python bytecode in Pyodide under Node)")
    result = subprocess.run(
        [node, "--input-type=module", "-e", _COMPILE_MJS, (src / "pyodide.mjs").as_uri(), json.dumps(jobs)],
        input=_COMPILE_PY,
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode != 0:
        raise BuildError(f"compiling bytecode in Pyodide failed:\n{result.stderr[-2000:]}")


def _cache_key(*parts: bytes) -> str:
    digest = hashlib.sha256(COMPILER_VERSION.encode())
    for part in parts:
        digest.update(hashlib.sha256(part).digest())
    return digest.hexdigest()


def _tmp_path(path: Path) -> Path:
    """A private temporary name next to ``path`` (builds may run concurrently)."""
    fd, name = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
    os.close(fd)
    os.chmod(name, 0o644)  # mkstemp's 0600 would outlive the rename
    return Path(name)


def compile_assets(
    rules_source: bytes, src: Path = PYODIDE_SRC, dest: Path = PYODIDE_DEST, rules_zip: Path = RULES_ZIP
) -> list[str]:
    """Make the bytecode zips when their inputs changed; return the names (re)made.

    * python_stdlib.pyc.zip: Pyodide's standard library as bytecode only (as
      Pyodide's own build tools would ship it): 2-5x faster interpreter start.
    * shared_rules.zip: ``rules_source`` (from pack_rules) with bytecode added.
    """
    version = pyodide_version(src).encode()
    stdlib = (src / "python_stdlib.zip").read_bytes()
    wanted = {
        dest / STDLIB_PYC: (_cache_key(version, stdlib), stdlib, f"/lib/{_python_tag(src)}.zip/", False),
        rules_zip: (_cache_key(version, rules_source), rules_source, RULES_HOME, True),
    }
    CACHE_DIR.mkdir(parents=True, exist_ok=True)
    jobs, made = [], []
    for out, (key, data, prefix, keep_source) in wanted.items():
        stamp = CACHE_DIR / f"{out.name}.key"
        if out.is_file() and stamp.is_file() and stamp.read_text(encoding="utf-8").strip() == key:
            continue
        source = _tmp_path(CACHE_DIR / out.name)
        source.write_bytes(data)
        jobs.append(
            {
                "src": str(source),
                "dest": str(_tmp_path(out)),
                "prefix": prefix,
                "keep_source": keep_source,
                "out": out,
                "stamp": stamp,
                "key": key,
            }
        )
    if not jobs:
        return made
    try:
        compile_with_pyodide([{k: job[k] for k in ("src", "dest", "prefix", "keep_source")} for job in jobs], src)
        for job in jobs:
            Path(job["dest"]).replace(job["out"])
            job["stamp"].write_text(job["key"] + "\n", encoding="utf-8")
            made.append(job["out"].name)
    finally:
        for job in jobs:
            Path(job["src"]).unlink(missing_ok=True)
            Path(job["dest"]).unlink(missing_ok=True)
    return made


def app_tables(api: Path = RULES_API) -> bytes:
    """rules_api.app_tables() as the JSON the screens import (stable: sorted keys, one key per line)."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))  # shared_rules, when the script runs outside the project's venv
    spec = importlib.util.spec_from_file_location("topcut_build_rules_api", api)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return (json.dumps(module.app_tables(), indent=1, sort_keys=True, ensure_ascii=False) + "\n").encode("utf-8")


def lock_core(src: Path = PYODIDE_SRC) -> bytes:
    """pyodide-lock.json without its packages: the worker loads none, so it skips fetching and parsing 120 KB."""
    lock = json.loads((src / "pyodide-lock.json").read_text(encoding="utf-8"))
    return (json.dumps({"info": lock["info"], "packages": {}}, indent=1, sort_keys=True) + "\n").encode("utf-8")


def write_if_changed(path: Path, data: bytes) -> bool:
    """Write ``data`` unless the file already holds exactly it."""
    if path.is_file() and path.read_bytes() == data:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = _tmp_path(path)
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


def precache_entries(pwa_dir: Path = PWA_SRC, web_dir: Path = WEB_DIR) -> list[tuple[str, str, Path]]:
    """(group, URL, file) for everything the app needs offline, by group then URL."""
    entries = [("shell", "/", pwa_dir / "index.html")]
    for path in sorted(pwa_dir.rglob("*")):
        rel = path.relative_to(pwa_dir).as_posix()
        if path.is_file() and rel not in PWA_SKIP and "__pycache__" not in rel and not rel.startswith("."):
            entries.append(("rules" if rel in PWA_RULES else "shell", f"/pwa/{rel}", path))
    for _, name in VENDOR_FILES:
        entries.append(("shell", f"/vendor/{name}", web_dir / "vendor" / name))
    for name in PYODIDE_PRECACHE:
        if (web_dir / "pyodide" / name).is_file():
            entries.append(("pyodide", f"/pyodide/{name}", web_dir / "pyodide" / name))
    pieces = web_dir / RULES_PIECES.name
    if pieces.is_dir():
        for path in sorted(pieces.iterdir()):
            if path.suffix in (".pack", ".json"):
                entries.append(("rules", f"/rules/{path.name}", path))
    return sorted(entries, key=lambda entry: (PRECACHE_GROUPS.index(entry[0]), entry[1]))


def content_hash(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:HASH_CHARS]


def precache_manifest(pwa_dir: Path = PWA_SRC, web_dir: Path = WEB_DIR) -> bytes:
    """``{"version", "groups": [{"name", "hash", "files": [{"url", "hash", "size"}]}]}``.

    A file's hash is that of its bytes; a group's hash, of its files' URLs and hashes
    (it names the group's cache on the device, so it changes exactly when one of the
    group's files does); the version, of the groups' hashes and the service worker
    (so a change to either is a new worker, and the update banner).
    """
    files: dict[str, list[dict]] = {name: [] for name in PRECACHE_GROUPS}
    for group, url, path in precache_entries(pwa_dir, web_dir):
        data = path.read_bytes()
        files[group].append({"url": url, "hash": content_hash(data), "size": len(data)})
    groups = []
    for name in PRECACHE_GROUPS:
        listing = "".join(f"{entry['url']}\0{entry['hash']}\n" for entry in files[name])
        group = {"name": name, "hash": content_hash(listing.encode("utf-8")), "files": files[name]}
        if name in STAFF_GROUPS:
            group["devices"] = "staff"
        groups.append(group)
    version = "".join(f"{group['name']}\0{group['hash']}\n" for group in groups).encode("utf-8")
    version += b"sw.js\0" + (pwa_dir / "sw.js").read_bytes()
    manifest = {"version": content_hash(version), "groups": groups}
    return (json.dumps(manifest, indent=1) + "\n").encode("utf-8")


def gzip_files(folder: Path, names: tuple[str, ...] = GZIPPED) -> list[str]:
    """Write ``NAME.gz`` beside each of ``names`` in ``folder``; the names written.

    A copy carries its source's modification time and is made again when that differs (the rule
    :func:`sync_runtime` copies by), and a copy whose source is gone is removed.
    """
    made = []
    for name in names:
        src, dest = folder / name, folder / (name + ".gz")
        if not src.is_file():
            dest.unlink(missing_ok=True)
            continue
        stat = src.stat()
        if dest.is_file() and dest.stat().st_mtime_ns == stat.st_mtime_ns:
            continue
        tmp = _tmp_path(dest)
        tmp.write_bytes(gzip.compress(src.read_bytes(), compresslevel=9, mtime=0))
        os.utime(tmp, ns=(stat.st_atime_ns, stat.st_mtime_ns))
        tmp.replace(dest)
        made.append(dest.name)
    return made


def _cache_tag(src: Path = PYODIDE_SRC) -> str:
    """``cpython-314`` for Pyodide's CPython 3.14: the name its bytecode files carry in ``__pycache__``."""
    return "c" + _python_tag(src).replace("python", "python-", 1)


def rule_pieces(zip_bytes: bytes, cache_tag: str) -> dict[str, bytes]:
    """The compiled rules zip as pieces, one per package folder: ``{piece name: bytes}``.

    In a piece, ``pkg/mod.py`` stays where it is and zipimport's ``pkg/mod.pyc`` goes where the file-system
    importer looks for it, ``pkg/__pycache__/mod.<cache_tag>.pyc`` (unchecked hash-based: no source check).
    """
    folders: dict[str, list[tuple[str, bytes]]] = {}
    with zipfile.ZipFile(io.BytesIO(zip_bytes)) as archive:
        for info in sorted(archive.infolist(), key=lambda i: i.filename):
            if info.is_dir():
                continue
            name = info.filename
            folder, _, base = name.rpartition("/")
            path = name
            if base.endswith(".pyc"):
                path = f"{folder + '/' if folder else ''}__pycache__/{base[:-4]}.{cache_tag}.pyc"
            folders.setdefault(folder, []).append((path, archive.read(info)))
    pieces = {}
    for folder, files in sorted(folders.items()):
        header = json.dumps([[path, len(data)] for path, data in files], separators=(",", ":")).encode() + b"\n"
        pieces[(folder.replace("/", ".") or "top") + ".pack"] = PIECE_MAGIC + header + b"".join(d for _, d in files)
    return pieces


def write_rule_pieces(zip_path: Path = RULES_ZIP, dest: Path = RULES_PIECES) -> list[str]:
    """Write the rules' pieces and their ``index.json`` (``{"build", "pieces": [{"url", "hash"}]}``) into ``dest``;
    the names (re)written. Pieces no longer made are removed."""
    pieces = rule_pieces(zip_path.read_bytes(), _cache_tag())
    dest.mkdir(parents=True, exist_ok=True)
    made = [name for name, data in pieces.items() if write_if_changed(dest / name, data)]
    listing = [{"url": f"/rules/{name}", "hash": content_hash(data)} for name, data in pieces.items()]
    build_id = content_hash("".join(f"{p['url']}\0{p['hash']}\n" for p in listing).encode("utf-8"))
    index = (json.dumps({"build": build_id, "pieces": listing}, indent=1) + "\n").encode("utf-8")
    if write_if_changed(dest / "index.json", index):
        made.append("index.json")
    for stale in dest.iterdir():
        if stale.name not in pieces and stale.name != "index.json":
            stale.unlink()
    return made


def _brotli() -> object | None:
    """The brotli module when installed (the project's venv has it through flask-compress), else None."""
    try:
        import brotli  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        return None
    return brotli


def compress_shell(src: Path = PWA_SRC, dest: Path = COMPRESSED_DEST / "pwa") -> list[str]:
    """Write ``NAME.gz`` (and ``NAME.br``) under ``dest`` for each text file of the app shell; the names written.

    A copy carries its source's modification time and is made again when that differs; copies whose source is
    gone are removed. sw.js is left out: the server stamps its version into it on each request.
    """
    brotli = _brotli()
    made: list[str] = []
    wanted: set[Path] = set()
    for path in sorted(src.rglob("*")):
        rel = path.relative_to(src).as_posix()
        if not path.is_file() or path.suffix not in COMPRESSIBLE or rel in PWA_SKIP or "__pycache__" in rel:
            continue
        stat = path.stat()
        data: bytes | None = None
        encoders = [(".gz", lambda raw: gzip.compress(raw, compresslevel=9, mtime=0))]
        if brotli is not None:
            encoders.append((".br", lambda raw: brotli.compress(raw, quality=11)))  # type: ignore[attr-defined]
        for suffix, encode in encoders:
            out = dest / (rel + suffix)
            wanted.add(out)
            if out.is_file() and out.stat().st_mtime_ns == stat.st_mtime_ns:
                continue
            data = path.read_bytes() if data is None else data
            out.parent.mkdir(parents=True, exist_ok=True)
            tmp = _tmp_path(out)
            tmp.write_bytes(encode(data))
            os.utime(tmp, ns=(stat.st_atime_ns, stat.st_mtime_ns))
            tmp.replace(out)
            made.append(rel + suffix)
    if dest.is_dir():
        for stale in dest.rglob("*"):
            if stale.is_file() and stale not in wanted:
                stale.unlink()
    return made


def build(quiet: bool = False) -> None:
    copied, removed = sync_runtime()
    write_if_changed(PYODIDE_DEST / LOCK_CORE, lock_core())
    gzip_files(PYODIDE_DEST)
    made = compile_assets(pack_rules())
    changed = RULES_ZIP.name in made
    sync_vendor()
    gzip_files(VENDOR_DEST, tuple(name for _, name in VENDOR_FILES))
    write_if_changed(APP_TABLES, app_tables())
    compress_shell()
    write_rule_pieces()
    compress_shell(RULES_PIECES, COMPRESSED_DEST / "rules")
    write_if_changed(PRECACHE_MANIFEST, precache_manifest())
    if not quiet:
        count = len(rules_sources())
        print(
            f"build: pyodide {pyodide_version()} -> build/web/pyodide/ "
            f"({copied} copied, {removed} removed); "
            f"shared_rules.zip {'written' if changed else 'unchanged'} ({count} modules); "
            f"{STDLIB_PYC} {'compiled' if STDLIB_PYC in made else 'unchanged'}"
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
