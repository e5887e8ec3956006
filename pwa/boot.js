// Started before main.js: booting Pyodide is the long pole of a start, so the rules
// worker must not wait for the app's modules to load or for the first screen.
// (A file, not an inline script: the Content-Security-Policy allows no inline script.)
// Not on a player's phone (app/device.js): it runs no rules engine and never downloads Pyodide.
import { startRulesWorker } from "/pwa/rules/rules-client.js";

const kind = globalThis.localStorage?.getItem("topcut.device");
const redeeming = /^#(join=|\/public\/)/.test(location.hash);
if (kind === "staff" || (!kind && !redeeming)) startRulesWorker().catch(() => {});  // main.js shows the outcome
