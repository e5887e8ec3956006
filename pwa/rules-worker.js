// Module Web Worker: boots Pyodide from this server (never a CDN), unpacks
// shared_rules.zip into Pyodide's filesystem, loads rules_api.py and answers
// the page's calls. Only JSON text crosses the boundary, both ways.
import { loadPyodide } from "/pyodide/pyodide.mjs";

const RULES_DIR = "/home/pyodide/topcut";

function post(message) {
  self.postMessage(JSON.stringify(message));
}

async function fetchOk(path) {
  const response = await fetch(new URL(path, self.location.origin));
  if (!response.ok) {
    throw new Error(`${path}: HTTP ${response.status}`);
  }
  return response;
}

let call = null;

async function boot() {
  const started = performance.now();
  const indexURL = new URL("/pyodide/", self.location.origin).href;
  const [pyodide, rulesZip, apiSource] = await Promise.all([
    loadPyodide({ indexURL }),
    fetchOk("/shared_rules.zip").then((r) => r.arrayBuffer()),
    fetchOk("/pwa/rules_api.py").then((r) => r.text()),
  ]);
  pyodide.unpackArchive(rulesZip, "zip", { extractDir: RULES_DIR });
  pyodide.FS.writeFile(`${RULES_DIR}/rules_api.py`, apiSource);
  const about = pyodide.runPython(`
import json, sys
sys.path.insert(0, ${JSON.stringify(RULES_DIR)})
import shared_rules, rules_api
json.dumps({"version": sys.version, "version_info": list(sys.version_info[:3])})
`);
  call = pyodide.globals.get("rules_api").call;
  return { ...JSON.parse(about), pyodide: pyodide.version, boot_ms: Math.round(performance.now() - started) };
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
  },
  (error) => post({ type: "error", message: String(error && error.message ? error.message : error) }),
);
