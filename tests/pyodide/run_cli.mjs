// Run `python -m MODULE ARGS...` inside Pyodide under Node, for comparing its
// output byte for byte with CPython's (tests/pyodide_helper.py drives it).
//
// Direct:  node tests/pyodide/run_cli.mjs [-C DIR] [-m MODULE] [--] ARGS...
//   Copies the files of host folder DIR (default: none) into Pyodide's working
//   folder, runs MODULE (default shared_rules) there, writes its stdout and
//   stderr bytes to this process's streams and exits with its exit code.
//
// Batch:   node tests/pyodide/run_cli.mjs --batch SPEC.json
//   SPEC is [{"module": "shared_rules", "args": [...], "files": {"name": "<base64>"}}, ...];
//   prints one JSON line: [{"code": N, "stdout": "<base64>", "stderr": "<base64>"}, ...].
//   One Pyodide boot serves every invocation, each in a fresh working folder.
//
// shared_rules/ is always copied in and importable, as with `pip install -e .`.
// A failure of the runner itself exits 120 with a message starting "run_cli:".
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { bootPyodide, copyIntoPyodide, PYODIDE_ROOT } from "./boot.mjs";

const RUNNER_FAILED = 120;

const RUN_MODULE = `
import os, runpy, sys, traceback

def run_module(module, args, workdir):
    """Like \`python -m module *args\` started in workdir; returns the exit code."""
    saved = (list(sys.argv), list(sys.path), os.getcwd())
    os.chdir(workdir)
    sys.argv = [module, *args]
    sys.path.insert(0, workdir)
    try:
        runpy.run_module(module, run_name="__main__", alter_sys=True)
        code = 0
    except SystemExit as exit:
        if exit.code is None:
            code = 0
        elif isinstance(exit.code, int):
            code = exit.code
        else:
            print(exit.code, file=sys.stderr)
            code = 1
    except BaseException:
        traceback.print_exc()
        code = 1
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        sys.argv[:], sys.path[:] = saved[0], saved[1]
        os.chdir(saved[2])
    return code
`;

function parseDirect(argv) {
  const options = { module: "shared_rules", dir: null, args: [] };
  for (let i = 0; i < argv.length; i += 1) {
    if (argv[i] === "--") {
      options.args.push(...argv.slice(i + 1));
      break;
    } else if (argv[i] === "-m") {
      options.module = argv[++i];
    } else if (argv[i] === "-C") {
      options.dir = argv[++i];
    } else {
      options.args.push(...argv.slice(i));
      break;
    }
  }
  return options;
}

function hostFiles(dir, prefix = "") {
  if (!dir) return {};
  const files = {};
  for (const name of readdirSync(dir).sort()) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) {
      Object.assign(files, hostFiles(full, `${prefix}${name}/`));
    } else {
      files[`${prefix}${name}`] = readFileSync(full);
    }
  }
  return files;
}

async function main() {
  const argv = process.argv.slice(2);
  const batch = argv[0] === "--batch";
  const invocations = batch
    ? JSON.parse(readFileSync(argv[1], "utf8")).map((spec) => ({
        module: spec.module ?? "shared_rules",
        args: spec.args ?? [],
        files: Object.fromEntries(
          Object.entries(spec.files ?? {}).map(([name, b64]) => [name, Buffer.from(b64, "base64")]),
        ),
      }))
    : [(({ module, dir, args }) => ({ module, args, files: hostFiles(dir) }))(parseDirect(argv))];

  let out = [];
  let err = [];
  const pyodide = await bootPyodide({
    stdout: (bytes) => out.push(bytes),
    stderr: (bytes) => err.push(bytes),
  });
  copyIntoPyodide(pyodide, ["shared_rules"]);
  pyodide.runPython(`import sys; sys.path.insert(0, ${JSON.stringify(PYODIDE_ROOT)})`);
  pyodide.runPython(RUN_MODULE);
  const runModule = pyodide.globals.get("run_module");

  const results = invocations.map((invocation, index) => {
    const workdir = `/home/pyodide/run-${index}`;
    pyodide.FS.mkdirTree(workdir);
    for (const [name, bytes] of Object.entries(invocation.files)) {
      const target = `${workdir}/${name}`;
      pyodide.FS.mkdirTree(target.slice(0, target.lastIndexOf("/")));
      pyodide.FS.writeFile(target, bytes);
    }
    out = [];
    err = [];
    const args = pyodide.toPy(invocation.args);
    const code = runModule(invocation.module, args, workdir);
    args.destroy();
    return { code, stdout: Buffer.concat(out), stderr: Buffer.concat(err) };
  });
  runModule.destroy();

  if (batch) {
    const encoded = results.map(({ code, stdout, stderr }) => ({
      code,
      stdout: stdout.toString("base64"),
      stderr: stderr.toString("base64"),
    }));
    process.stdout.write(`${JSON.stringify(encoded)}\n`);
    return 0;
  }
  const [{ code, stdout, stderr }] = results;
  process.stdout.write(stdout);
  process.stderr.write(stderr);
  return code;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    process.stderr.write(`run_cli: ${error && error.stack ? error.stack : error}\n`);
    process.exitCode = RUNNER_FAILED;
  },
);
