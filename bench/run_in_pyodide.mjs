// Run a benchmark module inside Pyodide under Node:
//   node bench/run_in_pyodide.mjs bench.standings [ARGS...]
// Copies shared_rules/, bench/ and the rules worker's pwa/rules/rules_api.py into Pyodide's filesystem and runs the module
// as `python -m MODULE ARGS` would; its figures print to stdout.
import { bootPyodide, copyIntoPyodide, PYODIDE_ROOT } from "../tests/pyodide/boot.mjs";

const [module, ...args] = process.argv.slice(2);
if (!module) {
  console.error("usage: node bench/run_in_pyodide.mjs MODULE [ARGS...]");
  process.exit(2);
}
const pyodide = await bootPyodide();
copyIntoPyodide(pyodide, ["shared_rules", "bench", "pwa/rules/rules_api.py"]);
pyodide.globals.set("MODULE", module);
pyodide.globals.set("ARGS", pyodide.toPy(args));
pyodide.globals.set("ROOT", PYODIDE_ROOT);
const code = pyodide.runPython(`
import os, runpy, sys
os.chdir(ROOT)
sys.path.insert(0, ROOT)
sys.argv = [MODULE, *ARGS]
status = 0
try:
    runpy.run_module(MODULE, run_name="__main__", alter_sys=True)
except SystemExit as exc:
    status = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
sys.stdout.flush()
status
`);
process.exit(code);
