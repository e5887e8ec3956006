// Page bootstrap: start the rules worker and show what it reports.
import { startRulesWorker } from "./rules-client.js";

const status = document.getElementById("status");
const pythonVersion = document.getElementById("python-version");

function show(state, text) {
  status.dataset.state = state;
  status.textContent = text;
}

startRulesWorker().then(
  (about) => {
    const [major, minor, micro] = about.version_info;
    pythonVersion.textContent = `Python ${major}.${minor}.${micro}`;
    pythonVersion.title = about.version;
    show("ready", `Rules engine ready (Pyodide ${about.pyodide})`);
  },
  (error) => show("error", `Rules engine failed to start: ${error.message}`),
);
