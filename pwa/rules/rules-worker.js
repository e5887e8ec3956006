// Module Web Worker: boots Pyodide from this server (never a CDN), imports
// shared_rules and rules_api from the rules' pieces (/rules/index.json: one
// piece per package folder, so a rules update re-downloads only the pieces that
// changed) and answers the page's calls. Only JSON text crosses the boundary.
//
// A cold start is mostly the interpreter starting, so everything else is kept
// off its path (see scripts/build_assets.py and bench/pwa.py):
//   * the standard library comes as bytecode (python_stdlib.pyc.zip), and so
//     do the rules (each piece holds its modules' __pycache__ bytecode): no
//     module is compiled from source on the device;
//   * the lock file is the core one (no package entries): no package loads;
//   * the pieces are fetched while Pyodide boots and written into its
//     filesystem (/home/pyodide/rules, on sys.path) before the interpreter starts;
//   * rules_api imports only what its first call (fold) needs, the rest lazily.
import { loadPyodide } from "/pyodide/pyodide.mjs";

// Boot phases, as epoch milliseconds (the page subtracts its own time origin).
const marks = {};
const mark = (name) => { marks[name] = performance.timeOrigin + performance.now(); };
mark("worker_start");

const RULES_DIR = "/home/pyodide/rules";
const PIECE_MAGIC = "topcut-rules-piece/1\n";
const PYODIDE_URL = new URL("/pyodide/", self.location.origin).href;

function post(message) {
  self.postMessage(JSON.stringify(message));
}

async function fetchBytes(path) {
  const response = await fetch(new URL(path, self.location.origin));
  if (!response.ok) {
    throw new Error(`${path}: HTTP ${response.status}`);
  }
  return new Uint8Array(await response.arrayBuffer());
}

/** A piece's files, ``[[path, bytes]]`` (scripts/build_assets.py rule_pieces: magic, JSON listing, bytes). */
function readPiece(bytes, url) {
  const magic = new TextDecoder().decode(bytes.subarray(0, PIECE_MAGIC.length));
  const end = bytes.indexOf(10, PIECE_MAGIC.length);
  if (magic !== PIECE_MAGIC || end < 0) throw new Error(`${url}: not a rules piece`);
  const listing = JSON.parse(new TextDecoder().decode(bytes.subarray(PIECE_MAGIC.length, end)));
  let at = end + 1;
  return listing.map(([path, size]) => {
    const data = bytes.subarray(at, at + size);
    at += size;
    return [path, data];
  });
}

async function fetchRules() {
  const response = await fetch(new URL("/rules/index.json", self.location.origin));
  if (!response.ok) throw new Error(`/rules/index.json: HTTP ${response.status}`);
  const index = await response.json();
  const pieces = await Promise.all(index.pieces.map(async (piece) => readPiece(await fetchBytes(piece.url), piece.url)));
  return { build: index.build, files: pieces.flat() };
}

let call = null;
let warm = null;

async function boot() {
  const started = performance.now();
  const rules = fetchRules();
  rules.catch(() => {});  // reported by the await below
  // Which rules this worker runs (the index's hash of every piece): a device keeps a folded
  // state only for the rules that folded it (store.js snapshots).
  const rulesBuild = rules.then((r) => r.build);
  rulesBuild.catch(() => {});
  const pyodide = await loadPyodide({
    indexURL: PYODIDE_URL,
    stdLibURL: `${PYODIDE_URL}python_stdlib.pyc.zip`,
    lockFileURL: `${PYODIDE_URL}pyodide-lock.core.json`,
    // Before the interpreter starts: the rules are in place, and on sys.path from the first import.
    env: { PYTHONPATH: RULES_DIR },
    fsInit: async (FS) => {
      mark("runtime_up");
      for (const [path, data] of (await rules).files) {
        const file = `${RULES_DIR}/${path}`;
        FS.mkdirTree(file.slice(0, file.lastIndexOf("/")));
        FS.writeFile(file, data);
      }
      mark("zip_in_place");
    },
  });
  mark("pyodide_loaded");
  const about = pyodide.runPython(`
import json, sys
import rules_api
json.dumps({"version": sys.version, "version_info": list(sys.version_info[:3])})
`);
  const api = pyodide.globals.get("rules_api");
  call = api.call;
  warm = api.warm;
  mark("imported");
  return { ...JSON.parse(about), pyodide: pyodide.version, boot_ms: Math.round(performance.now() - started), marks,
           rules_build: await rulesBuild };
}

const queue = [];

function answer(text) {
  const { id } = JSON.parse(text);
  const body = call(text);
  // The body is already JSON text: splice it in rather than parse and re-encode a large state.
  self.postMessage(`{"type":"reply","id":${JSON.stringify(id)},"body":${body}}`);
}

self.addEventListener("message", (event) => {
  if (call === null) {
    queue.push(event.data);
  } else {
    answer(event.data);
  }
});

boot().then(
  (about) => {
    post({ type: "ready", about });
    while (queue.length) answer(queue.shift());
    // The state machinery next, while the page reads IndexedDB (a call that comes first imports what it needs).
    setTimeout(() => warm(), 0);
  },
  (error) => post({ type: "error", message: String(error && error.message ? error.message : error) }),
);
