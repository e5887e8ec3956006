// ESLint (flat config): the recommended rules over the app and the JavaScript tests.
// `npm run lint`; `make check-js` runs it with the JS unit tests.
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["build/", "node_modules/", ".venv/", "instance/", "tests/artifacts/"] },
  js.configs.recommended,
  {
    languageOptions: { ecmaVersion: "latest", sourceType: "module" },
    linterOptions: { reportUnusedDisableDirectives: "error" },
  },
  // The page's modules (some of them, sync.js and outbox.js, also run in the service worker).
  { files: ["pwa/**/*.js"], languageOptions: { globals: { ...globals.browser } } },
  { files: ["pwa/rules-worker.js"], languageOptions: { globals: { ...globals.worker } } },
  { files: ["pwa/sw.js", "pwa/sw/**/*.js", "pwa/sw-push.js", "pwa/sync.js"],
    languageOptions: { globals: { ...globals.serviceworker } } },
  // Node: the tests, the Pyodide runners, scripts and this file.
  { files: ["tests/**/*.{js,mjs}", "scripts/**/*.{js,mjs}", "bench/**/*.{js,mjs}", "*.config.js"],
    languageOptions: { globals: { ...globals.node } } },
  // A stand-in service worker the push tests register.
  { files: ["tests/browser/push_sw/**/*.js"], languageOptions: { globals: { ...globals.serviceworker } } },
];
