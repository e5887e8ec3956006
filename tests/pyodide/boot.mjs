// Shared by the Node runners: boot Pyodide from node_modules and copy parts of
// the repository into its in-memory filesystem.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { loadPyodide } from "pyodide";

export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const PYODIDE_ROOT = "/home/pyodide/topcut";

const SKIP_DIRS = new Set(["__pycache__", ".pytest_cache", ".hypothesis"]);

/** Every file under `path` (a file or folder relative to the repo), sorted. */
function walk(path) {
  const full = join(REPO_ROOT, path);
  let stats;
  try {
    stats = statSync(full);
  } catch {
    return [];
  }
  if (stats.isFile()) {
    return path.endsWith(".pyc") ? [] : [path];
  }
  return readdirSync(full)
    .filter((name) => !SKIP_DIRS.has(name))
    .sort()
    .flatMap((name) => walk(join(path, name)));
}

/** Copy repo paths (files or folders) to the same places under `root`. */
export function copyIntoPyodide(pyodide, paths, root = PYODIDE_ROOT) {
  let count = 0;
  for (const path of paths) {
    for (const file of walk(path)) {
      const target = `${root}/${relative(".", file).split(sep).join("/")}`;
      pyodide.FS.mkdirTree(target.slice(0, target.lastIndexOf("/")));
      pyodide.FS.writeFile(target, readFileSync(join(REPO_ROOT, file)));
      count += 1;
    }
  }
  return count;
}

/**
 * Boot Pyodide; Python's stdout/stderr go to the given byte sinks
 * (default: this process's own streams, unchanged).
 */
export async function bootPyodide({ stdout, stderr } = {}) {
  const sink = (write) => ({
    write(buffer) {
      write(Buffer.from(buffer));
      return buffer.length;
    },
  });
  const pyodide = await loadPyodide({ stdout: () => {}, stderr: () => {} });
  pyodide.setStdout(sink(stdout ?? ((bytes) => process.stdout.write(bytes))));
  pyodide.setStderr(sink(stderr ?? ((bytes) => process.stderr.write(bytes))));
  return pyodide;
}
