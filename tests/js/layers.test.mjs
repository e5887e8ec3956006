// The app's layers (eslint.config.js): ESLint refuses a module that imports across them, so `npm run lint`
// fails on a screen that opens the database itself.
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { test } from "node:test";
import { ESLint } from "eslint";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const eslint = new ESLint({ cwd: ROOT });

/** The no-restricted-imports messages ESLint gives ``code`` placed at ``filePath`` (relative to the repo). */
async function refusals(filePath, code) {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.filter((m) => m.ruleId === "no-restricted-imports").map((m) => m.message);
}

test("a screen importing data/ fails the lint, naming the services door", async () => {
  const said = await refusals("pwa/views/example.js", 'import { allSessions } from "../data/db.js";\nallSessions();\n');
  assert.equal(said.length, 1);
  assert.match(said[0], /app\/services\.js/);
});

test("a screen importing the rules worker or push directly fails the lint", async () => {
  for (const spec of ["../rules/rules-client.js", "../sw/push.js"]) {
    const said = await refusals("pwa/views/example.js", `import { x } from "${spec}";\nx();\n`);
    assert.equal(said.length, 1, spec);
  }
});

test("a screen importing ui/, app/ and another screen passes", async () => {
  const code = 'import { h } from "../ui/dom.js";\nimport { rules } from "../app/services.js";\n'
    + 'import { penaltyText } from "./penalties.js";\nh(rules, penaltyText);\n';
  assert.deepEqual(await refusals("pwa/views/example.js", code), []);
});

test("a rendering helper importing a screen or data/ fails the lint", async () => {
  assert.equal((await refusals("pwa/ui/example.js", 'import m from "../views/home.js";\nm();\n')).length, 1);
  assert.equal((await refusals("pwa/ui/example.js", 'import { db } from "../data/db.js";\ndb();\n')).length, 1);
});

test("only app/services.js opens data/ within app/", async () => {
  const code = 'import { db } from "../data/db.js";\ndb();\n';
  assert.equal((await refusals("pwa/app/example.js", code)).length, 1);
  assert.deepEqual(await refusals("pwa/app/services.js", code), []);
});

test("data/ imports no app module, helper or screen", async () => {
  for (const spec of ["../app/store.js", "../ui/dom.js", "../views/home.js"]) {
    assert.equal((await refusals("pwa/data/example.js", `import { x } from "${spec}";\nx();\n`)).length, 1, spec);
  }
});
