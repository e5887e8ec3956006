// Started before main.js: booting Pyodide is the long pole of a start, so the rules
// worker must not wait for the app's modules to load or for the first screen.
// (A file, not an inline script: the Content-Security-Policy allows no inline script.)
import { startRulesWorker } from "/pwa/rules/rules-client.js";

startRulesWorker().catch(() => {});  // main.js shows the outcome
