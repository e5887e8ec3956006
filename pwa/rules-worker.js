// Module Web Worker: boots Pyodide from this server (never a CDN), unpacks
// shared_rules.zip into Pyodide's filesystem and imports it.
import { loadPyodide } from "/pyodide/pyodide.mjs";

const RULES_DIR = "/home/pyodide/topcut";

function post(message) {
  self.postMessage(JSON.stringify(message));
}

async function boot() {
  const indexURL = new URL("/pyodide/", self.location.origin).href;
  const pyodide = await loadPyodide({ indexURL });
  const response = await fetch(new URL("/shared_rules.zip", self.location.origin));
  if (!response.ok) {
    throw new Error(`shared_rules.zip: HTTP ${response.status}`);
  }
  pyodide.unpackArchive(await response.arrayBuffer(), "zip", { extractDir: RULES_DIR });
  const about = pyodide.runPython(`
import json, sys
sys.path.insert(0, ${JSON.stringify(RULES_DIR)})
import shared_rules
json.dumps({"version": sys.version, "version_info": list(sys.version_info[:3])})
`);
  return { ...JSON.parse(about), pyodide: pyodide.version };
}

boot().then(
  (about) => post({ type: "ready", about }),
  (error) => post({ type: "error", message: String(error && error.message ? error.message : error) }),
);
