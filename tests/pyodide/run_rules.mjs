// Run the shared_rules test suite (tests/rules, unittest) inside Pyodide under Node.
//
//   node tests/pyodide/run_rules.mjs [-v] [PATTERN]
//
// Copies shared_rules/, tests/__init__.py, tests/rules/, tests/fixtures/ and tests/golden/ into
// Pyodide's filesystem, discovers tests/rules with the repository root as the
// top-level folder, and ends with the line "pyodide: N passed, N failed".
// Exits non-zero on any failure or error, or when no test ran.
import { bootPyodide, copyIntoPyodide, PYODIDE_ROOT } from "./boot.mjs";

const args = process.argv.slice(2);
const verbosity = args.includes("-v") ? 2 : 1;
const pattern = args.find((arg) => !arg.startsWith("-")) ?? "test*.py";

const started = Date.now();
const pyodide = await bootPyodide();
const copied = copyIntoPyodide(pyodide, [
  "shared_rules",
  "tests/__init__.py",
  "tests/rules",
  "tests/fixtures",
  "tests/golden",
]);
console.log(`pyodide ${pyodide.version}: copied ${copied} files, running tests/rules (${pattern})`);

pyodide.globals.set("VERBOSITY", verbosity);
pyodide.globals.set("PATTERN", pattern);
pyodide.globals.set("ROOT", PYODIDE_ROOT);
const summary = JSON.parse(
  pyodide.runPython(`
import json, os, sys, unittest
os.chdir(ROOT)
sys.path.insert(0, ROOT)
print(f"Python {sys.version}")
suite = unittest.TestLoader().discover("tests/rules", pattern=PATTERN, top_level_dir=ROOT)
result = unittest.TextTestRunner(stream=sys.stdout, verbosity=VERBOSITY).run(suite)
sys.stdout.flush()
bad = len(result.failures) + len(result.errors) + len(result.unexpectedSuccesses)
json.dumps({
    "ran": result.testsRun,
    "failed": bad,
    "skipped": len(result.skipped),
    "passed": result.testsRun - bad - len(result.skipped) - len(result.expectedFailures),
})
`),
);

const seconds = ((Date.now() - started) / 1000).toFixed(1);
console.log(`pyodide: ran ${summary.ran} tests in ${seconds}s`);
if (summary.ran === 0) {
  console.log("pyodide: no test ran, which counts as a failure");
}
const skipped = summary.skipped ? `, ${summary.skipped} skipped` : "";
console.log(`pyodide: ${summary.passed} passed, ${summary.failed} failed${skipped}`);
process.exitCode = summary.failed > 0 || summary.ran === 0 ? 1 : 0;
