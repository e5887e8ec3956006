// The page's side of the rules worker.  Only JSON text crosses the boundary.

const WORKER_URL = new URL("./rules-worker.js", import.meta.url);

/**
 * Start the module worker that runs shared_rules in Pyodide.
 * Resolves with the worker's "ready" report: {version, version_info, pyodide}.
 */
export function startRulesWorker() {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_URL, { type: "module" });
    worker.addEventListener("message", (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "ready") {
        resolve({ worker, ...message.about });
      } else if (message.type === "error") {
        reject(new Error(message.message));
      }
    });
    worker.addEventListener("error", (event) => {
      reject(new Error(event.message || "the rules worker could not start"));
    });
  });
}
