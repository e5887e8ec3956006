// ESLint (flat config): the recommended rules over the app and the JavaScript tests.
// `npm run lint`; `make check-js` runs it with the JS unit tests.
import js from "@eslint/js";
import globals from "globals";

/** Where a folder's modules may not import from, and why (a screen reaches data only through app/services.js). */
const LAYER_RULES = [
  [["pwa/views/**/*.js"], ["data", "rules", "sw"],
    "screens reach data, the rules worker and push only through app/services.js"],
  [["pwa/ui/**/*.js"], ["data", "rules", "sw", "views"],
    "rendering helpers reach data only through app/services.js and import no screen"],
  [["pwa/app/**/*.js"], ["views", "ui"], "app/ holds no screen: views/ and ui/ import app/, not the other way"],
  [["pwa/data/**/*.js", "pwa/rules/**/*.js", "pwa/sw/**/*.js"], ["views", "ui", "app"],
    "data/, rules/ and sw/ are the bottom layers: they import no screen, helper or app module"],
];
const LAYERS = LAYER_RULES.map(([files, folders, message]) => ({
  files,
  rules: {
    "no-restricted-imports": ["error", {
      patterns: [{ regex: `(^|/)(${folders.join("|")})/`, message }],
    }],
  },
}));
/** Only app/services.js opens data/, rules/ and sw/ within app/ (the one door to data). */
const SERVICES_DOOR = {
  files: ["pwa/app/**/*.js"],
  ignores: ["pwa/app/services.js"],
  rules: {
    "no-restricted-imports": ["error", {
      patterns: [{ regex: "(^|/)(views|ui|data|rules|sw)/", message: "app/ modules reach data/, rules/ and sw/ through ./services.js and import no screen" }],
    }],
  },
};

export default [
  { ignores: ["build/", "node_modules/", ".venv/", "instance/", "tests/artifacts/"] },
  js.configs.recommended,
  {
    languageOptions: { ecmaVersion: "latest", sourceType: "module" },
    linterOptions: { reportUnusedDisableDirectives: "error" },
  },
  // The page's modules (some of them, sync.js and outbox.js, also run in the service worker).
  { files: ["pwa/**/*.js"], languageOptions: { globals: { ...globals.browser } } },
  { files: ["pwa/rules/rules-worker.js"], languageOptions: { globals: { ...globals.worker } } },
  { files: ["pwa/sw.js", "pwa/sw/**/*.js", "pwa/data/sync.js"],
    languageOptions: { globals: { ...globals.serviceworker } } },
  // The app's layers (README "Where things live"): a folder imports only the folders under it.
  ...LAYERS,
  SERVICES_DOOR,
  // A screen is named functions, none longer than a screenful or two.
  { files: ["pwa/views/**/*.js"],
    rules: { "max-lines-per-function": ["error", { max: 120 }] } },
  // Node: the tests, the Pyodide runners, scripts and this file.
  { files: ["tests/**/*.{js,mjs}", "scripts/**/*.{js,mjs}", "bench/**/*.{js,mjs}", "*.config.js"],
    languageOptions: { globals: { ...globals.node } } },
  // A stand-in service worker the push tests register.
  { files: ["tests/browser/push_sw/**/*.js"], languageOptions: { globals: { ...globals.serviceworker } } },
];
