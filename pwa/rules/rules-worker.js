// Module Web Worker: boots Pyodide from this server (never a CDN), imports
// shared_rules and rules_api straight from shared_rules.zip and answers the
// page's calls. Only JSON text crosses the boundary, both ways.
//
// A cold start is mostly the interpreter starting, so everything else is kept
// off its path (see scripts/build_assets.py and bench/pwa.py):
//   * the standard library comes as bytecode (python_stdlib.pyc.zip), and so
//     does shared_rules.zip: no module is compiled from source on the device;
//   * the lock file is the core one (no package entries): no package loads;
//   * shared_rules.zip is fetched while Pyodide boots and goes on sys.path as
//     it is (zipimport): nothing to unpack;
//   * rules_api imports only what its first call (fold) needs, the rest lazily.
import { loadPyodide } from "/pyodide/pyodide.mjs";

// Boot phases, as epoch milliseconds (the page subtracts its own time origin).
const marks = {};
const mark = (name) => { marks[name] = performance.timeOrigin + performance.now(); };
mark("worker_start");

const RULES_ZIP = "/home/pyodide/shared_rules.zip";
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

/**
 * Two 32-bit hashes (FNV-1a and djb2) and the length of the bytes, as text: tells builds apart (not a
 * security check; crypto.subtle is missing where the page is not a secure context, e.g. http on a LAN).
 */
function buildOf(bytes) {
  let fnv = 0x811c9dc5;
  let djb = 5381;
  for (let i = 0; i < bytes.length; i += 1) {
    fnv = Math.imul(fnv ^ bytes[i], 0x01000193);
    djb = (Math.imul(djb, 33) + bytes[i]) | 0;
  }
  return [fnv >>> 0, djb >>> 0, bytes.length].map((n) => n.toString(16)).join("-");
}

let call = null;
let warm = null;

async function boot() {
  const started = performance.now();
  const rulesZip = fetchBytes("/shared_rules.zip");
  rulesZip.catch(() => {});  // reported by the await below
  // Which rules this worker runs (hashed while Pyodide boots): a device keeps a folded
  // state only for the rules that folded it (store.js snapshots).
  const rulesBuild = rulesZip.then(buildOf);
  rulesBuild.catch(() => {});
  const pyodide = await loadPyodide({
    indexURL: PYODIDE_URL,
    stdLibURL: `${PYODIDE_URL}python_stdlib.pyc.zip`,
    lockFileURL: `${PYODIDE_URL}pyodide-lock.core.json`,
    // Before the interpreter starts: the rules zip is in place, and on sys.path from the first import.
    env: { PYTHONPATH: RULES_ZIP },
    fsInit: async (FS) => {
      mark("runtime_up");
      FS.mkdirTree(RULES_ZIP.slice(0, RULES_ZIP.lastIndexOf("/")));
      FS.writeFile(RULES_ZIP, await rulesZip);
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
